"""The static website (`bash scripts/site.sh`): built here, served from 127.0.0.1, and used in a real
Chromium whose every request outside the site goes to a recording proxy, so any request that leaves
the origin fails the test. Python runs in the page (Pyodide): there is no server-side kernel at all.

Set LEOPARD_TUTOR_SITE to the folder of a site built already to test it instead of building one (the
`site` fixture, in conftest.py).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import socketserver
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from rendered import opening, pattern
from test_learn import click as click_lesson
from test_learn import open_tab, play_solution, square_on_page
from test_play import click, squares_of, wait_my_turn

from leopard_tutor.client.host import PAGE_URL
from leopard_tutor.engine import square_value
from leopard_tutor.engine.catalogue import text
from leopard_tutor.lessons import LESSONS

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "website"))
from serve import SiteHandler, SiteServer  # noqa: E402

APP = "voici/render/leopard_tutor.html"
WHILE_THINKING = """async board => {
  board.querySelector(".lt-space.lt-target, .lt-discard.lt-target").click();
  const busy = board.classList.contains("lt-busy") && board.getAttribute("aria-busy") === "true";
  const ran = await new Promise(resolve => setTimeout(() => resolve(true), 50));
  return [busy, ran, board.classList.contains("lt-busy")];
}"""
"""A play the expert answers: the busy cue at once, and a timer that fires while the cue is still on."""
START_MS = 180_000  # a cold start on a busy 2-core machine; benchmarks/site_speed.py measures it

HAND_OVER = pattern("play.turn.over", number=r"\d+", hands=r"\d+", rules=".+")
"""The turn line once the hand is over (the page's language: English)."""

BROWSER_QUIET_SECONDS = 6
"""How long a blank page is held to learn what the browser asks of other hosts by itself."""


class QuietHandler(SiteHandler):
    """Serves the site's files as website/serve.py does (what the README tells a school's host to do), and logs
    nothing."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def origin(site: Path) -> Iterator[str]:
    """The site served by a static file server on 127.0.0.1 (what any web host does), e.g. http://127.0.0.1:PORT."""
    server = SiteServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class RecordingProxy(socketserver.ThreadingTCPServer):
    """A proxy that forwards nothing: it notes the first line of every request it gets and refuses it."""

    daemon_threads = True

    def __init__(self) -> None:
        self.seen: list[str] = []
        super().__init__(("127.0.0.1", 0), self.Handler)

    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            line = self.rfile.readline(2048).decode("latin-1").strip()
            if line:  # (a connection the browser opened ahead and closed names no host: it asked for nothing)
                self.server.seen.append(line)  # type: ignore[attr-defined]
            self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


@pytest.fixture(scope="module")
def outside() -> Iterator[RecordingProxy]:
    """Where every request that leaves the site's origin goes (and is refused)."""
    proxy = RecordingProxy()
    thread = threading.Thread(target=proxy.serve_forever, daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        proxy.shutdown()
        proxy.server_close()


def proxied(browser: Any, outside: RecordingProxy) -> Any:
    """A fresh browser context (empty cache and storage) whose only way out is the recording proxy."""
    return browser.new_context(viewport={"width": 1100, "height": 1000},
                               proxy={"server": f"http://127.0.0.1:{outside.server_address[1]}",
                                      "bypass": "127.0.0.1"})


@pytest.fixture(scope="module")
def browsers_own(browser: Any, outside: RecordingProxy) -> set[str]:
    """What the browser asks of other hosts by itself, whatever the page: measured on a blank local page held as
    long as a site's visit (Chromium 150 preconnects to its default search engine, www.google.com, from a new
    profile). Empty where the browser asks nothing; a site's request to such a host is still caught once the
    browser's own have been counted."""
    before = len(outside.seen)
    ctx = proxied(browser, outside)
    try:
        ctx.new_page().goto("about:blank")
        time.sleep(BROWSER_QUIET_SECONDS)
    finally:
        ctx.close()
    return set(outside.seen[before:])


@pytest.fixture
def context(browser: Any, outside: RecordingProxy, browsers_own: set[str]) -> Iterator[Any]:
    """A fresh browser context (empty cache and storage) whose only way out is the recording proxy."""
    ctx = proxied(browser, outside)
    before = len(outside.seen)
    try:
        yield ctx
    finally:
        ctx.close()
    left = [line for line in outside.seen[before:] if line not in browsers_own]
    assert not left, f"the site asked other hosts: {left}"


def open_site(page: Any, url: str) -> Any:
    """Open `url` and wait until the app's first board is drawn; returns the board's root locator."""
    page.goto(url, wait_until="commit")
    page.locator(".lt-board .lt-space:visible").first.wait_for(timeout=START_MS)
    return page.locator(".lt-board").first


def test_the_page_hands_the_kernel_its_address(site: Path) -> None:
    """The name the page's script and leopard_tutor.client.host share is the same on both sides."""
    page = (site / APP).read_text(encoding="utf-8")
    assert PAGE_URL in page
    assert not re.search(r"(src|href)=\"https?://", page), "the app page links another host"
    lock = (site / "static" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8")
    assert '"leopard-tutor"' in lock and '"disablePyPIFallback": true' in (site / "jupyter-lite.json").read_text()


def test_a_new_build_reaches_a_browser_that_keeps_static_files_for_a_year(site: Path, page: Any, origin: str) -> None:
    """static/ is kept for a year (server.md): every wheel there is named by its content, and the page (checked on
    every visit) asks for the lock and the standard library at addresses that name theirs, so a returning student
    gets a new build's app, never the old one (the QA's case: the old app stayed after the site was rebuilt)."""
    folder = site / "static" / "pyodide"
    lock = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))
    for entry in lock["packages"].values():
        tag = entry["file_name"].split("-")[2]
        assert tag == "0" + hashlib.sha256((folder / entry["file_name"]).read_bytes()).hexdigest()[:12], entry
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    open_site(page, f"{origin}/")
    for name in ("pyodide-lock.json", "python_stdlib.zip"):
        digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
        assert f"{origin}/static/pyodide/{name}?sha256={digest}" in requested, name
    ours = next(entry["file_name"] for entry in lock["packages"].values() if entry["name"] == "leopard-tutor")
    assert f"{origin}/static/pyodide/{ours}" in requested


def test_the_runtime_is_served_to_be_compiled_as_it_arrives_and_kept(origin: str) -> None:
    """Chromium compiles WebAssembly as it streams in, and keeps the compiled code for the next visit, only for
    a response typed application/wasm that its cache may keep."""
    with urllib.request.urlopen(f"{origin}/static/pyodide/pyodide.asm.wasm") as response:
        assert response.headers["Content-Type"] == "application/wasm"
        assert "max-age=31536000" in response.headers["Cache-Control"]


def test_a_teachers_link_through_the_start_page(page: Any, origin: str) -> None:
    board = open_site(page, f"{origin}/?rules=1963&level=expert&deal=SITE7&lesson=3")
    assert page.url.startswith(f"{origin}/{APP}?rules=1963")
    learn = page.locator(".lt-learn .lt-board")
    stage_three = opening("sections.learn.turn", "title", stage=3, stages=len(LESSONS))
    expect(learn.locator(".lt-turn")).to_contain_text(stage_three, timeout=60_000)
    page.get_by_role("tab", name="Play", exact=True).click()
    expect(board.locator(".lt-turn")).to_contain_text(text("rules.ORIGINAL_1963"))
    level = page.locator(".lt-play select").nth(1)
    assert level.evaluate("select => select.options[select.selectedIndex].text") == text("levels.names.expert")
    page.get_by_role("button", name=text("play.share.button")).click()
    link = page.locator(".lt-share-link").input_value(timeout=30_000)
    assert link.startswith(f"{origin}/{APP}?") and "deal=SITE7" in link and "level=expert" in link
    for _ in range(10):  # while the expert thinks (in the page's worker), the board says so and the page runs on
        wait_my_turn(board)
        click(board, board.locator(".lt-hand-card:not(.lt-stuck)").first)  # it goes somewhere: a space or the pile
        busy, ran, still = board.evaluate(WHILE_THINKING)
        assert busy, "no busy cue while the computer thinks"
        if ran and still:
            break
    else:
        pytest.fail("never saw the page run while the expert was thinking")


def test_plain_http_from_another_host_name_works(browser: Any, origin: str, page_errors: list[str]) -> None:
    """A school's intranet server without HTTPS: the page is not a secure context (no service worker could
    run), and the app starts all the same."""
    port = origin.rsplit(":", 1)[1]
    school = browser.browser_type.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                         headless=True, args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                                                              "--host-resolver-rules=MAP school.test 127.0.0.1"])
    try:
        page = school.new_page()
        page.on("pageerror", lambda error: page_errors.append(f"pageerror: {error}"))
        board = open_site(page, f"http://school.test:{port}/?level=intermediate")
        assert page.evaluate("window.isSecureContext") is False
        expect(board.locator(".lt-turn")).to_contain_text("Hand 1 of 4")
        level = page.locator(".lt-play select").nth(1)
        assert level.evaluate("select => select.options[select.selectedIndex].text") == "Intermediate"
    finally:
        school.close()
    assert not page_errors


def test_play_a_hand_learn_a_stage_step_an_example_and_practise(page: Any, origin: str) -> None:
    board = open_site(page, f"{origin}/{APP}")
    for _ in range(200):  # a whole hand against the beginner, by clicks alone
        table = wait_my_turn(board)
        squares_of(table)  # every redraw keeps the board's contract, values as the engine has them
        if HAND_OVER.fullmatch(table["turn"]):
            break
        go_out = page.get_by_role("button", name="Go out", exact=True)
        if go_out.is_enabled():
            click(board, go_out)
            continue
        for index in range(len(table["hand"])):
            click(board, board.locator(".lt-hand-card").nth(index))
            if board.locator(".lt-space.lt-target").count():
                click(board, board.locator(".lt-space.lt-target").first)
                break
        else:
            click(board, board.get_by_role("button", name="Discard pile", exact=True))
    else:
        pytest.fail("the hand did not end within 200 turns")
    expect(page.locator(".lt-scores tbody tr")).to_have_count(1)

    learn = open_tab(board, "Learn", "lt-learn")
    assert opening("lessons.feedback.stars", "stars") in play_solution(learn, 1)
    stars = page.locator(".lt-learn .lt-stage").first.text_content() or ""
    assert "★" in stars

    examples = open_tab(board, "Examples", "lt-examples")
    turn = examples.locator(".lt-turn").text_content() or ""
    click_lesson(examples, examples.get_by_role("button", name="Next"))
    expect(examples.locator(".lt-turn")).not_to_have_text(turn)

    practice = open_tab(board, "Practice", "lt-practice")
    section = page.locator(".lt-practice")
    seq = practice.get_attribute("data-seq")  # the question shown may already be of this kind: wait for the new one
    section.locator("select").first.select_option(label=text("sections.practice.kinds.value"))
    expect(practice).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(practice.locator(".lt-turn")).to_have_text(text("sections.practice.turn", kind=text(
        "sections.practice.kinds.value"), rules=text("rules.REVISED_2008")), timeout=30_000)
    worth = square_value(square_on_page(practice))
    section.locator(".lt-answer input").fill(str(worth))
    section.locator(".lt-answer input").press("Tab")
    told = click_lesson(practice, section.get_by_role("button", name="Check"))
    assert told.startswith(text("lessons.practice.value.right", value=worth)), told

    board = open_site(page, page.url)  # the same browser again: the progress is still there
    open_tab(board, "Learn", "lt-learn")
    expect(page.locator(".lt-learn .lt-stage").first).to_have_text(stars)
    expect(page.locator(".lt-learn .lt-stage").nth(1)).to_be_enabled()
    open_tab(board, "Practice", "lt-practice")
    expect(page.locator(".lt-practice .lt-record")).to_contain_text("1 right, 0 wrong")


def test_the_site_takes_a_dark_theme_from_a_link_or_from_the_browser(browser: Any, origin: str,
                                                                     page_errors: list[str]) -> None:
    """?theme=dark (and the server's ?voila-theme=dark) gives dark colours, as does a browser that prefers them with
    neither; ?theme=light keeps the light ones. The site used to leave out the themes' style sheets (an error dialog
    for ?theme=dark) and to follow no browser's preference."""
    context = browser.new_context(viewport={"width": 1100, "height": 1000}, color_scheme="dark")
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: page_errors.append(f"pageerror: {error}"))
        dark = 'document.body.dataset.jpThemeLight === "false" && document.body.dataset.jpThemeName'
        for query, name in (("", "JupyterLab Dark"), ("?voila-theme=dark&tab=learn", "JupyterLab Dark"),
                            ("?voila-theme=purple", "JupyterLab Dark"), ("?theme=light", False)):
            open_site(page, f"{origin}/{query}")
            expect(page.locator(".jp-Dialog")).to_have_count(0)
            assert page.evaluate(dark) == name, query
            if "theme=light" not in query:  # the choice was shown to Voici only: a reload follows the browser again
                expect(page).not_to_have_url(re.compile(r"[?&]theme="))
        assert "theme=light" in page.url and "tab=learn" not in page.url
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        open_site(page, f"{origin}/?theme=dark")
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") != background
    finally:
        context.close()
    assert not page_errors
