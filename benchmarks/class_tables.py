"""Classmates at class tables: how soon the other player's move appears on a board, with many tables at once.

Starts a `leopard-tutor` server of its own (its class tables in a temporary data folder), then `--tables` pairs of
protocol-level players (tests/class_players.py over tests/kernel_client.py: the frames a page sends and receives,
no browser): in each pair one opens a table, the other joins it by its code, and they play at a human pace (a
pick, a think of about `--pace` seconds, a place or a discard; both deal the next hand when one ends). For every
move it times the mover's last click to the moment the other page has received the board showing that move
("other's move shown"). At the end each table's stored moves are compared with what both boards showed: a move
missing from a board or from the store is lost, one counted twice is duplicated.

With `--pair`, the teacher pairs the class instead (issue 34): the server (its own teacher token) gets `--students`
protocol-level students. They arrive `--group` at a time, each group once the one before has kept its names (so
that the server's waiting line and its preheated kernels are not what is measured): each opens the app and keeps a
name in the student bar (its box and Keep). Once the class page (GET teacher/api/class) lists every name, the
teacher POSTs teacher/api/pair {"rules": "REVISED_2008", "hands": 1}; for every student it times from the moment
the request is sent until that student's page has received the board naming the round ("Round 1: you play Ben.",
or the computer for the one left over), and checks the name is the classmate the class page seats them with. With
`--rounds N`, one player of each table then presses Leave (the table ends for both), and once the class page lists
no open table the teacher pairs again. While the last round's tables are open and nobody moves, it times
`--refreshes` refreshes of the class page watching every table at once: GET teacher/api/class, then GET
teacher/api/watch?table=CODE for each table, one after another over one kept-alive connection, as the page fetches
them (the time a client sees over loopback).

    python benchmarks/class_tables.py                     # 30 tables (60 players) for 3 minutes
    python benchmarks/class_tables.py --tables 1          # one table
    python benchmarks/class_tables.py --smoke             # 1 table, about 6 moves
    python benchmarks/class_tables.py --pair              # 30 students, one round; the class page's refresh
    python benchmarks/class_tables.py --pair --rounds 3   # three rounds, figures for each
    python benchmarks/class_tables.py --pair --smoke      # 5 students (one plays the computer), two rounds

Prints the figures and exits 1 if a move was lost or duplicated or a player saw an error; with `--pair`, whether
the goals were met (every board names its round within 5 s at p95; a refresh within 100 ms at p95), and exits 1 if
a page never named its round, named the wrong one, or saw an error.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import re
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(Path(__file__).resolve().parent)]

from app_speed import Server  # noqa: E402
from class_players import (  # noqa: E402
    board_update,
    button,
    choose_classmate,
    enabled,
    in_play,
    is_board_update,
    join_table,
    keep_name,
    latest_board,
    moves_made,
    my_turn,
    open_table,
    press,
    seated_with,
)
from kernel_client import Visit, run  # noqa: E402
from rendered import pattern  # noqa: E402

from leopard_tutor.engine.catalogue import text  # noqa: E402
from leopard_tutor.server.class_store import DATABASE_NAME  # noqa: E402

JOIN_TIMEOUT = 600
ROUND_TIMEOUT = 120
"""Seconds a page may take to name its round before it counts as never seated."""
ROUND_GOAL, REFRESH_GOAL = 5.0, 0.1
"""The goals (seconds, at p95): every board names its round; one refresh of the class page watching every table."""
REFRESH_SECONDS = 2.0
"""How often the class page refreshes (teacher.js REFRESH_MS)."""


@dataclass
class Tally:
    """What the players saw: the delays of the other's moves, errors, and each table's moves per board."""

    shown: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    boards: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Each table's moves (the next deals included) as each of its two boards showed them."""


def percentile_95(values: list[float]) -> float:
    """The 95th percentile of `values` (the nearest rank; infinite if there are none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else float("inf")


def quantiles(values: list[float]) -> str:
    if not values:
        return "no moves"
    ordered = sorted(values)
    return (f"p50 {1000 * statistics.median(ordered):7.1f} ms  p95 {1000 * percentile_95(ordered):7.1f} ms  "
            f"max {1000 * ordered[-1]:7.1f} ms  (n={len(ordered)})")


async def one_move(mover: Visit, rng: random.Random, pace: float) -> float:
    """One move by clicks at a human pace: go out (sometimes, when allowed), or pick a card, think, place or discard.
    When the click that makes the move was sent (`time.perf_counter`)."""
    table = latest_board(mover)
    if enabled(table, "go_out") and rng.random() < 0.1:
        sent = time.perf_counter()
        await mover.click({"type": "action", "id": "go_out"})
        return sent
    cards = table["hand"]["cards"]
    await mover.click({"type": "select", "index": rng.randrange(len(cards))})
    await asyncio.sleep(rng.uniform(0.5 * pace, 1.5 * pace))
    table = await board_update(mover, lambda t: "picked" in str(t.get("message", "")), timeout=60)
    targets = [(square["key"], cell["space"]) for square in table["squares"] for cell in square["cells"]
               if cell["target"]]
    sent = time.perf_counter()
    if targets and rng.random() < 0.85:
        square, space = rng.choice(targets)
        await mover.click({"type": "space", "square": square, "space": space})
    else:
        await mover.click({"type": "discard"})
    return sent


async def play(host: Visit, guest: Visit, names: tuple[str, str], rng: random.Random, tally: Tally, pace: float,
               until: float, most: int | None) -> tuple[int, int]:
    """Two classmates seated at a table play until `until` (or `most` moves, or the match's end); the moves (the
    next deals included) as each board showed them."""
    for visit, other in ((host, names[1]), (guest, names[0])):  # the class table, not the board shown before it
        await board_update(visit, lambda t, other=other: seated_with(t, other), timeout=120)
    made = total = 0
    counted = [0, 0]  # moves of the finished hands and their next deals, on each board
    while time.monotonic() < until and (most is None or total < most):
        table = latest_board(host)
        if "the hand is over" in str(table.get("turn")):
            if not enabled(table, "next_hand"):
                break  # the match is over
            for visit in (host, guest):  # each board's moves of the hand, then the next deal, one stored move
                shown = await board_update(visit, lambda t: "the hand is over" in str(t.get("turn")), timeout=60)
                counted[visit is guest] += moves_made(shown) + 1
                await visit.click({"type": "action", "id": "next_hand"})
            for visit in (host, guest):
                await board_update(visit, lambda t: in_play(t, *names), timeout=60)
            made = 0
            continue
        mover, other = (host, guest) if my_turn(table) else (guest, host)
        sent = await one_move(mover, rng, pace)
        try:
            await board_update(mover, lambda t, n=made: moves_made(t) == n + 1, timeout=30)
        except asyncio.TimeoutError:
            continue  # the card could go nowhere (the page said why): pick again
        await board_update(other, lambda t, n=made: moves_made(t) == n + 1, timeout=60)
        tally.shown.append(time.perf_counter() - sent)
        made += 1
        total += 1
        await asyncio.sleep(rng.uniform(0.5 * pace, 1.5 * pace))
    return counted[0] + moves_made(latest_board(host)), counted[1] + moves_made(latest_board(guest))


async def pair(number: int, url: str, tally: Tally, pace: float, until: float, most: int | None) -> None:
    """Two classmates: open and join a table, then play until `until` (or `most` moves)."""
    rng = random.Random(number)
    names = (f"Host {number}", f"Guest {number}")
    host, guest = Visit(url), Visit(url)
    try:
        await asyncio.wait_for(asyncio.gather(host.open(), guest.open()), JOIN_TIMEOUT)
        await choose_classmate(host, names[0])
        code = await open_table(host, timeout=120)
        await choose_classmate(guest, names[1])
        await join_table(guest, code)
        tally.boards[code] = await play(host, guest, names, rng, tally, pace, until, most)
    except Exception as error:  # counted and reported: the run goes on for the other tables
        tally.errors.append(f"table {number}: {type(error).__name__}: {error}")
    finally:
        await asyncio.gather(host.close(), guest.close())


def stored_moves(data: Path) -> dict[str, int]:
    with sqlite3.connect(data / DATABASE_NAME) as db:
        return dict(db.execute("SELECT tables.code, COUNT(*) FROM moves JOIN tables ON tables.id = moves.table_id "
                               "GROUP BY tables.id").fetchall())


async def class_run(args: argparse.Namespace, url: str) -> Tally:
    tally = Tally()
    until = time.monotonic() + 60 * args.minutes
    most = 6 if args.smoke else None
    players = []
    for number in range(args.tables):
        players.append(asyncio.create_task(pair(number, url, tally, args.pace, until + 3 * number, most)))
        await asyncio.sleep(args.arrive)
    await asyncio.gather(*players)
    return tally


@dataclass
class Teacher:
    """The class page's requests, with its token, over one kept-alive connection (as the page's fetches are)."""

    url: str
    token: str
    connection: http.client.HTTPConnection | None = None

    def ask(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any], float]:
        """GET (or POST `body` as JSON) teacher/api/`path`: the status, the JSON answer and the seconds it took."""
        if self.connection is None:
            host = self.url.split("//", 1)[1].rstrip("/")
            self.connection = http.client.HTTPConnection(host, timeout=60)
        joiner = "&" if "?" in path else "?"
        target = f"/teacher/api/{path}{joiner}token={self.token}"
        data = None if body is None else json.dumps(body).encode()
        started = time.perf_counter()
        self.connection.request("GET" if body is None else "POST", target, body=data,
                                headers={"Content-Type": "application/json"} if data else {})
        answer = self.connection.getresponse()
        found = json.loads(answer.read())
        return answer.status, found, time.perf_counter() - started

    def report(self) -> dict[str, Any]:
        return self.ask("class")[1]


@dataclass
class PairTally:
    """What the students' pages and the teacher saw over the rounds."""

    rounds: list[str] = field(default_factory=list)
    """Each round's figures, as printed."""
    refresh: list[float] = field(default_factory=list)
    class_alone: list[float] = field(default_factory=list)
    watch_alone: list[float] = field(default_factory=list)
    tables_watched: int = 0
    timeouts: int = 0
    errors: list[str] = field(default_factory=list)
    play: Tally = field(default_factory=Tally)
    """The last round's tables, played while the class page is refreshed."""


def page_errors(visit: Visit, name: str, tally: PairTally) -> None:
    """Count the errors `visit`'s page received (a kernel's error, a board saying one), then forget its frames."""
    for message in visit.received:
        table = is_board_update(visit, message)
        if message["header"].get("msg_type") == "error" or (table is not None and table.get("error")):
            tally.errors.append(f"{name}: {table.get('error') if table else message['content'].get('ename')}")
    latest_board(visit)  # the board's last state is kept before the frames are forgotten
    visit.received.clear()


async def arrive(url: str, names: list[str], group: int) -> list[Visit]:
    """The students' pages, opened `group` at a time, each with its name kept."""
    visits = []
    for start in range(0, len(names), group):
        arriving = [Visit(url) for _ in names[start:start + group]]
        visits += arriving
        await asyncio.wait_for(asyncio.gather(*(visit.open() for visit in arriving)), JOIN_TIMEOUT)
        for visit, name in zip(arriving, names[start:start + group], strict=True):
            await keep_name(visit, name)
    return visits


async def listed(teacher: Teacher, test: Callable[[dict[str, Any]], bool], timeout: float = 120) -> dict[str, Any]:
    """The class page's report once `test(report)` holds (asked every 0.3 s)."""
    deadline = time.monotonic() + timeout
    while True:
        report = await asyncio.to_thread(teacher.report)
        if test(report):
            return report
        if time.monotonic() > deadline:
            raise TimeoutError("the class page never showed what was awaited")
        await asyncio.sleep(0.3)


async def pair_round(teacher: Teacher, visits: dict[str, Visit], number: int, tally: PairTally) -> list[str]:
    """The teacher pairs round `number`; each page's time from the request until its board names the round, and
    whether the name is the classmate the class page seats them with (else the computer). The tables' codes."""
    level = text("levels.names.beginner")
    said = (pattern("classmates.round.classmate", number=str(number), name=".+?"),
            pattern("classmates.round.computer", number=str(number), level=re.escape(level)))
    shown: dict[str, tuple[float, str]] = {}

    def naming(name: str, visit: Visit) -> Callable[[dict[str, Any]], bool]:
        def test(message: dict[str, Any]) -> bool:
            table = is_board_update(visit, message)
            words = str((table or {}).get("message", ""))
            if any(found.search(words) for found in said):
                shown[name] = (time.perf_counter(), words)
                return True
            return False
        return test

    waits = {name: visit.expect(naming(name, visit)) for name, visit in visits.items()}
    sent = time.perf_counter()
    status, answer, took = await asyncio.to_thread(teacher.ask, "pair", {"rules": "REVISED_2008", "hands": 1})
    if status != 200:
        tally.errors.append(f"round {number}: the pair request answered {status}: {answer}")
    done = await asyncio.wait(waits.values(), timeout=ROUND_TIMEOUT)
    for future in done[1]:
        future.cancel()
    report = await asyncio.to_thread(teacher.report)
    seated = {name: pair for table in report["tables"] for pair in [table["names"]] for name in pair}
    for name, visit in visits.items():
        if name not in shown:
            tally.timeouts += 1
            tally.errors.append(f"{name}: no board named round {number} within {ROUND_TIMEOUT} s")
            continue
        other = next((n for n in seated.get(name, ()) if n != name), None)
        words = (text("classmates.round.classmate", number=number, name=other) if other is not None else
                 text("classmates.round.computer", number=number, level=level))
        if words not in shown[name][1]:
            tally.errors.append(f"{name}: the board said {shown[name][1]!r}, not {words!r}")
        page_errors(visit, name, tally)
    codes = [str(table["code"]) for table in report["tables"]]
    times = [moment - sent for moment, _ in shown.values()]
    tally.rounds.append(f"round {number}: {len(codes)} tables, {len(visits) - 2 * len(codes)} against the computer; "
                        f"pair request {1000 * took:.1f} ms; round named on each board: {quantiles(times)}; "
                        f"goal p95 <= {ROUND_GOAL:g} s: {'met' if percentile_95(times) <= ROUND_GOAL else 'NOT met'}")
    return codes


async def leave_tables(teacher: Teacher, visits: dict[str, Visit]) -> None:
    """The first player of each open table presses Leave and answers its question "Yes, leave" (the table ends for
    both); returns once the class page lists no open table."""
    report = await asyncio.to_thread(teacher.report)
    for table in report["tables"]:
        visit = visits[table["names"][0]]
        await visit.fetch_states()
        await press(visit, button(visit, text("classmates.leave")))
        await visit.fetch_states()
        await press(visit, button(visit, text("classmates.leave_question.start")))
    await listed(teacher, lambda found: not found["tables"])


async def play_table(visits: dict[str, Visit], code: str, names: tuple[str, str], pace: float, until: float,
                     tally: Tally) -> None:
    """The round's table `code` played by its two students (`play`) until `until`, its errors counted."""
    try:
        tally.boards[code] = await play(visits[names[0]], visits[names[1]], names, random.Random(code), tally, pace,
                                        until, None)
    except Exception as error:  # counted and reported: the run goes on for the other tables
        tally.errors.append(f"table {code}: {type(error).__name__}: {error}")


def refreshes(teacher: Teacher, codes: list[str], count: int, tally: PairTally) -> None:
    """`count` refreshes of the class page watching every table of `codes`, `REFRESH_SECONDS` apart: the report,
    then each table's watch."""
    tally.tables_watched = len(codes)
    for _ in range(count):
        time.sleep(REFRESH_SECONDS)
        _, _, took = teacher.ask("class")
        tally.class_alone.append(took)
        total = took
        for code in codes:
            status, view, took = teacher.ask(f"watch?table={code}")
            if status != 200 or "squares" not in view:
                tally.errors.append(f"watch {code}: {status} {str(view)[:200]}")
            tally.watch_alone.append(took)
            total += took
        tally.refresh.append(total)


async def pair_run(args: argparse.Namespace, url: str, token: str, tally: PairTally) -> float:
    """The class arrives, then the rounds and the refreshes; the seconds the arrival took."""
    names = [f"Student {number:02d}" for number in range(1, args.students + 1)]
    teacher = Teacher(url, token)
    started = time.monotonic()
    visits = await arrive(url, names, args.group)
    arrived = time.monotonic() - started
    try:
        await listed(teacher, lambda report: set(names) <= {row["cells"][0]["text"] for row in report["students"]})
        for visit, name in zip(visits, names, strict=True):
            page_errors(visit, name, tally)
        seated = dict(zip(names, visits, strict=True))
        codes: list[str] = []
        for number in range(1, args.rounds + 1):
            if number > 1:
                await leave_tables(teacher, seated)
            codes = await pair_round(teacher, seated, number, tally)
        report = await asyncio.to_thread(teacher.report)
        until = time.monotonic() + REFRESH_SECONDS * (args.refreshes + 1)
        players = [play_table(seated, table["code"], tuple(table["names"]), args.pace, until, tally.play)
                   for table in report["tables"]]
        await asyncio.gather(asyncio.to_thread(refreshes, teacher, codes, args.refreshes, tally), *players)
        for name, visit in seated.items():
            page_errors(visit, name, tally)
    finally:
        await asyncio.gather(*(visit.close() for visit in visits))
    return arrived


def pair_main(args: argparse.Namespace) -> None:
    """The `--pair` mode: its own server and teacher token, the run, the figures."""
    token = secrets.token_urlsafe(24)
    tally = PairTally()
    with tempfile.TemporaryDirectory(prefix="class-rounds-", ignore_cleanup_errors=True) as data:
        server = Server("--data-dir", data, f"--teacher-token={token}", "--page-gone-after", "600",
                        "--max-sessions", str(max(10, args.students + 4)))
        started = time.monotonic()
        try:
            arrived = run(pair_run(args, server.url, token, tally))
        finally:
            server.stop()
        stored = stored_moves(Path(data))
    played = tally.play
    lost = sum(abs(stored.get(code, 0) - shown) for code, boards in played.boards.items() for shown in boards)
    errors = tally.errors + played.errors
    print(f"{args.students} students, {args.group} arriving at a time (in {arrived:.0f} s), {os.cpu_count()} "
          f"processors, {time.monotonic() - started:.0f} s")
    for line in tally.rounds:
        print(line)
    print(f"class page refresh watching {tally.tables_watched} tables (GET class + {tally.tables_watched} GET watch, "
          f"in turn, every {REFRESH_SECONDS:g} s while the tables play at a pace of {args.pace:g} s): "
          f"{quantiles(tally.refresh)}; goal p95 <= {1000 * REFRESH_GOAL:g} ms: "
          f"{'met' if percentile_95(tally.refresh) <= REFRESH_GOAL else 'NOT met'}")
    print(f"  GET class: {quantiles(tally.class_alone)}")
    print(f"  GET watch: {quantiles(tally.watch_alone)}")
    print(f"  other's move shown meanwhile: {quantiles(played.shown)}; moves stored: {sum(stored.values())}, lost or "
          f"duplicated: {lost}")
    print(f"never named their round: {tally.timeouts}, errors: {len(errors)}")
    for error in errors[:10]:
        print(f"  {error}")
    sys.exit(1 if errors or lost else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30, help="tables, two players each (default 30)")
    parser.add_argument("--minutes", type=float, default=3.0, help="how long they play once seated (default 3)")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds a player thinks, on average (default 2)")
    parser.add_argument("--arrive", type=float, default=2.0, help="seconds between two pairs arriving (default 2)")
    parser.add_argument("--smoke", action="store_true", help="1 table, about 6 moves (with --pair: 5 students, "
                        "two rounds, 3 refreshes)")
    parser.add_argument("--pair", action="store_true", help="the teacher pairs the class instead (see above)")
    parser.add_argument("--students", type=int, default=30, help="with --pair: students (default 30)")
    parser.add_argument("--group", type=int, default=3, help="with --pair: students arriving at a time (default 3)")
    parser.add_argument("--rounds", type=int, default=1, help="with --pair: rounds paired (default 1)")
    parser.add_argument("--refreshes", type=int, default=20, help="with --pair: class page refreshes timed "
                        "(default 20)")
    args = parser.parse_args()
    if args.pair:
        if args.smoke:
            args.students, args.rounds, args.refreshes, args.pace = 5, 2, 3, 0.3
        pair_main(args)
        return
    if args.smoke:
        args.tables, args.minutes, args.pace, args.arrive = 1, 2.0, 0.3, 0.0
    with tempfile.TemporaryDirectory(prefix="class-tables-", ignore_cleanup_errors=True) as folder:
        data = Path(folder)
        server = Server("--data-dir", str(data), "--max-sessions", str(max(10, 2 * args.tables + 4)),
                        "--page-gone-after", "600")
        started = time.monotonic()
        try:
            tally = run(class_run(args, server.url))
        finally:
            server.stop()
        stored = stored_moves(data)
    lost = sum(abs(stored.get(code, 0) - shown) for code, boards in tally.boards.items() for shown in boards)
    print(f"{args.tables} tables ({2 * args.tables} players), pace {args.pace:g} s, {os.cpu_count()} processors, "
          f"{time.monotonic() - started:.0f} s")
    print(f"other's move shown: {quantiles(tally.shown)}")
    print(f"moves stored: {sum(stored.values())}, lost or duplicated: {lost}")
    print(f"errors: {len(tally.errors)}")
    for error in tally.errors[:10]:
        print(f"  {error}")
    sys.exit(1 if lost or tally.errors else 0)


if __name__ == "__main__":
    main()
