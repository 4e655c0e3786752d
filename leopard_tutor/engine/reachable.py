"""Whether a prepared position could arise in a real game: the checks a lesson's position must pass.

The Hand constructor already refuses what no rule allows at all (a card more than twice, a face-up jack,
a face-down ten). This adds what follows from how a hand is played out: every pile was built by legal
plays, and once the stock is empty the non-dealer empties their hand first and the dealer plays the
very last card (rules A.1.10).
"""

from __future__ import annotations

from .hand import Hand
from .legality import pile_problem


def why_unreachable(hand: Hand) -> str | None:
    """Why `hand` could not occur in a real game under its rules, or None if it could."""
    for owner, square in enumerate(hand.squares):
        problem = pile_problem(square)
        if problem:
            return f"in player {owner}'s square, {problem}"
    if hand.is_over or hand.stock_size or hand.rules.multiple_plays:
        return None
    dealer, mover = hand.dealer, hand.to_move
    held = len(hand.hands[dealer]), len(hand.hands[1 - dealer])
    expected = held[1] + (1 if mover == dealer else 0)
    if held[0] != expected:
        who = "the dealer" if mover == dealer else "the non-dealer"
        return (f"with the stock empty and {who} to move, the dealer must hold {expected} card"
                f"{'' if expected == 1 else 's'} against the non-dealer's {held[1]}, not {held[0]}: "
                "the non-dealer empties their hand first and the dealer plays the last card")
    return None
