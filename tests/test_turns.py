"""Turn rules: draws, going out, the end of the stock, Running Leopard, and what each player sees."""

from __future__ import annotations

import pytest
from keyed import mark

from leopard_tutor.engine import (
    REVISED_2008,
    RUNNING_LEOPARD,
    Card,
    Discard,
    EndTurn,
    GoOut,
    Hand,
    Hidden,
    IllegalMove,
    Play,
    Square,
)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def position(rules: object, sq0: str, sq1: str, h0: str, h1: str, stock: str, to_move: int = 0) -> Hand:
    return Hand(rules, [Square.parse(sq0), Square.parse(sq1)], [cards(h0), cards(h1)],  # type: ignore[arg-type]
                cards(stock), [], to_move=to_move, dealer=1 - to_move)


EMPTY = ". . . / . . . / . . ."


def test_the_turn_passes_and_the_next_player_draws() -> None:
    hand = position(REVISED_2008, EMPTY, EMPTY, "4H 5C", "9S", "KD QC")
    hand.apply(Play(Card.parse("4H"), 0, 4))
    assert hand.to_move == 1 and hand.held[1] == cards("9S KD") and hand.stock_size == 1
    hand.apply(Discard(Card.parse("KD")))
    assert hand.to_move == 0 and hand.held[0] == cards("5C QC") and hand.discards == tuple(cards("KD"))


def test_when_the_stock_is_gone_turns_go_on_without_a_draw_and_end_with_the_last_card() -> None:
    hand = position(REVISED_2008, EMPTY, EMPTY, "4H", "9S", "")
    hand.apply(Discard(Card.parse("4H")))
    assert hand.to_move == 1 and hand.held == ([], cards("9S")) and not hand.is_over
    hand.apply(Play(Card.parse("9S"), 1, 9))
    assert hand.is_over and hand.went_out is None and hand.scores() == (0, 0)


def test_going_out_on_an_empty_stock_is_allowed_at_the_start_of_the_turn(keyed: None) -> None:  # B-13
    hand = position(REVISED_2008, "AH 2H 3H / 4H . . / 7H . .", EMPTY, "9C", "8C", "")
    assert hand.value(0) == 6 + 0
    hand = position(REVISED_2008, "AH 2H 3H / 4H . . / 7H 8H 9H", EMPTY, "9C", "8C", "")
    assert GoOut() in hand.legal_moves() and hand.check(GoOut()).legal
    hand.apply(GoOut())
    assert hand.is_over and hand.went_out == 0 and hand.scores() == (9 + 2 - 1, 0)
    with pytest.raises(IllegalMove) as refused:
        hand.apply(Discard(Card.parse("9C")))
    assert refused.value.key == "engine.turn.over" and str(refused.value) == mark("engine.turn.over")


def test_going_out_after_a_play_is_refused_and_the_reason_speaks_of_a_draw_only_while_there_is_one(
        keyed: None) -> None:
    """Running Leopard, a card played this turn: going out waits for the start of a turn; the reason says "right after
    the draw" only while the stock holds a card (with the stock out no card is drawn)."""
    for stock, key in (("KD QC", "engine.turn.out_timing"), ("", "engine.turn.out_timing_no_draw")):
        hand = position(RUNNING_LEOPARD, "AH 2H 3H / 4H . . / 7H 8H 9H", EMPTY, "5H 9C", "8C", stock)
        hand.apply(Play(Card.parse("5H"), 0, 5))
        verdict = hand.check(GoOut())
        assert not verdict.legal and verdict.key == key and verdict.reason == mark(key)


def test_the_hand_ends_when_someone_goes_out_with_no_last_turn() -> None:  # B-17
    hand = position(REVISED_2008, "AH 2H 3H / 4H . . / 7H 8H 9H", EMPTY, "9C", "8C", "KS KD")
    hand.apply(GoOut())
    assert hand.legal_moves() == [] and hand.held[1] == cards("8C")


def test_passing_is_never_allowed_while_holding_a_card(keyed: None) -> None:  # B-15
    hand = position(REVISED_2008, EMPTY, EMPTY, "4H", "9S", "")
    assert EndTurn() not in hand.legal_moves()
    assert hand.check(EndTurn()).reason == mark("engine.turn.must_act", needed=mark("engine.turn.must_act.standard"))


def test_running_leopard_draws_two_and_allows_several_plays(keyed: None) -> None:
    hand = Hand.deal(RUNNING_LEOPARD, seed=3)
    first = hand.to_move
    assert len(hand.held[first]) == 10
    hand = position(RUNNING_LEOPARD, EMPTY, EMPTY, "4H 5H 6H 9C", "2S", "KD QC JS")
    hand.apply(Play(Card.parse("4H"), 0, 4))
    assert hand.to_move == 0 and hand.plays_made == 1
    assert EndTurn() in hand.legal_moves() and GoOut() not in hand.legal_moves()
    assert not any(isinstance(m, Discard) for m in hand.legal_moves())
    refused = hand.check(Discard(Card.parse("9C")))
    assert not refused.legal and refused.reason == mark("engine.turn.discard_after_play")
    hand.apply(Play(Card.parse("5H"), 0, 5))
    hand.apply(Play(Card.parse("6H"), 0, 6))
    assert hand.value(0) == 3
    hand.apply(EndTurn())
    assert hand.to_move == 1 and hand.held[1] == cards("2S KD QC") and hand.stock_size == 1
    hand.apply(Discard(Card.parse("2S")))
    assert hand.held[0] == cards("9C JS") and hand.stock_size == 0  # one card left: take it


def test_running_leopard_empty_hand_with_empty_stock_passes_and_may_go_out_first() -> None:  # B-16
    hand = position(RUNNING_LEOPARD, "AH 2H 3H / 4H . . / 7H 8H 9H", EMPTY, "", "8C 7C", "")
    assert hand.legal_moves() == [GoOut(), EndTurn()]
    assert hand.check(EndTurn()).legal
    hand.apply(EndTurn())
    assert hand.to_move == 1
    hand.apply(Play(Card.parse("8C"), 1, 8))
    hand.apply(Play(Card.parse("7C"), 1, 7))
    assert hand.is_over  # the stock and both hands are empty


def test_running_leopard_playing_out_the_hand_early_draws_next_turn() -> None:
    hand = position(RUNNING_LEOPARD, EMPTY, EMPTY, "4H", "2S", "KD QC JS 5S")
    hand.apply(Play(Card.parse("4H"), 0, 4))
    assert hand.legal_moves() == [EndTurn()]
    hand.apply(EndTurn())
    hand.apply(Discard(Card.parse("2S")))
    assert hand.held[0] == cards("JS 5S")


def test_views_hide_face_down_cards_the_viewer_did_not_lay() -> None:
    hand = position(REVISED_2008, "AH 2H 3H / . . . / . . .", "AS 2S . / . . . / . . .",
                    "JD QH 5C", "JC QS 9D", "KD KC KH KS")
    hand.apply(Play(Card.parse("JD"), 1, 1))    # player 0 jacks player 1's ace
    hand.apply(Play(Card.parse("JC"), 0, 3))    # player 1 jacks player 0's 3
    hand.apply(Play(Card.parse("QH"), 0, 2))    # player 0 covers their own 2 with a queen
    hand.apply(Play(Card.parse("QS"), 1, 2))    # player 1 covers their own 2 with a queen
    mine = hand.view(0)
    assert mine.squares[0].top(2) == (Card.parse("QH"), False)          # laid it: knows it
    assert mine.squares[0].top(3) == (Hidden(jack_only=True), False)    # laid by the opponent on my square
    assert mine.squares[1].top(1) == (Card.parse("JD"), False)
    assert mine.squares[1].top(2) == (Hidden(jack_only=False), False)   # jack or queen
    theirs = hand.view(1)
    assert theirs.squares[1].top(1) == (Hidden(jack_only=True), False)
    assert theirs.squares[0].top(2) == (Hidden(jack_only=False), False)
    assert str(theirs.squares[0]) == "AH 2H+?* 3H+JC*! / . . . / . . ."
    assert not hasattr(mine, "stock") and mine.other_hand_size == len(hand.held[1])


def test_a_prepared_position_is_checked() -> None:
    with pytest.raises(ValueError, match="more often"):
        position(REVISED_2008, "AH . . / . . . / . . .", EMPTY, "AH AH", "", "")
    with pytest.raises(ValueError, match="player 0 or 1"):
        position(REVISED_2008, EMPTY, EMPTY, "", "", "", to_move=2)
    with pytest.raises(ValueError, match="name every card"):
        position(REVISED_2008, "AS+?* . . / . . . / . . .", EMPTY, "", "", "")


def test_undo_with_nothing_to_undo() -> None:
    with pytest.raises(ValueError, match="no move to undo"):
        Hand.deal(seed=1).undo()


def test_a_prepared_running_leopard_position_may_start_mid_turn() -> None:
    hand = Hand(RUNNING_LEOPARD, [Square.parse("AH . . / . . . / . . ."), Square()], [cards("2H 9C"), cards("5S")],
                cards("KD"), [], to_move=0, dealer=1, plays_made=1)
    assert EndTurn() in hand.legal_moves() and not any(isinstance(m, Discard) for m in hand.legal_moves())
    assert Hand.from_json(hand.to_json()) == hand
    with pytest.raises(ValueError, match="only Running Leopard"):
        Hand(REVISED_2008, [Square(), Square()], [[], []], [], [], to_move=0, dealer=1, plays_made=1)


def test_ending_a_running_turn_says_another_card_may_follow_only_where_one_can(keyed: None) -> None:
    """After a play, ending the turn is explained by whether a card held can still be played."""
    playable = Hand(RUNNING_LEOPARD, [Square.parse("AH . . / . . . / . . ."), Square()], [cards("2H 9C"), cards("5S")],
                    cards("KD"), [], to_move=0, dealer=1, plays_made=1)
    assert playable.check(EndTurn()).reason == mark("engine.turn.end_after_plays", held=2)
    both_fives = "AH . . / . 5C . / . . ."  # a face-up 5 on each space 5: another 5 goes nowhere
    stuck = Hand(RUNNING_LEOPARD, [Square.parse(both_fives), Square.parse(". . . / . 5S . / . . .")],
                 [cards("5D"), cards("5H")], cards("KD"), [], to_move=0, dealer=1, plays_made=1)
    assert not any(isinstance(move, Play) for move in stuck.legal_moves())
    assert stuck.check(EndTurn()).reason == mark("engine.turn.end_after_plays_stuck", held=1)
