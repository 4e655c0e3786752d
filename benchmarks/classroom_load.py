"""A class on one server: N simulated students and a few real Chromium pages playing at a human pace.

Each simulated student is a protocol-level client (tests/kernel_client.py): it GETs the page, opens the
websocket to its kernel, asks for the widgets' states as the page does, and then plays the Play tab by
sending the board the same comm messages its clicks send: pick a card, think, place it on a lit space
(or discard it), think, again; the next hand or a new match when one ends. Thinking takes a few seconds
(`--pace`). A few real Chromium pages (`--browsers`) do the same by clicking, timed in the page.

Prints, per kind of click, p50/p95/max of the time until the board's new state arrives (for the pages:
until the board has redrawn), the time to join (page to a usable board), errors, live kernels, memory
(PSS and RSS of the kernels and the server; per session), the load average, and for a searching level
(`--level expert`) the deals it searched per move under load, against the same level alone first
(`--alone-moves`), and how often the student was told the computer played faster than usual.

With `--misbehave`, the class plays `--minutes` alone, then `--minutes` more beside one misbehaving visitor
(one cookie): `--bad-tabs` pages against the expert, `--bad-sockets` more websockets to its first kernel, a
flood of board clicks from its first page and a New match loop from the others (`--flood-rate` messages a
second each, sent without waiting for answers). It prints the class's click p50/p95 and errors in each half,
the ratio of the p95s (the goal: at most 1.5), and the processor the misbehaving kernels took.

With `--server-ip 0.0.0.0` the server listens beyond this machine, as a class server does (the clients still
come from 127.0.0.1), and keeps the warm pool such a server keeps by default; the run waits until it is filled.
`--students 30 --browsers 0 --ramp 3 --server-ip 0.0.0.0` is a class arriving within 3 s at a default class
server: the "join" line is the time from opening the link to a board that answers.

Usage: nice .venv/bin/python benchmarks/classroom_load.py --students 100 [--level beginner] [--minutes 3]
       nice .venv/bin/python benchmarks/classroom_load.py --students 30 --level expert --minutes 3
       nice .venv/bin/python benchmarks/classroom_load.py --students 10 --browsers 0 --minutes 1 --misbehave
       .venv/bin/python benchmarks/classroom_load.py --smoke    (2 students and 1 page for 15 s; exit 1 on errors)
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(Path(__file__).resolve().parent)]

from app_speed import ARGS, CHROMIUM, CLICK_JS, Server  # noqa: E402
from kernel_client import Visit  # noqa: E402

SMOKE = ["--students", "2", "--browsers", "1", "--minutes", "0.25", "--ramp", "2", "--pace", "1"]
"""--smoke: the smallest real run (the test suite runs it); these options win over any given with it."""


@dataclass
class Tally:
    """What the run saw."""

    clicks: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    stamps: list[tuple[float, float]] = field(default_factory=list)  # (when it was answered, seconds) per click
    joins: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    error_stamps: list[float] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)
    hurried: int = 0
    searched_moves: int = 0
    peak: dict[str, float] = field(default_factory=dict)

    def error(self, who: str, what: object) -> None:
        self.errors.append(f"{who}: {what}")
        self.error_stamps.append(time.perf_counter())

    def click(self, kind: str, seconds: float) -> None:
        self.clicks[kind].append(seconds)
        self.stamps.append((time.perf_counter(), seconds))


class Start:
    """The start of play: when the whole class has joined (or failed to), everyone plays for `minutes`."""

    def __init__(self, expected: int, minutes: float) -> None:
        self.expected, self.minutes = expected, minutes
        self.arrived = 0
        self.go = asyncio.Event()
        self.stop = float("inf")
        self.joined_at = 0.0

    def arrive(self) -> None:
        self.arrived += 1
        if self.arrived == self.expected:
            self.joined_at = time.perf_counter()
            self.stop = self.joined_at + 60 * self.minutes
            self.go.set()


def quantiles(values: list[float]) -> str:
    if not values:
        return "n=0"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"p50 {1000 * statistics.median(ordered):7.1f} ms  p95 {1000 * p95:7.1f} ms  "
            f"max {1000 * ordered[-1]:7.1f} ms  (n={len(ordered)})")


def my_turn(table: dict[str, Any]) -> bool:
    return "your turn" in str(table.get("turn", ""))


def enabled(table: dict[str, Any], ident: str) -> bool:
    return any(a["id"] == ident and a["enabled"] for a in table.get("actions", []))


async def think(rng: random.Random, pace: float) -> None:
    await asyncio.sleep(rng.uniform(0.5 * pace, 1.5 * pace))


async def play_one_move(visit: Visit, tally: Tally, rng: random.Random, pace: float, who: str) -> None:
    """One human move: the next hand or match if one ended, else pick a card, think, place or discard it."""
    table = visit.table()
    if table.get("error"):
        tally.error(who, table["error"])
    for ident, kind in (("next_hand", "next hand"), ("new_match", "new match")):
        if enabled(table, ident):
            await timed(visit, {"type": "action", "id": ident}, kind, tally)
            return
    if not my_turn(table):
        tally.error(who, f"not my turn: {table.get('turn')}")
        await timed(visit, {"type": "action", "id": "new_match"}, "new match", tally)
        return
    if enabled(table, "go_out") and rng.random() < 0.5:
        await timed(visit, {"type": "action", "id": "go_out"}, "go out", tally)
        return
    cards = table["hand"]["cards"]
    await timed(visit, {"type": "select", "index": rng.randrange(len(cards))}, "pick", tally)
    await think(rng, pace / 2)
    table = visit.table()
    targets = [(square["key"], cell["space"]) for square in table["squares"] for cell in square["cells"]
               if cell["target"]]
    if targets and rng.random() < 0.85:
        square, space = rng.choice(targets)
        table = await timed(visit, {"type": "space", "square": square, "space": space}, "place", tally)
    else:
        table = await timed(visit, {"type": "discard"}, "discard", tally)
    search = (table or {}).get("search")
    if search:
        tally.searched_moves += 1
        tally.deals.append(int(search["deals"]))
        tally.hurried += bool(search["hurried"])


async def timed(visit: Visit, intent: dict[str, Any], kind: str, tally: Tally) -> dict[str, Any] | None:
    table, seconds = await visit.click(intent, timeout=120)
    tally.click(kind, seconds)
    return table


async def open_every_tab(visit: Visit) -> None:
    """Open each tab of the app once, as a curious student does (each section is built in the kernel), then Play."""
    tabs = next(model_id for model_id, model in visit.states.items() if model.get("model_name") == "TabModel")
    count = len(visit.states[tabs]["state"]["children"])
    for index in [*range(1, count), 0]:
        await visit.send("shell", "comm_msg", {"comm_id": tabs, "data": {
            "method": "update", "state": {"selected_index": index}, "buffer_paths": []}})
        await asyncio.sleep(1)


async def student(number: int, url: str, tally: Tally, start: Start, pace: float, moves: int | None = None,
                  every_tab: bool = False, play_on_join: bool = False) -> None:
    """A simulated student: join (until the board answers a first click), wait for the class (unless
    `play_on_join`), then play at a human pace (until the end, or `moves` moves)."""
    rng = random.Random(number)
    who = f"student {number}"
    visit = Visit(url)
    started = time.perf_counter()
    try:
        await visit.open(timeout=900)
    except Exception as error:
        tally.error(who, f"join failed: {error!r}")
        start.arrive()
        return
    try:
        await visit.click({"type": "select", "index": 0}, timeout=120)  # joined: the board answers a click
    except Exception as error:
        tally.error(who, f"first click failed: {error!r}")
    tally.joins.append(time.perf_counter() - started)
    if every_tab:
        await open_every_tab(visit)
    start.arrive()
    if not play_on_join:
        await start.go.wait()
    made = 0
    try:
        while time.perf_counter() < start.stop and (moves is None or made < moves):
            await think(rng, pace)
            await play_one_move(visit, tally, rng, pace, who)
            made += 1
    except Exception as error:
        tally.error(who, repr(error))
    finally:
        await visit.close()


async def browser_student(browser: Any, number: int, url: str, tally: Tally, start: Start, pace: float) -> None:
    """A real Chromium page, clicking the board; latency measured in the page (click to redraw)."""
    rng = random.Random(1000 + number)
    who = f"browser {number}"
    context = await browser.new_context(viewport={"width": 1100, "height": 1000})
    page = await context.new_page()
    page.on("pageerror", lambda error: tally.error(who, f"page error {error}"))
    started = time.perf_counter()
    try:
        try:
            await page.goto(url, wait_until="commit", timeout=900_000)
            await page.locator(".lt-board .lt-hand-card").first.wait_for(timeout=900_000)
            tally.joins.append(time.perf_counter() - started)
        finally:
            start.arrive()
        await start.go.wait()
        while time.perf_counter() < start.stop:
            await think(rng, pace)
            turn = await page.locator(".lt-board .lt-turn").first.text_content() or ""
            for ident, kind in (("next_hand", "next hand"), ("new_match", "new match")):
                button = page.locator(f".lt-board [data-k='a{ident}']")
                if await button.count() and await button.first.is_enabled():
                    await page_click(page, f".lt-board [data-k='a{ident}']", f"page: {kind}", tally)
                    break
            else:
                if "your turn" not in turn:
                    continue
                cards = await page.locator(".lt-board .lt-hand-card").count()
                pick = f".lt-board .lt-hand-card:nth-child({rng.randrange(cards) + 1})"
                await page_click(page, pick, "page: pick", tally)
                await think(rng, pace / 2)
                if await page.locator(".lt-board .lt-space.lt-target").count() and rng.random() < 0.85:
                    await page_click(page, ".lt-board .lt-space.lt-target", "page: place", tally)
                else:
                    await page_click(page, ".lt-board .lt-discard", "page: discard", tally)
            if await page.locator(".lt-board .lt-lost-notice:not([hidden])").count():
                tally.error(who, "the page says the connection was lost")
                break
    except Exception as error:
        tally.error(who, repr(error))
    finally:
        await context.close()


async def page_click(page: Any, selector: str, kind: str, tally: Tally) -> None:
    """Once the board is not busy, click in the page and time it there, until the board has redrawn (a click
    the board does not answer within a minute counts as an error)."""
    await page.locator(".lt-board:not(.lt-busy)").first.wait_for(timeout=120_000)
    found = await page.evaluate(CLICK_JS, selector)
    if found is None:
        tally.error(kind, f"no redraw within 60 s of a click on {selector}")
    else:
        tally.click(kind, float(found) / 1000)


@dataclass
class Misbehaviour:
    """What the misbehaving visitor did and took."""

    began: float = 0.0
    opened: float = 0.0  # when its pages and websockets were open and its floods began
    tabs: int = 0
    sockets: int = 0
    refused: list[str] = field(default_factory=list)
    sent: int = 0
    kernels: list[str] = field(default_factory=list)
    processor: float = 0.0  # seconds its kernels used while it ran
    seconds: float = 0.0


def kernel_processes(server: Server, ids: list[str]) -> list[psutil.Process]:
    """The kernels of these ids (a kernel's command line names its connection file, kernel-<id>.json)."""
    return [kernel for kernel in server.kernels() if any(ident in " ".join(kernel.cmdline()) for ident in ids)]


def processor_of(kernels: list[psutil.Process]) -> float:
    used = 0.0
    for kernel in kernels:
        try:
            times = kernel.cpu_times()
            used += times.user + times.system
        except psutil.Error:
            continue
    return used


async def misbehave(args: argparse.Namespace) -> None:
    """The misbehaving visitor, in a process of its own at the lowest priority (its load must not slow the class's
    clients: its own machine would be elsewhere): one cookie
    opens `--bad-tabs` pages against the expert and `--bad-sockets` more websockets to its first kernel, then for
    `--misbehave-for` seconds floods the first page's board with clicks and clicks New match in the others,
    `--flood-rate` messages a second each, never waiting. Prints what it opened, then what it sent (JSON lines)."""
    url, stop = args.misbehave_at, time.perf_counter() + args.misbehave_for
    cookies: dict[str, str] = {}
    tabs: list[Visit] = []
    sockets: list[Visit] = []
    refused: list[str] = []
    for number in range(args.bad_tabs):
        visit = Visit(url, cookies=cookies)
        try:
            await visit.open("?level=expert", timeout=120)
        except Exception as error:
            refused.append(f"page {number}: {error!r}")
            continue
        visit.received = collections.deque(maxlen=50)  # type: ignore[assignment]
        tabs.append(visit)
    for number in range(args.bad_sockets if tabs else 0):
        extra = Visit(url, cookies=cookies, kernel_id=tabs[0].kernel_id)
        try:
            await extra.connect()
        except Exception as error:
            refused.append(f"websocket {number}: {error!r}")
            continue
        extra.received = collections.deque(maxlen=50)  # type: ignore[assignment]
        sockets.append(extra)
    print(json.dumps({"kernels": [visit.kernel_id for visit in tabs], "sockets": len(sockets), "refused": refused}),
          flush=True)
    sent = 0

    async def flood(visit: Visit, comm: str, data: dict[str, Any]) -> None:
        nonlocal sent
        while time.perf_counter() < stop:
            try:
                await visit.send("shell", "comm_msg", {"comm_id": comm, "data": data})
            except Exception as error:
                refused.append(f"flood: {error!r}")
                return
            sent += 1
            await asyncio.sleep(1 / args.flood_rate)

    clicks = {"method": "custom", "content": {"type": "select", "index": 0}}
    floods = [flood(tabs[0], tabs[0].board, clicks)] if tabs else []
    for visit in tabs[1:]:
        button = next(model_id for model_id, model in visit.states.items()
                      if model.get("model_name") == "ButtonModel" and model["state"].get("description") == "New match")
        floods.append(flood(visit, button, {"method": "custom", "content": {"event": "click"}}))
    await asyncio.gather(*floods)
    for visit in [*sockets, *tabs]:
        await visit.close()
    print(json.dumps({"sent": sent, "refused": refused[-5:]}), flush=True)


async def misbehaver(server: Server, args: argparse.Namespace, start: Start, seen: Misbehaviour) -> None:
    """Once the class has played `--minutes` alone, run the misbehaving visitor (`misbehave`) until the end, and
    measure the processor its kernels take."""
    await start.go.wait()
    await asyncio.sleep(max(0.0, start.joined_at + 60 * args.minutes - time.perf_counter()))
    seen.began = time.perf_counter()
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--misbehave-at", server.url, "--misbehave-for", str(start.stop - seen.began),
        "--bad-tabs", str(args.bad_tabs), "--bad-sockets", str(args.bad_sockets), "--flood-rate", str(args.flood_rate),
        stdout=asyncio.subprocess.PIPE, preexec_fn=lambda: os.nice(19))  # its machine is elsewhere: last on ours
    assert child.stdout is not None
    opened = json.loads(await child.stdout.readline() or "{}")
    seen.opened = time.perf_counter()
    seen.kernels, seen.sockets = opened.get("kernels", []), opened.get("sockets", 0)
    seen.tabs, seen.refused = len(seen.kernels), opened.get("refused", [])
    kernels = await asyncio.to_thread(kernel_processes, server, seen.kernels)
    used, since = await asyncio.to_thread(processor_of, kernels), time.perf_counter()
    ended = json.loads(await child.stdout.readline() or "{}")
    seen.processor = await asyncio.to_thread(processor_of, kernels) - used
    seen.seconds = time.perf_counter() - since
    seen.sent = ended.get("sent", 0)
    seen.refused += ended.get("refused", [])
    await child.wait()


def memory(server: Server) -> dict[str, float]:
    """Kernels alive and memory in MiB: kernels' PSS and RSS, the server's RSS."""
    kernels = server.kernels()
    pss = rss = 0.0
    for kernel in kernels:
        try:
            info = kernel.memory_full_info()
            pss, rss = pss + info.pss, rss + info.rss
        except psutil.Error:
            continue
    own = psutil.Process(server.process.pid).memory_info().rss
    return {"kernels": len(kernels), "kernel_pss": pss / 2**20, "kernel_rss": rss / 2**20, "server_rss": own / 2**20}


def processor(server: Server) -> tuple[float, float]:
    """Processor seconds used so far by the live kernels together, and by the server."""
    used = 0.0
    for kernel in server.kernels():
        try:
            times = kernel.cpu_times()
            used += times.user + times.system
        except psutil.Error:
            continue
    own = psutil.Process(server.process.pid).cpu_times()
    return used, own.user + own.system


async def measure_play(server: Server, tally: Tally, start: Start) -> None:
    """The processor the kernels and the server spent during play (everyone joined, until the end)."""
    await start.go.wait()
    kernels, own = await asyncio.to_thread(processor, server)
    clicks = sum(len(v) for v in tally.clicks.values())
    await asyncio.sleep(max(0.0, start.stop - time.perf_counter()))
    kernels_after, own_after = await asyncio.to_thread(processor, server)
    tally.peak["play_clicks"] = sum(len(v) for v in tally.clicks.values()) - clicks
    tally.peak["play_kernel_cpu"] = kernels_after - kernels
    tally.peak["play_server_cpu"] = own_after - own


async def watch(server: Server, tally: Tally, start: Start) -> None:
    """Every 20 seconds (reading 100 kernels' memory costs a little), keep the peak of each memory figure
    and the kernel count, and say how far the run has got (until cancelled)."""
    began = time.perf_counter()
    said = began
    while True:
        if time.perf_counter() - said >= 20:
            said = time.perf_counter()
            print(f"  ... {said - began:.0f} s: {start.arrived} of {start.expected} joined, "
                  f"{sum(len(v) for v in tally.clicks.values())} clicks, {len(tally.errors)} errors", flush=True)
        for name, value in (await asyncio.to_thread(memory, server)).items():
            tally.peak[name] = max(value, tally.peak.get(name, 0.0))
        await asyncio.sleep(20)


async def run(args: argparse.Namespace, server: Server, seen: Misbehaviour) -> tuple[Tally, Tally | None]:
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=args.students + 16))
    query = f"?level={args.level}" if args.level != "beginner" else ""
    url = server.url + query
    alone = None
    if args.alone_moves:
        alone = Tally()
        await student(-1, url, alone, Start(1, 60), args.pace, moves=args.alone_moves)
    tally = Tally()
    join_window = args.ramp
    start = Start(args.students + args.browsers, 2 * args.minutes if args.misbehave else args.minutes)
    watcher = asyncio.create_task(watch(server, tally, start))
    tasks = [asyncio.create_task(measure_play(server, tally, start))]
    if args.misbehave:
        tasks.append(asyncio.create_task(misbehaver(server, args, start, seen)))
    browsers = []
    playwright = None
    if args.browsers:
        from playwright.async_api import async_playwright

        playwright = await async_playwright().start()
        browsers.append(await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS))
    first = time.perf_counter()
    for number in range(args.students + args.browsers):
        await asyncio.sleep(join_window / max(1, args.students + args.browsers))
        if number < args.browsers:
            tasks.append(asyncio.create_task(browser_student(browsers[0], number, url, tally, start, args.pace)))
        else:
            tasks.append(asyncio.create_task(student(number, url, tally, start, args.pace,
                                                     every_tab=args.every_tab, play_on_join=args.play_on_join)))
    await asyncio.gather(*tasks)
    watcher.cancel()
    tally.peak["joined_after"] = start.joined_at - first
    tally.peak["joined_at"] = start.joined_at
    for browser in browsers:
        await browser.close()
    if playwright is not None:
        await playwright.stop()
    return tally, alone


def report_misbehaviour(args: argparse.Namespace, tally: Tally, seen: Misbehaviour) -> None:
    """The class's clicks and errors before and after the misbehaving visitor began, and what it took."""
    print(f"one misbehaving visitor beside the class from {args.minutes:g} min on: {seen.tabs} of {args.bad_tabs} "
          f"pages against the expert, {seen.sockets} of {args.bad_sockets} more websockets, {seen.sent} messages "
          f"sent (a click flood on one board, New match on the others, {args.flood_rate:g} a second each)")
    for line in seen.refused[:5]:
        print(f"  refused: {line}")
    if seen.seconds:
        print(f"  its {len(seen.kernels)} kernels used {seen.processor:.0f} s of processor in {seen.seconds:.0f} s "
              f"({seen.processor / seen.seconds:.2f} processors)")
    halves = {"alone": [s for when, s in tally.stamps if not seen.began or when < seen.began],
              "beside it": [s for when, s in tally.stamps if seen.began and when >= seen.began]}
    errors = {"alone": sum(1 for when in tally.error_stamps if not seen.began or when < seen.began)}
    errors["beside it"] = len(tally.error_stamps) - errors["alone"]
    for name, values in halves.items():
        print(f"  the class's clicks {name:9s}: {quantiles(values)}; errors {errors[name]}")
    if seen.opened:
        opening = [s for when, s in tally.stamps if seen.began <= when < seen.opened]
        flooding = [s for when, s in tally.stamps if when >= seen.opened]
        made = seen.opened - seen.began
        print(f"    while its {seen.tabs} pages were being made ({made:.0f} s): {quantiles(opening)}")
        print(f"    while it flooded ({tally.stamps[-1][0] - seen.opened:.0f} s): {quantiles(flooding)}")
    if halves["alone"] and halves["beside it"]:
        p95 = [sorted(v)[min(len(v) - 1, round(0.95 * (len(v) - 1)))] for v in halves.values()]
        print(f"  p95 beside it / alone: {p95[1] / p95[0]:.2f} (goal: at most 1.5, and 0 errors beside it)")


def report(args: argparse.Namespace, tally: Tally, alone: Tally | None, seconds: float,
           cpu: float) -> None:
    sessions = args.students + args.browsers
    played = 2 * args.minutes if args.misbehave else args.minutes  # with --misbehave, a second half beside it
    print(f"{args.students} simulated students + {args.browsers} Chromium pages, level {args.level}: they open "
          f"the link over {args.ramp:g} s, then all play {played:g} min, a click every ~{args.pace:g} s each")
    print(f"join (GET, waiting in line, websocket, widget states, a first click answered; pages: until the hand is "
          f"drawn): {quantiles(tally.joins)}; the whole class in {tally.peak.get('joined_after', 0):.0f} s")
    if args.play_on_join:
        joining = [seconds for when, seconds in tally.stamps if when < tally.peak.get("joined_at", 0.0)]
        print(f"clicks of students already playing while the others joined: {quantiles(joining)}")
    print("clicks once everyone has joined, until the board's new state arrives:")
    for kind in sorted(tally.clicks):
        print(f"  {kind:18s} {quantiles(tally.clicks[kind])}")
    if tally.peak.get("play_clicks"):
        clicks = tally.peak["play_clicks"]
        kernels, own = tally.peak["play_kernel_cpu"], tally.peak["play_server_cpu"]
        print(f"processor during play: kernels {kernels:.0f} s, server {own:.0f} s over {60 * played:.0f} s "
              f"for {clicks:.0f} clicks: {1000 * kernels / clicks:.1f} + {1000 * own / clicks:.1f} ms a click")
    print(f"errors: {len(tally.errors)}")
    for line in tally.errors[:10]:
        print(f"  {line}")
    peak = tally.peak
    if "kernels" in peak:
        live = max(1.0, peak["kernels"])
        print(f"live kernels at peak: {peak['kernels']:.0f} (the sessions and the preheated ones)")
        print(f"memory at peak: kernels PSS {peak['kernel_pss'] / 1024:.2f} GiB "
              f"(RSS {peak['kernel_rss'] / 1024:.2f} GiB), server RSS {peak['server_rss']:.0f} MiB; "
              f"per kernel {peak['kernel_pss'] / live:.1f} MiB PSS ({peak['kernel_rss'] / live:.1f} MiB RSS)")
    if alone is not None and alone.deals:
        print(f"expert alone: deals per searched move median {statistics.median(alone.deals):.0f} "
              f"(n={len(alone.deals)}, told 'faster than usual' {alone.hurried})")
    if tally.deals:
        ordered = sorted(tally.deals)
        print(f"expert with {sessions} sessions: deals per searched move median {statistics.median(ordered):.0f}, "
              f"p10 {ordered[len(ordered) // 10]} (n={len(ordered)}); told 'faster than usual' on "
              f"{tally.hurried} of {tally.searched_moves} moves")
        if alone is not None and alone.deals:
            kept = statistics.median(ordered) / statistics.median(alone.deals)
            print(f"  kept {kept:.0%} of the deals searched alone (median to median)")
    load = os.getloadavg()
    print(f"wall {seconds:.0f} s; this client used {cpu:.0f} s of processor; load average now "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} processors")


def default_pool(server: Server) -> int:
    """The kernels the server said at start it keeps preheated for a class (0: its one preheated kernel)."""
    said = re.search(r"^Preheated kernels: (\d+) kept ready", server.log.read_text(errors="replace"), re.MULTILINE)
    return int(said.group(1)) if said else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30, help="simulated students (protocol-level clients)")
    parser.add_argument("--browsers", type=int, default=3, help="real Chromium pages among them")
    parser.add_argument("--level", default="beginner", help="the computer opponent (a teacher link's ?level=)")
    parser.add_argument("--minutes", type=float, default=3, help="minutes of play once everyone has joined")
    parser.add_argument("--ramp", type=float, default=30, help="seconds over which the class opens the link")
    parser.add_argument("--pace", type=float, default=3, help="seconds a student thinks between clicks (about)")
    parser.add_argument("--every-tab", action="store_true",
                        help="each simulated student opens every tab once after joining (memory of a full session)")
    parser.add_argument("--alone-moves", type=int, default=0,
                        help="first, one student alone for this many moves (the expert's deals alone)")
    parser.add_argument("--misbehave", action="store_true",
                        help="after --minutes alone, the class plays --minutes more beside one misbehaving visitor")
    parser.add_argument("--bad-tabs", type=int, default=6, help="the misbehaving visitor's pages (one cookie)")
    parser.add_argument("--bad-sockets", type=int, default=20, help="its websockets to its first kernel, besides")
    parser.add_argument("--flood-rate", type=float, default=50, help="messages a second from each of its pages")
    parser.add_argument("--misbehave-at", help=argparse.SUPPRESS)  # the misbehaving visitor's own process
    parser.add_argument("--misbehave-for", type=float, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--class-size", type=int, default=None,
                        help="the server's --class-size (kernels kept preheated; 0: one); the run waits until they are "
                             "ready (default: the server's own default)")
    parser.add_argument("--server-ip", default=None, metavar="IP",
                        help="the server's --ip (0.0.0.0: a class server with its default warm pool, which the run "
                             "waits for; the clients still come from 127.0.0.1)")
    parser.add_argument("--play-on-join", action="store_true",
                        help="each student plays as soon as they have joined, not once the whole class has")
    parser.add_argument("--smoke", action="store_true", help=f"the smallest real run: {' '.join(SMOKE)}")
    args = parser.parse_args()
    if args.smoke:
        args = parser.parse_args([*sys.argv[1:], *SMOKE])
    if args.misbehave_at:
        asyncio.run(misbehave(args))
        return
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} processors)")
    sessions = args.students + args.browsers + 10 + (args.bad_tabs if args.misbehave else 0)
    pool = ["--class-size", str(args.class_size)] if args.class_size is not None else []
    listening = ["--ip", args.server_ip] if args.server_ip else []
    server = Server("--max-sessions", str(sessions), *pool, *listening)
    started, cpu = time.perf_counter(), time.process_time()
    try:
        size = default_pool(server) if args.class_size is None else args.class_size
        if size:
            server.wait_for_pool(size - 1, timeout=600)
            print(f"{'the default pool' if args.class_size is None else '--class-size'} {size}: {server.pool_fills()} "
                  f"kernels preheated, ready {time.perf_counter() - started:.0f} s after the server answered")
            started = time.perf_counter()
        idle = memory(server)
        print(f"idle server: {idle['kernels']:.0f} kernels (preheated), their PSS {idle['kernel_pss']:.1f} MiB, "
              f"server RSS {idle['server_rss']:.0f} MiB")
        seen = Misbehaviour()
        tally, alone = asyncio.run(run(args, server, seen))
    finally:
        server.stop()
    report(args, tally, alone, time.perf_counter() - started, time.process_time() - cpu)
    if args.misbehave:
        report_misbehaviour(args, tally, seen)
    if args.smoke and tally.errors:
        sys.exit(f"--smoke: {len(tally.errors)} errors")


if __name__ == "__main__":
    main()
