"""How much processor one visitor's kernels may take together: a per-visitor pace in the server process.

Each kernel paces its own clicks (`pacing.py`), but a visitor (one browser) may have several tabs,
each a kernel with a pace of its own. So the server also reads, every `SAMPLE_SECONDS`, the processor
time each visitor's kernel processes took (`KernelProcessors`) and spends it from that visitor's budget
(`VisitorPace`): a burst of `VISITOR_BURST` seconds, coming back at `VISITOR_SHARE` of one processor for
all of that visitor's kernels together. The budget binds only while someone else wants the processors
(another visitor's pages sent their kernels something within the last `CONTENDED_SECONDS`): a visitor alone
on the server may use it all, and what they use alone is not held against them later. While a visitor's budget is spent,
the server holds the messages their pages send to their kernels and forwards them, in order, once it is
back above zero (`connection_gate.py`, `guards.py`).

A person sends one click at a time and waits for the answer, so at most one of their clicks waits; a
script flooding its kernels (a New match loop against the expert in four tabs) is slowed to that share.

Pure Python but for `processor_seconds` (psutil), so it is tested with a fake clock and processor.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Mapping

import psutil

VISITOR_BURST = 10.0
"""Seconds of processor a visitor's kernels may take back to back: as much as one kernel's own pace allows
(`pacing.WORK_BURST`: one turn of the expert's in Running Leopard, or a review and a few of the expert's moves), so
one tab played by a person never waits, nor has its kernels lowered (`LOWERED_NICE`). It was 5 s, half of that."""
VISITOR_SHARE = 0.4
"""The share of one processor a visitor's kernels get together after that burst: a little more than one
kernel's own pace (`pacing.WORK_SHARE`, 0.3), so a visitor with one tab is held by that pace first, while
four tabs together get no more than about one and a third of it."""
CONTENDED_SECONDS = 5.0
"""How long a visitor counts as wanting the processors after their pages last sent their kernels something:
a student between two clicks, thinking, still counts."""
LOWERED_NICE = 19
"""The scheduling priority ("nice" value: the lowest) a kernel runs at for the rest of its life once its
visitor has been over budget: the system then gives the processors to the class's kernels first
whenever both want them, at once rather than at the next reading (an unprivileged process cannot raise a
priority again, so it stays)."""
SAMPLE_SECONDS = 0.5
"""Seconds between two readings of the kernels' processor time: a held click waits at most about this
long once its visitor is back within budget, and reading a few hundred processes twice a second is cheap."""


def processor_seconds(pid: int) -> float | None:
    """The processor time (user and system) the process `pid` has taken so far (None if it is gone)."""
    try:
        times = psutil.Process(pid).cpu_times()
    except psutil.Error:
        return None
    return float(times.user + times.system)


def lower_priority(pid: int) -> None:
    """Run the process `pid` at `LOWERED_NICE` from now on (nothing if it is gone)."""
    try:
        psutil.Process(pid).nice(LOWERED_NICE)
    except psutil.Error:
        return


class KernelProcessors:
    """The processor time each visitor's kernels took between two readings, and the kernels run at a lower
    priority since their visitor was over budget."""

    def __init__(self, read: Callable[[int], float | None] = processor_seconds,
                 lower: Callable[[int], None] = lower_priority) -> None:
        self.read = read
        self.lower = lower
        self.last: dict[str, float] = {}
        self.lowered: set[int] = set()

    def lower_over_budget(self, kernels: Mapping[str, tuple[str, int]], pace: VisitorPace) -> None:
        """Lower the priority of every kernel in `kernels` (kernel id: (visitor, pid)) whose visitor is over
        budget in `pace`, once; forget the processes no longer given."""
        pids = {pid for _, pid in kernels.values()}
        self.lowered &= pids
        for visitor, pid in kernels.values():
            if pid not in self.lowered and pace.over(visitor):
                self.lower(pid)
                self.lowered.add(pid)

    def used(self, kernels: Mapping[str, tuple[str, int]]) -> dict[str, float]:
        """Processor seconds per visitor since the last reading, from `kernels` (kernel id: (visitor, pid)).
        A kernel read for the first time counts from now (what it took before it was handed out is nobody's);
        kernels no longer given are forgotten."""
        used: defaultdict[str, float] = defaultdict(float)
        now: dict[str, float] = {}
        for kernel_id, (visitor, pid) in kernels.items():
            total = self.read(pid)
            if total is None:
                continue
            now[kernel_id] = total
            before = self.last.get(kernel_id)
            if before is not None:
                used[visitor] += max(0.0, total - before)
        self.last = now
        return dict(used)


class VisitorPace:
    """A processor budget per visitor (see the module docstring): `spend` what their kernels took, `over` whether
    it is spent while others want the processors. A budget may go below zero while others do (work already
    asked for is done); it must come back above zero before the visitor's messages pass again, so over time a
    visitor gets about `share` of one processor whenever they are not alone. Alone, it never goes below zero."""

    def __init__(self, burst: float = VISITOR_BURST, share: float = VISITOR_SHARE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.share = share
        self.clock = clock
        self.levels: dict[str, float] = {}
        self.asking: dict[str, float] = {}
        self.when = clock()

    def asked(self, visitor: str) -> None:
        """One of `visitor`'s pages sent their kernel something now."""
        self.asking[visitor] = self.clock()

    def spend(self, used: Mapping[str, float]) -> None:
        """Refill every budget for the time since the last call, then take what each visitor's kernels `used`
        (processor seconds). A full budget is not kept (an absent visitor has a full one)."""
        now = self.clock()
        refill = self.share * max(0.0, now - self.when)
        self.when = now
        for visitor, when in list(self.asking.items()):
            if now - when > CONTENDED_SECONDS:
                del self.asking[visitor]
        for visitor in set(self.levels) | set(used):
            level = min(self.burst, self.levels.get(visitor, self.burst) + refill) - used.get(visitor, 0.0)
            if not self.contended(visitor):
                level = max(level, 0.0)
            if level >= self.burst:
                self.levels.pop(visitor, None)
            else:
                self.levels[visitor] = level

    def contended(self, visitor: str) -> bool:
        """Whether another visitor's pages sent their kernels something within the last `CONTENDED_SECONDS` (as of
        the last `spend`)."""
        return len(self.asking) - (visitor in self.asking) > 0

    def over(self, visitor: str) -> bool:
        """Whether `visitor` has spent their budget while others want the processors (their messages wait)."""
        return self.levels.get(visitor, self.burst) <= 0.0 and self.contended(visitor)
