"""Learn the master's weights (leopard_tutor/ai/data/values.json) by self-play, reproducibly from a seed.

For each rule set, in rounds: two players who both choose the move the current judge values most (the hand-tuned
evaluation in the first round, then the weights the round before learned), with a small share of random moves so
the hands vary, play `--hands` hands; every decision gives two rows (the features as each player knows the position,
and that player's final score difference); a ridge least-squares fit of the rows gives the round's weights. The
last round's weights are written. The hands' seeds, the random moves and the fit depend only on `--seed` and the
settings, and the workers' results are taken in order, so the same command writes the same file.

The shipped file (about 16 minutes on two cores), and the check that it is this script's (writes nothing):
    .venv/bin/python scripts/train_values.py
    .venv/bin/python scripts/train_values.py --check [--rules REVISED_2008]
A small run into another file, to try settings:
    .venv/bin/python scripts/train_values.py --hands 200 --rounds 2 --out /tmp/values.json
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from leopard_tutor.ai.evaluation import Judge, hand_tuned
from leopard_tutor.ai.learned import FEATURES, VALUES_FILE, LearnedValues, features, learned_value, load_values
from leopard_tutor.ai.players import greedy_move
from leopard_tutor.ai.position import Position
from leopard_tutor.engine import RULE_SETS, Hand

SETTINGS = {"seed": 1, "hands": 3000, "rounds": 3, "noise": 0.05, "ridge": 1.0}
"""The settings the shipped weights were made with (the script's defaults)."""

Row = tuple[list[float], float]


def judge_of(values: LearnedValues | None) -> Judge:
    """The judge a round's players choose by: the hand-tuned evaluation, or the learned weights so far."""
    return hand_tuned if values is None else functools.partial(learned_value, values=values)


def play_hand(task: tuple[str, int, float, LearnedValues | None]) -> list[Row]:
    """One self-play hand: a row (features, final score difference) for each player at each decision."""
    key, seed, noise, values = task
    judge = judge_of(values)
    rng = random.Random(seed)
    hand = Hand.deal(RULE_SETS[key], seed=seed, dealer=seed % 2)
    seen: list[tuple[int, list[float]]] = []
    while not hand.is_over:
        mover = hand.to_move
        memo: dict[tuple[object, ...], float] = {}
        for player in (mover, 1 - mover):
            seen.append((player, features(Position.from_hand(hand, player), memo)))
        moves = hand.legal_moves()
        if len(moves) > 1 and rng.random() < noise:
            hand.apply(rng.choice(moves))
        else:
            hand.apply(greedy_move(hand, mover, judge))
    scores = hand.scores()
    return [(row, float(scores[player] - scores[1 - player])) for player, row in seen]


def fit(rows: list[Row], ridge: float) -> list[float]:
    """The weights minimising the squared error over `rows` plus `ridge` times their squared sizes."""
    size = len(FEATURES)
    matrix = [[0.0] * size for _ in range(size)]
    target = [0.0] * size
    for row, result in rows:
        for i, x in enumerate(row):
            if x:
                target[i] += x * result
                line = matrix[i]
                for k, y in enumerate(row):
                    line[k] += x * y
    for i in range(size):
        matrix[i][i] += ridge
    return solve(matrix, target)


def solve(matrix: list[list[float]], target: list[float]) -> list[float]:
    """The solution of matrix · x = target (Gauss-Jordan elimination with partial pivoting)."""
    size = len(target)
    rows = [[*matrix[i], target[i]] for i in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(size):
            if r != column and rows[r][column]:
                factor = rows[r][column] / rows[column][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column])]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def train(settings: dict[str, Any], keys: list[str], workers: int,
          say: Callable[[str], object] = print) -> LearnedValues:
    """The weights for `keys` by `settings` (seed, hands, rounds, noise, ridge), each round's hands on `workers`
    processes."""
    weights: dict[str, tuple[float, ...]] = {}
    for key in keys:
        values: LearnedValues | None = None  # the previous round's weights (none before the first round)
        number = list(RULE_SETS).index(key)  # a rule set's hands are the same whichever others are trained with it
        for round_ in range(settings["rounds"]):
            began = time.perf_counter()
            first = (settings["seed"] * 100 + number * 10 + round_) * 1_000_000
            tasks = [(key, first + i, settings["noise"], values) for i in range(settings["hands"])]
            if workers > 1:
                with multiprocessing.Pool(workers) as pool:
                    hands = pool.map(play_hand, tasks, chunksize=max(1, len(tasks) // (8 * workers)))
            else:
                hands = [play_hand(task) for task in tasks]
            rows = [row for hand in hands for row in hand]
            values = LearnedValues({key: tuple(fit(rows, settings["ridge"]))}, {})
            say(f"{key} round {round_ + 1}: {len(rows)} rows from {len(tasks)} hands in "
                f"{time.perf_counter() - began:.0f} s")
        assert values is not None  # main() asks for at least one round
        weights[key] = values.weights[key]
    made_by = {"script": "scripts/train_values.py", **settings}
    return LearnedValues(weights, made_by)


def main(argv: list[str] | None = None) -> int:
    """Train and write the weights file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, value in SETTINGS.items():
        parser.add_argument(f"--{name}", type=type(value), default=value)
    parser.add_argument("--rules", nargs="+", choices=list(RULE_SETS), default=list(RULE_SETS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=VALUES_FILE)
    parser.add_argument("--check", action="store_true",
                        help="write nothing: say whether --out already holds exactly these weights for --rules")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.rounds < 1 or args.workers < 1:
        parser.error("--hands, --rounds and --workers are at least 1")
    settings = {name: getattr(args, name) for name in SETTINGS}
    values = train(settings, args.rules, args.workers)
    if args.check:
        held = load_values(args.out)
        differ = [key for key in args.rules if held.weights.get(key) != values.weights[key]]
        if held.made_by != values.made_by:
            differ.append("made_by")
        print(f"{args.out} differs: {', '.join(differ)}" if differ else f"{args.out} holds exactly these weights")
        return 1 if differ else 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(values.to_json(), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
