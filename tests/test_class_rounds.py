"""Rounds the teacher pairs, in the server's class tables (`Referee.pair`, stdlib, no server): both seats of each
table at once; the odd one's seat against the computer; every student paired told; the students at a table left for
the next round; what cannot be paired refused with nothing stored; the next round with new opponents; a restart
keeping the round, its seats and its tables; forgetting the class forgetting them."""

from __future__ import annotations

import itertools
import sqlite3
import time
from pathlib import Path

import pytest

from leopard_tutor.class_codes import ClassTableError
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.turns import current_player
from leopard_tutor.protocol import LEFT, match_key
from leopard_tutor.server.class_store import DATABASE_NAME, ClassStore, RoundMatch
from leopard_tutor.server.referee import Referee
from leopard_tutor.server.sessions import SessionBook
from leopard_tutor.server.standings import local_midnight
from leopard_tutor.server.students import QUIET_SECONDS, Students
from leopard_tutor.server.teacher import ClassPage

CLASS = {"ana": "Ana", "ben": "Ben", "cat": "Cat", "dan": "Dan", "eve": "Eve"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def tables_in(folder: Path, woken: list[str] | None = None, limit: int = 10) -> Referee:
    return Referee(ClassStore.in_folder(folder), clock=Clock(), limit=limit,
                       changed=(woken if woken is not None else []).append)


def opponents(tables: Referee) -> dict[str, str | None]:
    """Each student's opponent in the latest round, as their reports say (None: the computer)."""
    return {visitor: (tables.report(visitor)["round"] or {}).get("against") for visitor in CLASS}


def stored_rounds(folder: Path) -> int:
    with sqlite3.connect(folder / DATABASE_NAME) as db:
        return int(db.execute("SELECT COUNT(*) FROM rounds").fetchone()[0])


def test_a_round_seats_everyone_present_and_tells_each_of_them(tmp_path: Path) -> None:
    woken: list[str] = []
    tables = tables_in(tmp_path, woken)
    before = {visitor: tables.report(visitor)["state"] for visitor in CLASS}
    done = tables.pair(CLASS, "REVISED_2008", 1, "beginner")
    assert done["round"] == 1 and len(done["tables"]) == 2 and done["busy"] == 0
    assert done["computer"] in CLASS.values() and set(woken) == set(CLASS)
    for visitor, name in CLASS.items():
        report = tables.report(visitor)
        seat = report["round"]
        assert report["state"] != before[visitor], "a kernel waiting on the old state is answered"
        assert seat["number"] == 1 and seat["rules"] == "REVISED_2008" and seat["hands"] == 1
        if name == done["computer"]:
            assert report["table"] is None and seat == {**seat, "against": None, "table": None, "level": "beginner"}
            continue
        assert report["table"] == seat["table"] and report["hands"] == 1 and report["moves"] == []
        other = report["names"][1 - report["seat"]]
        assert report["names"][report["seat"]] == name and seat["against"] == other != name
        assert tables.report(next(v for v, n in CLASS.items() if n == other))["table"] == report["table"]


def test_students_at_a_table_wait_for_the_next_round(tmp_path: Path) -> None:
    tables = tables_in(tmp_path)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    done = tables.pair(CLASS, "REVISED_2008", 2, "expert")
    assert done["busy"] == 2 and len(done["tables"]) == 1 and done["computer"] is not None
    assert tables.report("ana")["table"] == code and tables.report("ana")["round"] is None
    alone = next(visitor for visitor, name in CLASS.items() if name == done["computer"])
    assert tables.present(CLASS) == {alone: done["computer"]}, "who plays the computer is free for the next round"


@pytest.mark.parametrize(("rules", "hands", "key"), [("REVISED_2008", 3, "bad_hands"), ("CHESS", 1, "bad_rules"),
                                                      ("REVISED_2008", True, "bad_hands"), (["a"], 1, "bad_rules"),
                                                      ({"k": 1}, 1, "bad_rules")])
def test_a_bad_choice_is_refused_and_stores_nothing(tmp_path: Path, rules: str, hands: object, key: str) -> None:
    tables = tables_in(tmp_path)
    with pytest.raises(ClassTableError) as refused:
        tables.pair(CLASS, rules, hands, "beginner")
    assert refused.value.key == key and stored_rounds(tmp_path) == 0 and tables.tables == {}


def test_the_class_page_says_before_a_press_that_nobody_is_there_to_pair(tmp_path: Path) -> None:
    page = class_page(tmp_path, {})
    assert page.report()["round"]["refused"] == text("classmates.refused.nobody_to_pair")


def test_nobody_to_pair_and_too_many_tables_are_refused_with_nothing_stored(tmp_path: Path) -> None:
    tables = tables_in(tmp_path, limit=1)
    with pytest.raises(ClassTableError) as refused:
        tables.pair({}, "REVISED_2008", 1, "beginner")
    assert refused.value.key == "nobody_to_pair"
    with pytest.raises(ClassTableError) as refused:
        tables.pair(CLASS, "REVISED_2008", 1, "beginner")  # two tables, one allowed
    assert refused.value.key == "full" and stored_rounds(tmp_path) == 0 and tables.tables == {}
    assert tables.pair({"ana": "Ana"}, "REVISED_2008", 1, "beginner")["computer"] == "Ana"


def test_the_standings_list_the_student_left_over_with_their_bye(tmp_path: Path) -> None:
    """Three students, one table: the one left over played the computer and had no row in the standings (a teacher
    read them as missing); they have one now, with a bye and nothing else counted."""
    tables = tables_in(tmp_path)
    for visitor, name in CLASS.items():
        tables.store.student_seen(visitor, name, 0.0)
    three = {"ana": "Ana", "ben": "Ben", "cat": "Cat"}
    first = tables.pair(three, "REVISED_2008", 1, "beginner")
    rows = {row["name"]: row for row in tables.standings()}
    assert rows == {first["computer"]: {"name": first["computer"], "played": 0, "won": 0, "drawn": 0, "lost": 0,
                                        "for": 0, "against": 0, "byes": 1}}
    seated = first["tables"][0]["names"]
    leaver = next(visitor for visitor, name in three.items() if name == seated[0])
    tables.end(leaver, first["tables"][0]["code"], LEFT)
    rows = {row["name"]: row for row in tables.standings()}
    assert [rows[name]["byes"] for name in (seated[1], seated[0], first["computer"])] == [0, 0, 1]
    assert tables.standings()[0]["name"] == seated[1], "a bye is no win"
    assert tables.tally()[leaver].lost == 1 and tables.standings(since=tables.clock() + 1) == []


def test_the_next_round_pairs_new_opponents(tmp_path: Path) -> None:
    tables = tables_in(tmp_path)
    seen: set[frozenset[str | None]] = set()
    for number in range(1, 6):  # five students: a round robin takes five rounds
        for code in list(tables.tables):
            live = tables.tables[code]
            assert live.row.visitors[0] is not None
            tables.end(live.row.visitors[0], code, "left")
        tables.pair(CLASS, "REVISED_2008", 1, "beginner")
        pairs = {frozenset((visitor, next((v for v, n in CLASS.items() if n == against), None)))
                 for visitor, against in opponents(tables).items()}
        assert not pairs & seen, f"round {number} repeats an opponent"
        seen |= pairs
    assert len(seen) == 15, "everyone met everyone, and the computer, once"


def test_a_round_counts_the_matches_classmates_played_at_tables_they_opened_themselves(tmp_path: Path) -> None:
    """Two of three students met at a table of their own: the round pairs each of them with the third (or the
    computer), not with each other again, whichever two they are."""
    three = {visitor: CLASS[visitor] for visitor in ("ana", "ben", "cat")}
    for first, second in itertools.combinations(three, 2):
        tables = tables_in(tmp_path / f"{first}-{second}")
        code = tables.open(first, three[first])
        tables.join(second, three[second], code)
        tables.end(first, code, "left")
        tables.pair(three, "REVISED_2008", 1, "beginner")
        assert (tables.report(first)["round"] or {}).get("against") != three[second], (first, second)


def test_a_restart_keeps_the_round_its_seats_and_its_tables(tmp_path: Path) -> None:
    tables = tables_in(tmp_path)
    tables.pair(CLASS, "ORIGINAL_1963", 2, "intermediate")
    reports = {visitor: tables.report(visitor) for visitor in CLASS}
    tables.store.close()
    again = tables_in(tmp_path)
    assert again.round is not None and again.round.number == 1 and again.round.level == "intermediate"
    for visitor in CLASS:
        report = again.report(visitor)
        assert (report["table"], report["round"], report.get("names")) == (
            reports[visitor]["table"], reports[visitor]["round"], reports[visitor].get("names"))
    assert again.pair(CLASS, "REVISED_2008", 1, "beginner")["busy"] == 4, "the seats are still taken"


def test_forgetting_the_class_forgets_its_rounds(tmp_path: Path) -> None:
    woken: list[str] = []
    tables = tables_in(tmp_path, woken)
    tables.pair(CLASS, "REVISED_2008", 1, "beginner")
    woken.clear()
    tables.forget()
    assert stored_rounds(tmp_path) == 0 and tables.round is None and set(woken) == set(CLASS)
    assert all(tables.report(visitor)["round"] is None for visitor in CLASS)
    assert tables.pair(CLASS, "REVISED_2008", 1, "beginner")["round"] == 1


def test_the_teacher_ends_the_rounds_tables_still_in_play_and_they_count_for_nobody(tmp_path: Path) -> None:
    """"End the round" ends the latest round's tables still in play (not one a player left, nor a table students
    opened themselves), each for both players at once, told; the class page says so and lists it closed by the
    teacher, counting for nobody. Another round's number, or no table of it in play, is refused and changes nothing."""
    page = class_page(tmp_path, {**CLASS, "fay": "Fay"})
    tables = page.tables
    own = tables.open("gus", "Gus")
    tables.join("hal", "Hal", own)
    woken: list[str] = []
    tables.changed = woken.append
    assert page.round_said()["in_play"] == 0
    with pytest.raises(ClassTableError, match="not_latest_round"):
        page.end_round(1)  # no round yet
    page.pair("REVISED_2008", 2)
    codes = [live.row.code for live in tables.round_tables()]
    assert len(codes) == 3 and own not in codes
    left = tables.tables[codes[0]].row.visitors[0]
    assert left is not None
    tables.end(left, codes[0], LEFT)
    said = page.round_said()
    assert said["in_play"] == 2 and said["end_confirm"] == text("teacher.end.round_confirm", number=1, tables=2)
    for bad in (2, 0, "1", True, None):
        with pytest.raises(ClassTableError, match="not_latest_round"):
            page.end_round(bad)
    assert len(tables.round_tables()) == 2
    del woken[:]
    assert page.end_round(1) == text("teacher.end.round_ended", number=1, tables=2)
    assert tables.round_tables() == [] and own in tables.tables, "a table the students opened stays"
    assert sorted(woken) == sorted(visitor for code in codes[1:] for visitor in tables.store.table(code).visitors)
    closed = {line["code"]: line["said"] for line in page.report()["closed"]["tables"]}
    for code in codes[1:]:
        assert closed[code] == text("teacher.closed.line", how=text("teacher.closed.how.teacher"),
                                    counted=text("teacher.closed.counted.nobody"))
    assert {row["name"] for row in tables.standings()} == set(tables.store.table(codes[0]).names), \
        "only the table a player left counts"
    with pytest.raises(ClassTableError, match="no_round_tables"):
        page.end_round(1)
    assert page.round_said()["in_play"] == 0 and page.round_said()["end_confirm"] == ""
    assert page.end_table(own) == text("teacher.end.ended", code=own)
    assert tables.tables == {}


def test_the_round_paired_on_an_earlier_day_is_said_with_its_date(tmp_path: Path) -> None:
    """The class page's line about the last round says the time it was paired, and its date too once that day is
    over: a teacher back for the next lesson does not read yesterday's round as paired today."""
    page = class_page(tmp_path, CLASS)
    page.pair("REVISED_2008", 1)
    paired = page.tables.clock()
    hour = time.strftime("%H:%M", time.localtime(paired))
    rules = text("rules.REVISED_2008")
    today = text("teacher.rounds.last", number=1, rules=rules, hands=1,
                 when=text("teacher.rounds.when.today", time=hour))
    assert page.round_said()["said"] == today
    page.tables.clock.now = local_midnight(paired) + 86_400 + 3_600  # (the same Clock the page's tables read)
    assert page.round_said()["said"] == text("teacher.rounds.last", number=1, rules=rules, hands=1, when=text(
        "teacher.rounds.when.earlier", time=hour, date=time.strftime("%Y-%m-%d", time.localtime(paired))))


def test_a_student_waiting_alone_at_a_table_is_paired_and_the_table_goes(tmp_path: Path) -> None:
    tables = tables_in(tmp_path)
    waiting = tables.open("ana", "Ana")
    done = tables.pair({"ana": "Ana", "ben": "Ben"}, "REVISED_2008", 1, "beginner")
    assert done["busy"] == 0 and len(done["tables"]) == 1 and waiting not in tables.tables
    report = tables.report("ana")
    assert report["table"] == done["tables"][0]["code"] != waiting and report["round"]["against"] == "Ben"
    assert tables.store.table(waiting) is None, "a table nobody joined leaves no row"


def test_the_one_left_over_plays_a_deal_the_server_chose_and_knows(tmp_path: Path) -> None:
    """The server chooses the deal of the round's match against the computer, as it does a table's, so that it knows
    that match from any other (by its id, as a page counts it); a restart keeps it; a classmates' seat has none."""
    tables = tables_in(tmp_path)
    done = tables.pair(CLASS, "ORIGINAL_1963", 2, "casual")
    alone = next(visitor for visitor, name in CLASS.items() if name == done["computer"])
    seed = tables.report(alone)["round"]["seed"]
    assert isinstance(seed, str) and len(seed) == 16
    assert {visitor: (found.number, found.match) for visitor, found in tables.round_matches().items()} == {
        alone: (1, match_key("ORIGINAL_1963", 2, seed))}
    assert all(tables.report(visitor)["round"]["seed"] is None for visitor in CLASS if visitor != alone)
    again = tables_in(tmp_path)
    assert again.report(alone)["round"]["seed"] == seed and again.round_matches() == tables.round_matches()


def class_page(folder: Path, names: dict[str, str]) -> ClassPage:
    """A class page over a store where the students `names` keep their names and have a page connected."""
    store = ClassStore.in_folder(folder)
    students = Students(store, clock=Clock())
    for visitor, name in names.items():
        students.name(visitor, name)
    page = ClassPage(students, Referee(store, clock=Clock()), "t" * 32)
    page.book.connected_visitors = lambda: set(names)  # type: ignore[method-assign]
    return page


def now_of(page: ClassPage, name: str) -> str:
    """The class page's "Now" cell of the student `name`."""
    row = next(row for row in page.report()["students"] if row["cells"][0]["text"] == name)
    return str(row["cells"][page.report()["column_keys"].index("now")]["text"])


def test_the_class_page_names_the_rounds_match_against_the_computer_and_what_next_round_does_to_it(
        tmp_path: Path) -> None:
    """The "Now" of the student left over says they play the round's computer once their page says it plays that very
    match (any other is "Playing the computer"); the next round says it keeps that match aside for them (they sit at
    a table now), and once they play it on it is still that round's, after a restart too. A match id that is not one
    is refused and changes nothing."""
    names = {"ana": "Ana", "ben": "Ben", "cat": "Cat"}
    page = class_page(tmp_path, names)
    said = page.pair("REVISED_2008", 1)
    alone = next(visitor for visitor in names if page.tables.round_seats[visitor].opponent is None)
    name, match = names[alone], page.tables.round_matches()[alone].match
    assert text("teacher.rounds.set_aside", name=name, number=1)[:20] not in said
    page.students.now(alone, "play", None, None, match)
    assert now_of(page, name) == text("teacher.now.round_computer", number=1)
    page.students.now(alone, "learn", 2, None, match)  # another tab: the tab is what they do now
    assert now_of(page, name) == text("teacher.now.learn_stage", stage=2)
    page.students.now(alone, "play", None, None, "0" * 16)  # another match against the computer
    assert now_of(page, name) == text("teacher.now.computer")
    for bad in ("xyz", "0" * 15, 16, ["0" * 16]):
        with pytest.raises(ClassTableError, match="bad_doing"):
            page.students.now(alone, "play", None, None, bad)
    assert now_of(page, name) == text("teacher.now.computer")
    page.students.now(alone, "play", None, None, None)  # no match under way: at Play
    assert now_of(page, name) == text("teacher.now.play")
    page.students.now(alone, "learn", 1, None, match)  # on another tab, the match is on the board all the same
    seated = next(visitor for visitor in names if visitor != alone)
    page.tables.end(seated, page.tables.report(seated)["table"], LEFT)  # round 1's table is over: all three are free
    said = page.pair("REVISED_2008", 1)
    assert page.tables.round_seats[alone].table_id is not None, "the computer went round: they sit at a table now"
    assert said.endswith(text("teacher.rounds.set_aside", name=name, number=1))
    for visitor in names:
        page.students.now(visitor, "play", None, None, match)
    assert now_of(page, name) == text("teacher.now.round_computer", number=1), "set aside, then played on: round 1's"
    assert all(now_of(page, names[each]) == text("teacher.now.computer") for each in names if each != alone), \
        "round 1 gave that match to one student only"
    again = class_page(tmp_path, names)  # the server started again: the rounds come from the store
    assert now_of(again, name) == text("teacher.now.round_computer", number=1)


def test_next_round_with_only_the_student_still_playing_the_computer_free_is_refused_and_ends_nothing(
        tmp_path: Path) -> None:
    """Three students: Ben and Cat at round 1's table, the one left over still at round 1's match against the computer.
    Next round made a round of no table, which only ended that match; it is refused, and once the table is over (or
    the match is), the next round is paired."""
    names = {"ana": "Ana", "ben": "Ben", "cat": "Cat"}
    page = class_page(tmp_path, names)
    assert page.report()["round"]["refused"] == ""
    page.pair("REVISED_2008", 1)
    alone = next(visitor for visitor in names if page.tables.round_seats[visitor].opponent is None)
    match = page.tables.round_matches()[alone].match
    page.students.now(alone, "play", None, None, match)
    with pytest.raises(ClassTableError) as refused:
        page.pair("REVISED_2008", 1)
    assert refused.value.key == "one_free" and refused.value.facts == {"name": names[alone], "count": 2, "number": 1}
    assert page.tables.round is not None and page.tables.round.number == 1 and stored_rounds(tmp_path) == 1
    words = text("classmates.refused.one_free", **refused.value.facts)
    assert names[alone] in words and "2" in words
    assert page.report()["round"]["refused"] == words, "greyed beforehand on the class page, with why"
    page.students.now(alone, "play", None, None, None)  # that match is over: a new one against the computer is fine
    assert page.report()["round"]["refused"] == ""
    said = page.pair("REVISED_2008", 1)
    assert said.startswith(text("teacher.rounds.paired", number=2, tables=0))
    assert said.endswith(text("teacher.rounds.busy", count=2))


def test_the_class_page_knows_the_last_rounds_rules_and_length(tmp_path: Path) -> None:
    """A reloaded class page starts its round menus where the class was paired last."""
    page = class_page(tmp_path, {"ana": "Ana", "ben": "Ben"})
    assert "rules" not in page.report()["round"]
    page.pair("ORIGINAL_1963", 2)
    round_ = page.report()["round"]
    assert (round_["number"], round_["rules"], round_["hands"]) == (1, "ORIGINAL_1963", 2)


@pytest.mark.parametrize(("rules", "key"), [("REVISED_2008", "replaced"), ("ORIGINAL_1963", "set_aside")])
def test_a_student_alone_playing_the_computer_again_hears_whether_the_match_ends_or_is_kept(
        tmp_path: Path, rules: str, key: str) -> None:
    """One student, two rounds: under the same rules the new round's match takes the place of the one played (their
    page ends it), under others it is kept aside; the class page says which."""
    page = class_page(tmp_path, {"ana": "Ana"})
    page.pair("REVISED_2008", 1)
    page.students.now("ana", "play", None, None, page.tables.round_matches()["ana"].match)
    said = page.pair(rules, 1)
    assert said.endswith(text(f"teacher.rounds.{key}", name="Ana", number=1))
    assert now_of(page, "Ana") == text("teacher.now.round_computer", number=1), "round 1's match, still"
    page.students.now("ana", "play", None, None, page.tables.round_matches()["ana"].match)
    assert now_of(page, "Ana") == text("teacher.now.round_computer", number=2)


def test_the_now_column_speaks_for_the_pages_still_open_and_a_closed_tab_stops_speaking(tmp_path: Path) -> None:
    """A student with two tabs is doing what the tab that told last says; once that tab closes, what their tab still
    open told last (with how long it has been quiet), not what the closed one said, in the page and the CSV alike, and
    the next round counts them as still playing the match that tab plays. What a kernel that is no visitor's tells is
    kept in the store but speaks for no page."""
    store = ClassStore.in_folder(tmp_path)
    clock = Clock()
    students = Students(store, clock=clock)
    students.name("ana", "Ana")
    page = ClassPage(students, Referee(store, clock=clock), "t" * 32, SessionBook(clock=clock, wall=clock))
    for kernel in ("tab-a", "tab-b"):
        page.book.hand_out(kernel, "ana")
        assert page.book.socket_opened(kernel, limit=4)
    given = {"ana": RoundMatch(1, "0" * 16)}
    page.book.told("tab-a", students.now("ana", "play", None, None, "0" * 16))
    clock.now += 60
    page.book.told("tab-b", students.now("ana", "learn", 3))
    assert now_of(page, "Ana") == text("teacher.now.learn_stage", stage=3), "the page that told last speaks"
    assert page.still_playing(given) == {}
    page.book.told("nobody's", students.now("ana", "practice"))
    assert now_of(page, "Ana") == text("teacher.now.learn_stage", stage=3), "only a page connected speaks"
    page.book.socket_closed("tab-b")
    clock.now += QUIET_SECONDS
    quiet = text("teacher.now.quiet", doing=text("teacher.now.computer"), minutes=int((QUIET_SECONDS + 60) // 60))
    assert now_of(page, "Ana") == quiet, "the tab still open speaks, and has been quiet since it told"
    assert quiet in "".join(page.csv_parts())
    assert page.still_playing(given) == {"ana": "Ana"}
    page.book.socket_closed("tab-a")
    assert now_of(page, "Ana") == text("teacher.now.away", minutes=0), "no page open: away since it closed"


def test_a_student_waiting_for_their_classmates_move_is_said_to_wait_not_to_be_quiet(tmp_path: Path) -> None:
    """Two minutes without news from a student at a class table is, where their classmate is to move, that it is the
    classmate's turn (a teacher read the one who waited as the idle one); the student to move is the one with no news,
    and the CSV says the same."""
    names = {"ana": "Ana", "ben": "Ben"}
    page = class_page(tmp_path, names)
    page.pair("REVISED_2008", 1)
    [live] = page.tables.tables.values()
    mover = current_player(live.match.current)
    assert mover is not None
    to_move, waits = live.row.visitors[mover], live.row.visitors[1 - mover]
    assert to_move is not None and waits is not None
    for visitor, other in ((to_move, waits), (waits, to_move)):
        page.students.now(visitor, "play", None, names[other])
    assert page.waiting_for() == {waits: names[to_move]}
    page.students.clock.now += QUIET_SECONDS + 60  # type: ignore[attr-defined]
    playing = {visitor: text("teacher.now.playing", name=names[other])
               for visitor, other in ((to_move, waits), (waits, to_move))}
    assert now_of(page, names[waits]) == text("teacher.now.their_turn", doing=playing[waits], name=names[to_move])
    assert now_of(page, names[to_move]) == text("teacher.now.quiet", doing=playing[to_move], minutes=3)
    sheet = "".join(page.csv_parts())
    assert now_of(page, names[waits]) in sheet and now_of(page, names[to_move]) in sheet
