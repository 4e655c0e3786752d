"""Lessons that ask questions (FORMAT.md, "Questions"): the engine's answers from what the learner sees,
checked here against the whole hand independently; answering, slips, hints and stars; the loader's checks;
and the Learn section's buttons, marks and list of what is in sight."""

from __future__ import annotations

import json
from typing import Any

import pytest
from keyed import keys_in, mark, said
from test_lesson_advice import runs

from leopard_tutor.engine import REVISED_2008, Card, Hand, Square, full_deck, possible_values
from leopard_tutor.engine.knowledge import ANSWERS, can_be_worth, other_holds, top_card_is
from leopard_tutor.lessons import LESSONS, Lesson, LessonFormatError, Progress, lessons_in
from leopard_tutor.lessons.model import STAGES_DIR, parse_lesson
from leopard_tutor.lessons.questions import QuestionError, StageQuestion, answer_words
from leopard_tutor.table.lesson_table import LearnController
from leopard_tutor.widgets.learn import LearnSection

QUESTION_LESSONS = [lesson for lesson in LESSONS if lesson.questions]
RANKS = {"jack": 11, "queen": 12}
SUITS = {"hearts": "H", "diamonds": "D", "spades": "S", "clubs": "C"}


def expected(question: StageQuestion, hand: Hand) -> str:
    """The answer worked out from the whole hand (every card named) and the rules of who sees what."""
    if question.kind == "can a square be worth":
        return "yes" if question.value in possible_values(hand.rules) else "no"
    if question.kind == "do they hold":
        card = question.card
        assert card is not None
        seen = hand.held[0].count(card) + hand.discards.count(card)
        for owner, square in enumerate(hand.squares):
            for space in range(1, 10):
                for (face, face_up), by_other in zip(square.pile(space), square.laid_by_other(space)):
                    laid_by_learner = (owner == 0) != by_other
                    seen += face is card and (face_up or laid_by_learner)
        hidden_from_learner = [card.rank == 11 or not by_other  # a queen lies only on its owner's square
                               for owner, square in enumerate(hand.squares) for space in range(1, 10)
                               for (face, face_up), by_other in zip(square.pile(space), square.laid_by_other(space))
                               if not face_up and (owner == 0) == by_other]
        may_hide = card.rank in RANKS.values() and any(hidden_from_learner)
        return "no" if seen == 2 else "unknown" if hand.stock_size or may_hide else "yes"
    square = hand.squares[question.owner]
    face, face_up = square.top(question.space)  # type: ignore[misc]
    by_other = square.laid_by_other(question.space)[-1]
    fits = face.rank == RANKS[question.what] if question.what in RANKS else face.suit == SUITS[question.what]
    if face_up or (question.owner == 0) != by_other:
        return "yes" if fits else "no"
    if question.owner == 0 and question.what in RANKS:  # the opponent laid it on the learner's square: a jack
        return "yes" if question.what == "jack" else "no"
    return "unknown"


def solve(lesson: Lesson) -> list[str]:
    """Answer every question of `lesson` right; the replies in order."""
    attempt = lesson.new_attempt()
    said = []
    while attempt.question is not None:
        said.append(attempt.answer(expected(attempt.question, attempt.hand)).text)
    assert attempt.solved and attempt.stars == 3
    return said


def test_there_are_question_lessons_and_every_answer_kind_is_wanted() -> None:
    assert [lesson.key for lesson in QUESTION_LESSONS] == ["what-you-see", "values-and-bonus"]
    answers = {expected(q, lesson.start()) for lesson in QUESTION_LESSONS for q in lesson.questions}
    assert answers == set(ANSWERS)


@pytest.mark.parametrize("lesson", QUESTION_LESSONS, ids=lambda lesson: lesson.key)
def test_the_engines_answers_are_the_whole_hands(lesson: Lesson) -> None:
    hand = lesson.start()
    for question in lesson.questions:
        truth = question.truth(hand.view(0))
        assert truth.answer == expected(question, hand), question
        assert truth.reason and "{" not in truth.reason


@pytest.mark.parametrize("lesson", QUESTION_LESSONS, ids=lambda lesson: lesson.key)
def test_right_answers_are_explained_and_solve_the_lesson(lesson: Lesson, keyed: None) -> None:
    told = solve(lesson)
    assert len(told) == len(lesson.questions)
    assert all(keys_in(words)[0] == "lessons.questions.right" for words in told), "the last answer is explained too"
    assert said(told[0], "lessons.questions.asked", number=2) and said(told[-1], "lessons.feedback.stars", stars=3)
    assert "lessons.questions.asked" not in keys_in(told[-1])


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("lesson", QUESTION_LESSONS, ids=lambda lesson: lesson.key)
def test_the_last_answer_and_the_stages_success_say_nothing_twice(lesson: Lesson, lang: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The last answer's reason comes just before the stage's success: no run of five words is in both. (Stage 12's
    success began by saying again that the opponent cannot hold a card whose copies are both in sight.)"""
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", lang)
    lesson = next(each for each in lessons_in(lang) if each.key == lesson.key)
    attempt = lesson.new_attempt()
    while attempt.question is not None and attempt.answered < len(lesson.questions) - 1:
        attempt.answer(expected(attempt.question, attempt.hand))
    question = attempt.question
    assert question is not None
    reason = question.truth(attempt.view).reason
    told = attempt.answer(expected(question, attempt.hand)).text
    assert attempt.solved and reason in told
    success = told[told.index(reason) + len(reason):]
    assert not runs(reason) & runs(success), (reason, success)


def test_a_question_the_rules_settle_offers_no_cannot_tell_and_refuses_it_without_a_slip(keyed: None) -> None:
    """Stage 14 offered "You cannot tell" under questions the rules always answer: a button that only cost a slip."""
    for lesson in QUESTION_LESSONS:
        for question in lesson.questions:
            assert question.answers == (("yes", "no") if question.ground == "rules" else ANSWERS)
    lesson = next(lesson for lesson in QUESTION_LESSONS if lesson.questions[0].ground == "rules")
    attempt = lesson.new_attempt()
    with pytest.raises(QuestionError, match="yes, no, not 'unknown'"):
        attempt.answer("unknown")
    assert attempt.slips == 0 and attempt.answered == 0 and attempt.inputs == []
    section, controller = opened(lesson)
    ids = [button["id"] for button in section.board.state["actions"] if button["id"].startswith("answer_")]
    assert ids == ["answer_yes", "answer_no"]
    section.board.dispatch({"type": "action", "id": "answer_unknown"})  # a page that sends it anyway
    assert controller.attempt.slips == 0 and said(section.board.state["message"], "board.refused")
    while (question := controller.attempt.question) is not None:
        section.board.dispatch({"type": "action", "id": f"answer_{expected(question, controller.attempt.hand)}"})
    ids = [button["id"] for button in section.board.state["actions"] if button["id"].startswith("answer_")]
    assert ids == ["answer_yes", "answer_no"]  # greyed once the stage is solved, still the question's own two


def test_a_wrong_answer_is_a_slip_and_changes_nothing() -> None:
    lesson = QUESTION_LESSONS[0]
    attempt = lesson.new_attempt()
    question = attempt.question
    assert question is not None
    right = question.truth(attempt.view).answer
    wrong = next(answer for answer in ANSWERS if answer != right)
    feedback = attempt.answer(wrong)
    assert feedback.kind == "off-track" and not feedback.ok
    assert answer_words(wrong) in feedback.text and lesson.hints[0] in feedback.text
    assert attempt.question is question and attempt.slips == 1 and attempt.answered == 0
    assert attempt.answer(right).kind == "progress" and attempt.answered == 1


def test_a_move_in_a_question_lesson_is_not_taken_and_costs_nothing(keyed: None) -> None:
    attempt = QUESTION_LESSONS[0].new_attempt()
    before = attempt.hand
    move = before.legal_moves()[0]
    feedback = attempt.try_move(move)
    assert feedback.kind == "not-now" and feedback.text == mark("lessons.feedback.not_now")
    assert attempt.hand == before and attempt.slips == 0


def test_the_hint_ladder_of_a_question_has_the_nudge_then_the_answer(keyed: None) -> None:
    lesson = QUESTION_LESSONS[0]
    attempt = lesson.new_attempt()
    assert attempt.hint_rungs == 2
    first, second, again = attempt.hint(), attempt.hint(), attempt.hint()
    assert first.text == lesson.hints[0] and first.move is None
    truth = lesson.questions[0].truth(attempt.view)
    answered = mark("lessons.questions.answer", answer=answer_words(truth.answer))
    assert second.text == f"{answered} {truth.reason}" == again.text
    assert attempt.hints_used == 2
    attempt.answer(truth.answer)
    assert attempt.hint().text == lesson.hints[1] and attempt.hints_used == 3


def test_after_a_wrong_answer_which_says_the_nudge_hint_goes_on_to_the_answer(keyed: None) -> None:
    """A wrong answer already says the ladder's first rung: Hint does not say it again (and charge for it)."""
    lesson = QUESTION_LESSONS[0]
    attempt = lesson.new_attempt()
    truth = lesson.questions[0].truth(attempt.view)
    wrong = next(answer for answer in ("yes", "no", "unknown") if answer != truth.answer)
    assert lesson.hints[0] in attempt.answer(wrong).text
    rung = attempt.hint()
    assert rung.level == 2 and rung.text.startswith(mark("lessons.questions.answer", answer=answer_words(truth.answer)))
    assert attempt.hints_used == 1 and attempt.slips == 1


def test_the_engine_can_tell_a_card_is_held_when_no_other_place_is_left(keyed: None) -> None:
    """Stock empty, both squares without face-down cards: an unseen card is in the other hand."""
    mine = Square.parse("AH 2H 3H / . . . / . . .")
    theirs = Square.parse("AD! . . / . . . / . . .")
    rest = list(full_deck())
    for card in (*mine.cards(), *theirs.cards()):
        rest.remove(card)
    seven, other = Card.parse("7S"), Card.parse("7C")
    rest.remove(seven)
    rest.remove(other)
    hand = Hand(REVISED_2008, (mine, theirs), ([other], [seven]), [], rest, 0, 1)
    view = hand.view(0)
    knowing = other_holds(view, seven)
    assert knowing.answer == "yes" and said(knowing.reason, "knowledge.holds.must", the_card=seven.the_name)
    assert other_holds(view, other).answer == "no"
    knowing = other_holds(view, Card.parse("AH"))
    assert knowing.answer == "no" and said(knowing.reason, "knowledge.holds.all_seen",
                                               the_card=Card.parse("AH").the_name)
    assert said(knowing.reason, "knowledge.places.top", space=1, whose=mark("knowledge.whose.your"))
    assert top_card_is(view, 0, 1, "hearts").answer == "yes"
    with pytest.raises(Exception, match="empty"):
        top_card_is(view, 0, 5, "jack")


def test_can_be_worth_follows_the_possible_values() -> None:
    for value in range(30):
        assert (can_be_worth(REVISED_2008, value).answer == "yes") == (value in possible_values(REVISED_2008))
    assert "24" in can_be_worth(REVISED_2008, 25).reason


def _with(**changes: object) -> str:
    data = json.loads((STAGES_DIR / "12_what_you_see.json").read_text(encoding="utf-8"))
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(("changes", "message"), [
    ({"questions": [{"is it": "jack", "on": "your 6"}]}, "empty"),
    ({"questions": [{"is it": "king", "on": "your 5"}]}, "'is it' asks for one of"),
    ({"questions": [{"is it": "jack", "on": "5"}]}, "one square"),
    ({"questions": [{"do they hold": "7X"}]}, "7X"),
    ({"questions": [{"can a square be worth": -1}]}, "whole number"),
    ({"questions": [{"what": "now"}]}, "a question is"),
    ({"solution": ["discard 6H"]}, "has no 'solution'"),
    ({"goals": [{"answered": True}, {"went out": True}]}, "the one goal"),
    ({"questions": []}, "needs a 'solution'"),
])
def test_a_broken_question_lesson_stops_the_import(changes: dict[str, object], message: str) -> None:
    with pytest.raises(LessonFormatError, match=message):
        parse_lesson(_with(**changes))


def test_the_answered_goal_needs_questions() -> None:
    data = json.loads((STAGES_DIR / "05_kings.json").read_text(encoding="utf-8"))
    data["goals"] = [{"answered": True}]
    with pytest.raises(LessonFormatError, match="needs 'questions'"):
        parse_lesson(json.dumps(data))


# -- the Learn section -------------------------------------------------------------------------
def opened(lesson: Lesson) -> tuple[LearnSection, LearnController]:
    progress = Progress()
    controller = LearnController(progress=progress)
    section = LearnSection(controller)
    progress.open_through(lesson.key)
    section.board.act(lambda: controller.open(LESSONS.index(lesson)))
    return section, controller


def panel(state: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(panel for panel in state["aside"] if panel["kind"] == kind)


def test_the_learn_section_asks_marks_lists_and_takes_answers_by_clicks(keyed: None) -> None:
    lesson = QUESTION_LESSONS[0]
    section, controller = opened(lesson)
    board = section.board
    state = board.state
    ids = [button["id"] for button in state["actions"]]
    assert {"answer_yes", "answer_no", "answer_unknown"} <= set(ids) and "go_out" not in ids
    assert "end_turn" not in ids
    first = lesson.questions[0]
    goal = panel(state, "goal")
    assert goal["items"][-1] == mark("lessons.questions.asked", number=1, count=len(lesson.questions),
                                     prompt=first.prompt())
    assert goal["class"] == "lt-goal-asks"  # (a phone held sideways shows the question over the table)
    square = next(sq for sq in state["squares"] if sq["key"] == first.owner)
    assert [cell["space"] for cell in square["cells"] if cell["last"]] == [first.space]
    seen = panel(state, "list")
    hand = lesson.start()
    assert any(all(card.name in item for card in hand.discards) for item in seen["items"])
    assert any(said(item, "sections.learn.in_sight.pile", cards=mark(
        "words.and_list", first=Card.parse("KS").name, last=Card.parse("7H").name)) for item in seen["items"])
    assert board.state["message"] == " ".join((mark("sections.learn.opened", stage=lesson.stage, title=lesson.title),
                                               mark("sections.learn.start_questions")))
    assert [panel["kind"] for panel in state["aside"]] == ["goal", "list", "text"]
    board.dispatch({"type": "action", "id": "hint"})
    assert board.state["message"] == mark("sections.learn.hint", level=1, count=2, text=lesson.hints[0])
    while (question := controller.attempt.question) is not None:
        board.dispatch({"type": "action", "id": f"answer_{expected(question, controller.attempt.hand)}"})
        assert board.state["error"] == ""
    assert controller.attempt.solved and said(board.state["message"], "lessons.feedback.stars", stars=2)
    assert said(board.state["message"], "lessons.feedback.stars_cost", cost=1, three=lesson.stars_for[0]), \
        "below three stars, what cost them: here the one hint"
    assert controller.progress.stars[lesson.key] == 2
    assert panel(board.state, "goal")["class"] == "", "no question asked: the goal's words over the table again"
    assert not any(button["enabled"] for button in board.state["actions"] if button["id"].startswith("answer_"))


def test_the_stage_of_values_shows_the_square_its_lesson_begins_with() -> None:
    """Stage 14 asks from the rules alone, and showed a deal that had nothing to do with its questions: its board is
    the square its lesson's first sentence describes, every line of one suit, worth the most any square can be."""
    lesson = next(lesson for lesson in QUESTION_LESSONS if lesson.key == "values-and-bonus")
    hand = lesson.start()
    assert {card.suit for space in range(1, 10) for card, _ in hand.squares[0].pile(space)} == {"S"}
    assert hand.value(0) == max(possible_values(hand.rules))
