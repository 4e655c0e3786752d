"""A kernel that dies costs no page: a visitor handed the preheated kernel that died before it could build the app
(its ports taken by another program as it started, say) gets a page with the app, not "404 Not Found"; and the
server's processor watch reads past a page whose kernel is gone, without a traceback every few seconds."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from kernel_client import Visit, run

from leopard_tutor.server import guards
from leopard_tutor.server.state import ServerState
from leopard_tutor.server.visits import PageKernels

DYING_KERNELS = """\
import os
FILE = {counter!r}
if b"ipykernel" in open("/proc/self/cmdline", "rb").read() and os.path.exists(FILE):
    left = int(open(FILE).read() or 0)
    if left > 0:
        open(FILE, "w").write(str(left - 1))
        os._exit(1)
"""
"""A sitecustomize that makes the next kernels started exit at once, as many as the counter file says."""
RESTARTS = 5
"""The tries jupyter_client's restarter makes before it gives a kernel up (its `restart_limit`)."""


def test_the_processor_watch_skips_a_kernel_gone_from_the_manager() -> None:
    """jupyter_server's manager answers a kernel it no longer has with an HTTP 404, not a KeyError."""
    assert guards.kernel_pid(AsyncMappingKernelManager(), "a-kernel-that-died") is None


def done(result: Any = None, error: BaseException | None = None) -> asyncio.Future[Any]:
    """A future already finished with `result`, or with `error`."""
    future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)
    return future


class Manager:
    """Voilà's kernel manager as far as handing out a preheated kernel goes."""

    def __init__(self, alive: set[str]) -> None:
        self.alive = alive
        self._pools: dict[str, list[asyncio.Future[Any]]] = {}
        self.shut: list[str] = []
        self.fills = 0

    def __contains__(self, kernel_id: str) -> bool:
        return kernel_id in self.alive

    async def shutdown_kernel(self, kernel_id: str, now: bool = False) -> None:
        self.shut.append(kernel_id)

    def fill_if_needed(self, delay: float | None = None, notebook_name: str = "") -> None:
        self.fills += 1


def test_a_preheated_kernel_that_cannot_build_the_app_is_dropped_and_the_pool_filled_again() -> None:
    async def check() -> None:
        manager = Manager({"good", "restarted"})
        never = asyncio.get_event_loop().create_future()
        pool = [
            done({"kernel_id": "gone", "task": done([])}),  # died: the restarter gave it up
            done({"kernel_id": "restarted", "task": done(error=RuntimeError("Kernel died"))}),  # its run failed
            done(error=RuntimeError("could not start")),
            done({"kernel_id": "good", "task": never}),  # building the app
            asyncio.get_event_loop().create_future(),  # still starting
        ]
        good, starting = pool[3], pool[4]
        manager._pools["nb.ipynb"] = list(pool)
        page = PageKernels(manager, ServerState(), guards.PageRequest("ana"))
        assert page.get_pool_size("nb.ipynb") == 2
        assert manager._pools["nb.ipynb"] == [good, starting]
        await asyncio.sleep(0)
        assert manager.shut == ["restarted"], "only a kernel the manager still has is shut down"
        assert manager.fills == 1
        assert page.get_pool_size("nb.ipynb") == 2 and manager.fills == 1, "nothing more to drop, no refill"
        never.cancel()
        starting.cancel()

    asyncio.run(check())


async def open_the_app(url: str) -> None:
    """Open the page as a visitor and find its board (VisitError on a refusal, a 404 page among them)."""
    visit = Visit(url)
    try:
        await visit.open()
        assert visit.board
    finally:
        await visit.close()


@pytest.mark.slow
def test_a_visitor_handed_a_preheated_kernel_that_died_gets_the_app(tmp_path: Path, server_tools: Any) -> None:
    start, stop = server_tools
    counter = tmp_path / "kernels-to-kill"
    counter.write_text(str(1 + RESTARTS))  # the first preheated kernel, and every restart of it
    kit = tmp_path / "site"
    kit.mkdir()
    (kit / "sitecustomize.py").write_text(DYING_KERNELS.format(counter=str(counter)))
    server = start(tmp_path / "server.log", prefix=["env", f"PYTHONPATH={kit}"])
    try:
        log = server.log_text
        deadline = time.monotonic() + 90
        while "removing from map" not in log() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "removing from map" in log(), "the preheated kernel was not given up"
        run(open_the_app(server.url))
        assert "Dropped preheated kernel" in log()
        assert "Exception in callback" not in log()
    finally:
        stop(server.process)
