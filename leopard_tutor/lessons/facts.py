"""The facts a lesson text may name as `{placeholders}`, each computed by the engine for the position (and
the move) the text is said about. A lesson's fixed words state rules; whatever they say about the
position comes from here (FORMAT.md, "Facts in texts"); the placeholder system is the engine's
(`engine.facts`), shared with the worked examples.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine import Hand, Move, Square
from ..engine.facts import RULE_FACTS, VALUE_FACTS, lines_through, rule_facts, value_facts
from ..engine.narration import narrate, score_words
from .notation import LEARNER, OPPONENT

if TYPE_CHECKING:
    from .model import Lesson

POSITION_FACTS = (frozenset({"your_value", "their_value", "target", "lines_through"}) | RULE_FACTS
                  | VALUE_FACTS)
"""Facts of the position a text is said in (and of the lesson's goals): any text may name these."""
END_FACTS = frozenset({"score"})
"""Facts of a finished hand: for a success text whose goals end the hand."""


def lesson_facts(hand: Hand, lesson: Lesson) -> dict[str, object]:
    """Every fact a lesson text may name, for `hand` as it stands (the learner is player 0) in `lesson`.
    A fact that does not apply here is left out, so a text naming it fails to fill."""
    facts: dict[str, object] = {
        "your_value": hand.value(LEARNER), "their_value": hand.value(OPPONENT),
        **rule_facts(hand.rules), **value_facts(hand.rules),
    }
    if lesson.target is not None:
        facts["target"] = lesson.target
    if lesson.played_space is not None:
        facts["lines_through"] = lines_through(lesson.played_space, hand.rules)
    if hand.is_over:
        facts["score"] = score_words(hand.value(LEARNER), hand.went_out == LEARNER, hand.rules)
    return facts


def move_narration(hand: Hand, move: Move, before: Sequence[Square], passed: bool = False) -> str:
    """The engine's account of the learner's `move`, just made in `hand`, from the squares as the learner
    saw them `before` it: the card, what it covered, the lines formed or broken, the value before and after
    (an end of turn with nothing played is told as a pass, `passed`). Every reply to a legal move says it, so a
    lesson's own words need not."""
    return narrate(move, LEARNER, LEARNER, before, hand.view(LEARNER).squares, hand.rules,
                   went_out_value=hand.value(LEARNER), passed=passed).text
