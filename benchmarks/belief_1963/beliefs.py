"""Features of each card a player has not seen, from the public history of a 1963 hand (a research script).

`History` follows one player's view: it is told each move of the other player before it is made, and keeps, card by
card, how often that card would have built their square more than the move they made, and the like. `features`
describes one unseen card at the viewer's decision; `NAMES` names the numbers in order.

Not all public: two counts, `jlaid` (jacks laid) and `qk_played` (queens and kings played), read the card of a move
that lays a jack or a queen face down on the mover's own square, which the viewer sees only as "a jack or a queen".
Kept so, because the figures in HISTORY.md were made with them; a belief for the product must count only what the
viewer sees (jacks laid on the viewer's square, kings, face-down cards laid on the mover's own square).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from leopard_tutor.engine import (
    Card,
    Discard,
    GoOut,
    Hand,
    Move,
    Play,
    RuleSet,
    Square,
    allowed_spaces,
    lies_face_down,
    square_value,
)
from leopard_tutor.engine.cards import full_deck
from leopard_tutor.engine.legality import spaces_of

CARDS = sorted(set(full_deck()))
KINDS = ("J", "Q", "K", "T", "low")
NAMES = (["k_" + k for k in KINDS] + ["ph_" + k for k in KINDS]
         + ["g_none", "g0", "g1", "g2", "g3p", "block_now",
            "decl_all", "decl_last", "decl_last3", "expo_all", "expo_last3",
            "jdecl_all", "jdecl_last", "jlaid", "disc_rank", "disc_rank_last", "qk_played"])


def kind(card: Card) -> str:
    """The card's kind: J, Q, K, T (a ten) or low (an ace to nine)."""
    return {11: "J", 12: "Q", 13: "K", 10: "T"}.get(card.rank, "low")


def build_gain(square: Square, card: Card, rules: RuleSet) -> int | None:
    """The most `card` adds to its owner's square laid face up there (None: a jack, a queen, or nowhere to go)."""
    spaces = spaces_of(allowed_spaces(card.rank, square, own=True))
    if lies_face_down(card) or not spaces:
        return None
    base = square_value(square, rules)
    return max(square_value(square.with_card(card, s), rules) for s in spaces) - base


class History:
    """Running counts, per card, of what the other player declined, as player `me` sees them."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.other = 1 - me
        self.decisions = 0
        self.declined: dict[Card, list[int]] = {c: [] for c in CARDS}  # per decision: it would have built more
        self.exposed: dict[Card, list[int]] = {c: [] for c in CARDS}  # per decision: it would have built at all
        self.jack_declined: list[int] = []  # per decision: no jack laid while `me` could go out
        self.jacks_laid = 0
        self.discards: list[int] = []  # per decision: the rank discarded, 0 for none
        self.queens_kings = 0

    def see(self, hand: Hand, move: Move) -> None:
        """Record the other player's `move`, about to be made in `hand` (its state before the move)."""
        rules = hand.rules
        square = hand.squares[self.other]
        own_value = square_value(square, rules)
        gain = 0
        if isinstance(move, Play) and move.square_owner == self.other:
            gain = square_value(square.with_card(move.card, move.space), rules) - own_value
        for card in CARDS:
            built = build_gain(square, card, rules)
            self.declined[card].append(int(built is not None and built > gain and not isinstance(move, GoOut)))
            self.exposed[card].append(int(built is not None and built >= 1))
        threat = square_value(hand.squares[self.me], rules) >= rules.out_threshold
        jacked = isinstance(move, Play) and move.square_owner == self.me and move.card.rank == 11
        self.jack_declined.append(int(threat and not jacked and not isinstance(move, GoOut)))
        self.jacks_laid += int(isinstance(move, Play) and move.card.rank == 11)
        self.queens_kings += int(isinstance(move, Play) and move.card.rank in (12, 13))
        self.discards.append(move.card.rank if isinstance(move, Discard) else 0)
        self.decisions += 1

    def features(self, squares: Sequence[Square], rules: RuleSet, card: Card) -> list[float]:
        """The feature row (`NAMES`) of one unseen card at the viewer's decision, `squares` as the viewer sees them."""
        k = kind(card)
        one = [float(k == name) for name in KINDS]
        phase = min(self.decisions, 30) / 10.0
        row = one + [phase * v for v in one]
        builder = k not in ("J", "Q")
        built = build_gain(squares[self.other], card, rules) if builder else None
        buckets = [0.0] * 5
        if builder:
            buckets[0 if built is None else 1 + min(max(built, 0), 3)] = 1.0
        row += buckets
        row.append(float(card.rank <= 9 and squares[self.me].is_open(card.rank)))
        declined, exposed = self.declined[card], self.exposed[card]
        row += [math.log1p(sum(declined)), float(declined[-1]) if declined else 0.0, float(sum(declined[-3:])),
                math.log1p(sum(exposed)), float(sum(exposed[-3:]))]
        jack = float(k == "J")
        row += [jack * math.log1p(sum(self.jack_declined)),
                jack * (self.jack_declined[-1] if self.jack_declined else 0), jack * self.jacks_laid]
        row += [float(sum(r == card.rank for r in self.discards)),
                float(bool(self.discards) and self.discards[-1] == card.rank)]
        row.append(float(k in ("Q", "K")) * self.queens_kings)
        return row
