"""What the other player is likely to hold, as weights for dealing their hand in a search.

Players keep some cards longer than others: a ten goes on their own square while it has an open space, a numbered
card with a space to go to is soon laid, one whose spaces are all taken waits in hand, and jacks and queens are kept
for the moment they do most. So the master deals the other player's hand with each unseen card weighted by its kind,
where weights were measured for the rule set (`HOLDING_WEIGHTS`); elsewhere every unseen card is as likely as any
other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine import ORIGINAL_1963, RULE_SETS, Card, PlayerView, allowed_spaces


@dataclass(frozen=True)
class HoldingWeights:
    """How much likelier than another unseen card each kind of card is to be in the other player's hand."""

    jack: float
    queen: float
    king: float
    ten: float
    placeable: float
    """An ace to nine with a space it may go to, in either square, for the other player."""
    stuck: float
    """An ace to nine with no such space."""


HOLDING_WEIGHTS: dict[str, HoldingWeights] = {
    ORIGINAL_1963.key: HoldingWeights(jack=1.8, queen=2.2, king=1.06, ten=0.42, placeable=0.77, stuck=1.35),
}
"""The weights by rule set. The 1963 ones: how often each kind of card was in the expert's hand against how often a
uniform deal put it there (360 decisions of 15 hands), squared, which did better in duels than the ratios themselves
(benchmarks/HISTORY.md, "What the other hand holds")."""


def holding_weight(view: PlayerView) -> Callable[[Card], float] | None:
    """How likely each unseen card is to be in the other player's hand, relative to the others, as `view`'s
    player can judge it; None where every card is as likely (a rule set without measured weights)."""
    known = RULE_SETS.get(view.rules.key) == view.rules  # not a custom rule set read from a saved game
    weights = HOLDING_WEIGHTS.get(view.rules.key) if known else None
    if weights is None:
        return None
    other = view.opponent
    squares = view.squares
    by_rank = {10: weights.ten, 11: weights.jack, 12: weights.queen, 13: weights.king}
    for rank in range(1, 10):
        placeable = any(allowed_spaces(rank, squares[owner], owner == other) for owner in (0, 1))
        by_rank[rank] = weights.placeable if placeable else weights.stuck
    return lambda card: by_rank[card.rank]
