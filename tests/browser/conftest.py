"""Board fixtures for the browser tests (the browser, context and page fixtures are in ../conftest.py):
the app opened on the session's server, and a helper to open any URL of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

BOARD_TIMEOUT_MS = 60_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in tests/browser drives a real browser."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


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
    """A function that opens a URL of the app in this test's page and returns the drawn board."""
    return lambda url: _open_board(page, url)
