"""Hints: a legal move, a reason in words, and a four-step ladder whose facts agree with the engine."""

from __future__ import annotations

import re

import pytest
from positions import c, prepared, random_hand

from leopard_tutor.ai import AIError, Hint, hint
from leopard_tutor.ai.hints import explain
from leopard_tutor.engine import (
    REVISED_2008,
    RULE_SETS,
    Discard,
    EndTurn,
    GoOut,
    Play,
    RuleSet,
    hand_score,
)


def test_king_hint_from_example_c3_names_card_space_and_values() -> None:
    hand = prepared("AS . 3C / 4S 5C . / 7H 8S 9S", ". . . / . . . / . . .", "KS 2D 6H 9H 4D 8H 3H 10D", "5D")
    view = hand.view(0)
    result = explain(view, Play(c("KS"), 0, 7))
    assert isinstance(result, Hint) and len(result.ladder) == 4
    nudge, card, space, move = result.ladder
    assert "row 7-8-9" in nudge and "3 points" in nudge
    assert "king of spades" in card and "K♠" in card
    assert "space 7 of your own square" in space
    assert "your square goes from 1 to 8" in move and "your opponent's stays at 0" in move
    assert "row 7-8-9 score 3" in move and "column 1-4-7 score 3" in move
    assert re.search(r"Up to \d+ jacks", move)
    assert "row 7-8-9" in result.reason


def test_jack_hint_from_example_c4_says_what_it_breaks_and_what_could_mend_it() -> None:
    hand = prepared("4S . . / . . . / . . .", "AH 2H 3H / . . 6H / . . 9H", "JC 2S 6C 8D 4D 5C 7S 8S", "5D 7D")
    result = hint(hand.view(0), level="intermediate")
    assert result.move == Play(c("JC"), 1, 3)
    nudge, card, space, move = result.ladder
    assert "Their" in nudge and "scores 3 points" in nudge
    assert "jack of clubs" in card
    assert "space 3 of your opponent's square" in space
    assert "your opponent's goes from 6 to 0" in move
    assert "row 1-2-3" in move and "column 3-6-9" in move
    assert "mend this on space 3" in move and "a 3, a 10 or a king of the right suit or colour" in move
    assert "6 points" in result.reason


def test_going_out_hint_gives_both_scores() -> None:
    hand = prepared("AS 2S 3S / 4S 5S 6S / 7H 8D 9D", "AD 2D . / 4D 5D . / . . .", "2C 6C 8H 9S 10C 3C 4C 5C",
                    "JD JH", stock_size=60)
    result = explain(hand.view(0), GoOut())
    mine, theirs = hand_score(7, True, REVISED_2008), hand_score(0, False, REVISED_2008)
    assert f"you score {mine}" in result.reason and f"they score {theirs}" in result.reason
    assert "worth 7" in result.ladder[0]
    assert f"score {mine}" in result.ladder[3] and "jack" in result.ladder[3]


def test_discard_and_end_turn_hints() -> None:
    hand = prepared("AS 2S 3S / 4S 5S 6S / 7H 8D 9D", "AD 2D 3D / 4D 5D 6D / 7D 8D 9D", "2C", "JD JH")
    discard = explain(hand.view(0), Discard(c("2C")))
    assert "2 of clubs" in discard.ladder[1] and "discard pile" in discard.ladder[2]
    assert "yours stays at 7" in discard.ladder[3]
    empty = prepared(". . . / . . . / . . .", "AH . . / . . . / . . .", "", "5S", stock_size=0)
    end = explain(empty.view(0), EndTurn())
    assert len(end.ladder) == 4 and end.move == EndTurn()


def test_explaining_an_illegal_move_or_a_bad_view_is_refused() -> None:
    hand = prepared(". . . / . . . / . . .", ". . . / . . . / . . .", "5S 6S", "5D")
    with pytest.raises(AIError, match="not a legal move"):
        explain(hand.view(0), Play(c("5S"), 0, 6))
    with pytest.raises(AIError, match="PlayerView"):
        hint(hand)  # type: ignore[arg-type]
    with pytest.raises(AIError, match="not waiting"):
        hint(hand.view(1), level="beginner")


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_hints_in_random_positions_agree_with_the_engine(rules: RuleSet) -> None:
    for seed in range(25):
        hand = random_hand(rules, seed, most_moves=90)
        me = hand.to_move
        view = hand.view(me)
        level = ("beginner", "intermediate", "expert")[seed % 3]
        result = hint(view, level=level, time_budget=0.05)
        assert result.move in view.legal_moves()
        assert len(result.ladder) == 4 and all(isinstance(step, str) and step for step in result.ladder)
        assert result.reason and result.reason[-1] == "."
        before = (hand.value(me), hand.value(1 - me))
        hand.apply(result.move)
        after = (hand.value(me), hand.value(1 - me))
        hand.undo()
        move = result.move
        if isinstance(move, Play):
            assert move.card.name in result.ladder[1]
            whose = "your own" if move.square_owner == me else "your opponent's"
            assert f"space {move.space} of {whose} square" in result.ladder[2]
            mine = (f"your square goes from {before[0]} to {after[0]}" if before[0] != after[0]
                    else f"your square stays at {before[0]}")
            theirs = (f"your opponent's goes from {before[1]} to {after[1]}" if before[1] != after[1]
                      else f"your opponent's stays at {before[1]}")
            assert mine in result.ladder[3] and theirs in result.ladder[3]
        elif isinstance(move, Discard):
            assert move.card.name in result.ladder[1]
            assert f"yours stays at {before[0]}" in result.ladder[3]


def test_jack_on_a_card_that_scores_nothing_yet_says_which_card_it_hides() -> None:
    hand = prepared("4S . . / . . . / . . .", ". . . / 4D 5D . / . . .", "JC 2S 6C 8D 4D 5C 7S 8S", "5S 7D")
    result = explain(hand.view(0), Play(c("JC"), 1, 5))
    assert "5 of diamonds" in result.reason and "row 4-5-6" in result.ladder[0]
    assert "5 of diamonds" in result.ladder[0]
    assert "your opponent's stays at 0" in result.ladder[3]


def test_hints_say_when_a_play_threatens_or_stops_going_out() -> None:
    hand = prepared("AH 2H . / 4C 5C 6C / 7S 8S 9S", "AD 2D 3D / 4D 5D 6D / 7H . .", "3H JC 9C 2S 6D 7C 8C 8D",
                    "4S 5D")
    view = hand.view(0)
    reach = explain(view, Play(c("3H"), 0, 3))
    assert "from 6 to 9" in reach.ladder[3] and "you may go out" in reach.ladder[3]
    stop = explain(view, Play(c("JC"), 1, 5))
    assert hand.value(1) == 8
    assert "from 8 to 4" in stop.ladder[3] and "cannot end the hand" in stop.ladder[3]


def test_one_ladder_serves_play_and_the_lessons() -> None:
    from leopard_tutor.ai import make_player
    from leopard_tutor.ai.hints import HintLadder
    from leopard_tutor.lessons import LESSONS
    from leopard_tutor.table import against_computer

    calls: list[int] = []

    def source() -> tuple[Discard, list[str]]:
        calls.append(1)
        return Discard(c("2C")), ["think", "the card", "the place", "the move"]

    ladder = HintLadder(source)
    climbed = [ladder.climb("position A") for _ in range(5)]
    assert [(rung.level, rung.name, new) for rung, new in climbed] == [
        (1, "nudge", True), (2, "card", True), (3, "space", True), (4, "move", True), (4, "move", False)]
    assert climbed[0][0].move is None and climbed[1][0].move == Discard(c("2C"))
    assert ladder.climb("position B")[0].level == 1 and len(calls) == 2
    attempt = LESSONS[0].new_attempt()
    assert isinstance(attempt._ladder, HintLadder)
    assert isinstance(against_computer(make_player("beginner", seed=1), seed=1)._ladder, HintLadder)
