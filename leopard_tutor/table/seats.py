"""Seats: who plays each side of a table. The table asks every seat for its move the same way,
`seat.ask(view)`: a computer answers at once with a move; a person answers later (None now), through the
page's clicks when they sit at this page (`PersonHere`), or through `Table.receive` when they sit elsewhere
(`PersonElsewhere`, whose answer may come minutes later)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ..engine import Move, PlayerView

HURRIED_SHARE = 0.5
"""Below this share of a processor while it thinks, a searching opponent searched fewer than half the deals
it searches on an idle server (its search is processor-bound and stops at its time budget)."""


class Chooser(Protocol):
    """A computer player: picks one of `view.legal_moves()`."""

    def choose(self, view: PlayerView) -> Move:
        """The move to make in this position."""


class Seat(Protocol):
    """One side of the table."""

    @property
    def here(self) -> bool:
        """Whether the seat's player uses this page (their moves come from its clicks, their hand shows on it)."""

    @property
    def name(self) -> str:
        """The player's name as the page shows it; "" for the computer (the page says "your opponent")."""

    def ask(self, view: PlayerView) -> Move | None:
        """It is this seat's move in `view`: the move, or None when the answer comes later."""


@dataclass
class PersonHere:
    """A person at this page: their moves come from the page's clicks, so asking them answers later."""

    name: str = ""
    here: bool = field(default=True, init=False)

    def ask(self, view: PlayerView) -> Move | None:
        """Nothing now: the page's clicks bring the move."""
        return None


@dataclass
class PersonElsewhere:
    """A person at another page: `send(view)` shows them the position; their move comes back later through
    `Table.receive`."""

    name: str
    send: Callable[[PlayerView], object]
    here: bool = field(default=False, init=False)

    def ask(self, view: PlayerView) -> Move | None:
        """Send the position to the person; the move comes later."""
        self.send(view)
        return None


@dataclass(frozen=True)
class Search:
    """How the computer's last turn was thought out, for an opponent that searches deals under a time budget."""

    deals: int
    seconds: float
    share: float  # of one processor, while it thought
    hurried: bool  # it spent its whole budget with less than HURRIED_SHARE of a processor


@dataclass
class Computer:
    """A computer player at the table: answers at once with `chooser.choose(view)`, and keeps how long it thought
    (the wall clock and this process's processor time, read around each move) since `start_tally`."""

    chooser: Chooser
    clocks: tuple[Callable[[], float], Callable[[], float]] = (time.perf_counter, time.process_time)
    name: str = field(default="", init=False)
    here: bool = field(default=False, init=False)
    _deals: int = field(default=0, init=False)
    _seconds: float = field(default=0.0, init=False)
    _used: float = field(default=0.0, init=False)
    _out_of_time: bool = field(default=False, init=False)

    def ask(self, view: PlayerView) -> Move | None:
        """The chooser's move, timed."""
        wall, cpu = self.clocks
        budget = getattr(self.chooser, "time_budget", None)
        started, processor = wall(), cpu()
        move = self.chooser.choose(view)
        took = wall() - started
        self._deals += int(getattr(self.chooser, "last_deals", 0))
        self._seconds, self._used = self._seconds + took, self._used + cpu() - processor
        self._out_of_time = self._out_of_time or (isinstance(budget, (int, float)) and took >= 0.9 * budget)
        return move

    def start_tally(self) -> None:
        """Start counting the thinking of the moves to come."""
        self._deals, self._seconds, self._used, self._out_of_time = 0, 0.0, 0.0, False

    def tally(self) -> Search | None:
        """How the moves since `start_tally` were searched, for a chooser with a time budget that thought."""
        budget = getattr(self.chooser, "time_budget", None)
        if not isinstance(budget, (int, float)) or self._seconds <= 0:
            return None
        share = min(1.0, self._used / self._seconds)
        return Search(self._deals, self._seconds, share, self._out_of_time and share < HURRIED_SHARE)
