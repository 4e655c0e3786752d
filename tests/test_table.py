"""The table (leopard_tutor/table): its modes, its seats asked the same way (a person here, the computer, a
person elsewhere whose answer comes later), and a whole hand between two people at one device, checked on
the board state after every step: never both hands, and only the player to move's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest
from board_states import cards_shown
from keyed import mark, markers, said

from leopard_tutor.ai.players import BeginnerPlayer, IntermediatePlayer
from leopard_tutor.ai.review import HandReview
from leopard_tutor.engine import (
    REVISED_2008,
    RUNNING_LEOPARD,
    Card,
    Discard,
    EndTurn,
    GoOut,
    LeopardError,
    Move,
    Play,
    PlayerView,
)
from leopard_tutor.engine.cards import full_deck
from leopard_tutor.engine.catalogue import text
from leopard_tutor.table import (
    MAX_NAME,
    BoardState,
    Computer,
    HandFinished,
    Marks,
    PassingDevice,
    PersonElsewhere,
    PersonHere,
    Playing,
    Reviewing,
    Table,
    against_computer,
    at_one_device,
    drawing,
    machine,
    sentences,
)
from leopard_tutor.table.intents import BadIntent
from leopard_tutor.table.offers import end_turn_shown, shown
from leopard_tutor.table.presenter import play_targets
from leopard_tutor.table.sentences import places_words


def small_review(player: int) -> HandReview:
    return HandReview(player, deals=1, candidates=2)


OPTIONS: dict[str, Any] = {"reviewer": small_review, "background": False}


def intents_for(view: PlayerView, move: Move) -> list[Mapping[str, Any]]:
    """The clicks that make `move` on the board."""
    if isinstance(move, (Play, Discard)):
        pick = {"type": "select", "index": view.hand.index(move.card)}
        if isinstance(move, Play):
            return [pick, {"type": "space", "square": move.square_owner, "space": move.space}]
        return [pick, {"type": "discard"}]
    return [{"type": "action", "id": "go_out" if isinstance(move, GoOut) else "end_turn"}]


def codes(cards: tuple[Card, ...] | list[Card]) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


def subject(told: str) -> str:
    """Who a narrated move says moved (under `keyed`): "Bob", or the marker of "You"."""
    return next(facts["subject"] for _, facts in markers(told) if "subject" in facts)


def assert_private(table: Table, state: BoardState) -> None:
    """What the board state may show at this step (under `keyed`): on a hand-over screen no card of either hand,
    no face-down card named and no move log; otherwise the viewer's hand only, and only the face-down cards they
    laid."""
    hand = table.hand
    shown = state.as_dict()
    if isinstance(table.mode, PassingDevice):
        player = table.mode.player
        assert state.hand is None and state.opponent_hand is None and "hand" not in shown
        assert all(cell["known"] is None for square in state.squares for cell in square["cells"])
        assert [action["id"] for action in state.actions] == ["show_hand"]
        assert state.actions[0]["label"] == text("play.people.show_hand", name=table.name(player))
        assert said(state.message, "play.people.pass", name=table.name(player)) or said(
            state.message, "play.people.pass_from", mover=table.name(1 - player), name=table.name(player))
        # the move told names no face-down card: both read it (it said "over your face-down jack of hearts" of a jack
        # the player to come had laid, to the one who had just moved)
        assert not said(state.message, "narration.own_hidden_card"), state.message
        assert [panel["kind"] for panel in state.aside] == ["table"]  # the score sheet, no log
        assert state.moves == ()
        return
    viewer = table.viewer
    assert cards_shown(state) == codes(hand.held[viewer])
    assert state.opponent_hand is not None and state.opponent_hand["count"] == len(hand.held[1 - viewer])
    assert said(state.opponent_hand["caption"], "play.people.other_hand", name=table.name(1 - viewer))
    seen = hand.view(viewer).squares
    for square in state.squares:
        for cell in square["cells"]:
            if cell["known"] is not None:
                top = seen[square["key"]].top(cell["space"])
                assert top is not None and isinstance(top[0], Card) and not top[1]
                assert cell["known"]["code"] == str(top[0])
    if not hand.is_over:
        assert hand.to_move == viewer and isinstance(table.mode, Playing)
        assert table.name(viewer) in state.turn


def test_the_end_of_a_match_at_one_device_says_you_to_a_winner_who_holds_it(keyed: None) -> None:
    """A match of one hand between two people here: at its end the message, which says "you scored" to the one who
    holds the device, says "You won the match" to them if they won, else who won by name (the QA's case: the
    winner read their own name after "you scored")."""
    for seed in (4, 5):
        table = at_one_device(["Ann", "Bob"], seed=seed, hinter=None, hands=1, **OPTIONS)
        players = {0: IntermediatePlayer(1), 1: BeginnerPlayer(2)}
        while not table.match.is_over:
            if isinstance(table.mode, PassingDevice):
                table.handle({"type": "action", "id": "show_hand"})
                continue
            view = table.view()
            for intent in intents_for(view, players[view.player].choose(view)):
                table.handle(intent)
        viewer, totals, winner = table.viewer, table.match.totals, table.match.winner
        assert winner is not None
        if winner == viewer:
            assert said(table.message, "play.match_won", mine=totals[viewer], theirs=totals[1 - viewer])
            assert not said(table.message, "play.people.match_won")
        else:
            assert said(table.message, "play.people.match_won", name=table.name(winner), won=totals[winner],
                        lost=totals[viewer])
        table.handle({"type": "action", "id": "pass"})
        table.handle({"type": "action", "id": "show_hand"})
        other = table.viewer
        assert other != viewer and said(table.message, "play.match_won" if winner == other
                                        else "play.people.match_won")


def test_a_whole_hand_between_two_people_at_one_device_never_shows_both_hands(keyed: None) -> None:
    table = at_one_device(["Ann", "Bob"], seed=4, hinter=None, **OPTIONS)
    players = {0: IntermediatePlayer(1), 1: BeginnerPlayer(2)}
    assert isinstance(table.mode, PassingDevice) and table.mode.player == table.hand.to_move
    steps = handovers = hidden = told_to = 0
    while not table.hand.is_over:
        state = table.board_state()
        assert_private(table, state)
        if isinstance(table.mode, PassingDevice):
            player = table.mode.player
            table.handle({"type": "select", "index": 0})  # nothing but the button answers
            assert table.tone == "warn" and isinstance(table.mode, PassingDevice)
            table.handle({"type": "action", "id": "show_hand"})
            handovers += 1
            assert table.viewer == player and isinstance(table.mode, Playing)
            assert said(table.message, "play.people.your_turn", name=table.name(player))
            continue
        view = table.view()
        for intent in intents_for(view, players[view.player].choose(view)):
            table.handle(intent)
            assert_private(table, table.board_state())
            steps += 1
        if isinstance(table.mode, PassingDevice):  # the move that ended the turn, told to the next player in words
            entry = table.log[-1]  # that name no card either laid face down: both read them
            assert entry.shared and entry.shared != entry.text(view.player)
            to, mover = table.name(table.mode.player), table.name(view.player)
            assert table.message == f"{entry.shared} {mark('play.people.pass_from', mover=mover, name=to)}"
            # "your" square is the one of the player to come, said to them by name (the one who moved holds the device)
            said_to = said(entry.shared, "play.people.told_to", name=to)
            assert said_to == (said(entry.shared, "narration.space.yours") or said(entry.shared, "narration.your"))
            told_to += said_to
            hidden += said(entry.text(table.mode.player), "narration.own_hidden_card")
    assert handovers > 10 and steps > 20
    assert hidden, "no move went over a card the player to come had laid face down: the hand tests too little"
    assert told_to, "no move went on the square of the player to come: the hand tests too little"
    viewer, other = table.viewer, 1 - table.viewer
    scores = table.hand.scores()
    assert said(table.message, "play.people.hand_end", mine=scores[viewer], other=table.name(other),
                theirs=scores[other])
    assert said(table.message, "narration.ran_out") == table.hand.ran_out  # why it ended, where nobody went out
    # every entry of the log is told to the viewer: their moves as "You", the other's by name
    log = table.board_state().aside[-1]["items"]
    assert all(subject(item["text"]) == (mark("narration.you") if item["class"] == "lt-by-you" else table.name(other))
               for item in log)
    # at the end each reviews their own moves: the device passes to the other, who shows their side
    actions = {action["id"]: action for action in table.board_state().actions}
    assert actions["pass"]["label"] == mark("play.people.pass_button", name=table.name(other))
    assert table.board_state().inert and "inert" in table.board_state().as_dict(), "the hand is over: no card is played"
    table.handle({"type": "action", "id": "review"})
    assert isinstance(table.mode, Reviewing) and table.mode.player == viewer
    assert all(judgement.view.player == viewer for judgement in table.mode.review.judgements)
    assert "try_again" not in [action["id"] for action in table.board_state().actions]
    assert table.board_state().inert == mark("review.in_review"), "the page marks the cards: only warnings behind"
    table.handle({"type": "action", "id": "review_close"})
    table.handle({"type": "action", "id": "pass"})
    assert table.mode == PassingDevice(other)
    assert_private(table, table.board_state())
    table.handle({"type": "action", "id": "show_hand"})
    assert table.viewer == other and said(table.message, "play.people.hand_end")
    assert_private(table, table.board_state())
    table.handle({"type": "action", "id": "review"})
    assert isinstance(table.mode, Reviewing) and table.mode.player == other
    assert cards_shown(table.board_state()) == codes(table.mode.judgement.view.hand)
    table.handle({"type": "action", "id": "review_close"})
    # the next hand opens on a hand-over screen for its first player
    table.handle({"type": "action", "id": "next_hand"})
    assert table.mode == PassingDevice(table.hand.to_move)
    assert_private(table, table.board_state())
    table.handle({"type": "action", "id": "show_hand"})
    assert table.board_state().inert == "" and "inert" not in table.board_state().as_dict(), "a turn takes clicks"


def test_between_people_there_is_no_undo_and_the_hint_is_for_the_player_to_move(keyed: None) -> None:
    asked: list[int] = []

    class Hinter:
        move: Move
        ladder = ("nudge", "card", "space", "move")
        level = "master"

    def hinter(view: PlayerView) -> Hinter:
        asked.append(view.player)
        found = Hinter()
        found.move = view.legal_moves()[0]
        return found

    table = at_one_device(seed=7, hinter=hinter, **OPTIONS)
    assert (table.name(0), table.name(1)) == (mark("play.people.default", number=1),
                                              mark("play.people.default", number=2))
    first = table.hand.to_move
    table.handle({"type": "action", "id": "show_hand"})
    table.handle({"type": "action", "id": "hint"})
    master = mark("levels.in_sentence.master")
    assert asked == [first] and said(table.message, "play.hint_by", rung=1, rungs=4, level=master)
    view = table.view()
    table.make(view.legal_moves()[0])
    table.handle({"type": "action", "id": "show_hand"})
    # no Undo under the board: it never works between two people (a refused message says why)
    assert "undo" not in [action["id"] for action in table.board_state().actions]
    moves = table.hand.moves
    table.handle({"type": "action", "id": "undo"})
    assert table.hand.moves == moves and table.tone == "warn" and said(table.message, "play.people.no_undo")
    table.handle({"type": "action", "id": "hint"})
    assert asked == [first, 1 - first]
    assert "why" not in [action["id"] for action in drawing.side_actions(table)]


class FixedHint:
    """A hint naming `move`, with a ladder of four rungs (`hint_ladder`'s)."""

    move: Move
    ladder = ("nudge", "card", "place", "move")
    level = "intermediate"


def hinting(choose: Callable[[PlayerView], Move]) -> tuple[Table, FixedHint]:
    """A table against the computer (seed 3) whose hints name the move `choose` finds in its first position."""
    found = FixedHint()
    table = against_computer(IntermediatePlayer(1), seed=3, hinter=lambda view: found, **OPTIONS)
    found.move = choose(table.view())
    return table, found


def test_a_hint_that_names_a_card_picks_it_so_the_space_it_names_takes_that_card(keyed: None) -> None:
    """A learner who picked one card and asks for a hint naming another: from the second rung on, the card named is
    picked (and the hint says so, once), so a click on the space the hint names plays the card it names."""

    table, found = hinting(lambda view: next(move for move in view.legal_moves() if isinstance(move, Play)))
    view = table.view()
    cards = table.hand.held[table.viewer]
    hinted = cards.index(found.move.card)
    other = next(index for index, card in enumerate(cards) if card != found.move.card)
    table.handle({"type": "select", "index": other})
    table.handle({"type": "action", "id": "hint"})  # the nudge names no card: the pick stays
    assert table.marks.selected == other and not said(table.message, "play.hint_picked")
    table.handle({"type": "action", "id": "hint"})
    targets, _, can_discard = play_targets(view, found.move.card)
    assert table.marks.selected == hinted and said(table.message, "play.hint_picked",
                                                   where=places_words(targets, table.viewer, can_discard))
    assert hinted_places(table) == []  # the card's rung: every place it may go is lit alike
    table.handle({"type": "action", "id": "hint"})  # picked already: not said again
    assert table.marks.selected == hinted and not said(table.message, "play.hint_picked")
    # the place's rung: of the card's lit places, the one it names is lit apart, and named so
    [place] = hinted_places(table)
    assert (place["target"], place["square"], place["space"]) == (True, found.move.square_owner, found.move.space)
    assert said(place["name"], "board.space_hinted") and said(place["name"], "board.space_name", space=place["space"])
    table.handle({"type": "select", "index": other})  # another card picked: no place of its is the hint's
    assert hinted_places(table) == []
    table.handle({"type": "select", "index": hinted})  # picked again by hand: the hint's mark went with the pick
    assert hinted_places(table) == []
    table.handle({"type": "action", "id": "hint"})
    assert len(hinted_places(table)) == 1
    moves = len(table.hand.moves)
    table.click_space(found.move.square_owner, found.move.space)
    assert table.hand.moves[moves] == found.move
    assert hinted_places(table) == []


def test_a_hint_that_names_a_discard_lights_the_pile_apart(keyed: None) -> None:
    """The place's rung of a hint to discard a card: the pile is lit apart from the card's other places (its spaces),
    and named so, as a play's space is; nothing once another card is picked."""
    table, found = hinting(lambda view: next(
        move for move in view.legal_moves() if isinstance(move, Discard)
        and any(isinstance(other, Play) and other.card == move.card for other in view.legal_moves())))
    for _ in range(2):
        table.handle({"type": "action", "id": "hint"})
    assert not table.board_state().as_dict()["discard"]["hinted"], "the card's rung: the pile and its spaces alike"
    table.handle({"type": "action", "id": "hint"})
    pile = table.board_state().as_dict()["discard"]
    assert pile["hinted"] and pile["target"] and said(pile["name"], "board.space_hinted")
    assert hinted_places(table) == [], "none of the card's spaces"
    cards = table.hand.held[table.viewer]
    table.handle({"type": "select", "index": next(i for i, card in enumerate(cards) if card != found.move.card)})
    assert not table.board_state().as_dict()["discard"]["hinted"]


def hinted_places(table: Table) -> list[dict[str, Any]]:
    """The spaces the table's board marks as the place a hint named, each with its square's key."""
    return [{**cell, "square": square["key"]}
            for square in table.board_state().as_dict()["squares"] for cell in square["cells"] if cell.get("hinted")]


def test_names_are_at_most_24_characters_and_a_bad_one_changes_nothing(keyed: None) -> None:
    with pytest.raises(LeopardError) as error:
        at_one_device(["Ann", " ANN"])  # one name for both: each turn would name them alike
    assert (error.value.key, error.value.facts) == ("play.people.name_taken", {"name": "Ann"})
    with pytest.raises(LeopardError) as error:
        at_one_device(["A" * (MAX_NAME + 1), "Bob"])
    assert (error.value.key, error.value.facts) == ("classmates.refused.name_too_long", {"most": 24, "length": 25})
    table = at_one_device(["  Ann  ", "<b>Bob</b>"], seed=1, **OPTIONS)
    assert (table.name(0), table.name(1)) == ("Ann", "<b>Bob</b>")  # the page writes text, never markup
    seq = table.seq
    with pytest.raises(LeopardError) as error:
        table.rename(0, "x" * 25)
    assert error.value.key == "classmates.refused.name_too_long"
    with pytest.raises(LeopardError) as error:
        table.rename(1, "Bob\x07")
    assert error.value.key == "classmates.refused.name_unprintable"
    with pytest.raises(LeopardError) as error:
        table.rename(1, "Bo" + "\u0336" * 4 + "b")
    assert (error.value.key, error.value.facts) == ("classmates.refused.name_marks", {"most": 3})
    for taken in (" ann ", "ANN", "\u0410nn"):  # the other's name, case aside, or with a Cyrillic А: each turn
        # would name them both alike
        with pytest.raises(LeopardError) as error:
            table.rename(1, taken)
        assert (error.value.key, error.value.facts) == ("play.people.name_taken", {"name": "Ann"})
    with pytest.raises(LeopardError) as error:
        table.rename(0, "<b>bob</b>")
    assert error.value.key == "play.people.name_taken"
    assert (table.name(0), table.name(1), table.seq) == ("Ann", "<b>Bob</b>", seq)
    table.rename(1, "")
    assert table.name(1) == mark("play.people.default", number=2)
    assert said(table.message, "play.people.renamed", number=2, name=table.name(1))
    assert said(table.message, "play.people.pass", name=table.name(table.hand.to_move))
    assert_private(table, table.board_state())
    with pytest.raises(BadIntent):
        against_computer(BeginnerPlayer(1), seed=1, **OPTIONS).rename(1, "Deep Blue")


def test_against_the_computer_the_table_is_always_the_learners_and_answers_at_once() -> None:
    table = against_computer(BeginnerPlayer(1), seed=2, **OPTIONS)
    assert isinstance(table.seats[0], PersonHere) and isinstance(table.seats[1], Computer)
    assert table.viewer == 0 and table.opponent is not None and not table.between_people
    assert not table.begun  # nothing of the learner's yet: a change of language starts afresh
    while not table.hand.is_over:
        assert isinstance(table.mode, Playing) and table.hand.to_move == 0
        table.make(IntermediatePlayer(3).choose(table.view()))
        assert cards_shown(table.board_state()) == codes(table.hand.held[0])
        assert table.begun
    assert isinstance(table.mode, HandFinished)


def test_a_change_of_opponent_or_name_goes_by_the_transition_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer's level may change in a review shown over the table, as the transition table says; a mode
    whose row were taken out of that table would refuse it (a fault, not a silent change), and a name likewise."""
    table = against_computer(BeginnerPlayer(1), seed=2, **OPTIONS)
    while not table.hand.is_over:
        table.make(IntermediatePlayer(3).choose(table.view()))
    table.handle({"type": "action", "id": "review"})
    assert table.mode.kind == machine.REVIEWING
    other = IntermediatePlayer(4)
    table.set_opponent(other)
    assert table.mode.kind == machine.REVIEWING and table.opponent is other
    monkeypatch.delitem(machine.TRANSITIONS, (machine.REVIEWING, "opponent"))
    with pytest.raises(machine.TransitionError):
        table.set_opponent(BeginnerPlayer(5))
    assert table.opponent is other, "refused: nothing changed"
    people = at_one_device(["Ana", "Ben"], seed=2)
    monkeypatch.delitem(machine.TRANSITIONS, (people.mode.kind, "rename"))
    with pytest.raises(BadIntent):
        people.rename(0, "Cy")
    assert people.name(0) == "Ana"


def test_play_shows_end_turn_by_the_rule_learn_shows_it_by() -> None:
    """One rule (`offers.end_turn_shown`) says where a board shows End turn, for Play and Learn alike: under one play
    a turn only where it is allowed, which it never is, even with the stock out (nobody passes then: a button shown
    there only refused), and under several plays a turn always, greyed with the engine's reason where it is not."""
    from tests.test_widgets_play_section import Discarder

    table = against_computer(Discarder(), seed=3, **OPTIONS)
    assert "end_turn" not in shown(table)[0] and table.hand.stock_size > 0
    while table.hand.stock_size > 0 and not table.hand.is_over:
        table.make(next(move for move in table.view().legal_moves() if isinstance(move, Discard)))
    hand = table.hand
    assert hand.stock_size == 0 and not hand.is_over and hand.held[0]
    assert "end_turn" not in shown(table)[0] and not hand.check(EndTurn()).legal
    assert not end_turn_shown(REVISED_2008, False) and end_turn_shown(RUNNING_LEOPARD, False)
    assert end_turn_shown(REVISED_2008, True)


def test_ending_a_turn_with_nothing_played_is_offered_as_a_pass(keyed: None) -> None:
    """Running Leopard hands (plays preferred, so that hands run empty): at every turn of the viewer's, End turn is
    named "Pass" exactly where ending the turn is allowed and nothing was played this turn (the words say "with no
    card, pass"; the button said "End turn"), else "End turn"."""
    import random

    from tests.test_widgets_play_section import Discarder

    seen = {"pass": 0, "end turn": 0}
    for seed in range(4):
        rng = random.Random(seed)
        table = against_computer(Discarder(), seed=seed, rules=RUNNING_LEOPARD, **OPTIONS)
        while not table.hand.is_over:
            hand = table.hand
            [button] = [item for item in table.board_state().actions if item["id"] == "end_turn"]
            passes = hand.check(EndTurn()).legal and hand.plays_made == 0
            assert button["label"] == mark("play.buttons.pass" if passes else "play.buttons.end_turn"), seed
            seen["pass" if passes else "end turn"] += 1
            moves = [move for move in table.view().legal_moves() if not isinstance(move, GoOut)]
            plays = [move for move in moves if isinstance(move, Play)]
            table.make(rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(moves))
    assert seen["pass"] and seen["end turn"], seen


def test_a_hand_that_runs_out_says_why_it_ended(keyed: None) -> None:
    """Where nobody goes out, the hand ends once the stock and both hands are empty: the message says so before the
    scores (it gave the scores alone, as if the hand had ended for no reason)."""
    from tests.test_widgets_play_section import Discarder

    table = against_computer(Discarder(), seed=3, **OPTIONS)
    while not table.hand.is_over:
        table.make(next(move for move in table.view().legal_moves() if isinstance(move, Discard)))
    scores = table.hand.scores()
    assert table.hand.ran_out and table.hand.went_out is None
    assert said(table.message, "narration.ran_out") and said(table.message, "play.hand_end", mine=scores[0])
    assert table.message.index(mark("narration.ran_out")) < table.message.index(mark("play.hand_end", mine=scores[0],
                                                                                     theirs=scores[1]))


def test_a_seat_elsewhere_answers_minutes_later_and_the_table_waits(keyed: None) -> None:
    sent: list[PlayerView] = []
    table = Table((PersonHere("Ann"), PersonElsewhere("Bob", sent.append)), seed=5, **OPTIONS)
    if table.hand.to_move == 1:
        assert table.waiting_for(1) and len(sent) == 1 and said(table.message, "play.people.waiting", name="Bob")
        table.receive(1, sent[-1].legal_moves()[0])
    assert isinstance(table.mode, Playing) and table.hand.to_move == 0
    table.make(table.view().legal_moves()[0])
    assert table.waiting_for(1) and sent[-1].player == 1 and sent[-1].to_move == 1
    assert said(table.message, "play.people.waiting", name="Bob")
    assert said(drawing.turn_text(table), "play.people.turn.of", name="Bob")
    state = table.board_state()
    assert cards_shown(state) == codes(table.hand.held[0])  # Ann still sees her own hand while she waits
    assert state.hand is not None and all(card["playable"] and not card["why"] for card in state.hand["cards"]), \
        "no card of hers is drawn stuck: the turn is Bob's, the turn line says so"
    assert not any(action["enabled"] for action in state.actions if action["id"] in ("go_out", "hint", "undo"))
    table.handle({"type": "select", "index": 0})
    table.handle({"type": "space", "square": 0, "space": 5})
    assert table.tone == "warn" and table.message == mark("play.people.not_your_turn", name="Bob")
    # a late answer that is not Bob's to give, or that the rules refuse, changes nothing
    moves = table.hand.moves
    with pytest.raises(LeopardError, match="not waiting for a move of player 0"):
        table.receive(0, EndTurn())
    not_held = next(card for card in full_deck() if card not in sent[-1].hand)
    with pytest.raises(LeopardError):
        table.receive(1, Discard(not_held))
    assert table.hand.moves == moves and table.waiting_for(1)
    later = sent[-1].legal_moves()[0]
    table.receive(1, later)
    assert table.hand.moves[-1] == later and table.log[-1].mover == 1
    assert subject(table.log[-1].text(0)) == "Bob"
    if not table.hand.is_over and table.hand.to_move == 0:
        assert isinstance(table.mode, Playing)


def test_marks_pick_and_put_back_and_refuse_a_card_that_is_not_there() -> None:
    marks = Marks()
    assert marks.pick(2, 5) and marks.selected == 2
    assert not marks.pick(2, 5) and marks.selected is None
    assert marks.pick(1, 5) and marks.selected == 1
    with pytest.raises(BadIntent):
        marks.pick(5, 5)
    assert marks.selected == 1
    marks.clear()
    assert (marks.selected, marks.last, marks.changes, marks.moved) == (None, {}, (), ())


def test_a_table_needs_a_person_at_this_page() -> None:
    with pytest.raises(LeopardError):
        Table((Computer(BeginnerPlayer(1)), Computer(BeginnerPlayer(2))), seed=1, **OPTIONS)


def test_an_opponent_chosen_just_after_its_turn_keeps_the_words_of_that_turn() -> None:
    """A level chosen while the computer chose its turn (so the change comes straight after the words that told it)
    is said after those moves, not in their place: the viewer has not read them yet. Once anything else is said, a
    change of level says where the table stands only; and words answering a press (a code ready, which cannot be
    pressed while the computer chooses) take the place of the message."""
    table = against_computer(BeginnerPlayer(1), seed=3, **OPTIONS)
    table.make(IntermediatePlayer(3).choose(table.view()))
    assert table.hand.movers[-1] == 1 and not table.hand.is_over
    told = [entry.text(0) for entry in table.log if entry.mover == 1][-1]
    assert told in table.message
    table.set_opponent(IntermediatePlayer(4), name="intermediate")
    changed = text("play.opponent_changed", name="intermediate")
    assert told in table.message and changed in table.message
    assert table.message.index(told) < table.message.index(changed), "the moves come first: they were the last one's"
    assert table.message.endswith(sentences.as_it_stands(table))
    table.set_opponent(BeginnerPlayer(5), name="beginner")
    assert told not in table.message and table.message.startswith(text("play.opponent_changed", name="beginner"))
    table.make(IntermediatePlayer(3).choose(table.view()))
    told = [entry.text(0) for entry in table.log if entry.mover == 1][-1]
    assert told in table.message
    table.tell(text("play.share.ready"))
    assert table.message == text("play.share.ready")


def test_a_game_between_two_people_is_taken_up_behind_the_hand_over_screen() -> None:
    """A game the browser kept goes on at a new table of two people as it stood, with no hand shown; a table of
    another kind, or one showing a hand, refuses it and changes nothing."""
    played = at_one_device(["Ana", "Ben"], seed=4, **OPTIONS)
    for _ in range(3):
        played.show_hand()
        played.make(played.view().legal_moves()[0])
    table = at_one_device(["Ana", "Ben"], **OPTIONS)
    table.take_up(played.match)
    assert table.mode == PassingDevice(played.hand.to_move) and table.hand.moves == played.hand.moves
    assert table.board_state().hand is None and table.message == text("play.people.pass", name="Ben")
    assert [entry.text(0) for entry in table.log] == [entry.text(0) for entry in played.log]
    computer = against_computer(BeginnerPlayer(1), seed=2, **OPTIONS)
    table.show_hand()
    for refusing in (computer, table):
        match = refusing.match
        with pytest.raises(BadIntent):
            refusing.take_up(played.match)
        assert refusing.match is match
