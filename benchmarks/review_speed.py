"""Time to the review of a hand: how long after the hand's end the review is ready, and how long a click
can wait behind the background search.

A learner (the intermediate player) plays seeded hands against the beginner through the Play
controller, on an asyncio event loop as in the app's kernel, taking `--think` seconds over each move
while the review refines in background slices. At each hand's end the review is asked for at once
(`review_this_hand`: a bounded finish of the search). Printed per hand: the time from the end of the
hand until the review shows, how many of the learner's decisions were fully searched at that moment,
and the longest background slice (the most a click waits). `--think 0` is the worst case: no idle time
at all, so the whole search is left for the bounded finish. `--hints`: the learner asks for a hint at each
move with a choice and makes its move; the hints' times are printed, and each such decision reaches the review
already searched (the review takes up the hint's search).

    nice -n 10 .venv/bin/python benchmarks/review_speed.py --hints --think 0 --rules RUNNING_LEOPARD
    nice -n 10 .venv/bin/python benchmarks/review_speed.py --hands 2 --think 1.0
    .venv/bin/python benchmarks/review_speed.py --smoke    (one hand, --think 0)
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from shares import percentile

from leopard_tutor.ai import hint, make_player
from leopard_tutor.ai.review import REVIEW_DEALS, HandReview
from leopard_tutor.engine import rules_by_key
from leopard_tutor.table import Table, against_computer
from leopard_tutor.table.table import REVIEW_FINISH_SECONDS

SMOKE = {"hands": 1, "think": 0.0}
"""--smoke: the smallest real run (the test suite runs it): one hand with no idle moment, so the whole review is
left for the bounded finish (the background slices need half a second idle a move: 20 s a hand)."""
SLICES: list[float] = []
"""How long each background slice of the hand in play took."""


class TimedReview(HandReview):
    """A hand review that notes how long each background slice took (in SLICES)."""

    def refine(self, seconds: float) -> bool:
        start = time.perf_counter()
        try:
            return super().refine(seconds)
        finally:
            if seconds < REVIEW_FINISH_SECONDS:
                SLICES.append(time.perf_counter() - start)


HINTS: list[float] = []
"""How long each hint took (with --hints)."""


async def play_hand(controller: Table, think: float, seed: int, hints: bool = False) -> dict[str, float]:
    """Play the learner's moves of one hand with `think` seconds before each (the hint's move, timed, with `hints`),
    then ask for the review."""
    learner = make_player("intermediate", seed=seed)
    SLICES.clear()
    started = time.perf_counter()
    while not controller.hand.is_over:
        await asyncio.sleep(think)
        view = controller.view()
        if hints and len(view.legal_moves()) > 1:
            asked = time.perf_counter()
            move = hint(view).move
            HINTS.append(time.perf_counter() - asked)
        else:
            move = learner.choose(view)
        controller.make(move)
    ended = time.perf_counter()
    reviewer = controller.reviewer
    searches = reviewer.review().judgements
    ready_before = sum(1 for j in searches if j.deals >= reviewer.deals or len(j.view.legal_moves()) == 1)
    controller.review_this_hand()
    shown = time.perf_counter()
    review = controller.reviewing.review if controller.reviewing else None
    controller.close_review()
    return {"hand": ended - started, "wait": shown - ended, "decisions": len(searches),
            "searched_at_end": ready_before, "complete": float(bool(review and review.complete)),
            "slice_max": max(SLICES, default=0.0),
            "slice_median": statistics.median(SLICES) if SLICES else 0.0}


async def run(args: argparse.Namespace) -> list[dict[str, float]]:
    controller = against_computer(make_player("beginner", seed=args.seed), rules=rules_by_key(args.rules),
                                  seed=args.seed, reviewer=TimedReview)
    results = []
    for _ in range(args.hands):
        results.append(await play_hand(controller, args.think, args.seed, args.hints))
        if controller.match.is_over:
            controller.new_match()
        else:
            controller.next_hand()
    return results


def main(argv: list[str] | None = None) -> int:
    """Play the hands and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--think", type=float, default=1.0, help="seconds the learner takes over each move")
    parser.add_argument("--rules", default="REVISED_2008")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hints", action="store_true", help="the learner asks for a hint at every move with a choice "
                        "and follows it: the hints are timed, and the review takes up their searches")
    parser.add_argument("--smoke", action="store_true", help=f"the smallest real run: {SMOKE} (overrides those)")
    args = parser.parse_args(argv)
    if args.smoke:
        vars(args).update(SMOKE)
    print(f"review of each hand: {REVIEW_DEALS} deals a decision, bounded finish {REVIEW_FINISH_SECONDS} s; "
          f"learner thinks {args.think} s a move")
    for number, result in enumerate(asyncio.run(run(args)), start=1):
        print(f"  hand {number}: {result['decisions']:.0f} decisions over {result['hand']:.0f} s; at its end "
              f"{result['searched_at_end']:.0f} fully searched; review shown {result['wait']:.2f} s after the end "
              f"({'complete' if result['complete'] else 'partly refined'}); background slices: median "
              f"{result['slice_median'] * 1000:.0f} ms, longest {result['slice_max'] * 1000:.0f} ms")
    if args.hints:
        print(f"hints ({args.rules}): {len(HINTS)}, median {statistics.median(HINTS) * 1000:.0f} ms, p95 "
              f"{percentile(HINTS, 0.95) * 1000:.0f} ms, max {max(HINTS) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
