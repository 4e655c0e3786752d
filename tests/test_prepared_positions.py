"""Every prepared position of the lessons could arise in a real game under its rules."""

from __future__ import annotations

import pytest

from leopard_tutor.engine import REVISED_2008, Card, Hand, Square
from leopard_tutor.engine.reachable import why_unreachable
from leopard_tutor.lessons import LESSONS, Lesson


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
