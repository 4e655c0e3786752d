"""How fast the static website is (build it first: `bash scripts/site.sh`), timed in the page.

    nice .venv/bin/python benchmarks/site_speed.py [--site build/site] [--runs 3] [--clicks 40]
    .venv/bin/python benchmarks/site_speed.py --smoke [--site build/site]   (one load of each kind, a few clicks)

Prints, for Debian's Chromium (headless) on this machine:
* time to a usable board: from navigation start to the first hand card of Play in the page
  (performance.now() read by a MutationObserver set before any page script), with a cold cache
  (a fresh browser profile each run) and a warm one (the same profile, the site visited before: the
  second and third visits, when the browser also has the scripts' compiled code),
  and the CPU time all of the browser's processes spent meanwhile. The profile is on disk, as a
  student's browser has it (`--profile memory`: a Playwright context in memory, which never keeps
  compiled code: there a warm visit compiles Pyodide's WebAssembly again), and the server sends
  website/serve.py's CACHE_CONTROL, as the README tells a school's host to (`--no-cache-control`: none, as
  `python3 -m http.server` does);
* click-to-board latency: a click on a card of the hand until the board has redrawn with Python's
  answer (p50, p95), and the same for a play the beginner answers; the clicks come at most one every
  CLICK_GAP seconds (app_speed.py), which the kernel's pace takes in full: a click the board answers
  without redrawing, or one the pace dropped, stops the run with an error;
* the strongest level's time to reply in the page (its budget is DEFAULT_TIME_BUDGET), and, run by Pyodide
  under Node, how many deals each searching level (`SEARCHES`) searches a move there against CPython here;
* the site's size on disk, and what one cold visit downloads, raw and as a host that gzips sends it.

Goals (issue 23): usable board <= 5 s cold and <= 2.5 s warm, click p50 <= 15 ms and p95 <= 30 ms, one cold
visit <= 10 MB gzipped. Timings on a shared machine are noisy: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, ClassVar

import psutil
from app_speed import CLICK_GAP, TOO_FAST

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "website"))
from serve import CACHE_CONTROL, SiteHandler, SiteServer  # noqa: E402

from leopard_tutor.ai.players import SEARCHES  # noqa: E402
from leopard_tutor.protocol import LEVELS  # noqa: E402

STRONGEST = LEVELS[-1]  # the level whose reply is timed in the page

APP = "voici/render/leopard_tutor.html"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-features=AutofillServerCommunication"]
WATCH = """(() => {
  window.__lt = {};
  new MutationObserver((_, observer) => {
    if (!window.__lt.board && document.querySelector(".lt-board .lt-hand-card")) {
      window.__lt.board = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
})();"""
TARGET = ".lt-space.lt-target, .lt-discard.lt-target"
"""Where the picked card may go: a lit space, or the discard pile."""
CLICK = """async ([selector, index]) => {
  const board = document.querySelector(".lt-board");
  const before = board.getAttribute("data-seq");
  const target = board.querySelectorAll(selector)[index];
  if (!target) throw new Error(`nothing on the first board matches ${selector} [${index}]`);
  const start = performance.now();
  const redrawn = await new Promise((resolve) => {
    const done = (found) => { observer.disconnect(); clearTimeout(timer); resolve(found); };
    const observer = new MutationObserver(() => {
      if (board.getAttribute("data-seq") !== before) done(true);
      else if (!board.classList.contains("lt-busy")) done(false);  // answered ("done") without a redraw
    });
    observer.observe(board, { attributes: true, attributeFilter: ["data-seq", "class"] });
    const timer = setTimeout(() => done(false), 60000);
    target.click();
  });
  return redrawn ? performance.now() - start : null;
}"""
"""Click the `index`th match of `selector` on the first board; milliseconds until the board has redrawn, or null
if it answered without redrawing or not at all within 60 s."""
SMOKE = {"runs": 1, "warm_visits": 1, "clicks": 4, "search_moves": 1}
"""--smoke: the smallest real run (the test suite runs it): one cold and one warm load, a few clicks."""
EXPERT = """
import json, random, time
from leopard_tutor.ai import make_player
from leopard_tutor.ai.players import DEFAULT_TIME_BUDGET
from leopard_tutor.engine import Hand, REVISED_2008

def level_moves(level, moves):
    rng = random.Random(13)
    seen = []
    while len(seen) < moves:
        hand = Hand.deal(REVISED_2008, seed=rng.randrange(10**6))
        for _ in range(rng.randrange(2, 20)):
            if hand.is_over:
                break
            hand.apply(rng.choice(sorted(hand.legal_moves(), key=str)))
        if hand.is_over or len(hand.legal_moves()) < 2:
            continue
        player = make_player(level, seed=1)
        start = time.perf_counter()
        player.choose(hand.view(hand.to_move))
        seen.append((time.perf_counter() - start, player.last_deals))
    return json.dumps({"budget": DEFAULT_TIME_BUDGET, "moves": seen})
"""
NODE_EXPERT = """
const { loadPyodide } = require(process.argv[1] + "/pyodide.js");
(async () => {
  const pyodide = await loadPyodide({ indexURL: process.argv[1] + "/", packages: ["leopard-tutor"],
                                      stdout: () => {} });
  pyodide.runPython(process.argv[2]);
  console.log(pyodide.runPython(`level_moves("${process.argv[4]}", ${process.argv[3]})`));
})();
"""


class Served(SiteHandler):
    """Serves the site as website/serve.py does (`.wasm` as application/wasm, CACHE_CONTROL) and notes every file
    sent (what one visit downloads)."""

    sent: ClassVar[list[Path]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        handle = super().send_head()
        if handle is not None and hasattr(handle, "name"):
            type(self).sent.append(Path(handle.name))
        return handle


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def browser_cpu() -> dict[int, float]:
    """CPU seconds used so far by each of the browser's processes (children of this one), by process id."""
    found = {}
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        found[child.pid] = times.user + times.system
    return found


def cpu_since(before: dict[int, float]) -> float:
    """CPU seconds the browser's processes spent since `before` (browser_cpu()): by process, so that one that
    ended meanwhile (a closed page's) takes nothing off the sum."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in browser_cpu().items())


def click_ms(page: Any, selector: str, index: int = 0) -> float:
    """CLICK, CLICK_GAP after the previous click; a click the board does not answer with a redraw of its own,
    or one the kernel's pace dropped, stops the benchmark with a clear error."""
    page.wait_for_timeout(CLICK_GAP * 1000)
    found = page.evaluate(CLICK, [selector, index])
    message = page.locator(".lt-board .lt-message").first.text_content()
    if found is None:
        raise RuntimeError(f"the board did not redraw after a click on {selector} [{index}]; it says: {message!r}")
    if message == TOO_FAST:
        raise RuntimeError(f"the kernel's pace dropped a click on {selector} (the board says {message!r})")
    return float(found)


def board_time(context: Any, url: str) -> tuple[float, float]:
    """Seconds from navigation start to the first usable Play board, read in the page, and the CPU
    seconds the browser spent meanwhile (a figure the machine's other load hardly changes)."""
    page = context.new_page()
    page.add_init_script(WATCH)
    cpu = browser_cpu()
    page.goto(url, wait_until="commit")
    page.wait_for_function("window.__lt && window.__lt.board", timeout=300_000, polling=100)
    spent = cpu_since(cpu)
    seconds = float(page.evaluate("window.__lt.board")) / 1000
    page.close()
    return seconds, spent


def clicks(context: Any, url: str, count: int) -> tuple[list[float], list[float]]:
    """Milliseconds from click to redraw: picking cards of the hand, and plays the beginner answers."""
    page = context.new_page()
    page.add_init_script(WATCH)
    page.goto(url, wait_until="commit")
    page.wait_for_function("window.__lt && window.__lt.board", timeout=300_000, polling=100)
    picks = [click_ms(page, ".lt-hand-card", i % 2) for i in range(count)]
    plays = []
    for _ in range(max(1, count // 4)):
        if page.locator(".lt-board .lt-hand-card.lt-selected").count() == 0:
            click_ms(page, ".lt-hand-card:not(.lt-stuck)")
        if page.locator(".lt-board").first.locator(TARGET).count() == 0:
            break
        plays.append(click_ms(page, TARGET))
        if "your turn" not in (page.locator(".lt-board .lt-turn").first.text_content() or ""):
            break
    page.close()
    return picks, plays


def level_reply(context: Any, url: str, moves: int) -> list[float]:
    """Seconds from a play to the redraw with the computer's answer, in the page (`url` names the level)."""
    page = context.new_page()
    page.add_init_script(WATCH)
    page.goto(url, wait_until="commit")
    page.wait_for_function("window.__lt && window.__lt.board", timeout=300_000, polling=100)
    times = []
    for _ in range(moves):
        click_ms(page, ".lt-hand-card:not(.lt-stuck)")
        if page.locator(".lt-board").first.locator(TARGET).count() == 0:
            break
        times.append(click_ms(page, TARGET) / 1000)
        if "your turn" not in (page.locator(".lt-board .lt-turn").first.text_content() or ""):
            break
    page.close()
    return times


def level_deals(site: Path, level: str, moves: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A searching level's (seconds, deals searched) for the same positions in Pyodide under Node and in CPython."""
    done = subprocess.run(["node", "-e", NODE_EXPERT, str(site / "static" / "pyodide"), EXPERT, str(moves), level],
                          capture_output=True, text=True, check=True)
    namespace: dict[str, Any] = {}
    sys.path.insert(0, str(ROOT))
    exec(EXPERT, namespace)
    return json.loads(done.stdout.strip().splitlines()[-1]), json.loads(namespace["level_moves"](level, moves))


def sizes(files: list[Path]) -> tuple[int, int]:
    """Bytes of `files` as they are, and as a host that gzips (when that is smaller) sends them."""
    raw = packed = 0
    for path in files:
        data = path.read_bytes()
        raw += len(data)
        packed += min(len(data), len(gzip.compress(data, 6)))
    return raw, packed


def main() -> None:
    """Measure and print (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "build" / "site")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warm-visits", type=int, default=2, help="visits after the cold one, in each profile")
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--search-moves", type=int, default=6, help="moves timed for each searching level")
    parser.add_argument("--profile", choices=("disk", "memory"), default="disk",
                        help="the cold and warm visits' browser profile: on disk, as a student's browser has it (the "
                             "only kind where Chromium keeps the compiled code of scripts and WebAssembly between "
                             "visits), or in memory (a Playwright context, as the tests use)")
    parser.add_argument("--no-cache-control", action="store_true",
                        help="serve without Cache-Control headers (as python3 -m http.server does)")
    parser.add_argument("--smoke", action="store_true", help=f"the smallest real run: {SMOKE} (overrides those)")
    args = parser.parse_args()
    if args.smoke:
        vars(args).update(SMOKE)
    site: Path = args.site.resolve()
    if not (site / APP).is_file():
        raise SystemExit(f"no site in {site}: build it with 'bash scripts/site.sh'")
    from playwright.sync_api import sync_playwright

    Served.cache_control = not args.no_cache_control

    server = SiteServer(("127.0.0.1", 0), functools.partial(Served, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/{APP}"
    print(f"site {site} served at {url}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"profile {args.profile}, Cache-Control {'off' if args.no_cache_control else CACHE_CONTROL}")
    cold, warm, cold_cpu, warm_cpu = [], [], [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        for run in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="site-speed-profile-") as profile:
                if args.profile == "disk":  # launches a browser of its own, with the same options
                    context = playwright.chromium.launch_persistent_context(profile, executable_path=CHROMIUM,
                                                                             headless=True, args=ARGS)
                else:
                    context = browser.new_context()
                Served.sent.clear()
                seconds, cpu = board_time(context, url)
                cold.append(seconds)
                cold_cpu.append(cpu)
                if run == 0:
                    visit = sorted(set(Served.sent))
                for _visit in range(args.warm_visits):
                    seconds, cpu = board_time(context, url)
                    warm.append(seconds)
                    warm_cpu.append(cpu)
                context.close()
        context = browser.new_context()
        picks, plays = clicks(context, url + "?deal=BENCH13", args.clicks)
        replies = level_reply(context, url + f"?level={STRONGEST}&deal=BENCH13", args.search_moves)
        context.close()
        browser.close()
    server.shutdown()
    files = [path for path in site.rglob("*") if path.is_file()]
    disk = sum(path.stat().st_size for path in files)
    raw, packed = sizes(visit)
    for name, times, cpus, goal in (("cold", cold, cold_cpu, 5), ("warm", warm, warm_cpu, 2.5)):
        print(f"usable board, {name} cache: median {statistics.median(times):.2f} s "
              f"(runs: {', '.join(f'{s:.2f}' for s in times)})   goal <= {goal} s;  browser CPU meanwhile: "
              f"median {statistics.median(cpus):.2f} s")
    print(f"click on a card to board redrawn: p50 {percentile(picks, 0.5):.1f} ms, "
          f"p95 {percentile(picks, 0.95):.1f} ms (n={len(picks)})   goal p50 <= 15 ms, p95 <= 30 ms")
    if plays:
        print(f"a play and the beginner's reply to board redrawn: p50 {percentile(plays, 0.5):.1f} ms, "
              f"p95 {percentile(plays, 0.95):.1f} ms (n={len(plays)})")
    if replies:
        print(f"a play and the {STRONGEST}'s reply, in the page: max {max(replies):.2f} s "
              f"(n={len(replies)}: {', '.join(f'{s:.2f}' for s in replies)})")
    for level in SEARCHES:
        pyodide, cpython = level_deals(site, level, args.search_moves)
        for name, found in (("Pyodide (Node)", pyodide), ("CPython", cpython)):
            seconds = [s for s, _ in found["moves"]]
            deals = [d for _, d in found["moves"]]
            print(f"{level} on {name}: budget {found['budget']} s, a move took at most {max(seconds):.2f} s, "
                  f"deals searched median {statistics.median(deals):.0f} (min {min(deals)}, max {max(deals)})")
    print(f"site on disk: {disk / 1e6:.1f} MB in {len(files)} files")
    print(f"one cold visit downloads {len(visit)} files: {raw / 1e6:.1f} MB raw, {packed / 1e6:.1f} MB gzipped "
          f"  goal <= 10 MB gzipped")


if __name__ == "__main__":
    main()
