"""Browser fixtures: one Debian Chromium per session (Playwright, sync API), a fresh context per test,
and a collector that fails the test on any page error. Under CI=true a missing browser FAILS."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BOARD_TIMEOUT_MS = 60_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in tests/browser drives a real browser."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session."""
    if not Path(CHROMIUM).exists():
        message = f"Chromium is missing at {CHROMIUM}: install it with 'apt-get install chromium'"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser context (empty cache and storage) for each test."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 1000})
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def page_errors() -> list[str]:
    """Page errors and console errors seen during the test."""
    return []


def _offline_noise(msg: Any) -> bool:
    """Voilà's template asks a CDN for Font Awesome; without a network that fails, harmlessly."""
    where = (msg.location or {}).get("url", "")
    return msg.text.startswith("Failed to load resource") and where.startswith("https://cdn.jsdelivr.net/")


@pytest.fixture
def page(context: Any, page_errors: list[str]) -> Iterator[Any]:
    """A page whose errors fail the test."""
    tab = context.new_page()
    tab.on("pageerror", lambda error: page_errors.append(f"pageerror: {error}"))
    tab.on("console", lambda msg: page_errors.append(f"console {msg.type}: {msg.text}")
           if msg.type == "error" and not _offline_noise(msg) else None)
    yield tab
    if page_errors:
        pytest.fail("the page reported errors:\n" + "\n".join(page_errors))


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
