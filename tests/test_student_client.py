"""The kernel side of the students' records (issue 20): the name in the header, and the reports of what was earned
here, matches (with their ids) and what the student is doing, against a fake server in this process (it answers the
contract's shapes, and proves nothing about the real server: tests of `server/student_handlers.py` do that), and
against the server's own records in this process: progress brought from the browser never reaches the class page, a
match resumed and won again counts once, and after the class is forgotten an open page asks for the name again."""

from __future__ import annotations

import asyncio
import html
import json
import logging
import random
import threading
import time
from collections.abc import Collection, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from keyed import keys_in, said
from test_widgets_play_section import Discarder

from leopard_tutor import app, class_member
from leopard_tutor.ai import LEVELS
from leopard_tutor.class_codes import ClassTableError, valid_name
from leopard_tutor.client.class_client import ClassRefused
from leopard_tutor.client.student_client import Reports, StudentClient, StudentRecord, match_id
from leopard_tutor.engine import RULE_SETS, Match
from leopard_tutor.engine.catalogue import text, texts
from leopard_tutor.engine.game_code import GameCodeError, game_code, read_game_code
from leopard_tutor.engine.match import RESULTS
from leopard_tutor.lessons import LESSONS, Progress, kernel_progress
from leopard_tutor.lessons.progress import CONCEPTS, MAX_COUNT
from leopard_tutor.protocol import (
    CLASS_TABLES_ENV,
    CODE_KEY_ENV,
    KERNEL_HEADER,
    PROOF_HEADER,
    code_key,
    proof_holds,
)
from leopard_tutor.server.class_store import ClassStore
from leopard_tutor.server.students import Presence, Students
from leopard_tutor.table import against_computer
from leopard_tutor.table.class_table import ClassTable
from leopard_tutor.widgets import PlaySection
from leopard_tutor.widgets.name_keys import NameKeys
from leopard_tutor.widgets.student_bar import OFFERED_MARK, StudentBar, generated_name, kept_text, read_kept

KEY = b"connection-key"


class FakeLink:
    """A `StudentClient` without a server: `me()` answers `said` (or raises), each report is recorded (or raises)."""

    def __init__(self, said: object = None, *, failing: bool = False) -> None:
        self.said = said if said is not None else {"name": None, "progress": None, "unlock_all": False,
                                                   "defaults": {"rules": None, "level": None}}
        self.failing = failing
        self.told: list[tuple[str, dict[str, Any]]] = []

    def me(self) -> Any:
        if self.failing:
            raise ClassRefused("unreachable")
        return self.said

    def tell(self, action: str, body: dict[str, Any]) -> None:
        if self.failing:
            raise ClassRefused("unreachable")
        self.told.append((action, body))


def page_restores(bar_or_app: Any, value: str) -> None:
    """What the page sends once it has read the browser's storage."""
    bar_or_app.storage._on_page_msg(bar_or_app.storage, {"type": "restore", "value": value}, [])


@pytest.fixture(autouse=True)
def fresh_progress() -> Iterator[None]:
    from leopard_tutor.lessons import progress as module

    module._KERNEL_PROGRESS.clear()
    yield
    module._KERNEL_PROGRESS.clear()


def one_hand_play(class_client: Any = None) -> PlaySection:
    """A Play section against a discarding computer, a match of one hand (with a `class_client`, classmates too)."""
    table = against_computer(Discarder(), seed=11, hands=1, background=False)
    return PlaySection(table, Discarder, "beginner", class_client=class_client)


def finish_match(play: PlaySection) -> None:
    """Discard until the match is over (between two people here, showing each one's hand in turn)."""
    for _ in range(1_000):
        if play.controller.match.is_over:
            return
        if any(action["id"] == "show_hand" for action in play.board.state["actions"]):
            play.board.dispatch({"type": "action", "id": "show_hand"})
        play.board.dispatch({"type": "select", "index": 0})
        play.board.dispatch({"type": "discard"})
    raise AssertionError("the match did not end")


JOINED: list[app.TutorApp] = []
"""The apps `joined` made in the test running (their questions to the server stop when it ends)."""


@pytest.fixture(autouse=True)
def no_questions_left() -> Iterator[None]:
    """A test's apps stop asking the server whether lessons are unlocked when it ends (none asks into the next)."""
    yield
    for tutor in JOINED:
        if tutor.member is not None:
            tutor.member.stop_following()
            if tutor.member.unlock_check is not None:
                tutor.member.unlock_check.join(5)
    JOINED.clear()


def joined(link: FakeLink, sections: list[tuple[str, Any]] | None = None, query: str = "") -> app.TutorApp:
    """The app on a class server whose student link is `link`, set up by a link's `query`."""
    tutor = app.build_app(sections)
    tutor.join_class(link)  # type: ignore[arg-type]
    tutor.follow_link(query)
    JOINED.append(tutor)
    return tutor


def bar_of(tutor: app.TutorApp) -> StudentBar:
    found = [part for part in tutor.head.children if isinstance(part, StudentBar)]
    assert len(found) == 1
    return found[0]


def sent(tutor: app.TutorApp) -> list[tuple[str, dict[str, Any]]]:
    assert tutor.member is not None and tutor.member.record.reports.flush(5)
    link: FakeLink = tutor.member.record.client  # type: ignore[assignment]
    return link.told


def shown(widget: Any) -> bool:
    return bool(widget.layout.display != "none")


# -- the name ---------------------------------------------------------------------------------------
def test_no_name_box_without_a_class_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CLASS_TABLES_ENV, raising=False)
    assert StudentClient.here() is None
    tutor = app.build_app()
    tutor.join_class(StudentClient.here())
    assert tutor.member is None and not any(isinstance(part, StudentBar) for part in tutor.head.children)


def test_every_generated_name_is_two_catalogue_words_and_a_valid_name() -> None:
    adjectives, animals = texts("students.adjectives").values(), texts("students.animals").values()
    for adjective, animal in product(adjectives, animals):
        picks = iter([adjective, animal])
        name = generated_name(lambda _words, picks=picks: next(picks))  # type: ignore[misc]
        assert name == f"{adjective} {animal}" and valid_name(name) == name
    assert len(generated_name().split()) == 2


def test_a_first_visit_is_offered_a_name_which_is_given_with_its_first_progress() -> None:
    """"You are NAME" and "Change", nothing sent while the student only looks around; their first stage solved
    gives the offered name, then what was held back; from then on it is the name kept."""
    tutor = joined(FakeLink())
    bar = bar_of(tutor)
    assert not shown(bar.box) and not shown(bar.lead), "nothing before the browser said what it keeps"
    named: list[str] = []
    bar.named_listeners.append(named.append)
    tutor.tabs.selected_index = 1  # looking around is not worth a record
    page_restores(bar, "")
    offered = bar.box.value
    assert len(offered.split()) == 2 and offered in bar.shown.value and bar.lead.value == "You are"
    assert shown(bar.lead) and shown(bar.change_button) and shown(bar.keep_button) and not shown(bar.box)
    assert "lt-offered" in bar._dom_classes  # on a phone it takes a row of its own, as the name box does
    assert tutor.member is not None and tutor.member.record.name is None and tutor.member.record.offered == offered
    assert sent(tutor) == [] and bar.storage.saved == kept_text(offered, OFFERED_MARK), "kept, as only offered"
    kernel_progress().record_lesson(LESSONS[0].key, 2)
    told = sent(tutor)
    assert [action for action, _ in told] == ["name", "progress", "now"]
    assert told[0][1] == {"name": offered}
    assert told[1][1] == {"stars": {LESSONS[0].key: 2}, "practice": {}}
    assert told[2][1] == {"doing": "learn", "stage": 1, "with": None}
    assert tutor.member.record.name == offered and bar.storage.saved == offered and named == [offered]
    assert offered in bar.shown.value and not shown(bar.lead) and shown(bar.change_button)
    assert not shown(bar.keep_button) and "lt-offered" not in bar._dom_classes


def test_the_offered_name_is_kept_at_once_by_keep() -> None:
    tutor = joined(FakeLink())
    bar = bar_of(tutor)
    page_restores(bar, "")
    offered = bar.box.value
    assert sent(tutor) == []
    bar.keep_button.click()
    assert sent(tutor)[0] == ("name", {"name": offered}) and bar.storage.saved == offered
    assert tutor.member is not None and tutor.member.record.name == offered
    assert not shown(bar.lead) and not shown(bar.keep_button) and "lt-offered" not in bar._dom_classes


def test_a_name_typed_over_the_offered_one_is_kept_at_keep_and_at_enter() -> None:
    tutor = joined(FakeLink())
    bar = bar_of(tutor)
    page_restores(bar, "")
    bar.change_button.click()
    assert shown(bar.box) and shown(bar.keep_button) and bar.box.description == "Your name"
    bar.box.value = "  Ana   Lima "  # the box's value changes at Enter (continuous_update is off)
    assert bar.storage.saved == "Ana Lima" and "Ana Lima" in bar.shown.value and not shown(bar.box)
    assert not shown(bar.lead) and tutor.member is not None and tutor.member.record.offered is None
    bar.change_button.click()
    assert bar.box.value == "Ana Lima" and [report for report in sent(tutor) if report[0] == "name"] == [
        ("name", {"name": "Ana Lima"})], (
        "the box filled by the page keeps nothing")
    bar.box.value = "Ana L"
    assert bar.storage.saved == "Ana L" and [body for action, body in sent(tutor) if action == "name"][-1] == {
        "name": "Ana L"}
    bar.change_button.click()
    bar.box.value = "x" * 25  # refused at Enter as at Keep
    assert shown(bar.box) and shown(bar.note) and tutor.member.record.name == "Ana L" and bar.storage.saved == "Ana L"


def test_escape_in_the_box_drops_the_edit_and_a_name_kept_is_said() -> None:
    tutor = joined(FakeLink())
    bar = bar_of(tutor)
    page_restores(bar, "")
    offered = bar.box.value
    keys = next(part for part in bar.children if isinstance(part, NameKeys))
    bar.change_button.click()
    keys._on_page_msg(keys, {"type": "escape"}, [])  # the page's Escape in the box
    assert not shown(bar.box) and shown(bar.lead) and shown(bar.change_button) and offered in bar.shown.value
    assert tutor.member is not None and tutor.member.record.name is None and bar.said.value == ""
    bar.change_button.click()
    bar.box.value = "Ana Lima"  # Enter, or Tab out of the box
    assert bar.said.value == text("students.kept_said", name="Ana Lima")
    bar.change_button.click()
    assert bar.said.value == "", "no longer so while the box asks"
    bar.box.value = "x" * 25
    assert shown(bar.note)
    keys._on_page_msg(keys, {"type": "escape"}, [])
    assert not shown(bar.box) and not shown(bar.note) and not shown(bar.lead) and "Ana Lima" in bar.shown.value
    assert bar.box.value == "Ana Lima" and bar.storage.saved == "Ana Lima"
    assert [body for action, body in sent(tutor) if action == "name"] == [{"name": "Ana Lima"}]
    bar.change_button.click()
    bar.box.value = "Ana"
    assert bar.said.value == text("students.kept_said", name="Ana")
    assert bar.keep("Rowan")  # kept elsewhere (the name a class table opens under): "now Ana" is no longer so
    assert "Rowan" in bar.shown.value and bar.said.value == ""


def test_an_offered_name_is_given_with_a_finished_match() -> None:
    tutor = joined(FakeLink(), [("play", one_hand_play)])
    bar = bar_of(tutor)
    page_restores(bar, "")
    offered = bar.box.value
    play = tutor.built[0]
    play.board.dispatch({"type": "select", "index": 0})  # clicks only: nothing worth a record yet
    assert sent(tutor) == []
    finish_match(play)
    told = sent(tutor)
    games = [body for action, body in told if action == "game"]
    assert told[0] == ("name", {"name": offered})
    assert [body.get("hand") for body in games if body.get("result") is None] == [1], "its one hand, once"
    assert len([body for body in games if body.get("result") is not None]) == 1, "the match, once"
    assert bar.storage.saved == offered


def test_the_sections_are_shown_once_the_page_has_said_what_the_browser_keeps(keyed: None) -> None:
    """Play's pointer to Learn and a first visit's name come with the page's word of what the browser keeps: until
    then the tabs and sections are held unseen (`lt-settling`), so that the board is never first shown where a row
    coming above it pushes it down; a bar drawn again (another language) holds them again until its page says."""
    tutor = joined(FakeLink())
    for restore in (page_restores, lambda app, value: page_restores(bar_of(app), value),
                    lambda app, value: page_restores(app.built[0].keeper, value)):
        assert "lt-settling" in tutor._dom_classes
        restore(tutor, "")
    assert "lt-settling" in tutor._dom_classes, "the language is still to be said"
    tutor.page_language.restore("")
    assert "lt-settling" not in tutor._dom_classes
    assert isinstance(tutor.built[0], PlaySection) and tutor.built[0].newcomer.shown
    tutor.use_language("es")
    assert "lt-settling" in tutor._dom_classes, "a new bar: its name is still to be said"
    page_restores(bar_of(tutor), "")
    assert "lt-settling" in tutor._dom_classes, "Play drawn again: the matches it keeps are still to be said"
    page_restores(tutor.built[0].keeper, "")
    assert "lt-settling" not in tutor._dom_classes


def test_play_is_shown_once_the_match_the_browser_kept_has_taken_the_place_of_the_one_dealt(keyed: None) -> None:
    """A reload: Play deals a match while the page has not yet given back the one the browser kept. Until it has,
    the sections are held unseen (a click went to the match dealt, about to give way); then the kept match is on the
    board. With Learn shown, Play's matches hold nothing up."""
    first = joined(FakeLink(), [("play", one_hand_play)])
    play = first.built[0]
    play.board.dispatch({"type": "select", "index": 0})
    play.board.dispatch({"type": "discard"})
    kept = play.keeper.kept_text()
    assert kept
    again = joined(FakeLink(), [("play", one_hand_play)])
    for storage in (again.storage, bar_of(again).storage):
        storage._on_page_msg(storage, {"type": "restore", "value": ""}, [])
    again.page_language.restore("")
    assert "lt-settling" in again._dom_classes, "Play's kept match is still to come"
    storage = again.built[0].keeper.storage  # the tab's own matches, given back by its reload
    storage._on_page_msg(storage, {"type": "restore", "value": kept, "tab": True}, [])
    assert "lt-settling" not in again._dom_classes
    assert again.built[0].controller.match.to_json() == play.controller.match.to_json()
    on_learn = joined(FakeLink(), [("play", one_hand_play), ("learn", "leopard_tutor.widgets.learn:build_learn")])
    on_learn.tabs.selected_index = 1
    for storage in (on_learn.storage, bar_of(on_learn).storage):
        storage._on_page_msg(storage, {"type": "restore", "value": ""}, [])
    on_learn.page_language.restore("")
    assert isinstance(on_learn.built[0], PlaySection) and not on_learn.built[0].keeper.storage.restored
    assert "lt-settling" not in on_learn._dom_classes


def test_an_untouched_visit_leaves_no_row_and_a_first_answer_makes_the_offered_name_its_row(tmp_path: Path) -> None:
    students = Students(ClassStore.in_folder(tmp_path))
    tutor = app.build_app([("play", one_hand_play), ("learn", "leopard_tutor.widgets.learn:build_learn")])
    tutor.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
    tutor.follow_link("")
    bar = bar_of(tutor)
    page_restores(bar, "")
    tutor.tabs.selected_index = 1
    tutor.tabs.selected_index = 0
    assert tutor.member is not None and tutor.member.record.reports.flush(5)
    assert students.count() == 0 and students.rows(Presence(lambda _visitor: True)) == [], "a visit that did nothing"
    kernel_progress().record_practice("tens", True)
    assert tutor.member.record.reports.flush(5)
    assert [row["cells"][0]["text"] for row in students.rows(Presence(lambda _visitor: True))] == [bar.box.value]
    row = students.store.student("ana")
    assert row is not None and row.practice == {"tens": [1, 0]}


def test_a_bad_name_is_answered_and_changes_nothing(keyed: None) -> None:
    tutor = joined(FakeLink())
    bar = bar_of(tutor)
    page_restores(bar, "")
    assert bar.keep("Ana")
    for bad, why in (("x" * 25, "name_too_long"), ("   ", "no_name"), ("Ana\x07", "name_unprintable")):
        bar.ask()
        assert not bar.keep(bad)
        assert shown(bar.note) and keys_in(bar.note.value) == [f"classmates.refused.{why}"], (bad, bar.note.value)
        assert tutor.member is not None and tutor.member.record.name == "Ana" and bar.storage.saved == "Ana"
    assert [body for action, body in sent(tutor) if action == "name"] == [{"name": "Ana"}]
    assert bar.keep("<img src=x onerror=alert(1)>"[:24])
    assert "<img" not in bar.shown.value and not shown(bar.note)


def with_classmate_box(kept: str) -> tuple[Any, Any, StudentBar]:
    """The app on a class server with Play's classmate name box (and nothing else of the panel), once the browser
    has given back the name it keeps (`kept`, "" on a first visit): the app, Play and the header's bar."""
    tutor = app.build_app()
    play = tutor.built[0]
    play.classmates = type("Panel", (), {"name": type("Box", (), {"value": ""})()})()  # the classmate name box
    tutor.join_class(FakeLink())  # type: ignore[arg-type]
    bar = bar_of(tutor)
    page_restores(bar, kept)
    return tutor, play, bar


def test_a_kept_name_comes_back_is_changed_and_fills_the_classmate_box() -> None:
    tutor, play, bar = with_classmate_box("Quiet Otter")
    assert not shown(bar.box) and "Quiet Otter" in bar.shown.value and play.classmates.name.value == "Quiet Otter"
    bar.change_button.click()
    assert shown(bar.box) and bar.box.value == "Quiet Otter"
    assert bar.keep("Ana")
    assert play.classmates.name.value == "Ana", "the box held the old name: it follows"
    play.classmates.name.value = "Ana at home"
    assert bar.keep("Ana L")
    assert play.classmates.name.value == "Ana at home", "a name typed there stays"
    names = [body["name"] for action, body in sent(tutor) if action == "name"]
    assert names[-1] == "Ana L" and set(names) <= {"Quiet Otter", "Ana", "Ana L"}, "names not yet sent coalesce"


def test_the_offered_name_fills_the_classmate_box_so_a_table_opens_under_it() -> None:
    tutor, play, bar = with_classmate_box("")  # a first visit: "You are NAME", not yet given to the server
    offered = bar.box.value
    assert tutor.member is not None and tutor.member.record.name is None
    assert play.classmates.name.value == offered, "the header's name is the one a table opens under"
    assert bar.keep("Ana") and play.classmates.name.value == "Ana"


def test_the_name_a_table_is_opened_under_becomes_the_students_one_name() -> None:
    """Typed in the classmate box, then a table opened or joined under it: the header shows it and the server's
    record (the class page, the standings) has it, so the table and the class page speak of the same student."""
    tutor, play, bar = with_classmate_box("Quiet Otter")
    play.classmates.name.value = "Alice"
    play._table_named("Alice")  # what the panel tells once the table took the name
    assert tutor.member is not None and tutor.member.record.name == "Alice" and "Alice" in bar.shown.value
    assert [body["name"] for action, body in sent(tutor) if action == "name"][-1] == "Alice"
    told = len(sent(tutor))
    play._table_named("Alice")  # the same name again: nothing more to tell
    assert len(sent(tutor)) == told


def test_the_servers_name_is_kept_when_the_browser_has_none() -> None:
    tutor = joined(FakeLink({"name": "Ben", "progress": None, "unlock_all": False, "defaults": {}}))
    bar = bar_of(tutor)
    assert "Ben" in bar.shown.value and shown(bar.change_button)
    page_restores(bar, "")
    assert bar.storage.saved == "Ben"
    kernel_progress().record_practice("tens", True)
    assert [action for action, _ in sent(tutor)] == ["now", "progress"], "named already: the name is not sent again"


# -- what the server keeps, read at start --------------------------------------------------------------
def test_the_servers_record_defaults_and_unlocking_are_applied() -> None:
    kept = Progress()
    kept.record_lesson(LESSONS[0].key, 3)
    kept.record_practice("lines", True)
    said = {"name": "Ana", "progress": kept.to_code(), "unlock_all": True,
            "defaults": {"rules": "1963", "level": "expert"}}
    tutor = joined(FakeLink(said))
    progress = kernel_progress()
    assert progress.stars == {LESSONS[0].key: 3} and progress.is_unlocked(LESSONS[-1].key)
    play = tutor.built[0]
    assert play.rules_pick.value == "ORIGINAL_1963" and play.level_pick.value == "expert"
    browser = Progress()
    browser.record_lesson(LESSONS[1].key, 1)
    page_restores(tutor, browser.to_code())  # the browser's progress comes later: both are kept
    assert progress.stars == {LESSONS[0].key: 3, LESSONS[1].key: 1} and progress.practice == {"lines": (1, 0)}


def test_an_unlocking_after_the_start_is_followed_when_learn_is_shown() -> None:
    link = FakeLink()
    tutor = joined(link)
    progress = kernel_progress()
    assert not progress.is_unlocked(LESSONS[-1].key) and tutor.member.unlock_check is None
    link.said = {**link.said, "unlock_all": True}  # the teacher unlocks the class while the page is open
    tutor.tabs.selected_index = [name for name, _ in tutor.sections].index("learn")
    assert tutor.member.unlock_check is not None
    asked = tutor.member.unlock_check
    asked.join(5)
    assert progress.is_unlocked(LESSONS[-1].key)
    tutor.tabs.selected_index = 0
    tutor.tabs.selected_index = [name for name, _ in tutor.sections].index("learn")
    assert tutor.member.unlock_check is asked, "nothing left to ask once every stage is open"


def test_an_unlocking_while_learn_is_open_reaches_it_and_its_next_stage_button(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The page stays on Learn while the teacher unlocks: it asks again every `UNLOCK_POLL_SECONDS`, opens every
    stage once told, and the board's Next stage is offered; leaving Learn stops the asking."""
    monkeypatch.setattr(class_member, "UNLOCK_POLL_SECONDS", 0.02)
    link = FakeLink()
    tutor = joined(link)
    learn = [name for name, _ in tutor.sections].index("learn")
    tutor.tabs.selected_index = learn
    first = tutor.member.unlock_check
    assert first is not None and first.is_alive()
    time.sleep(0.1)
    assert first.is_alive() and not kernel_progress().is_unlocked(LESSONS[-1].key), "asked again, still locked"
    tutor.tabs.selected_index = 0  # Learn left: the asking stops
    first.join(5)
    assert not first.is_alive() and not kernel_progress().is_unlocked(LESSONS[-1].key)

    def next_stage() -> dict[str, Any]:
        return next(part for part in tutor.built[learn].board.state["actions"] if part["id"] == "next")

    tutor.tabs.selected_index = learn
    asking = tutor.member.unlock_check
    assert asking is not None and asking is not first and asking.is_alive()
    assert not next_stage()["enabled"] and next_stage()["note"] == text("sections.learn.next_locked")
    link.failing = True  # the server cannot say for a while: the asking stops until Learn is shown again
    asking.join(5)
    assert not asking.is_alive() and not kernel_progress().is_unlocked(LESSONS[-1].key)
    link.failing = False
    tutor.tabs.selected_index = 0
    tutor.tabs.selected_index = learn
    asking = tutor.member.unlock_check
    assert asking is not None and asking.is_alive()
    link.said = {**link.said, "unlock_all": True}  # the teacher unlocks the class while Learn is open
    asking.join(5)
    assert not asking.is_alive() and kernel_progress().is_unlocked(LESSONS[-1].key)
    assert next_stage()["enabled"] and next_stage()["note"] == "", "the board follows the progress at once"


def test_leaving_learn_stops_the_asking_at_once() -> None:
    """Learn left while the page waits to ask again: the asking ends then, not when it would next have asked."""
    tutor = joined(FakeLink())
    tutor.tabs.selected_index = [name for name, _ in tutor.sections].index("learn")
    asking = tutor.member.unlock_check  # type: ignore[union-attr]
    assert asking is not None and asking.is_alive()
    time.sleep(0.2)  # it has asked once and waits `UNLOCK_POLL_SECONDS` (10 s) to ask again
    tutor.tabs.selected_index = 0
    asking.join(1)
    assert not asking.is_alive()


def test_a_teachers_link_wins_over_the_class_defaults() -> None:
    said = {"name": None, "progress": "LT2-damaged", "unlock_all": False,
            "defaults": {"rules": "1963", "level": "nobody"}}
    tutor = joined(FakeLink(said), query="rules=running")
    play = tutor.built[0]
    assert play.rules_pick.value == "RUNNING_LEOPARD" and play.level_pick.value == "beginner"
    assert not kernel_progress().stars and not kernel_progress().is_unlocked(LESSONS[-1].key)
    assert tutor.link_note.value == "", "the class's own defaults are not a link's to explain"


def test_merging_a_progress_code_keeps_the_better_of_each() -> None:
    mine, theirs = Progress(), Progress()
    mine.record_lesson(LESSONS[0].key, 1)
    theirs.record_lesson(LESSONS[0].key, 3)
    theirs.record_lesson(LESSONS[1].key, 1)
    mine.record_practice("tens", True)
    mine.record_practice("tens", True)
    theirs.record_practice("tens", False)
    theirs.record_practice("jacks", True)
    told: list[None] = []
    mine.listeners.append(lambda: told.append(None))
    assert mine.merge_code(theirs.to_code())
    assert mine.stars == {LESSONS[0].key: 3, LESSONS[1].key: 1}
    assert mine.practice == {"tens": (2, 0), "jacks": (1, 0)} and len(told) == 1
    assert not mine.merge_code(theirs.to_code()) and len(told) == 1, "nothing new: nobody is told"


# -- reports ---------------------------------------------------------------------------------------
def test_a_match_over_is_reported_once_with_the_result_from_the_learners_seat() -> None:
    tutor = joined(FakeLink({"name": "Ana"}), [("play", one_hand_play)])
    play = tutor.built[0]
    finish_match(play)
    for _ in range(3):  # more clicks on a finished match tell nothing more
        play.board.dispatch({"type": "select", "index": 0})
    games = [body for action, body in sent(tutor) if action == "game"]
    match = play.controller.match
    result = "drawn" if match.winner is None else "won" if match.winner == 0 else "lost"
    assert games == [{"against": "computer:beginner", "match": match_id(match), "hand": 1},
                     {"against": "computer:beginner", "match": match_id(match), "result": result}]
    play.new_button.click()
    finish_match(play)
    assert len([body for action, body in sent(tutor) if action == "game"]) == 4


def test_a_classmate_is_named_while_played_and_the_match_left_to_the_tables_to_count() -> None:
    tutor = joined(FakeLink({"name": "Ben"}),
                   [("play", lambda: one_hand_play(class_client=object())),
                    ("learn", "leopard_tutor.widgets.learn:build_learn")])
    play = tutor.built[0]
    table = ClassTable(1, ["Ana", "Ben"], lambda _number, _move: None, seed="ABC", hands=1)
    play._seat(table)
    tutor.tabs.selected_index = 1
    tutor.tabs.selected_index = 0
    assert [body for action, body in sent(tutor) if action == "now"][-1] == {"doing": "play", "stage": None,
                                                                            "with": "Ana"}
    match = table.match
    match.__class__ = type("Ended", (type(match),), {"is_over": True, "winner": 1})  # won by the learner's seat
    assert play.classmates is not None
    play.classmates._refresh()  # the classmate's last move, seen by the panel's watch on the server
    play.classmates._refresh()
    play.board.dispatch({"type": "select", "index": 0})  # a click after it tells nothing more
    assert play.board.state["error"] == ""
    assert [body for action, body in sent(tutor) if action == "game"] == [], "the class's tables count it"
    with pytest.raises(ValueError):  # nor may a page claim one
        tutor.member.record.game("classmate", "won", match)  # type: ignore[union-attr]


def test_sitting_at_a_class_table_under_the_offered_name_gives_it_and_what_the_student_does() -> None:
    """A classmate sees the name the header offered: the student's record is made with it, and the class page hears
    that they play (not "away")."""
    tutor = joined(FakeLink(), [("play", lambda: one_hand_play(class_client=object())),
                                ("learn", "leopard_tutor.widgets.learn:build_learn")])
    bar = bar_of(tutor)
    page_restores(bar, "")
    offered = bar.box.value
    assert sent(tutor) == [], "looking around is not worth a record"
    play = tutor.built[0]
    play._seat_class_table(ClassTable(0, [offered, "Ben"], lambda _number, _move: None, seed="ABC", hands=1))
    tutor._report_now()
    told = sent(tutor)
    assert told[0] == ("name", {"name": offered})
    assert ("now", {"doing": "play", "stage": None, "with": "Ben"}) in told


def test_matches_between_two_people_here_are_not_reported() -> None:
    tutor = joined(FakeLink({"name": "Ana"}), [("play", one_hand_play)])
    play = tutor.built[0]
    play.level_pick.value = "people"
    play.controller.hands_per_match = 1
    finish_match(play)
    assert not [body for action, body in sent(tutor) if action == "game"]


def test_the_match_against_the_computer_under_way_is_told_whichever_tab_is_shown() -> None:
    """What the student does carries the id of the match against the computer under way on Play's board (a round the
    teacher pairs sets it aside, and the class page says so for the round's own match), on every tab: none before the
    learner's first move, none between two people."""
    tutor = joined(FakeLink({"name": "Ana"}))

    def nows() -> list[dict[str, Any]]:
        return [body for action, body in sent(tutor) if action == "now"]

    play = tutor.built[0]
    assert "match" not in nows()[-1]
    while not play.controller.begun:
        play.board.dispatch({"type": "select", "index": 0})
        play.board.dispatch({"type": "discard"})
    told = match_id(play.controller.match)
    assert nows()[-1] == {"doing": "play", "stage": None, "with": None, "match": told}
    tutor.tabs.selected_index = [name for name, _ in tutor.sections].index("learn")
    assert nows()[-1] == {"doing": "learn", "stage": 1, "with": None, "match": told}
    tutor.tabs.selected_index = 0
    play.level_pick.value = "people"  # the match is kept aside: none is under way on the board
    assert nows()[-1] == {"doing": "play", "stage": None, "with": None}


def test_a_rounds_match_against_the_computer_is_told_as_soon_as_it_is_dealt() -> None:
    """The student the teacher's round pairs with the computer plays that match from the moment it comes: what they do
    is told at once, with its id, before any click of theirs (the class page said only "Play" until their first
    move)."""
    tutor = joined(FakeLink({"name": "Ana"}))
    tutor.sit_at_class_table()
    play = tutor.built[0]
    tutor.tabs.selected_index = [name for name, _ in tutor.sections].index("learn")
    play._play_round("expert", "ORIGINAL_1963", 2, "")
    assert tutor.tabs.selected_index == 0 and not play.controller.begun
    told = [body for action, body in sent(tutor) if action == "now"][-1]
    assert told == {"doing": "play", "stage": None, "with": None, "match": match_id(play.controller.match)}
    play._play_round("beginner", "REVISED_2008", 1, "")  # Play already in view: it is told all the same
    told = [body for action, body in sent(tutor) if action == "now"][-1]
    assert told == {"doing": "play", "stage": None, "with": None, "match": match_id(play.controller.match)}


def test_a_rounds_match_against_the_computer_comes_back_after_a_reload_before_any_move(keyed: None) -> None:
    """The browser keeps the round's match from the moment it is dealt: a reload before the student's first move (a
    new page given back what the browser kept) takes it up as it was dealt, still told as the round's (by its id),
    and kept again; a match of their own is kept only once they have moved in it."""
    tutor = joined(FakeLink({"name": "Ana"}))
    play = tutor.built[0]
    assert play.keeper.storage.saved == ""
    play._play_round("expert", "ORIGINAL_1963", 2, "", "0123456789abcdef")
    dealt = play.controller.match
    assert not play.controller.begun and play.keeper.storage.saved, "kept as soon as it is dealt"
    again_tutor = joined(FakeLink({"name": "Ana"}))
    again = again_tutor.built[0]
    again.keeper.storage.restore(play.keeper.storage.saved, this_tab=True)
    match = again.controller.match
    assert (match.seed, match.rules.key, match.hands, again.opponent_level()) == (dealt.seed, "ORIGINAL_1963", 2,
                                                                                   "expert")
    assert match.current.moves == dealt.current.moves and not match.is_over
    told = [body for action, body in sent(again_tutor) if action == "now"][-1]
    assert told["match"] == match_id(dealt)
    again.keeper.save()
    assert again.keeper.storage.saved, "still kept: a second reload takes it up too"
    other = joined(FakeLink({"name": "Ana"})).built[0]  # Play drawn again in another language, before a move
    other.take_place(again.place())
    assert other.computer_match() is not None and other.computer_match().seed == dealt.seed  # type: ignore[union-attr]
    assert other.keeper.kept_text(), "still the round's: kept and told as such"
    again.new_match()  # one of their own, not yet begun: nothing to keep on the board
    assert json.loads(again.keeper.kept_text() or '{"board": null}')["board"] is None


def test_what_the_student_is_doing_is_sent_when_it_changes() -> None:
    tutor = joined(FakeLink({"name": "Ana"}))

    def nows() -> list[dict[str, Any]]:
        return [body for action, body in sent(tutor) if action == "now"]

    assert nows() == [{"doing": "play", "stage": None, "with": None}]
    learn = [name for name, _ in tutor.sections].index("learn")
    tutor.tabs.selected_index = learn
    assert nows()[-1] == {"doing": "learn", "stage": 1, "with": None} and len(nows()) == 2
    tutor.built[learn].board.dispatch({"type": "action", "id": "hint"})  # a click that keeps the stage
    assert len(nows()) == 2, "nothing changed: nothing sent"
    kernel_progress().open_through(LESSONS[2].key)
    tutor.built[learn].stage_buttons[2].click()
    assert nows()[-1] == {"doing": "learn", "stage": 3, "with": None}
    tutor.tabs.selected_index = tutor.tabs.titles.index("Practice")
    assert nows()[-1] == {"doing": "practice", "stage": None, "with": None} and len(nows()) == 4


def test_reports_of_a_kind_coalesce_and_the_latest_wins() -> None:
    gate = threading.Event()
    sent_: list[tuple[str, dict[str, Any]]] = []

    def send(action: str, body: dict[str, Any]) -> None:
        gate.wait(5)
        sent_.append((action, body))

    reports = Reports(send)
    reports.put("now", {"n": 0})  # taken at once by the thread, which waits at the gate
    assert not reports.flush(0.2)
    for n in range(1, 4):
        reports.put("progress", {"code": n})
        reports.put("game", {"n": n}, alone=True)
    gate.set()
    assert reports.flush(5)
    assert sent_ == [("now", {"n": 0}), ("progress", {"code": 3}), ("game", {"n": 1}), ("game", {"n": 2}),
                     ("game", {"n": 3})]


def test_a_failing_server_never_raises_into_the_page(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="leopard_tutor.client.student_client")
    tutor = joined(FakeLink(failing=True))
    bar = bar_of(tutor)
    page_restores(bar, "")
    assert bar.keep("Ana")
    kernel_progress().record_lesson(LESSONS[0].key, 1)
    tutor.tabs.selected_index = 1
    assert sent(tutor) == []
    dropped = [r for r in caplog.records if "report" in r.getMessage()]
    assert len(dropped) == 1, "one failure logged, the next ones dropped quietly"
    assert any("did not say what it keeps" in r.getMessage() for r in caplog.records)


# -- over HTTP ---------------------------------------------------------------------------------------
class FakeServer(ThreadingHTTPServer):
    """Answers the contract's student requests of a proved kernel, recording each; `status` makes it refuse."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), FakeHandler)
        self.got: list[tuple[str, str, Any]] = []
        self.status = 200


class FakeHandler(BaseHTTPRequestHandler):
    server: FakeServer

    def log_message(self, *_args: object) -> None:
        pass

    def _answer(self, status: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _proved(self) -> bool:
        kernel = self.headers.get(KERNEL_HEADER, "")
        return proof_holds(KEY, kernel, self.headers.get(PROOF_HEADER))

    def do_GET(self) -> None:
        self.server.got.append(("GET", self.path, None))
        if not self._proved():
            self._answer(403, {})
        elif self.path == "/base/leopard/students/me":
            self._answer(200, {"name": "Ana", "progress": None, "unlock_all": True,
                               "defaults": {"rules": None, "level": "expert"}})
        else:
            self._answer(404, {})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        self.server.got.append(("POST", self.path, body))
        if not self._proved() or self.server.status != 200:
            self._answer(self.server.status if self._proved() else 403, {"refused": "bad_name", "facts": {}})
        else:
            self._answer(200, {})


@pytest.fixture
def server() -> Iterator[FakeServer]:
    found = FakeServer()
    thread = threading.Thread(target=found.serve_forever, daemon=True)
    thread.start()
    yield found
    found.shutdown()
    found.server_close()


def test_the_link_asks_with_the_kernels_proof(server: FakeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    port = server.server_address[1]
    monkeypatch.setenv(CLASS_TABLES_ENV, "1")
    monkeypatch.setenv("VOILA_KERNEL_ID", "k-1")
    monkeypatch.setenv("VOILA_APP_PORT", str(port))
    monkeypatch.setenv("VOILA_SERVER_URL", "/base/")
    monkeypatch.setattr("leopard_tutor.client.kernel_request.connection_key", lambda: KEY)
    link = StudentClient.here()
    assert isinstance(link, StudentClient) and link.base == f"http://127.0.0.1:{port}/base/"
    record = StudentRecord(link, kernel_progress())
    found = record.read()
    assert found.name == "Ana" and found.unlock_all and found.level == "expert" and record.name == "Ana"
    match = against_computer(Discarder(), seed="ABCDEFGH").match
    record.game("computer:expert", "lost", match)
    assert record.reports.flush(5)
    assert server.got[-1] == ("POST", "/base/leopard/students/game",
                              {"against": "computer:expert", "result": "lost", "match": match_id(match)})
    server.status = 400
    record.now("play")
    assert record.reports.flush(5), "a refusal is dropped, not raised"
    wrong = StudentClient(link.base, "k-1", b"another key")
    with pytest.raises(ClassRefused):
        wrong.me()
    assert [method for method, _path, _body in server.got][-1] == "GET"
    unreachable = StudentRecord(StudentClient("http://127.0.0.1:9/", "k-1", KEY), Progress())
    assert unreachable.read().name is None, "no server: an empty record, no error"


def test_what_the_student_does_is_told_again_at_a_click_a_minute_on() -> None:
    link, now = FakeLink(), [1000.0]
    record = StudentRecord(link, Progress(), clock=lambda: now[0])  # type: ignore[arg-type]
    record.give_name("Ana")
    for step in (0, 30, 31):  # seconds between clicks that change nothing
        now[0] += step
        record.now("play")
        assert record.reports.flush(5)
    assert [action for action, _ in link.told] == ["name", "now", "now"], "the server counts a silent student away"


def test_the_adaptive_level_is_a_class_default_too() -> None:
    tutor = joined(FakeLink({"name": "Ana", "defaults": {"rules": "REVISED_2008", "level": "adaptive"}}))
    play = tutor.built[0]
    assert play.level_pick.value == "adaptive" and play.adaptive is not None


# -- against the server's own records, in this process --------------------------------------------
class ServerLink:
    """A kernel's link that hands each request to the server's `Students` as `student_handlers` does, for one
    visitor (no HTTP, no proof: the shapes of the contract, end to end)."""

    def __init__(self, students: Students, visitor: str, here: Collection[str] = ()) -> None:
        self.students, self.visitor, self.here = students, visitor, here
        """`here`: the visitors whose page is connected now (`book.connected_visitors()`)."""

    def me(self) -> dict[str, Any]:
        return self.students.me(self.visitor)

    def offer(self, names: list[str]) -> str | None:
        return self.students.offer(names, self.visitor)

    def tell(self, action: str, body: dict[str, Any]) -> None:
        students, visitor = self.students, self.visitor
        calls = {"name": lambda: students.name(visitor, body.get("name"), self.here),
                 "progress": lambda: students.progress(visitor, body.get("stars"), body.get("practice")),
                 "game": lambda: students.game(visitor, body.get("against"), body.get("result"), body.get("match"),
                                               body.get("hand")),
                 "now": lambda: students.now(visitor, body.get("doing"), body.get("stage"), body.get("with")),
                 "tried": lambda: students.tried(visitor, body.get("lesson"))}
        try:
            calls[action]()
        except ClassTableError as refused:  # as the server answers it, and `StudentClient` reads it
            raise ClassRefused(refused.key, refused.facts) from None


def test_the_servers_records_take_every_report_of_the_page(tmp_path: Path) -> None:
    students = Students(ClassStore.in_folder(tmp_path))
    students.set_defaults("ORIGINAL_1963", "intermediate")
    tutor = app.build_app([("play", one_hand_play), ("learn", "leopard_tutor.widgets.learn:build_learn")])
    tutor.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
    tutor.follow_link("")
    play = tutor.built[0]
    assert play.rules_pick.value == "ORIGINAL_1963" and play.level_pick.value == "intermediate"
    kernel_progress().record_lesson(LESSONS[0].key, 3)
    page_restores(bar_of(tutor), "")
    assert bar_of(tutor).keep("Ana")
    finish_match(play)
    tutor.tabs.selected_index = 1
    assert tutor.member is not None and tutor.member.record.reports.flush(5)
    row = students.store.student("ana")
    assert row is not None and row.name == "Ana" and row.stars == {LESSONS[0].key: 3}
    games = row.games["computer:intermediate"]
    assert sum(games[result] for result in RESULTS) == 1 and games["hands"] == 1, "the match, and its hand"
    assert row.doing is not None and (row.doing["doing"], row.doing["stage"]) == ("learn", 1)
    tutor.member.stop_following()  # (the first page goes: its question in the background, answered by the unlocking,
    students.unlock("all")  # opened every lesson of whichever kernel's progress a later test held, and failed)
    again = app.build_app()  # the next page of the same browser, its storage emptied
    from leopard_tutor.lessons import progress as module

    module._KERNEL_PROGRESS.clear()
    again.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
    assert kernel_progress().stars == {LESSONS[0].key: 3} and kernel_progress().is_unlocked(LESSONS[-1].key)
    assert "Ana" in bar_of(again).shown.value


def class_page(students: Students) -> dict[str, list[str]]:
    """The class page's cells (name, lessons, practice, games) of each student, by name."""
    return {row["cells"][0]["text"]: [cell["text"] for cell in row["cells"][:4]]
            for row in students.rows(Presence(lambda _visitor: True))}


def test_progress_brought_from_the_browser_never_reaches_the_class_page(tmp_path: Path) -> None:
    """An edited progress code in the browser's storage (every lesson 3 stars, a million right answers) joins the
    student's own page but is never told; a stage solved and an answer given in this kernel are, and the student's
    `me` gives back what was earned."""
    students = Students(ClassStore.in_folder(tmp_path))
    tutor = app.build_app([("play", one_hand_play), ("learn", "leopard_tutor.widgets.learn:build_learn")])
    tutor.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
    page_restores(bar_of(tutor), "Ana")
    forged = Progress()
    forged.stars = {lesson.key: 3 for lesson in LESSONS}
    forged.practice = dict.fromkeys(CONCEPTS, (MAX_COUNT, 0))
    page_restores(tutor, forged.to_code())
    progress = kernel_progress()
    assert progress.stars == forged.stars, "the student's own page has what the browser kept"
    assert tutor.member is not None and tutor.member.record.reports.flush(5)
    cells = class_page(students)["Ana"]
    assert cells[1] == text("teacher.lessons", done=0, total=len(LESSONS), stars=0)
    assert cells[2] == text("teacher.nothing_yet")
    progress.record_lesson(LESSONS[0].key, 2)  # solved here (the browser had 3 stars for it: 2 are earned)
    progress.record_practice("jacks", True)
    progress.record_practice("jacks", False)
    assert tutor.member.record.reports.flush(5)
    cells = class_page(students)["Ana"]
    assert cells[1] == text("teacher.lessons", done=1, total=len(LESSONS), stars=2)
    assert cells[2] == text("teacher.practice", concept=text("lessons.practice.concepts.jacks"), share=50, answers=2)
    kept = Progress.from_code(str(students.me("ana")["progress"]))
    assert kept.stars == {LESSONS[0].key: 2} and kept.practice == {"jacks": (1, 1)}


def test_answers_earned_while_a_report_is_out_are_added_not_lost() -> None:
    gate, told = threading.Event(), []

    class SlowLink(FakeLink):
        def tell(self, action: str, body: dict[str, Any]) -> None:
            gate.wait(5)
            told.append((action, json.loads(json.dumps(body))))

    record = StudentRecord(SlowLink(), Progress())  # type: ignore[arg-type]
    record.give_name("Ana", typed=False)  # as an offered name: its report waits at the gate
    for right in (True, True, False):
        record.earned({}, {"tens": (1, 0) if right else (0, 1)})
    record.earned({LESSONS[0].key: 1}, {})
    record.earned({LESSONS[0].key: 3}, {})
    gate.set()
    assert record.reports.flush(5)
    assert told == [("name", {"name": "Ana"}),
                    ("progress", {"stars": {LESSONS[0].key: 3}, "practice": {"tens": [2, 1]}})]


def test_a_match_resumed_and_won_again_counts_once(tmp_path: Path) -> None:
    """The saved code of a finished match, resumed five times: each ends it again, and each is told with the same
    match id, so the class page counts it once; a new match counts again."""
    students = Students(ClassStore.in_folder(tmp_path))
    tutor = app.build_app([("play", one_hand_play)])
    tutor.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
    page_restores(bar_of(tutor), "Ana")
    play = tutor.built[0]
    finish_match(play)
    saved = game_code(play.controller.match, "beginner")
    for _ in range(5):
        play.resume(read_game_code(saved, LEVELS))
        play.board.dispatch({"type": "select", "index": 0})
    assert tutor.member is not None and tutor.member.record.reports.flush(5)
    row = students.store.student("ana")
    assert row is not None and sum(row.games["computer:beginner"][result] for result in RESULTS) == 1
    assert row.games["computer:beginner"]["hands"] == 1
    play.new_button.click()
    finish_match(play)
    assert tutor.member.record.reports.flush(5)
    row = students.store.student("ana")
    assert row is not None and sum(row.games["computer:beginner"][result] for result in RESULTS) == 2
    assert row.games["computer:beginner"]["hands"] == 2


SEAL_KEY = bytes.fromhex(code_key(b"the class server's secret"))
"""The key a class server gives its kernels for sealing saved-game codes (from its secret)."""


def resumed_on_a_class_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              match: Match) -> tuple[Students, app.TutorApp, Any]:
    """Ana's app on a class server whose kernels seal codes with `SEAL_KEY`, once she resumed `match` from a code made
    with no key (anybody's): the server's students, the app and its Play section."""
    monkeypatch.setenv(CLASS_TABLES_ENV, "1")
    monkeypatch.setenv(CODE_KEY_ENV, SEAL_KEY.hex())
    students = Students(ClassStore.in_folder(tmp_path))
    tutor = app.build_app([("play", one_hand_play)])
    tutor.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
    page_restores(bar_of(tutor), "Ana")
    play = tutor.built[0]
    play.saver.code.value = game_code(match, "expert")
    play.saver.resume_button.click()
    return students, tutor, play


def test_a_match_from_a_code_this_server_did_not_seal_is_played_but_never_counted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keyed: None) -> None:
    """A hand-made code (every move in it, the computer's too, is whatever its maker wrote: a script made "wins
    against the Expert" this way) is resumed and played, but neither its hand nor its result reaches the class page,
    and the board says so; saving it again does not seal it. A code this server's kernels made counts as before."""
    students, tutor, play = resumed_on_a_class_server(tmp_path, monkeypatch, Match(seed=5, hands=1))
    assert said(play.board.state["message"], "play.saved_game.not_counted")
    assert not read_game_code(play.code_of(play.controller.match, "expert"), LEVELS, SEAL_KEY).sealed, "never sealed"
    finish_match(play)
    assert tutor.member is not None and tutor.member.record.reports.flush(5)
    row = students.store.student("ana")
    assert row is not None and "computer:expert" not in row.games, row.games
    play.new_button.click()
    play.board.dispatch({"type": "select", "index": 0})
    play.board.dispatch({"type": "discard"})
    own = play.code_of(play.controller.match, "expert")
    assert read_game_code(own, LEVELS, SEAL_KEY).sealed
    with pytest.raises(GameCodeError):  # (sealed: another server cannot read it at all)
        read_game_code(own, LEVELS, b"another key")
    play.saver.code.value = own
    play.saver.resume_button.click()
    assert not said(play.board.state["message"], "play.saved_game.not_counted")
    finish_match(play)
    assert tutor.member.record.reports.flush(5)
    row = students.store.student("ana")
    assert row is not None and sum(row.games["computer:expert"][result] for result in RESULTS) == 1


def test_an_unsealed_match_kept_aside_stays_uncounted_in_another_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The matches kept aside go to the section drawn again in another language as they are: one from an unsealed
    code stays unsealed in what the browser keeps, and is not told when it ends (it was sealed and counted)."""
    students, tutor, play = resumed_on_a_class_server(tmp_path, monkeypatch,
                                                     Match(RULE_SETS["ORIGINAL_1963"], seed=5, hands=1))
    play.board.dispatch({"type": "select", "index": 0})
    play.board.dispatch({"type": "discard"})
    play.rules_pick.value = "REVISED_2008"  # the match is kept aside
    tutor.use_language("es")
    again = tutor.built[0]
    assert again is not play
    again.level_pick.value = "expert"
    _, aside = again.codes_to_keep()
    assert list(aside) == ["ORIGINAL_1963"] and not read_game_code(aside["ORIGINAL_1963"], LEVELS, SEAL_KEY).sealed
    again.rules_pick.value = "ORIGINAL_1963"  # taken up again, and played to its end
    assert again.controller.match in again.uncounted
    finish_match(again)
    assert tutor.member is not None and tutor.member.record.reports.flush(5)
    row = students.store.student("ana")
    assert row is not None and row.games == {}, row.games


def test_a_hand_finished_against_the_computer_counts_once_though_resumed_again(tmp_path: Path) -> None:
    """The first hand of a match of four, played to its end, counts in Games before any match does; its saved code,
    resumed at that hand's end, tells it again, and the server counts it once."""
    students = Students(ClassStore.in_folder(tmp_path))
    tutor = app.build_app([("play", lambda: PlaySection(against_computer(Discarder(), seed=11, hands=4,
                                                                         background=False), Discarder, "beginner"))])
    tutor.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
    page_restores(bar_of(tutor), "Ana")
    play = tutor.built[0]
    for _ in range(1_000):
        if play.controller.match.current.is_over:
            break
        play.board.dispatch({"type": "select", "index": 0})
        play.board.dispatch({"type": "discard"})
    match = play.controller.match
    assert match.current.is_over and not match.is_over and match.hand_number == 1
    saved = game_code(match, "beginner")
    for _ in range(3):
        play.resume(read_game_code(saved, LEVELS))
        play.board.dispatch({"type": "select", "index": 0})
    assert tutor.member is not None and tutor.member.record.reports.flush(5)
    row = students.store.student("ana")
    assert row is not None and row.games == {"computer:beginner": {"won": 0, "drawn": 0, "lost": 0, "hands": 1}}


def ana_then_forgotten(tmp_path: Path) -> tuple[Students, app.TutorApp, StudentBar]:
    """A class server's store where Ana's page (Play and Learn) keeps her name, then the teacher forgets the class."""
    students = Students(ClassStore.in_folder(tmp_path))
    tutor = app.build_app([("play", one_hand_play), ("learn", "leopard_tutor.widgets.learn:build_learn")])
    tutor.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
    bar = bar_of(tutor)
    page_restores(bar, "Ana")
    assert tutor.member is not None and tutor.member.record.reports.flush(5) and students.count() == 1
    students.forget()
    return students, tutor, bar


def test_after_the_class_is_forgotten_an_open_page_asks_for_the_name_again(tmp_path: Path, keyed: None) -> None:
    """The teacher forgets the class while Ana's page is open: her next report is refused, no row comes back, her
    page forgets the name (here and in the browser) and asks again, holding it; kept again, her record is back
    with what she did since."""
    students, tutor, bar = ana_then_forgotten(tmp_path)
    assert tutor.member is not None
    tutor.tabs.selected_index = 1  # a report of what she does
    assert tutor.member.record.reports.flush(5)
    assert students.count() == 0, "no row comes back, named or not"
    assert tutor.member.record.name is None and bar.storage.saved == ""
    assert shown(bar.box) and bar.box.value == "Ana" and keys_in(bar.note.value) == ["students.forgotten"]
    kernel_progress().record_lesson(LESSONS[0].key, 1)  # earned meanwhile: held
    assert tutor.member.record.reports.flush(5) and students.count() == 0
    assert bar.keep(bar.box.value)
    assert tutor.member.record.reports.flush(5)
    row = students.store.student("ana")
    assert row is not None and row.name == "Ana" and row.stars == {LESSONS[0].key: 1}
    assert row.doing is not None and row.doing["doing"] == "learn"
    assert read_kept(bar.storage.saved) == (students.class_id(), "Ana") and not shown(bar.note)
    assert tutor.member.record.class_id == students.class_id(), "kept under the class's new id"


def test_the_name_kept_again_after_the_class_was_forgotten_is_told_before_any_report(tmp_path: Path,
                                                                                      keyed: None) -> None:
    """The teacher forgets the class and Ana, before any report of hers tells her page, opens her name's box and keeps
    the name shown: the server, which no longer has it, is told it again with what she did (Keep said nothing,
    and the next round left her out)."""
    students, tutor, bar = ana_then_forgotten(tmp_path)
    assert tutor.member is not None
    assert bar.keep("Ana")
    assert tutor.member.record.reports.flush(5)
    row = students.store.student("ana")
    assert row is not None and row.name == "Ana"
    assert read_kept(bar.storage.saved) == (students.class_id(), "Ana"), "kept under the class's new id"
    assert bar.keep("Ana") and students.count() == 1, "kept again: one row still"


def test_a_page_opened_after_the_class_was_forgotten_asks_for_the_name_again(tmp_path: Path, keyed: None) -> None:
    """Ana's name is kept in her browser with the class's id. The teacher forgets the class while her page is
    closed; when she opens it again, the browser's name is under the old id: the page asks again, holding it, and
    makes no record until she keeps it. A name kept with the class's id as it is, or kept before classes had ids,
    is her name at once."""
    students = Students(ClassStore.in_folder(tmp_path))
    first = app.build_app([("play", one_hand_play)])
    first.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
    page_restores(bar_of(first), "")
    assert bar_of(first).keep("Ana") and first.member is not None and first.member.record.reports.flush(5)
    kept = bar_of(first).storage.saved
    assert read_kept(kept) == (students.class_id(), "Ana")
    students.forget()  # her page is closed
    again = app.build_app([("play", one_hand_play)])
    again.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
    bar = bar_of(again)
    page_restores(bar, kept)
    assert again.member is not None and again.member.record.reports.flush(5)
    assert students.count() == 0 and again.member.record.name is None and bar.storage.saved == ""
    assert shown(bar.box) and bar.box.value == "Ana" and keys_in(bar.note.value) == ["students.forgotten"]
    assert shown(bar.note_box)
    bar.close_button.click()  # the note is closed; the box still asks
    assert not shown(bar.note_box) and shown(bar.box) and students.count() == 0
    assert bar.keep("Ana") and again.member.record.reports.flush(5) and students.count() == 1
    assert read_kept(bar.storage.saved) == (students.class_id(), "Ana")
    for restored in (bar.storage.saved, "Ben"):  # this class's id; no id at all
        page = app.build_app([("play", one_hand_play)])
        page.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
        page_restores(bar_of(page), restored)
        assert page.member is not None and page.member.record.reports.flush(5)
        assert not shown(bar_of(page).note) and page.member.record.name == read_kept(restored)[1]
    row = students.store.student("ana")
    assert row is not None and row.name == "Ben" and students.count() == 1
    page = app.build_app([("play", one_hand_play)])  # a name kept under an old id while the server has her record
    page.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]  (another tab kept the name again)
    page_restores(bar_of(page), f"{'0' * 16}\nBen B")
    assert page.member is not None and page.member.record.reports.flush(5) and not shown(bar_of(page).note)
    assert read_kept(bar_of(page).storage.saved) == (students.class_id(), "Ben B")


def test_two_pages_that_would_make_up_one_name_are_offered_two(tmp_path: Path) -> None:
    """Two pages opened at once whose made-up names come out alike are offered different names: the server offers
    the first name of a page's candidates that no record keeps and no page was offered lately; a name a student
    keeps is not offered either."""
    students = Students(ClassStore.in_folder(tmp_path))
    offered = []
    for visitor in ("ana", "ben", "cy"):  # each page makes up the same names, in the same order
        bar = StudentBar(StudentRecord(ServerLink(students, visitor), Progress()),  # type: ignore[arg-type]
                         random.Random(7).choice)
        page_restores(bar, "")
        offered.append(bar.record.offered)
    assert offered[0] == generated_name(random.Random(7).choice) and len(set(offered)) == 3, offered
    assert all(name is not None and len(name.split()) == 2 for name in offered)
    students.name("dan", "Kept Name")
    assert students.offer(["Kept Name", "Other Name"]) == "Other Name"
    assert students.offer(["Kept Name", "Other Name"]) is None, "offered lately to another page"
    for bad in ([], ["x" * 40], "Ana", [3], ["A"] * 33):
        with pytest.raises(ClassTableError, match="bad_name"):
            students.offer(bad)


def test_a_reload_before_the_offered_name_is_given_offers_it_again(tmp_path: Path) -> None:
    """Ana's page offers her a made-up name and she reloads before doing anything worth a record: the browser kept it
    as only offered, and the new page offers it again (the QA's case: each load offered another). Ben's page, whose
    browser was offered that name by another page, meets it as offered to someone else, and is offered another; once a
    classmate keeps it, Ana's next reload is offered another too."""
    students = Students(ClassStore.in_folder(tmp_path))

    def page(visitor: str, kept: str, seed: int) -> StudentBar:
        bar = StudentBar(StudentRecord(ServerLink(students, visitor), Progress()),  # type: ignore[arg-type]
                         random.Random(seed).choice)
        page_restores(bar, kept)
        return bar

    first = page("ana", "", 7)
    offered = first.record.offered
    assert offered is not None and first.storage.saved == kept_text(offered, OFFERED_MARK)
    again = page("ana", first.storage.saved, 8)  # another seed: its own made-up names differ
    assert again.record.offered == offered and again.record.name is None and students.store.student("ana") is None
    assert page("ben", first.storage.saved, 8).record.offered != offered, "offered lately to another visitor"
    students.name("cy", offered)
    assert page("ana", first.storage.saved, 8).record.offered not in (offered, None)


def test_a_typed_name_a_classmate_here_keeps_is_refused_under_the_box(tmp_path: Path, keyed: None) -> None:
    """Two students in the room who type one name: the second is told under the box, which still holds it, and
    nothing is kept for them (nor in their browser); another name is kept at once. A name the browser kept that a
    classmate here took since is asked for again the same way."""
    students = Students(ClassStore.in_folder(tmp_path))
    here = {"ana", "ben", "cy"}
    bars = {}
    for visitor in ("ana", "ben"):
        link = ServerLink(students, visitor, here)
        bars[visitor] = StudentBar(StudentRecord(link, Progress()), random.Random(7).choice)  # type: ignore[arg-type]
        page_restores(bars[visitor], "")
    ana, ben = bars["ana"], bars["ben"]
    assert ana.keep("Sam")
    ben.ask()
    ben.box.value = "sam"  # at Enter
    assert keys_in(ben.note.value) == ["classmates.refused.name_taken"] and shown(ben.note) and shown(ben.box)
    assert ben.box.value == "sam" and ben.record.name is None and ben.storage.saved != "sam"
    assert students.store.student("ben") is None
    assert ben.keep("Sam B") and not shown(ben.note) and ben.storage.saved == "Sam B"
    assert [students.me(visitor)["name"] for visitor in ("ana", "ben")] == ["Sam", "Sam B"]
    cy = StudentBar(StudentRecord(ServerLink(students, "cy", here), Progress()),  # type: ignore[arg-type]
                    random.Random(7).choice)
    page_restores(cy, "Sam")  # a name this browser kept before Ana took it
    assert keys_in(cy.note.value) == ["classmates.refused.name_taken"] and shown(cy.box) and cy.box.value == "Sam"
    assert cy.record.name is None and students.store.student("cy") is None


def test_an_offered_name_a_classmate_took_meanwhile_is_asked_for_again_saying_why(tmp_path: Path) -> None:
    """Ana is offered a made-up name; Ben types it before she does anything worth a record. When her first report
    gives it, the server refuses it: her page asks for a name, saying a classmate here goes by it (it said "the class
    page no longer has your name", which never had it), and nothing is kept for her."""
    students = Students(ClassStore.in_folder(tmp_path))
    here = {"ana", "ben"}
    ana = app.build_app([("play", one_hand_play)])
    ana.join_class(ServerLink(students, "ana", here))  # type: ignore[arg-type]
    page_restores(bar_of(ana), "")
    assert ana.member is not None and ana.member.record.offered is not None
    offered = ana.member.record.offered
    ben = app.build_app([("play", one_hand_play)])
    ben.join_class(ServerLink(students, "ben", here))  # type: ignore[arg-type]
    page_restores(bar_of(ben), "")
    assert bar_of(ben).keep(offered.upper())  # another case: one name
    ana.member.record.earned({LESSONS[0].key: 2}, {})
    assert ana.member.record.reports.flush(5)
    bar = bar_of(ana)
    why = html.escape(text("classmates.refused.name_taken", name=offered.upper()))
    assert bar.note.value == f"<p role='alert'>{why}</p>" and shown(bar.box)
    assert ana.member.record.name is None and students.store.student("ana") is None and bar.storage.saved == ""
    assert students.offer([offered, "Other Name"]) == "Other Name", "a name kept in another case is not offered"


def test_a_name_typed_while_the_class_is_forgotten_is_kept_without_waiting_for_the_reports() -> None:
    """The teacher forgets the class while a report is out, and the student types a new name: the name is told
    after the report (the server makes a record for it), without the kernel's loop waiting for the reports' thread
    (it waited 3 s), and the page is not asked for a name the server now keeps."""
    class Forgetting(FakeLink):
        forgot = False

        def tell(self, action: str, body: dict[str, Any]) -> None:
            time.sleep(0.2)
            if self.forgot and action != "name":
                raise ClassRefused("unknown_student")
            self.forgot = self.forgot and action != "name"  # a name makes a record again
            self.told.append((action, body))

    async def main() -> tuple[float, list[str]]:
        link = Forgetting()
        record = StudentRecord(link, Progress())  # type: ignore[arg-type]
        asked: list[str] = []
        record.forgotten_listeners.append(lambda former, _why: asked.append(former))
        record.give_name("Ana")
        assert record.reports.flush(5)
        link.forgot = True
        record.now("learn", 1)  # refused once it goes out: the record forgets "Ana"
        began = time.monotonic()
        record.give_name("Bea")  # a click on the loop, while that report is out
        took = time.monotonic() - began
        await asyncio.sleep(0.5)  # the loop runs what the reports' thread handed it
        assert record.name == "Bea" and ("name", {"name": "Bea"}) in link.told
        return took, asked

    took, asked = asyncio.run(main())
    assert took < 1.5 and asked == [], (took, asked)


def wrong_move(controller: Any) -> Any:
    """A legal move of the lesson on `controller`'s board that misses its goal (answered "off-track")."""
    lesson, hand = controller.lesson, controller.attempt.hand
    for move in hand.legal_moves():
        trial = hand.copy()
        trial.apply(move)
        if move != lesson.solution[0] and not all(goal.met(trial) for goal in lesson.goals):
            return move
    raise AssertionError("no legal move misses the goal")


def test_a_failed_try_of_a_stage_is_told_and_gives_the_offered_name(tmp_path: Path) -> None:
    """A wrong move in Learn is a failed try of its stage: worth a record (the offered name is given with it); three
    of them mark the student stuck on the class page, and solving the stage clears the mark."""
    students = Students(ClassStore.in_folder(tmp_path))
    tutor = app.build_app([("learn", "leopard_tutor.widgets.learn:build_learn")])
    tutor.join_class(ServerLink(students, "ana"))  # type: ignore[arg-type]
    bar = bar_of(tutor)
    page_restores(bar, "")
    learn = tutor.built[0]
    controller = learn.controller
    controller.marks.pick(0, len(controller.attempt.view.hand))
    controller.hint()  # neither a pick nor a hint is a try
    assert tutor.member is not None and tutor.member.record.reports.flush(5) and students.count() == 0
    controller.try_move(wrong_move(controller))
    assert tutor.member.record.reports.flush(5)
    row = students.store.student("ana")
    assert row is not None and row.name == bar.box.value and [lesson for lesson, _ in row.tries] == [LESSONS[0].key]
    for _ in range(2):
        controller.try_move(wrong_move(controller))
    assert tutor.member.record.reports.flush(5)
    [shown_row] = students.rows(Presence(lambda _visitor: True))
    assert shown_row["stuck"] is not None and shown_row["stuck"]["stage"] == 1
    for move in LESSONS[0].solution:
        controller.try_move(move)
    assert tutor.member.record.reports.flush(5)
    [shown_row] = students.rows(Presence(lambda _visitor: True))
    assert shown_row["stuck"] is None and shown_row["stages"][0]["stars"] > 0
