"""Duel between two computer players in duplicate deal pairs: any two levels, or a level against the expert of commit
20b2e17 (`expert@20b2e17`, the frozen copy in benchmarks/expert_20b2e17).

Each pair is one seeded deal of ONE hand, played twice with the seats swapped (side A first as player 0, then as
player 1), so the luck of the deal cancels. A pair is won by side A when A's points over both hands exceed B's, lost
when they fall short; a tie counts half a win. Both sides think `--budget` seconds a move (wall-clock), or, with
`--deals N`, a fixed number of deals a move under a budget they never reach (for screening that does not depend on
the machine's load). Each pair is appended to the `--out` JSON-lines file as it ends, with its wall-clock start and
end, so an interrupted run resumes where it stopped and the pairs that overlapped a pause can be found and replayed.

It prints the share of pairs A won with its Wilson 95% interval, the mean points a hand (A − B) with its standard
error, and each side's move time p50/p95 (moves with a choice; a forced move takes no thought).

Example (today's expert against the expert of 20b2e17, 0.1 s a move, the 2008 rules, one process):
    .venv/bin/python benchmarks/duel.py --a expert --b expert@20b2e17 --rules REVISED_2008 --budget 0.1 \
        --pairs 100 --seed 1 --out benchmarks/results/duel_expert_vs_expert20b2e17_2008_0.1s.jsonl

Smoke run (one pair, one deal a move; results in a temporary file unless --out is given):
    .venv/bin/python benchmarks/duel.py --smoke
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from expert_20b2e17 import ExpertPlayer as OldExpert
from resumable import complete, run_with_out
from shares import percentile, wilson

from leopard_tutor.ai import LEVELS, make_player
from leopard_tutor.ai.players import Player
from leopard_tutor.engine import RULE_SETS, Hand, Move

OLD_EXPERT = "expert@20b2e17"
SIDES = (*LEVELS, OLD_EXPERT)
FIXED_BUDGET = 60.0  # the budget with --deals: never reached, so the deal cap ends each search
Watch = Callable[[int], Callable[[Hand, Move], None] | None]
"""Told side A's seat as a hand begins; may return what is told each move (the hand before it, the move)."""
SMOKE = {"pairs": 1, "deals": 1, "workers": 1, "budget": None}
"""--smoke: the smallest real run (the test suite runs it): one pair, both sides on one deal a move."""


def make_side(side: str, seed: int, budget: float, deals: int | None) -> Player:
    """The player of a side (a level, or the old expert) with its seed, budget and, if given, its deal cap."""
    player: Player
    if side == OLD_EXPERT:
        player = OldExpert(seed, time_budget=budget)  # type: ignore[assignment]
    else:
        player = make_player(side, seed=seed, time_budget=budget)
    if deals is not None and hasattr(player, "deals"):
        player.deals = deals
    return player


def play_pair(task: dict[str, Any], watch: Watch | None = None) -> dict[str, Any]:
    """Play one deal twice, seats swapped; `task` names the sides, the rules, the seed and the limits. `watch`, if
    given, is called as each hand begins with side A's seat, and what it returns (if anything) is told each move with
    the hand as it stands before the move."""
    started = time.time()
    rules = RULE_SETS[task["rules"]]
    budget = FIXED_BUDGET if task["deals"] is not None else task["budget"]
    points: list[list[int]] = []
    times: dict[str, list[float]] = {"a": [], "b": []}
    for a_seat in (0, 1):
        hand = Hand.deal(rules, seed=task["seed"], dealer=0)
        sides = {a_seat: "a", 1 - a_seat: "b"}
        players = {seat: make_side(task[sides[seat]], task["seed"] * 2 + (sides[seat] == "b"), budget, task["deals"])
                   for seat in (0, 1)}
        told = watch(a_seat) if watch else None
        while not hand.is_over:
            mover = hand.to_move
            view = hand.view(mover)
            choice = len(view.legal_moves()) > 1
            begun = time.perf_counter()
            move = players[mover].choose(view)
            if choice:
                times[sides[mover]].append(round(time.perf_counter() - begun, 5))
            if told:
                told(hand, move)
            hand.apply(move)
        scores = hand.scores()
        points.append([scores[a_seat], scores[1 - a_seat]])
    return {**task, "points": points, "times": times, "start": round(started, 3), "end": round(time.time(), 3)}


def _tasks(args: argparse.Namespace) -> list[dict[str, Any]]:
    return [{"a": args.a, "b": args.b, "rules": args.rules, "seed": args.seed + index,
             "budget": None if args.deals is not None else args.budget, "deals": args.deals}
            for index in range(args.pairs)]


def _key(record: dict[str, Any]) -> tuple[Any, ...]:
    return (record["a"], record["b"], record["rules"], record["seed"], record["budget"], record["deals"])


def summarize(records: list[dict[str, Any]]) -> str:
    """The duel's figures over `records` (pairs of the same sides, rules and limits)."""
    first = records[0]
    a, b = first["a"], first["b"]
    margins = [sum(pa - pb for pa, pb in record["points"]) for record in records]
    won = sum(margin > 0 for margin in margins)
    tied = sum(margin == 0 for margin in margins)
    n = len(records)
    share = (won + tied / 2) / n
    low, high = wilson(won + tied / 2, n)
    per_hand = [margin / 2 for margin in margins]
    mean = statistics.fmean(per_hand)
    error = statistics.stdev(per_hand) / math.sqrt(n) if n > 1 else float("nan")
    limit = f"{first['deals']} deals a move" if first["deals"] is not None else f"{first['budget']} s a move"
    lines = [
        f"duel {a} (A) vs {b} (B), {first['rules']}, {limit}: {n} pairs (one deal each, played twice, seats swapped)",
        f"  pairs won by A: {won}, tied: {tied}, lost: {n - won - tied}; share won (a tie counts half) {share:.3f} "
        f"(Wilson 95% CI {low:.3f}-{high:.3f})",
        f"  mean points a hand A - B: {mean:+.2f} (standard error {error:.2f})",
    ]
    for side, name in (("a", a), ("b", b)):
        values = [t for record in records for t in record["times"][side]]
        lines.append(f"  {side.upper()} {name} move time: p50 {percentile(values, 0.5) * 1000:.1f} ms, "
                     f"p95 {percentile(values, 0.95) * 1000:.1f} ms ({len(values)} moves with a choice)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run (or resume) a duel and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", default=LEVELS[-1], choices=SIDES, help="side A (the one measured)")
    parser.add_argument("--b", default=OLD_EXPERT, choices=SIDES, help="side B")
    parser.add_argument("--rules", default="REVISED_2008", choices=sorted(RULE_SETS))
    parser.add_argument("--budget", type=float, default=0.9, help="seconds a move for both sides")
    parser.add_argument("--deals", type=int, default=None,
                        help="instead of a time budget: this many deals a move for both sides (load-independent)")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1, help="the first pair's deal seed")
    parser.add_argument("--workers", type=int, default=1, help="processes (one for a time-budgeted duel)")
    parser.add_argument("--out", type=Path, help="JSON-lines results file (appended, resumable); required but with "
                        "--smoke")
    parser.add_argument("--smoke", action="store_true", help=f"the smallest real run: {SMOKE} (overrides those)")
    return run_with_out(parser, parser.parse_args(argv), SMOKE, run)


def run(args: argparse.Namespace) -> int:
    """Play the pairs `args.out` does not hold yet, appending each to it, then print the figures."""
    records = complete(args.out, _tasks(args), _key, play_pair, args.workers, "pairs")
    records.sort(key=lambda record: record["seed"])
    print(summarize(records))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
