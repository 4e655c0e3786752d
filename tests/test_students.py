"""Students' records without a server (`server/students.py` over the class store): a record made by a name only
(never by a visit, nor brought back by an open page after the class was forgotten), the live limit counting only
connected students, records expiring, what was earned added (stars at their best, answers summed), games counted
per opponent and once per match, what a student does, bounds, refusals that change nothing, the teacher's rows
(the students seen last) and their CSV, unlocking, forgetting the class, and the migrations of older files."""

from __future__ import annotations

import contextvars
import csv
import io
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from fake_clock import Clock
from keyed import mark

from leopard_tutor.class_codes import ClassTableError
from leopard_tutor.engine import catalogue
from leopard_tutor.engine.catalogue import answer_in
from leopard_tutor.engine.moves import move_to_data
from leopard_tutor.lessons import LESSONS, lessons_in
from leopard_tutor.lessons.progress import MAX_COUNT, Progress
from leopard_tutor.server.class_store import DATABASE_NAME, MIGRATIONS, SCHEMA_VERSION, ClassStore, StudentRow
from leopard_tutor.server.referee import Referee
from leopard_tutor.server.sessions import SessionBook
from leopard_tutor.server.students import (
    MATCHES_KEPT,
    PAGE_ROWS,
    QUIET_SECONDS,
    RECORD_DAYS,
    STUCK_SECONDS,
    TRIES_KEPT,
    Presence,
    Students,
    _games,
    student_id,
)

NOW = 1_800_000_000.0
FIRST, SECOND, THIRD = (lesson.key for lesson in LESSONS[:3])
MATCH = "0123456789abcdef"


def match(number: int) -> str:
    """A match id, as a kernel makes them (16 hex digits)."""
    return f"{number:016x}"


def students(tmp_path: Path, limit: int = 30) -> tuple[Students, Clock]:
    clock = Clock(NOW)
    return Students(ClassStore.in_folder(tmp_path), limit=limit, clock=clock), clock


def named(tmp_path: Path, *visitors: str, limit: int = 30) -> tuple[Students, Clock]:
    """The students, each of `visitors` named after itself."""
    class_, clock = students(tmp_path, limit)
    for visitor in visitors:
        class_.name(visitor, visitor.title())
    return class_, clock


EVERYONE = Presence(lambda _visitor: True)
"""Every student's page connected now, and nothing else known of them."""
NOBODY = Presence(lambda _visitor: False)
"""No student's page connected now, and nothing else known of them."""


def test_a_visit_that_never_names_itself_leaves_no_row(tmp_path: Path) -> None:
    """`me` of a visitor without a record answers from nothing and stores nothing; any other report of theirs is
    refused "unknown_student" and stores nothing; only a name makes a record."""
    class_, _ = students(tmp_path)
    class_id = class_.class_id()
    for _ in range(3):
        assert class_.me("ghost") == {"name": None, "progress": None, "unlock_all": False,
                                      "defaults": {"rules": None, "level": None}, "class": class_id}
    for report in (lambda: class_.now("ghost", "play"), lambda: class_.progress("ghost", {FIRST: 3}, None),
                   lambda: class_.game("ghost", "computer:beginner", "won", MATCH)):
        with pytest.raises(ClassTableError) as refused:
            report()
        assert refused.value.key == "unknown_student"
    assert class_.store.student("ghost") is None and class_.count() == 0 and class_.rows(EVERYONE) == []
    class_.name("ghost", "Casper")
    assert class_.me("ghost")["name"] == "Casper" and class_.count() == 1


def test_forgetting_the_class_then_a_report_of_an_open_page_leaves_no_row(tmp_path: Path) -> None:
    class_, _ = named(tmp_path, "ana", "ben")
    class_.game("ana", "computer:casual", "won", MATCH)
    before = class_.me("ana")["class"]
    assert class_.forget() == 2
    assert class_.me("ana")["class"] != before, "a name kept under the old id is known to be forgotten"
    assert class_.me("ben")["class"] == class_.me("ana")["class"], "one id for the class"
    assert class_.store.student_matches("ana") == 0, "the matches' ids go with the records"
    for report in (lambda: class_.now("ana", "learn", 2),
                   lambda: class_.game("ana", "computer:expert", "won", match(2)),
                   lambda: class_.progress("ben", None, {"jacks": [1, 0]})):
        with pytest.raises(ClassTableError, match="unknown_student"):
            report()
    assert class_.me("ana")["name"] is None
    assert class_.count() == 0 and class_.rows(EVERYONE) == []


def test_earned_progress_adds_the_answers_and_keeps_the_best_stars(tmp_path: Path) -> None:
    class_, _ = named(tmp_path, "ana")
    class_.progress("ana", {FIRST: 3, SECOND: 1}, {"jacks": [2, 3], "tens": [5, 0]})
    class_.progress("ana", {FIRST: 1, SECOND: 2, THIRD: 1}, {"jacks": [1, 1]})
    class_.progress("ana", None, {"tens": [MAX_COUNT, 1]})
    kept = Progress.from_code(str(class_.me("ana")["progress"]))
    assert kept.stars == {FIRST: 3, SECOND: 2, THIRD: 1}
    assert kept.practice == {"jacks": (3, 4), "tens": (MAX_COUNT, 1)}, "answers are added, bounded"


@pytest.mark.parametrize(("stars", "practice"), [
    ("LT2-a-progress-code", None), ({"every-lesson": 3}, None), ({FIRST: 4}, None), ({FIRST: True}, None),
    ({FIRST: 0}, None), ([FIRST], None), (None, None), (None, {"jacks": [1]}), (None, {"jacks": [-1, 0]}),
    (None, {"jacks": [MAX_COUNT + 1, 0]}), (None, {"sevens": [1, 1]}), (None, {"jacks": (1, 1)}), (None, "LT2-"),
])
def test_a_bad_progress_report_is_refused_and_changes_nothing(tmp_path: Path, stars: object,
                                                              practice: object) -> None:
    class_, _ = named(tmp_path, "ana")
    class_.progress("ana", {FIRST: 2}, None)
    before = class_.store.student("ana")
    with pytest.raises(ClassTableError, match="bad_progress"):
        class_.progress("ana", stars, practice)
    assert class_.store.student("ana") == before


def test_games_are_counted_per_opponent_once_per_match_and_anything_else_is_refused(tmp_path: Path) -> None:
    class_, _ = named(tmp_path, "ana", "ben")
    for number, (against, result) in enumerate((("computer:beginner", "won"), ("computer:beginner", "won"),
                                                ("computer:expert", "lost"), ("computer:adaptive", "drawn"))):
        assert class_.game("ana", against, result, match(number))
    row = class_.store.student("ana")
    assert row is not None and row.games == {"computer:beginner": {"won": 2, "drawn": 0, "lost": 0},
                                             "computer:expert": {"won": 0, "drawn": 0, "lost": 1},
                                             "computer:adaptive": {"won": 0, "drawn": 1, "lost": 0}}
    for bad in (("computer:godlike", "won", MATCH), ("classmate", "tied", MATCH), ("a" * 5000, "won", MATCH),
                ("classmate", "won", MATCH), ("classmate", "drawn", match(9)),  # the tables count these
                (1, 2, MATCH), ("classmate", "won", None), ("classmate", "won", "0123"), ("classmate", "won", 5),
                ("classmate", "won", "0123456789ABCDEF")):
        with pytest.raises(ClassTableError, match="bad_game"):
            class_.game("ana", *bad)
    assert class_.store.student("ana") == row
    assert class_.game("ben", "computer:expert", "won", match(2)), "another student's match of the same id counts"


def test_a_match_reported_won_five_times_counts_once(tmp_path: Path) -> None:
    """A saved game of a match already won, resumed and won again five times: one win."""
    class_, _ = named(tmp_path, "ana")
    counted = [class_.game("ana", "computer:expert", "won", MATCH) for _ in range(5)]
    assert counted == [True, False, False, False, False]
    row = class_.store.student("ana")
    assert row is not None and row.games == {"computer:expert": {"won": 1, "drawn": 0, "lost": 0}}
    assert class_.rows(EVERYONE)[0]["cells"][3]["sort"] == 1


def test_games_count_each_hand_played_to_its_end_once_and_say_so(tmp_path: Path, keyed: None) -> None:
    """A hand finished against the computer counts in Games (before any whole match), once however often it is
    reported (a saved game resumed at that hand's end); the cell says matches and hands, in the right plural."""
    class_, _ = named(tmp_path, "ana")
    assert class_.game("ana", "computer:expert", None, MATCH, 1)
    assert not class_.game("ana", "computer:expert", None, MATCH, 1), "the same hand reported again"
    row = class_.store.student("ana")
    assert row is not None and row.games == {"computer:expert": {"won": 0, "drawn": 0, "lost": 0, "hands": 1}}
    cell = class_.rows(EVERYONE)[0]["cells"][3]
    assert cell["text"] == mark("teacher.games.line", opponent=mark("levels.names.expert"),
                                counts=mark("teacher.games.hands", hands=1))
    for hand in (2, 3, 4):
        assert class_.game("ana", "computer:expert", None, MATCH, hand)
    assert class_.game("ana", "computer:expert", "won", MATCH), "the whole match counts beside its hands"
    assert class_.game("ana", "classmate", None, match(7), 1)
    joined = mark("teacher.games.joined")
    cell = class_.rows(EVERYONE)[0]["cells"][3]
    assert cell["text"] == mark("teacher.separator").join([
        mark("teacher.games.line", opponent=mark("levels.names.expert"), counts=joined.join([
            mark("teacher.games.matches", matches=1, results=mark("teacher.games.won", count=1)),
            mark("teacher.games.hands", hands=4)])),
        mark("teacher.games.line", opponent=mark("teacher.classmate"), counts=mark("teacher.games.hands", hands=1))])
    for bad in (("computer:expert", "won", MATCH, 1), ("computer:expert", None, MATCH, 0),
                ("computer:expert", None, MATCH, "1"), ("computer:expert", None, MATCH, True),
                ("computer:expert", None, MATCH, None)):
        with pytest.raises(ClassTableError, match="bad_game"):
            class_.game("ana", *bad)


def test_the_games_cell_in_words_says_matches_and_hands_in_both_languages() -> None:
    for language, words in (("en", ("Expert: 1 match (won 1), 3 hands",
                                    "Beginner: 2 matches (won 1, lost 1), 1 hand")),
                            ("es", ("Experto: 1 partida (1 ganada), 3 rondas",
                                    "Principiante: 2 partidas (1 ganada, 1 perdida), 1 ronda"))):
        one = StudentRow("a", "A", NOW, games={"computer:expert": {"won": 1, "drawn": 0, "lost": 0, "hands": 3}})
        two = StudentRow("b", "B", NOW, games={"computer:beginner": {"won": 1, "drawn": 0, "lost": 1, "hands": 1}})

        def cells(lang: str = language, rows: tuple[StudentRow, ...] = (one, two)) -> tuple[str, ...]:
            catalogue.answer_in(lang)
            return tuple(_games(row)["text"] for row in rows)

        assert contextvars.copy_context().run(cells) == words


def test_the_ids_of_a_students_latest_matches_are_kept_and_no_more(tmp_path: Path) -> None:
    class_, clock = named(tmp_path, "ana")
    for number in range(MATCHES_KEPT + 5):
        clock.now += 1
        assert class_.game("ana", "computer:casual", "won", match(number))
    assert class_.store.student_matches("ana") == MATCHES_KEPT
    assert not class_.game("ana", "computer:casual", "won", match(MATCHES_KEPT + 4)), "a recent match is known"
    assert class_.game("ana", "computer:casual", "won", match(0)), "the oldest ids made room"


def test_reports_at_once_and_the_teachers_unlocking_lose_nothing(tmp_path: Path) -> None:
    """A kernel reports from a thread of its own, beside the page's requests and the teacher's: every change is
    kept (each report reads, changes and writes its record as one step)."""
    class_, _ = named(tmp_path, "ana")
    class_.game("ana", "computer:casual", "won", MATCH)
    start = threading.Barrier(5)

    def report(number: int, result: str) -> None:
        start.wait()
        for game in range(40):
            class_.game("ana", "computer:beginner", result, match(1000 * number + game))
            class_.now("ana", "play")
            class_.progress("ana", None, {"tens": [1, 0]})

    def unlock() -> None:
        start.wait()
        class_.unlock("all")

    threads = [threading.Thread(target=report, args=pair) for pair in enumerate(("won", "drawn", "lost", "won"))]
    threads.append(threading.Thread(target=unlock))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    row = class_.store.student("ana")
    assert row is not None and row.unlock_all
    assert row.games["computer:beginner"] == {"won": 80, "drawn": 40, "lost": 40}
    assert row.practice == {"tens": [160, 0]}


def test_names_are_checked_and_the_row_stays_bounded(tmp_path: Path) -> None:
    class_, _ = students(tmp_path)
    class_.name("ana", "  Ana  ")
    assert class_.me("ana")["name"] == "Ana"
    class_.name("ana", "Ana\u3164Ne\u0301\u0300\u0302la")  # a filler is a space; a letter with three accents is fine
    assert class_.me("ana")["name"] == "Ana N\u00e9\u0300\u0302la"  # composed, as typed by another keyboard
    blank_looking = ("\u3164", "\u2800\u2800", " \u115f\u1160 \uffa0")  # printable, yet they show as nothing
    for bad, key in (("x" * 25, "name_too_long"), ("   ", "no_name"), (["Ana"], "bad_name"),
                     ("Z" + "\u0301" * 23, "name_marks"), *((blank, "no_name") for blank in blank_looking)):
        with pytest.raises(ClassTableError) as refused:
            class_.name("ana", bad)
        assert refused.value.key == key
    for number in range(200):  # many reports: one row, of the same size
        class_.now("ana", "practice")
        class_.game("ana", "computer:casual", "won", match(number))
        class_.progress("ana", {FIRST: 3}, {"jacks": [1, 0]})
    sizes = class_.store.db.execute(
        "SELECT COUNT(*), MAX(LENGTH(stars) + LENGTH(practice) + LENGTH(games) + LENGTH(doing)) FROM students"
    ).fetchone()
    assert sizes[0] == 1 and sizes[1] < 400


def test_a_name_a_classmate_here_keeps_is_refused_in_any_case(tmp_path: Path) -> None:
    """Two students in the room at once are told apart by their names: a name the record of another page connected
    now keeps, or one that reads alike ("Ana", "ANA", "Аna" with a Cyrillic А, "Ａｎａ"; "Ána" is another name), is
    refused "name_taken", changing nothing; a student's own name
    is theirs to keep again in another case, a name given up is free, and so is a name kept by a page now closed (it
    may be the same student's, from another browser)."""
    class_, _ = students(tmp_path)
    here = {"ana", "ben"}
    class_.name("ana", "Ana", here)
    for taken in ("Ana", "ANA", " ana ", "\u0410na", "\uff21\uff4e\uff41"):  # (a Cyrillic А; Ａｎａ, full width)
        with pytest.raises(ClassTableError) as refused:
            class_.name("ben", taken, here)
        assert refused.value.key == "name_taken" and refused.value.facts == {"name": "Ana"}, "as she keeps it"
    assert class_.store.student("ben") is None and class_.count() == 1
    class_.name("ben", "Ána", here)
    class_.name("ana", "ANA", here)  # her own name, another case
    with pytest.raises(ClassTableError, match="name_taken"):
        class_.name("ben", "Ana", here)
    assert class_.me("ben")["name"] == "Ána"
    class_.name("ana", "Ana Lima", here)
    class_.name("ben", "Ana", here)  # given up: free
    class_.name("cy", "ana lima", {"cy"})  # Ana's page is closed
    assert [class_.me(visitor)["name"] for visitor in ("ana", "ben", "cy")] == ["Ana Lima", "Ana", "ana lima"]


def test_the_limit_counts_the_named_students_whose_page_is_connected(tmp_path: Path) -> None:
    """With a limit of 3, throw-away visits (connected, never named) take no place, nor do named students whose
    page has gone; named students connected now do."""
    class_, _ = students(tmp_path, limit=3)
    for visitor in ("ghost-1", "ghost-2", "ghost-3"):
        class_.me(visitor)
    class_.name("left-1", "Left One", {"left-1"})
    class_.name("left-2", "Left Two", {"left-2"})
    class_.name("left-3", "Left Three", {"left-3"})
    here = {"ghost-1", "ghost-2", "ghost-3", "ana"}  # the pages connected now
    class_.name("ana", "Ana", here)
    class_.progress("ana", {FIRST: 3}, None)
    class_.game("ana", "computer:casual", "won", MATCH)
    ana = next(row for row in class_.rows(Presence(here.__contains__)) if row["id"] == student_id("ana"))
    assert [cell["sort"] for cell in ana["cells"][:4]] == ["ana", 103, 101, 1]
    here |= {"ben", "cy", "di"}
    class_.name("ben", "Ben", here)
    class_.name("cy", "Cy", here)
    with pytest.raises(ClassTableError) as refused:
        class_.name("di", "Di", here)
    assert refused.value.key == "class_full" and refused.value.facts == {"most": 3}
    assert class_.store.student("di") is None
    class_.name("ana", "Ana Lima", here)  # a known student is always served
    class_.name("di", "Di", here - {"cy"})  # once one of them has gone, there is room
    assert class_.store.student("di") is not None


def test_a_record_unseen_for_its_days_is_forgotten_at_the_next_new_record(tmp_path: Path) -> None:
    class_, clock = named(tmp_path, "ana", "ben")
    clock.now += RECORD_DAYS * 86400 - 60
    class_.now("ben", "play")  # Ben came back in time
    clock.now += 120
    class_.name("cy", "Cy")
    assert [row.visitor for _, row in class_.store.students()] == ["ben", "cy"]
    clock.now += RECORD_DAYS * 86400 + 1  # ...and at the server's start
    restarted = Students(class_.store, clock=clock)
    assert restarted.count() == 0


def test_last_seen_today_is_shown_as_its_time_and_another_day_with_its_date(tmp_path: Path) -> None:
    """The page shows the time alone ("short") of a student last seen today, in the server's time: the CSV's text
    keeps the date; seen on another day, the date and time only."""
    class_, clock = named(tmp_path, "ana")
    noon = time.mktime((2026, 3, 14, 12, 0, 0, 0, 0, -1))
    clock.now = noon
    class_.now("ana", "play")
    [cell] = [row["cells"][5] for row in class_.rows(EVERYONE)]
    assert cell == {"text": "2026-03-14 12:00", "sort": noon, "short": "12:00"}
    clock.now = noon + 86400  # the next day
    [cell] = [row["cells"][5] for row in class_.rows(EVERYONE)]
    assert cell == {"text": "2026-03-14 12:00", "sort": noon}
    assert "2026-03-14 12:00" in class_.csv(EVERYONE)


def test_what_a_student_does_and_when_they_are_away(tmp_path: Path, keyed: None) -> None:
    class_, clock = named(tmp_path, "ana")
    class_.now("ana", "learn", 5)
    now = lambda connected=True: class_.rows(Presence(lambda v: connected))[0]["cells"][4]["text"]  # noqa: E731
    assert now() == mark("teacher.now.learn_stage", stage=5)
    class_.now("ana", "play", None, "Ben")
    assert now() == mark("teacher.now.playing", name="Ben")
    class_.now("ana", "practice")
    assert now() == mark("teacher.now.practice") and now(False) == mark("teacher.now.away", minutes=0)
    clock.now += QUIET_SECONDS
    assert now() == mark("teacher.now.practice"), "two minutes of thinking is not quiet yet"
    clock.now += 180  # five minutes since the page last said what she does
    assert now() == mark("teacher.now.quiet", doing=mark("teacher.now.practice"), minutes=5)
    assert now(False) == mark("teacher.now.away", minutes=5), "no page of hers connected: away"
    gone = class_.rows(Presence(lambda v: False, left={"ana": clock.now - 60}))[0]["cells"]
    assert gone[4]["text"] == mark("teacher.now.away", minutes=1), "away since her last page went, not since her report"
    assert gone[5]["sort"] == clock.now - 60, "last seen then too"
    assert class_.rows(Presence(lambda v: False, left={"ana": clock.now - 600}))[0]["cells"][4]["text"] == mark(
        "teacher.now.away", minutes=5), "a page that went before her last report changes nothing"
    assert mark("teacher.now.away", minutes=1) in class_.csv(Presence(lambda v: False, left={"ana": clock.now - 60}))
    assert class_.rows(EVERYONE)[0]["away"] is False and class_.rows(NOBODY)[0]["away"] is True
    # sorted by "Now", a student away comes after every tab, whatever the words (the page compares lists part by part)
    assert class_.rows(EVERYONE)[0]["cells"][4]["sort"][0] == 0
    assert class_.rows(NOBODY)[0]["cells"][4]["sort"] == [1, 5]
    for bad in (("sleep", None, None), ("learn", 0, None), ("learn", len(LESSONS) + 1, None),
                ("learn", True, None), ("play", None, "<" * 30)):
        with pytest.raises(ClassTableError, match="bad_doing"):
            class_.now("ana", *bad)


def test_after_a_restart_a_student_not_seen_since_is_not_said_to_be_away(tmp_path: Path, keyed: None) -> None:
    """The server restarts: Ana's page, open before, has not connected since (it may wait to be reloaded), so the
    class page says only that she has not been seen since the restart, never "away 9 min" counted from her last
    report; Ben's page came back after the restart and went a minute ago: he is away 1 min; Cy reported after the
    start (his page has not connected): away since then."""
    from leopard_tutor.server.teacher import ClassPage

    class_, clock = named(tmp_path, "ana", "ben")
    class_.now("ana", "learn", 5)
    class_.now("ben", "play")
    clock.now += 300
    started = clock.now
    clock.now += 120
    class_.name("cy", "Cy")
    clock.now += 120
    left = {"ben": clock.now - 60}
    rows = {row["cells"][0]["text"]: row for row in class_.rows(Presence(lambda v: False, left=left, started=started))}
    assert rows["Ana"]["cells"][4] == {"text": mark("teacher.now.restarted"), "sort": [1, 9]}, "among the away"
    assert rows["Ana"]["away"] is True
    assert rows["Ben"]["cells"][4]["text"] == mark("teacher.now.away", minutes=1)
    assert rows["Cy"]["cells"][4]["text"] == mark("teacher.now.away", minutes=2)
    assert class_.rows(Presence(lambda v: True, started=started))[0]["cells"][4]["text"] == mark(
        "teacher.now.quiet", doing=mark("teacher.now.learn_stage", stage=5), minutes=9), "her page back"
    assert mark("teacher.now.restarted") in class_.csv(Presence(lambda v: False, left=left, started=started))
    book = SessionBook(wall=lambda: started)
    assert book.started == started
    page = ClassPage(class_, Referee(class_.store, clock=clock), "t" * 32, book)
    said = {row["cells"][0]["text"]: row["cells"][4]["text"] for row in page.report()["students"]}
    assert said == {"Ana": mark("teacher.now.restarted"), "Ben": mark("teacher.now.restarted"),
                    "Cy": mark("teacher.now.away", minutes=2)}, "no page of Ben's has gone since this start"
    assert mark("teacher.now.restarted") in "".join(page.csv_parts())


def test_the_teachers_rows_and_the_csv_hold_the_same_cells(tmp_path: Path, keyed: None) -> None:
    class_, clock = students(tmp_path)
    class_.name("ana", "<img src=x onerror=f()>")
    class_.progress("ana", {FIRST: 3, SECOND: 2}, {"jacks": [1, 3], "tens": [9, 1]})
    class_.game("ana", "computer:casual", "won", MATCH)
    clock.now += 1
    class_.name("ben", "Ben")
    rows = class_.rows(EVERYONE)
    assert [row["id"] for row in rows] == [student_id("ana"), student_id("ben")], "by name: '<' before 'B'"
    ana = [cell["text"] for cell in rows[0]["cells"]]
    practice = [mark("teacher.practice", concept=mark(f"lessons.practice.concepts.{concept}"), share=share,
                     answers=answers) for concept, share, answers in (("jacks", 25, 4), ("tens", 90, 10))]
    assert ana[:4] == ["<img src=x onerror=f()>", mark("teacher.lessons", done=2, total=len(LESSONS), stars=5),
                       mark("teacher.separator").join(practice),
                       mark("teacher.games.line", opponent=mark("levels.names.casual"), counts=mark(
                           "teacher.games.matches", matches=1, results=mark("teacher.games.won", count=1)))]
    assert [cell["text"] for cell in rows[1]["cells"]][:4] == [
        "Ben", mark("teacher.lessons", done=0, total=len(LESSONS), stars=0), mark("teacher.nothing_yet"),
        mark("teacher.nothing_yet")]
    table = list(csv.reader(io.StringIO(class_.csv(EVERYONE))))
    assert table[0] == [mark(f"teacher.columns.{column}")
                        for column in ("name", "lessons", "practice", "games", "now", "last_seen")]
    assert table[1:] == [[cell["text"] for cell in row["cells"]] for row in rows], "in the order they came"
    class_.name("ben", "=HYPERLINK(0)")  # shown as typed, but no spreadsheet takes it for a formula
    assert class_.rows(EVERYONE)[1]["cells"][0]["text"] == "=HYPERLINK(0)", "'=' after '<'"
    assert list(csv.reader(io.StringIO(class_.csv(EVERYONE))))[2][0] == "'=HYPERLINK(0)"


def test_the_rows_are_the_students_seen_last_and_the_csv_holds_every_one(tmp_path: Path) -> None:
    class_, clock = students(tmp_path)
    for number in range(450):  # more than a part of the CSV, twice over
        clock.now += 1
        class_.name(f"v{number}", f"S{number}")
    clock.now += 1
    class_.now("v3", "play")  # seen last
    shown = class_.rows(EVERYONE, most=5)
    assert [row["cells"][0]["text"] for row in shown] == ["S3", "S446", "S447", "S448", "S449"], (
        "the students seen last, by name")
    assert class_.count() == 450
    parts = list(class_.csv_parts(EVERYONE))
    assert len(parts) == 3
    names = [row[0] for row in csv.reader(io.StringIO("".join(parts)))][1:]
    assert names == [f"S{number}" for number in range(450)]


def test_the_class_page_says_how_many_of_how_many_it_shows(tmp_path: Path, keyed: None) -> None:
    from leopard_tutor.server.referee import Referee
    from leopard_tutor.server.teacher import ClassPage

    class_, clock = students(tmp_path)
    page = ClassPage(class_, Referee(class_.store, clock=clock), "t" * 32)
    class_.name("ana", "Ana")
    assert page.report()["shown"] == "" and len(page.report()["students"]) == 1, "every one shown: nothing to say"
    for number in range(PAGE_ROWS + 4):
        class_.store.put_student(StudentRow(f"v{number}", f"S{number}", NOW - 1 - number))
    report = page.report()
    assert len(report["students"]) == PAGE_ROWS and report["students"][0]["id"] == student_id("ana")
    assert report["shown"] == mark("teacher.shown", shown=PAGE_ROWS, total=PAGE_ROWS + 5)


def test_records_made_in_a_burst_never_hide_the_students_in_the_room(tmp_path: Path) -> None:
    """A script that keeps PAGE_ROWS made-up names and leaves pushed every real student off the class page (it shows
    the students seen last): the students whose page is connected now are always shown, the rest filled up by the
    students seen last."""
    class_, clock = students(tmp_path)
    for visitor, name in (("ana", "Ana"), ("ben", "Ben"), ("cy", "Cy")):
        class_.name(visitor, name)
    clock.now += 60
    for number in range(PAGE_ROWS + 10):  # after them, and left at once
        class_.name(f"junk{number}", f"Junk {number}", {f"junk{number}"})
    here = {"ana", "ben"}
    rows = class_.rows(Presence(here.__contains__), here=here)
    names = [row["cells"][0]["text"] for row in rows]
    assert len(rows) == PAGE_ROWS and "Ana" in names and "Ben" in names and "Cy" not in names
    assert all(row["away"] for row in rows if row["cells"][0]["text"].startswith("Junk"))
    assert names == sorted(names, key=str.casefold), "ordered by name"
    assert "Ana" not in [row["cells"][0]["text"] for row in class_.rows(EVERYONE)], "as before, nobody here"


def test_unlock_one_student_or_the_class_and_forget_the_class(tmp_path: Path) -> None:
    """One student's lessons, or the whole class's: those here and each student who comes later (Fay, who came after
    "Unlock all lessons for the class", had stages 2 to 15 locked; and until she kept a name, so had every student who
    came later); forgetting the class locks them again."""
    class_, _ = named(tmp_path, "ana", "ben", "cy")
    assert class_.unlock(student_id("ben")) == 1 and not class_.class_unlocked()
    assert class_.name_for(student_id("ben")) == "Ben"  # what the class page names in saying so
    with pytest.raises(LookupError):
        class_.unlock("nobody")
    with pytest.raises(LookupError):
        class_.name_for("nobody")
    assert [class_.me(v)["unlock_all"] for v in ("ana", "ben", "cy")] == [False, True, False]
    assert class_.unlock("all") == 2, "Ben's lessons were open already: the count says what changed"
    assert all(class_.me(v)["unlock_all"] for v in ("ana", "ben", "cy")) and class_.class_unlocked()
    assert class_.me("fay")["unlock_all"], "a student who comes later, before keeping a name: the lessons are open"
    class_.name("fay", "Fay")
    assert class_.me("fay")["unlock_all"], "a student who comes later: the whole class's lessons are open"
    assert class_.unlock(student_id("ben")) == 0, "pressed again: nothing is opened"
    assert class_.forget() == 4 and not class_.class_unlocked()
    assert class_.store.students() == [] and class_.rows(EVERYONE) == []
    class_.name("gus", "Gus")
    assert not class_.me("gus")["unlock_all"], "the next class's lessons open as each student goes"


def test_the_class_defaults_are_checked(tmp_path: Path) -> None:
    class_, _ = students(tmp_path)
    class_.set_defaults("RUNNING_LEOPARD", "adaptive")
    assert class_.me("ana")["defaults"] == {"rules": "RUNNING_LEOPARD", "level": "adaptive"}
    with pytest.raises(ValueError):
        class_.set_defaults("HOUSE_RULES", None)
    assert class_.defaults() == {"rules": "RUNNING_LEOPARD", "level": "adaptive"}
    class_.set_defaults(None, None)
    assert class_.defaults() == {"rules": None, "level": None}


def file_at(folder: Path, version: int) -> sqlite3.Connection:
    """A database file at schema `version` (made by the first `version` migrations), open to fill."""
    db = sqlite3.connect(folder / DATABASE_NAME, isolation_level=None)
    for step in MIGRATIONS[:version]:
        for statement in step:
            db.execute(statement)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (?)", (version,))
    return db


def test_a_version_1_file_is_migrated_and_keeps_its_tables_and_students(tmp_path: Path) -> None:
    with file_at(tmp_path, 1) as db:
        db.execute("INSERT INTO students VALUES ('ana', 'Ana', 5.0)")
        db.execute("INSERT INTO tables (code, rules, hands, seed, visitor0, name0, opened) "
                   "VALUES ('KRTQ', 'REVISED_2008', 3, 's', 'ana', 'Ana', 5.0)")
    db.close()
    store = ClassStore.in_folder(tmp_path)
    assert store.version == SCHEMA_VERSION
    assert store.students() == [(1, StudentRow("ana", "Ana", 5.0))]
    assert store.table("KRTQ") is not None
    store.close()
    restarted = Students(ClassStore.in_folder(tmp_path), clock=Clock(5.0))  # the records outlive a restart
    assert restarted.me("ana")["name"] == "Ana"
    class_id = restarted.me("ana")["class"]
    restarted.store.close()
    again = Students(ClassStore.in_folder(tmp_path), clock=Clock(6.0))
    assert again.me("ana")["class"] == class_id, "the class's id outlives a restart"


def test_the_migration_to_records_made_by_a_name_drops_the_nameless_ones(tmp_path: Path) -> None:
    """A file from before: its visits' nameless records go, the named ones stay; the class page's query by last
    seen reads an index, and a match's id is kept per student."""
    before = next(number for number, step in enumerate(MIGRATIONS)
                  if any("student_matches" in statement for statement in step))
    with file_at(tmp_path, before) as db:
        db.execute("INSERT INTO students (visitor, name, last_seen) VALUES ('ghost', '', 5.0), ('ana', 'Ana', 6.0)")
    db.close()
    store = ClassStore.in_folder(tmp_path)
    assert store.version == SCHEMA_VERSION
    assert [row.visitor for _, row in store.students()] == ["ana"]
    plan = " ".join(str(step) for step in store.db.execute(
        "EXPLAIN QUERY PLAN SELECT visitor FROM students ORDER BY last_seen DESC LIMIT 5"))
    assert "students_seen" in plan and "TEMP B-TREE" not in plan
    class_ = Students(store, clock=Clock(7.0))
    assert class_.game("ana", "computer:expert", "won", MATCH)
    assert not class_.game("ana", "computer:expert", "won", MATCH)


def test_the_session_book_says_which_visitors_have_a_page_connected() -> None:
    book = SessionBook()
    book.hand_out("k1", "ana")
    book.hand_out("k2", "ben")
    assert book.socket_opened("k1", 2)
    assert book.connected_visitors() == {"ana"}


def test_watching_a_table_shows_what_a_spectator_may_see_and_never_a_hand(tmp_path: Path, keyed: None) -> None:
    from leopard_tutor.server.referee import Referee
    from leopard_tutor.server.teacher import ClassPage

    store = ClassStore.in_folder(tmp_path)
    tables = Referee(store, clock=Clock(NOW))
    code = tables.open("ana", "Ana")
    page = ClassPage(Students(store, clock=Clock(NOW)), tables, "t" * 32)
    assert page.watch(code)["waiting"] == mark("teacher.watch.waiting", code=code)
    listed = page.report()["tables"]
    assert [(line["code"], line["names"], line["note"]) for line in listed] == [(code, ["Ana"], "")]
    assert listed[0]["labels"]["end"] == mark("teacher.labels.end", code=code, names="Ana")
    tables.join("ben", "Ben", code)
    view = page.watch(code)
    assert [square["title"] for square in view["squares"]] == [mark("teacher.watch.square", name=name, value=0)
                                                               for name in ("Ana", "Ben")]
    assert all(cell["card"] is None and not cell["face_down"] for square in view["squares"] for cell in square["cells"])
    hand = tables.tables[code].match.current
    for number in range(12):  # some cards laid, face up and maybe face down
        tables.move(("ana", "ben")[hand.to_move], code, number, move_to_data(hand.legal_moves()[0]))
    view = page.watch(code)
    assert view["lines"][0] == mark("teacher.watch.turn", name=("Ana", "Ben")[hand.to_move])  # the engine's word
    assert view["stock"]["count"] == hand.stock_size and view["discard"]["count"] == len(hand.discards)
    assert mark("teacher.watch.hand", name="Ana", count=len(hand.held[0])) in view["lines"]
    assert any(cell["card"] for square in view["squares"] for cell in square["cells"])
    assert set(view) == {"code", "names", "squares", "stock", "discard", "lines"}  # no hand among them
    for square, shown in zip(hand.squares, view["squares"]):  # a face-up card as the board has it, a face-down one not
        for cell in shown["cells"]:
            top = square.top(cell["space"])
            assert (cell["card"] or {}).get("code") == (str(top[0]) if top is not None and top[1] else None)
            assert cell["face_down"] == (top is not None and not top[1]) and cell["known"] is None
            assert cell["depth"] == len(square.pile(cell["space"]))
    while not hand.is_over:  # the hand played out: no one's turn, the next hand to be asked for
        tables.move(("ana", "ben")[hand.to_move], code, len(tables.tables[code].moves),
                    move_to_data(hand.legal_moves()[0]))
    assert page.watch(code)["lines"][0] == mark("teacher.watch.hand_over", hand=1)
    assert page.watch("ZZZZ") == {"code": "ZZZZ", "gone": mark("teacher.watch.gone", code="ZZZZ")}


def test_a_student_renamed_at_a_table_is_listed_by_the_new_name(tmp_path: Path) -> None:
    """A student who keeps another name while at a class table: the class page lists the table under it."""
    from leopard_tutor.server.referee import Referee
    from leopard_tutor.server.teacher import ClassPage

    store = ClassStore.in_folder(tmp_path)
    tables = Referee(store, clock=Clock(NOW))
    students = Students(store, clock=Clock(NOW), renamed=tables.rename)
    page = ClassPage(students, tables, "t" * 32)
    for visitor, name in (("ana", "Ana"), ("ben", "Ben")):
        students.name(visitor, name)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    students.name("ben", "Benito")
    assert [line["names"] for line in page.report()["tables"]] == [["Ana", "Benito"]]
    assert tables.report("ana")["names"] == ["Ana", "Benito"]


def test_a_watched_square_is_drawn_as_its_rule_set_draws_it(tmp_path: Path) -> None:
    from leopard_tutor.server.referee import Referee
    from leopard_tutor.server.teacher import ClassPage

    store = ClassStore.in_folder(tmp_path)
    tables = Referee(store, clock=Clock(NOW))
    page = ClassPage(Students(store, clock=Clock(NOW)), tables, "t" * 32)
    for visitors, rules, drawn in ((("ana", "ben"), "ORIGINAL_1963", [7, 8, 9, 4, 5, 6, 1, 2, 3]),
                                   (("cy", "di"), "REVISED_2008", list(range(1, 10)))):
        code = tables.open(visitors[0], "Ana", rules)
        tables.join(visitors[1], "Ben", code)
        for square in page.watch(code)["squares"]:
            assert [cell["space"] for cell in square["cells"]] == drawn, rules


def test_the_rows_are_ordered_by_name_whatever_the_case(tmp_path: Path) -> None:
    class_, clock = students(tmp_path)
    for visitor, name in (("v1", "carla"), ("v2", "Ben"), ("v3", "ana"), ("v4", "Dora")):
        clock.now += 1
        class_.name(visitor, name)
    assert [row["cells"][0]["text"] for row in class_.rows(EVERYONE)] == ["ana", "Ben", "carla", "Dora"]


def test_each_row_has_a_cell_per_stage_with_its_stars(tmp_path: Path) -> None:
    """Every lesson stage, in order, with its title and the best stars kept (0 for a stage not solved)."""
    class_, _ = named(tmp_path, "ana")
    class_.progress("ana", {FIRST: 2, THIRD: 3}, None)
    class_.progress("ana", {FIRST: 1}, None)  # the best is kept
    stages = class_.rows(EVERYONE)[0]["stages"]
    assert stages == [{"stage": number, "title": lesson.title, "stars": {FIRST: 2, THIRD: 3}.get(lesson.key, 0)}
                      for number, lesson in enumerate(LESSONS, start=1)]
    assert len(stages) == len(LESSONS) and stages[2]["stars"] == 3 and stages[1]["stars"] == 0
    spanish = contextvars.copy_context().run(lambda: (answer_in("es"), class_.rows(EVERYONE))[1])
    assert [stage["title"] for stage in spanish[0]["stages"]] == [lesson.title for lesson in lessons_in("es")]
    assert spanish[0]["stages"][0]["title"] != stages[0]["title"], "the titles in the page's language"


def stuck(class_: Students) -> object:
    return class_.rows(EVERYONE)[0]["stuck"]


def test_three_failed_tries_of_a_stage_in_ten_minutes_mark_the_student_stuck(tmp_path: Path, keyed: None) -> None:
    class_, clock = named(tmp_path, "ana")
    class_.tried("ana", SECOND)
    clock.now += 200
    class_.tried("ana", SECOND)
    class_.tried("ana", FIRST)  # another stage's try counts for that stage only
    assert stuck(class_) is None, "two tries are not stuck"
    clock.now += 200
    class_.tried("ana", SECOND)
    assert stuck(class_) == {"stage": 2, "text": mark("teacher.stuck", stage=2, count=3, minutes=10)}
    clock.now += STUCK_SECONDS - 400 + 1  # the first try is now older than ten minutes
    assert stuck(class_) is None
    class_.tried("ana", SECOND)
    assert stuck(class_) == {"stage": 2, "text": mark("teacher.stuck", stage=2, count=3, minutes=10)}
    class_.progress("ana", {FIRST: 1}, None)  # solving another stage changes nothing
    assert stuck(class_) is not None
    class_.progress("ana", {SECOND: 1}, None)  # a solve clears it
    assert stuck(class_) is None
    class_.tried("ana", SECOND)
    assert stuck(class_) is None, "the tries before the solve no longer count"


def test_the_stage_tried_last_is_the_one_stuck_on_and_the_tries_kept_are_bounded(tmp_path: Path, keyed: None) -> None:
    class_, clock = named(tmp_path, "ana")
    for lesson in (FIRST, FIRST, FIRST, THIRD, THIRD, THIRD):
        clock.now += 1
        class_.tried("ana", lesson)
    found = stuck(class_)
    assert isinstance(found, dict) and found["stage"] == 3
    for _ in range(2 * TRIES_KEPT):
        class_.tried("ana", THIRD)
    row = class_.store.student("ana")
    assert row is not None and len(row.tries) == TRIES_KEPT and {lesson for lesson, _ in row.tries} == {THIRD}
    assert stuck(class_) == {"stage": 3, "text": mark("teacher.stuck", stage=3, count=TRIES_KEPT, minutes=10)}


def test_a_failed_try_of_no_stage_or_of_no_student_is_refused(tmp_path: Path) -> None:
    class_, _ = named(tmp_path, "ana")
    for bad in ("nowhere", None, 3, [FIRST]):
        with pytest.raises(ClassTableError) as refused:
            class_.tried("ana", bad)
        assert refused.value.key == "bad_try"
    with pytest.raises(ClassTableError) as refused:
        class_.tried("ghost", FIRST)
    assert refused.value.key == "unknown_student" and class_.count() == 1
    row = class_.store.student("ana")
    assert row is not None and row.tries == []


def test_the_games_cell_counts_matches_between_classmates_as_the_standings_do(tmp_path: Path, keyed: None) -> None:
    """A match a classmate left is counted by the tables (lost for who left, won for the other): the Games cell and
    the standings say the same, in the page and in the CSV; the hands are the pages' reports."""
    from leopard_tutor.server.referee import Referee
    from leopard_tutor.server.teacher import ClassPage

    class_, clock = named(tmp_path, "ana", "ben")
    tables = Referee(class_.store, clock=clock)
    page = ClassPage(class_, tables, "t" * 32)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    hand = tables.tables[code].match.current
    for number in range(4):
        tables.move(("ana", "ben")[hand.to_move], code, number, move_to_data(hand.legal_moves()[0]))
    assert class_.game("ana", "classmate", None, match(3), 1)  # a hand the page reported
    tables.end("ben", code, "left")
    report = page.report()
    cells = {row["cells"][0]["text"]: row["cells"][3]["text"] for row in report["students"]}
    joined = mark("teacher.games.joined")
    line = "teacher.games.line"
    assert cells == {
        "Ana": mark(line, opponent=mark("teacher.classmate"), counts=joined.join([
            mark("teacher.games.matches", matches=1, results=mark("teacher.games.won", count=1)),
            mark("teacher.games.hands", hands=1)])),
        "Ben": mark(line, opponent=mark("teacher.classmate"), counts=mark(
            "teacher.games.matches", matches=1, results=mark("teacher.games.lost", count=1)))}
    assert [(row["name"], row["played"], row["won"], row["lost"]) for row in report["standings"]["all"]] == [
        ("Ana", 1, 1, 0), ("Ben", 1, 0, 1)]
    sheet = list(csv.reader(io.StringIO("".join(page.csv_parts()))))
    assert [row[3] for row in sheet[1:3]] == [cells["Ana"], cells["Ben"]]


def test_asking_what_the_server_keeps_is_no_news_of_the_student(tmp_path: Path) -> None:
    """A page asks what the server keeps for its student at its start and every few seconds (whether the teacher
    unlocked the lessons): that moved "Last seen" on for a student idle on a lesson, while "Now" said their page had
    sent no news for minutes. A report (a tab, a click's news) still does."""
    class_, clock = named(tmp_path, "ana")
    seen = class_.store.student("ana").last_seen  # type: ignore[union-attr]
    clock.now += 300
    assert class_.me("ana")["name"] == "Ana"
    assert class_.store.student("ana").last_seen == seen  # type: ignore[union-attr]
    class_.now("ana", "learn", stage=1)
    assert class_.store.student("ana").last_seen == clock.now  # type: ignore[union-attr]
