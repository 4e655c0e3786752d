"""Screen: the master drawing the other hand's cards from the belief, against expert@20b2e17, 1963 rules.

usage: screen.py belief|master FIRST_SEED COUNT OUT.jsonl [BUDGET [AGAINST [WEIGHTS.json]]]
AGAINST: expert@20b2e17 (the default) or master (the master as shipped, to see whether the belief, fitted to how the
expert of 20b2e17 plays, helps against another player). WEIGHTS: train.py's file (weights.json beside this script).
Duplicate pairs played by benchmarks/duel.py's `play_pair` (and written as its JSON lines), so the master as shipped
(`master`) and the master with the belief (`belief`) are played alike. The belief needs the hand's history, which the
engine's view does not carry yet, so `play_pair` tells it each move of the other player.
The figures in HISTORY.md were made with versions that took the dot products with numpy (the ninth session) and
that played the pairs through a copy of `play_pair`'s loop (both sessions); this one plays them through `play_pair`
itself, with the same players and seeds.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from beliefs import NAMES, History
from duel import OLD_EXPERT, play_pair

import leopard_tutor.ai.players as players
from leopard_tutor.ai.determinize import _named
from leopard_tutor.engine import Card, Hand, Move, PlayerView

WEIGHTS: list[float] = []  # the belief's weights, in the order of NAMES (read by main)
ORIGINAL = players.sample_hand


class Belief:
    """The belief of the master in seat `me`: its `History`, and the card weights since the other player's last move."""

    def __init__(self, me: int) -> None:
        self.history = History(me)
        self.decisions = -1  # how many moves of the other player `weights` knows of
        self.weights: dict[Card, float] = {}

    def weights_for(self, view: PlayerView) -> dict[Card, float]:
        """exp(weights . features) of each card `view` has not seen (the same until the other player moves)."""
        if self.decisions != self.history.decisions:
            self.decisions = self.history.decisions
            self.weights = {card: math.exp(sum(w * x for w, x in zip(WEIGHTS, self.history.features(
                view.squares, view.rules, card)))) for card in set(view.unseen())}
        return self.weights


BELIEF: list[Belief] = []  # the belief in use, if any


def weighted_sample_hand(view: PlayerView, rng: random.Random) -> Hand:
    """As `determinize.sample_hand`, but the other hand drawn card by card in proportion to the belief's weights."""
    if not BELIEF or view.player != BELIEF[0].history.me:
        return ORIGINAL(view, rng)
    pool = list(view.unseen())
    rng.shuffle(pool)
    squares = [_named(square, pool, jack_only=True) for square in view.squares]
    squares = [_named(square, pool, jack_only=False) for square in squares]
    weights = BELIEF[0].weights_for(view)
    ordered = sorted(pool, key=lambda card: -math.log(1.0 - rng.random()) / weights[card])
    hands: list[list[Card]] = [[], []]
    hands[view.player] = list(view.hand)
    hands[view.opponent] = ordered[:view.other_hand_size]
    stock = ordered[view.other_hand_size:]
    rng.shuffle(stock)
    return Hand(view.rules, squares, hands, stock, view.discards, view.to_move, view.dealer, view.plays_made)


def main() -> None:
    """Play the pairs and append them to OUT."""
    side, first, count, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    budget = float(sys.argv[5]) if len(sys.argv) > 5 else 0.1
    against = sys.argv[6] if len(sys.argv) > 6 else OLD_EXPERT
    weights = Path(sys.argv[7]) if len(sys.argv) > 7 else Path(__file__).with_name("weights.json")
    WEIGHTS[:] = [json.loads(weights.read_text())["weights"][name] for name in NAMES]
    if against not in (OLD_EXPERT, "master"):
        raise SystemExit(f"AGAINST is {OLD_EXPERT} or master, not {against!r}")
    players.sample_hand = weighted_sample_hand  # type: ignore[assignment]

    def watch(a_seat: int) -> Callable[[Hand, Move], None] | None:
        """A fresh belief for the master in side A's seat (with `belief`), told the other player's moves."""
        BELIEF[:] = [Belief(a_seat)] if side == "belief" else []
        if not BELIEF:
            return None
        history = BELIEF[0].history
        return lambda hand, move: history.see(hand, move) if hand.to_move != a_seat else None

    for seed in range(first, first + count):
        task = {"a": "master", "b": against, "rules": "ORIGINAL_1963", "seed": seed, "budget": budget, "deals": None}
        record = play_pair(task, watch)
        with open(out, "a") as file:
            file.write(json.dumps({**record, "a": side}) + "\n")


if __name__ == "__main__":
    main()
