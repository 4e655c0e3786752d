"""Class tables without a server: the store (SQLite, WAL, versioned schema), the authority over every move
(only the seat to move, numbered as the next move, legal), bounds, a restart rebuilding the matches, and a
player gone for two minutes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from leopard_tutor.class_codes import CODE_LETTERS, ClassTableError, valid_code
from leopard_tutor.engine import Discard
from leopard_tutor.engine.cards import full_deck
from leopard_tutor.engine.moves import NEXT_HAND, move_to_data
from leopard_tutor.server.class_store import DATABASE_NAME, SCHEMA_VERSION, ClassStore
from leopard_tutor.server.class_tables import GONE_SECONDS, UNJOINED_SECONDS, ClassTables


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def tables_in(folder: Path, clock: Clock, limit: int = 10) -> ClassTables:
    return ClassTables(ClassStore.in_folder(folder), limit=limit, clock=clock)


def refused(key: str) -> pytest.RaisesContext[ClassTableError]:
    return pytest.raises(ClassTableError, match=f"^{key}$")


def play_some(tables: ClassTables, code: str, count: int) -> None:
    """Make `count` moves at table `code`, each the first legal move of the player to move."""
    live = tables.tables[code]
    for _ in range(count):
        hand = live.match.current
        if hand.is_over:
            return
        visitor = live.row.visitors[hand.to_move]
        assert visitor is not None
        tables.move(visitor, code, len(live.moves), move_to_data(hand.view(hand.to_move).legal_moves()[0]))


def test_the_store_is_wal_versioned_and_migrated_once(tmp_path: Path) -> None:
    store = ClassStore.in_folder(tmp_path / "new" / "folder")
    assert (tmp_path / "new" / "folder" / DATABASE_NAME).is_file()
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.version == SCHEMA_VERSION == 2
    store.close()
    again = ClassStore.in_folder(tmp_path / "new" / "folder")
    assert again.version == SCHEMA_VERSION
    again.db.execute("UPDATE schema_version SET version = 99")
    again.close()
    with pytest.raises(RuntimeError, match="schema version 99"):
        ClassStore.in_folder(tmp_path / "new" / "folder")


def test_open_and_join_a_table_by_its_code(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana-browser", "  Ana ")
    assert len(code) == 4 and all(letter in CODE_LETTERS for letter in code)
    assert not set("ILOUV0123456789") & set(CODE_LETTERS)
    assert tables.waiting() == [(code, "Ana")]
    assert tables.report("ana-browser")["seat"] == 0
    assert tables.join("ben-browser", "Ben", code.lower()) == 1
    assert tables.waiting() == []
    report = tables.report("ben-browser")
    assert report["table"] == code and report["seat"] == 1 and report["names"] == ["Ana", "Ben"]
    assert report["moves"] == [] and not report["other_gone"]


def test_names_codes_and_bounds_are_checked_and_a_refusal_changes_nothing(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock, limit=2)
    for bad in ("", "   ", "x" * 25, "bell\x07", 7, None):
        with pytest.raises(ClassTableError):
            tables.open("v", bad)
    assert tables.tables == {}
    for bad in ("KRT", "KRTQQ", "KRT1", "KRTO", "ÄRTQ", 1234, None):
        with refused("bad_code"):
            valid_code(bad)
    code = tables.open("ana", "Ana")
    with refused("one_table"):
        tables.open("ana", "Ana again")
    with refused("own_table"):
        tables.join("ana", "Ana", code)
    with refused("no_table"):
        tables.join("ben", "Ben", "ZZZZ" if code != "ZZZZ" else "YYYY")
    tables.open("cat", "Cat")
    with refused("full"):
        tables.open("dan", "Dan")
    tables.join("ben", "Ben", code)
    with refused("table_full"):
        tables.join("eve", "Eve", code)
    assert len(tables.tables) == 2


def test_only_the_seat_to_move_moves_once_and_legally(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana")
    live = tables.tables[code]
    hand = live.match.current
    first = move_to_data(hand.view(hand.to_move).legal_moves()[0])
    with refused("no_opponent"):
        tables.move("ana", code, 0, first)
    tables.join("ben", "Ben", code)
    mover = live.row.visitors[hand.to_move]
    other = live.row.visitors[1 - hand.to_move]
    assert mover is not None and other is not None
    with refused("not_your_turn"):
        tables.move(other, code, 0, first)
    with refused("not_seated"):
        tables.move("stranger", code, 0, first)
    with refused("stale"):
        tables.move(mover, code, 3, first)
    illegal = next(move for move in map(Discard, full_deck()) if not hand.check(move).legal)
    with refused("illegal"):
        tables.move(mover, code, 0, move_to_data(illegal))
    forgeries = ({"play": "AS", "square": 0, "space": 99}, {"discard": "ZZ"}, {"teleport": True}, "go out", None,
                 dict(NEXT_HAND))
    for forged in forgeries:
        with pytest.raises(ClassTableError):
            tables.move(mover, code, 0, forged)
    assert live.moves == [] and tables.store.moves(code) == []
    assert tables.move(mover, code, 0, first) == 1
    with refused("stale"):
        tables.move(mover, code, 0, first)  # the same move again: a replay
    assert len(tables.store.moves(code)) == 1


def test_a_restart_rebuilds_every_table_from_its_stored_moves(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    play_some(tables, code, 12)
    before = tables.tables[code].match.current
    tables.store.close()
    again = tables_in(tmp_path, clock)
    after = again.tables[code].match.current
    assert after.moves == before.moves and after.hands == before.hands and after.to_move == before.to_move
    assert again.report("ben")["moves"] == tables.report("ben")["moves"]


def test_a_whole_match_reaches_its_end_with_each_next_deal_stored(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana", "RUNNING_LEOPARD")
    tables.join("ben", "Ben", code)
    live = tables.tables[code]
    while not live.match.is_over:
        play_some(tables, code, 500)
        if not live.match.is_over:
            with refused("stale"):
                tables.move("ben", code, len(live.moves) - 1, dict(NEXT_HAND))
            tables.move("ben", code, len(live.moves), dict(NEXT_HAND))
    assert [row.move for row in tables.store.moves(code)] == live.moves


def test_an_unjoined_table_closes_after_thirty_minutes(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana")
    clock.now += UNJOINED_SECONDS - 1
    assert tables.waiting() == [(code, "Ana")]
    clock.now += 1
    assert tables.waiting() == []
    assert tables.report("ana") == {"table": None}
    row = tables.store.table(code)
    assert row is not None and row.ending == "nobody joined"
    tables.open("ana", "Ana")  # a new one may be opened


def test_a_player_gone_two_minutes_may_be_replaced_by_the_computer(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    with refused("not_gone"):
        tables.end("ana", code, "computer:expert")
    clock.now += GONE_SECONDS - 5
    tables.report("ana")
    tables.report("ben", present=False)  # Ben's kernel asks, but his page has gone
    clock.now += 5
    assert tables.report("ana")["other_gone"]
    with pytest.raises(ClassTableError):
        tables.end("ana", code, "something else")
    tables.end("ana", code, "computer:expert")
    row = tables.store.table(code)
    assert row is not None and row.ending == "computer:expert" and row.ended is not None
    assert tables.report("ben") == {"table": None}


def test_a_move_number_taken_in_the_file_is_refused(tmp_path: Path) -> None:
    store = ClassStore.in_folder(tmp_path)
    clock = Clock()
    tables = ClassTables(store, clock=clock)
    code = tables.open("ana", "Ana")
    store.add_move(code, 0, 0, {"go out": True}, clock())
    with pytest.raises(sqlite3.IntegrityError):
        store.add_move(code, 0, 0, {"go out": True}, clock())
