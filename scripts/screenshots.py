"""The screenshots of the README and the guides (docs/play.png, docs/learn.png, docs/play-es.png and
docs/class-page.png, docs/open-table.png), from the real app in Chromium.

Starts `leopard-tutor` on a free port, opens it at a laptop's size (1366x768) with a fixed deal, makes a
few moves in Play by clicks (the first card that lights a space goes there, else it is discarded), then
opens Learn's first stage, and saves both views; then the same moves in Play in Spanish (`?lang=es`). Last,
it starts a second server with a data folder, opens a page for each student of a small class but one (each keeps
its name and goes to a tab), stores what they earned (as their kernels would have reported it), saves the
teacher's class page, and a student's page that has just opened a table for a classmate (its code, link and QR
code).
Run from the project root:

    .venv/bin/python scripts/screenshots.py
"""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect, sync_playwright

from leopard_tutor.engine.catalogue import book
from leopard_tutor.lessons import LESSONS
from leopard_tutor.server.class_store import ClassStore
from leopard_tutor.server.students import Students

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SIZE: ViewportSize = {"width": 1366, "height": 768}
DEAL = "README1"
MOVES = 5
TIMEOUT_MS = 60_000
TOKEN = "screenshots-teacher-token-0123"
MADE = ("play.png", "learn.png", "play-es.png", "class-page.png", "open-table.png")
CLASS = [  # name, stars of the first lessons, practice {concept: [right, wrong]}, games won/drawn/lost, doing
    ("Ana", [3, 3, 2, 3, 2, 1], {"lines": [8, 1], "jacks": [3, 2]}, (2, 0, 1), ("play", None)),
    ("Ben", [2, 1], {"aces to nines": [4, 4]}, (0, 1, 2), ("learn", 3)),
    ("Chloe", [3, 3, 3, 3, 3, 3, 3, 2, 2], {"lines": [10, 0], "tens": [5, 1]}, (4, 0, 0), ("practice", None)),
    ("Dev", [1], {}, (0, 0, 1), ("learn", 2)),
    ("Eli", [3, 2, 2, 1], {"jacks": [2, 5]}, (1, 1, 1), ("examples", None)),
]
AWAY = "Dev"
"""The one student of `CLASS` whose page is not open: their row says they are away."""


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until_up(url: str, seconds: float = 90) -> None:
    """Poll one of Voilà's static files until the server answers."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "voila/static/voila.js", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the app did not answer at {url} within {seconds:.0f} s")


def settle(page: Page) -> None:
    """Wait until no card is still travelling to its place."""
    page.wait_for_function("!document.querySelector('.lt-flight, .lt-arriving')")


def click(board: Locator, target: Locator) -> None:
    """Click `target` and wait for the board's answer."""
    seq = board.get_attribute("data-seq")
    target.click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT_MS)


def serve(*options: str) -> tuple[subprocess.Popen[bytes], str]:
    """`leopard-tutor` on a free port with these options, and its address once it answers."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen([str(Path(sys.executable).with_name("leopard-tutor")), "--no-browser",
                               "--port", str(port), *options], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    return server, url


def named_student(browser: Browser, url: str, name: str) -> Page:
    """A student's page (a browser of its own) that has kept `name` in its header."""
    page = browser.new_context(viewport=SIZE).new_page()
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    students = book("students", "en")
    header = page.locator(".lt-student")
    header.get_by_role("button", name=students["change"]).click(timeout=TIMEOUT_MS)
    header.get_by_role("textbox", name=students["label"]).fill(name)
    header.get_by_role("button", name=students["keep"]).click()
    expect(header.locator(".lt-student-name")).to_have_text(name, timeout=TIMEOUT_MS)
    return page


def a_class(data: Path, here: list[str]) -> None:
    """Store what the students of `CLASS` earned in the data folder, as their kernels' reports would; a student with
    no page open (none kept their name) is stored whole, with what they were doing when they left. The names of the
    pages open (`here`) are waited for: a page shows its name before its kernel has told the server (stored under a
    second record then, that student's row showed nothing earned)."""
    store = ClassStore.in_folder(data)
    try:
        students = Students(store)
        waited = time.monotonic() + TIMEOUT_MS / 1000
        while not set(here) <= {row.name for _, row in store.students()}:
            if time.monotonic() > waited:
                raise TimeoutError(f"the server never stored the names {here}")
            time.sleep(0.2)
        visitors = {row.name: row.visitor for _, row in store.students()}
        for number, (name, stars, practice, games, (doing, stage)) in enumerate(CLASS):
            visitor = visitors.get(name)
            if visitor is None:
                visitor = f"screenshot-{number}"
                students.name(visitor, name)
                students.now(visitor, doing, stage)
            students.progress(visitor, {lesson.key: n for lesson, n in zip(LESSONS, stars)}, practice)
            for result, count in zip(("won", "drawn", "lost"), games):
                for played in range(count):
                    match = f"{number:04x}{played:04x}{len(result):04x}0000"
                    students.game(visitor, "computer:beginner", result, match)
    finally:
        store.close()


def class_page(browser: Browser) -> None:
    """The teacher's class page of a server whose data folder holds `CLASS`, each student's page open (and at the tab
    of what they do) but the one of `AWAY`."""
    with tempfile.TemporaryDirectory() as folder:
        # (served to the network, as for a class: the page's header shows the address students type, and the button
        # that shows it large; one page kept ready, not a class's thirty)
        server, url = serve("--data-dir", folder, "--teacher-token", TOKEN, "--ip", "0.0.0.0", "--class-size", "0")
        try:
            wait_until_up(url)
            here = [(name, named_student(browser, url, name), doing) for name, *_, (doing, _) in CLASS if name != AWAY]
            a_class(Path(folder), [name for name, _, _ in here])
            tabs = book("app", "en")["tabs"]
            for _, student, doing in here:
                student.get_by_role("tab", name=tabs[doing]).click()
            page = browser.new_page(viewport=SIZE)
            page.goto(f"{url}teacher?token={TOKEN}", timeout=TIMEOUT_MS)
            expect(page.locator("#lt-rows tr")).to_have_count(len(CLASS), timeout=TIMEOUT_MS)
            now = book("teacher", "en")["now"]
            for name, _, doing in here:  # the class page refreshes itself: each open page's row says what it does
                expect(page.locator("#lt-rows tr", has_text=name)).to_contain_text(now[doing], timeout=TIMEOUT_MS)
            page.screenshot(path=str(DOCS / "class-page.png"))
            open_a_table(browser, url)
        finally:
            server.terminate()
            server.wait(timeout=30)


def open_a_table(browser: Browser, url: str) -> None:
    """A student named Fay (a name no open page of the class keeps: Ana's would be refused) chooses a classmate as the
    opponent and opens a table: its code, link and QR code."""
    page = browser.new_page(viewport=SIZE)
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.locator(".lt-play .lt-board .lt-space").first.wait_for(state="visible", timeout=TIMEOUT_MS)
    classmates = book("classmates", "en")
    page.get_by_role("combobox", name=book("play", "en")["controls"]["opponent"]).select_option(
        label=classmates["choice"])
    box = page.locator(".lt-class-panel").get_by_role("textbox", name=classmates["name_label"])
    box.fill("Fay")
    box.press("Enter")
    page.get_by_role("button", name=classmates["open"]).click()
    page.locator(".lt-class-status svg").wait_for(state="visible", timeout=TIMEOUT_MS)
    settle(page)
    page.screenshot(path=str(DOCS / "open-table.png"))


def main() -> None:
    """Make the screenshots."""
    server, url = serve()
    try:
        wait_until_up(url)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            DOCS.mkdir(exist_ok=True)
            page = play_a_few_moves(browser, url, "en")
            page.screenshot(path=str(DOCS / "play.png"))
            page.get_by_role("tab", name="Learn").click()
            page.locator(".lt-learn .lt-board .lt-space").first.wait_for(state="visible", timeout=TIMEOUT_MS)
            settle(page)
            page.screenshot(path=str(DOCS / "learn.png"))
            play_a_few_moves(browser, url, "es").screenshot(path=str(DOCS / "play-es.png"))
            class_page(browser)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    made = ", ".join(str(DOCS / name) for name in MADE)
    print(f"wrote {made}")


def play_a_few_moves(browser: Browser, url: str, lang: str) -> Page:
    """A new page of the app in `lang` with the fixed deal, MOVES moves made and a card picked (its places lit)."""
    your_turn = book("play", lang)["turn"]["yours"].rsplit("· ", 1)[-1]
    page = browser.new_page(viewport=SIZE)
    page.goto(f"{url}?deal={DEAL}&lang={lang}", wait_until="commit", timeout=TIMEOUT_MS)
    board = page.locator(".lt-play .lt-board")
    board.locator(".lt-space").first.wait_for(state="visible", timeout=TIMEOUT_MS)
    for _ in range(MOVES):
        expect(board.locator(".lt-turn")).to_contain_text(your_turn, timeout=TIMEOUT_MS)
        click(board, board.locator(".lt-hand-card").first)
        click(board, board.locator(".lt-space.lt-target, .lt-discard.lt-target").first)
    expect(board.locator(".lt-turn")).to_contain_text(your_turn, timeout=TIMEOUT_MS)
    click(board, board.locator(".lt-hand-card").first)  # a card picked: its places light up
    settle(page)
    return page


if __name__ == "__main__":
    main()
