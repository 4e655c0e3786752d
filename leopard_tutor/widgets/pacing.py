"""How many clicks a board takes from its page: a burst, then a steady rate (a token bucket).

The page sends one intent at a time and waits for the answer, so a person never comes near these
bounds; a script that floods the kernel with intents does, and what is beyond them is dropped
unhandled (its answer is still sent, so a page waiting for it goes on), keeping the kernel free.
"""

from __future__ import annotations

import time
from collections.abc import Callable

INTENT_BURST = 30
"""Intents taken back to back before the steady rate applies."""
INTENT_RATE = 10.0
"""Intents a second taken after a burst: more than anyone clicks for long, a bound for a script."""
SAY_EVERY = 2.0
"""Seconds between two notes that clicks were dropped."""


class IntentPace:
    """A token bucket: `take()` says whether the next intent may be handled now."""

    def __init__(self, rate: float = INTENT_RATE, burst: int = INTENT_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.since = clock()
        self.said: float | None = None

    def take(self) -> bool:
        """Spend one token if there is one (tokens come back at `rate` a second, up to `burst`)."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.since) * self.rate)
        self.since = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def say_refusal(self) -> bool:
        """Whether a refused intent should be told now: the first of a flood, then at most every SAY_EVERY s."""
        now = self.clock()
        if self.said is not None and now - self.said < SAY_EVERY:
            return False
        self.said = now
        return True
