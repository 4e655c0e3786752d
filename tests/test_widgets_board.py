"""The board and the Play controller in plain pytest (no kernel): intents in, engine state and messages out."""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any, ClassVar

import anywidget
import pytest
import traitlets
from keyed import keys_in, mark, said

from leopard_tutor.board_parts import card_data, square_part
from leopard_tutor.engine import (
    RUNNING_LEOPARD,
    Card,
    Discard,
    EndTurn,
    GoOut,
    Hand,
    Match,
    Move,
    Play,
    PlayerView,
    Square,
    rules_by_key,
)
from leopard_tutor.engine.catalogue import text
from leopard_tutor.table import Playing, Table, against_computer, drawing
from leopard_tutor.table.presenter import play_targets, table_state
from leopard_tutor.table.sentences import places_words
from leopard_tutor.widgets import LeopardBoard
from leopard_tutor.widgets.board import STATIC, PageWrites
from leopard_tutor.widgets.storage import BrowserStorage

C = Card.parse


class FirstPlay:
    """A deterministic opponent: the first legal play, else the first discard, else whatever is left."""

    def __init__(self) -> None:
        self.views: list[PlayerView] = []

    def choose(self, view: PlayerView) -> Move:
        self.views.append(view)
        moves = view.legal_moves()
        for kind in (Play, Discard, EndTurn):
            for move in moves:
                if isinstance(move, kind):
                    return move
        return moves[0]


def new_board(seed: int = 3, rules: str = "REVISED_2008", **kwargs: Any) -> tuple[LeopardBoard, Table]:
    controller = against_computer(FirstPlay(), rules=rules_by_key(rules), seed=seed, **kwargs)
    return LeopardBoard(controller), controller


def my_turn_seed(rules: str = "REVISED_2008") -> int:
    """A seed whose first hand starts with the learner (player 0 moves first)."""
    return next(s for s in range(100) if Match(rules_by_key(rules), seed=s).current.to_move == 0)


def cells(state: Mapping[str, Any], label: str) -> list[dict[str, Any]]:
    return next(sq["cells"] for sq in state["squares"] if sq["label"] == label)


def test_static_files_are_real_files_and_loaded() -> None:
    assert (STATIC / "board.js").is_file() and (STATIC / "board.css").is_file()
    board = LeopardBoard()
    assert "export default" in board._esm and ".lt-board" in board._css


def test_state_follows_the_accessibility_contract(keyed: None) -> None:
    board, controller = new_board(my_turn_seed())
    state = board.state
    json.dumps(state)  # plain JSON, as the page receives it
    yours, theirs = mark("board.squares.yours"), mark("board.squares.theirs")
    names = [c["name"] for sq in state["squares"] for c in sq["cells"]]
    assert names == [mark("board.space_name", label=label, space=space, what=mark("board.empty"))
                     for label in (yours, theirs) for space in range(1, 10)]  # in the order drawn: yours on the left
    assert [sq["label"] for sq in state["squares"]] == [yours, theirs]
    assert [sq["value_text"] for sq in state["squares"]] == [mark("board.worth", label=yours, value=0),
                                                             mark("board.worth", label=theirs, value=0)]
    # each square's list of lines is named by whose square it is (a screen reader hears more than a bare list)
    assert [sq["lines_label"] for sq in state["squares"]] == [mark("board.line_list", label=yours),
                                                              mark("board.line_list", label=theirs)]
    assert [c["name"] for c in state["hand"]["cards"]] == [card.name for card in controller.hand.held[0]]
    assert state["discard"]["name"] == mark("board.discard_pile")
    assert state["actions"][0]["label"] == mark("play.buttons.go_out")


def test_selecting_a_card_lights_exactly_the_legal_targets() -> None:
    board, controller = new_board(my_turn_seed())
    for index, card in enumerate(controller.hand.held[0]):
        board.dispatch({"type": "select", "index": index})
        if board.state["hand"]["cards"][index]["selected"] is False:
            board.dispatch({"type": "select", "index": index})
        legal = controller.hand.legal_moves()
        lit = {(sq["key"], c["space"]) for sq in board.state["squares"] for c in sq["cells"] if c["target"]}
        assert lit == {(m.square_owner, m.space) for m in legal if isinstance(m, Play) and m.card is card}
        assert board.state["discard"]["target"] == (Discard(card) in legal)
        for sq in board.state["squares"]:
            for c in sq["cells"]:
                verdict = controller.hand.check(Play(card, sq["key"], c["space"]))
                assert c["why"] == verdict.reason
                assert c["dim"] == (not c["target"])
        assert card.name in board.state["message"]
    board.dispatch({"type": "select", "index": 0})
    board.dispatch({"type": "select", "index": 0})
    assert not any(c["selected"] for c in board.state["hand"]["cards"])


def test_an_illegal_click_explains_and_changes_nothing() -> None:
    board, controller = new_board(my_turn_seed())
    hand = controller.hand
    index, card = next((i, c) for i, c in enumerate(hand.held[0]) if c.rank <= 9)
    space = 9 if card.rank != 9 else 8
    before = hand.copy()
    board.dispatch({"type": "select", "index": index})
    board.dispatch({"type": "space", "square": 0, "space": space})
    assert hand == before
    still = text("play.still_picked", The_card=card.the_name_first)
    assert board.state["message"] == f"{hand.check(Play(card, 0, space)).reason} {still}"
    assert board.state["tone"] == "warn"
    assert board.state["hand"]["cards"][index]["selected"]  # still chosen, so another try is one click, as it says
    # the space tried does not say its reason again under the message that says it, and keeps it as its description
    tried = {(sq["key"], c["space"]): c for sq in board.state["squares"] for c in sq["cells"]}
    assert tried[(0, space)]["said"] and tried[(0, space)]["why"] == hand.check(Play(card, 0, space)).reason
    assert not [place for place, cell in tried.items() if cell.get("said") and place != (0, space)]
    board.dispatch({"type": "select", "index": index})  # put back: a new message, and the space speaks again
    assert not any(c.get("said") for sq in board.state["squares"] for c in sq["cells"])


def test_a_legal_play_changes_board_and_value_and_the_opponent_replies(keyed: None) -> None:
    board, controller = new_board(my_turn_seed())
    hand = controller.hand
    index, card = next((i, c) for i, c in enumerate(hand.held[0]) if c.rank <= 9)
    board.dispatch({"type": "select", "index": index})
    board.dispatch({"type": "space", "square": 0, "space": card.rank})
    assert hand.moves[0] == Play(card, 0, card.rank)
    assert len(hand.moves) == 2 and hand.movers == (0, 1) and hand.to_move == 0
    mine = cells(board.state, text("board.squares.yours"))
    cell = next(c for c in mine if c["space"] == card.rank)
    assert cell["card"] == card_data(card) and said(cell["name"], "board.space_name", space=card.rank, what=card.name)
    assert cell["last"]
    message = board.state["message"]
    assert said(message, "narration.play_on_empty", subject=mark("narration.you"), mover="you", space=card.rank,
                card=card.the_name)
    assert said(message, "narration.opponent")
    assert [e.mover for e in controller.log] == [0, 1]
    opponent_view = controller.opponent.views[-1]  # type: ignore[attr-defined]
    assert opponent_view.player == 1 and card not in opponent_view.hand


def line(orientation: str, labels: str) -> str:
    """A line's name (under `keyed`)."""
    return mark(f"words.line.{orientation}", labels=labels)


def test_values_and_lines_follow_the_engine(keyed: None) -> None:
    rules = rules_by_key("REVISED_2008")
    square = Square.parse("AS . 3C / 4S 5C . / KS 8S 9S")
    part = square_part(square, rules, key=0, label="Square")
    assert part["value"] == 8 and part["value_text"] == mark("board.worth", label="Square", value=8)
    assert {(line["name"], line["points"]) for line in part["lines"]} == {
        (line("row", "7-8-9"), 3), (line("column", "1-4-7"), 3), (line("diagonal", "1-5-9"), 1),
        (line("diagonal", "3-5-7"), 1)}
    keypad = square_part(square, rules_by_key("ORIGINAL_1963"), key=0, label="Square")
    assert [c["space"] for c in keypad["cells"][:3]] == [7, 8, 9]
    row = next(found for found in keypad["lines"] if found["name"] == line("row", "7-8-9"))
    assert row["cells"] == [0, 1, 2] and row["points"] == 2


def test_bad_intents_are_explained_and_change_nothing() -> None:
    board, controller = new_board(my_turn_seed())
    before = controller.hand.copy()
    for intent in ({"type": "select", "index": 99}, {"type": "space", "square": 2, "space": 1},
                   {"type": "space", "square": 0, "space": "5"}, {"type": "fly"}, {"nothing": 1}, "text",
                   {"type": "action", "id": "cheat"}, {"type": "action", "id": ["undo"]},
                   {"type": "action", "id": {"a": 1}}, {"type": "space", "square": 0.0, "space": 5},
                   {"type": "x" * 100_000}):
        board.dispatch(intent)
        assert board.state["tone"] == "warn" and board.state["message"]
        assert board.state["error"] == "" and len(board.state["message"]) < 400
    assert controller.hand == before


def test_the_controllers_message_after_a_refusal_is_shown_under_a_number_of_its_own() -> None:
    """The page shows a message whose number it has not shown yet: a refusal the board said itself must not take
    the number of the controller's next message, which would then never be shown or read out."""
    board, controller = new_board(my_turn_seed())
    board.dispatch({"type": "select", "index": 0})
    picked, number = board.state["message"], board.state["seq"]
    board.dispatch({"type": "action", "id": "cheat"})  # refused by the board itself
    refused = board.state["seq"]
    assert board.state["message"] != picked and refused > number
    board.dispatch({"type": "select", "index": 1})
    assert board.state["message"] == controller.message and board.state["seq"] > refused
    board.refresh()  # nothing new said: the number stays, and so does the page's message
    assert board.state["seq"] == refused + 1


def test_unexpected_failures_reach_the_page_without_a_traceback() -> None:
    class Broken:
        def choose(self, view: PlayerView) -> Move:
            raise RuntimeError("the opponent crashed")

    controller = against_computer(Broken(), seed=my_turn_seed())
    board = LeopardBoard(controller)
    index, _card = next((i, c) for i, c in enumerate(controller.hand.held[0]))
    board.dispatch({"type": "select", "index": index})
    board.dispatch({"type": "discard"})
    assert board.state["error"] == text("board.failed", error="RuntimeError")
    assert "Traceback" not in board.state["error"] and "crashed" not in board.state["error"], "the message is logged"


def test_clicks_travel_the_whole_comm_path() -> None:
    board, _controller = new_board(my_turn_seed())
    message = {"content": {"data": {"method": "custom", "content": {"type": "select", "index": 1}}}, "buffers": []}
    board._handle_msg(message)
    assert board.state["hand"]["cards"][1]["selected"]


def rich_hand_on_a_board() -> tuple[Any, Hand, Any, LeopardBoard]:
    """The revised rules, a hand whose player 0 (to move) may go out with a square worth 9, a table against the
    computer playing it, and its board."""
    rules = rules_by_key("REVISED_2008")
    rich = Square.parse("AH 2H 3H / 4H . . / 7H 8H 9H")
    hand = Hand(rules, [rich, Square()], [[C("5C")], [C("6C")]], [C("2C"), C("3C")], [], 0, 1)
    controller = against_computer(FirstPlay(), seed=1)
    controller.match.current = hand
    return rules, hand, controller, LeopardBoard(controller)


def test_going_out_is_live_exactly_when_allowed(keyed: None) -> None:
    rules, hand, controller, board = rich_hand_on_a_board()
    out = board.state["actions"][0]
    assert out == {"id": "go_out", "label": text("play.buttons.go_out"), "enabled": True, "note": "", "primary": False}
    board.dispatch({"type": "action", "id": "go_out"})
    assert hand.is_over and hand.went_out == 0
    assert said(board.state["message"], "narration.go_out", subject=mark("narration.you"), value=9)
    parts = drawing.breakdown(controller)
    assert parts is not None and (parts[0].raw, parts[0].bonus, parts[0].penalty, parts[0].total) == (9, 2, 1, 10)
    assert parts[0].total == hand.scores()[0]
    poor = Hand(rules, [Square(), Square()], [[C("5C")], [C("6C")]], [C("2C"), C("3C")], [], 0, 1)
    controller.match.current = poor
    controller.mode = Playing()  # the hand was swapped behind the table's back: it is in play again
    board.refresh()
    out = board.state["actions"][0]
    assert not out["enabled"] and out["note"] == poor.check(GoOut()).reason
    board.dispatch({"type": "action", "id": "go_out"})
    assert not poor.is_over and board.state["message"] == poor.check(GoOut()).reason


def test_the_end_of_hand_breakdown_shows_the_going_out_penalty_only_for_who_paid_it(keyed: None) -> None:
    rules, hand, _controller, board = rich_hand_on_a_board()
    board.dispatch({"type": "action", "id": "go_out"})
    assert hand.is_over and hand.went_out == 0
    panel = next(panel for panel in board.state["aside"] if panel["kind"] == "pairs")
    penalty = mark("play.panels.penalty")
    mine, theirs = ([row for row in group["rows"] if row[0] == penalty] for group in panel["groups"])
    assert mine == [[penalty, f"−{rules.out_penalty}", False]] and theirs == []


def test_undo_takes_back_my_move_and_the_reply(keyed: None) -> None:
    board, controller = new_board(my_turn_seed())
    hand = controller.hand
    start = hand.copy()
    board.dispatch({"type": "action", "id": "undo"})
    assert board.state["tone"] == "warn"
    board.dispatch({"type": "select", "index": 0})
    board.dispatch({"type": "discard"})
    assert len(hand.moves) == 2
    board.dispatch({"type": "action", "id": "undo"})
    assert hand.to_move == 0 and hand.held == start.held and hand.moves == () and controller.log == []
    assert said(board.state["message"], "play.undone_with_reply")


def test_hint_button_walks_the_ladder(keyed: None) -> None:
    ladder = ["Think about your row.", "Use the 7 of hearts.", "Space 7 of your square.", "Play it there: +3."]
    calls: list[PlayerView] = []

    def hinter(view: PlayerView) -> Any:
        calls.append(view)
        return SimpleNamespace(move=view.legal_moves()[0], reason="because", ladder=ladder, level="")

    board, controller = new_board(my_turn_seed(), hinter=hinter)
    targets, _, can_discard = play_targets(controller.view(), controller.view().legal_moves()[0].card)
    picked = mark("play.hint_picked", where=places_words(targets, 0, can_discard))  # (and where it may go)
    for rung in range(1, 6):
        board.dispatch({"type": "action", "id": "hint"})
        shown = min(rung, 4)
        words = ladder[shown - 1] + (f" {picked}" if rung == 2 else "")  # (the card named, picked)
        again = "_again" if rung > 4 else ""  # (the last rung shown again says so)
        assert board.state["message"] == mark(f"play.hint{again}", rung=shown, rungs=4, text=words)
    assert len(calls) == 1 and calls[0].player == 0
    if not board.state["hand"]["cards"][0]["selected"]:  # (the hint's card is picked: picking it again puts it back)
        board.dispatch({"type": "select", "index": 0})
    board.dispatch({"type": "discard"})
    board.dispatch({"type": "action", "id": "hint"})
    assert board.state["message"] == mark("play.hint", rung=1, rungs=4, text=ladder[0]) and len(calls) == 2


def test_running_leopard_plays_several_cards_then_ends_the_turn() -> None:
    board, controller = new_board(my_turn_seed("RUNNING_LEOPARD"), rules="RUNNING_LEOPARD")
    hand = controller.hand
    assert hand.rules is RUNNING_LEOPARD
    assert all(drawn["playable"] and not drawn["why"] for drawn in board.state["hand"]["cards"]), "any card discards"
    end = next(a for a in board.state["actions"] if a["id"] == "end_turn")
    assert not end["enabled"] and end["note"]
    plays = 0
    for _ in range(3):
        move = next((m for m in hand.legal_moves() if isinstance(m, Play)), None)
        if move is None:
            break
        board.dispatch({"type": "select", "index": hand.held[0].index(move.card)})
        board.dispatch({"type": "space", "square": move.square_owner, "space": move.space})
        plays += 1
        assert hand.to_move == 0 and hand.plays_made == plays
        # after a play there is no discard: a card with no space left is drawn stuck, with its reason
        for card, drawn in zip(hand.held[0], board.state["hand"]["cards"], strict=True):
            goes = any(isinstance(m, Play) and m.card is card for m in hand.legal_moves())
            assert (drawn["playable"], drawn["why"]) == (goes, "" if goes else text("board.hand_stuck", card=card.name))
    assert plays >= 1
    end = next(a for a in board.state["actions"] if a["id"] == "end_turn")
    assert end["enabled"]
    board.dispatch({"type": "action", "id": "end_turn"})
    assert hand.to_move == 0 and hand.plays_made == 0 and 1 in hand.movers


@pytest.mark.parametrize("rules", ["REVISED_2008", "ORIGINAL_1963", "RUNNING_LEOPARD"])
def test_a_whole_match_by_intents_alone(rules: str, keyed: None) -> None:
    board, controller = new_board(5, rules=rules)
    for number in range(1, 5):
        assert controller.match.hand_number == number
        for _ in range(400):
            hand = controller.hand
            if hand.is_over:
                break
            moves = hand.legal_moves()
            move = next((m for m in moves if isinstance(m, (Play, GoOut))), moves[0])
            if isinstance(move, EndTurn) or (hand.plays_made and isinstance(move, Play) and hand.plays_made > 2):
                board.dispatch({"type": "action", "id": "end_turn"})
            elif isinstance(move, GoOut):
                board.dispatch({"type": "action", "id": "go_out"})
            else:
                board.dispatch({"type": "select", "index": hand.held[0].index(move.card)})
                if isinstance(move, Play):
                    board.dispatch({"type": "space", "square": move.square_owner, "space": move.space})
                else:
                    board.dispatch({"type": "discard"})
            assert board.state["error"] == ""
        assert controller.hand.is_over
        mine, theirs = controller.hand.scores()
        assert said(board.state["message"], "play.hand_end", mine=mine, theirs=theirs)
        assert drawing.score_sheet(controller)[-1] == (number, mine, theirs)
        if number < 4:
            assert any(a["id"] == "next_hand" for a in board.state["actions"])
            board.dispatch({"type": "action", "id": "next_hand"})
    assert controller.match.is_over
    assert {"play.match_won", "play.match_lost", "play.match_drawn"} & set(keys_in(board.state["message"]))
    board.dispatch({"type": "action", "id": "new_match"})
    assert controller.match.hand_number == 1 and not controller.match.is_over


def test_picking_a_card_says_where_it_can_go(keyed: None) -> None:
    rules = rules_by_key("REVISED_2008")
    hand = Hand(rules, [Square.parse("AH . . / . . . / . . ."), Square()], [[C("KS"), C("4D"), C("QH")], [C("6C")]],
                [C("2C"), C("3C")], [], 0, 1)
    controller = against_computer(FirstPlay(), seed=1)
    controller.match.current = hand
    board = LeopardBoard(controller)
    board.dispatch({"type": "select", "index": 0})
    discard = mark("play.places.discard")
    any_space = mark("play.places.own", spaces=mark("play.places.any_space"))
    assert said(board.state["message"], "play.picked", the_card=C("KS").the_name,
                where=mark("words.or_list", first=any_space, last=discard))
    board.dispatch({"type": "select", "index": 1})
    own, theirs = (mark(f"play.places.{side}", spaces=mark("engine.spaces.one", space=4)) for side in ("own", "theirs"))
    assert said(board.state["message"], "play.picked", the_card=C("4D").the_name,
                where=mark("words.or_list", first=own + mark("words.list_separator") + theirs, last=discard))
    board.dispatch({"type": "select", "index": 2})
    assert said(board.state["message"], "play.picked", the_card=C("QH").the_name,
                where=mark("words.or_list", first=mark("play.places.own", spaces=mark("engine.spaces.one", space=1)),
                           last=discard))


def test_lines_that_formed_weakened_or_broke_are_called_out(keyed: None) -> None:
    from leopard_tutor.engine.narration import line_changes

    rules = rules_by_key("REVISED_2008")
    before = Square.parse("AH 2H 3H / 4H . . / 7H . .")
    after = before.with_card(C("KD"), 3).with_card(C("JS"), 7)
    part = square_part(after, rules, key=0, label="Your square", changes=line_changes(0, before, after, rules))
    by_name = {found["name"]: found for found in part["lines"]}
    row, column = line("row", "1-2-3"), line("column", "1-4-7")
    assert by_name[row]["status"] == "weakened" and by_name[row]["points"] == 1
    assert by_name[row]["text"] == mark("board.line_was", text=mark(
        "board.line_scores", name=row, kind=mark("narration.kind_color"), points=1), before=3)
    assert by_name[column] == {"name": column, "spaces": [1, 4, 7], "kind": None, "points": 3,
                               "label": "−3", "text": mark("board.line_broke", name=column, points=3),
                               "status": "broke", "cells": [0, 3, 6]}
    formed = square_part(before, rules, key=0, label="Your square",
                         changes=line_changes(0, Square.parse("AH 2H . / 4H . . / 7H . ."), before, rules))
    assert {found["name"]: found["status"] for found in formed["lines"]} == {row: "formed", column: ""}


def test_the_cards_an_intent_moved_are_listed_for_the_board_to_show_travelling() -> None:
    board, controller = new_board(my_turn_seed())
    assert board.state["moves"] == []
    board.dispatch({"type": "select", "index": 0})
    assert board.state["moves"] == [], "picking a card moves nothing"
    card = controller.hand.held[0][0]
    target = next(m for m in controller.hand.legal_moves() if isinstance(m, Play) and m.card is card)
    made = len(controller.hand.moves)
    board.dispatch({"type": "space", "square": target.square_owner, "space": target.space})
    moved = list(zip(controller.hand.moves[made:], controller.hand.movers[made:]))
    shown = board.state["moves"]
    assert shown[0] == {"by": "you", "target": f"s{target.square_owner}-{target.space}",
                        "card": None if card.rank in (11, 12) else card_data(card)}
    assert [m["by"] for m in shown] == ["you" if mover == 0 else "them" for move, mover in moved
                                        if isinstance(move, (Play, Discard))]
    for item, (move, _mover) in zip(shown[1:], moved[1:]):
        if isinstance(move, Discard):
            assert item["target"] == "discard" and item["card"] == card_data(move.card)
    board.dispatch({"type": "select", "index": 0})
    assert board.state["moves"] == [], "only the message that tells of the moves shows them"


class Watcher(FirstPlay):
    """`FirstPlay` that notes what the board drew at the moment it was asked (the page's view while it thinks)."""

    def __init__(self) -> None:
        super().__init__()
        self.board: LeopardBoard | None = None
        self.seen: list[dict[str, Any]] = []

    def choose(self, view: PlayerView) -> Move:
        assert self.board is not None
        self.seen.append(self.board.state)
        return super().choose(view)


def test_the_learners_move_is_drawn_while_the_computer_chooses_its_reply(keyed: None) -> None:
    """Between the learner's move and the computer's reply the board shows that move made (the card on its space,
    travelling there, nothing picked), the computer's turn and why a click waits meanwhile, under the message as it
    was: the reply's state, which tells the whole turn, follows with the next message number and no such words."""
    watcher = Watcher()
    controller = against_computer(watcher, seed=my_turn_seed())
    board = watcher.board = LeopardBoard(controller)
    hand = controller.hand
    index, card = next((i, c) for i, c in enumerate(hand.held[0]) if c.rank <= 9)
    board.dispatch({"type": "select", "index": index})
    before = board.state
    board.dispatch({"type": "space", "square": 0, "space": card.rank})
    [thinking] = watcher.seen
    assert thinking["thinking"] == text("play.computer_choosing")  # (what a click on the table is told meanwhile)
    assert (thinking["seq"], thinking["message"]) == (before["seq"], before["message"])
    assert cells(thinking, text("board.squares.yours"))[card.rank - 1]["card"] == card_data(card)
    assert card_data(card) not in [each["card"] for each in thinking["hand"]["cards"]]
    assert not any(each.get("selected") for each in thinking["hand"]["cards"])
    assert thinking["moves"] == [{"by": "you", "target": f"s0-{card.rank}", "card": card_data(card)}]
    assert thinking["turn"] == mark("play.turn.theirs", number=1, hands=controller.match.hands,
                                    rules=mark("rules.REVISED_2008"))
    after = board.state
    assert "thinking" not in after and after["seq"] > before["seq"] and after["turn"] != thinking["turn"]
    assert [each["by"] for each in after["moves"]][:2] == ["you", "them"]
    # meanwhile the table takes no intent: each button it would offer is greyed with why, marked for the board to
    # grey after a moment (Undo, Review this hand); those greyed for a reason of their own keep it, unmarked
    waiting, offered = buttons(thinking), buttons(after)
    assert not any(each["enabled"] for each in waiting.values())
    marked = {ident for ident, each in waiting.items() if each.get("wait")}
    assert marked == {"undo", "review"}
    assert all((each["note"] == text("play.computer_choosing")) == (ident in marked) for ident, each in waiting.items())
    assert all(offered[ident]["enabled"] and offered[ident]["label"] == waiting[ident]["label"] for ident in marked)
    assert not any("wait" in each for each in offered.values())


def test_a_new_hand_the_computer_begins_is_drawn_while_it_chooses(keyed: None) -> None:
    """A new match (or the next hand) whose first turn is the computer's is drawn at once, the computer's turn and
    why a click waits shown, while it chooses that turn (the QA's case: the finished hand and an offered Next hand
    stayed on the board for seconds). The new hand's cards are in the learner's hand meanwhile."""
    watcher = Watcher()
    controller = against_computer(watcher, seed=my_turn_seed())
    board = watcher.board = LeopardBoard(controller)
    rules = rules_by_key("REVISED_2008")
    seed = next(s for s in range(100) if Match(rules, seed=s).current.to_move == 1)
    dealt = [card_data(card) for card in Match(rules, seed=seed).current.held[0]]
    before = board.state
    board.act(lambda: controller.new_match(rules, seed=seed))
    thinking = watcher.seen[0]
    assert thinking["thinking"] == text("play.computer_choosing")
    assert thinking["turn"] == mark("play.turn.theirs", number=1, hands=controller.match.hands,
                                    rules=mark("rules.REVISED_2008"))
    assert [each["card"] for each in thinking["hand"]["cards"]] == dealt
    assert (thinking["seq"], thinking["message"]) == (before["seq"], before["message"])
    assert not any(each["enabled"] for each in buttons(thinking).values())
    after = board.state
    assert "thinking" not in after and after["seq"] > before["seq"]
    assert said(after["message"], "play.they_start")


def buttons(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The buttons of a board's state, under the board and beside it, by their ids."""
    beside = [item for panel in state["aside"] if panel.get("kind") == "actions" for item in panel["items"]]
    return {each["id"]: each for each in [*state["actions"], *beside]}


def test_nothing_is_drawn_between_where_no_computer_replies() -> None:
    """A move that does not end the learner's turn (Running Leopard's first play) draws no thinking state."""
    watcher = Watcher()
    controller = against_computer(watcher, rules=RUNNING_LEOPARD, seed=my_turn_seed("RUNNING_LEOPARD"))
    board = watcher.board = LeopardBoard(controller)
    states: list[dict[str, Any]] = []
    board.observe(lambda change: states.append(change["new"]), names="state")
    card = controller.hand.held[0][0]
    target = next(m for m in controller.hand.legal_moves() if isinstance(m, (Play, Discard)) and m.card is card)
    board.dispatch({"type": "select", "index": 0})
    board.dispatch({"type": "discard"} if isinstance(target, Discard)
                   else {"type": "space", "square": target.square_owner, "space": target.space})
    assert watcher.seen == [] and not any(state.get("thinking") for state in states)
    board.dispatch({"type": "action", "id": "end_turn"})
    assert watcher.seen and all(seen["thinking"] == text("play.computer_choosing")  # (each of its plays asked)
                                for seen in watcher.seen)
    # each of the computer's plays is drawn as it is made, while it chooses the next (a turn of several plays)
    shown = [[move["by"] for move in seen["moves"]] for seen in watcher.seen]
    assert len(shown) > 1 and all(later[:len(earlier)] == earlier and len(later) == len(earlier) + 1
                                  for earlier, later in itertools.pairwise(shown)), shown
    assert shown[-1][-1] == "them"


def test_an_answer_intent_is_a_whole_number_or_nothing() -> None:
    board, _ = new_board(my_turn_seed())
    for bad in ({"type": "answer", "value": "3"}, {"type": "answer", "value": True}, {"type": "answer", "value": 2.5}):
        board.dispatch(bad)
        assert board.state["tone"] == "warn" and board.state["error"] == ""
    board.dispatch({"type": "answer", "value": 3})
    assert board.state["message"] == text("board.refused"), "a programmer's error is logged, not shown"


def page_update(widget: Any, state: dict[str, Any]) -> None:
    """What the page's widget manager sends when the page writes traits: an "update" comm message."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}}, "buffers": []})


def test_the_page_cannot_write_the_board_or_poison_its_state() -> None:
    board, _controller = new_board(my_turn_seed())
    sent: list[dict[str, Any]] = []
    board._send = lambda message, buffers=None: sent.append(message)  # type: ignore[method-assign]
    before, words = board.state, board.texts
    page_update(board, {"state": {"seq": "x"}, "texts": {"lost": "<img src=x>"}, "tabbable": True})
    assert board.state == before and board.texts == words, "nothing the page wrote was taken"
    assert [m["method"] for m in sent] == ["update"] and sent[0]["state"]["state"] == before, "the kernel's sent back"
    assert set(sent[0]["state"]) == {"state", "texts", "tabbable"}
    board.dispatch({"type": "nonsense"})
    assert board.state["message"] == text("board.refused") and board.state["seq"] == before["seq"] + 1


def test_a_page_writes_only_the_traits_it_owns_with_their_types() -> None:
    class Note(PageWrites, anywidget.AnyWidget):  # type: ignore[misc]
        page_writes: ClassVar[dict[str, type]] = {"note": str}
        note = traitlets.Unicode("").tag(sync=True)
        shown = traitlets.Unicode("kernel's").tag(sync=True)

    widget = Note()
    sent: list[dict[str, Any]] = []
    widget._send = lambda message, buffers=None: sent.append(message)  # type: ignore[method-assign]
    page_update(widget, {"note": "from the page"})
    assert widget.note == "from the page" and all(m["method"] == "echo_update" for m in sent)
    sent.clear()
    page_update(widget, {"note": 5, "shown": "forged"})
    assert (widget.note, widget.shown) == ("from the page", "kernel's")
    assert sent == [{"method": "update", "state": {"note": "from the page", "shown": "kernel's"}, "buffer_paths": []}]
    storage = BrowserStorage("progress")
    page_update(storage, {"saved": "forged", "key": "leopard-tutor/other"})
    assert (storage.saved, storage.key) == ("", "leopard-tutor/progress")


def test_the_discard_piles_reason_is_the_engines_verdict_or_whose_turn_it_is(keyed: None) -> None:
    """Running Leopard, after the mover's first play: the mover is told the engine's reason a discard is not allowed
    now; the other player, whose turn it is not, is told that (before, they heard the mover's reason)."""
    hand = Hand.deal(RUNNING_LEOPARD, seed=5)
    mover = hand.to_move
    hand.apply(next(m for m in hand.legal_moves() if isinstance(m, Play)))
    assert hand.plays_made == 1 and hand.to_move == mover
    mine = table_state(hand.view(mover), selected=0).discard
    assert mine["why"] == hand.check(Discard(hand.held[mover][0])).reason == mark("engine.turn.discard_after_play")
    theirs = table_state(hand.view(1 - mover), selected=0).discard
    assert theirs["why"] == mark("board.turn.theirs") and not theirs["target"]
    fresh = Hand.deal(RUNNING_LEOPARD, seed=5)
    card = fresh.held[fresh.to_move][0]
    allowed = table_state(fresh.view(fresh.to_move), selected=0).discard
    assert allowed["target"] and allowed["why"] == fresh.check(Discard(card)).reason
