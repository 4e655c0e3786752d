"""A table between classmates, headless: two pages' `ClassTable`s and the server's `Referee` in one process.
Every move is stored by the authority before either table shows it; each table sees only its seat's view;
a page rebuilt from the stored moves (a reload) is where the match was; the next deal is one stored move."""

from __future__ import annotations

from pathlib import Path

import pytest
from board_states import cards_shown
from keyed import mark, said
from test_class_panel import play_to_the_last_move
from test_table import OPTIONS, intents_for

from leopard_tutor.ai import hint
from leopard_tutor.ai.players import BeginnerPlayer
from leopard_tutor.ai.why import why_turn
from leopard_tutor.class_codes import ClassTableError
from leopard_tutor.engine import LeopardError
from leopard_tutor.engine.catalogue import and_list, text
from leopard_tutor.engine.moves import NEXT_HAND, move_to_data
from leopard_tutor.engine.turns import cards_drawn, current_player, turn_began
from leopard_tutor.server.class_store import ClassStore
from leopard_tutor.server.referee import Referee
from leopard_tutor.table import Computer, PersonElsewhere, PersonHere, Playing, Table
from leopard_tutor.table.class_table import ClassTable, shown_again
from leopard_tutor.table.modes import ELSEWHERE, Closed


def page(tables: Referee, visitor: str) -> ClassTable:
    """A page's table as the class panel builds it from the server's report."""
    report = tables.report(visitor)
    code = report["table"]
    table = ClassTable(report["seat"], report["names"],
                       lambda number, move: tables.move(visitor, code, number, move),
                       seed=report["seed"], hands=report["hands"], hinter=None, **OPTIONS)
    table.update(report["moves"], replay=True)
    return table


@pytest.fixture
def two(tmp_path: Path) -> tuple[Referee, str]:
    tables = Referee(ClassStore.in_folder(tmp_path))
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    return tables, code


def test_a_whole_hand_between_two_pages_through_the_authority(two: tuple[Referee, str]) -> None:
    tables, code = two
    pages = {"ana": page(tables, "ana"), "ben": page(tables, "ben")}
    by_seat = {pages["ana"].seat: "ana", pages["ben"].seat: "ben"}
    live = tables.tables[code]
    chooser = BeginnerPlayer(3)
    steps = told_drawn = 0
    while not live.match.current.is_over:
        mover = by_seat[live.match.current.to_move]
        mine, other = pages[mover], pages["ana" if mover == "ben" else "ben"]
        assert isinstance(mine.mode, Playing) and mine.viewer_to_move and other.waiting_for(mine.seat)
        state = other.board_state()
        assert cards_shown(state) == tuple(str(card) for card in other.hand.held[other.seat])
        move = chooser.choose(mine.view())
        stored = len(live.moves)
        for intent in intents_for(mine.view(), move):
            mine.handle(intent)
        assert len(live.moves) == stored + 1 and mine.made == stored + 1, mine.message
        assert other.made == stored
        other.update(tables.report("ana" if mover == "ben" else "ben")["moves"])
        assert other.hand.moves == mine.hand.moves == live.match.current.moves
        began = turn_began(other.hand)
        if current_player(other.hand) == other.seat and began is not None and began.drew:  # their turn, begun now
            named = and_list([card.name for card in cards_drawn(other.hand)])
            the_named = and_list([card.the_name for card in cards_drawn(other.hand)])
            assert len(cards_drawn(other.hand)) == began.drew and set(cards_drawn(other.hand)) <= set(
                other.hand.held[other.seat])
            assert text("play.turn_words.drew", count=began.drew, cards=named, the_cards=the_named) in other.message, (
                other.message)
            told_drawn += 1
        steps += 1
    assert steps > 10 and told_drawn > 3, "the classmate's move that begins a turn says what was drawn"
    assert pages["ana"].hand.scores() == pages["ben"].hand.scores() == live.match.current.scores()
    # the next deal: the first to ask stores it, the other's table deals it when its player asks
    pages["ben"].handle({"type": "action", "id": "next_hand"})
    assert live.moves[-1] == NEXT_HAND and live.match.hand_number == 2
    pages["ana"].update(tables.report("ana")["moves"])
    assert pages["ana"].match.hand_number == 1 and pages["ana"].pending == [NEXT_HAND]
    pages["ana"].handle({"type": "action", "id": "next_hand"})
    assert pages["ana"].match.hand_number == 2 and pages["ana"].made == len(live.moves)
    assert pages["ana"].hand.held == live.match.current.held


def test_a_reloaded_page_is_where_the_match_was(two: tuple[Referee, str]) -> None:
    tables, code = two
    live = tables.tables[code]
    chooser = BeginnerPlayer(5)
    for _ in range(9):
        hand = live.match.current
        visitor = live.row.visitors[hand.to_move]
        assert visitor is not None
        tables.move(visitor, code, len(live.moves), move_to_data(chooser.choose(hand.view(hand.to_move))))
    again = page(tables, "ben")
    assert again.hand.moves == live.match.current.moves and again.made == len(live.moves)
    assert isinstance(again.mode, Playing)
    assert again.viewer_to_move if live.match.current.to_move == again.seat else again.waiting_for(1 - again.seat)


def test_a_refused_move_changes_nothing_and_the_other_seat_cannot_be_moved(two: tuple[Referee, str]) -> None:
    tables, code = two
    ana = page(tables, "ana")
    live = tables.tables[code]
    waiting = ana if live.match.current.to_move != ana.seat else page(tables, "ben")
    before = waiting.hand.moves
    waiting.handle({"type": "select", "index": 0})
    waiting.handle({"type": "space", "square": 0, "space": 5})
    assert waiting.tone == "warn" and waiting.hand.moves == before and live.moves == []
    theirs = live.match.current.view(1 - waiting.seat).legal_moves()[0]
    with pytest.raises(LeopardError):  # a move "from elsewhere" for the seat of the person here
        waiting.receive(waiting.seat, theirs)
    with pytest.raises(ClassTableError):  # the other seat's move sent as this visitor's
        tables.move(live.row.visitors[waiting.seat] or "", code, 0, move_to_data(theirs))
    assert live.moves == []


def test_the_computer_takes_a_gone_classmates_seat(two: tuple[Referee, str]) -> None:
    tables, _code = two
    ana = page(tables, "ana")
    ana.seat_computer(BeginnerPlayer(1), text("classmates.computer_seated", level="Beginner"))
    assert ana.store_move is None and isinstance(ana.seats[1 - ana.seat], Computer)
    assert isinstance(ana.mode, Playing) and ana.hand.to_move == ana.seat
    ben = page(tables, "ben")
    match = ben.match
    ben.new_match()  # a class table plays one match: refused with its reason, nothing changes
    assert ben.match is match and ben.tone == "warn" and ben.message == text("classmates.no_new_match")


def test_after_the_computer_takes_a_seat_only_its_own_moves_are_explained_or_taken_back(two: tuple[Referee, str],
                                                                                       keyed: None) -> None:
    tables, code = two
    live = tables.tables[code]
    chooser = BeginnerPlayer(5)
    ana_seat = live.row.visitors.index("ana")
    while len(live.moves) < 6 or live.match.current.to_move != ana_seat:  # both moved; Ana's turn
        hand = live.match.current
        visitor = live.row.visitors[hand.to_move] or ""
        tables.move(visitor, code, len(live.moves), move_to_data(chooser.choose(hand.view(hand.to_move))))
    ana = page(tables, "ana")
    played = ana.hand.moves
    computer = 1 - ana.seat
    assert ana.offers()["hint"] == mark("classmates.no_hints")
    ana.seat_computer(BeginnerPlayer(1), "", lambda view: hint(view, "beginner"))
    assert ana.hand.moves == played and ana.viewer_to_move and computer in ana.hand.movers
    found = ana.offers()
    # the computer has made no move yet: what Ben played is not explained as the computer's, nor taken back
    assert found["why"] == mark("review.why.none_since_computer")
    assert found["undo"] == mark("play.nothing_to_undo_since_computer")
    assert found["hint"] == "", "the match is the computer's now: hints as in any match against it"
    ana.handle({"type": "action", "id": "undo"})
    assert ana.tone == "warn" and ana.hand.moves == played
    ana.handle({"type": "action", "id": "hint"})
    assert ana.tone != "warn" and said(ana.message, "play.hint_by")
    ana.make(ana.view().legal_moves()[0])  # the computer answers at once
    assert ana.hand.movers[-1] == computer and ana.offers()["why"] == ""
    assert why_turn(ana.hand, computer, ana.computer_from).indices[0] >= len(played)
    ana.handle({"type": "action", "id": "why"})  # the button tells the computer's own moves, none of Ben's
    assert ana.tone != "warn" and ana.message.startswith(why_turn(ana.hand, computer, len(played)).sentence)
    ana.handle({"type": "action", "id": "undo"})
    assert ana.tone != "warn" and ana.hand.moves == played
    assert ana.offers()["undo"] == mark("play.nothing_to_undo_since_computer")


def test_a_hand_played_with_the_classmate_tried_again_after_the_computer_sat_says_why_in_the_tries_words(
        keyed: None) -> None:
    """The computer took the seat in hand 2; a position of hand 1 (all the classmate's) tried again: Why and Undo
    wait for moves made since the position was set up again, and say so."""
    table = Table((PersonHere("Ana"), PersonElsewhere("Ben", lambda _view: None)), seed=3, **OPTIONS)
    chooser = BeginnerPlayer(1)

    def step() -> None:
        player = current_player(table.hand)
        move = chooser.choose(table.hand.view(player))
        table.make(move) if player == 0 else table.receive(player, move)

    while not table.hand.is_over:
        step()
    table.next_hand()
    while len(table.hand.moves) < 3 or current_player(table.hand) != 0:
        step()
    table.close("other_left", "")
    table.seat_computer(BeginnerPlayer(2), "")
    table.review_last_hand()
    table.review_step(2)
    table.try_again()
    retry = table.retry
    assert retry is not None and retry.number == 1 and table.computer_sat == (2, 3)
    assert table.viewer_to_move and 1 not in table.hand.movers[retry.floor:]  # the try begins with Ana's move
    assert table.offers()["why"] == mark("review.why.none_in_retry")
    assert table.offers()["undo"] == mark("play.nothing_to_undo_in_retry")


def test_the_last_move_reaches_a_page_reviewing_once_its_review_closes(two: tuple[Referee, str]) -> None:
    tables, code = two
    live = tables.tables[code]
    move = play_to_the_last_move(tables, code)
    mover = live.row.visitors[live.match.current.to_move] or ""
    waiter = "ben" if mover == "ana" else "ana"
    reviewing = page(tables, waiter)
    assert reviewing.offers()["review"] == text("classmates.review_after_hand"), "not while the hand is played"
    reviewing.handle({"type": "action", "id": "review"})
    assert reviewing.mode.kind == "playing", "refused, changing nothing"
    reviewing.handle({"type": "action", "id": "review_last"})  # the last hand's review is there to read
    assert reviewing.mode.kind == "reviewing"
    tables.move(mover, code, len(live.moves), move_to_data(move))  # the last move: the server closes the table
    report = tables.report(waiter)
    assert report["ended"] == "finished" and code not in tables.tables
    reviewing.end_of_match(report["moves"])
    assert not reviewing.match.is_over and reviewing.pending, "made once the review closes"
    found = reviewing.offers()  # no Leave to name: the menus say what brings them back
    assert found["leave"] and found["rules_menu"] == found["opponent_menu"] == text("classmates.menus_greyed_review")
    reviewing.handle({"type": "action", "id": "review_close"})
    assert reviewing.match.is_over and reviewing.mode.kind == "match_over" and reviewing.store_move is None
    assert reviewing.offers()["rules_menu"] == reviewing.offers()["opponent_menu"] == ""
    assert reviewing.hand.moves == live.match.current.moves


def test_a_card_picked_on_the_other_turn_is_refused_and_not_shown_picked(two: tuple[Referee, str]) -> None:
    """A card pressed while it is the classmate's turn: the page says whose turn it is, and no card is shown picked
    (it was marked pressed while the pick was refused)."""
    tables, _ = two
    pages = {"ana": page(tables, "ana"), "ben": page(tables, "ben")}
    waiting = next(table for table in pages.values() if not table.viewer_to_move)
    waiting.handle({"type": "select", "index": 0})
    assert waiting.tone == "warn" and waiting.marks.selected is None
    assert waiting.board_state().hand is not None
    assert not any(card["selected"] for card in waiting.board_state().hand["cards"])  # type: ignore[index]


def test_a_closed_table_taken_on_in_another_page_closes_here_as_taken_elsewhere(two: tuple[Referee, str],
                                                                                keyed: None) -> None:
    """Ben left; Ana's two pages are closed, offering Finish against the computer. The server's word that she took it
    on in one of them (`take_on`, the report's "taken") closes the other as taken on elsewhere, which offers it no
    more; a page that closes with that word already says so at once; the page where the computer sat is left as it
    is."""
    tables, code = two
    first, second = page(tables, "ana"), page(tables, "ana")
    tables.end("ben", code, "left")
    for table in (first, second):
        table.closed_on_server(tables.report("ana"), code)
        assert table.mode == Closed("other_left") and table.offers()["finish"] == ""
    first.seat_computer(BeginnerPlayer(3), "")
    tables.take_on("ana", code)
    report = tables.report("ana")
    assert report["taken"] is True
    assert not first.taken_elsewhere(code), "the computer sat here: it plays on"
    assert first.computer_sat is not None and first.mode.kind != "closed"
    assert second.taken_elsewhere(code) and second.mode == Closed(ELSEWHERE)
    assert said(second.message, "classmates.taken_elsewhere", code=code)
    assert second.offers()["finish"] == mark("classmates.refused.taken_elsewhere")
    assert not second.taken_elsewhere(code), "once"
    third = page(tables, "ana")  # a page still at the table when the word came: closed as taken on elsewhere at once
    assert third.closed_on_server(report, code) == mark("classmates.taken_elsewhere", code=code)
    assert third.mode == Closed(ELSEWHERE)


def test_a_page_opened_after_the_table_closed_shows_only_a_match_cut_short_while_the_student_was_there(
        two: tuple[Referee, str]) -> None:
    tables, code = two
    tables.end("ben", code, "left")
    report = tables.report("ana")
    assert shown_again(report), "Ben left while she was at it: shown where it stood"
    assert shown_again(tables.report("ben")), "his too, closed as he left it: what it offers him then is offers.py's"
    for other in ({"taken": True}, {"ended": "finished"}, {"ended": "damaged"}, {"names": ["Ana", None]},
                  {"ended": None}, {"table": None}, {"ended": "abandoned", "gone": None, "counts": None}):
        assert not shown_again({**report, **other}), other
