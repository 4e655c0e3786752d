"""Decision times of the computer levels, move by move, in seeded hands against the intermediate player.

Prints, for the chosen level, the median, 95th percentile and maximum time per decision (all
decisions, and separately those with more than one legal move), and for the expert how many
deals of the hidden cards it searched.

    nice -n 10 .venv/bin/python benchmarks/ai_speed.py --level expert --hands 6
    .venv/bin/python benchmarks/ai_speed.py --smoke    (one hand, the expert with 0.1 s a move)

On a busy machine, `--quiet-rate R` (random full hands per second the engine plays on a quiet
machine) estimates what the expert searches alone: the budget is then timed in this process's CPU
time and scaled by how fast the engine runs here and now (random full hands per CPU-second, measured
again before every hand) against R. The deals it reaches are what the tournaments fix with
--expert-deals; `--deals N` instead caps the expert at N deals a move with no time limit, and with
--quiet-rate the time each move then takes is given as on a quiet machine (CPU time x the speed ratio).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shares import percentile

from leopard_tutor.ai import LEVELS, ExpertPlayer, IntermediatePlayer, Player, make_player
from leopard_tutor.engine import Hand, RuleSet, rules_by_key

SMOKE = {"hands": 1, "budget": 0.1}
"""--smoke: the smallest real run (the test suite runs it): one hand, the expert on a short budget."""


def _line(label: str, values: list[float]) -> str:
    if not values:
        return f"  {label}: none"
    return (f"  {label}: {len(values)} decisions, median {statistics.median(values) * 1000:.1f} ms, "
            f"p95 {percentile(values, 0.95) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms")


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
    parser.add_argument("--deals", type=int, default=None, help="expert: at most this many deals, no time limit")
    parser.add_argument("--quiet-rate", type=float, default=None,
                        help="random full hands/s on a quiet machine: estimate the expert's deals alone")
    parser.add_argument("--smoke", action="store_true", help=f"the smallest real run: {SMOKE} (overrides those)")
    args = parser.parse_args(argv)
    if args.smoke:
        vars(args).update(SMOKE)
    rules = rules_by_key(args.rules)
    scales: list[float] = []
    every: list[float] = []
    chosen: list[float] = []
    quiet: list[float] = []
    deals: list[int] = []
    for number in range(args.hands):
        seed = args.seed + number
        hand = Hand.deal(rules, seed=seed, dealer=seed % 2)
        timed = number % 2
        seats: list[Player] = [IntermediatePlayer(seed), IntermediatePlayer(seed)]
        player = make_player(args.level, seed=seed, time_budget=args.budget)
        if args.quiet_rate:
            scales.append(cpu_hand_rate(rules, 2.0) / args.quiet_rate)
        if isinstance(player, ExpertPlayer) and args.deals is not None:
            player.deals, player.time_budget = args.deals, 60.0
        elif isinstance(player, ExpertPlayer) and args.quiet_rate:
            player.clock = time.process_time
            player.time_budget /= scales[-1]  # a slower engine here needs more CPU time for the same work
        seats[timed] = player
        while not hand.is_over:
            mover = hand.to_move
            view = hand.view(mover)
            start, cpu = time.perf_counter(), time.process_time()
            move = seats[mover].choose(view)
            spent = time.perf_counter() - start
            if mover == timed:
                every.append(spent)
                if len(view.legal_moves()) > 1:
                    chosen.append(spent)
                    if scales:
                        quiet.append((time.process_time() - cpu) * scales[-1])
                    player = seats[mover]
                    if isinstance(player, ExpertPlayer):
                        deals.append(player.last_deals)
            hand.apply(move)
    budget = (f"{args.deals} deals, no time limit" if args.deals is not None
              else args.budget if args.budget is not None else "default")
    clock = (f"CPU time x {min(scales):.2f} to {max(scales):.2f}, the engine's speed here against its quiet speed"
             if scales else "wall-clock time")
    print(f"{args.level} on {rules.title}, {args.hands} hands, budget {budget} ({clock})")
    print(_line("every decision", every))
    print(_line("decisions with a choice", chosen))
    if quiet:
        print(_line("the same, as on a quiet machine", quiet))
    if deals:
        print(f"  deals searched: median {statistics.median(deals)}, mean {statistics.fmean(deals):.1f}, "
              f"min {min(deals)}, max {max(deals)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
