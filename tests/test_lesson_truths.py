"""Sentences of the Learn section that were false, each pinned down in the position that showed it, in English and
Spanish:

1. ending a Running Leopard turn of plays with an empty hand was told as a pass (rules A.3: a pass is a turn in
   which nothing was played);
2. stage 13's mistake said the opponent's jack spoiled the learner's square where it lay on a face-down queen and
   changed nothing, and gave going-out advice where going out had never been open (and its jack, held, was never
   laid once the plan's turn ended: the opponent now crowds the space the plan fills instead);
3. a wrong answer to a question about the rules (stage 14) was told as "not what you can tell from what you see";
4. stage 14's success denied a list of values joined with "and" ("none is worth 17, 19, 21, 22 and 23");
5. the coach's choice in the whole hand (stage 15) was said to gain "on your opponent's square" whichever square it
   was played on;
6. stage 8's success said a card whose home spaces are covered face up "can only be thrown away", where a jack or a
   queen opens one for a later turn;
7. the whole hand's first hint (stage 15) told the learner to look for the play that adds most, where no play
   added anything.

What the tutor says is compared as keys and facts (tests/keyed.py), or with the catalogue's and the lesson's own
words in each language (tests/spoken.py), never with sentences written out here; every claim is checked against
the engine's position, worked out here from the squares' lines."""

from __future__ import annotations

import contextvars
import json
import random
import re
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import pytest
from keyed import keys_in, markers, said
from spoken import in_language

from leopard_tutor.engine import (
    ALL_CARDS,
    RUNNING_LEOPARD,
    Card,
    Discard,
    EndTurn,
    GoOut,
    Hand,
    Move,
    Play,
    catalogue,
    check_play,
    hand_score,
    impossible_values,
    scoring_lines,
)
from leopard_tutor.engine.facts import fill
from leopard_tutor.engine.gains import move_gain
from leopard_tutor.engine.narration import move_words
from leopard_tutor.engine.turns import EndedTurn, Passed, apply_move
from leopard_tutor.lessons import LESSONS, Attempt, Lesson, LessonFormatError, lessons_in
from leopard_tutor.lessons.coach import coach_move
from leopard_tutor.lessons.facts import lesson_facts
from leopard_tutor.lessons.model import STAGES_DIR, parse_lesson
from leopard_tutor.lessons.questions import ANSWERS, answer_words

T = TypeVar("T")
LANGUAGES = ("en", "es")


def in_lang(lang: str, make: Callable[[], T]) -> T:
    """What `make()` gives with every text in language `lang` (in a context of its own)."""

    def run() -> T:
        catalogue.answer_in(lang)
        return make()

    return contextvars.copy_context().run(run)


def stage(number: int, lang: str | None = None) -> Lesson:
    """The lesson of that stage, with its words in `lang` (the course as loaded now if None)."""
    lessons = LESSONS if lang is None else lessons_in(lang)
    return next(lesson for lesson in lessons if lesson.stage == number)


def attempt_at(lesson: Lesson, step: int) -> Attempt:
    """A fresh attempt at `lesson` with the first `step` moves of its solution made."""
    attempt = lesson.new_attempt()
    for move in lesson.solution[:step]:
        assert attempt.try_move(move).ok, move
    return attempt


def value(hand: Hand, player: int) -> int:
    """What `player`'s square is worth, summed here from its lines."""
    return sum(line.points for line in scoring_lines(hand.squares[player], hand.rules))


def said_to(lesson: Lesson, step: int, move: Move) -> str:
    """What the lesson says to `move` tried at `step` of its solution."""
    return attempt_at(lesson, step).try_move(move).text


def _after(hand: Hand, move: Move) -> Hand:
    """A copy of `hand` with `move` made."""
    after = hand.copy()
    apply_move(after, move)
    return after


def hides_a_counting_card(hand: Hand, reply: Move) -> bool:
    """Whether `reply` (the opponent's) lays a card on the learner's square over a face-up card that lies in a line
    scoring now."""
    if not isinstance(reply, Play) or reply.square_owner != 0:
        return False
    top = hand.squares[0].top(reply.space)
    return (top is not None and top[1]
            and any(reply.space in line.spaces and line.points for line in scoring_lines(hand.squares[0], hand.rules)))


# -- 1. a pass is a turn in which nothing was played ----------------------------------------------------------

RUNNING = 13  # Running Leopard: QS, 7H and 6H played in one turn, then the turn ends with no card left
PLAYS_DONE = 3  # the solution's step at which all three are played


def test_ending_a_turn_of_plays_with_no_card_left_is_no_pass(keyed: None) -> None:
    attempt = attempt_at(stage(RUNNING), PLAYS_DONE)
    hand = attempt.hand
    assert not hand.held[0] and hand.plays_made == PLAYS_DONE and stage(RUNNING).solution[PLAYS_DONE] == EndTurn()
    verdict = hand.check(EndTurn())
    assert verdict.legal and keys_in(verdict.reason) == ["engine.turn.end_after_plays"]
    assert said(verdict.reason, "engine.turn.end_after_plays", held=0)
    feedback = attempt.try_move(EndTurn())
    # told by what it did, not as a pass, nor by its reason said before the press ("...all that is left is to end it")
    assert keys_in(feedback.text)[0] == "narration.end_turn" and not said(feedback.text, "engine.turn.pass")
    assert not said(feedback.text, "engine.turn.end_after_plays", held=0)
    assert attempt.hand.plays_made == 0 and not attempt.hand.held[0]  # the next turn: nothing played, no card
    # the lesson's words after the end of that turn ("The stock is empty too, so at your next turn you can only pass
    # or go out"): the stock is empty, and the next turn's moves are a pass or going out
    assert stage(RUNNING).after[PLAYS_DONE] in feedback.text and attempt.hand.stock_size == 0
    assert set(map(type, attempt.hand.legal_moves())) == {EndTurn, GoOut}
    passing = attempt.hand.check(EndTurn())
    assert keys_in(passing.reason) == ["engine.turn.pass"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_words_of_ending_a_turn_of_plays_and_of_a_pass(lang: str) -> None:
    def told() -> tuple[str, str]:
        attempt = attempt_at(stage(RUNNING, lang), PLAYS_DONE)
        ended = attempt.try_move(EndTurn()).text
        return ended, attempt_at(stage(RUNNING, lang), PLAYS_DONE + 1).try_move(EndTurn()).text

    ended, passed = in_lang(lang, told)
    assert ended.startswith(in_language(lang, "narration.end_turn", subject=in_language(lang, "narration.you"),
                                        mover="you"))
    assert in_language(lang, "engine.turn.pass") not in ended
    assert in_language(lang, "engine.turn.end_after_plays", held=0) not in ended
    # a pass: told as one ("You passed, with no card to play."), not first by the rule's "…so you pass…"
    assert passed.startswith(in_language(lang, "narration.passed", subject=in_language(lang, "narration.you"),
                                         mover="you"))
    assert in_language(lang, "engine.turn.pass") not in passed
    if lang != "en":
        assert in_language(lang, "engine.turn.end_after_plays", held=0) != in_language(
            "en", "engine.turn.end_after_plays", held=0)


def test_the_verdict_of_ending_a_turn_is_a_pass_exactly_when_nothing_was_played(keyed: None) -> None:
    """Whole Running Leopard hands of random moves (plays preferred, so that hands run empty): at every decision
    where ending the turn is allowed, its verdict is the pass's when nothing was played this turn (and then the hand
    is empty), else the end of a turn of plays with the count of cards still held, which says another card may follow
    exactly when one can be played; the turn runner's event agrees."""
    checked = {"pass": 0, "after plays, no card": 0, "after plays, cards held": 0, "after plays, none playable": 0}
    for seed in range(6):
        rng = random.Random(seed)
        hand = Hand.deal(RUNNING_LEOPARD, seed=seed)
        while not hand.is_over:
            moves = [move for move in hand.legal_moves() if not isinstance(move, GoOut)]
            if EndTurn() in moves:
                reason, plays, held = hand.check(EndTurn()).reason, hand.plays_made, len(hand.held[hand.to_move])
                if plays:
                    stuck = held > 0 and not any(isinstance(move, Play) for move in hand.legal_moves())
                    key = "engine.turn.end_after_plays_stuck" if stuck else "engine.turn.end_after_plays"
                    assert keys_in(reason) == [key] and said(reason, key, held=held)
                    checked["after plays, none playable" if stuck else
                            "after plays, cards held" if held else "after plays, no card"] += 1
                else:
                    assert held == 0 and keys_in(reason) == ["engine.turn.pass"]
                    checked["pass"] += 1
            plays = [move for move in moves if isinstance(move, Play)]
            move = rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(moves)
            events = apply_move(hand, move)
            if isinstance(move, EndTurn):
                assert isinstance(events[0], Passed if said(reason, "engine.turn.pass") else EndedTurn)
    assert all(count >= 3 for count in checked.values()), checked


def answered_mistakes(lesson: Lesson, step: int, move: Move) -> list[int]:
    """The mistakes of `lesson` that may answer the off-track `move` at `step` of its solution: the same move, a
    reply legal after it, and their conditions holding."""
    hand = attempt_at(lesson, step).hand
    found = []
    for index, mistake in enumerate(lesson.mistakes):
        if mistake.move != move:
            continue
        after = _after(hand, move)
        if after.to_move != 1 or not after.check(mistake.reply).legal:
            continue
        before_reply = after.value(0)
        apply_move(after, mistake.reply)
        if mistake.holds(hand.check(GoOut()).legal, before_reply, after.value(0)):
            found.append(index)
    return found


@pytest.mark.parametrize("lesson", [lesson for lesson in LESSONS if lesson.mistakes], ids=lambda lesson: lesson.key)
def test_a_mistake_a_lesson_names_is_answered_wherever_it_is_made(lesson: Lesson) -> None:
    """Wherever a mistake's move is off track and legal, one of the lesson's mistakes for that move answers it
    (stage 9's first turn met a discard of the 6 of clubs with no words: its reply, a jack on an empty space, is
    allowed only once the ace lies there), unless conditions of its own rule it out; and each mistake is said
    somewhere."""
    said_somewhere = set()
    for step in range(len(lesson.solution)):
        hand = attempt_at(lesson, step).hand
        for move in {mistake.move for mistake in lesson.mistakes}:
            if move == lesson.solution[step] or not hand.check(move).legal:
                continue
            found = answered_mistakes(lesson, step, move)
            conditioned = all(mistake.when for mistake in lesson.mistakes if mistake.move == move)
            assert found or conditioned, (step, str(move))
            said_somewhere.update(found[:1])
    assert said_somewhere == set(range(len(lesson.mistakes)))


# -- 2. stage 13's mistake: each claim only where the engine finds it true -----------------------------------

def shown_mistakes(lesson: Lesson, step: int, move: Move) -> tuple[str, list[str]]:
    """What the lesson says to the off-track `move` at `step`, and each of its mistakes' words for that move as the
    reply would make them (filled with the facts after the reply)."""
    attempt = attempt_at(lesson, step)
    words = []
    for mistake in lesson.mistakes:
        after = _after(attempt.hand, move)
        if mistake.move == move and after.to_move == 1 and after.check(mistake.reply).legal:
            apply_move(after, mistake.reply)
            words.append(fill(mistake.text, lesson_facts(after, lesson)))
        else:
            words.append("")
    return attempt.try_move(move).text, words


def crowds(hand: Hand, reply: Move) -> bool:
    """Whether `reply` (the opponent's) lays a card from ace to nine on an open space of the learner's square, where
    no card from ace to ten may go once it lies there."""
    if not isinstance(reply, Play) or reply.square_owner != 0 or not hand.squares[0].is_open(reply.space):
        return False
    laid = hand.squares[0].with_card(reply.card, reply.space, by_other=True)
    return reply.card.rank <= 9 and not any(check_play(card, laid, reply.space, own=True).legal
                                             for card in ALL_CARDS if card.rank <= 10)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reply_to_an_early_end_of_turn_is_one_the_plan_leaves_no_room_for(lang: str) -> None:
    """Stage 13 used to punish an end of turn before the 6 of hearts with the opponent's jack, which the same
    opponent, holding it, did not lay once the plan's turn ended: now the punishment is their 6 of clubs on the space
    the 6 of hearts was for, which the plan's turn fills."""
    lesson = stage(RUNNING, lang)
    crowding = next(mistake for mistake in lesson.mistakes if not mistake.when)
    early = _after(attempt_at(lesson, 2).hand, EndTurn())  # the queen and the 7 of hearts played, not the 6
    assert crowds(early, crowding.reply)
    planned = _after(attempt_at(lesson, PLAYS_DONE).hand, EndTurn())
    assert not planned.check(crowding.reply).legal and not crowds(planned, crowding.reply)
    told, words = in_lang(lang, lambda: shown_mistakes(lesson, 2, EndTurn()))
    index = lesson.mistakes.index(crowding)
    assert words[index] and words[index] in told
    assert in_lang(lang, lambda: move_words(crowding.reply, "report", 0)) in told


def running_mistakes(lang: str) -> list[tuple[int, Move, str, list[str], Hand]]:
    """Every off-track move of stage 13 that is one of its mistakes' moves: the step, the move, what is said, the
    mistakes' words, and the hand before the move."""
    lesson = stage(RUNNING, lang)
    found = []
    for step in range(len(lesson.solution)):
        hand = attempt_at(lesson, step).hand
        for move in hand.legal_moves():
            if move != lesson.solution[step] and any(mistake.move == move for mistake in lesson.mistakes):
                told, words = in_lang(lang, partial(shown_mistakes, lesson, step, move))
                found.append((step, move, told, words, hand))
    return found


GOING_OUT = {"en": r"\bgo(ing)? out\b", "es": r"\bcerrar\b"}
"""How each language's lesson words speak of going out."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stage_13s_mistake_claims_only_what_the_engine_finds(lang: str) -> None:
    """Both claims of the demonstration, each where it holds: the opponent's card took an open space of the learner's
    square where no card from ace to ten can go now (said by the text that does not advise going out), and going out
    was open instead of the move (said only by the text that advises it, and then the square was worth at least what
    going out needs, and the reply shown is a jack on the learner's square that lowers it: passing there had let the
    opponent lay a 6 on their own square and the hand end, a point better for the learner than going out)."""
    lesson = stage(RUNNING, lang)
    advising = [bool(re.search(GOING_OUT[lang], mistake.text, re.IGNORECASE)) for mistake in lesson.mistakes]
    assert any(advising) and not all(advising)
    cases = running_mistakes(lang)
    shown_at = set()
    for step, move, told, words, hand in cases:
        shown = [index for index, w in enumerate(words) if w and w in told]
        assert len(shown) <= 1, (step, told)
        if not shown:
            continue
        mistake = lesson.mistakes[shown[0]]
        if advising[shown[0]]:
            assert GoOut() in hand.legal_moves() and value(hand, 0) >= hand.rules.out_threshold, (step, told)
            reply = mistake.reply
            assert isinstance(reply, Play) and reply.card.rank == 11 and reply.square_owner == 0
            assert value(_after(_after(hand, move), reply), 0) < value(hand, 0), (step, told)
        else:
            assert crowds(_after(hand, move), mistake.reply), (step, told)
        shown_at.add((step, shown[0]))
    assert {index for _, index in shown_at} == set(range(len(lesson.mistakes))), shown_at


@pytest.mark.parametrize("lesson", [lesson for lesson in LESSONS if lesson.mistakes], ids=lambda lesson: lesson.key)
def test_a_mistake_is_shown_where_its_conditions_hold_and_only_there(lesson: Lesson) -> None:
    """Every lesson with mistakes, every off-track move at every step: the first mistake for that move whose
    conditions the position meets, worked out here, is the one shown, and none where none is met."""
    for step in range(len(lesson.solution)):
        hand = attempt_at(lesson, step).hand
        for move in hand.legal_moves():
            if move == lesson.solution[step] or not any(mistake.move == move for mistake in lesson.mistakes):
                continue
            after = _after(hand, move)
            met = {"you could go out": GoOut() in hand.legal_moves()}
            expected = None
            for index, mistake in enumerate(lesson.mistakes):
                if mistake.move != move or after.to_move != 1 or not after.check(mistake.reply).legal:
                    continue
                met["the reply lowers your square"] = hides_a_counting_card(after, mistake.reply)
                if all(met[condition] for condition in mistake.when):
                    expected = index
                    break
            told, words = shown_mistakes(lesson, step, move)
            assert [index for index, w in enumerate(words) if w and w in told] == (
                [] if expected is None else [expected]), (step, move, told)


# -- 3. a wrong answer to a question about the rules ------------------------------------------------------------

def ground(kind: str) -> str:
    """What a question of that kind is answered from: the rules, or the table as the learner sees it."""
    return "rules" if kind == "can a square be worth" else "seen"


QUESTION_LESSONS = [lesson for lesson in LESSONS if lesson.questions]


@pytest.mark.parametrize("lesson", QUESTION_LESSONS, ids=lambda lesson: lesson.key)
def test_a_wrong_answer_says_what_the_question_is_answered_from(lesson: Lesson, keyed: None) -> None:
    attempt = lesson.new_attempt()
    grounds = set()
    while (question := attempt.question) is not None:
        right = question.truth(attempt.view).answer
        for wrong in question.answers:
            if wrong != right:
                told = attempt.answer(wrong).text
                key = f"lessons.questions.wrong.{ground(question.kind)}"
                if key.endswith("seen") and wrong == "unknown":  # what is seen tells it: no answer quoted
                    assert keys_in(told)[0] == f"{key}_unknown" and said(told, f"{key}_unknown"), told
                else:
                    assert keys_in(told)[0] == key and said(told, key, answer=answer_words(wrong)), told
                grounds.add(ground(question.kind))
        attempt.answer(right)
    assert grounds == {ground(question.kind) for question in lesson.questions}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_wrong_answer_about_the_rules_in_english_and_spanish(lang: str) -> None:
    lesson = stage(14, lang)
    assert {question.kind for question in lesson.questions} == {"can a square be worth"}

    def told() -> list[tuple[str, str]]:
        attempt = lesson.new_attempt()
        question = attempt.question
        assert question is not None
        right = question.truth(attempt.view).answer
        return [(wrong, attempt.answer(wrong).text) for wrong in question.answers if wrong != right]

    for wrong, text in in_lang(lang, told):
        answer = in_language(lang, f"lessons.questions.answers.{wrong}")
        assert text.startswith(in_language(lang, "lessons.questions.wrong.rules", answer=answer)), text
        assert in_language(lang, "lessons.questions.wrong.seen", answer=answer) not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_wrong_answer_about_what_you_see_is_true_of_each_answer(lang: str) -> None:
    """Stage 12 answered "You cannot tell" where what is seen tells it said "“You cannot tell” is not what you can tell
    from what you see"; it says that what is seen is enough to answer, and of a wrong "Yes" or "No" that what is seen
    does not prove it."""
    lesson = stage(12, lang)

    def told() -> list[tuple[str, str, str]]:
        attempt, found = lesson.new_attempt(), []
        while (question := attempt.question) is not None:
            right = question.truth(attempt.view).answer
            found += [(wrong, right, attempt.answer(wrong).text) for wrong in ANSWERS if wrong != right]
            attempt.answer(right)
        return found

    found = in_lang(lang, told)
    assert {wrong for wrong, _, _ in found} == {"yes", "no", "unknown"}
    for wrong, _right, words in found:
        if wrong == "unknown":
            assert words.startswith(in_language(lang, "lessons.questions.wrong.seen_unknown")), words
        else:
            answer = in_language(lang, f"lessons.questions.answers.{wrong}")
            assert words.startswith(in_language(lang, "lessons.questions.wrong.seen", answer=answer)), words
        for answer in ("yes", "no", "unknown"):  # the old sentence, "… is not what you can tell from what you see"
            quoted = in_language(lang, f"lessons.questions.answers.{answer}")
            assert f"{quoted}” is not what" not in words and f"{quoted}» no es lo que" not in words, words


# -- 4. a list after "none" is joined with "or" ------------------------------------------------------------------

def solved_values_stage(lang: str | None = None) -> str:
    """What stage 14 says once every question is answered right."""
    attempt = stage(14, lang).new_attempt()
    text = ""
    while (question := attempt.question) is not None:
        text = attempt.answer(question.truth(attempt.view).answer).text
    assert attempt.solved
    return text


def test_the_values_no_square_has_are_denied_one_by_one(keyed: None) -> None:
    told = solved_values_stage()
    never = [str(value) for value in impossible_values(stage(14).rules)]
    assert len(never) > 2
    assert said(told, "words.or_list", last=never[-1]) and not said(told, "words.and_list")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_values_no_square_has_in_english_and_spanish(lang: str) -> None:
    told = in_lang(lang, lambda: solved_values_stage(lang))
    never = [str(value) for value in impossible_values(stage(14).rules)]
    first = in_language(lang, "words.list_separator").join(never[:-1])
    assert in_language(lang, "words.or_list", first=first, last=never[-1]) in told
    assert in_language(lang, "words.and_list", first=first, last=never[-1]) not in told


NEGATIONS = r"\b(?:none|no|not|never|nor|ningún|ninguno|ninguna|ni|nunca)\b[^.:;{]*$"
"""A sentence that denies, up to the placeholder: its list must be joined with "or" (Spanish "o")."""


def test_no_lesson_denies_a_list_joined_with_and() -> None:
    files = sorted(STAGES_DIR.glob("*.json")) + sorted(STAGES_DIR.glob("*/*.json"))
    denied = [f"{path.parent.name}/{path.name}: {before!r}" for path in files
              for before in re.findall(r"([^\"]*)\{values_never_reached\}", path.read_text(encoding="utf-8"))
              if re.search(NEGATIONS, before, re.IGNORECASE)]
    assert denied == []


# -- 5. the coach's choice says which square it changes -----------------------------------------------------------

FULL_HAND = 15


def coach_cases() -> dict[str, tuple[int, Move, Move, int]]:
    """For each way the coach's choice changes the squares, the first step of stage 15 where the learner has a
    worse move: (step, the learner's move, the coach's, the points the coach's move changes), the change worked out
    here from the squares' lines."""
    lesson = stage(FULL_HAND)
    attempt = lesson.new_attempt()
    cases: dict[str, tuple[int, Move, Move, int]] = {}
    for step, move in enumerate(lesson.solution):
        hand = attempt.hand
        coach = coach_move(hand)
        mover = hand.view(hand.to_move)
        worse = [m for m in hand.legal_moves() if m != coach and move_gain(mover, m) < move_gain(mover, coach)]
        if worse:
            kind, change = "neither", 0
            if isinstance(coach, Play):
                after = _after(hand, coach)
                owner = coach.square_owner
                change = value(after, owner) - value(hand, owner)
                kind = "neither" if not change else "yours" if owner == 0 else "theirs"
            assert (kind, change > 0) in {("yours", True), ("theirs", False), ("neither", False)}
            cases.setdefault(kind, (step, worse[0], coach, abs(change)))
        if len(cases) == 3:
            break
        attempt.try_move(move)
    return cases


def test_the_coach_says_which_square_its_choice_changes(keyed: None) -> None:
    cases = coach_cases()
    assert set(cases) == {"yours", "theirs", "neither"}
    for kind, (step, move, coach, change) in cases.items():
        told = said_to(stage(FULL_HAND), step, move)
        key = f"lessons.feedback.coach.{kind}"
        facts = {"gain": change} if kind != "neither" else {}
        assert said(told, key, move=move_words(coach, "advice", 0), **facts), (kind, told)
        assert [k for k in keys_in(told) if k.startswith("lessons.feedback.coach")] == [key]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_coachs_words_in_english_and_spanish(lang: str) -> None:
    cases = coach_cases()
    for kind in ("yours", "theirs"):
        step, move, coach, change = cases[kind]
        told = in_lang(lang, partial(said_to, stage(FULL_HAND, lang), step, move))
        words = in_lang(lang, partial(move_words, coach, "advice", 0))
        assert in_language(lang, f"lessons.feedback.coach.{kind}", move=words, gain=change) in told, told
        other = "theirs" if kind == "yours" else "yours"
        assert in_language(lang, f"lessons.feedback.coach.{other}", move=words, gain=change) not in told


# -- 7. the whole hand's first hint is true of the position -------------------------------------------------------

def first_hints(lesson: Lesson) -> list[tuple[str, Hand]]:
    """Stage 15 played along its solution: the first rung of the hint at each of the learner's moves, with the hand
    it was asked in."""
    attempt, told = lesson.new_attempt(), []
    for move in lesson.solution:
        hand = attempt.hand.copy()
        if hand.to_move == 0:
            told.append((attempt.hint().text, hand))
        attempt.try_move(move)
    return told


def test_the_whole_hands_first_hint_says_what_the_best_play_does(keyed: None) -> None:
    """Stage 15's first rung was always "Look for the play that adds most to your square, or a jack that breaks your
    opponent's best line", on empty squares too, where no play adds anything."""
    kinds = set()
    for text, hand in first_hints(stage(FULL_HAND)):
        plays = [move for move in hand.legal_moves() if isinstance(move, Play)]
        gains = [value(_after(hand, play), play.square_owner) - value(hand, play.square_owner) for play in plays]
        raises = max([gain for play, gain in zip(plays, gains) if play.square_owner == 0], default=0)
        lowers = max([-gain for play, gain in zip(plays, gains) if play.square_owner == 1], default=0)
        scores = [hand_score(value(hand, player), player == 0, hand.rules) for player in (0, 1)]
        key = keys_in(text)[-1]
        kinds.add(key)
        if key == "lessons.hints.free.go_out":
            assert GoOut() in hand.legal_moves() and scores[0] > scores[1], text
        elif key == "lessons.hints.free.raise":
            gain = int(dict(markers(text))[key]["gain"])
            assert 0 < gain == raises and gain >= lowers, text  # (the coach takes the larger gain)
        elif key == "lessons.hints.free.lower":
            gain = int(dict(markers(text))[key]["gain"])
            assert 0 < gain == lowers and gain >= raises, text
        else:
            assert key in ("lessons.hints.free.none", "lessons.hints.free.discard") and raises <= 0 and lowers <= 0
            assert isinstance(coach_move(hand), Discard) == key.endswith("discard"), text
    assert {"lessons.hints.free.raise", "lessons.hints.free.none"} <= kinds, kinds


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_whole_hands_first_hint_in_english_and_spanish(lang: str) -> None:
    told = [text for text, _ in in_lang(lang, partial(first_hints, stage(FULL_HAND, lang)))]
    assert in_language(lang, "lessons.hints.free.none") in told, told
    assert not any(text == stage(FULL_HAND, lang).hints[0] for text in told)


def test_a_mistake_condition_outside_the_vocabulary_stops_the_import() -> None:
    data = json.loads((STAGES_DIR / "13_running_leopard.json").read_text(encoding="utf-8"))
    data["mistakes"][0]["when"] = ["the jack is sad"]
    with pytest.raises(LessonFormatError, match="'when' names conditions among"):
        parse_lesson(json.dumps(data))


def test_the_hint_for_ending_a_turn_while_holding_cards_keeps_them_and_never_says_there_is_no_card(
        keyed: None) -> None:
    """A Running Leopard lesson whose plan ends the turn with cards still held: the ladder's card and space rungs
    speak of keeping them (stage 13 ends its turn with an empty hand: "you have no card to use")."""
    data = json.loads((STAGES_DIR / "13_running_leopard.json").read_text(encoding="utf-8"))
    data.update(solution=["play QS on your 7", "end turn"], mistakes=[], after=[], success="Done.", goal="Go out.",
                goals=[{"went out": True}], replies=["discard 4C"], hints=data["hints"][:2])
    lesson = parse_lesson(json.dumps(data))
    attempt = attempt_at(lesson, 1)
    assert attempt.hand.held[0] and attempt.next_move() == EndTurn()
    rungs = [attempt.hint().text for _ in range(4)]
    assert keys_in(rungs[1]) == ["lessons.hints.end_turn_held.card"]
    assert keys_in(rungs[2]) == ["lessons.hints.end_turn_held.space"]
    full = attempt_at(stage(RUNNING), PLAYS_DONE)
    assert not full.hand.held[0]
    rungs = [full.hint().text for _ in range(4)]
    assert [keys_in(rung) for rung in rungs[1:3]] == [["lessons.hints.end_turn.card"], ["lessons.hints.end_turn.space"]]


# -- 6. stage 2's success names what the black 7 spoiled ----------------------------------------------------------

def test_stage_2s_success_holds_for_their_row_and_column_through_space_7() -> None:
    """Stage 2's success says the row and the column of space 7 (7-8-9 and 1-4-7 under the 2008 rules) each had two
    red cards waiting for a red 7 (it said only that the lines through that space could score with black cards,
    which read as if they might score soon): checked on the engine's squares before the learner's 7 of spades, and
    that neither scores after it."""
    lesson = stage(2)
    attempt = lesson.new_attempt()
    before = attempt.hand.squares[1]
    for move in lesson.solution:
        assert attempt.try_move(move).ok
    after = attempt.hand.squares[1]
    rows = {(7, 8, 9), (1, 4, 7)}
    for line in rows:
        others = [before.top(space) for space in line if space != 7]
        assert all(top is not None and top[1] and top[0].color == "red" for top in others), (line, others)
        assert before.top(7) is None or not before.top(7)[1], "space 7 took a 7: blank or face down"
    assert not any(line.points for line in scoring_lines(after, lesson.rules) if tuple(line.spaces) in rows)


# -- 6. stage 8: a card whose home spaces are covered face up can be laid later ------------------------------------

THIS_TURN = {"en": "this turn", "es": "en este turno"}
"""The words that bound stage 8's claim to the turn, in each language."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stage_8_says_the_card_can_only_be_thrown_away_this_turn(lang: str) -> None:
    """Its success said "A card whose home spaces are both covered face up can only be thrown away", while the
    engine's reason for the 5 of diamonds tried on a space 5 says to cover it first with a jack or a queen: the card
    has no play this turn, and one once a jack covers a home space. The claim is bound to this turn (and the goal's
    "cannot be played anywhere" too)."""
    lesson = stage(8, lang)
    hand = lesson.start()
    five, jack = Card.parse("5D"), Card.parse("JS")
    assert not [move for move in hand.legal_moves() if isinstance(move, Play) and move.card == five]
    covered = _after(hand, Play(jack, 0, 5))
    assert check_play(five, covered.squares[0], 5, own=True).legal, "a jack opens a home space for a later turn"
    for words in (lesson.success, lesson.goal):
        first = re.split(r"(?<=[.!?])\s", words)[0]
        assert THIS_TURN[lang] in first, first
