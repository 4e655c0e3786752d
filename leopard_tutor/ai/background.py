"""Work done in short slices on the running asyncio event loop while nobody is clicking.

There are no threads: a Jupyter kernel (ipykernel 7) and Pyodide in the browser both run an asyncio
loop, and a slice is an ordinary callback on it, so a click waits at most one slice. Without a
running loop (a script, a test) nothing is scheduled, and the work is done when it is asked for.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable

SLICE_SECONDS = 0.05  # the longest a slice keeps the loop (a click waits at most about this long)
PAUSE_SECONDS = 0.05  # the gap left between slices for other callbacks and messages
QUIET_SECONDS = 0.5  # how long after the last click before slices resume
log = logging.getLogger(__name__)


class Background:
    """Runs `work(seconds)` (which returns whether work remains) in slices while the app is idle.

    `poke()` says something happened (a click): slices pause for `quiet` seconds, then go on until
    `work` reports nothing left. `poke()` again after new work arrives.
    """

    def __init__(self, work: Callable[[float], bool], *, slice_seconds: float = SLICE_SECONDS,
                 pause: float = PAUSE_SECONDS, quiet: float = QUIET_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.work = work
        self.slice_seconds = slice_seconds
        self.pause = pause
        self.quiet = quiet
        self.clock = clock
        self.slices = 0
        self._last_poke = clock()
        self._handle: asyncio.TimerHandle | None = None

    @property
    def scheduled(self) -> bool:
        """Whether a slice is waiting on the loop."""
        return self._handle is not None

    def poke(self) -> None:
        """Note activity now, and make sure a slice follows once things are quiet (if a loop runs)."""
        self._last_poke = self.clock()
        if self._handle is None:
            self._schedule(self.quiet)

    def stop(self) -> None:
        """Cancel the waiting slice, if any."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _schedule(self, delay: float) -> None:
        loop = _loop()
        if loop is not None:  # without one, the work waits until it is asked for
            self._handle = loop.call_later(delay, self._tick)

    def _tick(self) -> None:
        self._handle = None
        quiet_for = self.clock() - self._last_poke
        if quiet_for < self.quiet:
            self._schedule(self.quiet - quiet_for)
            return
        self.slices += 1
        try:
            more = self.work(self.slice_seconds)
        except Exception:  # a failing slice stops the background work; the work is still done when asked for
            log.exception("background work failed")
            return
        if more:
            self._schedule(self.pause)


def _loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop: the kernel's; in Pyodide the browser's loop, which is always there."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.get_event_loop() if sys.platform == "emscripten" else None
