"""What a computer player knows at one moment, in the form the evaluation reads.

A `Position` is built either from a `PlayerView` (the real game) or from a determinized engine
`Hand` during search. Either way it holds only what its player may know: their own cards, both
squares, and how many of each card are still unseen (in the other hand or the stock).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from leopard_tutor.engine import Card, Hand, Hidden, PlayerView, RuleSet, Square, full_deck

CARD_KINDS = 52
_FULL_COUNTS = Counter(card.code for card in full_deck())


@dataclass(slots=True)
class Position:
    """One player's knowledge of a hand, ready to evaluate."""

    rules: RuleSet
    squares: tuple[Square, Square]
    me: int
    hand: tuple[Card, ...]
    unseen: list[float]
    unseen_total: float
    other_hand_size: int
    stock_size: int
    to_move: int
    plays_made: int
    over: bool
    went_out: int | None

    @classmethod
    def from_view(cls, view: PlayerView) -> Position:
        """The viewer's knowledge; face-down cards they cannot name are taken out of the unseen jacks and queens."""
        return cls(view.rules, view.squares, view.player, view.hand, *_view_unseen(view),
                   view.other_hand_size, view.stock_size, view.to_move, view.plays_made, view.is_over, view.went_out)

    @classmethod
    def from_hand(cls, hand: Hand, player: int, unseen: tuple[list[float], float] | None = None) -> Position:
        """`player`'s knowledge of an engine hand (a determinized one in search).

        `unseen` may give the unseen counts directly, when they are known not to have changed.
        """
        held = hand.held
        if unseen is None:
            unseen = hand_unseen(hand, held[player])
        return cls(hand.rules, hand.squares, player, tuple(held[player]), unseen[0], unseen[1],
                   len(held[1 - player]), hand.stock_size, hand.to_move, hand.plays_made, hand.is_over, hand.went_out)


def _view_unseen(view: PlayerView) -> tuple[list[float], float]:
    counts = [0.0] * CARD_KINDS
    for card in view.unseen():
        counts[card.code] += 1
    for square in view.squares:
        for space in range(1, 10):
            for face, _ in square.pile(space):
                if isinstance(face, Hidden):
                    _remove_hidden(counts, face)
    return counts, max(sum(counts), 1.0)


def _remove_hidden(counts: list[float], face: Hidden) -> None:
    """Take one face-down unknown card out of the unseen counts, spread over the cards it may be."""
    codes = [suit * 13 + rank - 1 for suit in range(4) for rank in face.ranks]
    total = sum(counts[code] for code in codes)
    if total <= 0:
        return
    for code in codes:
        counts[code] -= counts[code] / total


def hand_unseen(hand: Hand, held: list[Card]) -> tuple[list[float], float]:
    left = Counter(_FULL_COUNTS)
    left.subtract(card.code for card in held)
    left.subtract(card.code for card in hand.discards)
    for square in hand.squares:
        left.subtract(card.code for card in square.cards())
    counts = [float(left[code]) for code in range(CARD_KINDS)]
    return counts, max(sum(counts), 1.0)
