"""Engine speed: random full hands per second, side by side with a plain reference, and legal_moves()'s cost.

A random full hand is a deal followed by uniformly random legal moves until the hand is over, as a
computer opponent's playouts do. The yardstick is `reference_engine.py`, the rules written plainly.
First both play the same seeded random hands and must agree on every legal move set and on the
scores (the run stops if they do not). Then they are timed in interleaved rounds on the same deals
and the same random choices, so that load from elsewhere on the machine falls on both alike; time
is processor time (`time.process_time`), which waiting for a busy machine's cores does not count.
Run on one core:

    .venv/bin/python benchmarks/engine_speed.py [--seconds 10] [--rules REVISED_2008] [--check 200]
    .venv/bin/python benchmarks/engine_speed.py --smoke    (10 hands checked, two rounds raced, in seconds)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference_engine import Move as ReferenceMove
from reference_engine import ReferenceHand

from leopard_tutor.engine import RULE_SETS, Card, Discard, EndTurn, GoOut, Hand, Move, Play, RuleSet

ROUND_HANDS = 20  # hands each side plays in one round of the timing
SMOKE = {"seconds": 0.0, "check": 10, "positions": 200, "repeats": 2}
"""--smoke: the smallest real run (the test suite runs it): a few hands checked, the two rounds a race always has."""


def engine_move(move: ReferenceMove) -> Move:
    """The engine's move for one of the reference's move tuples."""
    if move[0] == "play":
        _, (rank, suit), owner, space = move
        return Play(Card(rank, suit), owner, space)
    if move[0] == "discard":
        rank, suit = move[1]
        return Discard(Card(rank, suit))
    return GoOut() if move[0] == "go out" else EndTurn()


def first_disagreement(rules: RuleSet, seeds: range) -> str | None:
    """Play random hands with the engine and the reference side by side; where they first disagree, or None.

    At every decision both must list the same legal moves; the move made is drawn from the engine's
    list and made in both. At the end both must give the same scores.
    """
    for seed in seeds:
        rng = random.Random(seed)
        hand = Hand.deal(rules, seed=seed, dealer=seed % 2)
        reference = ReferenceHand(rules.key, seed, dealer=seed % 2)
        while True:
            moves = hand.legal_moves()
            reference_moves = reference.legal_moves()
            by_reference = {engine_move(move): move for move in reference_moves}
            where = f"{rules.key} seed {seed}, move {len(hand.moves) + 1}"
            if set(moves) != set(by_reference):
                extra = sorted(map(str, set(moves) - set(by_reference)))
                missing = sorted(map(str, set(by_reference) - set(moves)))
                return f"{where}: only the engine lists {extra}, only the reference lists {missing}"
            if len(set(moves)) != len(moves) or len(by_reference) != len(reference_moves):
                return f"{where}: a move is listed twice"
            if not moves:
                break
            move = rng.choice(moves)
            hand.apply(move)
            reference.apply(by_reference[move])
        if hand.scores() != reference.scores():
            return (f"{rules.key} seed {seed}: scores {hand.scores()} from the engine, "
                    f"{reference.scores()} from the reference")
    return None


def engine_hand(rules: RuleSet, seed: int, rng: random.Random) -> int:
    """Play one random hand to its end with the engine; returns how many moves it took."""
    hand = Hand.deal(rules, seed=seed, dealer=seed % 2)
    moves = 0
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_moves()))
        moves += 1
    return moves


def reference_hand(rules: RuleSet, seed: int, rng: random.Random) -> int:
    """Play one random hand to its end with the reference; returns how many moves it took."""
    hand = ReferenceHand(rules.key, seed, dealer=seed % 2)
    moves = 0
    while not hand.over:
        hand.apply(rng.choice(hand.legal_moves()))
        moves += 1
    return moves


Player = Callable[[RuleSet, int, random.Random], int]


def timed_round(play: Player, rules: RuleSet, first_seed: int) -> tuple[float, int]:
    """Processor seconds to play `ROUND_HANDS` random hands from `first_seed` on, and the moves they took."""
    rng = random.Random(first_seed)
    start = time.process_time()
    moves = sum(play(rules, seed, rng) for seed in range(first_seed, first_seed + ROUND_HANDS))
    return time.process_time() - start, moves


def race(rules: RuleSet, seconds: float) -> dict[str, float]:
    """Engine and reference in alternating rounds on the same hands for about `seconds`: their rates and ratio."""
    spent = {"engine": 0.0, "reference": 0.0}
    moves = {"engine": 0, "reference": 0}
    ratios = []
    rounds = 0
    start = time.process_time()
    while rounds < 2 or time.process_time() - start < seconds:
        first_seed = 1000 + rounds * ROUND_HANDS
        order: list[tuple[str, Player]] = [("engine", engine_hand), ("reference", reference_hand)]
        took = {}
        for name, play in order if rounds % 2 == 0 else order[::-1]:
            took[name], made = timed_round(play, rules, first_seed)
            spent[name] += took[name]
            moves[name] += made
        ratios.append(took["reference"] / took["engine"])
        rounds += 1
    hands = rounds * ROUND_HANDS
    return {"engine": hands / spent["engine"], "reference": hands / spent["reference"],
            "ratio": spent["reference"] / spent["engine"], "median": statistics.median(ratios),
            "low": min(ratios), "high": max(ratios),
            "moves": moves["engine"] / hands, "same_hands": float(moves["engine"] == moves["reference"])}


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
        start = time.process_time()
        for hand in samples:
            hand.legal_moves()
        timings.append((time.process_time() - start) / len(samples) * 1e6)
    return statistics.median(timings), statistics.mean(len(h.legal_moves()) for h in samples)


def main() -> None:
    """Check the reference agrees, then print the figures for each rule set asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="processor seconds spent racing full hands per rule set")
    parser.add_argument("--check", type=int, default=200, help="hands per rule set on which the two must agree")
    parser.add_argument("--rules", choices=sorted(RULE_SETS), action="append", help="default: all three")
    parser.add_argument("--positions", type=int, default=2000, help="positions legal_moves() is timed on")
    parser.add_argument("--repeats", type=int, default=20, help="times each position is timed over")
    parser.add_argument("--smoke", action="store_true", help=f"the smallest real run: {SMOKE} (overrides those)")
    args = parser.parse_args()
    if args.smoke:
        vars(args).update(SMOKE)
    keys = args.rules or list(RULE_SETS)
    for key in keys:
        problem = first_disagreement(RULE_SETS[key], range(args.check))
        if problem:
            sys.exit(f"the engine and the reference disagree: {problem}")
    print(f"Agreement: engine and reference list the same legal moves at every decision and give the same "
          f"scores in {args.check} random hands of each rule set.")
    print(f"{'rules':16s} {'engine':>9s} {'reference':>10s}  {'ratio':>5s} {'(rounds: median, range)':>24s}  "
          f"{'moves':>5s}  legal_moves()")
    for key in keys:
        rules = RULE_SETS[key]
        result = race(rules, args.seconds)
        micro, width = legal_moves_cost(rules, args.positions, args.repeats)
        same = "" if result["same_hands"] else " (the two played different hands!)"
        print(f"{key:16s} {result['engine']:7.0f}/s {result['reference']:8.0f}/s  {result['ratio']:4.2f}x "
              f"({result['median']:5.2f}x, {result['low']:5.2f}-{result['high']:5.2f}x)  {result['moves']:5.1f}  "
              f"{micro:5.2f} µs per call, {width:4.1f} moves listed{same}")
    print("engine, reference: random full hands per processor second; ratio: reference time / engine time on the "
          "same hands over all rounds (then the median, lowest and highest round); moves: per hand; "
          "legal_moves(): median time per call.")


if __name__ == "__main__":
    main()
