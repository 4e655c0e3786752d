"""The moves a player can make: play a card, discard one, go out, or end the turn, and their notation.

Notation (what `str(move)` writes and `Move.parse` reads back): `play 7H on player 1's space 3`,
`discard 5D`, `go out`, `end turn`. Seen from one player (`viewer`), a play may also be written
`play 7H on your 3` or `play JC on their 3`, as lesson files do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .cards import Card
from .errors import LeopardError, NotationError, SavedGameError, is_player, quote

_PLAY = re.compile(r"^play\s+(\S+)\s+on\s+(?:player\s+([01])'s|(your|their))\s+(?:space\s+)?([1-9])$")
_DISCARD = re.compile(r"^discard\s+(\S+)$")
MAX_MOVE_TEXT = 100  # characters: the longest move in notation takes about 35


class Move:
    """A move: `Play`, `Discard`, `GoOut` or `EndTurn`. `str(move)` writes it in notation, `Move.parse` reads it."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str, viewer: int | None = None) -> Move:
        """The move written as `text` (see the module's notation; "your"/"their" need the `viewer`);
        NotationError, quoting it, if it is not one (or, called on a subclass, not a move of that kind)."""
        move = _parse(text, viewer)
        if not isinstance(move, cls):
            raise NotationError(f"{quote(text)} is a move, but not a {cls.__name__}")
        return move


@dataclass(frozen=True, slots=True)
class Play(Move):
    """Lay `card` from the hand on `space` (1..9) of the square of player `square_owner` (0 or 1)."""

    card: Card
    square_owner: int
    space: int

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise LeopardError(f"a play needs a Card, not {quote(self.card)}")
        if not is_player(self.square_owner):
            raise LeopardError(f"a square belongs to player 0 or 1, not {quote(self.square_owner)}")
        if not isinstance(self.space, int) or isinstance(self.space, bool) or not 1 <= self.space <= 9:
            raise LeopardError(f"spaces are numbered 1 to 9, not {quote(self.space)}")

    def __str__(self) -> str:
        return f"play {self.card} on player {self.square_owner}'s space {self.space}"


@dataclass(frozen=True, slots=True)
class Discard(Move):
    """Put `card` from the hand face up on the discard pile."""

    card: Card

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise LeopardError(f"a discard needs a Card, not {quote(self.card)}")

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class GoOut(Move):
    """Declare out, ending the hand (allowed right after the draw, with a square worth enough)."""

    def __str__(self) -> str:
        return "go out"


@dataclass(frozen=True, slots=True)
class EndTurn(Move):
    """End the turn: after one or more plays in Running Leopard, or to pass holding no card."""

    def __str__(self) -> str:
        return "end turn"


parse_move = Move.parse
"""The same function as `Move.parse`, by its older name."""


def spaces_for(card: Card, moves: Iterable[Move]) -> dict[int, set[int]]:
    """The spaces where `moves` (a position's legal moves, say) play `card`, by the owner of the square:
    {0: {...}, 1: {...}}, a set empty where there is none (the lit targets of a picked card)."""
    spaces: dict[int, set[int]] = {0: set(), 1: set()}
    for move in moves:
        if isinstance(move, Play) and move.card is card:
            spaces[move.square_owner].add(move.space)
    return spaces


def _parse(text: str, viewer: int | None) -> Move:
    if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
        raise NotationError(f"{quote(text)} is not a move in notation")
    words = " ".join(text.strip().lower().split())
    try:
        if words in ("go out", "end turn"):
            return GO_OUT if words == "go out" else END_TURN
        found = _PLAY.match(words)
        if found:
            card, player, side, space = found.groups()
            if player is not None:
                return Play(Card.parse(card), int(player), int(space))
            if viewer is None:
                raise NotationError("'your' and 'their' need a player to be seen from")
            return Play(Card.parse(card), viewer if side == "your" else 1 - viewer, int(space))
        found = _DISCARD.match(words)
        if found:
            return Discard(Card.parse(found.group(1)))
    except LeopardError as error:
        raise NotationError(f"{quote(text)} is not a move: {error}") from None
    raise NotationError(f"{quote(text)} is not a move: write 'play 7H on your 7', 'play JC on their 3', "
                        "'discard 5D', 'go out' or 'end turn'")


def move_notation(move: Move, viewer: int | None = None) -> str:
    """A move in notation, seen from `viewer` ("your"/"their") or, without one, naming the player."""
    if isinstance(move, Play) and viewer is not None:
        return f"play {move.card} on {'your' if move.square_owner == viewer else 'their'} {move.space}"
    return str(move)


NEXT_HAND: Mapping[str, Any] = MappingProxyType({"next_hand": True})
"""The stored move of a table between classmates that deals the match's next hand (the server's tables and the
kernel's class table both read it; `dict(NEXT_HAND)` to send it)."""


def move_to_data(move: Move) -> dict[str, Any]:
    """A move as plain JSON data."""
    if isinstance(move, Play):
        return {"play": str(move.card), "square": move.square_owner, "space": move.space}
    if isinstance(move, Discard):
        return {"discard": str(move.card)}
    return {"go out": True} if isinstance(move, GoOut) else {"end turn": True}


def move_from_data(data: object) -> Move:
    """A move read back from `move_to_data`'s form; SavedGameError if it is not one."""
    try:
        if isinstance(data, dict):
            if set(data) == {"play", "square", "space"}:
                return Play(Card.parse(data["play"]), data["square"], data["space"])
            if set(data) == {"discard"}:
                return Discard(Card.parse(data["discard"]))
            if data == {"go out": True}:
                return GoOut()
            if data == {"end turn": True}:
                return EndTurn()
    except LeopardError as error:  # it quotes the bad part, so the whole move is not quoted again
        raise SavedGameError(f"a move cannot be read: {error}") from None
    raise SavedGameError(f"{quote(data)} is not a move")


# Interned moves, so that listing legal moves builds no new objects.
PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(Play(card, owner, space) for space in range(1, 10)) for owner in (0, 1))
    for card in sorted(Card._cache.values())
)
DISCARDS: tuple[Discard, ...] = tuple(Discard(card) for card in sorted(Card._cache.values()))
GO_OUT = GoOut()
END_TURN = EndTurn()
