"""Issue 19's reports on hints, reasons, narration and the coach, each read through the path the app uses,
and the claims (`engine/claims.py`) that now decide which of those sentences may be said."""

from __future__ import annotations

from collections import Counter

from test_hint_truth import check_hint

from leopard_tutor.ai.hints import explain
from leopard_tutor.ai.why import why
from leopard_tutor.engine import (
    REVISED_2008,
    RUNNING_LEOPARD,
    Card,
    GoOut,
    Hand,
    Play,
    RuleSet,
    Square,
    check_play,
    full_deck,
)
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.claims import NextTurn, OpponentCanLay, next_turn, opponent_can_lay
from leopard_tutor.engine.narration import move_words

c = Card.parse


def P(card: str, owner: int, space: int) -> Play:
    return Play(c(card), owner, space)


def position(mine: str, theirs: str, my_cards: str, their_cards: str, *, stock: int | None = None,
             discards: str = "", rules: RuleSet = REVISED_2008, dealer: int = 1) -> Hand:
    """Player 0 to move; the stock is `stock` of the cards left (all of them if None; in a fixed order),
    the rest discarded after `discards`."""
    squares = [Square.parse(mine), Square.parse(theirs)]
    hands = [[c(t) for t in my_cards.split()], [c(t) for t in their_cards.split()]]
    thrown = [c(t) for t in discards.split()]
    used = Counter(hands[0]) + Counter(hands[1]) + Counter(squares[0].cards()) + Counter(squares[1].cards())
    rest = sorted((Counter(full_deck()) - used - Counter(thrown)).elements())
    kept = len(rest) if stock is None else stock
    return Hand(rules, squares, hands, rest[:kept], thrown + rest[kept:], 0, dealer)


def ladder(hand: Hand, move: Play | GoOut) -> str:
    view = hand.view(0)
    result = explain(view, move)
    check_hint(view, result, hand)
    return " ".join((result.reason, *result.ladder))


def test_4_a_king_that_turns_a_suit_line_into_a_colour_line_says_it_drops() -> None:
    hand = position("AH 2H 3H / 4D . . / 7D . .", ". . . / . . . / . . .", "KD 5S", "2C")
    said = ladder(hand, P("KD", 0, 1))
    assert "stops scoring" not in said and "row 1-2-3 drops from 3 to 1" in said


def test_5_a_ten_tried_on_the_opponents_square_is_told_where_tens_go() -> None:
    full = Square.parse("AH 2H 3H / 4D 5D 6D / 7S 8S 9S")
    reason = check_play(c("10C"), Square(), 5, own=False).reason
    assert "Any empty space" not in reason and "empty or has a face-down card on top" in reason
    assert not any(full.is_open(s) for s in range(1, 10))  # the own square of the report: none open


def test_6_a_card_crowding_their_square_does_not_say_they_cannot_lay_there() -> None:
    hand = position(". . . / . . . / . . .", ". . . / . . . / . . .", "4C 5S", "2C")
    view = hand.view(0)
    reason = explain(view, P("4C", 1, 4)).reason
    told = why(view, P("4C", 1, 4)).sentence
    for sentence in (reason, told):
        assert "until they cover it" not in sentence and "until you cover it" not in sentence
        assert "from ace to ten" in sentence


def test_7_no_mending_is_promised_when_every_mending_card_has_been_seen() -> None:
    others = "3S 3S 3C 3C 3D 3D 3H 10S 10S 10C 10C 10D 10D 10H 10H KS KS KC KC KD KD KH KH"
    hand = position(". . . / . . . / . . .", "AH 2H 3H / . . . / . . .", "JS 5C", "2C", discards=others)
    said = ladder(hand, P("JS", 1, 3))
    assert "they can mend" not in said and "0 such" not in said
    assert "every such card has been seen" in said


def test_8_going_out_names_no_jacks_when_none_is_left_and_no_turn_when_none_is_left() -> None:
    rich = "AH 2H 3H / 4H 5H 6H / 7H . ."
    jacks = " ".join(["JS", "JS", "JC", "JC", "JD", "JD", "JH", "JH"])
    no_jacks = ladder(position(rich, ". . . / . . . / . . .", "4C", "2C", discards=jacks), GoOut())
    assert "up to 0" not in no_jacks and "Against going out: every jack is accounted for" in no_jacks
    last = position(rich, ". . . / . . . / . . .", "4C", "", stock=0, dealer=0)  # the dealer's last card
    assert last.view(0).legal_moves()
    said = ladder(last, GoOut())
    assert "jacks may still" not in said and "no card left to lay" in said


def test_9_reaching_the_threshold_on_your_last_card_promises_no_next_turn() -> None:
    hand = position("AH 2H 3H / 4H 5H . / . . .", ". . . / . . . / . . .", "7H", "2C", stock=0, dealer=1)
    said = ladder(hand, P("7H", 0, 7))
    assert "at the start of your next one" not in said
    assert "the hand ends before your next turn" in said
    assert next_turn(hand.view(0), P("7H", 0, 7)) is False


def test_11_counts_values_rank_lists_narration_and_the_coach_read_well() -> None:
    one_jack = position("AH . . / . . . / . . .", ". . . / . . . / . . .", "4C 2S", "5D",
                        discards="JS JS JC JC JD JD JH")
    said = ladder(one_jack, P("4C", 0, 4))
    assert "Up to 1 jack" not in said and "One jack may still be" in said
    assert "your square stays at" in said and "goes from 1 to 1" not in said
    mend = ladder(position(". . . / . . . / . . .", "AH 2H 3H / . . . / . . .", "JS 5C", "2C"), P("JS", 1, 3))
    assert "(3, 10 or king" not in mend and "a 3, a 10 or a king" in mend
    told = move_words(P("8S", 1, 8), "report", 0)
    assert told == "Your opponent plays the 8 of spades on space 8 of their own square."
    assert move_words(P("8S", 0, 8), "report", 0) == "Your opponent plays the 8 of spades on space 8 of your square."
    assert text("lessons.feedback.coach.yours", move="play the 7 of clubs", gain=1).endswith("raises your square by "
                                                                                               "1 point.")
    assert text("lessons.feedback.coach.theirs", move="play the jack of clubs", gain=1).endswith(
        "lowers your opponent's square by 1 point.")


def test_the_circular_reason_is_gone_from_every_book() -> None:
    for key in ("hints.reason", "review.why.reason"):
        assert "play" not in text.__globals__["entry"](key)


def test_turn_claims_follow_the_counts_of_cards() -> None:
    mid = position(". . . / . . . / . . .", ". . . / . . . / . . .", "4C 5S", "2C", stock=10)
    view = mid.view(0)
    assert next_turn(view, P("4C", 0, 4)) is True and opponent_can_lay(view, P("4C", 0, 4))
    assert NextTurn().holds(view, P("4C", 0, 4)) and not NextTurn(False).holds(view, P("4C", 0, 4))
    assert not opponent_can_lay(view, GoOut())
    empty = position(". . . / . . . / . . .", ". . . / . . . / . . .", "4C", "", stock=0, dealer=0)
    assert not OpponentCanLay().holds(empty.view(0), P("4C", 0, 4))
    running = position(". . . / . . . / . . .", ". . . / . . . / . . .", "4C 5S", "2C", stock=2,
                       rules=RUNNING_LEOPARD)
    assert next_turn(running.view(0), P("4C", 0, 4)) is None  # it depends on the cards still to be laid
