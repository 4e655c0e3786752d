"""The smoke runs (`--smoke`, see ../benchmark_smokes.py) of the benchmarks that drive Debian's Chromium
themselves: app_speed.py and classroom_load.py start servers of their own, site_speed.py measures the site
test_site.py uses (built once a session). A missing Chromium skips them, and fails them under CI=true."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_smokes import run_smoke
from servers import need_chromium


@pytest.mark.slow
@pytest.mark.parametrize("script", ["app_speed.py", "classroom_load.py"])
def test_smoke_run(script: str) -> None:
    """The script's smoke run exits with 0 and prints every figure line of a full run."""
    need_chromium()
    run_smoke(script)


@pytest.mark.slow
def test_site_speed_smoke_run(site: Path) -> None:
    """site_speed.py's smoke run on the site the other site tests use."""
    need_chromium()
    run_smoke("site_speed.py", "--site", str(site))
