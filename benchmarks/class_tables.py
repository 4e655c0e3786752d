"""Classmates at class tables: how soon the other player's move appears on a board, with many tables at once.

Starts a `leopard-tutor` server of its own (its class tables in a temporary data folder), then `--tables` pairs of
protocol-level players (tests/class_players.py over tests/kernel_client.py: the frames a page sends and receives,
no browser): in each pair one opens a table, the other joins it by its code, and they play at a human pace (a
pick, a think of about `--pace` seconds, a place or a discard; both deal the next hand when one ends). For every
move it times the mover's last click to the moment the other page has received the board showing that move
("other's move shown"). At the end each table's stored moves are compared with what both boards showed: a move
missing from a board or from the store is lost, one counted twice is duplicated.

    python benchmarks/class_tables.py                     # 30 tables (60 players) for 3 minutes
    python benchmarks/class_tables.py --tables 1          # one table
    python benchmarks/class_tables.py --smoke             # 1 table, about 6 moves

Prints the figures and exits 1 if a move was lost or duplicated or a player saw an error.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(Path(__file__).resolve().parent)]

from app_speed import Server  # noqa: E402
from class_players import (  # noqa: E402
    board_update,
    choose_classmate,
    enabled,
    join_table,
    latest_board,
    moves_made,
    open_table,
    turn_of,
)
from kernel_client import Visit, run  # noqa: E402

from leopard_tutor.server.class_store import DATABASE_NAME  # noqa: E402

JOIN_TIMEOUT = 600


@dataclass
class Tally:
    """What the players saw: the delays of the other's moves, errors, and each table's moves per board."""

    shown: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    boards: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Each table's moves (the next deals included) as each of its two boards showed them."""


def quantiles(values: list[float]) -> str:
    if not values:
        return "no moves"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"p50 {1000 * statistics.median(ordered):7.1f} ms  p95 {1000 * p95:7.1f} ms  "
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
        for visit in (host, guest):
            await board_update(visit, lambda t: turn_of(t, names[0]) or turn_of(t, names[1]), timeout=120)
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
                    await board_update(visit, lambda t: turn_of(t, names[0]) or turn_of(t, names[1]), timeout=60)
                made = 0
                continue
            mover, other = (host, guest) if turn_of(table, names[0]) else (guest, host)
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
        tally.boards[code] = (counted[0] + moves_made(latest_board(host)), counted[1] + moves_made(latest_board(guest)))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30, help="tables, two players each (default 30)")
    parser.add_argument("--minutes", type=float, default=3.0, help="how long they play once seated (default 3)")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds a player thinks, on average (default 2)")
    parser.add_argument("--arrive", type=float, default=2.0, help="seconds between two pairs arriving (default 2)")
    parser.add_argument("--smoke", action="store_true", help="1 table, about 6 moves")
    args = parser.parse_args()
    if args.smoke:
        args.tables, args.minutes, args.pace, args.arrive = 1, 2.0, 0.3, 0.0
    data = Path(tempfile.mkdtemp(prefix="class-tables-"))
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
