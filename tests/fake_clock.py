"""A clock a test moves by hand (for the paces, budgets and lines that take a `clock`)."""

from __future__ import annotations


class Clock:
    """A clock the test moves: `now` is what it tells."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
