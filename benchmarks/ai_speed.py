"""Decision times of the computer levels, move by move, in seeded hands against the intermediate player.

Prints, for the chosen level, the median, 95th percentile and maximum time per decision (all
decisions, and separately those with more than one legal move), and for the expert how many
deals of the hidden cards it searched.

    nice -n 10 .venv/bin/python benchmarks/ai_speed.py --level expert --hands 6

On a busy machine, `--quiet-rate R` (random full hands per second that benchmarks/engine_speed.py
gives on a quiet machine, 1,350 on the development machine) estimates what the expert searches
alone: the budget is then timed in this process's CPU time and scaled by how fast the engine runs
here and now (random full hands per CPU-second, measured first) against R. The deals it reaches
are what the tournaments fix with --expert-deals.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from leopard_tutor.ai import LEVELS, ExpertPlayer, IntermediatePlayer, Player, make_player
from leopard_tutor.engine import Hand, RuleSet, rules_by_key


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def _line(label: str, values: list[float]) -> str:
    if not values:
        return f"  {label}: none"
    return (f"  {label}: {len(values)} decisions, median {statistics.median(values) * 1000:.1f} ms, "
            f"p95 {_percentile(values, 0.95) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms")


def cpu_hand_rate(rules: RuleSet, seconds: float = 3.0) -> float:
    """Random full hands per CPU-second of this process (the measure of benchmarks/engine_speed.py)."""
    rng = random.Random(1)
    hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        hand = Hand.deal(rules, seed=hands)
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_moves()))
        hands += 1
    return hands / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    """Time one level's decisions over a few seeded hands and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", choices=LEVELS, default="expert")
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--budget", type=float, default=None, help="expert seconds per move (default: its own)")
    parser.add_argument("--rules", default="REVISED_2008")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet-rate", type=float, default=None,
                        help="random full hands/s on a quiet machine: estimate the expert's deals alone")
    args = parser.parse_args(argv)
    rules = rules_by_key(args.rules)
    scale = 1.0
    if args.quiet_rate:
        scale = cpu_hand_rate(rules) / args.quiet_rate
        print(f"engine here and now: {scale:.2f} of its quiet speed per CPU-second")
    every: list[float] = []
    chosen: list[float] = []
    deals: list[int] = []
    for number in range(args.hands):
        seed = args.seed + number
        hand = Hand.deal(rules, seed=seed, dealer=seed % 2)
        timed = number % 2
        seats: list[Player] = [IntermediatePlayer(seed), IntermediatePlayer(seed)]
        player = make_player(args.level, seed=seed, time_budget=args.budget)
        if args.quiet_rate and isinstance(player, ExpertPlayer):
            player.clock = time.process_time
            player.time_budget *= scale
        seats[timed] = player
        while not hand.is_over:
            mover = hand.to_move
            view = hand.view(mover)
            start = time.perf_counter()
            move = seats[mover].choose(view)
            spent = time.perf_counter() - start
            if mover == timed:
                every.append(spent)
                if len(view.legal_moves()) > 1:
                    chosen.append(spent)
                    player = seats[mover]
                    if isinstance(player, ExpertPlayer):
                        deals.append(player.last_deals)
            hand.apply(move)
    budget = args.budget if args.budget is not None else "default"
    clock = f"CPU time x {scale:.2f}" if args.quiet_rate else "wall-clock time"
    print(f"{args.level} on {rules.title}, {args.hands} hands, budget {budget} ({clock})")
    print(_line("every decision", every))
    print(_line("decisions with a choice", chosen))
    if deals:
        print(f"  deals searched: median {statistics.median(deals)}, mean {statistics.fmean(deals):.1f}, "
              f"min {min(deals)}, max {max(deals)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
