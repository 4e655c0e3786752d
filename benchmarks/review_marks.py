"""How the review's marks fall for each level: every move of a level's hands judged as the review judges a
learner's, to see what the thresholds make of players of known strength.

Each level plays player 0 in seeded hands (2008 rules) against the intermediate; the review of each
hand is finished in full. Printed per level: the moves judged, how many got each mark, and the deciles
of the cost in points.

    nice -n 10 .venv/bin/python benchmarks/review_marks.py --hands 3
    .venv/bin/python benchmarks/review_marks.py --smoke    (one hand a level, 4 deals a judgement)
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from leopard_tutor.ai import make_player
from leopard_tutor.ai.review import REVIEW_DEALS, VERDICTS, review_hand
from leopard_tutor.engine import REVISED_2008, Hand

LEVELS = ("beginner", "casual", "intermediate")
"""The levels judged, each playing by instinct less often than the one before (the intermediate never)."""
SMOKE = {"hands": 1, "deals": 4}
"""--smoke: the smallest real run (the test suite runs it): one hand a level, judged on a quarter of the deals."""


def main(argv: list[str] | None = None) -> int:
    """Play and review the hands, then print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--deals", type=int, default=REVIEW_DEALS, help="deals of the unseen cards a judgement follows")
    parser.add_argument("--smoke", action="store_true", help=f"the smallest real run: {SMOKE} (overrides those)")
    args = parser.parse_args(argv)
    if args.smoke:
        vars(args).update(SMOKE)
    for level in LEVELS:
        costs: list[float] = []
        marks: Counter[str] = Counter()
        for seed in range(args.seed, args.seed + args.hands):
            hand = Hand.deal(REVISED_2008, seed=seed, dealer=seed % 2)
            seats = [make_player(level, seed=seed), make_player("intermediate", seed=seed + 100)]
            while not hand.is_over:
                hand.apply(seats[hand.to_move].choose(hand.view(hand.to_move)))
            review = review_hand(hand, deals=args.deals)
            costs += [judgement.cost for judgement in review.judgements]
            marks.update(judgement.verdict for judgement in review.judgements)
        deciles = ", ".join(f"{q:.2f}" for q in statistics.quantiles(costs, n=10))
        counts = ", ".join(f"{marks[verdict]} {verdict}" for verdict in VERDICTS)
        print(f"{level}: {len(costs)} moves: {counts}; cost deciles {deciles}, largest {max(costs):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
