"""A lesson's own words state rules; what they say about the position comes from the engine.

Three checks: every `{placeholder}` in a lesson file names a fact the engine fills (FORMAT.md, "Facts in
texts"), and recomputed independently it is what the learner reads; a lint on the fixed words of
every lesson file: no value or point count written as a number, no line named, no count of cards held,
unless the sentence is a rule statement this file's whitelist names; and a lint on advice: a rank, a
space, a card or a square it names is tied to the try by a condition (FORMAT.md, "Advice").
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import text_lint

from leopard_tutor.engine import LINES, Hand, scoring_lines
from leopard_tutor.engine.facts import placeholders
from leopard_tutor.lessons import LESSONS, Lesson, LessonFormatError
from leopard_tutor.lessons.advice import parse_advice
from leopard_tutor.lessons.facts import END_FACTS, POSITION_FACTS, lesson_facts
from leopard_tutor.lessons.model import STAGES_DIR, parse_lesson

FORMAT = Path(STAGES_DIR).parent.parent / "FORMAT.md"
FILES = sorted(STAGES_DIR.glob("*.json"))

RULE_STATEMENTS = {
    ("lines", "A square has eight lines: three rows, three columns and the two diagonals."):
        "the shape of every square, not of this one",
    ("aces-to-nines", "A card from ace to nine may only go on the space with its own number; the ace counts as 1."):
        "the ace's label",
    ("the-square", "Find the space with the card's own number by counting in reading order from the top left corner."):
        "where the 2008 layout, this lesson's rules, draws space 1",
}
"""Sentences that name a line or a number but state a rule, with why."""


def fixed_texts(data: dict[str, object]) -> list[str]:
    """Every text of a lesson file a learner can read (the title, figures and position aside)."""
    found: list[str] = [str(data["goal"]), str(data["success"])]
    off_track = data.get("off track", [])
    found += [off_track] if isinstance(off_track, str) else [str(item) for item in off_track]  # type: ignore[attr-defined]
    for name in ("intro", "hints", "after"):
        found += [str(item) for item in data.get(name, [])]  # type: ignore[attr-defined]
    found += [str(item["text"]) for item in data.get("advice", [])]  # type: ignore[attr-defined,index]
    found += [str(item["text"]) for item in data.get("mistakes", [])]  # type: ignore[attr-defined,index]
    return [item for item in found if item]


def lint(key: str, words: str) -> list[str]:
    """What in `words` (a lesson's fixed text) states a fact of the position: a number or a line."""
    return text_lint.lint(key, words, RULE_STATEMENTS)


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_no_lesson_text_states_a_number_or_a_line_of_the_position(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    problems = [problem for words in fixed_texts(data) for problem in lint(data["key"], words)]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_advice_names_a_rank_space_card_or_square_only_under_a_condition_on_it(lesson: Lesson) -> None:
    problems = [problem for advice in lesson.advice for problem in text_lint.advice_lint(advice)]
    assert problems == [], "\n".join(problems)


OLD_ADVICE = [  # issue 19: each was said after every refused try with its verdict code, whatever the card
    {"code": "wrong-space", "text": "Only a 7 can go on a space 7."},
    {"code": "covered", "text": "A card from ace to nine never covers a face-up card; first hide it with a queen."},
    {"code": "covered", "text": "A card from ace to nine cannot cover a face-up card; a king can."},
    {"code": "covered", "text": "Look for a space 7 whose top card lies face down."},
    {"code": "own-square-only",
     "text": "To cover a card in your opponent's square, use a jack: it is the only card that can hide theirs."},
]


@pytest.mark.parametrize("entry", OLD_ADVICE, ids=lambda entry: entry["text"][:30])
def test_the_advice_lint_catches_the_old_advice(entry: dict[str, str]) -> None:
    assert text_lint.advice_lint(*parse_advice([entry]))


@pytest.mark.parametrize(("entry", "caught"), [
    ({"code": "covered", "rank": "A-9", "text": "A 7 cannot go on the 7 of spades."}, "the 7 of spades named"),
    ({"code": "covered", "rank": "A-9", "text": "Try space 7."}, "space 7 named"),
    ({"code": "covered", "space": 4, "text": "Try space 7."}, "space 7 named"),
    ({"code": "covered", "rank": "A-9", "text": "Hide it in your square with a queen."}, "a square named"),
    ({"code": "needs-card", "text": "Jacks need a card under them."}, "a rank named"),
    ({"code": "needs-card", "text": "Lay a 7 there first."}, "a rank named"),
])
def test_the_advice_lint_wants_a_condition_on_what_is_named(entry: dict[str, object], caught: str) -> None:
    assert any(caught in problem for problem in text_lint.advice_lint(*parse_advice([entry])))


@pytest.mark.parametrize("entry", [
    {"code": "covered", "rank": "7", "text": "Look for a space 7 whose top card lies face down."},
    {"code": "covered", "space": 7, "rank": "A-9", "square": "their",
     "text": "Only a jack can hide the card on their space 7."},
    {"code": "covered", "card": "7S", "square": "your", "text": "The 7 of spades needs your space 7 open first."},
    {"code": "must-act", "text": "With the stock empty you still play or throw away a card every turn."},
])
def test_the_advice_lint_lets_conditioned_advice_through(entry: dict[str, object]) -> None:
    assert text_lint.advice_lint(*parse_advice([entry])) == []


OLD_TEXTS = [
    ("kings", "The king of spades hides the red 7. The bottom row and the left column become all spades "
              "(3 points each), and both diagonals are black with mixed suits (1 point each): 8 in all."),
    ("stock-runs-out", "Both hands are empty, so the hand is over and nobody went out. Your square is worth 12, "
                       "which scores 12 plus 5 bonus points: 17."),
    ("stock-runs-out", "The stock is empty and you hold two cards."),
    ("lines", "Play one card so that your square is worth at least 6 (it is worth 2 now)."),
    ("aces-to-nines", "Your black 7 now shows on their space 7, so their column 1-4-7 and their bottom row "
                      "cannot score in red while it lies there."),
    ("going-out", "You went out with a square worth 9: 9 plus 2 bonus points for the two points above 7, "
                  "minus 1 for going out, scores 10."),
    ("jacks", "Their square is still worth 6: the column 3-6-9 was never touched."),
]


@pytest.mark.parametrize(("key", "words"), OLD_TEXTS, ids=[f"{key}-{n}" for n, (key, _) in enumerate(OLD_TEXTS)])
def test_the_lint_catches_the_old_texts(key: str, words: str) -> None:
    assert lint(key, words)


def test_the_lint_lets_rules_cards_and_spaces_through() -> None:
    assert lint("x", "Put your 6 of diamonds on space 6. A 7 goes only on a space 7. The 1963 rules differ.") == []
    assert lint("x", "Count 1, 2, 3 along the top. The spaces carry the numbers 1 to 9. Cover your 7.") == []
    assert lint("x", "Your square is worth {your_value}; the goal asks for {target}.") == []
    assert lint("x", "A line of one suit is worth 3.") and lint("x", "Your row 1-2-3 scores.")


def test_every_placeholder_is_a_documented_engine_fact() -> None:
    documented = set(re.findall(r"^\| `\{(\w+)\}` \|", FORMAT.read_text(encoding="utf-8"), re.MULTILINE))
    assert documented == POSITION_FACTS | END_FACTS
    used = set()
    for path in FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        used |= {name for words in fixed_texts(data) for name in placeholders(words)}
    assert used <= POSITION_FACTS | END_FACTS
    assert len(used) >= 8, used


def _score(raw: int, went_out: bool, hand: Hand) -> int:
    rules = hand.rules
    return raw + max(0, raw - rules.bonus_threshold) - (rules.out_penalty if went_out else 0)


def _check_facts(lesson: Lesson, hand: Hand) -> None:
    """Each fact the lesson may name, recomputed here from the squares' lines and the rule set."""
    facts = lesson_facts(hand, lesson)
    values = [sum(line.points for line in scoring_lines(square, hand.rules)) for square in hand.squares]
    assert (facts["your_value"], facts["their_value"]) == tuple(values)
    rules = hand.rules
    assert (facts["out_threshold"], facts["bonus_threshold"], facts["out_penalty"], facts["suit_points"],
            facts["color_points"]) == (rules.out_threshold, rules.bonus_threshold, rules.out_penalty,
                                       rules.suit_points, rules.color_points)
    if lesson.target is not None:
        assert facts["target"] == lesson.target
    if lesson.played_space is not None:
        through = [line for line in LINES if lesson.played_space in line]
        assert all(rules.line_name(line) in str(facts["lines_through"]) for line in through)
        assert len(re.findall(r"\d-\d-\d", str(facts["lines_through"]))) == len(through)
    if hand.is_over:
        numbers = re.findall(r"\d+", str(facts["score"]))
        assert numbers[0] == str(values[0]) and numbers[-1] == str(_score(values[0], hand.went_out == 0, hand))
    else:
        assert "score" not in facts


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_the_facts_are_the_engines_at_every_step(lesson: Lesson) -> None:
    attempt = lesson.new_attempt()
    for move in lesson.solution[:12]:
        _check_facts(lesson, attempt.hand)
        for other in attempt.hand.legal_moves()[:20]:
            after = attempt.hand.copy()
            after.apply(other)
            _check_facts(lesson, after)
        feedback = attempt.try_move(move)
        assert "{" not in feedback.text
        if attempt.finished:
            _check_facts(lesson, attempt.hand)
            break


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_what_the_learner_reads_first_is_filled(lesson: Lesson) -> None:
    for words in (lesson.goal, *lesson.intro, lesson.new_attempt().hint().text):
        assert "{" not in words and "}" not in words


@pytest.mark.parametrize("path", [*FILES, *sorted((STAGES_DIR / "es").glob("*.json"))], ids=lambda path: path.stem)
def test_a_goal_names_no_fact_that_changes_as_the_stage_is_played(path: Path) -> None:
    """The goal is filled once, from the starting position, and stays beside the board all stage long (the goal's
    status below it says where the squares stand now): "(it is worth 2 now)" went stale at the first move."""
    goal = json.loads(path.read_text(encoding="utf-8"))["goal"]
    assert not placeholders(goal) & {"your_value", "their_value"}, goal


def _lesson_file(**changes: object) -> str:
    data = json.loads((STAGES_DIR / "05_kings.json").read_text(encoding="utf-8"))
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(("changes", "message"), [
    ({"goal": "Make it worth {their_score}."}, "not \\['their_score'\\]"),
    ({"success": "You scored {score}."}, "not \\['score'\\]"),  # the kings lesson's goals do not end the hand
    ({"hints": ["Look at {lines_through}."]}, "not \\['lines_through'\\]"),  # it has no 'played' goal
    ({"off track": "Worth {your_value:>3}."}, "plain name"),
    ({"after": ["A stray { brace."]}, "stray brace"),
])
def test_a_placeholder_the_engine_cannot_fill_stops_the_import(changes: dict[str, object], message: str) -> None:
    with pytest.raises(LessonFormatError, match=message):
        parse_lesson(_lesson_file(**changes))
