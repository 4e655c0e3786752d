"""How fast the app feels, measured in the page with Debian's Chromium against real `leopard-tutor` servers.

Prints, for the server with and without the TCP_NODELAY fix:
* click -> updated board: in-page time from `el.click()` on a hand card until the board has redrawn
  (its data-seq attribute changes), median and p95 over N clicks (Playwright's round trip excluded);
* play click -> updated board, the computer's reply included (a discard, then the beginner answers);
  the clicks come at most one every CLICK_GAP seconds, a fast person's pace, which the kernel's pace
  (pacing.py) takes in full: a click it dropped, or any click the board answers without
  redrawing, stops the run with an error rather than counting;
and for the nodelay server, preheated and cold (a kernel started per visit):
* open URL -> interactive board: in-page time from navigation start until the hand is drawn, and
  until a first click on it has been answered (fresh browser context each load: empty cache; and,
  preheated, for a returning visitor whose browser has cached Voilà's files);
* kernel RSS of each kernel (the page's and the preheated spare) after the clicks, and again once
  every tab of the app has been opened.

Usage: nice .venv/bin/python benchmarks/app_speed.py [--clicks 50] [--plays 20] [--loads 5]
       .venv/bin/python benchmarks/app_speed.py --smoke    (a few clicks, one hand's plays, one load of each)
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import psutil
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy

from leopard_tutor.engine.catalogue import text  # noqa: E402
from leopard_tutor.pacing import INTENT_RATE  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
CLICK_GAP = 2 / INTENT_RATE
"""Seconds the benchmark waits before each click: twice the time the kernel's pace takes to give back a click,
so the pace never drops one however long the run (a burst of 30 back-to-back clicks is all it takes)."""
TOO_FAST = text("board.too_fast")
"""What the board says when the kernel's pace has dropped clicks (too many at once)."""
TOO_BUSY = text("board.too_busy", seconds=1).split(":")[0]
"""How the board's words begin when the kernel's pace has dropped a click for the processor time just spent."""

CLICK_JS = """selector => new Promise((resolve, reject) => {
  const root = document.querySelector('.lt-board');
  const target = root && root.querySelector(selector);
  if (!target) { reject(new Error(`nothing on the first board matches ${selector}`)); return; }
  const before = root.getAttribute('data-seq');
  const done = (found) => { observer.disconnect(); clearTimeout(timer); resolve(found); };
  const observer = new MutationObserver(() => {
    if (root.getAttribute('data-seq') !== before) done(performance.now() - t0);
    else if (!root.classList.contains('lt-busy')) done(null);  // answered ("done") without a redraw
  });
  observer.observe(root, {attributes: true, attributeFilter: ['data-seq', 'class']});
  const timer = setTimeout(() => done(null), 60000);
  const t0 = performance.now();
  target.click();
})"""
"""Click `selector` on the page's first board (selectors such as '.lt-board .lt-hand-card' match there); milliseconds
until the board has redrawn, or null if the board answered without redrawing or not at all within 60 s."""


def click_ms(page: Any, selector: str) -> float:
    """CLICK_JS from Python, CLICK_GAP after the previous click; a click the board does not answer with a
    redraw of its own, or one the kernel's pace dropped, stops the benchmark with a clear error."""
    time.sleep(CLICK_GAP)
    found = page.evaluate(CLICK_JS, selector)
    board = page.locator(".lt-board").first
    if found is None:
        busy = "lt-busy" in (board.get_attribute("class") or "")
        why = "did not redraw within 60 s of" if busy else "answered without redrawing"
        raise RuntimeError(f"the board {why} a click on {selector}; it says: "
                           f"{board.locator('.lt-message').text_content()!r}")
    said = board.locator(".lt-message").text_content() or ""
    if said == TOO_FAST or said.startswith(TOO_BUSY):
        raise RuntimeError(f"the kernel's pace dropped a click on {selector} (the board says {said!r})")
    return float(found)


READY_JS = """() => new Promise(resolve => {
  const done = () => {
    const card = document.querySelector('.lt-board .lt-hand-card');
    if (!card) return false;
    const shown = Date.now();
    const root = document.querySelector('.lt-board');
    const before = root.getAttribute('data-seq');
    const observer = new MutationObserver(() => {
      if (root.getAttribute('data-seq') !== before) { observer.disconnect(); resolve([shown, Date.now()]); }
    });
    observer.observe(root, {attributes: true, attributeFilter: ['data-seq']});
    card.click();
    return true;
  };
  if (!done()) {
    const watch = new MutationObserver(() => { if (done()) watch.disconnect(); });
    watch.observe(document, {childList: true, subtree: true});
  }
})"""


START_TRIES = 3
"""Ports tried before a server of our own is said not to start."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A `leopard-tutor` server of our own (stopped by its pid)."""

    def __init__(self, *options: str) -> None:
        handle, name = tempfile.mkstemp(prefix="app-speed-", suffix=".log")
        os.close(handle)
        self.log = Path(name)
        self.own_data: Path | None = None
        if "--data-dir" not in options:  # a folder of its own, never the user's class
            self.own_data = Path(tempfile.mkdtemp(prefix="app-speed-data-"))
            options = (*options, "--data-dir", str(self.own_data))
        for _ in range(START_TRIES):  # a port free when chosen may be taken (by a kernel elsewhere) before it binds
            if self._start(options):
                break
        else:
            raise RuntimeError(f"server did not start; see {self.log}")
        if "--no-preheat" not in options:
            self.wait_for_pool(0)

    def _start(self, options: tuple[str, ...]) -> bool:
        """Start the server on a free port; whether it answers within 90 s (else it is stopped)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        paths = [str(ROOT), *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
        env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "PYTHONPATH": os.pathsep.join(paths)}
        command = [sys.executable, "-m", "leopard_tutor.cli", "--no-browser", "--port", str(self.port), *options]
        with self.log.open("ab") as out:  # this checkout's code, in the server and its kernels
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with urllib.request.urlopen(self.url + "voila/static/voila.js", timeout=2):
                    return True
            except (OSError, http.client.HTTPException):  # not up yet, or another program's port
                time.sleep(0.2)
        self.process.kill()
        self.process.wait(timeout=30)
        return False

    def kernels(self) -> list[psutil.Process]:
        found = []
        for child in psutil.Process(self.process.pid).children(recursive=True):
            try:
                if "ipykernel" in " ".join(child.cmdline()) and child.status() != psutil.STATUS_ZOMBIE:
                    found.append(child)
            except psutil.Error:
                continue
        return found

    def pool_fills(self) -> int:
        """How many times the preheated pool has been filled so far (from the server log)."""
        return self.log.read_text(errors="replace").count("is filled with")

    def wait_for_pool(self, fills_before: int, timeout: float = 60) -> None:
        """Wait until the pool is filled again: a preheated kernel has run the notebook."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.pool_fills() <= fills_before:
            time.sleep(0.2)

    def stop(self) -> None:
        """Stop the server; remove its log and the data folder made for it (a server that did not start keeps
        them, for its error to name)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(15)
        self.log.unlink(missing_ok=True)
        if self.own_data is not None:
            shutil.rmtree(self.own_data, ignore_errors=True)


def quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   (n={len(ordered)})"


def load_board(page: Any, url: str) -> tuple[float, float]:
    """Open `url` in `page`: ms from the request until the hand was drawn, and until a first click was answered
    (through the server's waiting page and its reload when the page had to wait for a kernel)."""
    started = time.time() * 1000
    page.goto(url, wait_until="commit")
    deadline = time.monotonic() + 300
    while True:
        try:
            shown, answered = page.evaluate(READY_JS)
            return float(shown) - started, float(answered) - started
        except PlaywrightError as error:
            if "context was destroyed" not in str(error) or time.monotonic() > deadline:
                raise  # not the waiting page's reload


def open_board(browser: Any, url: str) -> tuple[Any, Any, float, float]:
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    page = context.new_page()
    shown, answered = load_board(page, url)
    return context, page, shown, answered


def wait_my_turn(page: Any) -> None:
    page.wait_for_function(
        "() => /your turn|hand is over/.test(document.querySelector('.lt-turn')?.textContent || '')",
        timeout=30_000)


def hand_size(page: Any) -> int:
    """How many cards the first board's hand shows."""
    return int(page.locator(".lt-board").first.locator(".lt-hand-card").count())


def click_series(page: Any, clicks: int) -> list[float]:
    """Select and put back hand cards: each click is a full round trip to the kernel and back."""
    times = []
    for i in range(clicks):
        index = (i // 2) % min(5, hand_size(page)) + 1
        times.append(click_ms(page, f".lt-board .lt-hand-card:nth-child({index})"))
    return times


def play_series(page: Any, plays: int) -> list[float]:
    """Discard clicks: the learner's move, the beginner's reply and the redraw (a card is picked first if none is)."""
    times = []
    board = page.locator(".lt-board").first
    for _ in range(plays):
        wait_my_turn(page)
        if "hand is over" in (board.locator(".lt-turn").text_content() or ""):
            break
        if not board.locator(".lt-hand-card.lt-selected").count():
            click_ms(page, ".lt-board .lt-hand-card:nth-child(1)")
        if not board.locator(".lt-discard.lt-target").count():
            raise RuntimeError("the discard pile is not lit with a card picked at the start of a turn; the board says: "
                               f"{board.locator('.lt-message').text_content()!r}")
        times.append(click_ms(page, ".lt-board .lt-discard"))
    return times


def warm_loads(browser: Any, server: Server, loads: int) -> list[float]:
    """Loads in one browser context after a first visit: Voilà's static files come from the browser cache."""
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    page = context.new_page()
    times = []
    for number in range(loads + 1):
        fills = server.pool_fills()
        _shown, answered = load_board(page, server.url)
        if number:
            times.append(answered)
        page.goto("about:blank")
        server.wait_for_pool(fills)
    context.close()
    return times


SMOKE = {"clicks": 6, "plays": 3, "loads": 1}
"""--smoke: the smallest real run, every figure measured once or a few times (the test suite runs it)."""


def main() -> None:
    """Measure and print (see the module docstring); any failure raises, so the exit code is not 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=50, help="timed clicks on hand cards, on each server")
    parser.add_argument("--plays", type=int, default=20, help="timed discards the beginner answers (one hand at most)")
    parser.add_argument("--loads", type=int, default=5, help="page loads timed, preheated and cold")
    parser.add_argument("--smoke", action="store_true", help=f"the smallest real run: {SMOKE} (overrides those)")
    args = parser.parse_args()
    if args.smoke:
        vars(args).update(SMOKE)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        for label, options in (("TCP_NODELAY fix on (default)", ()), ("stock (Nagle on)", ("--no-tcp-nodelay",))):
            server = Server(*options)
            try:
                context, page, _, _ = open_board(browser, server.url)
                wait_my_turn(page)
                click_series(page, 4)  # warm up
                clicks = click_series(page, args.clicks)
                plays = play_series(page, args.plays)
                if args.plays and not plays:
                    raise RuntimeError("no discard was timed: the hand was over before the first")
                print(f"[{label}] click -> updated board:      {quantiles(clicks)}")
                if plays:
                    print(f"[{label}] discard + reply -> board:   {quantiles(plays)}")
                if not options:
                    rss = [k.memory_info().rss / 2**20 for k in server.kernels()]
                    listed = ", ".join(f"{r:.1f}" for r in rss)
                    print(f"[{label}] kernel RSS (MB) after the clicks, each kernel: {listed}")
                    tabs = page.get_by_role("tab").all()
                    for tab in tabs[1:]:
                        tab.click()
                        page.wait_for_timeout(2000)
                    rss = [k.memory_info().rss / 2**20 for k in server.kernels()]
                    print(f"[{label}] kernel RSS (MB) with all {len(tabs)} tabs opened: "
                          f"{', '.join(f'{r:.1f}' for r in rss)}")
                page.goto("about:blank")
                context.close()
            finally:
                server.stop()
        for label, options in (("preheated", ()), ("cold (no preheat)", ("--no-preheat",))):
            server = Server(*options)
            try:
                shown, answered = [], []
                for _ in range(args.loads):
                    fills = server.pool_fills()
                    context, page, s, a = open_board(browser, server.url)
                    shown.append(s)
                    answered.append(a)
                    page.goto("about:blank")  # the unload beacon frees the kernel
                    context.close()
                    if not options:
                        server.wait_for_pool(fills)
                print(f"[{label}] open URL -> hand drawn:        {quantiles(shown)}")
                print(f"[{label}] open URL -> first click answered: {quantiles(answered)}")
                if not options:
                    print(f"[{label}, returning visitor] open URL -> first click answered: "
                          f"{quantiles(warm_loads(browser, server, args.loads))}")
            finally:
                server.stop()
        browser.close()
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
