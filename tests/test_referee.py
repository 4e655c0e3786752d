"""Class tables without a server: the store (SQLite, WAL, versioned schema), the authority over every move
(only the seat to move, numbered as the next move, legal), bounds, a restart rebuilding the matches, a player
gone for two minutes, and a table's end: finished, left, abandoned, nobody joined or forgotten, each freeing both
players and kept as a record; codes given again after a quiet time, and a refusal when none is free."""

from __future__ import annotations

import itertools
import json
import logging
import secrets
import sqlite3
import time
from pathlib import Path

import pytest

from leopard_tutor.class_codes import CODE_COUNT, CODE_LENGTH, CODE_LETTERS, ClassTableError, code_of, valid_code
from leopard_tutor.engine import RULE_SETS, Discard, Match
from leopard_tutor.engine.cards import full_deck
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.moves import NEXT_HAND, move_to_data
from leopard_tutor.protocol import EVERYONE_GONE_SECONDS
from leopard_tutor.server import referee
from leopard_tutor.server.class_store import DATABASE_NAME, MIGRATIONS, SCHEMA_VERSION, TABLE_IDS, ClassStore
from leopard_tutor.server.referee import (
    CODE_DRAWS,
    GONE_SECONDS,
    QUIET_SECONDS,
    UNJOINED_SECONDS,
    LiveTable,
    Referee,
)
from leopard_tutor.server.standings import local_midnight


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def tables_in(folder: Path, clock: Clock, limit: int = 10) -> Referee:
    return Referee(ClassStore.in_folder(folder), limit=limit, clock=clock)


def refused(key: str) -> pytest.RaisesContext[ClassTableError]:
    return pytest.raises(ClassTableError, match=f"^{key}$")


def play_some(tables: Referee, code: str, count: int) -> None:
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
    assert store.version == SCHEMA_VERSION == len(MIGRATIONS)
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
    assert live.moves == [] and tables.store.moves(live.row.id) == []
    assert tables.move(mover, code, 0, first) == 1
    with refused("stale"):
        tables.move(mover, code, 0, first)  # the same move again: a replay
    assert len(tables.store.moves(live.row.id)) == 1


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
    assert after.moves == before.moves and after.held == before.held and after.to_move == before.to_move
    assert again.report("ben")["moves"] == tables.report("ben")["moves"]


@pytest.mark.parametrize("damage", [
    ("UPDATE moves SET move = ? WHERE number = 0", '{"play": "ZZ", "square": 99}'),  # no move the engine takes
    ("UPDATE moves SET move = ? WHERE number = 1", "not json"),
    ("UPDATE tables SET rules = ? WHERE ended IS NULL", "REVISED_2099"),
])
def test_a_table_whose_stored_match_cannot_be_made_again_closes_and_the_server_starts(
        tmp_path: Path, damage: tuple[str, str], caplog: pytest.LogCaptureFixture) -> None:
    """One damaged row (a restored backup, a hand's edit, a change of the rules over a term) stopped the whole class
    server at its start: now that table closes as "damaged", in one log line, its players are told so, it counts for
    nobody, and every other table is rebuilt."""
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    play_some(tables, code, 4)
    other = tables.open("cy", "Cy")
    tables.join("di", "Di", other)
    play_some(tables, other, 4)
    first_id = tables.tables[code].row.id
    tables.store.close()
    db = sqlite3.connect(tmp_path / DATABASE_NAME)
    sql, value = damage
    db.execute(sql.replace("WHERE", "WHERE table_id = ? AND" if "moves" in sql else "WHERE id = ? AND"),
               (value, first_id))
    db.commit()
    db.close()
    with caplog.at_level(logging.WARNING):
        again = tables_in(tmp_path, clock)
    assert code not in again.tables and other in again.tables and len(again.tables[other].moves) == 4
    assert [record.getMessage() for record in caplog.records if code in record.getMessage()] == [
        next(record.getMessage() for record in caplog.records if "closed at the start" in record.getMessage())]
    row = again.store.table(code)
    assert row is not None and row.ending == "damaged" and row.scores is None
    assert again.report("ana")["ended"] == "damaged" and again.report("ben")["ended"] == "damaged"
    assert text("classmates.closed_why.damaged", code=code)
    again.open("ana", "Ana")  # free to sit again


def test_after_a_restart_a_table_waits_for_its_players_to_reload(tmp_path: Path) -> None:
    """A restart leaves every page without its kernel until its student reloads it: a table in play waits
    `EVERYONE_GONE_SECONDS` from the restart before it may close as abandoned (it once closed two minutes after the
    restart, taking the round's matches with it); a player back in time finds it, and it closes as usual once
    everyone is gone again."""
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    play_some(tables, code, 6)
    tables.store.close()
    again = tables_in(tmp_path, clock)
    clock.now += EVERYONE_GONE_SECONDS - 1
    assert again.waiting() == [] and code in again.tables, "nobody has reloaded yet: the table waits"
    assert again.report("ana")["table"] == code and "ended" not in again.report("ana")
    clock.now += 1
    again.report("ben")
    assert code in again.tables
    clock.now += EVERYONE_GONE_SECONDS
    again.waiting()  # any request sweeps
    row = again.store.table(code)
    assert code not in again.tables and row is not None and row.ending == "abandoned"


def test_a_whole_match_reaches_its_end_with_each_next_deal_stored(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana", "RUNNING_LEOPARD")
    tables.join("ben", "Ben", code)
    live = tables.tables[code]
    dealers = []
    while not live.match.is_over:
        play_some(tables, code, 500)
        if not live.match.is_over:
            dealer = ("ana", "ben")[len(dealers) % 2]
            with refused("stale"):
                tables.move(dealer, code, len(live.moves) - 1, dict(NEXT_HAND))
            tables.move(dealer, code, len(live.moves), dict(NEXT_HAND))
            dealers.append(len(dealers) % 2)
            assert tables.report("ben")["dealers"] == dealers, "who dealt each next hand"
            assert tables_in(tmp_path, clock).report("ana")["dealers"] == dealers, "and after a restart"
    assert [row.move for row in tables.store.moves(live.row.id)] == live.moves
    assert tables.report("ana")["dealers"] == dealers and dealers, "and once the match is over"


def test_an_unjoined_table_closes_after_thirty_minutes(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana")
    while clock.now + 60 < tables.tables[code].row.opened + UNJOINED_SECONDS:
        clock.now += 60
        assert tables.report("ana")["table"] == code  # Ana waits, her page connected
    clock.now = tables.tables[code].row.opened + UNJOINED_SECONDS - 1
    assert tables.waiting() == [(code, "Ana")]
    clock.now += 1
    assert tables.waiting() == []
    assert tables.report("ana")["ended"] == "nobody joined"
    assert tables.store.table(code) is None, "a table nobody joined leaves no row"
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
    for bad in ("something else", "computer:", "computer:adaptive", "computer:<b>" + "x" * 5000):
        with refused("bad_move"):
            tables.end("ana", code, bad)
        row = tables.store.table(code)
        assert row is not None and row.ending is None and row.ended is None, "refused: nothing changed"
    tables.end("ana", code, "computer:expert")
    row = tables.store.table(code)
    assert row is not None and row.ending == "computer:expert" and row.ended is not None
    bens, anas = tables.report("ben"), tables.report("ana")
    assert bens["ended"] == anas["ended"] == "computer:expert" and bens["gone"] == anas["gone"] == bens["seat"] == 1
    assert (bens["counts"], anas["counts"]) == ("lost", "won"), "who went loses the match"


def test_a_player_whose_page_is_connected_is_not_gone_and_their_arrival_wakes_the_other(tmp_path: Path) -> None:
    """Ben's page back after two minutes away (a reload: its new kernel asked before the page connected, and waits
    on the server since): connected, he is not gone, Finish against the computer is refused, and the arrival of his
    page wakes Ana's kernel, whose page said he had gone (it took Ben's loss as a match he had left)."""
    clock, connected, woken = Clock(), set(), []
    tables = Referee(ClassStore.in_folder(tmp_path), clock=clock, changed=woken.append, here=lambda: connected)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    clock.now += GONE_SECONDS + 5
    assert tables.report("ana")["other_gone"]
    connected.add("ben")
    assert not tables.report("ana")["other_gone"]
    with refused("not_gone"):
        tables.end("ana", code, "computer:expert")
    connected.clear()
    clock.now += GONE_SECONDS + 5
    assert tables.report("ana")["other_gone"]
    woken.clear()
    tables.arrived("ben")
    assert woken == ["ana"] and not tables.report("ana")["other_gone"]
    tables.arrived("cy")  # at no table: nothing
    assert woken == ["ana"]


def test_a_move_number_taken_in_the_file_is_refused(tmp_path: Path) -> None:
    store = ClassStore.in_folder(tmp_path)
    clock = Clock()
    tables = Referee(store, clock=clock)
    table_id = tables.tables[tables.open("ana", "Ana")].row.id
    store.add_move(table_id, 0, 0, {"go out": True}, clock())
    with pytest.raises(sqlite3.IntegrityError):
        store.add_move(table_id, 0, 0, {"go out": True}, clock())


def finish_match(tables: Referee, code: str) -> LiveTable:
    """Play table `code`'s match to its end (first legal moves, each next deal stored by seat 1): the table."""
    live = tables.tables[code]
    while not live.match.is_over:
        play_some(tables, code, 500)
        if live.match.current.is_over and not live.match.is_over:
            tables.move(live.row.visitors[1] or "", code, len(live.moves), dict(NEXT_HAND))
    return live


def rows(store: ClassStore) -> tuple[int, int]:
    """How many tables and moves the file holds."""
    return (store.db.execute("SELECT COUNT(*) FROM tables").fetchone()[0],
            store.db.execute("SELECT COUNT(*) FROM moves").fetchone()[0])


def test_a_finished_match_closes_its_table_and_frees_both_players(tmp_path: Path) -> None:
    clock = Clock()
    woken: list[str] = []
    tables = Referee(ClassStore.in_folder(tmp_path), clock=clock, changed=woken.append)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    live = finish_match(tables, code)
    assert code not in tables.tables and woken[-2:] == ["ana", "ben"]  # both players' kernels are woken
    row = tables.store.table(code)
    assert row is not None and row.ending == "finished" and row.ended == clock.now
    assert row.scores == live.match.totals and row.scores != (0, 0)
    last = tables.store.moves(row.id)[-1]
    waiting = row.visitors[1 - last.player]
    assert waiting is not None
    report = tables.report(waiting)  # the one who did not make the last move still reads it, and the end
    assert report["table"] == code and report["ended"] == "finished" and report["moves"] == live.moves
    assert report["moves"][-1] == last.move and not report["other_gone"]
    assert tables.waiting() == []
    again = tables_in(tmp_path, clock)  # a restart: still closed, still read by its players
    assert again.tables == {} and again.report(waiting)["ended"] == "finished"
    assert again.report(waiting)["moves"] == live.moves
    for visitor, name in (("ana", "Ana"), ("ben", "Ben")):
        new = again.open(visitor, name)  # both free at once: no "one_table"
        assert new != code and "ended" not in again.report(visitor)


def test_a_table_both_players_abandoned_closes_and_frees_them(tmp_path: Path) -> None:
    """Both players gone `EVERYONE_GONE_SECONDS` (not the two minutes after which one may finish against the
    computer): the table closes, its match counting for nobody."""
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    play_some(tables, code, 6)
    clock.now += GONE_SECONDS - 1
    assert tables.report("ana")["table"] == code  # Ana's page is here; Ben's is gone
    tables.report("ben", present=False)  # Ben's kernel asks, but his page has gone: that does not count
    clock.now += 1
    report = tables.report("ana", present=False)  # Ana's page has gone too, a moment ago
    assert report["other_gone"] and "ended" not in report
    clock.now += EVERYONE_GONE_SECONDS - 1
    assert code in tables.tables
    clock.now += 1
    assert tables.waiting() == [] and code not in tables.tables  # any request sweeps
    row = tables.store.table(code)
    assert row is not None and row.ending == "abandoned" and row.scores is None
    assert tables.report("ben", present=False)["ended"] == "abandoned"
    assert tables_in(tmp_path, clock).tables == {}, "a restart does not bring it back"
    tables.open("ben", "Ben")
    tables.join("ana", "Ana", tables.waiting()[0][0])


def test_a_match_outlasts_both_players_gone_a_few_minutes(tmp_path: Path) -> None:
    """A laptop asleep or the room's Wi-Fi down for five minutes, both pages gone: the match is where it was when a
    player comes back, and the other, back later, still finds it (it used to close after two minutes)."""
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    play_some(tables, code, 6)
    moves = tables.report("ana")["moves"]
    clock.now += 5 * 60
    assert tables.waiting() == [] and code in tables.tables  # any request sweeps
    back = tables.report("ana")
    assert back["table"] == code and back["moves"] == moves and "ended" not in back and back["other_gone"]
    clock.now += EVERYONE_GONE_SECONDS - 1  # Ben gone all along; Ana here a moment ago
    tables.sweep()
    assert tables.report("ben")["table"] == code and "ended" not in tables.report("ben")


def test_a_waiting_table_whose_host_has_gone_closes_and_leaves_no_row(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana")
    clock.now += GONE_SECONDS
    assert tables.waiting() == [] and tables.store.table(code) is None
    assert tables.report("ana")["ended"] == "abandoned"


def test_leaving_a_table_nobody_joined_leaves_no_row(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    for _ in range(30):  # open and leave, again and again: nothing builds up in the file
        code = tables.open("ana", "Ana")
        assert tables.waiting() == [(code, "Ana")]
        tables.end("ana", code, "left")
        assert tables.store.table(code) is None and tables.report("ana")["ended"] == "left"
    assert rows(tables.store) == (0, 0) and tables.tables == {} and tables.waiting() == []
    assert len(tables.last) == 1, "one closed table remembered per visitor"
    clock.now += QUIET_SECONDS
    tables.sweep()
    assert tables.report("ana")["table"] is None and not tables.resting and not tables.last


def test_a_closed_tables_moves_go_after_the_quiet_time_and_its_record_stays(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    play_some(tables, code, 5)
    tables.end("ben", code, "left")
    assert rows(tables.store) == (1, 5)
    clock.now += QUIET_SECONDS - 1
    assert tables.report("ana")["ended"] == "left" and len(tables.report("ana")["moves"]) == 5
    clock.now += 1
    assert tables.report("ana")["table"] is None
    row = tables.store.table(code)
    assert rows(tables.store) == (1, 0) and row is not None and row.ending == "left"


def number_of(code: str) -> int:
    """The number `code_of` gives `code` for."""
    return next(number for number in range(CODE_COUNT) if code_of(number) == code)


def test_a_code_is_given_again_once_its_table_has_rested(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    everything = {"".join(letters) for letters in itertools.product(CODE_LETTERS, repeat=CODE_LENGTH)}
    assert {code_of(number) for number in range(CODE_COUNT)} == everything and len(everything) == 21 ** 4
    draws: list[int] = []
    krtq = number_of("KRTQ")

    def always(limit: int) -> int:  # every draw gives the code KRTQ
        draws.append(limit)
        return krtq

    monkeypatch.setattr(referee.secrets, "randbelow", always)
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    assert tables.open("ana", "Ana") == "KRTQ" and draws == [CODE_COUNT]
    tables.join("ben", "Ben", "KRTQ")
    tables.end("ana", "KRTQ", "left")
    draws.clear()
    with refused("no_codes"):  # its only code rests: refused after a bounded number of draws
        tables.open("cat", "Cat")
    assert len(draws) == CODE_DRAWS and "cat" not in tables.seats
    clock.now += QUIET_SECONDS - 1
    with refused("no_codes"):
        tables_in(tmp_path, clock).open("cat", "Cat")  # a restart knows the code rests
    clock.now += 1
    assert tables.open("cat", "Cat") == "KRTQ"
    row = tables.store.table("KRTQ")
    assert row is not None and row.visitors == ("cat", None) and row.ended is None, "the live one, not the old"
    tables.join("dan", "Dan", "krtq")
    assert tables.report("dan")["names"] == ["Cat", "Dan"] and tables.report("ana")["table"] is None


def test_with_every_code_in_use_open_is_refused_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    store = ClassStore.in_folder(tmp_path)
    store.db.execute("BEGIN")
    store.db.executemany(  # every code was given to a table that closed a minute ago
        "INSERT INTO tables (code, rules, hands, seed, visitor0, name0, visitor1, name1, opened, joined, ended, "
        "ending) VALUES (?, 'REVISED_2008', 4, 'seed', 'old', 'Old', 'older', 'Older', ?, ?, ?, 'left')",
        ((code_of(number), clock.now - 90, clock.now - 80, clock.now - 60) for number in range(CODE_COUNT)))
    store.db.execute("COMMIT")
    statements: list[str] = []
    tables = Referee(store, clock=clock)
    draws: list[int] = []
    drawn = secrets.randbelow
    monkeypatch.setattr(referee.secrets, "randbelow", lambda limit: draws.append(limit) or drawn(limit))
    store.db.set_trace_callback(statements.append)
    with refused("no_codes"):
        tables.open("ana", "Ana")
    assert len(draws) == CODE_DRAWS, "a bounded number of draws, never a loop"
    assert not [statement for statement in statements if "FROM tables" in statement], "no code read per open"
    assert rows(store) == (CODE_COUNT, 0) and tables.tables == {}
    assert text("classmates.refused.no_codes"), "the refusal is worded for the page"
    clock.now += QUIET_SECONDS - 60
    assert tables.open("ana", "Ana") in {code_of(number) for number in range(CODE_COUNT)}


def test_forget_closes_every_table_and_keeps_no_row(tmp_path: Path) -> None:
    clock = Clock()
    woken: list[str] = []
    tables = Referee(ClassStore.in_folder(tmp_path), clock=clock, changed=woken.append)
    playing = tables.open("ana", "Ana")
    tables.join("ben", "Ben", playing)
    play_some(tables, playing, 4)
    tables.open("cat", "Cat")
    done = tables.open("dan", "Dan")
    tables.join("eve", "Eve", done)
    tables.end("eve", done, "left")
    tables.forget()
    assert tables.tables == {} and tables.seats == {} and {"ana", "ben", "cat"} <= set(woken)
    for visitor in ("ana", "ben", "cat"):
        assert tables.report(visitor)["ended"] == "forgotten"
    assert {"dan", "eve"} <= set(woken), "the players of a table closed before are told too"
    for visitor in ("dan", "eve"):  # its record is gone, and what it counted: their reports no longer say it
        assert tables.report(visitor)["table"] is None
    assert tables.closed_lately() == [], "neither the table closed before nor those Forget closed: no names kept"
    assert rows(tables.store) == (0, 0) and tables.store.table(done) is None
    assert tables_in(tmp_path, clock).tables == {}
    tables.open("ana", "Ana")


def test_the_teacher_ends_a_table_for_both_players_at_once_and_it_counts_for_nobody(tmp_path: Path) -> None:
    """A student who never moves keeps the classmate at the table; the teacher ends it: both free at once, both told,
    their reports say the teacher ended it and that it counts for nobody, stored (after a restart too), and the
    standings count nothing. A code that is not one, or no table in play, is refused and changes nothing."""
    clock = Clock()
    woken: list[str] = []
    tables = Referee(ClassStore.in_folder(tmp_path), clock=clock, changed=woken.append)
    code = tables.open("ana", "Ana", "REVISED_2008", 2)
    tables.join("ben", "Ben", code)
    play_some(tables, code, 500)  # a hand finished: its points would count if a player had left
    tables.move("ben", code, len(tables.tables[code].moves), dict(NEXT_HAND))
    play_some(tables, code, 3)
    for bad, key in (("XX", "bad_code"), (5, "bad_code"), ("ZZZZ" if code != "ZZZZ" else "YYYY", "no_table")):
        with refused(key):
            tables.end_by_teacher(bad)
    assert code in tables.tables and rows(tables.store)[0] == 1
    del woken[:]
    row = tables.end_by_teacher(code.lower())
    assert row.code == code and code not in tables.tables and tables.seats == {}
    assert sorted(woken) == ["ana", "ben"], "both players' kernels are woken"
    assert tables.report("ana", present=False)["told"] is False, "no page of hers was connected: not told"
    for visitor in ("ana", "ben"):
        report = tables.report(visitor)
        assert report["ended"] == "teacher" and report["counts"] is None and report["gone"] is None
        assert report["told"] is False, "the first report read while a page of theirs is connected tells them"
        assert tables.report(visitor)["told"] is True
    stored = tables.store.table(code)
    assert stored is not None and stored.ending == "teacher" and stored.ended_by is None and stored.scores is None
    assert tables.standings() == [], "a table the teacher ended counts for nobody"
    again = tables_in(tmp_path, clock)
    assert again.standings() == [] and again.report("ana")["ended"] == "teacher"
    assert again.report("ben")["told"] is True, "who was told before a restart is kept: nobody is told again"
    with refused("no_table"):
        tables.end_by_teacher(code)  # already ended
    for visitor, name in (("ana", "Ana"), ("ben", "Ben")):
        tables.open(visitor, name)  # both free
    waiting = tables.seats["ana"].row.code
    tables.end_by_teacher(waiting)  # a table nobody joined: its host is free, and it leaves no row
    assert tables.store.table(waiting) is None and tables.report("ana")["ended"] == "teacher"


def test_a_file_from_before_table_ids_keeps_its_tables_and_moves(tmp_path: Path) -> None:
    step = MIGRATIONS.index(TABLE_IDS)
    match = Match(RULE_SETS["REVISED_2008"], seed="seed", hands=4)
    moves = []
    for _ in range(5):
        hand = match.current
        moves.append((hand.to_move, move_to_data(hand.view(hand.to_move).legal_moves()[0])))
        hand.apply(hand.view(hand.to_move).legal_moves()[0])
    with sqlite3.connect(tmp_path / DATABASE_NAME) as db:
        for migration in MIGRATIONS[:step]:
            for statement in migration:
                db.execute(statement)
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (?)", (step,))
        insert = ("INSERT INTO tables (code, rules, hands, seed, visitor0, name0, visitor1, name1, opened, ended, "
                  "ending) VALUES (?, 'REVISED_2008', 4, 'seed', ?, ?, ?, ?, ?, ?, ?)")
        db.execute(insert, ("KRTQ", "ana", "Ana", "ben", "Ben", 1.0, None, None))  # in play
        db.execute(insert, ("MNPQ", "cat", "Cat", None, None, 2.0, 3.0, "nobody joined"))  # nothing to remember
        db.execute(insert, ("WXYZ", "dan", "Dan", "eve", "Eve", 2.0, 3.0, "left"))  # a record
        for number, (player, move) in enumerate(moves):
            db.execute("INSERT INTO moves VALUES ('KRTQ', ?, ?, ?, 1.5)", (number, player, json.dumps(move)))
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    assert tables.store.version == SCHEMA_VERSION
    assert tables.store.table("MNPQ") is None and rows(tables.store) == (2, len(moves))
    old = tables.store.table("WXYZ")
    assert old is not None and old.ending == "left" and old.names == ("Dan", "Eve")
    assert old.ended_by is None and tables.standings() == [], "who left it is not known: it counts for nobody"
    assert tables.report("ben")["moves"] == [move for _player, move in moves]
    assert tables.tables["KRTQ"].match.current.moves == match.current.moves
    play_some(tables, "KRTQ", 3)
    assert len(tables.store.moves(tables.tables["KRTQ"].row.id)) == len(moves) + 3


def test_a_match_of_one_hand_ends_after_its_hand_and_other_lengths_are_refused(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    for hands in (3, 0, 5, True, 1.0, "1"):
        with refused("bad_hands"):
            tables.open("ana", "Ana", "REVISED_2008", hands)
    assert tables.tables == {} and rows(tables.store) == (0, 0)
    assert text("classmates.refused.bad_hands")  # the refusal is worded
    two = tables.open("cat", "Cat", "REVISED_2008", 2)
    assert tables.report("cat")["hands"] == 2
    code = tables.open("ana", "Ana", "REVISED_2008", 1)
    tables.join("ben", "Ben", code)
    assert tables.report("ben")["hands"] == 1, "whoever joins plays the host's length"
    live = tables.tables[code]
    play_some(tables, code, 500)
    assert live.match.hand_number == 1 and live.match.is_over
    assert code not in tables.tables and tables.report("ana")["ended"] == "finished"
    row = tables.store.table(code)
    assert row is not None and row.hands == 1 and row.ending == "finished"
    assert row.hand_scores == (live.match.results[0],) and row.scores == live.match.results[0]
    assert tables_in(tmp_path, clock).tables[two].match.hands == 2  # a restart keeps the length
    assert tables.open("dan", "Dan") and tables.tables[tables.seats["dan"].row.code].row.hands == 4  # the rules'


def finished_between(tables: Referee, host: tuple[str, str], guest: tuple[str, str], hands: int = 1) -> tuple[
        int, int]:
    """A match of `hands` between `host` and `guest` (visitor, name) played to its end: its totals (host first)."""
    code = tables.open(*host, "REVISED_2008", hands)
    tables.join(*guest, code)
    return finish_match(tables, code).match.totals


def test_standings_count_finished_and_left_matches_today_and_for_all_time(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    ana, ben, cat = ("ana", "Ana"), ("ben", "Ben"), ("cat", "Cat")
    first = finished_between(tables, ana, ben)
    clock.now += 86400  # the next day
    second = finished_between(tables, ben, cat, hands=2)
    code = tables.open(*cat, "REVISED_2008", 2)  # Ana leaves after a hand: she loses, Cat wins
    tables.join("ana", "Ana (2)", code)
    live = tables.tables[code]
    play_some(tables, code, 500)
    tables.end("ana", code, "left")
    left = live.match.results[0]
    row = tables.store.table(code)
    assert row is not None and row.ended_by == 1 and row.hand_scores == (left,) and row.scores is None

    def tally(rows: list[dict[str, object]]) -> dict[str, tuple[object, ...]]:
        return {str(row["name"]): tuple(row[key] for key in ("played", "won", "drawn", "lost", "for", "against"))
                for row in rows}

    def result(mine: int, theirs: int) -> tuple[int, int, int]:
        return (int(mine > theirs), int(mine == theirs), int(mine < theirs))

    expected = {
        "Ana (2)": (2, *(a + b for a, b in zip(result(*first), (0, 0, 1), strict=True)), first[0] + left[1],
                    first[1] + left[0]),
        "Ben": (2, *(a + b for a, b in zip(result(first[1], first[0]), result(*second), strict=True)),
                first[1] + second[0], first[0] + second[1]),
        "Cat": (2, *(a + b for a, b in zip(result(second[1], second[0]), (1, 0, 0), strict=True)),
                second[1] + left[0], second[0] + left[1]),
    }
    everyone = tables.standings()
    assert tally(everyone) == expected, "Ana is named by the name she last sat under"
    order = sorted(expected, key=lambda name: (-expected[name][1], -expected[name][2],
                                               expected[name][5] - expected[name][4], name))
    assert [row["name"] for row in everyone] == order
    today = tables.standings(since=clock.now - 60)
    assert {row["name"] for row in today} == {"Ben", "Cat", "Ana (2)"} and all(
        row["played"] == 1 for row in today if row["name"] != "Cat")
    tables.store.student_seen("ana", "Ana Lopez", clock.now)  # her record's name now
    assert "Ana Lopez" in tally(tables_in(tmp_path, clock).standings()), "a restart keeps the standings"


def test_a_match_finished_against_the_computer_is_lost_by_the_one_who_went(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    code = tables.open("ana", "Ana", "REVISED_2008", 1)
    tables.join("ben", "Ben", code)
    clock.now += GONE_SECONDS
    tables.report("ana")
    tables.end("ana", code, "computer:expert")
    assert [(row["name"], row["won"], row["lost"]) for row in tables.standings()] == [("Ana", 1, 0), ("Ben", 0, 1)]
    abandoned = tables.open("cat", "Cat")
    tables.join("dan", "Dan", abandoned)
    clock.now += EVERYONE_GONE_SECONDS
    tables.sweep()
    row = tables.store.table(abandoned)
    assert row is not None and row.ending == "abandoned"
    assert {row["name"] for row in tables.standings()} == {"Ana", "Ben"}, "an abandoned table counts for nobody"


def test_forgetting_the_class_forgets_its_standings(tmp_path: Path) -> None:
    clock = Clock()
    tables = tables_in(tmp_path, clock)
    finished_between(tables, ("ana", "Ana"), ("ben", "Ben"))
    assert len(tables.standings()) == 2
    tables.forget()
    assert tables.standings() == [] and tables_in(tmp_path, clock).standings() == []


def test_today_begins_at_the_servers_local_midnight() -> None:
    for at in (1_000_000.0, 1_800_000_000.5, time.time()):
        midnight = local_midnight(at)
        assert midnight <= at < midnight + 25 * 3600
        assert time.localtime(midnight)[3:6] == (0, 0, 0) and time.localtime(midnight)[:3] == time.localtime(at)[:3]


def test_a_student_away_when_the_table_closed_is_told_after_a_restart_too(tmp_path: Path) -> None:
    """A teacher's term: Ben went away, the table closed (here the teacher ended it), the server restarted, and Ben,
    back within minutes, was told nothing (the server had counted the table as told to both). Who was told is kept
    with the table: after the restart Ben is told, once; Ana, told before it, is not told again."""
    clock = Clock()
    tables = Referee(ClassStore.in_folder(tmp_path), clock=clock)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    play_some(tables, code, 3)
    tables.end_by_teacher(code)
    assert tables.report("ana")["told"] is False and tables.report("ana")["told"] is True  # Ana's page was there
    clock.now += 60
    again = tables_in(tmp_path, clock)  # the restart
    assert again.report("ana")["told"] is True, "told before the restart: not again"
    assert again.report("ben", present=False)["told"] is False, "no page of his asked yet"
    assert again.report("ben")["told"] is False and again.report("ben")["told"] is True, "told once, on his return"
    assert tables_in(tmp_path, clock).report("ben")["told"] is True, "and that is kept too"


def left_by_ben(tmp_path: Path, clock: Clock, woken: list[str] | None = None) -> tuple[Referee, str]:
    """A table Ana opened and Ben joined, a few moves made, that Ben left: (the tables, its code)."""
    tables = Referee(ClassStore.in_folder(tmp_path), clock=clock, changed=(woken if woken is not None else []).append)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    play_some(tables, code, 3)
    tables.end("ben", code, "left")
    return tables, code


def test_a_closed_tables_match_is_taken_on_against_the_computer_once_and_kept_across_a_restart(tmp_path: Path) -> None:
    """Ben left; Ana takes the match on against the computer in one page of hers: the server keeps that she did (the
    row, across a restart), her report says so ("taken", and its state changes, so that her other pages' kernels
    learn it), and a second request (another page of hers, pressing Finish too) is refused: one page plays it. A
    request that is not hers to make is refused and changes nothing."""
    clock, woken = Clock(), list[str]()
    tables, code = left_by_ben(tmp_path, clock, woken)
    tables.report("ana")  # (her page is told how it closed)
    before = tables.report("ana")
    assert before["ended"] == "left" and before["taken"] is False and before["moves"]
    other = "ZZZZ" if code != "ZZZZ" else "YYYY"
    for visitor, bad, key in (("ben", code, "you_left"), ("cat", code, "not_seated"), ("ana", other, "not_seated"),
                              ("ana", "XX", "bad_code"), ("ana", 5, "bad_code")):
        with refused(key):
            tables.take_on(visitor, bad)
    assert tables.report("ana") == before and tables.report("ben")["taken"] is False
    stored = tables.store.table(code)
    assert stored is not None and stored.taken == ()
    del woken[:]
    tables.take_on("ana", code.lower())
    assert woken == ["ana"], "her kernels are woken: her other pages learn it"
    after = tables.report("ana")
    assert after["taken"] is True and after["state"] != before["state"]
    assert {key: value for key, value in after.items() if key not in ("taken", "state")} == \
        {key: value for key, value in before.items() if key not in ("taken", "state")}, "nothing else changes"
    assert tables.report("ben")["taken"] is False and tables.report("ben")["counts"] == "lost"
    with refused("taken_elsewhere"):
        tables.take_on("ana", code)  # her second page, a moment later: refused, changing nothing
    stored = tables.store.table(code)
    assert stored is not None and stored.taken == (0,) and stored.ending == "left" and stored.ended_by == 1
    assert tables.standings() == tables_in(tmp_path, clock).standings(), "how the match counts is unchanged"
    again = tables_in(tmp_path, clock)  # a restart
    assert again.report("ana")["taken"] is True
    with refused("taken_elsewhere"):
        again.take_on("ana", code)
    clock.now += referee.QUIET_SECONDS
    with refused("not_seated"):
        again.take_on("ana", code)  # rested: no longer hers to read


def test_only_a_match_a_closed_table_cut_short_may_be_taken_on(tmp_path: Path) -> None:
    """A table still open is finished by `end`; one the teacher ended, one played to its end, one nobody joined, one
    the student left or took on already as it closed (finishing it against the computer) is refused."""
    clock = Clock()
    tables = Referee(ClassStore.in_folder(tmp_path), clock=clock)
    code = tables.open("ana", "Ana")
    with refused("still_open"):
        tables.take_on("ana", code)
    tables.join("ben", "Ben", code)
    play_some(tables, code, 2)
    with refused("still_open"):
        tables.take_on("ana", code)
    tables.end_by_teacher(code)
    for visitor in ("ana", "ben"):
        with refused("ended_by_teacher"):
            tables.take_on(visitor, code)
    code = tables.open("ana", "Ana", "REVISED_2008", 1)
    tables.join("ben", "Ben", code)
    finish_match(tables, code)
    for visitor in ("ana", "ben"):
        with refused("nothing_to_finish"):
            tables.take_on(visitor, code)
    code = tables.open("ana", "Ana")
    tables.end("ana", code, "left")  # nobody joined
    with refused("nothing_to_finish"):
        tables.take_on("ana", code)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    play_some(tables, code, 2)
    clock.now += GONE_SECONDS
    tables.report("ana")  # (she is here; Ben has gone)
    tables.end("ana", code, "computer:casual")
    assert tables.report("ana")["taken"] is True and tables.report("ben")["taken"] is False
    with refused("taken_elsewhere"):
        tables.take_on("ana", code)
    tables.take_on("ben", code)  # he had gone: his own copy, as his board offered it
    assert tables.report("ben")["taken"] is True
    stored = tables.store.table(code)
    assert stored is not None and stored.taken == (1,) and stored.ending == "computer:casual"


def test_two_requests_to_take_a_table_on_are_decided_once_by_the_store(tmp_path: Path) -> None:
    """The store's own statement decides: two connections to the file (two requests at once) take a closed table on
    once, the first; a table still open is not taken on there either."""
    tables, code = left_by_ben(tmp_path, Clock())
    row = tables.store.table(code)
    assert row is not None
    other = ClassStore.in_folder(tmp_path)
    assert [tables.store.take_table(row.id, 0), other.take_table(row.id, 0)] == [True, False]
    assert other.take_table(row.id, 1) is True, "each seat's player once"
    live = tables.open("cat", "Cat")
    opened = tables.store.table(live)
    assert opened is not None and other.take_table(opened.id, 0) is False
    other.close()


def test_a_file_from_before_tables_were_taken_on_counts_none_as_taken(tmp_path: Path) -> None:
    tables, code = left_by_ben(tmp_path, Clock())
    tables.store.db.execute("ALTER TABLE tables DROP COLUMN taken")  # the file as it was before the last two versions
    tables.store.db.execute("ALTER TABLE round_seats DROP COLUMN taken")
    tables.store.db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION - 2,))
    tables.store.close()
    store = ClassStore.in_folder(tmp_path)
    assert store.version == SCHEMA_VERSION
    row = store.table(code)
    assert row is not None and row.taken == () and row.ending == "left"
    columns = store.db.execute("PRAGMA table_info(round_seats)").fetchall()
    assert ("taken", "0") in [(column[1], column[4]) for column in columns], "no round's bye taken by any page"
