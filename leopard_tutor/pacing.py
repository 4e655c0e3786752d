"""How much a kernel's page may ask of it: one pace shared by every click on every board and every control
beside them (buttons, pickers) in the kernel (`kernel_pace()`).

Two token buckets. Clicks: a burst of INTENT_BURST, then INTENT_RATE a second. Processor time: what
a click taken costs beyond WORK_FREE seconds (the expert's reply, a new match it starts, a review, a
hint; not an ordinary pick or play, nor the first use of a part of the app) is spent from a burst of
WORK_BURST seconds, which comes back at WORK_SHARE of one processor; once it is spent, clicks wait
until it is back above zero. Only a kernel that shares a server's processors paces that time: one in the visitor's
own browser (the static site) uses its own. So a flood of cheap clicks is held to the click rate, and a flood of
costly ones (a New match loop against the expert) to about a share of one processor, whatever the click.

The page sends one intent at a time and waits for the answer, and a person thinks between moves, so a
person does not come near these bounds against the computer's own moves; a script that floods the
kernel does, and what is beyond them is dropped unhandled (a board intent still gets its answer, so a
page waiting for it goes on; a picker is put back as it was), keeping the kernel free.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from .client.host import current_host

INTENT_BURST = 30
"""Clicks taken back to back before the steady rate applies."""
INTENT_RATE = 10.0
"""Clicks a second taken after a burst: more than anyone clicks for long, a bound for a script."""
WORK_BURST = 10.0
"""Seconds of processor the kernel may spend on clicks back to back: one turn of the expert's in Running Leopard
(several plays, at most 0.9 s each: 8.6 s were seen after one End turn, after which the learner's next click was
dropped), or a review (at most 2.5 s) and a few of the expert's moves."""
WORK_SHARE = 0.3
"""The share of one processor the clicks get after that burst: the expert's every move at one move every 3 s."""
WORK_FREE = 0.1
"""Seconds of processor a click may take without spending from the processor bucket: more than a pick, a
play and the beginner's reply cost even on a busy machine, so a person playing fast is held only by the
click rate (a whole hand played by keyboard had run the bucket dry on a loaded test machine)."""
SAY_EVERY = 2.0
"""Seconds between two notes that clicks were dropped."""


class IntentPace:
    """Two token buckets (see the module docstring): `run(action)` runs an action if both allow it now."""

    def __init__(self, rate: float = INTENT_RATE, burst: int = INTENT_BURST, *, work_share: float = WORK_SHARE,
                 work_burst: float = WORK_BURST, clock: Callable[[], float] = time.monotonic,
                 processor: Callable[[], float] = time.process_time, paces_work: bool = True) -> None:
        """`clock` tells the time; `processor` the processor time this kernel has used (what a click costs);
        `paces_work`: whether that time is paced (a kernel sharing a server's processors), else only the clicks."""
        self.rate = rate
        self.burst = burst
        self.work_share = work_share
        self.work_burst = work_burst
        self.paces_work = paces_work
        self.clock = clock
        self.processor = processor
        self.tokens = float(burst)
        self.work = work_burst
        self.since = clock()
        self.said: dict[int, float] = {}
        self.short = ""
        """What the last click refused was short of: "clicks" (too many at once) or "work" (the processor time)."""

    def take(self) -> bool:
        """Spend one click if there is one and the processor time spent is not overdrawn (both come back with
        time: clicks at `rate` a second up to `burst`, processor seconds at `work_share` up to `work_burst`)."""
        now = self.clock()
        passed, self.since = now - self.since, now
        self.tokens = min(float(self.burst), self.tokens + passed * self.rate)
        self.work = min(self.work_burst, self.work + passed * self.work_share)
        if self.tokens < 1 or self.work <= 0:
            self.short = "clicks" if self.tokens < 1 else "work"
            return False
        self.tokens -= 1
        return True

    def wait_seconds(self) -> int:
        """Whole seconds until the processor time spent is back above zero (at least 1)."""
        return max(1, math.ceil(-self.work / self.work_share + 0.01))

    def run(self, action: Callable[[], object]) -> bool:
        """Run `action` if the pace takes one more click now, spending the processor time it took; False (and
        `action` not run) beyond the pace."""
        if not self.take():
            return False
        started = self.processor()
        try:
            action()
        finally:
            if self.paces_work:
                self.work -= max(0.0, self.processor() - started - WORK_FREE)
        return True

    def say_refusal(self, where: object) -> bool:
        """Whether a refused click should be told now on `where` (a board): the first of a flood there, then at
        most every SAY_EVERY s."""
        now, key = self.clock(), id(where)
        said = self.said.get(key)
        if said is not None and now - said < SAY_EVERY:
            return False
        self.said[key] = now
        return True


_kernel_pace: IntentPace | None = None


def kernel_pace() -> IntentPace:
    """The one pace of this kernel (this process), shared by all its boards and controls: its processor time paced
    where it shares a server's (not in the visitor's own browser, the static site, nor in a notebook of one's own)."""
    global _kernel_pace
    if _kernel_pace is None:
        _kernel_pace = IntentPace(paces_work=current_host().shares_processors())
    return _kernel_pace
