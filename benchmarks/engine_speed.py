"""Engine speed: random full hands per second and the cost of one legal_moves() call.

A random full hand is a deal followed by uniformly random legal moves until the hand is over, as a
computer opponent's playouts do. Run on one core:

    .venv/bin/python benchmarks/engine_speed.py [--seconds 5] [--rules REVISED_2008]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from leopard_tutor.engine import RULE_SETS, Hand, RuleSet


def random_hand(rules: RuleSet, seed: int, rng: random.Random) -> int:
    """Play one random hand to its end; returns how many moves it took."""
    hand = Hand.deal(rules, seed=seed)
    moves = 0
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_moves()))
        moves += 1
    return moves


def hands_per_second(rules: RuleSet, seconds: float) -> tuple[float, float]:
    """Random full hands per second over about `seconds`, and the mean moves per hand."""
    rng = random.Random(1)
    hands = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves += random_hand(rules, hands, rng)
        hands += 1
    return hands / (time.perf_counter() - start), moves / hands


def legal_moves_cost(rules: RuleSet, positions: int = 2000, repeats: int = 20) -> tuple[float, float]:
    """Median microseconds per legal_moves() call over positions from random hands, and moves per call."""
    rng = random.Random(2)
    samples: list[Hand] = []
    seed = 0
    while len(samples) < positions:
        hand = Hand.deal(rules, seed=seed)
        seed += 1
        while not hand.is_over and len(samples) < positions:
            if rng.random() < 0.2:
                samples.append(hand.copy())
            hand.apply(rng.choice(hand.legal_moves()))
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        for hand in samples:
            hand.legal_moves()
        timings.append((time.perf_counter() - start) / len(samples) * 1e6)
    return statistics.median(timings), statistics.mean(len(h.legal_moves()) for h in samples)


def main() -> None:
    """Print the figures for each rule set asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="time spent on full hands per rule set")
    parser.add_argument("--rules", choices=sorted(RULE_SETS), action="append", help="default: all three")
    args = parser.parse_args()
    for key in args.rules or list(RULE_SETS):
        rules = RULE_SETS[key]
        rate, length = hands_per_second(rules, args.seconds)
        micro, width = legal_moves_cost(rules)
        print(f"{key:16s} {rate:8.0f} random full hands/s ({length:5.1f} moves each)   "
              f"legal_moves(): {micro:5.2f} µs per call ({width:4.1f} moves listed on average)")


if __name__ == "__main__":
    main()
