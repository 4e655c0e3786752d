"""The published worked examples (Abbott's, HowStuffWorks') as data (data/examples.json), as steps on real squares.

Every square, value and verdict is computed by the engine from the start square and the moves. The
file adds titles, introductions and captions whose fixed words state rules: whatever they say about a
position is a `{placeholder}` filled from facts the engine works out for that step (FORMAT.md); and it
adds the values the sources state, which the tests compare.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from ..engine import (
    Card,
    LeopardError,
    Play,
    RuleSet,
    ScoringLine,
    Square,
    Verdict,
    check_play,
    hand_score,
    rules_by_key,
    scoring_lines,
    square_value,
)
from ..engine.catalogue import DEFAULT_LANGUAGE, language, text
from ..engine.facts import (
    RULE_FACTS,
    SPACE_FACTS,
    SQUARE_FACTS,
    FactError,
    check_placeholders,
    fill,
    points_words,
    rule_facts,
    space_facts,
    square_facts,
)
from ..engine.narration import narrate
from ..engine.translated import overlay, read_words
from ..engine.view import seen_square

EXAMPLES_FILE = Path(__file__).parent / "data" / "examples.json"
TEXT_KEYS = frozenset({"title", "menu", "intro", "caption", "why"})
"""The entries of the examples file that hold words, the only ones a translation (`data/<lang>/`) gives."""

EXAMPLE_FACTS = frozenset({"start_points", "end_value", "end_points", "top_value", "end_score"}) | RULE_FACTS
"""Facts of a whole example (its steps' values), for its title and introduction."""
STEP_FACTS = (frozenset({"value_before", "value_after", "card", "the_card", "The_card", "move"}) | SQUARE_FACTS
              | SPACE_FACTS
              | RULE_FACTS)
"""Facts of one step, for its caption; each only where it applies (`step_facts`)."""
VIEWER = 0
"""The learner, who reads the examples: player 0, whose square is 'yours'."""


class ExampleFormatError(LeopardError):
    """The worked-examples file does not follow its format; the message says where."""


@dataclass(frozen=True)
class Step:
    """One step of a worked example: the square after it, its value, and what happened, in words.

    `card`/`space`/`by` name the card played (None for the opening picture); `refused` holds the
    engine's verdict when the step shows a move the rules forbid (the square is then unchanged);
    `stated` is the value the source itself gives, if it gives one; `expected` the value rules.md
    section C worked out for the reconstruction (the tests compare both with the engine's `value`).
    `follows` is the index of the step this one is played from (the one before it, or the earlier step a
    branch goes back to); None for the opening picture. `caption` is `template` filled from `facts`,
    what the engine works out for this step (`step_facts`)."""

    square: Square
    value: int
    caption: str
    rules: RuleSet
    template: str = ""
    facts: Mapping[str, object] = field(default_factory=dict)
    card: Card | None = None
    space: int | None = None
    by: str = ""
    refused: Verdict | None = None
    stated: int | None = None
    stated_with_bonus: int | None = None
    expected: int | None = None
    expected_with_bonus: int | None = None
    follows: int | None = None

    @property
    def with_bonus(self) -> int:
        """The score this square would make at the end of a hand (no going out): raw plus bonus."""
        return hand_score(self.value, False, self.rules)

    @property
    def lines(self) -> list[ScoringLine]:
        """The square's eight lines as the engine scores them (rows, columns, diagonals)."""
        return scoring_lines(self.square, self.rules)

    @property
    def scoring(self) -> list[ScoringLine]:
        """Only the lines that pay something."""
        return [line for line in self.lines if line.points]


@dataclass(frozen=True)
class WorkedExample:
    """One worked example: `key` "C1".."C8", the rule set its numbers follow, and its steps.

    `mirrored` is the same example under the other rule set (for C1-C6 the 1963 keypad picture, which
    is the 2008 one flipped top to bottom; for C8 the 2008 relabelling), or None. `title` and `intro`
    are filled from `facts` (`example_facts`); `menu` is the example's short name, whole in a phone's menu."""

    key: str
    title: str
    menu: str
    rules: RuleSet
    about: str
    intro: str
    steps: tuple[Step, ...]
    mirrored: WorkedExample | None = None
    facts: Mapping[str, object] = field(default_factory=dict)

    @property
    def own(self) -> bool:
        """Whether the square shown is the learner's own ('yours') rather than the opponent's."""
        return self.about == "yours"

    def seen(self, step: Step) -> Square:
        """The square of `step` as the learner knows it: a face-down card the other player laid is only known to be
        a jack (`engine.view.seen_square`)."""
        return seen_square(step.square, VIEWER if self.own else 1 - VIEWER, VIEWER)


@dataclass(frozen=True)
class MissingExample:
    """A worked example of the source that cannot be rebuilt, and why (the developers' record of the source's
    coverage: the app does not show it to a student)."""

    key: str
    title: str
    why: str


def load_examples(path: Path = EXAMPLES_FILE, lang: str = DEFAULT_LANGUAGE,
                  ) -> tuple[tuple[WorkedExample, ...], tuple[MissingExample, ...]]:
    """The worked examples and the examples that could not be reconstructed, in source order, with their
    words in `lang` (from `<lang>/<same name>` beside the file, where there is one; FORMAT.md, "Languages")."""
    try:
        data = overlay(json.loads(path.read_text(encoding="utf-8")), read_words(path, lang), TEXT_KEYS)
        examples = tuple(_example(item) for item in data["examples"])
        missing = tuple(MissingExample(item["key"], item["title"], item["why"]) for item in data["not reconstructed"])
    except ExampleFormatError as error:
        raise ExampleFormatError(f"{path.name}: {error}") from None
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise ExampleFormatError(f"{path.name}: {type(error).__name__}: {error}") from None
    return examples, missing


@cache
def examples_in(lang: str) -> tuple[tuple[WorkedExample, ...], tuple[MissingExample, ...]]:
    """The worked examples and those not reconstructed, with their words in `lang`, loaded once per language."""
    return load_examples(EXAMPLES_FILE, lang)


def current_examples() -> tuple[tuple[WorkedExample, ...], tuple[MissingExample, ...]]:
    """The worked examples in the language texts are read in now (`catalogue.language()`)."""
    return examples_in(language())


def _example(item: dict[str, Any]) -> WorkedExample:
    mirror = item.get("mirror")
    mirrored = None
    if mirror is not None:
        mirrored = _version(item["key"], mirror["title"], item["menu"], rules_by_key(mirror["rules"]), item["about"],
                            mirror["intro"], mirror.get("start", item["start"]), item["steps"], mirror=True)
    return replace(_version(item["key"], item["title"], item["menu"], rules_by_key(item["rules"]), item["about"],
                            item["intro"], item["start"], item["steps"], mirror=False), mirrored=mirrored)


def _version(key: str, title: str, menu: str, rules: RuleSet, about: str, intro: str, start: str,
             items: list[dict[str, Any]], mirror: bool) -> WorkedExample:
    """One example under one rule set, its title and introduction filled from the engine's facts (its short name for
    the menu, `menu`, is the same under either rule set)."""
    steps = _steps(key, start, items, rules, about, mirror)
    facts = example_facts(steps, rules)
    try:
        for where, template in (("title", title), ("intro", intro)):
            check_placeholders(template, frozenset(facts), f"{key} {where}")
    except FactError as error:
        raise ExampleFormatError(str(error)) from None
    return WorkedExample(key, fill(title, facts), menu, rules, about, fill(intro, facts), steps, facts=facts)


def example_facts(steps: Sequence[Step], rules: RuleSet) -> dict[str, object]:
    """The facts of a whole example (EXAMPLE_FACTS): the values of its first and last steps and the
    highest value of any step, the last one's score at the end of a hand, and the rule set's numbers."""
    start, end = steps[0].value, steps[-1].value
    return {"start_points": points_words(start), "end_value": end, "end_points": points_words(end),
            "top_value": max(step.value for step in steps), "end_score": hand_score(end, False, rules),
            **rule_facts(rules)}


def step_facts(before: Square, after: Square, rules: RuleSet, owner: int, *, play: Play | None = None,
               mover: int | None = None, card: Card | None = None, space: int | None = None) -> dict[str, object]:
    """The facts of one step from `before` to `after` on player `owner`'s square, seen by the learner
    (STEP_FACTS): the values before and after, the square's lines (`square_facts`), the facts of the
    `space` the step is about (`space_facts`), the `card` played or tried, and for a `play` made by
    `mover` the engine's narration of it, lines named by where they lie."""
    whose = text("narration.your" if owner == VIEWER else "narration.their")
    facts: dict[str, object] = {"value_before": square_value(before, rules), "value_after": square_value(after, rules),
                                **square_facts(after, rules, whose), **rule_facts(rules)}
    if space is not None:
        facts.update(space_facts(before, after, space, rules, whose))
    if card is not None:
        facts.update(card.facts("card"))
    if play is not None and mover is not None:
        seen = [[Square(), Square()], [Square(), Square()]]
        seen[0][owner], seen[1][owner] = seen_square(before, owner, VIEWER), seen_square(after, owner, VIEWER)
        facts["move"] = narrate(play, mover, VIEWER, seen[0], seen[1], rules, placed=True).text
    return facts


def _steps(key: str, start: str, items: list[dict[str, Any]], rules: RuleSet, about: str,
           mirror: bool) -> tuple[Step, ...]:
    if about not in ("yours", "theirs"):
        raise ExampleFormatError(f"'about' is 'yours' or 'theirs', not {about!r}")
    owner = VIEWER if about == "yours" else 1 - VIEWER
    squares: list[Square] = []
    steps = []
    for index, item in enumerate(items):
        follows = None if index == 0 else item.get("from", index - 1)
        if follows is not None and not (isinstance(follows, int) and 0 <= follows < index):
            raise ExampleFormatError(f"step {index}: 'from' names an earlier step, not {follows!r}")
        base = Square.parse(start) if follows is None else squares[follows]
        card = space = play = mover = None
        refused = None
        by = item.get("by", "")
        square = base
        if "play" in item or "try" in item:
            card = Card.parse(item.get("play") or item["try"])
            space = int(item["space"])
            if by not in ("you", "opponent"):
                raise ExampleFormatError(f"step {index}: 'by' is 'you' or 'opponent'")
            own = (by == "you") == (about == "yours")  # laid by the square's owner
            verdict = check_play(card, base, space, own=own)
            if verdict.legal != ("play" in item):
                raise ExampleFormatError(f"step {index}: the engine says: {verdict.reason}")
            if "play" in item:
                square = base.with_card(card, space, by_other=not own)
                play, mover = Play(card, owner, space), VIEWER if by == "you" else 1 - VIEWER
            else:
                refused = verdict
        elif "at" in item:
            space = item["at"]
            if not (isinstance(space, int) and not isinstance(space, bool) and 1 <= space <= 9):
                raise ExampleFormatError(f"step {index}: 'at' names a space 1 to 9, not {space!r}")
        squares.append(square)
        facts = step_facts(base, square, rules, owner, play=play, mover=mover, card=card, space=space)
        template = item["caption"]
        try:
            check_placeholders(template, frozenset(facts), f"{key} step {index} caption")
        except FactError as error:
            raise ExampleFormatError(str(error)) from None
        prefix = "mirror " if mirror else ""
        steps.append(Step(
            square=square, value=square_value(square, rules), caption=fill(template, facts), rules=rules,
            template=template, facts=facts, card=card, space=space if card is not None else None, by=by,
            refused=refused, stated=None if mirror else item.get("stated"),
            stated_with_bonus=None if mirror else item.get("stated with bonus"),
            expected=item.get(prefix + "value"), expected_with_bonus=item.get(prefix + "with bonus"),
            follows=follows))
    return tuple(steps)
