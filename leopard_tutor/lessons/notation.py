"""Moves written in words for lesson files: `play KS on your 7`, `play JC on their 3`, `discard 5D`,
`go out`, `end turn`. "your" is always the learner's square (player 0), "their" the opponent's (player 1)."""

from __future__ import annotations

import re

from ..engine import Card, Discard, EndTurn, GoOut, LeopardError, Move, Play
from ..engine.errors import quote

LEARNER, OPPONENT = 0, 1
SQUARE_WORDS = {"your": LEARNER, "their": OPPONENT}
_PLAY = re.compile(r"^play\s+(\S+)\s+on\s+(your|their)\s+(?:space\s+)?([1-9])$")
_DISCARD = re.compile(r"^discard\s+(\S+)$")


class MoveTextError(LeopardError):
    """Text that is not a move in the lesson notation."""


def parse_move(text: str) -> Move:
    """The move a lesson file writes as `text`; MoveTextError, quoting it, if it is not one."""
    if not isinstance(text, str):
        raise MoveTextError(f"a move is written as text, not {quote(text)}")
    words = " ".join(text.strip().lower().split())
    try:
        if words == "go out":
            return GoOut()
        if words == "end turn":
            return EndTurn()
        found = _PLAY.match(words)
        if found:
            card, square, space = found.groups()
            return Play(Card.parse(card), SQUARE_WORDS[square], int(space))
        found = _DISCARD.match(words)
        if found:
            return Discard(Card.parse(found.group(1)))
    except LeopardError as error:
        raise MoveTextError(f"'{text}' is not a move: {error}") from None
    raise MoveTextError(f"'{text}' is not a move: write 'play 7H on your 7', 'play JC on their 3', "
                        "'discard 5D', 'go out' or 'end turn'")


def move_text(move: Move) -> str:
    """The lesson notation of a move (`parse_move` reads it back)."""
    if isinstance(move, Play):
        return f"play {move.card} on {'your' if move.square_owner == LEARNER else 'their'} {move.space}"
    if isinstance(move, Discard):
        return f"discard {move.card}"
    return "go out" if isinstance(move, GoOut) else "end turn"
