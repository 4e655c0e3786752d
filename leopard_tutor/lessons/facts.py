"""The facts a lesson text may name as `{placeholders}`, each computed by the engine for the position (and
the move) the text is said about. A lesson's fixed words state rules; whatever they say about the
position comes from here (FORMAT.md, "Facts in texts").
"""

from __future__ import annotations

from collections.abc import Sequence
from string import Formatter
from typing import TYPE_CHECKING

from ..engine import LINES, Hand, LeopardError, Move, Square
from ..engine.catalogue import and_list, text
from ..engine.narration import narrate, score_words
from .notation import LEARNER, OPPONENT

if TYPE_CHECKING:
    from .model import Lesson

RULE_FACTS = frozenset({"out_threshold", "bonus_threshold", "out_penalty", "suit_points", "color_points"})
"""Numbers of the lesson's rule set."""
POSITION_FACTS = frozenset({"your_value", "their_value", "your_cards", "target", "lines_through"}) | RULE_FACTS
"""Facts of the position a text is said in (and of the lesson's goals): any text may name these."""
END_FACTS = frozenset({"score"})
"""Facts of a finished hand: for a success text whose goals end the hand."""


class FactError(LeopardError):
    """A placeholder a lesson text may not use where it stands."""


def placeholders(template: str) -> set[str]:
    """The names of the `{placeholders}` in a lesson text; FactError if one is not a plain name."""
    try:
        fields = [(name, spec, conversion) for _, name, spec, conversion in Formatter().parse(template)
                  if name is not None]
    except ValueError as error:
        raise FactError(f"a text has a stray brace: {error}") from None
    for name, spec, conversion in fields:
        if not name.isidentifier() or spec or conversion:
            raise FactError(f"a placeholder is a plain name such as {{your_value}}, not {{{name}}}")
    return {name for name, _, _ in fields}


def check_placeholders(template: str, allowed: frozenset[str], where: str) -> None:
    """FactError unless every placeholder of `template` is one of the `allowed` facts."""
    unknown = placeholders(template) - allowed
    if unknown:
        raise FactError(f"'{where}' may name the facts {sorted(allowed)}, not {sorted(unknown)}")


def lesson_facts(hand: Hand, lesson: Lesson) -> dict[str, object]:
    """Every fact a lesson text may name, for `hand` as it stands (the learner is player 0) in `lesson`.
    A fact that does not apply here is left out, so a text naming it fails to fill."""
    rules = hand.rules
    facts: dict[str, object] = {
        "your_value": hand.value(LEARNER), "their_value": hand.value(OPPONENT),
        "your_cards": text("lessons.facts.cards", count=len(hand.hands[LEARNER])),
        "out_threshold": rules.out_threshold, "bonus_threshold": rules.bonus_threshold,
        "out_penalty": rules.out_penalty, "suit_points": rules.suit_points, "color_points": rules.color_points,
    }
    if lesson.target is not None:
        facts["target"] = lesson.target
    if lesson.played_space is not None:
        space = lesson.played_space
        facts["lines_through"] = and_list([rules.line_name(line) for line in LINES if space in line])
    if hand.is_over:
        facts["score"] = score_words(hand.value(LEARNER), hand.went_out == LEARNER, rules)
    return facts


def move_narration(hand: Hand, move: Move, before: Sequence[Square]) -> str:
    """The engine's account of the learner's `move`, just made in `hand`, from the squares as the learner
    saw them `before` it: the card, what it covered, the lines formed or broken, the value before and after.
    Every reply to a legal move says it, so a lesson's own words need not."""
    return narrate(move, LEARNER, LEARNER, before, hand.view(LEARNER).squares, hand.rules,
                   went_out_value=hand.value(LEARNER)).text


def fill(template: str, facts: dict[str, object]) -> str:
    """A lesson text with its placeholders filled from `facts`."""
    return template.format(**facts)
