"""Tournament between the computer levels: seeded four-hand matches under the 2008 rules, seats swapped.

Each pairing A:B plays `--pairs` seeds; every seed is played twice with the same cut and deals,
A sitting first as player 0 and then as player 1. Results are appended to a JSON-lines file as
each match ends, so an interrupted run resumes where it stopped. The summary gives, per pairing,
A's match win rate (draws count half) with a Wilson 95% interval, the mean total-score difference
A − B with a 95% interval taken over seed pairs, and each level's decision times (median, p95).

Besides the levels of `leopard_tutor.ai`, a pairing may name `lessons`: the lessons' coach
(`leopard_tutor.lessons.coach`, the opponent of the guided hand), which plays exactly what the lessons
teach (go out when that wins the hand, else the play that gains most at once, building on its own
square), standing in for a learner who has done the lessons.

The expert's search is cut by its time budget (wall-clock), so on a busy machine it searches fewer
deals. For records that do not depend on the machine's load, give it a budget it never reaches and a
fixed number of deals a move (--expert-budget 60 --expert-deals N).

Example (small expert budget, two worker processes, niced):
    nice -n 10 .venv/bin/python benchmarks/tournament.py --pairing expert:intermediate \
        --pairs 100 --expert-budget 0.1 --workers 2 --out /tmp/e_vs_i_100ms.jsonl

Smoke run (one seed, both seatings, the expert capped at 1 deal a move; results in a temporary file
unless --out is given):
    .venv/bin/python benchmarks/tournament.py --smoke
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from resumable import complete, read_records, run_with_out
from shares import percentile, wilson

from leopard_tutor.ai import make_player
from leopard_tutor.ai.determinize import sample_hand
from leopard_tutor.ai.players import ExpertPlayer, Player
from leopard_tutor.engine import REVISED_2008, Match, Move, PlayerView
from leopard_tutor.lessons.coach import coach_move

SMOKE = {"pairs": 1, "expert_budget": 60.0, "expert_deals": 1, "workers": 1}
"""--smoke: the smallest real run (the test suite runs it): one seed played both ways, the expert on one deal a move."""


class LessonsCoach:
    """The lessons' coach as a computer player: `coach_move` on a hand matching the view (it reads only
    the squares, its own cards and the legal moves, so the unseen cards dealt do not matter)."""

    level = "lessons"

    def choose(self, view: PlayerView) -> Move:
        """The coach's move in this position."""
        return coach_move(sample_hand(view, random.Random(0)))


def _player(level: str, seed: int, budget: float | None, deals: int | None) -> Player:
    if level == "lessons":
        return LessonsCoach()
    player = make_player(level, seed=seed, time_budget=budget)  # the levels that search take the budget
    if deals is not None and isinstance(player, ExpertPlayer):
        player.deals = deals
    return player


def play_match(task: dict[str, Any]) -> dict[str, Any]:
    """Play one match; `task` names the levels in seat order, the seed and the expert's limits."""
    levels = task["levels"]
    seed = task["seed"]
    players = [_player(levels[seat], seed * 2 + seat, task["budget"], task["deals"]) for seat in (0, 1)]
    times: list[list[float]] = [[], []]
    searched: list[list[int]] = [[], []]
    forced: list[int] = [0, 0]
    match = Match(REVISED_2008, seed=seed)
    went_out = []
    while True:
        hand = match.current
        while not hand.is_over:
            mover = hand.to_move
            view = hand.view(mover)
            if len(view.legal_moves()) == 1:
                forced[mover] += 1
            start = time.perf_counter()
            move = players[mover].choose(view)
            times[mover].append(round(time.perf_counter() - start, 5))
            if isinstance(players[mover], ExpertPlayer):
                searched[mover].append(players[mover].last_deals)  # type: ignore[attr-defined]
            hand.apply(move)
        went_out.append(hand.went_out)
        if match.is_over:
            break
        match.next_hand()
    return {**task, "totals": list(match.totals), "results": [list(r) for r in match.results],
            "went_out": went_out, "times": times, "searched": searched, "forced": forced}


def _tasks(args: argparse.Namespace) -> list[dict[str, Any]]:
    a, b = args.pairing.split(":")
    tasks = []
    for index in range(args.pairs):
        seed = args.seed + index
        for levels in ((a, b), (b, a)):
            tasks.append({"pairing": args.pairing, "levels": list(levels), "seed": seed,
                          "budget": args.expert_budget, "deals": args.expert_deals})
    return tasks


def _key(record: dict[str, Any]) -> tuple[Any, ...]:
    return (record["pairing"], tuple(record["levels"]), record["seed"], record["budget"], record["deals"])


def summarize(records: list[dict[str, Any]], pairing: str) -> str:
    """The summary table for one pairing."""
    a, b = pairing.split(":")
    wins = draws = 0.0
    diffs_by_seed: dict[int, list[int]] = {}
    times: dict[str, list[float]] = {a: [], b: []}
    outs = {a: 0, b: 0}
    searched: dict[str, list[int]] = {a: [], b: []}
    hands = 0
    for record in records:
        seat_a = record["levels"].index(a) if a != b else 0
        diff = record["totals"][seat_a] - record["totals"][1 - seat_a]
        wins += diff > 0
        draws += diff == 0
        diffs_by_seed.setdefault(record["seed"], []).append(diff)
        for seat in (0, 1):
            level = record["levels"][seat]
            times[level] += record["times"][seat]
            searched[level] += [deals for deals in record["searched"][seat] if deals]  # 0: a move without a choice
        for who in record["went_out"]:
            hands += 1
            if who is not None:
                outs[record["levels"][who]] += 1
    n = len(records)
    score = wins + draws / 2
    low, high = wilson(score, n)
    pair_means = [sum(d) / len(d) for d in diffs_by_seed.values()]
    mean = statistics.fmean(pair_means) if pair_means else float("nan")
    half = 1.96 * statistics.stdev(pair_means) / math.sqrt(len(pair_means)) if len(pair_means) > 1 else float("nan")
    budget = records[0]["budget"] if records else None
    deals = records[0]["deals"] if records else None
    lines = [
        f"pairing {a} vs {b}: {n} matches ({len(diffs_by_seed)} seeds, seats swapped), "
        f"search budget {budget if budget is not None else 'default'} s, deal cap {deals or 'default'}",
        f"  {a} wins {int(wins)}, draws {int(draws)}, losses {n - int(wins) - int(draws)}: "
        f"win rate {score / n:.3f} (95% CI {low:.3f}-{high:.3f})" if n else "  no matches",
        f"  mean total-score difference {a} - {b}: {mean:+.2f} (95% CI {mean - half:+.2f} to {mean + half:+.2f})",
        f"  hands ended by going out: {a} {outs[a]}, {b} {outs[b]} of {hands}",
    ]
    for level in dict.fromkeys((a, b)):
        values = times[level]
        if values:
            lines.append(f"  {level} decision time: median {statistics.median(values) * 1000:.1f} ms, "
                         f"p95 {percentile(values, 0.95) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms "
                         f"over {len(values)} decisions")
    for level, deals_a_move in searched.items():
        if deals_a_move:
            lines.append(f"  {level} deals searched per move (moves with a choice): median "
                         f"{statistics.median(deals_a_move)}, mean {statistics.fmean(deals_a_move):.1f}, "
                         f"5th percentile {percentile(deals_a_move, 0.05)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run (or resume) a pairing and print its summary."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairing", default="expert:intermediate", help="LEVEL_A:LEVEL_B")
    parser.add_argument("--pairs", type=int, default=100, help="seeds; each is played with seats both ways")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--expert-budget", type=float, default=None,
                        help="seconds a move of the searching levels, expert and master (default 0.9)")
    parser.add_argument("--expert-deals", type=int, default=None, help="cap on the searching levels' deals a move")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, help="JSON-lines results file (appended, resumable); required but with "
                        "--smoke")
    parser.add_argument("--summary-only", action="store_true",
                        help="play nothing; summarize every match of the pairing that the file holds")
    parser.add_argument("--smoke", action="store_true", help=f"the smallest real run: {SMOKE} (overrides those)")
    return run_with_out(parser, parser.parse_args(argv), SMOKE, run)


def run(args: argparse.Namespace) -> int:
    """Play what `args.out` does not hold yet, appending each match to it, then print the summary (with
    `--summary-only`, of every match of the pairing the file holds, playing nothing)."""
    if args.summary_only:
        records = read_records(args.out, lambda record: record["pairing"] == args.pairing)
    else:
        records = complete(args.out, _tasks(args), _key, play_match, args.workers, "matches")
    print(summarize(records, args.pairing))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
