"""Practice: seeded, endless, answered by the engine, recorded per concept."""

from __future__ import annotations

import itertools

import pytest
from keyed import keys_in, mark, said

from leopard_tutor.engine import (
    ALL_CARDS,
    ORIGINAL_1963,
    Card,
    Play,
    Square,
    check_play,
    scoring_lines,
    square_value,
)
from leopard_tutor.engine.square import Hidden
from leopard_tutor.engine.view import seen_square
from leopard_tutor.lessons import (
    CONCEPTS,
    KINDS,
    AnswerError,
    BestPlayQuestion,
    PlacementQuestion,
    Practice,
    Progress,
    ValueQuestion,
)


def test_same_seed_same_questions() -> None:
    a, b = Practice(seed=7), Practice(seed=7)
    for _ in range(15):
        qa, qb = a.next(), b.next()
        assert (qa.kind, qa.prompt) == (qb.kind, qb.prompt)
        assert str(getattr(qa, "square", "")) == str(getattr(qb, "square", ""))
    assert [Practice(seed=s).next().prompt for s in range(6)] != [Practice(seed=0).next().prompt] * 6


def test_endless_and_every_kind_appears() -> None:
    practice = Practice(seed=3)
    kinds = {practice.next().kind for _ in range(60)}
    assert kinds == set(KINDS)


@pytest.mark.parametrize("seed", range(5))
def test_value_question_is_answered_line_by_line(seed: int, keyed: None) -> None:
    practice = Practice(seed=seed)
    question = practice.next("value")
    assert isinstance(question, ValueQuestion)
    value = square_value(question.square, question.rules)
    assert question.solution == value
    right = practice.answer(str(value))
    assert right.ok and right.counted
    lines = [line for line in scoring_lines(question.square, question.rules) if line.points]
    assert said(right.text, "lessons.practice.value.right", value=value)
    for line in lines:
        assert said(right.text, "lessons.practice.value.line", name=line.name.capitalize(), points=line.points)
    assert keys_in(right.text).count("lessons.practice.value.line") == len(lines)
    assert said(right.text, "lessons.practice.value.total", value=value)
    wrong = practice.answer(value + 1)
    assert not wrong.ok and not wrong.counted and said(wrong.text, "lessons.practice.answered")
    assert practice.progress.practice["lines"] == (1, 0)


def test_value_explanation_for_a_known_square(keyed: None) -> None:
    question = ValueQuestion(Square.parse("AS . 3C / 4S 5C . / KS 8S 9S"), ORIGINAL_1963)
    answer = question.check(5)
    assert not answer.ok
    assert said(answer.text, "lessons.practice.value.wrong", given=5, value=6)
    assert said(answer.text, "lessons.practice.value.line", name=mark("words.line.row", labels="7-8-9"),
                kind=mark("lessons.practice.value.suit"), points=2)
    assert said(answer.text, "lessons.practice.value.line", name=mark("words.line.diagonal", labels="1-5-9"),
                kind=mark("lessons.practice.value.color"), points=1)


@pytest.mark.parametrize("seed", range(8))
def test_placement_question_uses_the_engines_reason(seed: int) -> None:
    practice = Practice(seed=seed)
    question = practice.next("placement")
    assert isinstance(question, PlacementQuestion)
    verdict = check_play(question.card, question.square, question.space, own=question.owner == 0)
    assert question.solution is verdict.legal
    right = question.check("yes" if verdict.legal else "no")
    wrong = question.check(not verdict.legal)
    assert right.ok and not wrong.ok
    assert right.text.endswith(verdict.reason) and wrong.text.endswith(verdict.reason)


def test_a_placement_question_shows_one_square_and_its_explanation_names_no_other(keyed: None) -> None:
    """A question shows one square: a "No" that sent the learner to "space 3 of the other square" spoke of a square
    that is not there (and that was never looked at)."""
    practice, seen = Practice(seed=5), set()
    for _ in range(400):
        question = practice.next("placement")
        assert isinstance(question, PlacementQuestion)
        answer = question.check(question.solution)
        seen.update(keys_in(answer.text))
        assert not {key for key in keys_in(answer.text) if key.startswith("engine.illegal.numbered_covered.")
                    and key.endswith("_other")}, answer.text
    assert "engine.illegal.wrong_space.taken" in seen  # the sentence that named it, met


@pytest.mark.parametrize("seed", range(3))
def test_a_placement_questions_words_send_the_learner_to_no_other_square(seed: int) -> None:
    practice = Practice(seed=seed)
    for _ in range(300):
        question = practice.next("placement")
        said_now = question.check(question.solution).text
        assert "other square" not in said_now, said_now


def test_a_face_down_card_is_named_only_where_the_learner_laid_it() -> None:
    """A question's square shows its face-down cards as the learner knows them: a value question's (shown alone,
    whoever's it is) none, a placement question's those the learner laid. Practice named the opponent's face-down
    queens ("your queen of hearts", its face on the back); a question's answer is the same either way."""
    practice, named, hidden = Practice(seed=21), 0, 0
    for _ in range(300):
        question = practice.next("value")
        assert isinstance(question, ValueQuestion)
        downs = [face for space in range(1, 10) for face, up in question.square.pile(space) if not up]
        assert all(isinstance(face, Hidden) for face in downs), downs
        hidden += len(downs)
        question = practice.next("placement")
        assert isinstance(question, PlacementQuestion)
        square = question.square
        for space in range(1, 10):
            for (face, up), by_other in zip(square.pile(space), square.laid_by_other(space), strict=True):
                placer = 1 - question.owner if by_other else question.owner
                assert up or isinstance(face, Hidden) == (placer != 0), (space, face, placer)
                named += not up and not isinstance(face, Hidden)
    assert hidden and named, "no face-down card was met, or none the learner laid: the test proves less"


def test_a_square_as_the_learner_knows_it_allows_and_refuses_the_same_plays() -> None:
    """Whether a card may go on a space never rests on which card lies face down there, so a practice question asked
    of the square as the learner knows it has the answer it would have of the square itself."""
    checked = 0
    for seed in range(40):
        hand = Practice(seed=seed)._position()
        for owner in (0, 1):
            real, seen = hand.squares[owner], seen_square(hand.squares[owner], owner, 0)
            for card, space in itertools.product(ALL_CARDS[::7], range(1, 10)):
                assert check_play(card, real, space, own=owner == 0).legal == \
                    check_play(card, seen, space, own=owner == 0).legal
                checked += real != seen
    assert checked, "no square held a face-down card hidden from the learner"


def test_placement_answers_are_mixed() -> None:
    practice = Practice(seed=11)
    answers = {practice.next("placement").solution for _ in range(30)}
    assert answers == {True, False}


@pytest.mark.parametrize("seed", range(5))
def test_best_play_from_a_real_position(seed: int, keyed: None) -> None:
    practice = Practice(seed=seed)
    question = practice.next("best play")
    assert isinstance(question, BestPlayQuestion)
    hand = question.hand
    assert hand.to_move == 0 and not hand.is_over
    outcomes = question.outcomes()
    legal_own = [m for m in hand.legal_moves() if isinstance(m, Play) and m.square_owner == 0]
    assert set(outcomes) == set(legal_own)
    best = max(outcomes.values())
    assert best > hand.value(0)
    worse = next(m for m, v in outcomes.items() if v < best)
    assert question.check(question.solution[0]).ok
    answer = question.check(worse)
    key = "lessons.practice.best play." + ("wrong" if outcomes[worse] > hand.value(0) else "wrong_same"
                                           if outcomes[worse] == hand.value(0) else "wrong_down")
    assert not answer.ok and said(answer.text, key, the_card=worse.card.the_name, space=worse.space,
                                  mine=outcomes[worse], before=hand.value(0), after=best)


def test_a_worse_play_is_said_to_raise_keep_or_lower_the_square_as_it_would() -> None:
    """The reply to a worse play names what it would do to the square: raise it, leave it, or bring it down."""
    seen: set[str] = set()
    practice = Practice(seed=11)
    for _ in range(30):
        question = practice.next("best play")
        assert isinstance(question, BestPlayQuestion)
        before = question.hand.value(0)
        best = max(question.outcomes().values())
        for move, value in question.outcomes().items():
            if value == best:
                continue
            words = question.check(move).text
            if value > before:
                seen.add("raise")
                assert f"from {before} to {value}," in words
            elif value == before:
                seen.add("keep")
                assert f"leave your square worth {value}," in words and f"to {value}," not in words
            else:
                seen.add("lower")
                assert f"down from {before} to {value}," in words
    assert {"raise", "keep"} <= seen


def test_answers_are_recorded_per_concept() -> None:
    progress = Progress()
    practice = Practice(seed=5, progress=progress)
    for _ in range(25):
        question = practice.next()
        solution = question.solution
        given = solution[0] if isinstance(solution, list) else solution
        assert practice.answer(given).ok
    question = practice.next("placement")
    practice.answer(not question.solution)
    assert set(progress.practice) <= set(CONCEPTS)
    assert sum(right for right, _ in progress.practice.values()) == 25
    assert progress.practice[question.concept][1] == 1


@pytest.mark.parametrize(("kind", "given"), [("value", "four"), ("value", None), ("value", -5), ("placement", "maybe"),
                                             ("best play", "play 7H on my 7"), ("best play", 3)])
def test_bad_answers_are_clear_errors_and_record_nothing(kind: str, given: object) -> None:
    practice = Practice(seed=1)
    practice.next(kind)
    with pytest.raises(AnswerError):
        practice.answer(given)
    assert practice.progress.practice == {}


def test_best_play_refuses_a_play_that_is_not_allowed_with_the_reason(keyed: None) -> None:
    practice = Practice(seed=2)
    question = practice.next("best play")
    assert isinstance(question, BestPlayQuestion)
    card = question.hand.held[0][0]
    illegal = next(Play(card, 0, s) for s in range(1, 10) if not question.hand.check(Play(card, 0, s)))
    with pytest.raises(AnswerError) as refused:
        question.check(illegal)
    assert refused.value.key == "lessons.practice.best play.bad_because"
    assert str(refused.value) == mark("lessons.practice.best play.bad_because",
                                      reason=question.hand.check(illegal).reason)


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(AnswerError, match="no practice of kind"):
        Practice(seed=1).next("riddles")
    with pytest.raises(AnswerError, match="question first"):
        Practice(seed=1).answer(3)


def test_a_thousand_questions_stay_quick_and_valid() -> None:
    practice = Practice(seed=99)
    for question in itertools.islice(iter(practice.next, None), 200):
        assert question.prompt
        if isinstance(question, PlacementQuestion):
            assert isinstance(question.card, Card)
