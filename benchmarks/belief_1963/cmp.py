"""Paired comparison of two screen (or duel) files: each side's share and points a hand on their common seeds, and
the gain of the first over the second pair by pair, with standard errors.

usage: cmp.py A.jsonl B.jsonl
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from typing import Any


def load(path: str) -> dict[int, dict[str, Any]]:
    """The file's pairs by seed."""
    with open(path) as file:
        return {record["seed"]: record for record in map(json.loads, file)}


def score(record: dict[str, Any]) -> tuple[float, float]:
    """A pair's result for side A (1 won, ½ tied, 0 lost) and its points a hand, A − B."""
    margin = sum(a - b for a, b in record["points"])
    return float(margin > 0) + 0.5 * (margin == 0), margin / 2


def main() -> None:
    """Print both sides' figures and the paired gain."""
    first, second = load(sys.argv[1]), load(sys.argv[2])
    common = sorted(set(first) & set(second))
    n = len(common)
    if n < 2:
        raise SystemExit(f"the two files have {n} seed(s) in common: a comparison needs at least two")
    for path, records in ((sys.argv[1], first), (sys.argv[2], second)):
        results = [score(records[seed]) for seed in common]
        points = [p for _, p in results]
        median = statistics.median(t for seed in common for t in records[seed]["times"]["a"])
        print(f"{path}: {n} pairs, share {sum(r for r, _ in results) / n:.3f}, points a hand "
              f"{statistics.fmean(points):+.2f} (s.e. {statistics.stdev(points) / math.sqrt(n):.2f}), "
              f"A's median move {median * 1000:.0f} ms")
    shares = [score(first[s])[0] - score(second[s])[0] for s in common]
    points = [score(first[s])[1] - score(second[s])[1] for s in common]
    error = statistics.stdev(shares) / math.sqrt(n)
    print(f"paired, {n} pairs: share {statistics.fmean(shares):+.3f} (s.e. {error:.3f}),"
          f" points {statistics.fmean(points):+.2f} (s.e. {statistics.stdev(points) / math.sqrt(n):.2f})")


if __name__ == "__main__":
    main()
