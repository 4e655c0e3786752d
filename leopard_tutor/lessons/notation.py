"""Moves written in words for lesson files: `play KS on your 7`, `play JC on their 3`, `discard 5D`,
`go out`, `end turn`: the engine's move notation seen from the learner. "your" is always the
learner's square (player 0), "their" the opponent's (player 1)."""

from __future__ import annotations

from ..engine import LeopardError, Move
from ..engine.moves import move_notation
from ..engine.moves import parse_move as parse_notation

LEARNER, OPPONENT = 0, 1
SQUARE_WORDS = {"your": LEARNER, "their": OPPONENT}


class MoveTextError(LeopardError):
    """Text that is not a move in the lesson notation."""


def parse_move(text: str) -> Move:
    """The move a lesson file writes as `text`; MoveTextError, quoting it, if it is not one."""
    try:
        return parse_notation(text, viewer=LEARNER)
    except LeopardError as error:
        raise MoveTextError(str(error)) from None


def move_text(move: Move) -> str:
    """The lesson notation of a move (`parse_move` reads it back)."""
    return move_notation(move, viewer=LEARNER)
