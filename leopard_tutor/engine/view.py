"""What one player may see of a hand: the observer that opponents, hints and the table read.

A player sees their own cards, the discard pile, the stock's size, the other player's hand size,
and both squares with every face-up card (buried ones too). A face-down card is known to them
only if they laid it; otherwise it shows as a jack or queen, or as a jack when the opponent
laid it on their square (a queen can only go on its owner's square).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Card, full_deck
from .legality import turn_moves
from .moves import Move
from .rules import RuleSet
from .scoring import square_value
from .square import Face, Hidden, Square

if TYPE_CHECKING:
    from .hand import Hand


@dataclass(frozen=True)
class PlayerView:
    """One player's knowledge of a hand at one moment. Its squares are snapshots no later move changes; like a
    `Square`, a view compares by value and is not hashable."""

    __hash__ = None  # type: ignore[assignment]

    player: int
    rules: RuleSet
    hand: tuple[Card, ...]
    squares: tuple[Square, Square]
    discards: tuple[Card, ...]
    stock_size: int
    hand_sizes: tuple[int, int]
    to_move: int
    dealer: int
    plays_made: int
    went_out: int | None
    is_over: bool

    @classmethod
    def of(cls, hand: Hand, player: int) -> PlayerView:
        """The view of `hand` for `player`."""
        squares = tuple(_seen_square(hand, owner, player) for owner in (0, 1))
        return cls(
            player=player, rules=hand.rules, hand=tuple(hand.held[player]),
            squares=(squares[0], squares[1]), discards=hand.discards, stock_size=hand.stock_size,
            hand_sizes=(len(hand.held[0]), len(hand.held[1])), to_move=hand.to_move, dealer=hand.dealer,
            plays_made=hand.plays_made if hand.to_move == player else 0, went_out=hand.went_out,
            is_over=hand.is_over,
        )

    @property
    def opponent(self) -> int:
        """The other player's number."""
        return 1 - self.player

    @property
    def other_hand_size(self) -> int:
        """How many cards the other player holds."""
        return self.hand_sizes[1 - self.player]

    def value(self, owner: int) -> int:
        """The raw value of a square (the public can always work it out)."""
        return square_value(self.squares[owner], self.rules)

    def legal_moves(self) -> list[Move]:
        """This player's legal moves, if it is their turn (the same list the hand gives)."""
        if self.is_over or self.to_move != self.player:
            return []
        return turn_moves(self.rules, self.squares, list(self.hand), self.player, self.plays_made,
                          self.value(self.player))

    def unseen(self) -> list[Card]:
        """The cards this player has not seen: in the other hand, in the stock, or face down unknown."""
        seen = Counter(self.hand)
        seen.update(self.discards)
        for square in self.squares:
            seen.update(square.cards())
        left = Counter(full_deck())
        left.subtract(seen)
        return sorted(left.elements())


def _seen_square(hand: Hand, owner: int, viewer: int) -> Square:
    """`owner`'s square as `viewer` knows it."""
    return seen_square(hand._squares[owner], owner, viewer)


NOBODY = -1
"""A viewer who is neither player: they laid no card, so they know no face-down card."""


def public_square(hand: Hand, owner: int) -> Square:
    """`owner`'s square as someone who laid none of its cards knows it (people watching, or the next player
    before the device is theirs): every face-down card unnamed."""
    return seen_square(hand._squares[owner], owner, NOBODY)


def seen_square(square: Square, owner: int, viewer: int) -> Square:
    """`square`, which belongs to player `owner`, as player `viewer` knows it: each face-down card as
    `seen_face` says."""
    return Square([[(seen_face(face, face_up, by_other, owner, viewer), face_up, by_other)
                    for (face, face_up), by_other in zip(square.pile(space), square.laid_by_other(space))]
                   for space in range(1, 10)])


def seen_face(face: Face, face_up: bool, laid_by_other: bool, owner: int, viewer: int) -> Face:
    """What `viewer` knows of one card in `owner`'s square: the card itself if it lies face up or the
    viewer laid it; otherwise only that it is a jack (laid by the other player: a queen never goes on
    another's square) or a jack or a queen (laid by the owner)."""
    placer = 1 - owner if laid_by_other else owner
    if face_up or placer == viewer:
        return face
    return Hidden(jack_only=laid_by_other)

