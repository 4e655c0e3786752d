"""Board fixtures for the browser tests (the browser, context and page fixtures are in ../conftest.py, which also
marks every test here `browser`): the app opened on the session's server, and a helper to open any URL of it; and
the static site, built once a session for the site's tests and its benchmark's smoke run."""

from __future__ import annotations

import fcntl
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

BOARD_TIMEOUT_MS = 60_000
ROOT = Path(__file__).resolve().parents[2]


def _open_board(page: Any, url: str) -> Any:
    """Open `url` and wait until the board is drawn; returns the board's root locator."""
    page.goto(url, wait_until="commit", timeout=BOARD_TIMEOUT_MS)
    board = page.locator(".lt-board").first
    board.locator(".lt-space").first.wait_for(state="visible", timeout=BOARD_TIMEOUT_MS)
    return board


@pytest.fixture
def board(page: Any, base_url: str) -> Any:
    """The app opened in a fresh page, its board drawn: the board's root locator."""
    return _open_board(page, base_url)


@pytest.fixture
def open_board(page: Any) -> Any:
    """A function that opens a URL of the app in this test's page (or in the page given after it) and returns the
    drawn board."""
    return lambda url, on=page: _open_board(on, url)


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site: LEOPARD_TUTOR_SITE, or build/site/ freshly built by scripts/site.sh (once a run: under
    pytest-xdist, by the first worker that needs it, the others waiting for it and then taking it as it is)."""
    given = os.environ.get("LEOPARD_TUTOR_SITE")
    if given:
        return Path(given)
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
    built = ROOT / "build" / "site-built-by-run"
    (ROOT / "build").mkdir(exist_ok=True)
    with (ROOT / "build" / "site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not run or not built.exists() or built.read_text() != run:
            subprocess.run(["bash", str(ROOT / "scripts" / "site.sh")], check=True, cwd=ROOT)
            built.write_text(run)
    return ROOT / "build" / "site"
