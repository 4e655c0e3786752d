"""The statistics the benchmarks print: a share's Wilson 95% interval and a percentile of measured values."""

from __future__ import annotations

import math

Z_95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The Wilson 95% interval of `successes` out of `n` (a tie counted as half a success is fine); nan for n = 0."""
    if n == 0:
        return (float("nan"), float("nan"))
    z = Z_95
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def percentile(values: list[float], q: float) -> float:
    """The value at quantile `q` (0 to 1) of `values`, nearest-rank; nan when there are none."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]
