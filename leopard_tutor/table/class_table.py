"""`ClassTable`: this page's seat at a table between classmates, whose every move the server's tables decide and
store (`server/class_tables.py`). The person here moves by clicks as at any table; each of their moves is stored
first (`store_move`, which raises if the server refuses it) and made here only then. The other player's
moves, as the server stored them, come through `update` (from a thread that waits for them), and are made
here through `Table.receive`. The match's next deal is a move too: whoever asks for it first stores it; the
other's table deals it when its player asks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engine import LeopardError, Move
from ..engine.catalogue import text
from ..engine.moves import move_from_data, move_to_data
from .modes import Waiting
from .seats import Chooser, Computer, PersonElsewhere, PersonHere
from .state import BoardState
from .table import Table

NEXT_HAND: dict[str, Any] = {"next_hand": True}
"""The stored move that deals the next hand of the match (the server's `class_tables` stores it as any move)."""
StoreMove = Callable[[int, dict[str, Any]], None]
"""`store_move(number, move)`: store this page's move as the table's move `number`, or raise a `LeopardError`."""


class ClassTable(Table):
    """The person here in `seat`, named `names[seat]`, against the classmate `names[1 - seat]` elsewhere."""

    def __init__(self, seat: int, names: Sequence[str], store_move: StoreMove, **options: Any) -> None:
        """`options` as for `Table` (rules, seed and hands: the table's, as the server has them)."""
        here, there = PersonHere(names[seat]), PersonElsewhere(names[1 - seat], lambda _view: None)
        self.store_move: StoreMove | None = store_move
        self.made = 0  # moves of the server's list made here
        self.pending: list[dict[str, Any]] = []  # the server's moves not yet made here
        self.lock = threading.RLock()
        super().__init__((here, there) if seat == 0 else (there, here), **options)

    @property
    def seat(self) -> int:
        """The seat of the person here."""
        return self.viewer

    @property
    def stored(self) -> int:
        """How many of the table's moves this page knows of (made here or waiting to be)."""
        return self.made + len(self.pending)

    # -- locked: the thread that brings the other's moves and the page's clicks take turns ---------------
    def handle(self, intent: Mapping[str, Any]) -> None:
        """As every table, then the other's moves that can now be made (after a review closed, a next deal)."""
        with self.lock:
            super().handle(intent)
            self._catch_up()

    def board_state(self) -> BoardState:
        """As every table (read while no move is being made)."""
        with self.lock:
            return super().board_state()

    def update(self, moves: Sequence[dict[str, Any]], *, replay: bool = False) -> bool:
        """The table's moves as the server stored them: make the ones not made here yet, as far as they can be
        made now (the other's move while this page waits for it; a next deal once the person here asks, or at
        once with `replay`, when the page is rebuilding the match after a reload). Whether anything changed."""
        with self.lock:
            before = self.made
            self.pending.extend(dict(move) for move in moves[self.stored:])
            self._catch_up(replay=replay)
            return self.made != before

    def _catch_up(self, replay: bool = False) -> None:
        while self.pending:
            data = self.pending[0]
            if data == NEXT_HAND:
                if not replay:
                    return
                self.pending.pop(0)
                self.made += 1
                super().next_hand()
                continue
            mover = self.hand.to_move
            if mover == self.viewer and not replay:
                return  # cannot happen: the server takes this seat's moves from this page only
            if mover != self.viewer and self.mode != Waiting(mover):
                return  # a review is open: the move is made once it is closed
            move = move_from_data(data)
            self.pending.pop(0)
            self.made += 1
            if mover == self.viewer:
                super()._moved(mover, move)
            else:
                self.receive(mover, move)

    # -- the person here -------------------------------------------------------------------------
    def _moved(self, player: int, move: Move) -> None:
        """A move of the person here is stored first (a refusal raises, and nothing changes); then made."""
        if player == self.viewer and self.store_move is not None:
            self.store_move(self.made, move_to_data(move))
            self.made += 1
        super()._moved(player, move)

    def next_hand(self) -> None:
        """Deal the next hand: the one the classmate already dealt, or a deal stored first."""
        if self.retry is None and self.hand.is_over and not self.match.is_over and self.store_move is not None:
            if self.pending and self.pending[0] == NEXT_HAND:
                self.pending.pop(0)
            else:
                self.store_move(self.made, NEXT_HAND)
            self.made += 1
        super().next_hand()

    def new_match(self, rules: Any = None, seed: int | str | None = None) -> None:
        """Not at a class table: a new match is a new table."""
        if self.store_move is not None:
            raise LeopardError(key="classmates.no_new_match")
        super().new_match(rules, seed)

    def seat_computer(self, chooser: Chooser, level: str) -> None:
        """The classmate has gone: the computer (at `level`) takes their seat and plays on from here; the moves are
        no longer the server's."""
        with self.lock:
            self.store_move, self.pending = None, []
            other = 1 - self.viewer
            seats = list(self.seats)
            seats[other] = Computer(chooser)
            self.seats = (seats[0], seats[1])
            words = [text("classmates.computer_seated", level=level), *self._advance()]
            self.say(" ".join(word for word in words if word))
