"""Shared fixtures: a real `leopard-tutor` server (Voilà) on a free port, started once per session, and
one Debian Chromium per session (Playwright, sync API) with a fresh context per test and a collector
that fails the test on any page error. Under CI=true a missing browser FAILS; elsewhere it skips."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from servers import CHROMIUM, free_port, need_chromium, stop_server

from leopard_tutor import pacing

pytest_plugins = ["keyed", "module_order"]  # `keyed`: texts as keys and facts (tests/keyed.py); the modules' order

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
START_TIMEOUT = 90
# Every process the tests start (servers, kernels, notebooks) imports this checkout's leopard_tutor, not
# whatever the virtual environment has installed (an editable install of another checkout).
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != str(ROOT))])
SERVER_FIXTURES = {"app_server", "base_url", "own_server", "start_own_server", "server_tools"}
"""Fixtures that start a real server: a test using one is marked `server`."""
BROWSER_FIXTURES = {"page", "context"}
"""Fixtures that open Chromium: a test using one is marked `browser` (as is every test in tests/browser)."""
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-features=AutofillServerCommunication"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark what costs the most, so that `-m "not browser"` (everyday work) and `-m "not browser and not server"`
    (the quickest loop) leave it out."""
    browser_tests = Path(__file__).parent / "browser"
    for item in items:
        parametrized = set(getattr(getattr(item, "callspec", None), "params", {}))  # arguments, not fixtures
        used = set(getattr(item, "fixturenames", ())) - parametrized
        if used & BROWSER_FIXTURES or browser_tests in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
        if used & SERVER_FIXTURES:
            item.add_marker(pytest.mark.server)


LOG_TAIL_LINES = 80  # how much of a server's log a failed test's report shows


BEGUN = pytest.StashKey[float]()
"""When a test's set-up began (`time.monotonic`): the servers started since are its own."""


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Note when the test begins."""
    item.stash[BEGUN] = time.monotonic()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed test that uses a real server (marked `server`) gets the end of the log of every server still
    running in its report, however it was started, and of every server the test started itself, even one it has
    stopped already (a restart), so that a failure seen only in CI (a page that never rendered, a kernel that
    died) says what the servers saw."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if not report.failed or item.get_closest_marker("server") is None:
        return
    begun = item.stash.get(BEGUN, float("inf"))
    for server in STARTED:
        if server.process.poll() is None or server.started >= begun:
            tail = "\n".join(server.log_text().splitlines()[-LOG_TAIL_LINES:])
            report.sections.append((f"server log {server.log} (last {LOG_TAIL_LINES} lines)", tail))


@dataclass
class AppServer:
    """A running app server: its base URL, process and log file."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path
    started: float = field(default_factory=time.monotonic)

    def log_text(self) -> str:
        """Everything the server printed so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")


STARTED: list[AppServer] = []
"""Every server `start_server` started in this test process (a failed test's report shows the running ones' logs)."""


def wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float = START_TIMEOUT) -> None:
    """Poll a static asset (never the notebook, which would start a kernel) until the server answers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url + "voila/static/voila.js", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within {timeout} s:\n{log.read_text(errors='replace')}")


def start_server(log: Path, *extra: str, prefix: Sequence[str] = (), port: int | None = None) -> AppServer:
    """Start `leopard-tutor --no-browser --port P` (plus `extra` options) from this checkout, after
    `prefix` (a command such as prlimit that runs it), on `port` (default: a free one); wait for it. The
    class tables are kept in a "data" folder beside the log unless `extra` names a --data-dir."""
    port = free_port() if port is None else port
    if "--data-dir" not in extra:
        extra = (*extra, "--data-dir", str(log.parent / "data"))
    env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "PYTHONUNBUFFERED": "1"}
    with log.open("wb") as out:  # this checkout's code, in the server and in its kernels (PYTHONPATH)
        command = [*prefix, sys.executable, "-m", "leopard_tutor.cli", "--no-browser", "--port", str(port), *extra]
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_up(url, process, log)
    except RuntimeError:
        stop_server(process)
        raise
    STARTED.append(AppServer(url, process, log))
    return STARTED[-1]


@pytest.fixture(scope="session")
def app_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """One real app server for the whole session."""
    server = start_server(tmp_path_factory.mktemp("server") / "server.log")
    try:
        yield server
    finally:
        stop_server(server.process)


@pytest.fixture(scope="session")
def server_tools() -> tuple[Callable[..., AppServer], Callable[[subprocess.Popen[bytes]], None]]:
    """(start_server, stop_server), for a fixture of a wider scope that starts a server of its own."""
    return start_server, stop_server


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[AppServer]:
    """A real app server for one test alone (for tests that kill its kernels or fill it up)."""
    server = start_server(tmp_path / "server.log")
    try:
        yield server
    finally:
        stop_server(server.process)


@pytest.fixture(scope="session")
def base_url(app_server: AppServer) -> str:
    """The app's base URL, such as http://127.0.0.1:40123/."""
    return app_server.url


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go (gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session."""
    need_chromium()
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
    ctx = browser.new_context(viewport={"width": 1100, "height": 1000}, locale="en-US")  # the tutor follows it
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def page_errors() -> list[str]:
    """Page errors and console errors seen during the test."""
    return []


def _offline_noise(msg: Any) -> bool:
    """A resource on another host that could not be fetched: Voilà's page asks CDNs for Font Awesome and
    the like, which fails harmlessly on a machine without internet access. Our own server's failures count."""
    where = (msg.location or {}).get("url", "")
    local = where.startswith(("http://127.0.0.1", "http://localhost"))
    return msg.text.startswith("Failed to load resource") and not local


@pytest.fixture
def page(context: Any, page_errors: list[str]) -> Iterator[Any]:
    """A page whose errors fail the test."""
    tab = context.new_page()
    tab.on("pageerror", lambda error: page_errors.append(f"pageerror: {error}"))
    tab.on("console", lambda msg: page_errors.append(f"console {msg.type}: {msg.text} ({msg.location})")
           if msg.type == "error" and not _offline_noise(msg) else None)
    yield tab
    if page_errors:
        pytest.fail("the page reported errors:\n" + "\n".join(page_errors))


@pytest.fixture
def start_own_server(tmp_path: Path) -> Iterator[Callable[..., AppServer]]:
    """Start app servers with extra options for one test alone; all are stopped after it."""
    started: list[AppServer] = []

    def start(*extra: str, port: int | None = None) -> AppServer:
        started.append(start_server(tmp_path / f"server{len(started)}.log", *extra, port=port))
        return started[-1]
    yield start
    for server in started:
        stop_server(server.process)


@pytest.fixture(autouse=True)
def fresh_kernel_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test is a fresh kernel: its clicks do not spend the pace an earlier test's clicks left, and it starts
    with no progress an earlier test made and no language an earlier test chose."""
    from leopard_tutor.engine import catalogue
    from leopard_tutor.lessons import progress

    monkeypatch.setattr(pacing, "_kernel_pace", None)
    monkeypatch.setattr(progress, "_KERNEL_PROGRESS", [])
    monkeypatch.setattr(catalogue, "_CHOSEN", [])
