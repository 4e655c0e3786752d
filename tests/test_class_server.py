"""Classmates on a real class server, at the protocol level (two visitors: two cookie jars, two kernels): a whole
hand by clicks, each move stored once and shown to the other; no websocket frame a page receives names a card
its player may not see; forged and replayed intents change nothing; a reload, and a server restart on the same
data folder, find the seat and the match where they were."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from class_players import (
    board_update,
    choose_classmate,
    enabled,
    facing,
    in_play,
    join_table,
    latest_board,
    moves_made,
    my_turn,
    open_table,
    play_turn,
    seated_with,
)
from kernel_client import Visit, run
from rendered import pattern
from test_widgets_play_section import Discarder

from leopard_tutor.engine import RULE_SETS, Card, Match
from leopard_tutor.engine.moves import move_from_data
from leopard_tutor.server.class_store import DATABASE_NAME
from leopard_tutor.table import against_computer
from leopard_tutor.table.class_table import ClassTable

CARD_CODE = re.compile(r'"code": ?"((?:10|[2-9AJQK])[SHDC])"')
NAMES = ("Ana", "Ben")


@pytest.fixture(scope="module")
def class_server(tmp_path_factory: pytest.TempPathFactory, server_tools: Any) -> Iterator[tuple[Any, Path]]:
    start, stop = server_tools
    folder = tmp_path_factory.mktemp("class")
    server = start(folder / "server.log", "--data-dir", str(folder / "data"))
    try:
        yield server, folder / "data"
    finally:
        stop(server.process)


def stored(data: Path, code: str) -> tuple[str, list[tuple[int, dict[str, Any]]], tuple[str, str]]:
    """(seed, [(player, move)], (visitor 0, visitor 1)) of table `code` as the database keeps it."""
    with sqlite3.connect(data / DATABASE_NAME) as db:
        table_id, seed, visitor0, visitor1 = db.execute(
            "SELECT id, seed, visitor0, visitor1 FROM tables WHERE code = ? ORDER BY id DESC", (code,)).fetchone()
        moves = [(player, json.loads(move)) for player, move in
                 db.execute("SELECT player, move FROM moves WHERE table_id = ? ORDER BY number", (table_id,))]
    return seed, moves, (visitor0, visitor1)


def visible_cards(seed: str, moves: list[tuple[int, dict[str, Any]]], seat: int) -> set[str]:
    """Every card `seat` could see at some point of the match: its hand, the discards, the cards face up."""
    match = Match(RULE_SETS["REVISED_2008"], seed=seed)
    seen: set[str] = set()

    def look() -> None:
        view = match.current.view(seat)
        seen.update(str(card) for card in (*view.hand, *view.discards))
        for square in view.squares:
            for space in range(1, 10):
                top = square.top(space)
                if top is not None and isinstance(top[0], Card):
                    seen.add(str(top[0]))
    look()
    for _player, data in moves:
        match.current.apply(move_from_data(data))
        look()
    return seen


def codes_received(visit: Visit) -> set[str]:
    """Every card code in every frame the page received over its websocket."""
    return {code for message in visit.received for code in CARD_CODE.findall(json.dumps(message))}


async def seat_both(url: str) -> tuple[Visit, Visit, str]:
    ana, ben = Visit(url), Visit(url)
    await asyncio.gather(ana.open(), ben.open())
    await choose_classmate(ana, NAMES[0])
    code = await open_table(ana)
    await choose_classmate(ben, NAMES[1])
    for visit in (ana, ben):  # what came before was the page's own match against the computer
        visit.received.clear()
    await join_table(ben, code)
    # the class table on each board: Ben's page still shows its match against the computer ("your turn", maybe the
    # computer's first move in its log) until his kernel has drawn the table, which a busy machine may take a while
    started = [board_update(visit, lambda t, other=other: seated_with(t, other)) for visit, other in
               ((ana, NAMES[1]), (ben, NAMES[0]))]
    await asyncio.gather(*started)
    return ana, ben, code


async def play_moves(ana: Visit, ben: Visit, rng: random.Random, most: int) -> int:
    """Play up to `most` moves by clicks, alternating as the turn says; each move must reach the other board."""
    made = moves_made(ana.table())
    for _ in range(most):
        table = latest_board(ana)
        if not in_play(table, "Ben"):
            break  # the hand is over
        mover, other = (ana, ben) if my_turn(table) else (ben, ana)
        assert my_turn(mover.table()) and not mover.table().get("error")
        if enabled(mover.table(), "end_turn") and rng.random() < 0.5:
            await mover.click({"type": "action", "id": "end_turn"})
        else:
            await play_turn(mover, rng)
        try:  # a click's answer may be the one before it (the kernel's "done"): the board's frames say
            await board_update(mover, lambda t, n=made: moves_made(t) == n + 1, timeout=15)  # (a busy CI took 5 s)
        except asyncio.TimeoutError:
            continue  # the card chosen could go nowhere: the page said why, and nothing changed
        made += 1
        shown = await board_update(other, lambda t, n=made: moves_made(t) == n, timeout=30)
        assert moves_made(shown) == made
    return made


def test_a_seat_is_waited_for_on_the_class_table_not_on_the_board_shown_before_it() -> None:
    """Until his kernel has drawn the class table, a joining page's board still shows its own match against the
    computer, whose turn line also says "your turn" (and whose move log may hold the computer's first move): taken for
    the table, it once had Ben click before his board had Ana's first move, and his board answered, truly, that it
    was Ana's turn. `seated_with` is met by the class table only."""
    before = against_computer(Discarder(), seed=1).board_state().as_dict()
    table = ClassTable(1, NAMES, lambda _number, _move: None, seed=1).board_state().as_dict()
    assert in_play(before, *NAMES) and not seated_with(before, NAMES[0])
    assert seated_with(table, NAMES[0]) and not seated_with(table, NAMES[1])


def test_two_classmates_play_a_whole_hand_and_no_frame_names_a_hidden_card(class_server: Any) -> None:
    server, data = class_server

    async def scenario() -> None:
        ana, ben, code = await seat_both(server.url)
        try:
            made = await play_moves(ana, ben, random.Random(7), 400)
            over = pattern("play.turn.over", number=r"\d+", hands=r"\d+", rules=".+")
            assert over.fullmatch(ana.table()["turn"]) and over.fullmatch(ben.table()["turn"])
            seed, moves, _visitors = stored(data, code)
            assert len(moves) == made > 10, "every move stored once, none lost or twice"
            seats = {}
            for visit, name in ((ana, "Ana"), (ben, "Ben")):
                seats[name] = 0 if name == "Ana" else 1
                hidden = codes_received(visit) - visible_cards(seed, moves, seats[name])
                assert not hidden, f"{name}'s page received cards it may not see: {sorted(hidden)}"
            # ends a test hand: the table is left so the next test's visitors may open their own
        finally:
            await asyncio.gather(ana.close(), ben.close())

    run(scenario())


def test_forged_and_replayed_intents_change_nothing(class_server: Any) -> None:
    server, data = class_server

    async def scenario() -> None:
        ana, ben, code = await seat_both(server.url)
        try:
            mover, waiter = (ana, ben) if my_turn(ana.table()) else (ben, ana)
            before = stored(data, code)[1]
            for forged in ({"type": "select", "index": 0}, {"type": "space", "square": 0, "space": 5},
                           {"type": "space", "square": 1, "space": 5}, {"type": "discard"},
                           {"type": "action", "id": "go_out"}, {"type": "action", "id": "new_match"},
                           {"type": "action", "id": "show_hand"}, {"type": "teleport"}):
                await waiter.click(forged)
                await board_update(waiter, lambda t: t["tone"] == "warn", timeout=10)
            assert stored(data, code)[1] == before
            # a place click sent twice: the second finds no card picked
            await mover.click({"type": "select", "index": 0})
            table = mover.table()
            target = next(((s["key"], c["space"]) for s in table["squares"] for c in s["cells"] if c["target"]), None)
            if target is not None:
                place = {"type": "space", "square": target[0], "space": target[1]}
                await mover.click(place)
                await board_update(mover, lambda t: moves_made(t) == 1, timeout=10)
                count = len(stored(data, code)[1])
                await mover.click(place)
                again = await board_update(mover, lambda t: t["tone"] == "warn", timeout=10)
                assert len(stored(data, code)[1]) == count == 1 and moves_made(again) == 1
            # the tables' handlers answer a visitor's kernel only: no proof, or a made-up one, is refused
            for headers, (action, body) in itertools.product(
                    ({}, {"X-Leopard-Kernel": mover.kernel_id, "X-Leopard-Kernel-Proof": "0" * 64}),
                    (("move", {"code": code, "number": 0, "move": {"go out": True}}), ("take", {"code": code}))):
                request = urllib.request.Request(f"{server.url}leopard/class/{action}", method="POST", headers=headers,
                                                 data=json.dumps(body).encode())
                with pytest.raises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(request, timeout=10)
                assert refused.value.code == 403
            assert len(stored(data, code)[1]) <= 1
        finally:
            await asyncio.gather(ana.close(), ben.close())

    run(scenario())


def test_a_reload_and_a_server_restart_find_the_seat_and_the_match(
        tmp_path: Path, server_tools: Any) -> None:
    start, stop = server_tools
    data = tmp_path / "data"
    server = start(tmp_path / "first.log", "--data-dir", str(data))

    async def first() -> tuple[dict[str, str], dict[str, str], str, int]:
        ana, ben, code = await seat_both(server.url)
        made = await play_moves(ana, ben, random.Random(3), 6)
        hand = ben.table()["hand"]
        await ben.close()  # a reload: the page goes, and comes again with the same cookies
        again = Visit(server.url, cookies=dict(ben.cookies))
        await again.open()
        table = await board_update(again, lambda t: facing(t, "Ana") and moves_made(t) == made)
        assert table["hand"] == hand and in_play(table, "Ana")
        await asyncio.gather(ana.close(), again.close())
        return ana.cookies, ben.cookies, code, made

    try:
        ana_cookies, ben_cookies, code, made = run(first())
    finally:
        stop(server.process)
    port = int(server.url.rsplit(":", 1)[1].strip("/"))  # a browser's identity cookie is named by the port
    server = start(tmp_path / "second.log", "--data-dir", str(data), port=port)

    async def second() -> None:
        ana, ben = Visit(server.url, cookies=dict(ana_cookies)), Visit(server.url, cookies=dict(ben_cookies))
        await asyncio.gather(ana.open(), ben.open())
        for visit, other in ((ana, "Ben"), (ben, "Ana")):
            await board_update(visit, lambda t, other=other: facing(t, other) and moves_made(t) == made)
        more = await play_moves(ana, ben, random.Random(4), 4)
        assert more > made and len(stored(data, code)[1]) == more
        await asyncio.gather(ana.close(), ben.close())

    try:
        run(second())
    finally:
        stop(server.process)


def test_a_player_whose_kernel_dies_gets_the_seat_back_on_reload(class_server: Any) -> None:
    server, _data = class_server

    async def scenario() -> None:
        ana, ben, _code = await seat_both(server.url)
        made = await play_moves(ana, ben, random.Random(5), 4)
        assert made > 0
        hand = ben.table()["hand"]
        kernel = next(process for process in psutil.Process(server.process.pid).children(recursive=True)
                      if ben.kernel_id in " ".join(process.cmdline()))
        kernel.kill()  # the kernel dies (out of memory, a crash): the page would say the connection was lost
        kernel.wait(10)
        await ben.close()
        again = Visit(server.url, cookies=dict(ben.cookies))
        await again.open()
        assert again.kernel_id != ben.kernel_id, "a new kernel"
        table = await board_update(again, lambda t: facing(t, "Ana") and moves_made(t) == made)
        assert table["hand"] == hand
        more = await play_moves(ana, again, random.Random(6), 2)
        assert more > made, "the match goes on from where it was"
        await asyncio.gather(ana.close(), again.close())

    run(scenario())
