"""The Play section's classmate controls without a server: two sections whose links reach one `Referee` in this
process. Open a table (code, link, QR code), join it from the open tables, sit at the match; a class table is not
left by the opponent menu; a classmate gone for two minutes is replaced by the computer, and the store says so."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import ipywidgets as W
import pytest
from keyed import keys_in, mark, said
from test_storage import page_restores
from test_student_client import FakeLink
from test_table import intents_for
from test_widgets_play_section import Discarder

from leopard_tutor.ai import hint
from leopard_tutor.class_codes import ClassTableError
from leopard_tutor.class_member import ClassMember
from leopard_tutor.client.class_client import ClassRefused
from leopard_tutor.client.student_client import StudentRecord, match_id
from leopard_tutor.engine import RULE_SETS, Match
from leopard_tutor.engine.game_code import game_code
from leopard_tutor.engine.moves import NEXT_HAND, Move, move_to_data
from leopard_tutor.lessons import kernel_progress
from leopard_tutor.protocol import CLASSMATE, COMPUTER, EVERYONE_GONE_SECONDS
from leopard_tutor.server.class_store import ClassStore
from leopard_tutor.server.referee import GONE_SECONDS, Referee
from leopard_tutor.table import Computer, Table, against_computer
from leopard_tutor.table.class_table import ClassTable, away_words
from leopard_tutor.table.modes import ELSEWHERE, Closed
from leopard_tutor.widgets import PlaySection, build_play
from leopard_tutor.widgets.board import FOCUS_TABLE
from leopard_tutor.widgets.class_panel import ClassPanel
from leopard_tutor.widgets.storage import BrowserStorage


class Clock:
    def __init__(self) -> None:
        self.now = 5_000_000.0

    def __call__(self) -> float:
        return self.now


class Link:
    """A kernel's link to the tables, in this process, for one visitor (the watch is driven by the test)."""

    def __init__(self, tables: Referee, visitor: str) -> None:
        self.tables, self.visitor = tables, visitor

    def _ask(self, call: Any, *args: Any) -> Any:
        try:
            return call(self.visitor, *args)
        except ClassTableError as error:
            raise ClassRefused(error.key, error.facts) from None

    def mine(self) -> dict[str, Any]:
        return self.tables.report(self.visitor)

    wait = lambda self, known: self.mine()  # noqa: E731

    def waiting(self) -> list[tuple[str, str]]:
        return self.tables.waiting()

    def open(self, name: str, rules: str, hands: int | None = None) -> str:
        return str(self._ask(self.tables.open, name, rules, hands))

    def join(self, name: str, code: str) -> None:
        self._ask(self.tables.join, name, code)

    def move(self, code: str, number: int, move: dict[str, Any]) -> None:
        self._ask(self.tables.move, code, number, move)

    def end(self, code: str, ending: str) -> None:
        self._ask(self.tables.end, code, ending)

    def take(self, code: str) -> None:
        self._ask(self.tables.take_on, code)

    def take_round(self, started: float) -> None:
        self._ask(self.tables.take_round, started)


@pytest.fixture
def tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Referee, Clock]:
    monkeypatch.setattr(ClassPanel, "watch", lambda self, known="": None)  # no thread: the test hands over each report
    clock = Clock()
    return Referee(ClassStore.in_folder(tmp_path), clock=clock), clock


def opened_by_ana(authority: Referee, hinter: Any = None, hands: int | None = None) -> tuple[PlaySection, ClassPanel]:
    """Ana's Play section (with `hinter`'s hints), and its classmate controls, once she has opened a table (as her
    name; for `hands` hands if given)."""
    ana = section(authority, "ana", hinter)
    ana.level_pick.value = CLASSMATE
    panel = panel_of(ana)
    panel.name.value = "Ana"
    if hands is not None:
        panel.length_pick.value = hands
    panel.open_button.click()
    return ana, panel


def leave_table(panel: ClassPanel) -> None:
    """Press Leave the table, and where it asks first (a classmate sits at it), answer Leave."""
    panel.leave_button.click()
    if panel.leave_question.asked:
        panel.leave_question.start_button.click()


def made_a_move(play: PlaySection) -> Table:
    """The match on `play`'s board (against the computer) after the learner's first move, made by clicks."""
    own = play.controller
    for intent in intents_for(own.view(), own.view().legal_moves()[0]):
        play.board.dispatch(intent)
    assert own.match.current.moves
    return own


def section(tables: Referee, visitor: str, hinter: Any = None, redrawn: bool = False) -> PlaySection:
    """`visitor`'s Play on a new page (or the same page `redrawn` in another language), seated as the app seats it."""
    play = build_play(Discarder(), opponent_factory=Discarder, seed=11, background=False,  # type: ignore[arg-type]
                      address=lambda: "http://school:8866/", class_client=Link(tables, visitor),  # type: ignore[arg-type]
                      hinter=hinter)
    play.resume_class_table(redrawn)
    return play


def panel_of(play: PlaySection) -> ClassPanel:
    assert play.classmates is not None
    return play.classmates


def test_choosing_the_computer_again_after_a_classmate_goes_on_with_the_match_on_the_board(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """"A classmate" chosen in the middle of a match against the computer, then a level again, before any table:
    the match on the board goes on against that level (not kept aside as a game between two people)."""
    authority, _ = tables
    ana = section(authority, "ana")
    made_a_move(ana)
    own, moves = ana.controller, ana.controller.match.current.moves
    ana.level_pick.value = CLASSMATE
    ana.level_pick.value = "casual"
    assert ana.controller is own and own.match.current.moves == moves and not ana.set_aside
    assert own.opponent is not None and own.opponent.name == "casual"  # type: ignore[attr-defined]
    assert not said(ana.board.state["message"], "play.set_aside.kept_people", choice=mark("play.people.choice"))


def test_open_join_play_and_finish_against_the_computer(tables: tuple[Referee, Clock], keyed: None) -> None:
    authority, clock = tables
    ana, ben = section(authority, "ana"), section(authority, "ben")
    panel = panel_of(ana)
    assert panel.layout.display == "none"
    ana.level_pick.value = CLASSMATE
    assert panel.layout.display == "" and not isinstance(ana.controller, ClassTable)
    assert said(ana.board.state["message"], "classmates.choose_board"), "the board says how a classmate's match begins"
    ana.level_pick.value = "casual"  # her own level: the computer finishes a table's match at it
    made_a_move(ana)
    ana.level_pick.value = CLASSMATE  # the match on the board goes on until a table comes, and the board says so
    assert said(ana.board.state["message"], "classmates.choose_kept") and ana.controller.match.current.moves
    panel.name.value = "<i>Ana</i>"
    panel.open_button.click()
    code = panel.code
    assert code is not None and said(panel.status.value, "classmates.opened", code=code)
    assert "&lt;i&gt;" not in panel.status.value and "<svg" in panel.status.value
    assert f"http://school:8866/?table={code}" in panel.status.value
    # the board waits for a classmate at once, with no game (before any report of the watch's)
    assert isinstance(ana.controller, ClassTable) and ana.controller.mode.kind == "seating"
    assert "hand" not in ana.board.state and ana.board.state["actions"] == []
    assert said(ana.board.state["message"], "classmates.seating.wait", code=code)
    panel.open_button.click()  # a second table for the same browser is refused, on the board
    assert said(ana.board.state["message"], "classmates.refused.one_table")
    ben.rules_pick.value = "ORIGINAL_1963"  # his menu's rules, not the table's
    ben.level_pick.value = CLASSMATE
    other = panel_of(ben)
    other.show_button.click()
    joins = [child for child in other.open_tables.children if hasattr(child, "on_click")]
    assert [button.description for button in joins] == [mark("classmates.join_named", name="<i>Ana</i>", code=code)]
    assert joins[0].tooltip == joins[0].description, "the whole label, where the button is too narrow for it"
    other.name.value = "Ben"
    joins[0].click()  # Ben's board shows the match at once; Ana's with her watch's report
    assert other.open_tables.children == ()  # seated: no list left to go stale (Ana's table is not open any more)
    sent: list[object] = []
    ana.board.send = sent.append  # type: ignore[method-assign]
    panel.on_report(panel.client.mine())
    assert sent == [{**FOCUS_TABLE, "waited": True}], "Ben sat down: Ana's keyboard, on Leave the table, goes to it"
    for play in (ana, ben):
        assert isinstance(play.controller, ClassTable)
        assert said(play.board.state["message"], "classmates.started", code=code)
        assert not said(play.board.state["message"], "play.welcome"), "one opening, said once"
    for button, reason in ((ana.new_button, "classmates.no_new_match"), (ana.share_button, "classmates.no_share"),
                           (ana.saver.save_button, "classmates.no_save"),
                           (ana.saver.resume_button, "classmates.no_resume")):  # greyed, saying why
        assert button.disabled and button.tooltip == mark(reason)
    for play in (ana, ben):  # the menus greyed as the table offers them; why is read out after them (a menu's
        assert play.rules_pick.disabled and play.level_pick.disabled  # tooltip reaches no page)
        found = play.controller.offers()
        assert found["rules_menu"] == found["opponent_menu"] == mark("classmates.menus_greyed")
        assert play.picks_note.layout.display == "" and mark("classmates.menus_greyed") in play.picks_note.value
        assert mark("classmates.no_new_match") in play.picks_note.value, "the row's greyed buttons too, once each"
        assert mark("classmates.no_share") in play.picks_note.value
    assert ben.rules_pick.value == "REVISED_2008" == ben.controller.rules.key, "the menu shows the table's rules"
    ana.saver.code.value = game_code(Match(seed=5), "casual")
    ana.saver.resume_button.click()  # greyed, and refused on the board if sent all the same
    assert ana.controller.for_classmates and said(ana.board.state["message"], "classmates.no_resume")
    # no Hint nor Undo under the board: neither ever works in a match between classmates
    assert not {"hint", "undo"} & {action["id"] for action in ana.board.state["actions"]}
    ana.share_button.click()  # the deal's code would show anyone the other hand
    assert said(ana.board.state["message"], "classmates.no_share") and ana.share.value == ""
    assert not [action for action in ana.board.state["actions"] if action["id"] == "hint" and action["enabled"]]
    ana.level_pick.value = "expert"  # the menu does not leave a class table
    assert ana.level_pick.value == CLASSMATE and said(ana.board.state["message"], "classmates.leave_first")
    clock.now += GONE_SECONDS
    panel.on_report(panel.client.mine())
    assert panel.finish_button.layout.display == "" and said(panel.status.value, "classmates.other_gone", name="Ben")
    other.on_report(other.client.mine())  # Ben is back: the sentence goes with the button (it stayed, offering it)
    panel.on_report(panel.client.mine())
    assert panel.finish_button.layout.display == "none" and panel.status.value == ""
    clock.now += GONE_SECONDS
    panel.on_report(panel.client.mine())
    assert panel.finish_button.layout.display == "" and said(panel.status.value, "classmates.other_gone", name="Ben")
    panel.finish_button.click()
    table = ana.controller
    assert isinstance(table, ClassTable) and isinstance(table.seats[1 - table.seat], Computer)
    assert said(ana.board.state["message"], "classmates.computer_seated", level=mark("levels.names.casual"))
    assert table.opponent is not None and table.opponent.name == "casual"  # type: ignore[attr-defined]
    row = authority.store.table(code)
    assert row is not None and row.ending == "computer:casual"
    other.on_report(other.client.mine())  # Ben's board is closed at once: told why, no move made, finish offered
    assert said(ben.board.state["message"], "classmates.while_away.computer", name="<i>Ana</i>", code=code), \
        "he had gone: she did not leave, she played it on"
    assert other.status.value == "", "said once, on the board"
    again = panel_of(section(authority, "ben"))  # a new page of his (a reload) is told the same
    assert not again.resume()
    assert said(again.status.value, "classmates.while_away.computer", name="&lt;i&gt;Ana&lt;/i&gt;", code=code)
    fresh = section(authority, "ben")  # and its board says it, where the classmate controls are hidden
    fresh.resume_class_table()
    assert fresh.classmates is not None and fresh.classmates.layout.display == "none"
    assert said(fresh.board.state["message"], "classmates.while_away.computer", name="<i>Ana</i>", code=code)
    fresh.open_deal(rules="ORIGINAL_1963", level="expert")  # the class's defaults, as a new visit takes them up: the
    assert fresh.controller.rules.key == "ORIGINAL_1963"  # new match's words no longer replace it
    assert said(fresh.board.state["message"], "classmates.while_away.computer", name="<i>Ana</i>", code=code)
    bens = ben.controller
    assert isinstance(bens, ClassTable) and bens.mode.kind == "closed" and other.finish_button.layout.display == ""
    moves = bens.hand.moves
    ben.board.dispatch({"type": "select", "index": 0})
    assert bens.hand.moves == moves and said(ben.board.state["message"], "classmates.closed_now")
    assert not [action for action in ben.board.state["actions"] if action["enabled"]]
    ben.level_pick.value = "people"  # the board moves on: the closed table's buttons give way (they stayed, and
    assert ben.controller is not bens  # "Finish" then set the menu on a level while two people played here)
    assert other.finish_button.layout.display == "none" and other.leave_button.layout.display == "none"
    ben.level_pick.value = CLASSMATE  # and nothing offers the closed table again: it is gone
    assert other.status.value == "" and other.finish_button.layout.display == "none" and other.table is None
    assert ben.picks_note.layout.display == "none" and ben.picks_note.value == ""  # off the table: the menus work


def test_a_table_closed_while_away_is_told_as_its_ending_and_count_say(keyed: None) -> None:
    closed = {"table": "KRTQ", "seat": 0, "names": ["Ana", "Ben"], "gone": 0, "counts": "lost",
              "ended": "computer:expert"}
    assert away_words(closed) == mark("classmates.while_away.computer", name="Ben", code="KRTQ")
    abandoned = {**closed, "ended": "abandoned", "gone": None, "counts": None}
    assert away_words(abandoned) == mark("classmates.while_away.abandoned", name="Ben", code="KRTQ")
    by_teacher = {**closed, "ended": "teacher", "gone": None, "counts": None}
    assert away_words(by_teacher) == mark("classmates.while_away.teacher", code="KRTQ")
    for other in ({"gone": 1, "counts": "won"}, {"ended": "finished", "gone": None, "counts": "won"},
                  {"ended": "left", "gone": 1, "counts": "won"}, {"table": None}, {"seat": 7},
                  {**abandoned, "names": ["Ana", None]}):  # (a table nobody joined: no classmate had gone)
        assert away_words({**closed, **other}) == "", f"told already, at the table, or nothing to tell: {other}"


def test_a_table_left_in_another_tab_is_told_as_left_by_the_student(tables: tuple[Referee, Clock],
                                                                     keyed: None) -> None:
    authority, _ = tables
    ana, panel = opened_by_ana(authority)
    assert panel.code is not None
    code = panel.code
    authority.join("ben", "Ben", code)
    panel.on_report(panel.client.mine())
    second = section(authority, "ana")  # her second tab sits at the same table
    other_tab = panel_of(second)
    assert other_tab.code == code
    ben = section(authority, "ben")
    panel.leave_button.click()  # a classmate sits there: it asks first, saying what it costs
    assert panel.leave_question.asked and panel.code == code
    assert panel.leave_question.words.value == mark("classmates.leave_question.asked", name="Ben")
    panel.leave_question.keep_button.click()  # stay: nothing happens
    assert not panel.leave_question.asked and panel.code == code and code in authority.tables
    leave_table(panel)
    other_tab.on_report(other_tab.client.mine())
    # she left it (nobody else did), and each page says how it counts: the teacher's page said it, neither board did
    for page in (ana, second):
        assert said(page.board.state["message"], "classmates.left_lost", code=code)
        assert panel_of(page).finish_button.layout.display == "none", "hers to leave, Ben's to finish"
        assert page.controller.offers()["finish"] == mark("classmates.refused.you_left")
    panel_of(ben).on_report(panel_of(ben).client.mine())
    assert said(ben.board.state["message"], "classmates.other_left_won", name="Ana", code=code)
    assert panel_of(ben).finish_button.layout.display == ""
    # beside that message, which says the match may be finished, the table's note says only that it has closed
    assert ben.board.state["inert"] == mark("classmates.closed_now")
    assert other_tab.status.value == "", "said once, on the board"
    ben.board.dispatch({"type": "select", "index": 0})  # refused: the words say the button beside it still works
    assert said(ben.board.state["message"], "classmates.closed_now")
    assert said(ben.board.state["message"], "classmates.closed_may_finish")
    ana.board.dispatch({"type": "select", "index": 0})  # hers was left: nothing to finish
    assert not said(ana.board.state["message"], "classmates.closed_may_finish")


def test_a_second_page_of_the_student_who_played_on_says_so_and_offers_no_finish(tables: tuple[Referee, Clock],
                                                                                  keyed: None) -> None:
    authority, clock = tables
    ana, panel = opened_by_ana(authority)
    code = panel.code
    assert code is not None
    authority.join("ben", "Ben", code)
    panel.on_report(panel.client.mine())
    second = section(authority, "ana")  # her second tab sits at the same table
    other_tab = panel_of(second)
    assert other_tab.code == code
    table = ana.controller
    if table.hand.to_move != table.viewer:
        authority.move("ben", code, 0, move_to_data(table.hand.view(table.hand.to_move).legal_moves()[0]))
        panel.on_report(panel.client.mine())
    made_a_move(ana)
    clock.now += GONE_SECONDS
    panel.on_report(panel.client.mine())
    panel.finish_button.click()  # Ben has gone: she plays on against the computer, in her first tab
    other_tab.on_report(other_tab.client.mine())
    assert said(second.board.state["message"], "classmates.taken_elsewhere", code=code), "nobody left: she played on"
    assert other_tab.status.value == "", "said once, on the board"
    assert second.controller.offers()["finish"] == mark("classmates.refused.taken_elsewhere")
    assert other_tab.finish_button.layout.display == "none", "one match against the computer, in her first tab"
    other_tab.finish()  # asked all the same: the table's own answer, on the board, not another one of the panel's
    assert second.controller.message == mark("classmates.refused.taken_elsewhere")
    assert second.controller.computer_sat is None


def finished_by_the_computer(authority: Referee, clock: Clock) -> tuple[PlaySection, ClassPanel, ClassTable]:
    """Ana's section, after a move at the table Ben joined, once Ben has gone and the computer took his seat."""
    ana, panel = opened_by_ana(authority)
    assert panel.code is not None
    authority.join("ben", "Ben", panel.code)
    panel.on_report(panel.client.mine())
    table = ana.controller
    if table.hand.to_move != table.viewer:  # the deal is fresh: Ben may begin
        move = table.hand.view(table.hand.to_move).legal_moves()[0]
        authority.move("ben", panel.code, 0, move_to_data(move))
        panel.on_report(panel.client.mine())
    made_a_move(ana)
    clock.now += GONE_SECONDS
    panel.on_report(panel.client.mine())
    panel.finish_button.click()
    assert isinstance(table, ClassTable) and table.opponent is not None and ana.controller is table
    return ana, panel, table


def test_a_match_the_computer_finished_is_a_match_against_the_computer(tables: tuple[Referee, Clock],
                                                                       keyed: None) -> None:
    """Once the computer took the gone classmate's seat, the menu names its level and the classmate controls give
    way; another level plays on in that match, and another kind of opponent or a new table keeps it aside, saying
    so, until a computer opponent under its rules is chosen again (it was dropped without a word)."""
    authority, clock = tables
    ana, panel, table = finished_by_the_computer(authority, clock)
    level = table.opponent.name  # type: ignore[union-attr]
    assert ana.level_pick.value == level and panel.layout.display == "none"
    assert ana.computer_match() is table.match, "the class page is told she plays the computer"
    moves = tuple(table.match.current.moves)
    ana.level_pick.value = "expert"  # the same match goes on, against the expert
    assert ana.controller is table and tuple(table.match.current.moves[:len(moves)]) == moves and not ana.set_aside
    assert table.opponent.name == "expert"  # type: ignore[union-attr]
    assert said(ana.board.state["message"], "play.opponent_changed", name=mark("levels.in_sentence.expert"))
    ana.level_pick.value = CLASSMATE  # the board says the match goes on until a table comes
    assert ana.controller is table and said(ana.board.state["message"], "classmates.choose_kept")
    panel.open_button.click()  # a new table: the match is kept aside as one against the computer, and said to be
    waiting = ana.controller
    assert isinstance(waiting, ClassTable) and waiting is not table
    assert ana.set_aside == {("computer", table.rules.key): table}
    assert said(ana.board.state["message"], "play.set_aside.kept", choice=mark("play.people.choice"),
                rules=mark(f"rules.{table.rules.key}"))
    kept = ana.codes_to_keep()[1]  # kept in the browser with its seat: a game's code alone seats the learner first
    assert isinstance(kept[table.rules.key], dict) and kept[table.rules.key]["seat"] == table.seat
    leave_table(panel)
    ana.level_pick.value = "casual"
    assert ana.controller is table and said(ana.board.state["message"], "play.set_aside.back",
                                            level=mark("levels.in_sentence.casual"))
    assert table.opponent.name == "casual"  # type: ignore[union-attr]


def test_another_language_carries_a_match_the_computer_finished(tables: tuple[Referee, Clock], keyed: None) -> None:
    """The app drawn again in another language takes up the match the computer finished as the table it is (a game's
    code would seat the learner first, where a class table may seat them second), and says that it goes on where it
    was (not that the learner came back to it, as from a match kept aside)."""
    authority, clock = tables
    ana, _panel, table = finished_by_the_computer(authority, clock)
    moves = tuple(table.match.current.moves)
    older = against_computer(Discarder(), rules=table.rules)  # a match kept aside under the same rules stays kept
    ana.set_aside[("computer", table.rules.key)] = older
    again = section(authority, "ana")
    again.take_place(ana.place())
    assert again.controller is table and tuple(table.match.current.moves) == moves
    assert again.level_pick.value == ana.level_pick.value and again.rules_pick.value == table.rules.key
    level = mark(f"levels.in_sentence.{ana.level_pick.value}")
    assert said(again.board.state["message"], "play.saved_game.carried", number=table.match.hand_number,
                hands=table.match.hands, rules=mark(f"rules.{table.rules.key}"), level=level)
    assert not said(again.board.state["message"], "play.set_aside.back")
    assert not said(again.board.state["message"], "play.set_aside.back_as_left")
    board = again.codes_to_keep()[0]  # kept for a reload with its table: a code alone would seat the learner first
    assert isinstance(board, dict) and board["seat"] == table.seat
    assert again.set_aside == {("computer", table.rules.key): older}


def test_another_language_tells_the_moves_of_the_match_the_computer_finished_again(tables: tuple[Referee, Clock],
                                                                                    keyed: None) -> None:
    """The page drawn in another language takes up the very table the computer finishes the match at: its list of the
    hand's moves is told again in the new language (it kept the old one's words, under a heading in the new)."""
    authority, clock = tables
    ana, _panel, table = finished_by_the_computer(authority, clock)
    count = len(table.log)
    assert count
    table.log = [replace(entry, told=("old words", "old words")) for entry in table.log]  # (said in another language)
    again = section(authority, "ana", redrawn=True)
    again.take_place(ana.place())
    told = [entry.text(table.viewer) for entry in table.log]
    assert again.controller is table and len(told) == count and "old words" not in told
    assert all(line.startswith("⟦narration.") for line in told), told  # (each told again from the catalogue)


def test_another_language_keeps_no_second_copy_of_the_match_the_computer_finished(tables: tuple[Referee, Clock],
                                                                                    keyed: None) -> None:
    """The browser's kept matches, read by the page drawn in another language, hold the match on the board: it is not
    kept aside a second time, so choosing other rules keeps it once, with no word of an older match given up (it said
    "An older match kept under … is no longer kept", of the same match)."""
    authority, clock = tables
    ana, _panel, table = finished_by_the_computer(authority, clock)
    again = section(authority, "ana", redrawn=True)
    again.take_place(ana.place())
    again.keeper.storage.restore(ana.keeper.storage.saved, this_tab=False)  # what the browser kept, read once more
    assert again.controller is table and again.set_aside == {}
    other = next(key for key in RULE_SETS if key != table.rules.key)
    again.rules_pick.value = other
    assert said(again.board.state["message"], "play.set_aside.kept_rules", rules=mark(f"rules.{table.rules.key}"))
    assert not said(again.board.state["message"], "play.set_aside.replaced", rules=mark(f"rules.{table.rules.key}"))
    assert again.set_aside == {("computer", table.rules.key): table}


def reloaded(play: PlaySection, authority: Referee, visitor: str) -> PlaySection:
    """A reload of `play`'s page: a new section, seated by the server as a reload is, then given back what `play`'s
    keeper had this tab keep."""
    again = section(authority, visitor)
    again.keeper.storage.restore(play.keeper.storage.saved, this_tab=True)
    return again


def test_a_reload_takes_up_the_match_the_computer_was_finishing_where_it_was(tables: tuple[Referee, Clock],
                                                                             keyed: None) -> None:
    """The server stores no move once the computer sat (it records only how the table ended): the browser keeps the
    match with its table, and a reload takes it up where it was, still a class table's one match whose moves before
    the computer sat stay the classmate's (a reload used to deal a new match against the computer, the table's match
    gone without a word)."""
    authority, clock = tables
    ana, panel, table = finished_by_the_computer(authority, clock)
    made_a_move(ana)
    code = authority.store.table(panel.table_code or "")
    assert code is not None and code.ending == f"computer:{ana.level_pick.value}"
    again = reloaded(ana, authority, "ana")
    back = again.controller
    assert isinstance(back, ClassTable) and back is not table and not back.at_class_table
    assert back.seat == table.seat and back.match.to_json() == table.match.to_json()
    assert back.computer_sat == table.computer_sat and back.undo_floor == table.undo_floor
    assert isinstance(back.seats[1 - back.seat], Computer) and back.hinter is None  # (this section gives none)
    assert again.level_pick.value == ana.level_pick.value and again.rules_pick.value == table.rules.key
    assert panel_of(again).layout.display == "none"
    assert said(again.board.state["message"], "classmates.computer_back", code=code.code, name="Ben",
                level=mark(f"levels.names.{ana.level_pick.value}"))
    assert back.offers()["new_game"] == "", "a new match takes its place, as against the computer"
    assert back.offers()["save"] == mark("classmates.finished_no_save"), "a code would seat the learner first"
    assert again.codes_to_keep() == ana.codes_to_keep()  # and kept again, as it was
    made_a_move(again)  # it plays on
    assert len(back.match.current.moves) > len(table.match.current.moves)


def test_a_reload_shows_the_match_the_computer_finished_as_it_ended_from_the_second_seat(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """Ben (the second seat) finishes against the computer the match Ana left, to its end: a reload shows the board as
    it ended, with its result, from his seat."""
    authority, _clock = tables
    _ana, ana_panel = opened_by_ana(authority, hands=1)
    ben = section(authority, "ben")
    ben.level_pick.value = CLASSMATE
    panel = panel_of(ben)
    panel.name.value = "Ben"
    assert ana_panel.code is not None
    panel.join(ana_panel.code)
    leave_table(ana_panel)
    panel.on_report(panel.client.mine())
    panel.finish_button.click()
    table = ben.controller
    assert isinstance(table, ClassTable) and table.seat == 1 and table.opponent is not None
    while not table.match.is_over:
        made_a_move(ben)
    result = table.match.result_for(1)
    again = reloaded(ben, authority, "ben")
    back = again.controller
    assert isinstance(back, ClassTable) and back.seat == 1 and back.match.is_over
    assert back.mode.kind == "match_over" and back.match.to_json() == table.match.to_json()
    assert back.viewer == 1 and back.view().squares == table.view().squares  # the board as it ended
    assert said(again.board.state["message"], "classmates.computer_over", code=ana_panel.table_code, name="Ana")
    totals = back.match.totals
    won = {"won": ("play.match_won", totals[1], totals[0]), "lost": ("play.match_lost", totals[1], totals[0]),
           "drawn": ("play.match_drawn", totals[1], totals[0])}[result]
    assert said(again.board.state["message"], won[0], mine=won[1], theirs=won[2])
    assert again.codes_to_keep()[0] is not None, "kept on the board as it ended, until another match comes"
    again.rules_pick.value = "ORIGINAL_1963"  # another match: the finished one is done with, and not kept
    assert again.codes_to_keep() == (None, {})


def test_another_language_shows_a_match_the_computer_finished_as_it_ended(tables: tuple[Referee, Clock],
                                                                         keyed: None) -> None:
    """Once over, the match the computer finished is carried into another language as it ended, with its result (it
    was dropped: a new match against the computer took its place)."""
    authority, clock = tables
    ana, _panel, table = finished_by_the_computer(authority, clock)
    while not table.match.is_over:
        if table.mode.kind == "hand_over":
            ana.board.dispatch({"type": "action", "id": "next_hand"})
        else:
            made_a_move(ana)
    again = section(authority, "ana")
    again.take_place(ana.place())
    shown = again.controller
    assert isinstance(shown, ClassTable) and shown.match is table.match and shown.mode.kind == "match_over"
    assert said(again.board.state["message"], "classmates.computer_over", code=table.code, name="Ben")
    assert said(again.board.state["message"], "play.match_won" if table.match.winner == table.seat
                else "play.match_drawn" if table.match.winner is None else "play.match_lost")


def test_a_match_the_computer_finished_gives_way_to_a_table_the_page_sits_at(tables: tuple[Referee, Clock],
                                                                            keyed: None) -> None:
    """Reloaded while the server seats the page at another table (a round), the match the computer was finishing is
    kept aside, as choosing another opponent keeps it."""
    authority, clock = tables
    ana, _panel, table = finished_by_the_computer(authority, clock)
    authority.open("ana", "Ana")
    again = reloaded(ana, authority, "ana")
    assert again.at_class_table()
    kept = again.set_aside[("computer", table.rules.key)]
    assert isinstance(kept, ClassTable) and kept.match.to_json() == table.match.to_json() and kept.seat == table.seat


def test_a_damaged_match_the_computer_finished_changes_nothing(tables: tuple[Referee, Clock], keyed: None) -> None:
    """What the browser gives back is input: a class table's match with a seat, names, table code or the computer's
    place that cannot be, is logged and changes nothing."""
    import json

    authority, clock = tables
    ana, _panel, table = finished_by_the_computer(authority, clock)
    good = json.loads(ana.keeper.storage.saved)
    hand = table.match.hand_number
    for change in ({"seat": 2}, {"seat": True}, {"names": ["Ana"]}, {"names": ["Ana", "x" * 40]}, {"table": "KRT"},
                   {"sat": [hand + 1, 0]}, {"sat": [hand, 999]}, {"sat": [hand, -1]}, {"sat": "1,0"},
                   {"code": "LG1-nonsense"}, {"code": None}):
        bad = json.dumps({**good, "board": {**good["board"], **change}})
        again = section(authority, "ana")
        shown, message = again.controller, again.board.state["message"]
        again.keeper.storage.restore(bad, this_tab=True)
        assert again.controller is shown and again.board.state["message"] == message and not again.set_aside, change


def test_the_adaptive_level_counts_no_match_between_classmates(tables: tuple[Referee, Clock], keyed: None) -> None:
    """With "Adaptive" chosen before a class table, the table's match is the class's to count: it moves no level
    (it was counted as the learner's win against the computer, whoever won)."""
    authority, _clock = tables
    code = authority.open("ana", "Ana")
    authority.join("ben", "Ben", code)
    play_to_the_last_move(authority, code)
    plays = {}
    for name in ("ana", "ben"):
        play = build_play(Discarder(), opponent_factory=Discarder, seed=11, background=False,  # type: ignore[arg-type]
                          address=lambda: "http://school:8866/", class_client=Link(authority, name))  # type: ignore[arg-type]
        play.level_pick.value = "adaptive"
        play.resume_class_table()
        plays[name] = play
    live = authority.tables[code]
    mover = plays["ana" if live.row.visitors[live.match.current.to_move] == "ana" else "ben"]
    table = mover.controller
    assert isinstance(table, ClassTable) and mover.adaptive is not None
    for intent in intents_for(table.view(), table.view().legal_moves()[0]):
        mover.board.dispatch(intent)
    assert table.match.is_over
    assert (mover.adaptive.wins, mover.adaptive.losses) == (0, 0)


def test_the_sections_hints_come_with_the_computer_after_a_class_table(tables: tuple[Referee, Clock],
                                                                       keyed: None) -> None:
    authority, clock = tables
    ana, panel = opened_by_ana(authority, quick_hint)
    assert panel.code is not None
    authority.join("ben", "Ben", panel.code)
    panel.on_report(panel.client.mine())
    assert ana.controller.hinter is None  # no hints between classmates
    clock.now += GONE_SECONDS
    panel.on_report(panel.client.mine())
    panel.finish_button.click()  # the computer's match now: the section's hints, as against the computer anywhere
    table = ana.controller
    assert isinstance(table, ClassTable) and table.hinter is quick_hint and table.viewer_to_move
    assert table.offers()["hint"] == ""


def test_a_match_against_the_computer_after_a_class_table_has_hints_and_the_rules_length(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """A class table (no hints, one hand) left without the computer: the next match against the computer is the
    section's own, with its hints and the rules' number of hands."""
    authority, _clock = tables
    ana, panel = opened_by_ana(authority, quick_hint, hands=1)
    assert isinstance(ana.controller, ClassTable) and ana.controller.hinter is None
    assert ana.controller.match.hands == 1
    leave_table(panel)
    ana.level_pick.value = "beginner"
    table = ana.controller
    assert not isinstance(table, ClassTable) and table.hinter is quick_hint
    assert table.match.hands == table.rules.hands_per_match != 1


def quick_hint(view: Any) -> Any:
    return hint(view, "beginner")


def test_a_reloaded_page_sits_at_its_table_again(tables: tuple[Referee, Clock], keyed: None) -> None:
    authority, _clock = tables
    code = authority.open("ana", "Ana")
    authority.join("ben", "Ben", code)
    again = section(authority, "ben")
    assert again.level_pick.value == CLASSMATE and isinstance(again.controller, ClassTable)
    assert again.controller.seat == 1 and said(again.board.state["message"], "classmates.started", code=code)
    panel = panel_of(again)
    panel.name.value, panel.code_box.value = "Ben", "KRT"
    panel.join_button.click()
    assert said(again.board.state["message"], "classmates.refused.bad_code", length=4)


def test_a_table_seated_on_the_board_has_its_message_announced(tables: tuple[Referee, Clock], keyed: None) -> None:
    authority, _clock = tables
    ana = section(authority, "ana")
    before = ana.board.state["seq"]
    ana.level_pick.value = CLASSMATE
    panel = panel_of(ana)
    panel.name.value = "Ana"
    panel.open_button.click()  # the waiting table's first message is a new one: the page says it
    assert ana.board.state["seq"] > before and said(ana.board.state["message"], "classmates.seating.wait")


def test_a_waiting_table_shows_leave_also_after_a_reload(tables: tuple[Referee, Clock], keyed: None) -> None:
    authority, _clock = tables
    ana, panel = opened_by_ana(authority)
    code = panel.code
    assert code is not None and panel.leave_button.layout.display == ""
    panel.on_report(panel.client.mine())  # the watch's report: still waiting for a classmate, Leave stays
    assert ana.controller.mode.kind == "seating" and panel.leave_button.layout.display == ""
    assert panel.leave_button in panel.table_buttons and panel.finish_button.layout.display == "none"
    assert [part.layout.display for part in panel.entry] == ["none"] * 3
    again = section(authority, "ana")  # a reload: the waiting table, its code, and Leave
    other = panel_of(again)
    assert again.level_pick.value == CLASSMATE and other.layout.display == ""
    assert again.controller.mode.kind == "seating" and said(other.status.value, "classmates.opened", code=code)
    assert again.now_doing() == (None, None)  # waiting, not playing anyone (the class page says "Play")
    assert other.leave_button.layout.display == ""
    bens = authority.open("ben", "Ben")
    leave_table(other)  # the table closes, leaves no row, and the entry and open tables come back
    assert code not in authority.tables and authority.store.table(code) is None
    assert [part.layout.display for part in other.entry] == [""] * 3 and other.leave_button.layout.display == "none"
    joins = [child.description for child in other.open_tables.children if hasattr(child, "on_click")]
    assert joins == [mark("classmates.join_named", name="Ben", code=bens)]
    cleos_page = section(authority, "cleo")
    cleo = panel_of(cleos_page)
    cleo.show_button.click()
    cleos = [child for child in cleo.open_tables.children if hasattr(child, "on_click")]
    authority.join("dan", "Dan", bens)  # Ben's table fills while Cleo's list still offers it
    cleo.name.value = "Cleo"
    cleos[0].click()  # refused, and the list shown again without it: no button left that only refuses
    assert said(cleo.open_tables.children[0].value, "classmates.no_open_tables")
    assert not [child for child in cleo.open_tables.children if hasattr(child, "on_click")]
    assert said(cleos_page.board.state["message"], "classmates.refused.table_full", code=bens)
    assert said(again.board.state["message"], "classmates.left", code=code)
    assert again.controller.mode.kind == "closed" and not again.at_class_table()
    state = again.board.state  # no classmate sat down: no hand was dealt to be shown, and nobody is named
    assert not state.get("hand") and not state.get("aside") and not state.get("actions")
    assert said(state["turn"], "classmates.closed_unseated_turn", code=code, rules=mark("rules.REVISED_2008"))
    assert [square["value"] for square in state["squares"]] == [0, 0]
    other.name.value = "Ana"
    other.open_button.click()  # free at once
    assert other.code not in (None, code) and not said(again.board.state["message"], "classmates.refused.one_table")


def play_to_the_last_move(authority: Referee, code: str) -> Move:
    """Play table `code`'s match through the server up to (not including) the move that ends it: that move."""
    live = authority.tables[code]
    while True:
        match, hand = live.match, live.match.current
        if hand.is_over:
            authority.move(live.row.visitors[1] or "", code, len(live.moves), dict(NEXT_HAND))
            continue
        move = hand.view(hand.to_move).legal_moves()[0]
        trial = hand.copy()
        trial.apply(move)
        if trial.is_over and match.hand_number == match.hands:
            return move
        authority.move(live.row.visitors[hand.to_move] or "", code, len(live.moves), move_to_data(move))


def test_a_finished_match_ends_on_both_boards_and_frees_both(tables: tuple[Referee, Clock],
                                                            keyed: None) -> None:
    authority, _clock = tables
    code = authority.open("ana", "Ana")
    authority.join("ben", "Ben", code)
    play_to_the_last_move(authority, code)
    plays = {"ana": section(authority, "ana"), "ben": section(authority, "ben")}  # both sit where the match is
    told: dict[str, list[tuple[str, str]]] = {name: [] for name in plays}
    for name, play in plays.items():
        play.match_listeners.append(lambda against, result, _match, n=name: told[n].append((against, result)))
    live = authority.tables[code]
    mover = "ana" if live.row.visitors[live.match.current.to_move] == "ana" else "ben"
    waiter = "ben" if mover == "ana" else "ana"
    table = plays[mover].controller
    assert isinstance(table, ClassTable)
    for intent in intents_for(table.view(), table.view().legal_moves()[0]):
        plays[mover].board.dispatch(intent)  # the match's last move, by clicks
    assert code not in authority.tables and table.match.is_over
    row = authority.store.table(code)
    assert row is not None and row.ending == "finished" and row.scores == table.match.totals
    for name in (mover, waiter):  # the watch's report: the last move, and the table closed as finished
        panel = panel_of(plays[name])
        report = panel.client.mine()
        assert report["ended"] == "finished"
        panel.on_report(report)
        shown = plays[name].controller
        assert isinstance(shown, ClassTable) and shown.match.is_over and shown.mode.kind == "match_over"
        assert shown.hand.moves == table.hand.moves and shown.store_move is None
        assert not said(panel.status.value, "classmates.other_left") and panel.code is None
        assert panel.leave_button.layout.display == "none" and panel.finish_button.layout.display == "none"
        assert [part.layout.display for part in panel.entry] == [""] * 3 and not plays[name].at_class_table()
        notes = {action["id"]: action["note"] for action in plays[name].board.state["actions"]}
        assert said(notes["go_out"], "classmates.match_over"), "the way on is another table or opponent"
        assert plays[name].new_button.tooltip == mark("classmates.closed_new"), "no table left to leave"
        totals, winner = shown.match.totals, shown.match.winner
        message = plays[name].board.state["message"]
        if winner == shown.seat:  # the winner is told in the second person, on their own board
            assert said(message, "play.match_won", mine=totals[winner], theirs=totals[1 - winner])
            assert not said(message, "play.people.match_won")
        elif winner is not None:
            assert said(message, "play.people.match_won", name=shown.name(winner), won=totals[winner],
                        lost=totals[1 - winner])
        else:
            assert said(message, "play.match_drawn")
    for name in plays:  # the match is the tables' to count (the standings and the class page's Games cell)
        assert told[name] == [(CLASSMATE, None)], "the last hand's end, once"
    row = authority.store.table(code)
    assert row is not None and row.ending == "finished"
    for name, play in plays.items():  # both free at once
        panel_of(play).name.value = name.title()
        panel_of(play).open_button.click()
        assert panel_of(play).code not in (None, code)


def test_a_table_the_server_closed_says_why(tables: tuple[Referee, Clock], keyed: None) -> None:
    authority, clock = tables
    code = authority.open("ana", "Ana")
    authority.join("ben", "Ben", code)
    plays = {"ana": section(authority, "ana"), "ben": section(authority, "ben")}
    authority.forget()
    for play in plays.values():
        panel = panel_of(play)
        panel.on_report(panel.client.mine())
        assert said(play.board.state["message"], "classmates.closed_why.forgotten", code=code)
        assert panel.status.value == "", "said once, on the board"
        assert play.controller.mode.kind == "closed" and panel.finish_button.layout.display == "none", \
            "cleared with the class, as a table the teacher ended: not played on"
        assert play.controller.offers()["finish"] == mark("classmates.refused.ended_by_teacher")
    code = authority.open("ana", "Ana")
    authority.join("ben", "Ben", code)
    ana = section(authority, "ana")
    clock.now += EVERYONE_GONE_SECONDS  # neither page has asked for ten minutes (a laptop asleep): the table closes
    assert authority.waiting() == [] and code not in authority.tables
    panel = panel_of(ana)  # and Ana's page, back, is told why
    panel.on_report(panel.client.mine())
    assert said(ana.board.state["message"], "classmates.closed_why.abandoned", code=code, minutes=10)
    assert not said(ana.board.state["message"], "classmates.other_left") and panel.status.value == ""


def test_a_table_the_teacher_ended_frees_both_pages_and_says_so(tables: tuple[Referee, Clock], keyed: None) -> None:
    """The teacher ends a table in play: both pages leave it, each saying (in the present) their teacher ended it and
    no result of it counts, once, in the board's message (the status under the classmate box, shown again, had said
    it a second time: it is empty, and takes no room); a page opened afterwards (a reload) neither shows the table nor
    says anything of it: they were not away, and were told already. Both may open a table again."""
    authority, _ = tables
    code = authority.open("ana", "Ana")
    authority.join("ben", "Ben", code)
    plays = {"ana": section(authority, "ana"), "ben": section(authority, "ben")}
    authority.end_by_teacher(code)
    for play in plays.values():
        panel = panel_of(play)
        panel.on_report(panel.client.mine())
        message = play.board.state["message"]
        assert message == mark("classmates.closed_why.teacher", code=code), message
        assert panel.status.value == "" and panel.status.layout.display == "none", "said once: on the board"
        assert [part.layout.display for part in panel.entry] == [""] * 3, "a table may be opened or joined again"
        assert play.controller.mode.kind == "closed" and panel.code is None
    reloaded = section(authority, "ben")
    again = panel_of(reloaded)
    assert not again.resume() and again.status.value == "" and again.away == ""
    assert not isinstance(reloaded.controller, ClassTable), "not shown again after a reload (the students' guide)"
    assert mark("classmates.while_away.teacher", code=code) not in reloaded.board.state["message"]
    for name, play in plays.items():  # both free
        panel_of(play).name.value = name.title()
        panel_of(play).open_button.click()
        assert panel_of(play).code not in (None, code)


def paired_and_moved(authority: Referee) -> tuple[PlaySection, PlaySection, PlaySection]:
    """Ana and Ben paired by the teacher's round (the 2008 rules, four hands) and seated, and the one to move first has
    made a move: (Ana's section, Ben's, the one who moved)."""
    ana, ben = section(authority, "ana"), section(authority, "ben")
    authority.pair({"ana": "Ana", "ben": "Ben"}, "REVISED_2008", 4, "beginner")
    for play in (ana, ben):
        panel_of(play).on_report(panel_of(play).client.mine())
    mover = ana if ana.controller.hand.to_move == ana.controller.viewer else ben
    table = mover.controller
    for intent in intents_for(table.view(), table.view().legal_moves()[0]):
        mover.board.dispatch(intent)
    return ana, ben, mover


def test_a_table_the_teacher_ended_offers_no_finish_against_the_computer(tables: tuple[Referee, Clock],
                                                                          keyed: None) -> None:
    """The teacher ends the round while its match is under way: no seat is empty and both players are free, so neither
    page offers Finish against the computer, nor says the computer takes an empty seat (both pages did)."""
    authority, _clock = tables
    ana, ben, _mover = paired_and_moved(authority)
    assert authority.round is not None
    authority.end_round(authority.round.number)
    for play in (ana, ben):
        panel = panel_of(play)
        panel.on_report(panel.client.mine())
        assert play.controller.mode.kind == "closed" and not play.controller.match.is_over
        assert said(play.board.state["message"], "classmates.closed_why.teacher", code=panel.table_code)
        assert panel.status.value == "", "said once, on the board"
        assert panel.finish_button.layout.display == "none" and panel.leave_button.layout.display == "none"
        assert play.controller.offers()["finish"] == mark("classmates.refused.ended_by_teacher")
        panel.finish()
        assert play.controller.message == mark("classmates.refused.ended_by_teacher")
        assert play.controller.mode.kind == "closed"
        assert not said(play.board.state["message"], "classmates.computer_seated")


def test_a_hand_cut_short_by_the_teacher_may_be_reviewed(tables: tuple[Referee, Clock], keyed: None) -> None:
    """The teacher ends a table in the middle of a hand: no move is made on it any more, so the one who moved may
    review their moves at once (Review this hand was greyed "until the hand is over", which it never will be); the
    other has no move to review, and says so. Closing the review leaves the table closed."""
    authority, _clock = tables
    ana, ben, mover = paired_and_moved(authority)
    other = ben if mover is ana else ana
    table = mover.controller
    assert table.offers()["review"] == mark("classmates.review_after_hand"), "not while the hand is played"
    assert authority.round is not None
    authority.end_round(authority.round.number)
    for play in (ana, ben):
        panel_of(play).on_report(panel_of(play).client.mine())
    assert table.mode.kind == "closed" and not table.hand.is_over and table.offers()["review"] == ""
    assert other.controller.offers()["review"] == mark("review.summary.empty")
    mover.board.dispatch({"type": "action", "id": "review"})
    assert table.mode.kind == "reviewing" and said(mover.board.state["message"], "review.opened")
    mover.board.dispatch({"type": "action", "id": "review_close"})
    assert table.mode.kind == "closed" and table.offers()["finish"] == mark("classmates.refused.ended_by_teacher")


def test_a_match_kept_aside_for_a_round_comes_back_after_the_teacher_ends_it_and_a_reload(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """Ana plays the computer (she has moved) when the teacher's round seats her with Ben under the same rules: her
    match is kept aside. The teacher ends the round and Ana reloads, her browser giving back what it kept after the
    page heard of the table, or before: her match comes back onto the board where it was, in place of the fresh deal
    she had not begun, after the words on the table (the fresh deal stayed, said to be "a new match", and the kept
    match could not be chosen back: its rules and opponent were chosen already)."""
    authority, _clock = tables
    ana, ben = section(authority, "ana"), section(authority, "ben")
    own = made_a_move(ana)
    played = own.match.to_json()
    authority.pair({"ana": "Ana", "ben": "Ben"}, "REVISED_2008", 4, "beginner")
    for play in (ana, ben):
        panel_of(play).on_report(panel_of(play).client.mine())
    assert isinstance(ana.controller, ClassTable) and own in ana.set_aside.values()
    code = panel_of(ana).table_code
    assert authority.round is not None
    authority.end_round(authority.round.number)
    kept = ana.keeper.storage.saved
    for browser_first in (False, True):
        again = build_play(Discarder(), opponent_factory=Discarder, seed=11,  # type: ignore[arg-type]
                           background=False, address=lambda: "http://school:8866/",
                           class_client=Link(authority, "ana"))  # type: ignore[arg-type]
        if browser_first:
            again.keeper.storage.restore(kept, this_tab=True)
        again.resume_class_table()
        if not browser_first:
            again.keeper.storage.restore(kept, this_tab=True)
        back = again.controller
        assert not isinstance(back, ClassTable) and back.match.to_json() == played, "where she left it"
        assert again.set_aside == {} and again.level_pick.value == "beginner"
        message = again.board.state["message"]
        away = mark("classmates.while_away.teacher", code=code)
        # told once, on the first page she comes back to (the second reload, told already, says nothing of it)
        assert message.startswith(away) if not browser_first else away not in message
        assert said(message, "play.saved_game.resumed", rules=mark("rules.REVISED_2008"))
        assert not said(message, "play.welcome"), "no new match is said to have begun"
    panel = panel_of(ana)  # and in the page she had, told of the table's end: choosing the computer takes it up
    panel.on_report(panel.client.mine())
    assert said(ana.board.state["message"], "classmates.closed_why.teacher", code=code)
    ana.level_pick.value = "beginner"
    assert ana.controller is own and said(ana.board.state["message"], "play.set_aside.back_as_left")


def test_a_table_the_teacher_ended_while_the_student_was_away_is_told_once_when_they_come_back(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """Ben's page was not connected when the teacher ended his table (his kernel asked, unheard by any page): the page
    he comes back to says that it ended while he was away, once (the app redrawn in place does not say it again, nor
    does a later reload), and the line holds while the server reports the table."""
    authority, _ = tables
    code = authority.open("ana", "Ana")
    authority.join("ben", "Ben", code)
    authority.end_by_teacher(code)
    assert authority.report("ben", present=False)["told"] is False, "asked while no page of his was connected"
    ben = section(authority, "ben")
    panel = panel_of(ben)
    away = mark("classmates.while_away.teacher", code=code)
    assert panel.status.value == away and ben.board.state["message"].startswith(away)
    assert ben.board.state["message"].count(away) == 1
    ben.resume_class_table()  # the same board taken up again (the app redrawn in place): said once
    assert ben.board.state["message"].count(away) == 1
    panel.on_report(panel.client.mine())  # the next report (told now) does not take it back
    assert panel.status.value == away and ben.board.state["message"].startswith(away)
    later = section(authority, "ben")  # a reload afterwards: told already
    assert panel_of(later).status.value == "" and away not in later.board.state["message"]


def test_after_the_class_is_forgotten_a_table_closed_while_away_no_longer_says_what_it_counted(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """Ben was away while Ana played their match on against the computer: his page says it counts as a loss for him.
    The teacher forgets the class (its standings with it): his page is told, and takes the line back, beside the
    classmate controls and on the board."""
    authority, clock = tables
    code = authority.open("ana", "Ana")
    authority.join("ben", "Ben", code)
    clock.now += GONE_SECONDS
    authority.report("ana")
    authority.end("ana", code, "computer:casual")
    ben = section(authority, "ben")  # (a page opened: it resumes its class table)
    panel = panel_of(ben)
    away = mark("classmates.while_away.computer", name="Ana", code=code)
    assert said(panel.status.value, "classmates.while_away.computer", name="Ana", code=code)
    assert ben.board.state["message"].startswith(away)
    woken: list[str] = []
    authority.changed = woken.append
    authority.forget()
    assert "ben" in woken and authority.report("ben")["table"] is None, "his page is told, and nothing is left to say"
    panel.on_report(panel.client.mine())
    assert panel.status.value == "" and panel.away == ""
    assert away not in ben.board.state["message"]


def test_a_classmate_renamed_during_the_match_is_named_anew_on_the_other_board(tables: tuple[Referee, Clock],
                                                                             keyed: None) -> None:
    """Ben keeps another name in the middle of the match: Ana's page is told, and her board names his square and his
    turn by it; a closed table keeps the names it was played under."""
    authority, _ = tables
    code = authority.open("ana", "Ana")
    authority.join("ben", "Ben", code)
    ana = section(authority, "ana")
    panel = panel_of(ana)
    labels = [square["label"] for square in ana.board.state["squares"]]
    assert mark("play.people.square", name="Ben") in labels
    woken: list[str] = []
    authority.changed = woken.append
    authority.rename("ben", "Benito")
    assert sorted(woken) == ["ana", "ben"] and authority.report("ana")["names"] == ["Ana", "Benito"]
    row = authority.store.table(code)
    assert row is not None and row.names == ("Ana", "Benito"), "stored: a restart names him so too"
    panel.on_report(panel.client.mine())
    labels = [square["label"] for square in ana.board.state["squares"]]
    assert mark("play.people.square", name="Benito") in labels and mark("play.people.square", name="Ben") not in labels
    assert ana.controller.name(1) == "Benito"
    del woken[:]
    authority.rename("ben", "Benito")  # the same name again: nothing changes, nobody is woken
    authority.rename("cat", "Cat")  # at no table: nothing
    assert woken == []
    authority.end_by_teacher(code)
    authority.rename("ben", "Ben")
    assert authority.report("ana")["names"] == ["Ana", "Benito"], "a closed table keeps its names"


def at_one_table(authority: Referee) -> tuple[dict[str, PlaySection], str]:
    """Ana's and Ben's Play sections at the table Ana opened and Ben joined, and which of them is to move."""
    authority.join("ben", "Ben", authority.open("ana", "Ana"))
    plays = {"ana": section(authority, "ana"), "ben": section(authority, "ben")}
    table = plays["ana"].controller
    assert isinstance(table, ClassTable)
    return plays, ("ana", "ben")[table.hand.to_move]


def test_a_renamed_classmates_moves_are_told_under_the_new_name_in_the_log(tables: tuple[Referee, Clock],
                                                                          keyed: None) -> None:
    """The classmate who moved keeps another name: the other board's move log tells their move under it (it kept
    "Ben played…" under "Benito's square", naming someone nobody at the table was called any more)."""
    authority, _ = tables
    plays, mover = at_one_table(authority)
    waiter = "ben" if mover == "ana" else "ana"
    table = plays[mover].controller
    for intent in intents_for(table.view(), table.view().legal_moves()[0]):
        plays[mover].board.dispatch(intent)
    board, old = plays[waiter], mover.title()
    panel = panel_of(board)
    panel.on_report(panel.client.mine())
    log = board.controller.log
    assert log and f"={old}|" in log[-1].text(board.controller.viewer), log
    authority.rename(mover, f"{old}ito")
    panel.on_report(panel.client.mine())
    told = [entry.text(board.controller.viewer) for entry in board.controller.log]
    assert told and all(f"={old}ito|" in line and f"={old}|" not in line for line in told), told


def test_a_renamed_classmate_whose_move_the_board_waits_for_is_waited_for_under_the_new_name(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """The classmate to move keeps another name: the other board's message, which waited for their move under the old
    name, waits for it under the new one (at once, with no reload)."""
    authority, _ = tables
    plays, mover = at_one_table(authority)
    waiter = "ben" if mover == "ana" else "ana"
    board, old = plays[waiter], mover.title()
    assert board.board.state["message"].endswith(mark("play.people.waiting", name=old))
    authority.rename(mover, f"{old}ito")
    panel = panel_of(board)
    panel.on_report(panel.client.mine())
    message = board.board.state["message"]
    assert message.endswith(mark("play.people.waiting", name=f"{old}ito")), message
    assert mark("play.people.waiting", name=old) not in message


def test_a_renamed_classmate_is_waited_for_under_the_new_name_where_more_is_said_after_the_wait(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """The round seats two students who had each begun a match against the computer: the waiting board's message says
    whose move it waits for, then that its match against the computer is kept. The classmate to move keeps another
    name: the wait names them anew, and what follows it stays."""
    authority, _ = tables
    plays = {"ana": section(authority, "ana"), "ben": section(authority, "ben")}
    for play in plays.values():
        made_a_move(play)
    authority.pair({"ana": "Ana", "ben": "Ben"}, "REVISED_2008", 4, "beginner")
    for play in plays.values():
        panel_of(play).on_report(panel_of(play).client.mine())
    table = plays["ana"].controller
    assert isinstance(table, ClassTable)
    mover = ("ana", "ben")[table.hand.to_move]
    board, old = plays["ben" if mover == "ana" else "ana"], mover.title()
    before, waiting = board.board.state["message"], mark("play.people.waiting", name=old)
    assert said(before, "play.set_aside.kept") and waiting in before, before
    assert before.index(waiting) < before.index("play.set_aside.kept"), "the wait, then more"
    authority.rename(mover, f"{old}ito")
    panel = panel_of(board)
    panel.on_report(panel.client.mine())
    message = board.board.state["message"]
    assert message == before.replace(waiting, mark("play.people.waiting", name=f"{old}ito")), message


def test_a_renamed_student_whose_turn_it_is_is_greeted_by_the_new_name_on_their_own_board(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """The teacher renames the student to move before their first move: their own board, which greeted them by the
    old name ("Ana, your turn."), greets them by the new one at once; what was said of the match's start (under the
    names it began with) and what they may do stay as they were."""
    authority, _ = tables
    plays, mover = at_one_table(authority)
    board, old = plays[mover], mover.title()
    before, greeting = board.board.state["message"], mark("play.people.your_turn", name=old)
    assert greeting in before, before
    authority.rename(mover, f"{old}ito")
    panel = panel_of(board)
    panel.on_report(panel.client.mine())
    message = board.board.state["message"]
    assert message == before.replace(greeting, mark("play.people.your_turn", name=f"{old}ito")), message


def test_the_match_length_chosen_reaches_the_server_and_both_players(tables: tuple[Referee, Clock],
                                                                      keyed: None) -> None:
    """Ana chooses a match of one hand: the server's table has one hand, Ben joins it as it is, both boards say so,
    and the match ends (finished, for both) with that hand."""
    authority, _clock = tables
    ana, ben = section(authority, "ana"), section(authority, "ben")
    panel = panel_of(ana)
    ana.level_pick.value = CLASSMATE
    assert panel.length_pick.value == 4 and [value for _, value in panel.length_pick.options] == [1, 2, 4]
    assert panel.length_pick.options[0][0] == mark("classmates.length", hands=1)
    panel.name.value, panel.length_pick.value = "Ana", 1
    panel.open_button.click()
    code = panel.code
    assert code is not None and authority.tables[code].row.hands == 1
    assert said(panel.status.value, "classmates.opened_help", hands=1)
    ben.level_pick.value = CLASSMATE
    other = panel_of(ben)
    other.name.value, other.code_box.value = "Ben", code
    other.join_button.click()
    for play in (ana, ben):
        panel_of(play).on_report(panel_of(play).client.mine())
        assert play.controller.match.hands == 1
        assert said(play.board.state["message"], "classmates.started", code=code, hands=1)
    play_to_the_last_move(authority, code)  # (moves of both seats: the mover's page is reloaded to show them)
    live = authority.tables[code]
    mover = section(authority, live.row.visitors[live.match.current.to_move] or "")
    table = mover.controller
    assert isinstance(table, ClassTable)
    for intent in intents_for(table.view(), table.view().legal_moves()[0]):
        mover.board.dispatch(intent)
    row = authority.store.table(code)
    assert row is not None and row.ending == "finished" and row.hand_scores == (table.match.totals,)


def test_a_round_seats_both_pages_by_itself_and_brings_play_forward(tables: tuple[Referee, Clock],
                                                                    keyed: None) -> None:
    authority, _clock = tables
    ana, ben = section(authority, "ana"), section(authority, "ben")
    forward: list[str] = []
    for play, who in ((ana, "ana"), (ben, "ben")):
        play.come_forward.append(lambda who=who: forward.append(who))
        assert not isinstance(play.controller, ClassTable) and panel_of(play).layout.display == "none"
    own = made_a_move(ana)  # Ana is in a match against the computer: it is kept aside for her
    authority.pair({"ana": "Ana", "ben": "Ben"}, "ORIGINAL_1963", 2, "beginner")
    for play, other in ((ana, "Ben"), (ben, "Ana")):
        panel = panel_of(play)
        panel.on_report(panel.client.mine())  # the watch's report: no click of the learner's
        table = play.controller
        assert isinstance(table, ClassTable) and table.name(1 - table.seat) == other
        assert table.rules.key == "ORIGINAL_1963" and table.match.hands == 2
        assert said(play.board.state["message"], "classmates.round.classmate", number=1)
        assert said(play.board.state["message"], "classmates.started", name=other)  # (to the one who reads it)
        assert play.level_pick.value == CLASSMATE and panel.layout.display == ""
        assert panel.leave_button.layout.display == "" and panel.open_button.layout.display != ""
        panel.on_report(panel.client.mine())  # the same report again changes nothing
        assert play.controller is table
    assert forward == ["ana", "ben"]
    assert said(ana.board.state["message"], "play.set_aside.kept")
    assert not said(ben.board.state["message"], "play.set_aside.kept"), "Ben had made no move: nothing kept"
    assert ana.rules_pick.value == "ORIGINAL_1963" and ana.rules_pick.disabled, "the menu shows the table's rules"
    leave_table(panel_of(ana))
    assert not ana.rules_pick.disabled
    ana.rules_pick.value = "REVISED_2008"  # back to her own match, where it was, under its rules
    assert ana.controller is own and said(ana.board.state["message"], "play.set_aside.back_as_left")


def test_the_one_left_over_plays_the_computer_once(tables: tuple[Referee, Clock], keyed: None) -> None:
    authority, _clock = tables
    cat = section(authority, "cat")
    forward: list[bool] = []
    cat.come_forward.append(lambda: forward.append(True))
    authority.pair({"cat": "Cat"}, "RUNNING_LEOPARD", 1, "expert")
    panel = panel_of(cat)
    panel.on_report(panel.client.mine())
    table = cat.controller
    assert not isinstance(table, ClassTable) and isinstance(table.seats[1], Computer)
    assert table.rules.key == "RUNNING_LEOPARD" and table.match.hands == 1 and cat.level_pick.value == "expert"
    assert said(cat.board.state["message"], "classmates.round.computer", number=1)
    assert table.match.seed == authority.report("cat")["round"]["seed"], "the deal the server chose: it knows the match"
    assert cat.computer_match() is table.match, "the round's match, from the moment it is dealt"
    made_a_move(cat)
    assert cat.computer_match() is table.match
    assert match_id(table.match) == authority.round_matches()["cat"].match
    assert forward == [True]
    panel.on_report(panel.client.mine())  # the round is played once, not begun again at each report
    assert cat.controller is table and forward == [True]
    again = section(authority, "cat")  # a page opened after the round came does not begin it again
    panel_of(again).on_report(panel_of(again).client.mine())
    assert not said(again.board.state["message"], "classmates.round.computer", number=1)


def test_a_round_after_the_class_was_forgotten_is_played_though_its_number_came_before(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """Forgetting the class begins the rounds' numbers again: a page at the closed table of an earlier round 2
    still plays the new round 1 and 2 against the computer (it took them for rounds it had seen, and never moved)."""
    authority, clock = tables
    gus, fay = section(authority, "gus"), section(authority, "fay")
    for _ in range(2):  # rounds 1 and 2: Gus and Fay at a table each time
        clock.now += 1
        authority.pair({"gus": "Gus", "fay": "Fay"}, "REVISED_2008", 1, "casual")
        for play in (gus, fay):
            panel_of(play).on_report(panel_of(play).client.mine())
        leave_table(panel_of(gus))
        panel_of(fay).on_report(panel_of(fay).client.mine())
    authority.forget()
    panel_of(gus).on_report(panel_of(gus).client.mine())
    for number in (1, 2):  # the class begins again: Gus alone, twice, against the computer
        clock.now += 1
        authority.pair({"gus": "Gus"}, "REVISED_2008", 1, "casual")
        panel_of(gus).on_report(panel_of(gus).client.mine())
        assert said(gus.board.state["message"], "classmates.round.computer", number=number)
        assert not isinstance(gus.controller, ClassTable)


def test_a_round_against_the_computer_keeps_a_match_under_other_rules_and_says_one_under_the_same_ends(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    authority, _clock = tables
    cat = section(authority, "cat")
    own = made_a_move(cat)  # a match against the computer under the 2008 rules
    authority.pair({"cat": "Cat"}, "RUNNING_LEOPARD", 1, "expert")
    panel = panel_of(cat)
    panel.on_report(panel.client.mine())
    assert said(cat.board.state["message"], "play.set_aside.kept", rules=mark("rules.REVISED_2008"))
    assert own in cat.set_aside.values() and cat.controller is not own
    made_a_move(cat)
    authority.pair({"cat": "Cat"}, "RUNNING_LEOPARD", 1, "casual")
    panel.on_report(panel.client.mine())
    assert said(cat.board.state["message"], "classmates.round.computer", number=2)
    assert said(cat.board.state["message"], "play.set_aside.ends", rules=mark("rules.RUNNING_LEOPARD"))


def test_a_rounds_match_against_the_computer_is_kept_aside_for_the_next_round_before_any_move(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """QA: the class page said a student's match against the computer from the last round is kept aside when the next
    round seats them at a table, but their page threw it away where they had not moved in it yet. A round's match is
    kept from the moment it is dealt: aside, in the browser, and said to be, as one the student has moved in."""
    authority, _clock = tables
    cat, dan = section(authority, "cat"), section(authority, "dan")
    authority.pair({"cat": "Cat"}, "REVISED_2008", 1, "beginner")
    panel = panel_of(cat)
    panel.on_report(panel.client.mine())
    dealt = cat.controller.match
    assert said(cat.board.state["message"], "classmates.round.computer", number=1) and not cat.controller.begun
    authority.pair({"cat": "Cat", "dan": "Dan"}, "REVISED_2008", 4, "beginner")
    for play in (cat, dan):
        panel_of(play).on_report(panel_of(play).client.mine())
    assert isinstance(cat.controller, ClassTable)
    assert [table.match for table in cat.set_aside.values()] == [dealt]
    assert said(cat.board.state["message"], "play.set_aside.kept", rules=mark("rules.REVISED_2008"))
    kept = json.loads(cat.keeper.storage.saved)["aside"]
    assert list(kept) == ["REVISED_2008"] and cat.read_code(kept["REVISED_2008"]).match.to_json() == dealt.to_json()


def test_a_table_left_takes_its_code_out_of_the_box_it_was_joined_by(tables: tuple[Referee, Clock],
                                                                      keyed: None) -> None:
    """QA: after Leave the table, the box still held the code Ben had joined by, so Join stood offered and only
    answered that there is no open table of that code. Leaving takes it out; a code typed since stays."""
    authority, _clock = tables
    _ana, panel = opened_by_ana(authority)
    ben = section(authority, "ben")
    ben.level_pick.value = CLASSMATE
    other = panel_of(ben)
    other.name.value, other.code_box.value = "Ben", (panel.code or "").lower()  # as typed
    other.join_button.click()
    assert isinstance(ben.controller, ClassTable) and other.code == panel.code
    leave_table(other)
    assert other.code is None and other.code_box.value == ""
    code = authority.open("cat", "Cat")
    other.code_box.value = code
    for page in (panel, other):  # the next reports: a code typed since stays
        page.on_report(page.client.mine())
    assert other.code_box.value == code


def test_a_class_table_left_is_never_taken_up_as_a_game_at_this_device(tables: tuple[Referee, Clock],
                                                                        keyed: None) -> None:
    authority, _clock = tables
    _ana, _ben, mover = paired_and_moved(authority)
    table = mover.controller
    assert table.match.current.moves and not table.match.is_over
    leave_table(panel_of(mover))
    mover.level_pick.value = "beginner"
    mover.level_pick.value = "people"  # two people at this device: a game of their own, not the table left
    assert not isinstance(mover.controller, ClassTable) and mover.controller is not table
    assert table not in mover.set_aside.values()


def test_a_page_waiting_at_its_own_table_moves_to_its_round(tables: tuple[Referee, Clock], keyed: None) -> None:
    authority, _clock = tables
    ana, panel = opened_by_ana(authority)
    panel.on_report(panel.client.mine())
    waiting = panel.code
    assert waiting is not None and ana.controller.mode.kind == "seating"
    authority.pair({"ana": "Ana", "ben": "Ben"}, "REVISED_2008", 1, "beginner")
    panel.on_report(panel.client.mine())
    table = ana.controller
    assert isinstance(table, ClassTable) and table.mode.kind != "seating" and table.name(1 - table.seat) == "Ben"
    assert panel.code not in (None, waiting) and panel.leave_button.layout.display == ""
    assert said(ana.board.state["message"], "classmates.round.classmate", number=1)
    assert said(ana.board.state["message"], "classmates.started", name="Ben")
    assert said(ana.board.state["message"], "classmates.round.waited", code=waiting)
    assert "lt-class-invite" not in panel.status.value, "the old table's code is no longer shown"


def test_a_page_waiting_at_its_own_table_says_it_closed_when_its_round_gives_it_the_computer(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """The one report that says the round closed the table and gave its host the computer begins that match (none
    follows it to begin it later), and says what became of the table."""
    authority, _clock = tables
    ana, panel = opened_by_ana(authority)
    panel.on_report(panel.client.mine())
    waiting = panel.code
    authority.pair({"ana": "Ana"}, "REVISED_2008", 1, "beginner")
    panel.on_report(panel.client.mine())
    assert said(ana.board.state["message"], "classmates.round.computer", number=1)
    assert said(ana.board.state["message"], "classmates.round.waited", code=waiting)
    table = ana.controller
    assert table.computer_player is not None and table.match.hands == 1 and panel.code is None


def test_a_match_against_the_computer_is_kept_aside_as_such_when_a_table_is_joined(tables: tuple[Referee, Clock],
                                                                                  keyed: None) -> None:
    """Ana plays the computer, chooses a classmate and joins Ben's table: her match is said to be kept (not a match
    between two people) and comes back when she leaves the table and chooses the computer again."""
    authority, _clock = tables
    ana = section(authority, "ana")
    own = made_a_move(ana)
    ana.level_pick.value = CLASSMATE
    panel = panel_of(ana)
    panel.name.value = "Ana"
    panel.join(authority.open("ben", "Ben"))
    assert said(ana.board.state["message"], "play.set_aside.kept")
    assert not said(ana.board.state["message"], "play.set_aside.kept_people", choice=mark("play.people.choice"))
    leave_table(panel)
    ana.level_pick.value = "beginner"
    assert ana.controller is own and said(ana.board.state["message"], "play.set_aside.back_as_left")


def test_a_match_against_the_computer_is_kept_aside_when_a_table_is_opened(tables: tuple[Referee, Clock],
                                                                          keyed: None) -> None:
    """Ana plays the computer, chooses a classmate and opens a table: the waiting board says her match is kept, and
    it comes back where it was when she leaves the table nobody joined and chooses the computer again."""
    authority, _clock = tables
    ana = section(authority, "ana")
    own = made_a_move(ana)
    made = len(own.match.current.moves)
    ana.level_pick.value = CLASSMATE
    panel = panel_of(ana)
    panel.name.value = "Ana"
    panel.open_button.click()
    code = panel.code
    assert code is not None and ana.controller.mode.kind == "seating"
    assert said(ana.board.state["message"], "classmates.seating.wait", code=code)
    assert said(ana.board.state["message"], "play.set_aside.kept")
    assert own in ana.set_aside.values()
    leave_table(panel)
    ana.level_pick.value = "beginner"
    assert ana.controller is own and len(own.match.current.moves) == made
    assert said(ana.board.state["message"], "play.set_aside.back_as_left")


def test_a_table_opened_with_no_match_under_way_says_nothing_was_kept(tables: tuple[Referee, Clock],
                                                                     keyed: None) -> None:
    authority, _clock = tables
    ana, _panel = opened_by_ana(authority)
    assert ana.controller.mode.kind == "seating" and not ana.set_aside
    assert not said(ana.board.state["message"], "play.set_aside.kept")


def test_a_round_against_the_computer_never_says_a_computer_match_is_kept(tables: tuple[Referee, Clock],
                                                                          keyed: None) -> None:
    """Cat plays the computer and has chosen "A classmate" without sitting at a table when the teacher's round has her
    play the computer: the round's match takes the place of hers (there is one match against the computer at a time),
    so nothing may say hers is kept."""
    authority, _clock = tables
    cat = section(authority, "cat")
    made_a_move(cat)
    cat.level_pick.value = CLASSMATE
    authority.pair({"cat": "Cat"}, "REVISED_2008", 1, "expert")
    panel = panel_of(cat)
    panel.on_report(panel.client.mine())
    assert said(cat.board.state["message"], "classmates.round.computer", number=1)
    assert not said(cat.board.state["message"], "play.set_aside.kept")
    assert not said(cat.board.state["message"], "play.set_aside.kept_people", choice=mark("play.people.choice"))


def test_a_name_only_offered_by_the_header_gives_way_to_the_one_this_browser_kept(
        tables: tuple[Referee, Clock]) -> None:
    """The header's suggestion fills an empty name box but is not kept for tables; when the browser gives back
    the name it kept for them, that name takes its place. A name kept in the header is followed as before."""
    authority, _clock = tables
    play = section(authority, "ana")
    panel = panel_of(play)
    play.offer_classmate_name("Quiet Otter", offered=True)
    assert panel.name.value == "Quiet Otter" and panel.storage.saved != "Quiet Otter"
    first_visit = section(authority, "cat")  # a browser that kept no name for tables: the offer stays (it was
    first_visit.offer_classmate_name("Kind Bison", offered=True)  # emptied, and Open a table then asked for a name)
    page_restores(panel_of(first_visit).storage, "")
    assert panel_of(first_visit).name.value == "Kind Bison"
    page_restores(panel.storage, "Ana at school")
    assert panel.name.value == "Ana at school"
    play.offer_classmate_name("Ana", offered=False)  # kept in the header: the box holds a name of its own
    assert panel.name.value == "Ana at school"
    play_b = section(authority, "ben")
    play_b.offer_classmate_name("Ben", offered=False)
    assert panel_of(play_b).name.value == "Ben" and panel_of(play_b).storage.saved == "Ben"


def test_no_table_is_opened_or_joined_under_a_name_the_header_refuses(tables: tuple[Referee, Clock]) -> None:
    """The name a table is opened or joined under becomes the student's (one name): one the header refuses (a
    classmate here keeps it) opens and joins nothing, where the table opened first and the header refused after."""
    authority, _ = tables
    _ana, panel = opened_by_ana(authority)
    assert panel.code is not None
    ben = section(authority, "ben")
    refused: list[str] = []
    ben.name_listeners.append(lambda name: refused.append(name) is not None)  # the header refuses it
    other = panel_of(ben)
    other.name.value = "Ana"
    other.open_button.click()
    other.join(panel.code)
    assert refused == ["Ana", "Ana"] and other.code is None and not isinstance(ben.controller, ClassTable)
    assert authority.report("ben")["table"] is None and len(authority.tables) == 1


def test_a_table_link_offers_the_table_once_they_have_a_name_and_a_link_changes_nothing_at_a_table(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """The invitation says a classmate may open the link: it puts the table's code in the box and says that Join
    table seats them there, once the student has a name (the one the header offers may come a moment later), and
    the press joins under it; a link's rules or level at a table (a reload there) change nothing."""
    authority, _ = tables
    _ana, panel = opened_by_ana(authority)
    assert panel.code is not None
    ben = section(authority, "ben")
    used: list[str] = []
    ben.link_used_listeners.append(used.append)
    ben.join_table(panel.code)  # the page opens before the header has offered a name
    assert not isinstance(ben.controller, ClassTable) and panel_of(ben).code_box.value == panel.code
    assert used == [], "the link is still to be followed (a reload now follows it again)"
    named: list[str] = []
    ben.name_listeners.append(lambda name: named.append(name) is None)  # kept
    ben.offer_classmate_name("Kind Bison", offered=True)
    # offered, not joined: a link that seated Ben at once let the one who sent it count his match as lost, once he
    # closed the page and they finished it against the computer
    assert not isinstance(ben.controller, ClassTable) and named == []
    assert said(ben.board.state["message"], "classmates.link_offered", code=panel.code, join=mark("classmates.join"))
    assert offer_shown(ben) == ben.board.state["message"], "under Join table too: the top of a phone's screen"
    assert used == ["table"], "followed: the page's address forgets it (a reload once the table closed warned of it)"
    panel_of(ben).code_box.value = "ZZZZ"
    assert offer_shown(ben) == "", "another code typed: Join table no longer seats him at the link's table"
    panel_of(ben).code_box.value = panel.code
    panel_of(ben).join_button.click()
    table = ben.controller
    assert isinstance(table, ClassTable) and table.name(table.seat) == "Kind Bison" and named == ["Kind Bison"]
    assert said(ben.board.state["message"], "classmates.started", code=panel.code)
    message = ben.board.state["message"]
    ben.open_deal(rules="ORIGINAL_1963", level="casual")
    assert ben.controller is table and ben.board.state["message"] == message and ben.rules_pick.value == "REVISED_2008"
    carl = section(authority, "carl")
    panel_of(carl).name.value = "Carl"
    carl.link_used_listeners.append(used.append)
    carl.join_table(panel.code)  # a name already: offered at once; pressed, refused (the table is full), said so
    assert not isinstance(carl.controller, ClassTable) and used == ["table", "table"]
    assert said(carl.board.state["message"], "classmates.link_offered", code=panel.code)
    assert offer_shown(carl) == carl.board.state["message"]
    panel_of(carl).join_button.click()
    assert said(carl.board.state["message"], "classmates.refused.table_full", code=panel.code)
    assert offer_shown(carl) == "", "refused: the words that offered the table are not left standing"


def offer_shown(play: PlaySection) -> str:
    """The words under Join table that offer the table of a link (the text of the open tables' area)."""
    shown = [child.value for child in panel_of(play).open_tables.children if isinstance(child, W.HTML)]
    return html.unescape(re.sub("<[^>]+>", "", " ".join(shown)))


class EpochsDuring:
    """A kernel's link to the tables that records the panel's epoch while the server acts (opens, joins, ends)."""

    def __init__(self, link: Any, panel: ClassPanel) -> None:
        self.link, self.panel, self.epochs = link, panel, list[int]()

    def __getattr__(self, name: str) -> Any:
        call = getattr(self.link, name)
        if name not in ("open", "join", "end"):
            return call

        def acting(*args: Any) -> Any:
            self.epochs.append(self.panel.epoch)
            return call(*args)
        return acting


def test_a_report_asked_for_while_the_server_acts_for_the_page_is_not_shown(tables: tuple[Referee, Clock],
                                                                             keyed: None) -> None:
    """The watch hands a report over only if the panel's epoch is the one it was asked at: a report asked for while
    the server opens, joins or leaves a table may show the table as it was before the click, so the epoch moves on
    once the server has acted as well as before (it moved on only before)."""
    authority, _ = tables
    ana, ben = section(authority, "ana"), section(authority, "ben")
    recorded = []
    for play in (ana, ben):
        play.level_pick.value = CLASSMATE
        panel = panel_of(play)
        panel.client = EpochsDuring(panel.client, panel)  # type: ignore[assignment]
        recorded.append(panel.client)
    ana_panel, ben_panel = panel_of(ana), panel_of(ben)
    ana_panel.name.value, ben_panel.name.value = "Ana", "Ben"
    ana_panel.open_button.click()
    assert ana_panel.code is not None and recorded[0].epochs[-1] != ana_panel.epoch
    ben_panel.join(ana_panel.code)
    assert isinstance(ben.controller, ClassTable) and recorded[1].epochs[-1] != ben_panel.epoch
    leave_table(ben_panel)
    assert len(recorded[1].epochs) == 2 and recorded[1].epochs[-1] != ben_panel.epoch


def play_to_the_first_hands_end(authority: Referee, code: str) -> None:
    """Play table `code`'s first hand through the server to its end (the next hand not dealt)."""
    live = authority.tables[code]
    while not live.match.current.is_over:
        hand = live.match.current
        move = hand.view(hand.to_move).legal_moves()[0]
        authority.move(live.row.visitors[hand.to_move] or "", code, len(live.moves), move_to_data(move))


def test_another_language_at_a_class_table_does_not_say_the_student_came_back(tables: tuple[Referee, Clock],
                                                                              keyed: None) -> None:
    """A language chosen at a class table draws the same page again: the match goes on where it was, and the student
    did not come back to it, as a reload says."""
    authority, _ = tables
    code = authority.open("ana", "Ana", "REVISED_2008", 2)
    authority.join("ben", "Ben", code)
    live = authority.tables[code]
    hand = live.match.current
    authority.move(live.row.visitors[hand.to_move] or "", code, 0, move_to_data(hand.legal_moves()[0]))
    redrawn = section(authority, "ana", redrawn=True)
    assert said(redrawn.board.state["message"], "classmates.redrawn", code=code)
    assert not said(redrawn.board.state["message"], "classmates.back")
    reloaded = section(authority, "ana")
    assert said(reloaded.board.state["message"], "classmates.back", code=code)


def test_a_page_seated_at_its_class_table_does_not_point_to_learn(tables: tuple[Referee, Clock]) -> None:
    """A newcomer's page (no progress kept) reloaded at a class table: the pointer to Learn, shown while the page
    opened against the computer, goes once the table is on the board, as it never showed for the one who joined."""
    authority, _ = tables
    code = authority.open("ana", "Ana", "REVISED_2008", 2)
    authority.join("ben", "Ben", code)
    play = build_play(Discarder(), opponent_factory=Discarder, seed=11, background=False,  # type: ignore[arg-type]
                      address=lambda: "http://school:8866/", class_client=Link(authority, "ana"))  # type: ignore[arg-type]
    play.want_newcomer(True)
    assert play.newcomer.shown
    play.resume_class_table()
    assert isinstance(play.controller, ClassTable) and not play.newcomer.shown


def at_the_first_hands_end(authority: Referee) -> tuple[PlaySection, PlaySection]:
    """Ana's and Ben's sections at a class table whose first hand is over."""
    code = authority.open("ana", "Ana", "REVISED_2008", 2)
    authority.join("ben", "Ben", code)
    play_to_the_first_hands_end(authority, code)
    return section(authority, "ana"), section(authority, "ben")


def test_a_hand_the_classmate_dealt_waits_and_says_so(tables: tuple[Referee, Clock], keyed: None) -> None:
    """Ben dealt the second hand while Ana still looks at the first one's end: her board says he dealt it and waits
    (it said "Deal the next hand to go on"), and Next hand takes her to it."""
    ana, ben = at_the_first_hands_end(tables[0])
    ben.board.dispatch({"type": "action", "id": "next_hand"})
    panel = panel_of(ana)
    panel.on_report(panel.client.mine())
    table = ana.controller
    assert isinstance(table, ClassTable) and table.mode.kind == "hand_over" and table.next_dealt
    assert said(ana.board.state["message"], "classmates.next_dealt", name="Ben", number=2)
    assert not said(ana.board.state["message"], "play.hand_over")
    ana.board.dispatch({"type": "action", "id": "next_hand"})
    assert table.match.hand_number == 2 and table.mode.kind == "playing" and not table.next_dealt


def test_a_hand_dealt_in_another_tab_of_the_student_is_dealt_here_too(tables: tuple[Referee, Clock],
                                                                        keyed: None) -> None:
    """Ana deals the second hand in one tab: her other tab deals it too, with no word of Ben having dealt it (it said
    "Ben has dealt hand 2 and waits for you"); Ben's board says Ana dealt it. A reload finds who dealt it too."""
    authority = tables[0]
    ana, ben = at_the_first_hands_end(authority)
    second = section(authority, "ana")
    ana.board.dispatch({"type": "action", "id": "next_hand"})
    panel = panel_of(second)
    panel.on_report(panel.client.mine())
    table = second.controller
    assert isinstance(table, ClassTable) and table.match.hand_number == 2 and table.mode.kind == "playing"
    assert not table.next_dealt and not said(second.board.state["message"], "classmates.next_dealt", name="Ben",
                                             number=2)
    assert table.match.current.moves == ana.controller.match.current.moves
    panel_of(ben).on_report(panel_of(ben).client.mine())
    assert said(ben.board.state["message"], "classmates.next_dealt", name="Ana", number=2)
    assert authority.report("ana")["dealers"] == [0] and authority.report("ben")["dealers"] == [0]
    again = section(authority, "ben")  # a reload of Ben's page: Ana dealt it, so his board waits for him
    assert isinstance(again.controller, ClassTable) and again.controller.match.hand_number == 2


def test_a_hand_the_classmate_dealt_during_a_review_is_said_beside_the_reviews_words(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """Ana reviews the first hand while Ben deals the second: her board says so at once, the judgement shown kept
    after it, and Back to the match says it again, with Next hand to press (neither said it)."""
    ana, ben = at_the_first_hands_end(tables[0])
    ana.board.dispatch({"type": "action", "id": "review"})
    table = ana.controller
    assert isinstance(table, ClassTable) and table.mode.kind == "reviewing"
    step = ana.board.state["message"]
    ben.board.dispatch({"type": "action", "id": "next_hand"})
    panel = panel_of(ana)
    panel.on_report(panel.client.mine())
    assert table.mode.kind == "reviewing" and table.next_dealt
    message = ana.board.state["message"]
    news = f"{mark('classmates.next_dealt_review', name='Ben', number=2)} "
    judgement = message.removeprefix(news)  # then the judgement shown, as the review said it at its opening
    assert message.startswith(news) and step.endswith(f" {judgement}") and keys_in(judgement)[0] == "review.step"
    panel.on_report(panel.client.mine())  # (said once)
    assert ana.board.state["message"] == message
    ana.board.dispatch({"type": "action", "id": "review_close"})
    assert said(ana.board.state["message"], "classmates.next_dealt", name="Ben", number=2)
    ana.board.dispatch({"type": "action", "id": "next_hand"})
    assert table.match.hand_number == 2 and table.mode.kind == "playing"


def test_the_score_sheet_puts_the_viewers_points_under_you_whichever_seat_they_hold(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """Ben joined (the second seat): at the table his sheet's first column is his, "You", then Ana's (it listed them by
    seat, "Ana | Ben", where his square stands first on his board); Ana went away after the first hand and Ben
    finished against the computer: the sheet's "You" column is still Ben's (it listed the seats in order under You and
    Opponent, giving him Ana's points)."""
    authority, clock = tables
    for tried in range(20):  # (a deal whose first hand's scores tell the columns apart)
        code = authority.open(f"ana{tried}", "Ana", "REVISED_2008", 2)
        authority.join(f"ben{tried}", "Ben", code)
        play_to_the_first_hands_end(authority, code)
        (first, second), = authority.tables[code].match.results
        if first != second:
            break
    ben = section(authority, f"ben{tried}")
    table = ben.controller
    assert isinstance(table, ClassTable) and table.seat == 1
    sheet = next(part for part in ben.board.state["aside"] if part["kind"] == "table")
    assert sheet["head"][1:] == [mark("play.panels.you"), "Ana"], "his own column first, as his square on the board"
    assert sheet["foot"][1:] == [second, first]
    clock.now += GONE_SECONDS
    panel = panel_of(ben)
    panel.on_report(panel.client.mine())
    panel.finish_button.click()
    assert isinstance(table.seats[0], Computer) and table.match.results == [(first, second)] and first != second
    sheet = next(part for part in ben.board.state["aside"] if part["kind"] == "table")
    assert sheet["head"][1:] == [mark("play.panels.you"), mark("play.panels.opponent")]
    assert sheet["rows"] == [[mark("play.panels.hand_row", number=1), second, first]]
    assert sheet["foot"][1:] == [second, first]


@pytest.mark.parametrize("reviewing", [False, True])
def test_finish_against_the_computer_between_two_hands(tables: tuple[Referee, Clock], reviewing: bool,
                                                       keyed: None) -> None:
    """A teacher's term: the classmate went away with a hand just over, and Finish against the computer answered
    "Something went wrong (RuntimeError)", though the server had counted the match played on. Between two hands (a
    review of the last one open, or not) the computer takes the seat, and the next hand is dealt against it."""
    authority, clock = tables
    code = authority.open("ana", "Ana", "REVISED_2008", 2)
    authority.join("ben", "Ben", code)
    play_to_the_first_hands_end(authority, code)
    ana = section(authority, "ana")
    table = ana.controller
    assert isinstance(table, ClassTable) and table.mode.kind == "hand_over"
    if reviewing:
        ana.board.dispatch({"type": "action", "id": "review"})
        assert table.mode.kind == "reviewing"
    clock.now += GONE_SECONDS
    panel = panel_of(ana)
    panel.on_report(panel.client.mine())
    assert not table.offers()["finish"] and panel.finish_button.layout.display == ""
    panel.finish_button.click()
    assert ana.board.state["error"] == "" and isinstance(table.seats[1 - table.seat], Computer)
    assert table.mode.kind == "hand_over" and said(ana.board.state["message"], "classmates.computer_seated")
    ana.board.dispatch({"type": "action", "id": "next_hand"})
    assert table.match.hand_number == 2 and table.mode.kind == "playing" and table.viewer_to_move


def test_a_second_tab_of_the_student_to_move_follows_a_move_made_in_the_first(tables: tuple[Referee, Clock],
                                                                             keyed: None) -> None:
    """Two tabs of one student at their table: a move made in one is made on the other's board too, which then waits
    for the classmate (it stayed on the old position, offering the card already played, and every move it tried was
    refused as stale)."""
    authority, _ = tables
    plays, mover = at_one_table(authority)
    second = section(authority, mover)
    first_table, second_table = plays[mover].controller, second.controller
    assert isinstance(second_table, ClassTable) and second_table.hand.to_move == second_table.viewer
    second.board.dispatch({"type": "select", "index": 0})  # a card picked there: its spaces are lit
    pick = second.board.state
    assert second_table.marks.selected == 0
    made_a_move(plays[mover])
    panel = panel_of(second)
    panel.on_report(panel.client.mine())
    assert second_table.match.current.moves == first_table.match.current.moves
    assert second_table.hand.to_move != second_table.viewer and second.board.state != pick
    assert second_table.marks.selected is None, "nothing picked: no card's spaces lit while the classmate moves"
    other = "ben" if mover == "ana" else "ana"
    assert second.board.state["message"].endswith(mark("play.people.waiting", name=other.title()))
    panel_of(plays[other]).on_report(panel_of(plays[other]).client.mine())
    made_a_move(plays[other])
    panel.on_report(panel.client.mine())
    assert second_table.match.current.moves == plays[other].controller.match.current.moves
    assert second_table.hand.to_move == second_table.viewer


def test_once_the_computer_finished_a_class_tables_match_new_match_and_resume_work(tables: tuple[Referee, Clock],
                                                                                   keyed: None) -> None:
    """QA: once the computer took the gone classmate's seat, New match and Resume were greyed as at a closed class
    table ("choose an opponent, or open or join another table", though a level was chosen and choosing another played
    the same match on), and Save game said the class server keeps the match, which only this browser keeps. Now New
    match and Resume work as against the computer (New match asking first, the match being under way), and Save game
    is greyed with the true reason: a code would not keep the seat nor whose moves were the classmate's."""
    authority, clock = tables
    ana, _panel, table = finished_by_the_computer(authority, clock)
    level = ana.level_pick.value
    found = table.offers()
    assert found["new_game"] == "" and found["resume"] == ""
    assert found["save"] == mark("classmates.finished_no_save")
    assert not ana.new_button.disabled and ana.saver.save_button.disabled
    assert ana.saver.save_button.tooltip == mark("classmates.finished_no_save")
    assert f"<p>{mark('classmates.finished_no_save')}</p>" in ana.saver.why.value
    ana.new_button.click()  # under way: asked first, and Keep playing changes nothing
    assert ana.new_question.asked and ana.controller is table
    ana.new_question.start_button.click()
    fresh = ana.controller
    assert not isinstance(fresh, ClassTable) and fresh.viewer == 0 and fresh.match is not table.match
    assert fresh.opponent is not None and fresh.opponent.name == level  # type: ignore[attr-defined]
    assert fresh.rules == table.rules and not ana.set_aside, "the new match took its place"
    assert said(ana.board.state["message"], "play.welcome")
    assert ana.codes_to_keep() == (None, {}), "nothing of the class table's match is kept any more"

    ana, _panel, table = finished_by_the_computer(authority, clock)  # (another table)
    ana.saver.code.value = game_code(Match(seed=5, rules=RULE_SETS["ORIGINAL_1963"]), "casual")
    assert not ana.saver.resume_button.disabled and ana.saver.why.value == (
        f"<p>{mark('classmates.finished_no_save')}</p>")
    ana.saver.resume_button.click()
    resumed = ana.controller
    assert not isinstance(resumed, ClassTable) and resumed.rules.key == "ORIGINAL_1963"
    assert said(ana.board.state["message"], "play.saved_game.resumed")
    assert ana.set_aside == {("computer", table.rules.key): table}, "under other rules, kept aside as such"


def test_a_class_table_that_closed_offers_resume_and_names_what_starts_another_match(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """A table the teacher ended, "A classmate" still chosen: New match is greyed with a reason naming what works (a
    table opened or joined, another opponent chosen); Resume works."""
    authority, _ = tables
    code = authority.open("ana", "Ana")
    authority.join("ben", "Ben", code)
    ana = section(authority, "ana")
    authority.end_by_teacher(code)
    panel = panel_of(ana)
    panel.on_report(panel.client.mine())
    assert ana.level_pick.value == CLASSMATE and ana.controller.mode.kind == "closed"
    assert ana.new_button.disabled and ana.new_button.tooltip == mark("classmates.closed_new")
    assert ana.controller.offers()["resume"] == ""
    ana.saver.code.value = game_code(Match(seed=5), "casual")
    ana.saver.resume_button.click()
    assert not isinstance(ana.controller, ClassTable) and ana.level_pick.value == "casual"
    assert said(ana.board.state["message"], "play.saved_game.resumed")



def test_a_classmate_chosen_with_no_table_deals_no_match_against_the_computer(tables: tuple[Referee, Clock],
                                                                             keyed: None) -> None:
    """QA (a phone, a new student): "A classmate" chosen and no table opened, New match dealt a match against the
    computer, the menu still naming a classmate. The match on the board may be played on until a table is opened or
    joined, and the board says so; New match (the section's, and the board's at a match's end) is greyed with its
    reason, and a press sent all the same deals nothing."""
    authority, _ = tables
    ana = section(authority, "ana")
    shown = ana.controller
    ana.level_pick.value = CLASSMATE
    assert said(ana.board.state["message"], "classmates.choose_board"), "the match on the board may be played meanwhile"
    assert ana.new_button.disabled and ana.new_button.tooltip == mark("classmates.new_at_table")
    match = shown.match
    ana.board.control(ana._new_match_pressed)
    assert ana.controller is shown and shown.match is match and not ana.new_question.asked
    assert said(ana.board.state["message"], "classmates.new_at_table")
    made_a_move(ana)  # the match on the board is played on
    assert ana.controller is shown and ana.new_button.disabled
    while not shown.match.is_over:
        if shown.mode.kind == "hand_over":
            ana.board.dispatch({"type": "action", "id": "next_hand"})
        else:
            made_a_move(ana)
    new = next(action for action in ana.board.state["actions"] if action["id"] == "new_match")
    assert not new["enabled"] and new["note"] == mark("classmates.new_at_table")
    ana.level_pick.value = "casual"  # a computer opponent chosen again: New match deals against it
    assert not ana.new_button.disabled and not shown.offers()["new_match"]
    ana.level_pick.value = CLASSMATE  # other rules chosen meanwhile deal a match under them (the menu's own doing)
    ana.rules_pick.value = "ORIGINAL_1963"
    assert ana.controller.rules.key == "ORIGINAL_1963" and ana.board.state["tone"] != "warn"
    assert ana.new_button.disabled and ana.new_button.tooltip == mark("classmates.new_at_table")


def test_a_code_pasted_before_a_table_came_stays_greyed_saying_when_it_can_be_resumed(tables: tuple[Referee, Clock],
                                                                                      keyed: None) -> None:
    """QA: after the teacher paired the class, the Resume box still held a code pasted earlier, greyed. It stays (it
    can be resumed once the table is left or has closed), and what is under the box says so; then Resume works."""
    authority, _ = tables
    ana, ben = section(authority, "ana"), section(authority, "ben")
    pasted = game_code(Match(seed=5), "casual")
    ana.saver.code.value = pasted
    authority.pair({"ana": "Ana", "ben": "Ben"}, "REVISED_2008", 4, "beginner")
    for play in (ana, ben):
        panel_of(play).on_report(panel_of(play).client.mine())
    assert isinstance(ana.controller, ClassTable) and ana.saver.code.disabled and ana.saver.code.value == pasted
    assert ana.saver.resume_button.tooltip == mark("classmates.no_resume")
    assert f"<p>{mark('classmates.no_resume')}</p>" in ana.saver.why.value
    leave_table(panel_of(ana))
    assert not ana.saver.code.disabled and not ana.saver.resume_button.disabled
    ana.saver.resume_button.click()
    assert not isinstance(ana.controller, ClassTable) and said(ana.board.state["message"], "play.saved_game.resumed")


def test_a_deal_shared_with_a_classmate_chosen_is_the_computers_match_on_the_board(tables: tuple[Referee, Clock],
                                                                                   keyed: None) -> None:
    """"A classmate" chosen, no table yet: the board still holds the match against the computer, so its link names
    the level it is played at and says so (it named no opponent, in the words said of two people at one device)."""
    authority, _ = tables
    ana = section(authority, "ana")
    level = ana.opponent_level()
    ana.level_pick.value = CLASSMATE
    ana.share_button.click()
    assert f"level={level}'" in ana.share.value
    assert html.escape(mark("play.share.explain")) in ana.share.value
    assert html.escape(mark("play.people.share")) not in ana.share.value


def test_a_hand_the_classmate_dealt_is_said_once(tables: tuple[Referee, Clock], keyed: None) -> None:
    """Ben dealt the second hand while Ana looks at the first one's end: the message says so, and the greyed Go out,
    End turn and Hint and the squares' spaces give the reason that the hand is over, not the same sentence again."""
    ana, ben = at_the_first_hands_end(tables[0])
    ben.board.dispatch({"type": "action", "id": "next_hand"})
    panel = panel_of(ana)
    panel.on_report(panel.client.mine())
    state = ana.board.state
    news = mark("classmates.next_dealt", name="Ben", number=2)
    assert said(state["message"], "classmates.next_dealt", name="Ben", number=2)
    notes = {action["id"]: action["note"] for action in state["actions"] if not action["enabled"]}
    shown = [notes[ident] for ident in ("go_out", "end_turn", "hint") if ident in notes]
    assert shown and all(note == mark("play.hand_is_over") for note in shown)
    assert news not in state.get("inert", "") and state.get("inert") == mark("play.hand_is_over")


def left_by_ben(authority: Referee) -> tuple[PlaySection, PlaySection, str]:
    """Ana's page and a second page of hers at the table Ben joined, a move made in its match, once Ben has left it:
    both pages told so (offering Finish against the computer); (her first page, her second page, the code)."""
    ana, panel = opened_by_ana(authority)
    code = panel.code
    assert code is not None
    authority.join("ben", "Ben", code)
    panel.on_report(panel.client.mine())
    second = section(authority, "ana")
    table = ana.controller
    if table.hand.to_move != table.viewer:
        authority.move("ben", code, 0, move_to_data(table.hand.view(table.hand.to_move).legal_moves()[0]))
        panel.on_report(panel.client.mine())
    made_a_move(ana)
    panel_of(second).on_report(panel_of(second).client.mine())
    authority.end("ben", code, "left")
    for play in (ana, second):
        panel_of(play).on_report(panel_of(play).client.mine())
        assert said(play.board.state["message"], "classmates.other_left_won", name="Ben", code=code)
        assert panel_of(play).finish_button.layout.display == ""
    return ana, second, code


def test_a_reload_after_the_classmate_left_shows_the_match_and_offers_to_finish_it(tables: tuple[Referee, Clock],
                                                                                   keyed: None) -> None:
    """Ben left mid-match; Ana reloads before pressing Finish against the computer: the page shows the table's match
    where it stood, says how it closed as her page said it, and offers Finish, which seats the computer (the reload
    said only "away" words, when it said anything: here nothing, and the match was gone). Ben, who left, is shown
    nothing of it."""
    authority, _clock = tables
    ana, _second, code = left_by_ben(authority)
    table = ana.controller
    again = reloaded(ana, authority, "ana")
    back, panel = again.controller, panel_of(again)
    assert isinstance(back, ClassTable) and back is not table and back.mode.kind == "closed"
    assert back.seat == table.seat and back.match.to_json() == table.match.to_json(), "where it stood"
    assert back.hand.held[back.seat] == table.hand.held[table.seat] and back.mode == table.mode
    assert said(again.board.state["message"], "classmates.other_left_won", name="Ben", code=code)
    assert again.board.state["message"] == ana.board.state["message"], "the same sentence"
    assert panel.layout.display == "" and panel.finish_button.layout.display == ""
    assert panel.leave_button.layout.display == "none" and panel.status.value == "" and panel.away == ""
    assert back.offers()["finish"] == "" and [part.layout.display for part in panel.entry] == [""] * 3
    assert again.codes_to_keep()[0] is None, "the server holds its moves: the browser keeps nothing of it yet"
    panel.finish_button.click()
    assert again.controller is back and isinstance(back.seats[1 - back.seat], Computer)
    assert said(again.board.state["message"], "classmates.computer_seated",
                level=mark(f"levels.names.{again.level_pick.value}"))
    made_a_move(again)  # it plays on against the computer
    stored = authority.store.table(code)
    assert stored is not None and stored.taken == (back.seat,) and stored.ending == "left"
    ben = section(authority, "ben")  # he left it: nothing of it is shown on his page
    assert not isinstance(ben.controller, ClassTable) and panel_of(ben).finish_button.layout.display == "none"


def test_the_computer_that_finishes_a_class_table_plays_at_the_classs_level(tables: tuple[Referee, Clock],
                                                                           keyed: None) -> None:
    """Ana's page reloads at a table Ben has left, in a class whose defaults are the 1963 rules and the expert: her
    menus are left as they are and the closed table stays on the board, as it does at a table that goes on, and the
    computer that finishes its match plays as the expert, not as the level her page began with (the beginner)."""
    authority, _clock = tables
    ana, _second, code = left_by_ben(authority)
    again = reloaded(ana, authority, "ana")
    assert again.opponent_level() == "beginner", "the page's own level, before the class's defaults are read"
    defaults = {"name": "Ana", "progress": None, "unlock_all": False, "defaults": {"rules": "1963", "level": "expert"}}
    member = ClassMember(StudentRecord(FakeLink(defaults), kernel_progress()), BrowserStorage("progress"),
                         lambda: None)
    # nothing is dealt over the closed table (it was: a new match under the class's rules, Finish and the words gone)
    assert member.class_choices(again, None, None) == (None, None), "nothing changes at a class table"
    assert again.level_pick.value == CLASSMATE and again.rules_pick.value == "REVISED_2008"
    assert said(again.board.state["message"], "classmates.other_left_won", name="Ben", code=code)
    panel_of(again).finish_button.click()
    table = again.controller
    assert isinstance(table, ClassTable) and isinstance(table.seats[1 - table.seat], Computer)
    assert said(again.board.state["message"], "classmates.computer_seated", level=mark("levels.names.expert"))


def test_a_match_taken_on_in_one_page_is_not_offered_again_in_another(tables: tuple[Referee, Clock],
                                                                      keyed: None) -> None:
    """Ana's two pages both offer Finish once Ben has left; she presses it in one: the server keeps that she took it
    on, and her other page says it goes on in another page, with Finish no longer offered (each played a copy of its
    own, at its own level). A reload of the page that took it on shows the match the browser kept, once; a reload of
    the other shows nothing of it (no second copy)."""
    authority, _clock = tables
    ana, second, code = left_by_ben(authority)
    panel_of(ana).finish_button.click()
    mine = ana.controller
    assert isinstance(mine, ClassTable) and mine.computer_sat is not None
    other = panel_of(second)
    other.on_report(other.client.mine())  # her watch's report, in the other page
    assert said(second.board.state["message"], "classmates.taken_elsewhere", code=code)
    assert second.controller.mode == Closed(ELSEWHERE) and second.controller.computer_sat is None
    assert other.finish_button.layout.display == "none" and other.status.value == ""
    assert second.controller.offers()["finish"] == mark("classmates.refused.taken_elsewhere")
    other.finish()  # pressed before this page heard it: the table's own reason, on the board
    assert second.controller.message == mark("classmates.refused.taken_elsewhere")
    assert second.controller.computer_sat is None
    panel_of(ana).on_report(panel_of(ana).client.mine())  # the page that took it on plays on
    assert ana.controller is mine and mine.computer_sat is not None and said(
        ana.board.state["message"], "classmates.computer_seated", level=mark(f"levels.names.{ana.level_pick.value}"))
    back = reloaded(ana, authority, "ana").controller
    assert isinstance(back, ClassTable) and back.finish is not None and back.computer_sat is not None
    fresh = reloaded(second, authority, "ana")
    assert not isinstance(fresh.controller, ClassTable), "no second copy"


def test_two_pages_pressing_finish_at_once_play_one_match(tables: tuple[Referee, Clock], keyed: None) -> None:
    """Both of Ana's pages press Finish against the computer before either hears of the other's: the server decides
    once (the first); the other page ends saying the match goes on in another page, with no computer seated there."""
    authority, _clock = tables
    ana, second, code = left_by_ben(authority)
    panel_of(ana).finish_button.click()
    panel_of(second).finish_button.click()  # before its watch brought the report that says so
    assert isinstance(ana.controller, ClassTable) and ana.controller.computer_sat is not None
    loser = second.controller
    assert isinstance(loser, ClassTable) and loser.computer_sat is None and loser.mode == Closed(ELSEWHERE)
    assert said(second.board.state["message"], "classmates.taken_elsewhere", code=code)
    assert not said(second.board.state["message"], "classmates.computer_seated",
                    level=mark(f"levels.names.{ana.level_pick.value}"))
    assert panel_of(second).finish_button.layout.display == "none"
    assert second.codes_to_keep()[0] is None, "the browser keeps no second copy"
    panel_of(second).on_report(panel_of(second).client.mine())  # then its report: nothing more changes
    assert second.controller is loser and loser.mode == Closed(ELSEWHERE)
    stored = authority.store.table(code)
    assert stored is not None and stored.taken == (ana.controller.seat,)


def test_a_reload_after_moving_on_from_the_closed_table_goes_on_with_the_match_the_board_held(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """Ben left; Ana did not finish the match against the computer but chose a computer opponent and played a new
    match: a reload goes on with that match on the board (the closed table, which the page's start shows again, gives
    way to it), not the other way round."""
    authority, _clock = tables
    ana, _second, _code = left_by_ben(authority)
    ana.level_pick.value = "casual"
    own = made_a_move(ana)
    assert not isinstance(own, ClassTable)
    again = reloaded(ana, authority, "ana")
    back = again.controller
    assert not isinstance(back, ClassTable) and back.match.to_json() == own.match.to_json()
    assert panel_of(again).finish_button.layout.display == "none" and panel_of(again).table is None


@pytest.mark.parametrize("heard_first", [False, True], ids=["asked-first", "heard-first"])
def test_the_page_that_loses_the_race_to_finish_says_where_the_match_goes_on(tables: tuple[Referee, Clock],
                                                                              keyed: None, heard_first: bool) -> None:
    """Ana presses Finish in two pages at once after Ben left: the page whose request comes second (before or after
    its watch hears that the other page took the match on) says the match goes on in her other page, in words the
    page may show; it said only that nothing could be done there (an error without its words)."""
    authority, _clock = tables
    ana, second, code = left_by_ben(authority)
    panel_of(ana).finish_button.click()
    other = panel_of(second)
    if heard_first:
        other.on_report(other.client.mine())
    other.finish_button.click()
    message = second.board.state["message"]
    assert said(message, "classmates.refused.taken_elsewhere" if heard_first else "classmates.taken_elsewhere",
                **({} if heard_first else {"code": code})), message
    assert not said(message, "board.refused")
    assert second.controller.computer_sat is None and second.controller.mode == Closed(ELSEWHERE)


def test_a_bye_dealt_at_a_closed_class_table_takes_the_place_of_the_match_kept_aside_under_its_rules(
        tables: tuple[Referee, Clock], keyed: None) -> None:
    """Ana's own match (2008 rules) was kept aside when round 1 seated her with Ben; the teacher ends round 1 (her
    board: the closed class table) and round 2 gives her the bye under the same rules: the bye takes the place of the
    kept match, says so, and a reload through a dead table link still keeps the bye (not the older match)."""
    authority, _ = tables
    ana, ben = section(authority, "ana"), section(authority, "ben")
    own = made_a_move(ana)
    authority.pair({"ana": "Ana", "ben": "Ben"}, "REVISED_2008", 1, "beginner")
    for play in (ana, ben):
        panel_of(play).on_report(panel_of(play).client.mine())
    assert isinstance(ana.controller, ClassTable) and own in ana.set_aside.values()
    authority.end_round(authority.round.number)
    panel_of(ana).on_report(panel_of(ana).client.mine())
    authority.pair({"ana": "Ana"}, "REVISED_2008", 1, "beginner")
    panel_of(ana).on_report(panel_of(ana).client.mine())
    bye = ana.controller.match
    assert said(ana.board.state["message"], "play.set_aside.ends", rules=mark("rules.REVISED_2008"))
    assert (COMPUTER, "REVISED_2008") not in ana.set_aside and ana.codes_to_keep()[1] == {}
    again = section(authority, "ana")  # the same tab reloaded at /?table=CDQR (no such table)
    again.offer_classmate_name("Ana")
    again.join_table("CDQR")
    again.keeper.storage.restore(ana.keeper.storage.saved, this_tab=True)
    assert [t.match.seed for t in again.set_aside.values()] == [bye.seed], "the bye is kept, not the older match"


def test_a_bye_heard_by_two_pages_of_one_student_is_played_in_one_of_them(tables: tuple[Referee, Clock],
                                                                         keyed: None) -> None:
    """Two pages (tabs) of Ben's hear the round that gives him the computer: one plays it, the other says it goes on
    in another page (as a class table's match taken on against the computer does), so no two copies of the round's
    match are kept by the browser."""
    authority, _ = tables
    one, two = section(authority, "ben"), section(authority, "ben")
    before = {id(play): play.board.state["message"] for play in (one, two)}
    authority.pair({"ben": "Ben"}, "REVISED_2008", 1, "beginner")
    for play in (one, two):
        panel_of(play).on_report(panel_of(play).client.mine())
    seed = authority.report("ben")["round"]["seed"]
    holding = [play for play in (one, two) if play.controller.match.seed == seed]
    assert len(holding) == 1, "one page plays the round's match"
    other = two if holding[0] is one else one
    assert said(other.board.state["message"], "classmates.round.elsewhere", number=1)
    assert before[id(other)] not in other.board.state["message"], "what it said of its own deal, then, is not new"
    assert authority.round is not None
    with pytest.raises(ClassTableError, match="round_elsewhere"):  # decided once, in the store
        authority.take_round("ben", authority.round.started)
    with pytest.raises(ClassTableError, match="not_seated"):  # a round that is not his latest bye
        authority.take_round("ben", authority.round.started - 1)
