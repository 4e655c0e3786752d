"""Every prepared position (lessons, worked examples, practice questions) could arise in a real game
under its rules."""

from __future__ import annotations

from collections import Counter

import pytest

from leopard_tutor.engine import REVISED_2008, RULE_SETS, Card, Hand, RuleSet, Square
from leopard_tutor.engine.legality import pile_problem
from leopard_tutor.engine.reachable import why_unreachable
from leopard_tutor.examples import WORKED_EXAMPLES, WorkedExample
from leopard_tutor.lessons import LESSONS, BestPlayQuestion, Lesson, Practice


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_each_lesson_starts_from_a_reachable_position(lesson: Lesson) -> None:
    assert why_unreachable(lesson.start()) is None


def test_the_last_card_belongs_to_the_dealer() -> None:
    squares = (Square(), Square())
    king = [Card.parse("KH")]
    assert "dealer plays the last card" in str(why_unreachable(Hand(REVISED_2008, squares, (king, []), [], [], 0, 1)))
    assert why_unreachable(Hand(REVISED_2008, squares, (king, []), [], [], 0, 0)) is None
    both = Hand(REVISED_2008, squares, (king, [Card.parse("2C")]), [], [], 0, 1)
    assert why_unreachable(both) is None


def _card_count_problem(*squares: Square) -> str | None:
    """A card shown more often than two packs hold it, across these squares."""
    seen = Counter(face for square in squares for space in range(1, 10)
                   for face, _ in square.pile(space) if isinstance(face, Card))
    extra = sorted(str(card) for card, count in seen.items() if count > 2)
    return f"more than two of {extra}" if extra else None


@pytest.mark.parametrize("example", [*WORKED_EXAMPLES, *(e.mirrored for e in WORKED_EXAMPLES if e.mirrored)],
                         ids=lambda example: f"{example.key}-{example.rules.key}")
def test_each_worked_example_step_shows_a_square_a_game_could_build(example: WorkedExample) -> None:
    for number, step in enumerate(example.steps, start=1):
        assert pile_problem(step.square) is None, f"step {number}: {pile_problem(step.square)}"
        assert _card_count_problem(step.square) is None, f"step {number}"


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=lambda rules: rules.key)
def test_practice_questions_come_from_positions_a_game_could_reach(rules: RuleSet) -> None:
    practice = Practice(seed=11, rules=rules)
    for _ in range(150):
        question = practice.next()
        if isinstance(question, BestPlayQuestion):
            assert why_unreachable(question.hand) is None
        else:
            assert pile_problem(question.square) is None and _card_count_problem(question.square) is None


def test_the_checks_catch_an_impossible_square() -> None:
    assert pile_problem(Square.parse("9S . . / . . . / . . .")) is not None
    twice = Square.parse("5H+QS* . . / . . . / . 8C 9C")
    assert _card_count_problem(twice, Square.parse(". . . / . 5H . / . . .")) is None
    assert _card_count_problem(twice, Square.parse(". . . / . 5H . / . . ."), Square.parse(". . . / . 5H . / . . ."))
