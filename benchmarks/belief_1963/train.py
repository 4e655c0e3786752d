"""Fit the belief to gen.py's rows and say how much it knows (with numpy).

usage: train.py ROWS.jsonl [ROWS.jsonl ...] [--weights PATH] [--measure-on ROWS.jsonl ...]   (numpy: requirements-dev)
The belief is a conditional logit: the other hand's cards are drawn in proportion to copies x exp(weights . features).
Fitted (Newton's method, a ridge of 1) on three quarters of the hands, it is measured on the other quarter by the log
ratio of the held cards' probabilities to a uniform deal's, in nats a decision, beside the same measure for knowing
how many jacks the other player holds and for knowing the whole hand; then it is fitted on all the rows and written
to weights.json beside this script (or to --weights). --measure-on: the same measure of that fit on other rows (all
their decisions; for instance hands against another player).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
from beliefs import NAMES

Decision = tuple[Any, Any, Any, int, int]


def load(paths: list[str]) -> list[Decision]:
    """Each decision's features, held copies, unseen copies, the other hand's size and the hand's seed."""
    decisions = []
    for path in paths:
        with open(path) as file:
            for line in file:
                data = json.loads(line)
                rows = np.array(data["rows"], dtype=float)
                decisions.append((rows[:, :-2], rows[:, -2], rows[:, -1], data["h"], data["seed"]))
    return decisions


def stack(decisions: list[Decision]) -> tuple[Any, ...]:
    """The decisions as arrays, with each row's decision number."""
    x = np.vstack([d[0] for d in decisions])
    held = np.concatenate([d[1] for d in decisions])
    copies = np.concatenate([d[2] for d in decisions])
    group = np.concatenate([np.full(len(d[1]), i) for i, d in enumerate(decisions)])
    size = np.array([d[3] for d in decisions], dtype=float)
    return x, held, copies, group, size


def fit(x: Any, held: Any, copies: Any, group: Any, size: Any, ridge: float = 1.0) -> Any:
    """The weights maximizing the held cards' log likelihood (Newton's method)."""
    beta = np.zeros(x.shape[1])
    groups = group.max() + 1
    for _ in range(30):
        s = x @ beta
        w = copies * np.exp(s - s.max())
        q = w / np.bincount(group, w, groups)[group]
        hq = size[group] * q
        grad = x.T @ (held - hq) - ridge * beta
        mean_x = np.stack([np.bincount(group, q * x[:, j], groups) for j in range(x.shape[1])], axis=1)
        hessian = (x * hq[:, None]).T @ x - (mean_x * size[:, None]).T @ mean_x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, grad)
        beta += step
        if np.abs(step).max() < 1e-6:
            break
    return beta


def information(x: Any, held: Any, copies: Any, group: Any, size: Any, beta: Any) -> float:
    """Mean nats a decision by which the belief beats a uniform deal on the held cards."""
    groups = group.max() + 1
    w = copies * np.exp(x @ beta)
    q = w / np.bincount(group, w, groups)[group]
    uniform = copies / np.bincount(group, copies, groups)[group]
    return float((held * (np.log(q) - np.log(uniform))).sum() / groups)


def oracles(decisions: list[Decision]) -> tuple[float, float]:
    """The same measure for knowing how many jacks the other player holds, and for knowing the whole hand."""
    jacks_total = whole_total = 0.0
    for x, held, copies, size, _ in decisions:
        unseen = copies.sum()
        jack = x[:, NAMES.index("k_J")] == 1.0
        jacks_held, jacks_unseen = held[jack].sum(), copies[jack].sum()
        for is_jack, y, m in zip(jack, held, copies):
            if y:
                share = (jacks_held / size) * m / jacks_unseen if is_jack else \
                    ((size - jacks_held) / size) * m / (unseen - jacks_unseen)
                jacks_total += y * math.log(share / (m / unseen))
                whole_total += y * math.log((y / size) / (m / unseen))
    return jacks_total / len(decisions), whole_total / len(decisions)


def main() -> None:
    """Fit, measure, write the weights."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rows", nargs="+", help="gen.py's files")
    parser.add_argument("--weights", type=Path, default=Path(__file__).with_name("weights.json"))
    parser.add_argument("--measure-on", nargs="+", default=[], help="other rows to measure the fit on")
    args = parser.parse_args()
    decisions = load(args.rows)
    seeds = sorted({d[4] for d in decisions})
    test_seeds = set(seeds[::4])
    train = stack([d for d in decisions if d[4] not in test_seeds])
    test = stack([d for d in decisions if d[4] in test_seeds])
    print(f"{len(decisions)} decisions of {len(seeds)} hands, {len(test_seeds)} of them held out")
    beta = fit(*train)
    print(f"held out: the belief {information(*test, beta):.3f} nats a decision")
    kinds = [i for i, name in enumerate(NAMES) if name.startswith(("k_", "ph_"))]
    only_kinds = np.zeros_like(beta)
    only_kinds[kinds] = fit(train[0][:, kinds], *train[1:])
    print(f"held out: the kind of card and the phase of the hand alone {information(*test, only_kinds):.3f}")
    for path in args.measure_on:
        other = stack(load([path]))
        print(f"{Path(path).name}: the belief {information(*other, beta):.3f}, "
              f"the kind and phase alone {information(*other, only_kinds):.3f} nats a decision")
    jacks, whole = oracles(decisions)
    print(f"all decisions: knowing the jacks' count {jacks:.3f}, knowing the whole hand {whole:.3f}")
    beta = fit(*stack(decisions))
    made_by = f"train.py {' '.join(Path(p).name for p in args.rows)}: fitted on all {len(seeds)} hands"
    args.weights.write_text(json.dumps(
        {"rules": "ORIGINAL_1963", "made_by": made_by, "weights": dict(zip(NAMES, map(float, beta)))}, indent=1))
    print(f"{args.weights} written:", ", ".join(f"{n} {b:+.3f}" for n, b in zip(NAMES, beta)))


if __name__ == "__main__":
    main()
