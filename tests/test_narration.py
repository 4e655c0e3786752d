"""The words for what a move did: cards, covered cards, lines that formed or broke, value changes."""

from __future__ import annotations

import random

import pytest

from leopard_tutor.engine import (
    ORIGINAL_1963,
    REVISED_2008,
    RULE_SETS,
    Card,
    Discard,
    EndTurn,
    GoOut,
    Hand,
    Play,
    Square,
    square_value,
)
from leopard_tutor.engine.narration import line_changes, move_words, narrate

C = Card.parse
EMPTY = Square()


def test_jack_on_their_square_breaks_two_lines_c4() -> None:
    before = Square.parse("AH 2H 3H / . . 6H / . . 9H")
    after = before.with_card(C("JC"), 3)
    told = narrate(Play(C("JC"), 1, 3), 0, 0, [EMPTY, before], [EMPTY, after], REVISED_2008)
    assert told.text == ("You covered their 3 of hearts on space 3 with the jack of clubs, face down: "
                         "their row 1-2-3 no longer scores, their column 3-6-9 no longer scores, "
                         "their square drops from 6 to 0.")
    assert {c.line.name for c in told.broken} == {"row 1-2-3", "column 3-6-9"}
    assert told.formed == ()
    assert (told.value_before, told.value_after, told.owner) == (6, 0, 1)


def test_king_on_own_seven_forms_three_lines_c3() -> None:
    before = Square.parse("AS . 3C / 4S 5C . / 7H 8S 9S")
    after = before.with_card(C("KS"), 7)
    told = narrate(Play(C("KS"), 0, 7), 0, 0, [before, EMPTY], [after, EMPTY], REVISED_2008)
    assert told.text.startswith("You covered your 7 of hearts on space 7 with the king of spades: ")
    assert "your row 7-8-9 now scores 3 points (one suit)" in told.text
    assert "your diagonal 3-5-7 now scores 1 point (one colour)" in told.text
    assert told.text.endswith("your square rises from 1 to 8.")
    assert {c.line.name for c in told.formed} == {"row 7-8-9", "column 1-4-7", "diagonal 3-5-7"}


def test_the_same_play_told_to_the_other_player() -> None:
    before = Square.parse("AS . 3C / 4S 5C . / 7H 8S 9S")
    after = before.with_card(C("KS"), 7)
    told = narrate(Play(C("KS"), 0, 7), 0, 1, [before, EMPTY], [after, EMPTY], REVISED_2008)
    assert told.text.startswith("Your opponent covered their 7 of hearts on space 7 with the king of spades: ")
    assert told.text.endswith("their square rises from 1 to 8.")


def test_a_play_that_changes_nothing_says_the_value_stays() -> None:
    before = Square.parse(". . . / . . . / . . .")
    after = before.with_card(C("4H"), 4)
    told = narrate(Play(C("4H"), 0, 4), 0, 0, [before, EMPTY], [after, EMPTY], REVISED_2008)
    assert told.text == "You played the 4 of hearts on your space 4: your square stays at 0."
    assert told.changes == ()


def test_suit_line_downgraded_to_colour_line() -> None:
    before = Square.parse("AH 2H . / . . . / . . .")
    mid = before.with_card(C("3H"), 3)
    assert square_value(mid) == 3
    covered = mid.with_card(C("KD"), 3)
    told = narrate(Play(C("KD"), 0, 3), 0, 0, [mid, EMPTY], [covered, EMPTY], REVISED_2008)
    assert "your row 1-2-3 now scores 1 point (one colour) instead of 3" in told.text
    assert told.broken[0].points_before == 3 and told.broken[0].line.points == 1


def _hand(squares: tuple[str, str], hands: tuple[str, str], to_move: int) -> Hand:
    return Hand(REVISED_2008, [Square.parse(s) for s in squares],
                [[C(c) for c in h.split()] for h in hands], [C("2C"), C("3C"), C("4C"), C("5C")], [], to_move, 1)


def _told_through_views(hand: Hand, move: Play | Discard | GoOut | EndTurn, viewer: int) -> str:
    mover = hand.to_move
    before = hand.view(viewer).squares
    value = hand.value(mover)
    hand.apply(move)
    return narrate(move, mover, viewer, before, hand.view(viewer).squares, hand.rules, went_out_value=value).text


def test_opponents_face_down_cards_stay_unnamed() -> None:
    hand = _hand(("AH 2H 3H / . . . / . . .", "AS 2S 3S / . . . / . . ."), ("5D", "JD QC 9S"), 1)
    text = _told_through_views(hand.copy(), Play(C("JD"), 0, 2), 0)
    assert text.startswith("Your opponent covered your 2 of hearts on space 2 with a jack, face down: ")
    assert "diamonds" not in text
    text = _told_through_views(hand.copy(), Play(C("QC"), 1, 2), 0)
    assert text.startswith("Your opponent covered their 2 of spades on space 2 with a face-down jack or queen: ")
    assert "clubs" not in text
    mover_text = _told_through_views(hand.copy(), Play(C("QC"), 1, 2), 1)
    assert "with the queen of clubs, face down" in mover_text


def test_a_card_over_a_face_down_card() -> None:
    hand = _hand(("AH 2H 3H / . . . / 7H+QD* . .", ". . . / . . . / . . ."), ("7S", "5D"), 1)
    hand.apply(Discard(C("5D")))
    text = _told_through_views(hand, Play(C("7S"), 0, 7), 1)
    assert text.startswith("Your opponent played the 7 of spades on their space 7, over a face-down card:")
    hand.undo()
    assert "over your face-down queen of diamonds" in _told_through_views(hand, Play(C("7S"), 0, 7), 0)


def test_discard_go_out_and_end_turn() -> None:
    assert narrate(Discard(C("9C")), 1, 0, [EMPTY, EMPTY], [EMPTY, EMPTY], REVISED_2008).text == \
        "Your opponent discarded the 9 of clubs."
    square = Square.parse("AH 2H 3H / 4H . . / 7H 8H 9H")
    out = narrate(GoOut(), 0, 0, [square, EMPTY], [square, EMPTY], REVISED_2008)
    assert out.text == "You went out with your square worth 9: the hand is over."
    assert narrate(EndTurn(), 0, 0, [EMPTY, EMPTY], [EMPTY, EMPTY], REVISED_2008).text == "You ended the turn."


def test_keypad_layout_names_lines_by_its_labels() -> None:
    before = Square.parse("AH 2H . / . . . / . . .")
    after = before.with_card(C("3H"), 3)
    told = narrate(Play(C("3H"), 0, 3), 0, 0, [before, EMPTY], [after, EMPTY], ORIGINAL_1963)
    assert told.text == ("You played the 3 of hearts on your space 3: your row 1-2-3 now scores 2 points (one suit), "
                         "your square rises from 0 to 2.")


@pytest.mark.parametrize("key", sorted(RULE_SETS))
def test_random_hands_narration_agrees_with_the_engine(key: str) -> None:
    rules = RULE_SETS[key]
    rng = random.Random(7)
    for seed in range(3):
        hand = Hand.deal(rules, seed=seed)
        while not hand.is_over:
            move = rng.choice(hand.legal_moves())
            mover = hand.to_move
            before = [s.copy() for s in hand.squares]
            hand.apply(move)
            after = hand.squares
            told = narrate(move, mover, 0, before, after, rules)
            assert told.text and told.text.endswith(".")
            if isinstance(move, Play):
                owner = move.square_owner
                assert told.value_before == square_value(before[owner], rules)
                assert told.value_after == square_value(after[owner], rules)
                assert told.changes == line_changes(owner, before[owner], after[owner], rules)
                gained = sum(c.line.points - c.points_before for c in told.changes)
                assert gained == told.value_after - told.value_before
                for change in told.changes:
                    assert change.line.name in told.text


def test_every_phrase_lives_in_the_data_file_and_is_used() -> None:
    from pathlib import Path

    from leopard_tutor.engine import narration
    from leopard_tutor.engine.catalogue import book

    source = Path(narration.__file__).read_text(encoding="utf-8")
    for key in book("narration"):
        named = f'narration.{key}"' in source or f'narration.{key}.' in source or f'"{key}"' in source
        assert named or key.removeprefix("kind_") in ("suit", "color"), key
    assert '"You"' not in source and "square rises" not in source  # the words are data, not code


def test_one_narrator_puts_a_move_as_advice_report_or_undo() -> None:
    play, jack, queen = Play(C("7H"), 0, 7), Play(C("JC"), 0, 3), Play(C("QS"), 1, 3)
    assert move_words(play, "advice", 0) == "play the 7 of hearts on space 7 of your square"
    assert move_words(play, "undo", 0) == "the 7 of hearts on your space 7"
    assert move_words(Play(C("7H"), 1, 7), "undo", 0) == "the 7 of hearts on their space 7"
    # the other player's face-down cards are named only by what they can be
    assert move_words(jack, "report", 0) == "Your opponent lays a jack face down on space 3 of your square."
    assert move_words(queen, "report", 0) == ("Your opponent lays a jack or a queen face down on space 3 of "
                                              "their own square.")
    assert move_words(Play(C("9D"), 1, 9), "report", 0) == ("Your opponent plays the 9 of diamonds on space 9 "
                                                            "of their own square.")
    assert move_words(Discard(C("5C")), "report", 0) == "Your opponent discards the 5 of clubs."
    assert move_words(GoOut(), "advice", 1) == "go out"
    assert move_words(EndTurn(), "report", 1) == "Your opponent ends their turn."
    assert move_words(Discard(C("5C")), "undo", 0) == "the discard of the 5 of clubs"
