"""Every script in benchmarks/ has a smoke mode the suite runs (`--smoke`: a handful of clicks, one hand, one
load; see benchmark_smokes.py), so a benchmark the README cites cannot break unnoticed. The scripts here need
no browser; those that drive Chromium run in tests/browser/test_browser_benchmarks_smoke.py."""

from __future__ import annotations

import pytest
from benchmark_smokes import BENCHMARKS, LIBRARIES, SMOKES, run_smoke

WITHOUT_BROWSER = sorted(name for name, smoke in SMOKES.items() if not smoke.browser)


def test_every_benchmark_has_a_smoke_run() -> None:
    """A new script in benchmarks/ needs its smoke run in benchmark_smokes.SMOKES (or to be named a library)."""
    scripts = {path.name for path in BENCHMARKS.glob("*.py")} - LIBRARIES
    assert scripts == set(SMOKES), "benchmark_smokes.SMOKES and benchmarks/ disagree"


@pytest.mark.slow
@pytest.mark.parametrize("script", WITHOUT_BROWSER)
def test_smoke_run(script: str) -> None:
    """The script's smoke run exits with 0 and prints every figure line of a full run."""
    run_smoke(script)
