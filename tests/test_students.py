"""Students' records without a server (`server/students.py` over the class store): progress codes merged, games
counted per opponent, what a student does, bounds, refusals that change nothing, the teacher's rows and their
CSV, unlocking, forgetting the class, and the migration of a version-1 file that keeps its tables."""

from __future__ import annotations

import csv
import io
import sqlite3
import threading
from pathlib import Path

import pytest
from fake_clock import Clock
from keyed import mark

from leopard_tutor.class_codes import ClassTableError
from leopard_tutor.engine.catalogue import entry
from leopard_tutor.engine.moves import move_to_data
from leopard_tutor.lessons import LESSONS
from leopard_tutor.lessons.progress import Progress
from leopard_tutor.server.class_store import DATABASE_NAME, MIGRATIONS, ClassStore, StudentRow
from leopard_tutor.server.sessions import SessionBook
from leopard_tutor.server.students import AWAY_SECONDS, LIVE_SECONDS, Students, student_id

NOW = 1_800_000_000.0


def code(stars: dict[str, int], practice: dict[str, tuple[int, int]] | None = None) -> str:
    progress = Progress()
    progress.stars, progress.practice = dict(stars), dict(practice or {})
    return progress.to_code()


def students(tmp_path: Path, limit: int = 30) -> tuple[Students, Clock]:
    clock = Clock(NOW)
    return Students(ClassStore.in_folder(tmp_path), limit=limit, clock=clock), clock


def everyone_connected(_visitor: str) -> bool:
    return True


def test_progress_codes_merge_best_stars_and_the_larger_practice_record(tmp_path: Path) -> None:
    class_, _ = students(tmp_path)
    assert class_.me("ana") == {"name": None, "progress": None, "unlock_all": False,
                                "defaults": {"rules": None, "level": None}}
    class_.progress("ana", code({"the-square": 3, "lines": 1}, {"jacks": (2, 3), "tens": (5, 0)}))
    class_.progress("ana", code({"the-square": 1, "lines": 2, "tens": 1}, {"jacks": (1, 1), "tens": (6, 4)}))
    kept = Progress.from_code(str(class_.me("ana")["progress"]))
    assert kept.stars == {"the-square": 3, "lines": 2, "tens": 1}
    assert kept.practice == {"jacks": (2, 3), "tens": (6, 4)}


@pytest.mark.parametrize("bad", ["", "LT2-!!!", "not a code", "LT2-" + "A" * 3000, 5, None])
def test_a_bad_code_is_refused_and_changes_nothing(tmp_path: Path, bad: object) -> None:
    class_, _ = students(tmp_path)
    class_.progress("ana", code({"the-square": 2}))
    before = class_.store.student("ana")
    with pytest.raises(ClassTableError) as refused:
        class_.progress("ana", bad)
    assert refused.value.key == "bad_progress"
    problem = refused.value.facts["problem"]  # a key, worded by whoever reads it in their own language
    assert isinstance(problem, str) and problem.startswith("sections.progress.") and isinstance(entry(problem), str)
    assert class_.store.student("ana") == before


def test_games_are_counted_per_opponent_and_anything_else_is_refused(tmp_path: Path) -> None:
    class_, _ = students(tmp_path)
    for against, result in (("computer:beginner", "won"), ("computer:beginner", "won"),
                            ("computer:expert", "lost"), ("classmate", "drawn")):
        class_.game("ana", against, result)
    row = class_.store.student("ana")
    assert row is not None and row.games == {"computer:beginner": {"won": 2, "drawn": 0, "lost": 0},
                                             "computer:expert": {"won": 0, "drawn": 0, "lost": 1},
                                             "classmate": {"won": 0, "drawn": 1, "lost": 0}}
    for against, result in (("computer:godlike", "won"), ("classmate", "tied"), ("a" * 5000, "won"), (1, 2)):
        with pytest.raises(ClassTableError, match="bad_game"):
            class_.game("ana", against, result)
    assert class_.store.student("ana") == row


def test_reports_at_once_and_the_teachers_unlocking_lose_nothing(tmp_path: Path) -> None:
    """A kernel reports from a thread of its own, beside the page's requests and the teacher's: every change is
    kept (each report reads, changes and writes its record as one step)."""
    class_, _ = students(tmp_path)
    class_.game("ana", "classmate", "won")
    start = threading.Barrier(5)

    def report(result: str) -> None:
        start.wait()
        for _ in range(40):
            class_.game("ana", "computer:beginner", result)
            class_.now("ana", "play")

    def unlock() -> None:
        start.wait()
        class_.unlock("all")

    threads = [threading.Thread(target=report, args=(result,)) for result in ("won", "drawn", "lost", "won")]
    threads.append(threading.Thread(target=unlock))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    row = class_.store.student("ana")
    assert row is not None and row.unlock_all
    assert row.games["computer:beginner"] == {"won": 80, "drawn": 40, "lost": 40}


def test_names_are_checked_and_the_row_stays_bounded(tmp_path: Path) -> None:
    class_, _ = students(tmp_path)
    class_.name("ana", "  Ana  ")
    assert class_.me("ana")["name"] == "Ana"
    for bad, key in (("x" * 25, "bad_name"), ("   ", "no_name"), (["Ana"], "bad_name")):
        with pytest.raises(ClassTableError) as refused:
            class_.name("ana", bad)
        assert refused.value.key == key
    for _ in range(200):  # many reports: one row, of the same size
        class_.now("ana", "practice")
        class_.game("ana", "classmate", "won")
        class_.progress("ana", code({"the-square": 3}, {"jacks": (1, 0)}))
    sizes = class_.store.db.execute(
        "SELECT COUNT(*), MAX(LENGTH(stars) + LENGTH(practice) + LENGTH(games) + LENGTH(doing)) FROM students"
    ).fetchone()
    assert sizes[0] == 1 and sizes[1] < 400


def test_at_most_the_limit_of_live_students(tmp_path: Path) -> None:
    class_, clock = students(tmp_path, limit=2)
    class_.me("ana")
    class_.me("ben")
    with pytest.raises(ClassTableError) as refused:
        class_.me("cy")
    assert refused.value.key == "class_full" and refused.value.facts == {"most": 2}
    assert class_.store.student("cy") is None
    class_.me("ana")  # a known student is always served
    clock.now += LIVE_SECONDS + 1
    class_.me("cy")  # the others are no longer live
    assert class_.store.student("cy") is not None


def test_what_a_student_does_and_when_they_are_away(tmp_path: Path, keyed: None) -> None:
    class_, clock = students(tmp_path)
    class_.name("ana", "Ana")
    class_.now("ana", "learn", 5)
    now = lambda connected=True: class_.rows(lambda v: connected)[0]["cells"][4]["text"]  # noqa: E731
    assert now() == mark("teacher.now.learn_stage", stage=5)
    class_.now("ana", "play", None, "Ben")
    assert now() == mark("teacher.now.playing", name="Ben")
    class_.now("ana", "practice")
    assert now() == mark("teacher.now.practice") and now(False) == mark("teacher.now.away", minutes=0)
    clock.now += AWAY_SECONDS + 180
    assert now() == mark("teacher.now.away", minutes=5)
    for bad in (("sleep", None, None), ("learn", 0, None), ("learn", len(LESSONS) + 1, None),
                ("learn", True, None), ("play", None, "<" * 30)):
        with pytest.raises(ClassTableError, match="bad_doing"):
            class_.now("ana", *bad)


def test_the_teachers_rows_and_the_csv_hold_the_same_cells(tmp_path: Path, keyed: None) -> None:
    class_, _ = students(tmp_path)
    class_.name("ana", "<img src=x onerror=f()>")
    class_.progress("ana", code({"the-square": 3, "aces-to-nines": 2}, {"jacks": (1, 3), "tens": (9, 1)}))
    class_.game("ana", "computer:casual", "won")
    class_.me("ben")
    rows = class_.rows(everyone_connected)
    assert [row["id"] for row in rows] == [student_id("ana"), student_id("ben")]
    ana = [cell["text"] for cell in rows[0]["cells"]]
    practice = [mark("teacher.practice", concept=mark(f"lessons.practice.concepts.{concept}"), share=share,
                     answers=answers) for concept, share, answers in (("jacks", 25, 4), ("tens", 90, 10))]
    assert ana[:4] == ["<img src=x onerror=f()>", mark("teacher.lessons", done=2, total=len(LESSONS), stars=5),
                       mark("teacher.separator").join(practice),
                       mark("teacher.games", opponent=mark("levels.names.casual"), won=1, drawn=0, lost=0)]
    assert [cell["text"] for cell in rows[1]["cells"]][:4] == [
        mark("teacher.no_name"), mark("teacher.lessons", done=0, total=len(LESSONS), stars=0),
        mark("teacher.nothing_yet"), mark("teacher.nothing_yet")]
    table = list(csv.reader(io.StringIO(class_.csv(everyone_connected))))
    assert table[0] == [mark(f"teacher.columns.{column}")
                        for column in ("name", "lessons", "practice", "games", "now", "last_seen")]
    assert table[1:] == [[cell["text"] for cell in row["cells"]] for row in rows]
    class_.name("ben", "=HYPERLINK(0)")  # shown as typed, but no spreadsheet takes it for a formula
    assert class_.rows(everyone_connected)[1]["cells"][0]["text"] == "=HYPERLINK(0)"
    assert list(csv.reader(io.StringIO(class_.csv(everyone_connected))))[2][0] == "'=HYPERLINK(0)"


def test_unlock_one_student_or_the_class_and_forget_the_class(tmp_path: Path) -> None:
    class_, _ = students(tmp_path)
    for visitor in ("ana", "ben", "cy"):
        class_.me(visitor)
    assert class_.unlock(student_id("ben")) == 1 and class_.unlock("nobody") == 0
    assert [class_.me(v)["unlock_all"] for v in ("ana", "ben", "cy")] == [False, True, False]
    assert class_.unlock("all") == 3
    assert all(class_.me(v)["unlock_all"] for v in ("ana", "ben", "cy"))
    assert class_.forget() == 3
    assert class_.store.students() == [] and class_.rows(everyone_connected) == []


def test_the_class_defaults_are_checked(tmp_path: Path) -> None:
    class_, _ = students(tmp_path)
    class_.set_defaults("RUNNING_LEOPARD", "adaptive")
    assert class_.me("ana")["defaults"] == {"rules": "RUNNING_LEOPARD", "level": "adaptive"}
    with pytest.raises(ValueError):
        class_.set_defaults("HOUSE_RULES", None)
    assert class_.defaults() == {"rules": "RUNNING_LEOPARD", "level": "adaptive"}
    class_.set_defaults(None, None)
    assert class_.defaults() == {"rules": None, "level": None}


def test_a_version_1_file_is_migrated_and_keeps_its_tables_and_students(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / DATABASE_NAME) as db:
        for statement in MIGRATIONS[0]:
            db.execute(statement)
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (1)")
        db.execute("INSERT INTO students VALUES ('ana', 'Ana', 5.0)")
        db.execute("INSERT INTO tables (code, rules, hands, seed, visitor0, name0, opened) "
                   "VALUES ('KRTQ', 'REVISED_2008', 3, 's', 'ana', 'Ana', 5.0)")
    store = ClassStore.in_folder(tmp_path)
    assert store.version == 2
    assert store.students() == [StudentRow("ana", "Ana", 5.0)]
    assert store.table("KRTQ") is not None
    store.close()
    restarted = Students(ClassStore.in_folder(tmp_path), clock=Clock(NOW))  # the records outlive a restart
    assert restarted.me("ana")["name"] == "Ana"


def test_the_session_book_says_which_visitors_have_a_page_connected() -> None:
    book = SessionBook()
    book.hand_out("k1", "ana")
    book.hand_out("k2", "ben")
    assert book.socket_opened("k1", 2)
    assert book.connected_visitors() == {"ana"}


def test_watching_a_table_shows_what_a_spectator_may_see_and_never_a_hand(tmp_path: Path, keyed: None) -> None:
    from leopard_tutor.server.class_tables import ClassTables
    from leopard_tutor.server.teacher import ClassPage

    store = ClassStore.in_folder(tmp_path)
    tables = ClassTables(store, clock=Clock(NOW))
    code = tables.open("ana", "Ana")
    page = ClassPage(Students(store, clock=Clock(NOW)), tables, "t" * 32)
    assert page.watch(code)["waiting"] == mark("teacher.watch.waiting", code=code)
    assert page.report()["tables"] == [{"code": code, "names": ["Ana"]}]
    tables.join("ben", "Ben", code)
    view = page.watch(code)
    assert [square["title"] for square in view["squares"]] == [mark("teacher.watch.square", name=name, value=0)
                                                               for name in ("Ana", "Ben")]
    assert all(space["top"] is None for square in view["squares"] for space in square["spaces"])
    hand = tables.tables[code].match.current
    for number in range(12):  # some cards laid, face up and maybe face down
        tables.move(("ana", "ben")[hand.to_move], code, number, move_to_data(hand.legal_moves()[0]))
    view = page.watch(code)
    assert mark("teacher.watch.stock", count=hand.stock_size) in view["lines"]
    assert mark("teacher.watch.hand", name="Ana", count=len(hand.hands[0])) in view["lines"]
    assert any(space["top"] for square in view["squares"] for space in square["spaces"])
    assert set(view) == {"code", "names", "squares", "lines"}  # no hand among them
    for square, shown in zip(hand.squares, view["squares"]):  # a face-up card by name, a face-down one unnamed
        for space in shown["spaces"]:
            top = square.top(space["space"])
            assert space["top"] == (None if top is None else str(top[0]) if top[1] else mark("teacher.watch.face_down"))
            assert space["pile"] == len(square.pile(space["space"]))
    assert page.watch("ZZZZ") == {"code": "ZZZZ", "gone": mark("teacher.watch.gone", code="ZZZZ")}


def test_a_watched_square_is_drawn_as_its_rule_set_draws_it(tmp_path: Path) -> None:
    from leopard_tutor.server.class_tables import ClassTables
    from leopard_tutor.server.teacher import ClassPage

    store = ClassStore.in_folder(tmp_path)
    tables = ClassTables(store, clock=Clock(NOW))
    page = ClassPage(Students(store, clock=Clock(NOW)), tables, "t" * 32)
    for visitors, rules, drawn in ((("ana", "ben"), "ORIGINAL_1963", [7, 8, 9, 4, 5, 6, 1, 2, 3]),
                                   (("cy", "di"), "REVISED_2008", list(range(1, 10)))):
        code = tables.open(visitors[0], "Ana", rules)
        tables.join(visitors[1], "Ben", code)
        for square in page.watch(code)["squares"]:
            assert [space["space"] for space in square["spaces"]] == drawn, rules
