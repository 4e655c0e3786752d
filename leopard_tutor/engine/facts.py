"""Facts a text may name as `{placeholders}`, each worked out by the engine for the position it is said
about, and the placeholder system that fills them. Lesson files and worked examples share it: their fixed
words state rules; whatever they say about a position comes from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from string import Formatter

from .catalogue import and_list, or_list, text
from .errors import LeopardError
from .narration import place_name, placed_line_name, score_words
from .rules import LINES, RuleSet
from .scoring import ScoringLine, scoring_lines, square_value
from .square import Square
from .values import bonus_table, highest_value, impossible_values

RULE_FACTS = frozenset({"out_threshold", "bonus_threshold", "out_penalty", "suit_points", "color_points"})
"""Numbers of a rule set."""
VALUE_FACTS = frozenset({"max_value", "values_never_reached", "any_value_never_reached", "bonus_table"})
"""What a square can be worth under a rule set, and what each value scores (`value_facts`)."""
SQUARE_FACTS = frozenset({"scoring", "idle", "going_out", "score"})
"""Facts of one square as it stands (`square_facts`); `idle` only when some line scores nothing."""
SPACE_FACTS = frozenset({"space", "place", "lines_through", "idle_through", "under", "the_under",
                         "The_under"})
"""Facts of one space of a square (`space_facts`); `idle_through` and the `under` facts only when they apply."""


class FactError(LeopardError):
    """A placeholder a text may not use where it stands."""


def placeholders(template: str) -> set[str]:
    """The names of the `{placeholders}` in a text; FactError if one is not a plain name."""
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
        named = repr(sorted(unknown))
        named = named if len(named) <= 60 else f"{named[:60]}…"  # an error repeats little of the text it is about
        raise FactError(f"'{where}' may name only the facts the engine fills there, not {named}: {sorted(allowed)}")


def fill(template: str, facts: dict[str, object]) -> str:
    """A text with its placeholders filled from `facts`."""
    return template.format(**facts)


def rule_facts(rules: RuleSet) -> dict[str, object]:
    """The numbers of `rules` a text may name (RULE_FACTS)."""
    return {"out_threshold": rules.out_threshold, "bonus_threshold": rules.bonus_threshold,
            "out_penalty": rules.out_penalty, "suit_points": rules.suit_points, "color_points": rules.color_points}


def value_facts(rules: RuleSet) -> dict[str, object]:
    """What a square can be worth under `rules` (VALUE_FACTS): the most, the values below it that no square
    reaches, all of them ("17, 19, 21, 22 and 23") and as alternatives for a sentence that denies each ("none is
    worth 17, 19, 21, 22 or 23"), and the bonus table from the value needed to go out up to the
    most, each value no square reaches left out ("7 → 7 (6); 8 → 9 (8); ...": with the bonus, and in
    brackets for the player who went out)."""
    never = [str(value) for value in impossible_values(rules)]
    rows = [text("facts.bonus_table.row", raw=row.raw, score=row.score, out=row.went_out)
            for row in bonus_table(rules) if row.went_out is not None]
    none = text("facts.values_never_reached.none")
    return {"max_value": highest_value(rules),
            "values_never_reached": and_list(never) if never else none,
            "any_value_never_reached": or_list(never) if never else none,
            "bonus_table": text("facts.bonus_table.separator").join(rows)}


def points_words(count: int) -> str:
    """A number of points in words: '1 point', '8 points'."""
    return text("facts.points", count=count)


def lines_through(space: int, rules: RuleSet) -> str:
    """The lines through `space`, named with where `rules` draw them: 'the bottom row 7-8-9, the left
    column 1-4-7 and the diagonal 3-5-7'."""
    return and_list([text("facts.the_line", line=placed_line_name(line, rules)) for line in LINES if space in line])


def square_facts(square: Square, rules: RuleSet, whose: str) -> dict[str, object]:
    """The facts of `square` as it stands (SQUARE_FACTS), its owner called `whose` ('your', 'their'):
    the lines that score and what each pays, the lines that score nothing, whether its value is enough
    to go out, and its score at the end of a hand that nobody went out of, worked out."""
    lines = scoring_lines(square, rules)
    value = square_value(square, rules)
    facts: dict[str, object] = {
        "scoring": _scoring_words([line for line in lines if line.points], rules, whose),
        "going_out": text("facts.going_out." + ("enough" if value >= rules.out_threshold else "short"),
                          whose=whose, value=value, threshold=rules.out_threshold),
        "score": score_words(value, False, rules),
    }
    idle = [line for line in lines if not line.points]
    if idle:
        facts["idle"] = _idle_words(idle, rules, whose)
    return facts


def space_facts(before: Square, after: Square, space: int, rules: RuleSet, whose: str) -> dict[str, object]:
    """The facts of `space` (SPACE_FACTS) for a step from `before` to `after`: its label and where it is
    drawn, the lines through it, those of them that score nothing `after`, and the face-up card that lay
    on it `before` (if one did)."""
    facts: dict[str, object] = {"space": space, "place": place_name(space, rules),
                                "lines_through": lines_through(space, rules)}
    idle = [line for line in scoring_lines(after, rules) if space in line.spaces and not line.points]
    if idle:
        facts["idle_through"] = _idle_words(idle, rules, whose)
    under = before.showing(space)
    if under is not None:
        facts.update(under.facts("under"))
    return facts


def _scoring_words(lines: Sequence[ScoringLine], rules: RuleSet, whose: str) -> str:
    """The scoring lines in words, grouped by what they pay, best first."""
    if not lines:
        return text("facts.scoring.none", whose=whose)
    groups: dict[tuple[int, str | None], list[ScoringLine]] = {}
    for line in sorted(lines, key=lambda line: -line.points):
        groups.setdefault((line.points, line.kind), []).append(line)
    return text("facts.scoring.separator").join(
        text("facts.scoring.group", count=len(group), whose=whose, points=points,
             lines=and_list([placed_line_name(line.spaces, rules) for line in group]),
             kind=text(f"narration.kind_{kind}"))
        for (points, kind), group in groups.items())


def _idle_words(lines: Sequence[ScoringLine], rules: RuleSet, whose: str) -> str:
    return text("facts.idle", count=len(lines), whose=whose,
                lines=and_list([placed_line_name(line.spaces, rules) for line in lines]))
