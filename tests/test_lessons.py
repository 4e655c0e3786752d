"""The staged lessons: every solution completes its lesson, wrong tries are answered by the engine's
reason and change nothing, the hint ladder walks to the move, stars fall with slips and hints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from keyed import keys_in, mark, said

from leopard_tutor.engine import Card, Discard, GoOut, Play
from leopard_tutor.engine.catalogue import text
from leopard_tutor.lessons import (
    LESSONS,
    Attempt,
    LessonFormatError,
    MoveTextError,
    load_lessons,
    move_text,
    parse_move,
)
from leopard_tutor.lessons.model import STAGES_DIR
from leopard_tutor.lessons.questions import ANSWERS, answer_words

ISSUE_STAGES = ["the-square", "aces-to-nines", "lines", "tens", "kings", "jacks", "queens", "discarding",
                "going-out", "scoring", "stock-runs-out", "what-you-see", "running-leopard", "values-and-bonus",
                "full-hand"]
MOVE_LESSONS = [lesson for lesson in LESSONS if not lesson.questions]
"""The lessons whose task is made of moves (the others ask questions: test_lesson_questions.py)."""


def test_the_stages_of_the_issues_in_order() -> None:
    assert [lesson.key for lesson in LESSONS] == ISSUE_STAGES
    assert [lesson.stage for lesson in LESSONS] == list(range(1, len(ISSUE_STAGES) + 1))
    for lesson in LESSONS:
        assert lesson.title and lesson.goal and lesson.intro and lesson.success


@pytest.mark.parametrize("lesson", MOVE_LESSONS, ids=lambda lesson: lesson.key)
def test_solution_completes_the_lesson_with_three_stars(lesson) -> None:
    attempt = lesson.new_attempt()
    assert not attempt.solved and attempt.stars == 0
    assert lesson.solution, "every lesson has a solution"
    for number, move in enumerate(lesson.solution, start=1):
        assert not attempt.solved
        feedback = attempt.try_move(move)
        assert feedback.ok, feedback.text
        assert feedback.kind == ("solved" if number == len(lesson.solution) else "progress")
    assert attempt.solved and attempt.finished
    assert attempt.stars == 3
    assert "3 stars" in feedback.text
    assert all(goal.met(attempt.hand) for goal in lesson.goals)


@pytest.mark.parametrize("lesson", MOVE_LESSONS, ids=lambda lesson: lesson.key)
def test_an_illegal_try_gets_the_engine_reason_and_changes_nothing(lesson) -> None:
    attempt = lesson.new_attempt()
    before = attempt.hand
    card = before.held[0][0]
    illegal = next(Play(card, owner, space) for owner in (0, 1) for space in range(1, 10)
                   if not before.check(Play(card, owner, space)))
    reason = before.check(illegal).reason
    feedback = attempt.try_move(illegal)
    assert not feedback.ok and feedback.kind == "illegal"
    assert feedback.text.startswith(reason)
    assert attempt.hand == before
    assert attempt.slips == 1 and not attempt.solved


@pytest.mark.parametrize("lesson", [lesson for lesson in MOVE_LESSONS if not lesson.free],
                         ids=lambda lesson: lesson.key)
def test_a_legal_move_off_the_script_is_explained_and_taken_back(lesson) -> None:
    attempt = lesson.new_attempt()
    before = attempt.hand
    wrong = [m for m in before.legal_moves() if m != lesson.solution[0]]
    for move in wrong:
        trial = before.copy()
        trial.apply(move)
        if not all(goal.met(trial) for goal in lesson.goals):
            break
    else:
        pytest.fail("no legal move misses the goal")
    feedback = attempt.try_move(move)
    assert not feedback.ok and feedback.kind == "off-track"
    verdict = before.check(move)  # a card's rule is heard at the place tried: what was played comes first
    reason = verdict.reason
    rule = text("lessons.feedback.allowed", rule=verdict.rule) if verdict.rule else reason  # (going out's, unnamed)
    assert (reason not in feedback.text) if isinstance(move, (Play, Discard)) else feedback.text.startswith(rule)
    assert "taken back" in feedback.text
    assert attempt.hand == before and attempt.slips == 1
    assert attempt.try_move(lesson.solution[0]).ok


def test_the_off_track_words_speak_of_what_is_left_of_the_plan() -> None:
    """Stage 13: the queen, the 7 and the 6 laid and the turn ended, a pass where the plan's last step is to go out
    is answered with that step's words (it was the plan's first step, all made already); each step of a lesson with
    a text per step has its own."""
    lesson = next(lesson for lesson in LESSONS if lesson.key == "running-leopard")
    assert len(lesson.off_track) == len(lesson.solution)
    def at(step: int) -> Attempt:
        attempt = lesson.new_attempt()
        for move in lesson.solution[:step]:
            assert attempt.try_move(move).ok
        return attempt

    for step in range(len(lesson.solution)):
        for move in at(step).hand.legal_moves():
            feedback = at(step).try_move(move)
            if feedback.kind != "off-track":  # the script's move, or a later play of its turn made sooner
                continue
            assert lesson.off_track[step] in feedback.text, (step, move)
            assert not [words for other, words in enumerate(lesson.off_track)
                        if other != step and words in feedback.text], (step, move)
    attempt = lesson.new_attempt()
    for move in lesson.solution[:4]:
        assert attempt.try_move(move).ok
    passed = attempt.try_move("end turn")
    assert lesson.off_track[4] in passed.text and lesson.off_track[0] not in passed.text
    for lesson in LESSONS:  # a text per step, or one for every step
        assert len(lesson.off_track) in (0, 1, len(lesson.solution)), lesson.key


def test_a_wrong_try_says_its_opponents_answer_is_taken_back_too(keyed: None) -> None:
    """A wrong try whose mistake shows the opponent's answer ends saying that both moves were taken back (it had
    said only the learner's, after telling the answer as made); one shown without an answer tells no move of the
    opponent's and says the learner's move was taken back."""
    lesson = next(lesson for lesson in LESSONS if lesson.key == "going-out")
    attempt = lesson.new_attempt()
    assert attempt.try_move("play AH on your 1").ok
    shown = attempt.try_move("discard KC")
    assert shown.kind == "off-track" and said(shown.text, "narration.moves.report.play_hidden")
    still = " ".join(attempt.goal_status())  # (the goals, of the position shown once both are taken back)
    assert shown.text.endswith(f"{mark('lessons.feedback.both_taken_back')} {still}")
    assert not said(shown.text, "lessons.feedback.taken_back")
    plain = attempt.try_move("discard 8S")
    assert plain.kind == "off-track"
    assert not [key for key in keys_in(plain.text) if key.startswith("narration.moves.report.")]
    assert plain.text.endswith(f"{mark('lessons.feedback.taken_back')} {still}")


@pytest.mark.parametrize("lesson", [lesson for lesson in MOVE_LESSONS if not lesson.free],
                         ids=lambda lesson: lesson.key)
def test_what_the_goals_still_need_is_said_of_the_position_shown_after_a_try_is_taken_back(
        lesson, keyed: None) -> None:
    """Stage 6: a jack on their space 2, off the script, was answered "Your opponent's square is worth 3 ... The move
    has been taken back", the board showing it worth 6 again. What the goals still need is said after the words that
    take the move back, of the position then on the board, and never of the one taken back."""
    for step in range(len(lesson.solution)):
        for move in at_step(lesson, step).hand.legal_moves():
            attempt = at_step(lesson, step)
            undone = attempt.hand.copy()
            undone.apply(move)
            feedback = attempt.try_move(move)
            if feedback.kind != "off-track":
                continue
            shown = [goal.status(attempt.hand, named=attempt._names(goal)) for goal in lesson.goals
                     if not goal.met(attempt.hand)]
            back = mark("lessons.feedback.both_taken_back" if said(feedback.text, "lessons.feedback.both_taken_back")
                        else "lessons.feedback.taken_back")
            assert feedback.text.endswith(" ".join([back, *shown])), (step, move)
            gone = [goal.status(undone, named=attempt._names(goal)) for goal in lesson.goals if not goal.met(undone)]
            assert not [words for words in gone if words not in shown and words in feedback.text], (step, move)


def at_step(lesson, step: int) -> Attempt:
    """A new attempt of `lesson` with the solution's first `step` moves made."""
    attempt = lesson.new_attempt()
    for move in lesson.solution[:step]:
        assert attempt.try_move(move).ok
    return attempt


def test_scripted_reply_and_draw_are_told(keyed: None) -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.key == "queens")
    attempt = lesson.new_attempt()
    feedback = attempt.try_move("play QD on your 7")
    assert feedback.kind == "progress" and feedback.replies == (Discard(Card.parse("2C")),)
    assert said(feedback.text, "narration.moves.report.discard", card=Card.parse("2C").the_name)
    assert said(feedback.text, "lessons.feedback.drew", the_card=Card.parse("6D").the_name)
    assert attempt.view.hand == tuple(Card.parse(c) for c in ("7S", "2H", "6D", "10H", "JH", "4C", "8D", "5H", "6D"))


def test_going_out_too_early_is_refused_by_the_engine_and_the_mistake_shows_the_jack(keyed: None) -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.key == "going-out")
    attempt = lesson.new_attempt()
    feedback = attempt.try_move(GoOut())
    assert feedback.kind == "illegal" and feedback.verdict is not None and feedback.verdict.code == "out-value"
    assert said(feedback.text, "engine.turn.out_value", threshold=7, value=3)
    assert attempt.try_move("play AH on your 1").ok
    feedback = attempt.try_move("discard 6C")
    assert feedback.kind == "off-track"
    assert said(feedback.text, "narration.moves.report.play_hidden", space=1,
                card=mark("narration.moves.some_rank", rank=mark("words.rank.11")),
                where_told=mark("narration.moves.square_told.viewer"))
    # the lesson's own words for this mistake (lesson data, not the catalogue)
    assert "Now your square is worth 3, and going out needs at least 7." in feedback.text
    assert attempt.hand.value(0) == 9
    assert attempt.try_move("go out").kind == "solved"
    assert attempt.stars == 2


def test_hint_ladder_walks_from_nudge_to_the_move_and_costs_stars(keyed: None) -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.key == "kings")
    attempt = lesson.new_attempt()
    hints = [attempt.hint() for _ in range(5)]
    assert [h.level for h in hints] == [1, 2, 3, 4, 4]
    assert hints[0].text == lesson.hints[0]
    facts = {"card": Card.parse("KS").name, "the_card": Card.parse("KS").the_name, "space": 7,
             "where": mark("lessons.goals.where.your")}
    assert [hint.text for hint in hints[1:4]] == [mark(f"lessons.hints.play.{rung}", **facts)
                                                  for rung in ("card", "space", "move")]
    assert hints[3].move == Play(Card.parse("KS"), 0, 7)
    assert attempt.hints_used == 4
    assert attempt.try_move(hints[3].move).kind == "solved"
    assert attempt.stars == 1


@pytest.mark.parametrize(("slips", "stars"), [(0, 3), (1, 2), (2, 2), (3, 1), (6, 1)])
def test_stars_by_slips(slips: int, stars: int) -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.key == "jacks")
    attempt = lesson.new_attempt()
    for _ in range(slips):
        assert attempt.try_move("play JC on their 5").kind == "illegal"
    assert attempt.try_move("play JC on their 3").kind == "solved"
    assert attempt.stars == stars


def test_following_every_hint_solves_each_lesson(keyed: None) -> None:
    for lesson in LESSONS:
        attempt = lesson.new_attempt()
        while not attempt.finished:
            for _ in range(attempt.hint_rungs):
                hint = attempt.hint()
            if attempt.question is not None:
                answer = next(a for a in ANSWERS if said(hint.text, "lessons.questions.answer", answer=answer_words(a)))
                attempt.answer(answer)
                continue
            assert hint.move is not None
            attempt.try_move(hint.move)
        assert attempt.solved, lesson.key


def test_free_lesson_keeps_any_legal_move_and_the_computer_answers() -> None:
    lesson = LESSONS[-1]
    attempt = lesson.new_attempt()
    hand = attempt.hand
    move = next(m for m in hand.legal_moves() if isinstance(m, Discard))
    feedback = attempt.try_move(move)
    assert feedback.kind == "progress" and feedback.ok
    assert len(feedback.replies) == 1
    assert attempt.hand.moves[0] == move and attempt.hand.to_move == 0


def test_targets_are_the_engines_legal_plays() -> None:
    attempt = LESSONS[1].new_attempt()
    assert [(m.square_owner, m.space) for m in attempt.targets("7S")] == [(1, 7)]
    assert attempt.targets("4C") == []
    assert [(m.square_owner, m.space) for m in attempt.targets("9H")] == [(0, 9)]


def test_finished_attempt_refuses_more_moves_and_hints_cost_nothing() -> None:
    attempt = LESSONS[0].new_attempt()
    attempt.try_move("play 6D on your 6")
    assert attempt.try_move("play 3S on your 3").kind == "finished"
    assert attempt.hint().move is None and attempt.hints_used == 0 and attempt.stars == 3


@pytest.mark.parametrize("text", ["play 7H on your 7", "play JC on their 3", "discard 5D", "go out", "end turn",
                                  "play 10C on your 5"])
def test_move_notation_round_trips(text: str) -> None:
    assert move_text(parse_move(text)) == text


@pytest.mark.parametrize("text", ["play 7H on my 7", "play 7H on your 0", "throw 5D", "discard 5X", ""])
def test_bad_move_notation_is_a_clear_error(text: str) -> None:
    with pytest.raises(MoveTextError, match="is not a move"):
        parse_move(text)


def _copy_stages(tmp_path: Path) -> Path:
    for path in STAGES_DIR.glob("*.json"):
        (tmp_path / path.name).write_text(path.read_text())
    return tmp_path


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.pop("goal"), "missing"),
    (lambda d: d.update(colour="red"), "unknown entries"),
    (lambda d: d.update(goals=[{"your value at most": 3}]), "unknown goal"),
    (lambda d: d.update(solution=["play KS on yours 7"]), "is not a move"),
    (lambda d: d["position"].update({"your square": "AS . ."}), "not a square"),
    (lambda d: d["position"].update({"your hand": ["KS", "KS", "KS"]}), "appear more often"),
    (lambda d: d.update(stage=7), "stages must be numbered"),
    (lambda d: d["hints"].append("A second nudge for a stage of one move."), "would never be said"),
])
def test_a_broken_lesson_file_is_named_in_the_error(tmp_path: Path, change, message: str) -> None:
    directory = _copy_stages(tmp_path)
    path = directory / "05_kings.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(LessonFormatError, match=message) as error:
        load_lessons(directory)
    if message != "stages must be numbered":
        assert "05_kings.json" in str(error.value)


def test_a_new_lesson_file_is_picked_up(tmp_path: Path) -> None:
    directory = _copy_stages(tmp_path)
    data = json.loads((directory / "04_tens.json").read_text())
    data.update(stage=len(LESSONS) + 1, key="tens-again")
    (directory / "99_tens_again.json").write_text(json.dumps(data))
    lessons = load_lessons(directory)
    assert lessons[-1].key == "tens-again"
    attempt = lessons[-1].new_attempt()
    assert attempt.try_move(lessons[-1].solution[0]).kind == "solved"


def test_package_docstring_example_runs() -> None:
    import doctest

    import leopard_tutor.lessons
    assert doctest.testmod(leopard_tutor.lessons).failed == 0


def test_a_goal_for_a_card_says_where_the_card_is_until_it_is_met() -> None:
    """Where the stage's goal names the card; where finding the card is the puzzle (stage 8: "the card that cannot be
    played anywhere"), the card is not named before the goal is met (it was, under the goal, from the start). In the
    words the learner reads: whether the goal names the card is a matter of its words."""
    from leopard_tutor.engine.catalogue import text
    checked, secret = 0, 0
    for lesson in LESSONS:
        attempt = lesson.new_attempt()
        held = attempt.hand.held[0]
        for goal, status in zip(lesson.goals, attempt.goal_status(), strict=True):
            if goal.kind in ("played", "discarded"):
                assert goal.card is not None
                if goal.card.name in lesson.goal:
                    told_held = status == text(f"lessons.goals.{goal.kind}.held", The_card=goal.card.the_name_first)
                    assert told_held == (goal.card in held), status
                    checked += 1
                else:
                    assert status == text(f"lessons.goals.{goal.kind}.secret") and goal.card.name not in status
                    secret += 1
        for move in lesson.solution:
            attempt.try_move(move)
        for goal, status in zip(lesson.goals, attempt.goal_status(), strict=True):  # solved: where the card is
            if goal.kind in ("played", "discarded"):
                assert goal.card is not None and goal.card.name in status, status
    assert checked and secret


def test_the_lesson_keys_read_without_loading_are_the_lessons_keys() -> None:
    """A learner's progress (on the app's first board) reads only the keys; they are the loaded lessons' own."""
    from leopard_tutor.lessons import LESSONS, Progress, lesson_keys

    assert lesson_keys() == Progress().keys == tuple(lesson.key for lesson in LESSONS)


def test_importing_the_app_and_its_progress_loads_no_lesson() -> None:
    """Loading and checking the fifteen lessons costs the site's first board some 0.2 s: only Learn needs them."""
    import subprocess
    import sys

    code = ("import leopard_tutor.app, leopard_tutor.lessons as lessons; lessons.kernel_progress(); "
            "print('LESSONS' in vars(lessons))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_a_turn_played_in_another_order_is_not_told_the_scripts_plan(keyed: None) -> None:
    """Stage 13 with its 6 of hearts played before the 7 of hearts: the end of the turn after the queen is taken back
    with the words for any stage, where the lesson's words for that step still asked for the 6 of hearts, already
    played. (In the script's order, its own words: test_the_off_track_words_speak_of_what_is_left_of_the_plan.)"""
    lesson = next(lesson for lesson in LESSONS if lesson.key == "running-leopard")
    for first, second in (("play 6H on your 6", "play QS on your 7"), ("play QS on your 7", "play 6H on your 6")):
        attempt = lesson.new_attempt()
        assert attempt.try_move(first).kind == attempt.try_move(second).kind == "progress"
        told = attempt.try_move("end turn")
        assert told.kind == "off-track" and said(told.text, "lessons.feedback.off_track")
        assert not [words for words in lesson.off_track if words in told.text], (first, second)


def test_a_pass_is_told_once(keyed: None) -> None:
    """Stage 13's last step passed instead of going out: "You passed, with no card to play." alone, where the rule's
    reason ("you pass") came first and then "You ended the turn."."""
    lesson = next(lesson for lesson in LESSONS if lesson.key == "running-leopard")
    attempt = lesson.new_attempt()
    for move in lesson.solution[:4]:
        assert attempt.try_move(move).ok
    keys = keys_in(attempt.try_move("end turn").text)
    assert keys[0] == "narration.passed" and "narration.end_turn" not in keys and "engine.turn.pass" not in keys


def test_the_plays_of_a_turn_of_several_count_in_any_order_that_leaves_the_same_square() -> None:
    """Stage 13 (Running Leopard): the 6 of hearts first, or between the queen and the 7, leaves the square as the
    script's order does, so neither is a slip; the 7 of hearts before the queen is illegal, and a queen that covers
    another card is off the script."""
    lesson = next(lesson for lesson in LESSONS if lesson.key == "running-leopard")
    plays = ["play QS on your 7", "play 7H on your 7", "play 6H on your 6"]
    for order in ([plays[2], plays[0], plays[1]], [plays[0], plays[2], plays[1]], plays):
        attempt = lesson.new_attempt()
        kinds = [attempt.try_move(move).kind for move in [*order, "end turn", "go out"]]
        assert kinds == ["progress"] * 4 + ["solved"] and attempt.slips == 0 and attempt.stars == 3, order
    attempt = lesson.new_attempt()
    assert attempt.try_move(plays[1]).kind == "illegal"
    attempt = lesson.new_attempt()
    assert attempt.try_move(plays[2]).kind == "progress"
    assert attempt.next_move() == parse_move(plays[0]), "the script's next move, the hint's too"
    assert attempt.try_move("play QS on your 8").kind == "off-track"
