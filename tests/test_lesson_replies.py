"""Every reply a lesson gives, to every legal move at every step, describes the move actually made (a move that
solves the stage is answered with what it did where the opponent answered it or the hand ended with it, the
opponent's replies to it, what the stage taught and the stars: nothing of another move of the learner's either).

The reply opens with the engine's own verdict on that move (which names the card and the place), then
the engine's narration of what the move did (what it covered, the lines formed or broken, the value
before and after); a card played off the stage's plan opens with the narration alone (the lesson's words then say
"That move is allowed, but...": the rule that allowed it was heard at the place tried), and so do a pass and a turn
ended (what they did says it); no verdict or narration of another move may appear in it, and every placeholder of
the lesson's own words is filled. The cases once found wrong are pinned down too.
"""

from __future__ import annotations

import pytest

from leopard_tutor.engine import Discard, EndTurn, Hand, Move, Play
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.narration import move_words, narrate
from leopard_tutor.lessons import LESSONS, Attempt, Feedback, Lesson

SCRIPTED = [lesson for lesson in LESSONS if not lesson.free]
REPLIES_IN_ALL = 475  # every legal move at every step of the scripted lessons


def attempt_at(lesson: Lesson, step: int) -> Attempt:
    attempt = lesson.new_attempt()
    for move in lesson.solution[:step]:
        assert attempt.try_move(move).ok
    return attempt


def replies(lesson: Lesson) -> list[tuple[int, Move, Feedback]]:
    found = []
    for step in range(len(lesson.solution)):
        for move in attempt_at(lesson, step).hand.legal_moves():
            found.append((step, move, attempt_at(lesson, step).try_move(move)))
    return found


def told(hand: Hand, move: Move) -> str:
    """The engine's narration of `move` made by the learner in `hand`, as the learner sees it."""
    after = hand.copy()
    after.apply(move)
    return narrate(move, 0, 0, hand.view(0).squares, after.view(0).squares, hand.rules,
                   went_out_value=after.value(0), passed=passes(hand, move)).text


def passes(hand: Hand, move: Move) -> bool:
    """Whether `move` ends a turn in which nothing was played: a pass."""
    return isinstance(move, EndTurn) and hand.plays_made == 0


@pytest.mark.parametrize("lesson", SCRIPTED, ids=lambda lesson: lesson.key)
def test_every_reply_describes_the_move_made(lesson: Lesson) -> None:
    for step, move, feedback in replies(lesson):
        said = feedback.text
        hand = attempt_at(lesson, step).hand
        verdict = hand.check(move)
        # a move's rule, said before what it did: without the card and the place, which what it did names
        own = text("lessons.feedback.allowed", rule=verdict.rule) if verdict.rule else verdict.reason
        narration = told(hand, move)
        if feedback.kind == "solved":  # what it did (where the other answered it, or it ended the hand), the
            after = hand.copy()  # opponent's replies, the stage's success and its stars only
            after.apply(move)
            assert own not in said, (move, said)
            assert said.startswith(narration) if feedback.replies or after.is_over else narration not in said, (
                move, said)
            reports = [move_words(answer, "report", 0) for answer in feedback.replies]
            assert all(report in said for report in reports), (move, said)  # (the other's last move is told)
            continue
        if ((feedback.kind == "off-track" and isinstance(move, (Play, Discard))) or passes(hand, move)
                or isinstance(move, EndTurn)):  # (a pass says it passed once; a turn ended, that it ended, not why)
            assert said.startswith(narration) and own not in said, (move, said)
        else:
            assert said.startswith(f"{own} {narration}"), (move, said)
        others = {hand.check(other).reason for other in hand.legal_moves()} - {own}  # (its own named: not said)
        others |= {told(hand, other) for other in hand.legal_moves() if other != move}
        assert not [other for other in others if other in said], (move, said)
        assert "{" not in said and "}" not in said, (move, said)
        if isinstance(move, Play):
            assert move.card.name in said and f"space {move.space}" in said
            assert "gave up" not in said and "you discarded" not in said.lower()
        if isinstance(move, Discard):
            assert move.card.name in said and "went down" not in said


def test_the_total_number_of_replies_checked() -> None:
    counts = {lesson.key: len(replies(lesson)) for lesson in SCRIPTED}
    print(f"lesson replies checked: {sum(counts.values())} {counts}")
    assert sum(counts.values()) == REPLIES_IN_ALL


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
