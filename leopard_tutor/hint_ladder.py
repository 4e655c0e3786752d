"""The hint ladder of Play and of every lesson: one more clue per press, from a nudge to the whole move.

Where the move and its clues come from is the caller's (the expert's hint in Play, `ai.hints`; a lesson's script or
its coach, `lessons.attempt`): this module is the ladder alone, so the lessons (and what reads them, the class
server's records) need not import the computer players.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .engine import Move

RUNGS = ("nudge", "card", "space", "move")
"""The rungs of the ladder of a move with a card, from the first clue to the last (a move with none has fewer:
`ai.hints.explain`)."""
CARD_RUNG, PLACE_RUNG = RUNGS.index("card") + 1, RUNGS.index("space") + 1
"""The levels of the rungs that name a move's card, and where a played card goes."""


@dataclass(frozen=True)
class Rung:
    """One clue of a hint ladder: its level (1, the nudge, up to the whole move at the ladder's top), its words, and
    the move it points to (None on the nudge, which names no card)."""

    level: int
    text: str
    move: Move | None


class HintLadder:
    """The hint ladder of Play and of every lesson: one more clue per press, from a nudge to the whole
    move, starting again when the position changes. `source()` gives, for the position now, the move
    to point to and its clues (a nudge, the card, the space, the move), from wherever the moves come:
    the expert's hint in Play, a lesson's script or its coach."""

    def __init__(self, source: Callable[[], tuple[Move, Sequence[str]]]) -> None:
        self._source = source
        self._key: object = None
        self._move: Move | None = None
        self._clues: tuple[str, ...] = ()
        self.level = 0

    @property
    def size(self) -> int:
        """How many rungs the current ladder has."""
        return len(self._clues)

    def climb(self, position: object) -> tuple[Rung, bool]:
        """The next rung for `position` (any value that changes when the position does), and whether it
        is a new one (a press at the top shows the last rung again)."""
        if self._key is None or position != self._key:
            self._key = position
            self._move, clues = self._source()
            self._clues = tuple(clues)
            self.level = 0
        new = self.level < len(self._clues)
        self.level = min(self.level + 1, len(self._clues))
        return Rung(self.level, self._clues[self.level - 1], self._move if self.level > 1 else None), new
