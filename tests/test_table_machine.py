"""A stateful property test that walks every kind of table through every intent a page can send, offered or not.

Tables: against each computer level, two people at one device, and both seats of a class table wired together
through the server's tables (a real SQLite store); under all three rule sets; with reviews and retries. After
each step: every action offered, when taken, is accepted; an action not offered is refused with its reason and
changes nothing; the turn line and the message agree with the turn runner (no "drawn" without a draw, no pass
words for a player who holds a card, no next hand after the last); the board shows no card its viewer may not
see; the buttons drawn are exactly the offers. The mode only ever changes along the transition table.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from board_states import cards_shown
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from rendered import opening

from leopard_tutor.ai import hint
from leopard_tutor.ai.players import ExpertPlayer, make_player
from leopard_tutor.ai.review import HandReview
from leopard_tutor.ai.why import why_turn
from leopard_tutor.engine import RULE_SETS, Play
from leopard_tutor.engine.catalogue import and_list, text
from leopard_tutor.engine.turns import cards_drawn, current_player, turn_began
from leopard_tutor.server import referee
from leopard_tutor.server.class_store import ClassStore
from leopard_tutor.server.referee import Referee
from leopard_tutor.table import Closed, PassingDevice, Reviewing, Seating, Table, against_computer, at_one_device
from leopard_tutor.table.class_table import ClassTable
from leopard_tutor.table.intents import BadIntent
from leopard_tutor.table.machine import ACTION_INTENTS, TRANSITIONS
from leopard_tutor.table.offers import ACTIONS, BOARD_ACTIONS, CLASS_ACTIONS, SECTION_ACTIONS, shown

KINDS = ("beginner", "casual", "intermediate", "expert", "one_device", "classmates")


def small_review(player: int) -> HandReview:
    return HandReview(player, deals=1, candidates=2)


def quick_hint(view: Any) -> Any:
    return hint(view, "beginner")


def options(rules: str, seed: int) -> dict[str, Any]:
    return {"rules": RULE_SETS[rules], "seed": seed, "hands": 2, "reviewer": small_review, "background": False}


def snapshot(table: Table) -> tuple[Any, ...]:
    """What an intent refused must leave as it was."""
    return (table.mode.kind, table.viewer, table.hand.moves, table.match.hand_number, len(table.match.results))



def action_intent(table: Table, ident: str, step: int) -> dict[str, Any]:
    """The intent a press of the action `ident` sends; a move of a review's list carries its number (one of the
    review's moves, the last if `step` is past it)."""
    if ident != "review_goto":
        return {"type": "action", "id": ident}
    session = table.reviewing
    return {"type": "action", "id": ident,
            "step": step if session is None else min(step, len(session.review.judgements) - 1)}

class TableWalk(RuleBasedStateMachine):
    """One table (or, for classmates, two pages' tables and the server's), driven by random intents."""

    def __init__(self) -> None:
        super().__init__()
        self.pages: list[Table] = []
        self.tables: Referee | None = None
        self.code = ""
        self.folder: tempfile.TemporaryDirectory[str] | None = None
        self.played_before: dict[int, tuple[int, tuple[Any, ...]]] = {}
        """By page: the hand's number and its moves when the computer took the classmate's seat there."""

    def teardown(self) -> None:
        if self.folder is not None:
            self.folder.cleanup()

    @initialize(kind=st.sampled_from(KINDS), rules=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 10**6),
                seating=st.booleans())
    def start(self, kind: str, rules: str, seed: int, seating: bool) -> None:
        if kind == "one_device":
            self.pages = [at_one_device(("Ana", "Ben"), hinter=quick_hint, **options(rules, seed))]
        elif kind == "classmates":
            with mock.patch.object(referee.secrets, "token_hex", lambda _size: f"{seed:016x}"):
                self._class_table(rules, seating)  # the server's deal, made reproducible for the walk
        else:  # the expert bound by deals, not by the clock: the same choices on every run
            player = ExpertPlayer(seed, time_budget=60, deals=2) if kind == "expert" else make_player(kind, seed=seed)
            table = against_computer(player, hinter=quick_hint, **options(rules, seed))
            self.pages = [table]

    def _class_table(self, rules: str, seating: bool) -> None:
        self.folder = tempfile.TemporaryDirectory()
        tables = self.tables = Referee(ClassStore.in_folder(Path(self.folder.name)))
        code = self.code = tables.open("ana", "Ana", rules)
        if seating:  # Ana's page waits for a classmate, then Ben sits down
            report = tables.report("ana")
            ana = ClassTable(0, ["Ana", ""], self._store("ana"), **self._options(report), seating=code)
            self.pages = [ana]
            self._check_page(ana)
            for ident in (*BOARD_ACTIONS, "why", "review", "review_last"):
                self._refused(ana, {"type": "action", "id": ident})
            assert all(ana.offers()[ident] for ident in SECTION_ACTIONS)
            self._refused(ana, {"type": "select", "index": 0})
            tables.join("ben", "Ben", code)
            report = tables.report("ana")
            ana.sit(report["names"], "")
        else:
            tables.join("ben", "Ben", code)
            report = tables.report("ana")
            ana = ClassTable(0, report["names"], self._store("ana"), **self._options(report))
        ben = ClassTable(1, report["names"], self._store("ben"), **self._options(tables.report("ben")))
        self.pages = [ana, ben]

    def _store(self, visitor: str) -> Any:
        tables = self.tables
        assert tables is not None
        return lambda number, move: tables.move(visitor, self.code, number, move)

    @staticmethod
    def _options(report: dict[str, Any]) -> dict[str, Any]:
        return {"rules": RULE_SETS[report["rules"]], "seed": report["seed"], "hands": report["hands"], "hinter": None,
                "reviewer": small_review, "background": False}

    # -- steps ---------------------------------------------------------------------------------
    @rule(page=st.integers(0, 1), data=st.data())
    def take_an_offered_action(self, page: int, data: st.DataObject) -> None:
        table = self.pages[page % len(self.pages)]
        found = table.offers()
        offered = [ident for ident in ACTIONS if ident not in (*SECTION_ACTIONS, *CLASS_ACTIONS) and not found[ident]
                   and ident in (*shown(table)[0], *shown(table)[1])]
        if not offered:
            return
        ident = data.draw(st.sampled_from(offered))
        before = table.mode
        table.handle(action_intent(table, ident, data.draw(st.integers(0, 60))))
        assert table.tone != "warn", (ident, table.message)
        self._check_transition(before, ident, table)

    @rule(page=st.integers(0, 1), ident=st.sampled_from(ACTIONS), step=st.integers(0, 60))
    def send_an_action(self, page: int, ident: str, step: int) -> None:
        table = self.pages[page % len(self.pages)]
        if ident in (*SECTION_ACTIONS, *CLASS_ACTIONS):  # the section's and the class panel's, not the board's
            return
        reason = table.offers()[ident]
        if reason:
            self._refused(table, action_intent(table, ident, step))
        else:
            before = table.mode
            table.handle(action_intent(table, ident, step))
            assert table.tone != "warn", (ident, table.message)
            self._check_transition(before, ident, table)

    @rule(page=st.integers(0, 1), data=st.data())
    def play_a_legal_move(self, page: int, data: st.DataObject) -> None:
        table = self.pages[page % len(self.pages)]
        if not table.viewer_to_move:
            return
        move = data.draw(st.sampled_from(table.view().legal_moves()))
        before = len(table.hand.moves)
        table.make(move)
        assert table.tone != "warn", table.message
        assert len(table.hand.moves) > before or table.retry is not None or table.match.hand_number > 1

    @rule()
    def set_two_peoples_match_aside(self) -> None:
        """The Play section puts a match between two people here aside (another opponent chosen): both hands go
        behind the hand-over screen, for the player to move (the viewer once the hand is over); else a refusal."""
        table = self.pages[0]
        before = table.mode
        if not table.both_here:
            with pytest.raises(BadIntent):
                table.cover()
            assert table.mode == before
            return
        table.cover()
        hand = table.hand
        assert table.mode == (before if isinstance(before, PassingDevice) else
                              PassingDevice(table.viewer if hand.is_over else hand.to_move))
        assert "hand" not in table.board_state().as_dict(), "no hand shown behind the hand-over screen"

    @rule(page=st.integers(0, 1), intent=st.one_of(
        st.fixed_dictionaries({"type": st.just("select"), "index": st.integers(-1, 12)}),
        st.fixed_dictionaries({"type": st.just("space"), "square": st.integers(-1, 2), "space": st.integers(0, 10)}),
        st.fixed_dictionaries({"type": st.just("discard")}),
        st.fixed_dictionaries({"type": st.sampled_from(["answer", "nonsense", "action"]),
                               "id": st.sampled_from(["", "hack", "review_goto"])})))
    def click_anything(self, page: int, intent: dict[str, Any]) -> None:
        table = self.pages[page % len(self.pages)]
        before = snapshot(table)
        try:
            table.handle(intent)
        except BadIntent:
            assert snapshot(table) == before
            return
        if table.tone == "warn":
            assert snapshot(table)[:3] == before[:3] or table.mode.kind != before[0]

    @precondition(lambda self: self.tables is not None)
    @rule()
    def deliver(self) -> None:
        """The watch brings each page the server's moves."""
        tables = self.tables
        assert tables is not None
        for table, visitor in zip(self.pages, ("ana", "ben")):
            assert isinstance(table, ClassTable)
            report = tables.report(visitor)
            if report.get("table") is not None and table.store_move is not None:
                table.update(report["moves"])

    @precondition(lambda self: self.tables is not None)
    @rule(leaver=st.integers(0, 1))
    def leave(self, leaver: int) -> None:
        """One player leaves: the table closes on both boards at once."""
        tables = self.tables
        assert tables is not None
        if self.code not in tables.tables:
            return
        for table in self.pages:  # the table open on the server: Leave offered at both pages
            assert isinstance(table, ClassTable) and not table.offers()["leave"] and table.offers()["finish"]
        tables.end(("ana", "ben")[leaver], self.code, "left")
        for number, table in enumerate(self.pages):
            table.close("left" if number == leaver else "other_left", "closed")
            assert isinstance(table.mode, (Closed, Reviewing))
            before = snapshot(table)
            for ident in BOARD_ACTIONS:
                if table.offers()[ident]:
                    self._refused(table, {"type": "action", "id": ident})
            assert snapshot(table)[2] == before[2]  # no move is made in the closed match

    @precondition(lambda self: self.tables is not None)
    @rule(page=st.integers(0, 1))
    def finish_against_the_computer(self, page: int) -> None:
        """The page whose classmate left lets the computer take the empty seat, with hints from then on; the page that
        left does not."""
        table = self.pages[page % len(self.pages)]
        mode = table.mode.back if isinstance(table.mode, Reviewing) else table.mode
        offered = not table.offers()["finish"]
        assert offered == (isinstance(mode, Closed) and not mode.unseated and mode.ending != "left"
                           and not table.match.is_over and not table.computer_sat), \
            "Finish against the computer: offered once the classmate left the table"
        if not offered or mode.ending != "other_left":
            return
        table.seat_computer(make_player("beginner", seed=page), "", quick_hint)
        assert table.offers()["finish"] and table.offers()["leave"], "the computer sat: neither any more"
        assert table.computer_sat is not None and table.tone != "warn"
        self.played_before[page % len(self.pages)] = (table.match.hand_number, table.match.current.moves[
            :table.computer_sat[1]])

    @invariant()
    def moves_before_the_computer_sat_stay(self) -> None:
        """Undo never takes back a move made against the classmate; the computer's Why explains its own moves."""
        for page, (number, moves) in self.played_before.items():
            table = self.pages[page]
            if table.match.hand_number != number or table.retry is not None:
                continue
            assert table.match.current.moves[:len(moves)] == moves
            computer = table.computer_player
            if computer is not None and not table.offers()["why"]:
                assert min(why_turn(table.hand, computer, table.computer_from).indices) >= len(moves)

    # -- checks --------------------------------------------------------------------------------
    def _refused(self, table: Table, intent: dict[str, Any]) -> None:
        """An intent not offered is refused with its reason (for an action, the offer's reason, beside the judgement
        of a review shown), changing nothing."""
        before = snapshot(table)
        reason = table.offers().get(intent.get("id", "")) if intent["type"] == "action" else None
        table.handle(intent)
        assert table.tone == "warn", (intent, table.message)
        if reason:
            assert table.message == table.beside_review(reason)
        assert snapshot(table) == before, intent

    @staticmethod
    def _check_transition(before: Any, ident: str, table: Table) -> None:
        if table.mode.kind != before.kind:
            assert table.mode.kind in TRANSITIONS[(before.kind, ACTION_INTENTS[ident])]

    @invariant()
    def every_page_tells_the_truth(self) -> None:
        for table in self.pages:
            self._check_page(table)

    def _check_page(self, table: Table) -> None:
        state = table.board_state()
        found = table.offers()
        board, _side = shown(table)
        assert [action["id"] for action in state.actions] == list(board)
        for action in state.actions:
            assert action["enabled"] == (not found[action["id"]]) and action["note"] == found[action["id"]]
        mode, hand, viewer = table.mode, table.hand, table.viewer
        # no card the viewer may not see: only their own hand, and none while the device is passed or at a seating
        if isinstance(mode, (PassingDevice, Seating)):
            assert state.hand is None
        elif not isinstance(mode, Reviewing):
            assert cards_shown(state) == tuple(str(card) for card in hand.held[viewer])
            assert state.opponent_hand is not None and "cards" not in state.opponent_hand
        if isinstance(mode, Closed):
            assert state.hand is not None and not any(card["playable"] for card in state.hand["cards"])
        if not isinstance(mode, Reviewing):  # a face-down card of the other's square is named only to who laid it
            theirs = next((part for part in state.squares if part["key"] == 1 - viewer), None)
            laid_by_viewer = hand.squares[1 - viewer].laid_by_other
            assert theirs is None or all(laid_by_viewer(cell["space"])[-1] for cell in theirs["cells"]
                                         if cell["face_down"] and cell["known"] is not None)
        # the turn line and the message agree with the turn runner
        player = current_player(hand)
        if not isinstance(mode, (PassingDevice, Seating, Closed, Reviewing)):
            facts = {"number": table.match.hand_number, "hands": table.match.hands,
                     "rules": text(f"rules.{table.rules.key}")}
            if player is None:
                expected = text("play.turn.match_over" if table.match.is_over else "play.turn.over", **facts)
            elif table.both_here or (table.between_people and player != viewer):  # one's own turn: "yours"
                expected = text("play.people.turn.of", name=table.name(player), **facts)
            else:
                expected = text("play.turn.yours" if player == viewer else "play.turn.theirs", **facts)
            if table.retry is not None:
                expected = text("review.retry.turn", turn=expected)
            assert state.turn == expected
        message = table.message
        began = turn_began(hand)
        for count in (2, 1):  # (the words before one card drawn, "You have drawn ", begin those of two as well)
            if opening("play.turn_words.drew", "cards", count=count) in message:
                assert began is not None and began.player == viewer and began.drew == count, message
                drawn = cards_drawn(hand)  # the cards the turn runner says
                named, the_named = and_list([c.name for c in drawn]), and_list([c.the_name for c in drawn])
                assert text("play.turn_words.drew", count=count, cards=named, the_cards=the_named) in message, message
                break
        if text("play.turn_words.pass_only") in message or text("play.turn_words.pass_or_out") in message:
            assert player == viewer and not hand.held[viewer], message
        if text("play.hand_over") in message:
            assert not table.match.is_over, message
        if text("play.play_more") in message and table.tone != "warn":
            assert hand.plays_made and any(isinstance(move, Play) for move in hand.legal_moves()), message
        if text("play.turn_words.end_no_play") in message:
            assert hand.held[viewer] and not any(isinstance(move, Play) for move in hand.legal_moves()), message


TableWalk.TestCase.settings = settings(max_examples=100, stateful_step_count=50, deadline=None,
                                       phases=(Phase.explicit, Phase.reuse, Phase.generate),  # no slow shrinking
                                       suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
test_every_mode_of_every_table = TableWalk.TestCase

