"""Kernels kept preheated for a class that arrives at once (`leopard-tutor --class-size N`, or by default on a
server listening beyond this machine: `launch.class_pool`).

Voilà keeps a pool of preheated kernels (its `pool_size`), each with the app already built and waiting for
its visitor, and refills the pool after each visit by starting all the missing kernels at once. For a
class, `PoolFiller` takes over the refilling (through Voilà's own `kernel_pools_config`, whose pool size it
keeps at 0 but while it asks Voilà for one kernel, so that Voilà's refill after a visit starts none): it keeps
up to N kernels ready, never more than the session cap leaves room for, and starts them one at a time, each
once the one before has built the app, and only while no page is waiting to be made (those students come
first). Before the bell it fills the pool
kernel by kernel; while the class arrives it waits; afterwards it fills again at the pace of one kernel.
A pool that may grow keeps one kernel more for each student who had to wait in line (up to its `most`): the
next class that arrives at once finds them ready.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

CLASS_POOL = 30
"""Kernels a server listening beyond this machine (for a class) keeps preheated unless told
(`launch.class_pool`): a class. Measured (benchmarks/classroom_load.py --students 30 --browsers 0 --ramp 3
--server-ip 0.0.0.0, on 2 processors): 30 students opening the link within 3 s had a board p95 in 0.2 s with 30
kernels ready, 13.7 s with 10 (the other 20 started one after the other); 30 idle kernels take 1.5 GiB (PSS)
and are ready about 30 s after the start."""
CLASS_POOL_GROWS_TO = 60
"""How many it keeps, at most, as students keep arriving (one more for each who had to wait in line)."""
READY_SECONDS = 60.0
"""How long a starting kernel may take to build the app before the filler starts the next one anyway."""
LOOK_SECONDS = 0.5
"""How often the filler looks whether the pool needs a kernel, when nothing has told it."""


def kernel_ready(kernel_id: str) -> bool:
    """Whether a preheated kernel has built the app and waits for its visitor (it has asked Voilà's query
    socket for the visitor's request)."""
    from voila.request_info_handler import RequestInfoSocketHandler

    return kernel_id in RequestInfoSocketHandler._waiters


def ready_kernels(manager: Any) -> int:
    """Preheated kernels of `manager` ready for a visitor now (0 if it keeps none)."""
    count = 0
    for pool in getattr(manager, "_pools", {}).values():
        for task in pool:
            if task.done() and not task.cancelled() and task.exception() is None \
                    and kernel_ready(task.result()["kernel_id"]):
                count += 1
    return count


class PoolFiller:
    """Keeps up to `size` preheated kernels of `manager` (Voilà's kernel manager) for its notebook, one more for
    each of the `waited()` students who waited in line so far, up to `most` (default `size`): no more than
    `room()` (sessions the cap still allows), one starting at a time, none while `busy()` (pages are waiting to
    be made). `wake` is set when a kernel has been handed out (`visits.PageKernels`)."""

    def __init__(self, manager: Any, size: int, room: Callable[[], int], busy: Callable[[], bool],
                 most: int | None = None, waited: Callable[[], int] = lambda: 0) -> None:
        self.manager = manager
        self.size = size
        self.most = size if most is None else max(size, most)
        self.room = room
        self.busy = busy
        self.waited = waited
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def install(self) -> None:
        """Take over the manager's refilling (its pool size 0 between this filler's own calls: its refill after a
        visit starts nothing) and start."""
        self.pool_size(0)
        self.task = asyncio.get_event_loop().create_task(self.run())

    def stop(self) -> None:
        """Start no more kernels."""
        if self.task is not None:
            self.task.cancel()

    def pool_size(self, size: int) -> None:
        """Set the pool size Voilà's refill (`fill_if_needed`) fills up to."""
        self.manager.kernel_pools_config.setdefault("default", {})["pool_size"] = size

    def target(self) -> int:
        """Kernels the pool keeps once filled: `size`, grown by the students who waited, up to `most`."""
        return min(self.most, self.size + self.waited())

    def wanted(self) -> int:
        """Kernels the pool should hold now (within the room the cap leaves)."""
        return max(0, min(self.target(), self.room()))

    async def run(self) -> None:
        """Start kernels one at a time while the pool holds fewer than `wanted` and no page waits."""
        notebook = self.manager.notebook_path
        while True:
            self.wake.clear()
            pool = self.manager._pools.get(notebook, [])
            if len(pool) < self.wanted() and not self.busy():
                await self.start_one(notebook, len(pool) + 1)
                continue
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wake.wait(), LOOK_SECONDS)

    async def start_one(self, notebook: str, size: int) -> None:
        """Have Voilà start one kernel for the pool (its pool size set to `size` for that call) and wait until
        it has built the app (at most `READY_SECONDS`)."""
        self.pool_size(size)
        try:
            self.manager.fill_if_needed(delay=0, notebook_name=notebook)
        finally:
            self.pool_size(0)
        pool = self.manager._pools.get(notebook, [])
        if not pool:
            return
        loop = asyncio.get_event_loop()
        deadline = loop.time() + READY_SECONDS
        try:
            started = await pool[-1]
        except Exception:  # a kernel that could not start: Voilà logs it; the next look tries again
            await asyncio.sleep(LOOK_SECONDS)
            return
        while loop.time() < deadline and not kernel_ready(started["kernel_id"]):
            await asyncio.sleep(0.1)
        print(f"Preheated kernels ready: {ready_kernels(self.manager)} of {self.target()}", flush=True)


async def end_preheated(manager: Any, filler: PoolFiller | None = None) -> None:
    """End every preheated kernel of `manager` that has started at once, its `filler` stopped first (it would
    start another as the pool shrinks), as a stopping server does: asked to shut down instead, each would log a
    traceback, its notebook's cell still waiting for the visitor's request when its sockets close."""
    if filler is not None:
        filler.stop()
    started = [task.result()["kernel_id"] for pool in list(getattr(manager, "_pools", {}).values())
               for task in tuple(pool) if task.done() and not task.cancelled() and task.exception() is None]
    await asyncio.gather(*(manager.shutdown_kernel(kernel_id, now=True) for kernel_id in started
                           if kernel_id in manager), return_exceptions=True)  # (one gone meanwhile is no matter)
