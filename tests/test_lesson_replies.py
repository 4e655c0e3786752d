"""Every reply a lesson gives, to every legal move at every step, describes the move actually made.

The reply opens with the engine's own verdict on that move (which names the card and the place), and no
sentence written for another move may appear in it. The cases once found wrong are pinned down too.
"""

from __future__ import annotations

import pytest

from leopard_tutor.engine import Discard, Move, Play
from leopard_tutor.lessons import LESSONS, Attempt, Lesson

SCRIPTED = [lesson for lesson in LESSONS if not lesson.free]


def attempt_at(lesson: Lesson, step: int) -> Attempt:
    attempt = lesson.new_attempt()
    for move in lesson.solution[:step]:
        assert attempt.try_move(move).ok
    return attempt


def replies(lesson: Lesson) -> list[tuple[int, Move, str]]:
    found = []
    for step in range(len(lesson.solution)):
        for move in attempt_at(lesson, step).hand.legal_moves():
            found.append((step, move, attempt_at(lesson, step).try_move(move).text))
    return found


@pytest.mark.parametrize("lesson", SCRIPTED, ids=lambda lesson: lesson.key)
def test_every_reply_describes_the_move_made(lesson: Lesson) -> None:
    for step, move, said in replies(lesson):
        attempt = attempt_at(lesson, step)
        own = attempt.hand.check(move).reason
        assert said.startswith(own), (move, said)
        others = {attempt.hand.check(other).reason for other in attempt.hand.legal_moves()} - {own}
        assert not [other for other in others if other in said], (move, said)
        if isinstance(move, Play):
            assert move.card.name in said and f"space {move.space} of" in said
            assert "gave up" not in said and "you discarded" not in said.lower()
        if isinstance(move, Discard):
            assert move.card.name in said and "went down" not in said


def test_the_total_number_of_replies_checked() -> None:
    assert sum(len(replies(lesson)) for lesson in SCRIPTED) >= 100


def reply(stage: int, step: int, move: Move | str) -> str:
    lesson = next(lesson for lesson in LESSONS if lesson.stage == stage)
    return attempt_at(lesson, step).try_move(move).text


def test_the_lesson_texts_found_wrong_are_true_now() -> None:
    """Issue 8, cases 5 to 8."""
    two = next(lesson for lesson in LESSONS if lesson.stage == 2)
    assert "unless they spend a king" not in two.success and "queen" in two.success
    assert "Only a jack may be laid" not in reply(6, 0, "play QS on their 3")
    assert "moment to go out" not in reply(9, 0, "discard 6C")
    assert "The king went down" not in reply(5, 0, "play 7S on their 7")
    seven = next(lesson for lesson in LESSONS if lesson.stage == 7)
    for move in attempt_at(seven, 1).hand.legal_moves():
        assert "does not clear the way" not in reply(7, 1, move)
    eight = next(lesson for lesson in LESSONS if lesson.stage == 8)
    for move in attempt_at(eight, 0).hand.legal_moves():
        if isinstance(move, Play):
            assert "gave up a card" not in reply(8, 0, move)
