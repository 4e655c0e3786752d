"""The rulebook's worked examples as data (data/examples.json) turned into steps on real squares.

Every square, value and verdict is computed by the engine from the start square and the moves;
the file only adds captions and the values the sources state, which the tests compare.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine import (
    Card,
    LeopardError,
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

EXAMPLES_FILE = Path(__file__).parent / "data" / "examples.json"


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
    branch goes back to); None for the opening picture."""

    square: Square
    value: int
    caption: str
    rules: RuleSet
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
    is the 2008 one flipped top to bottom; for C8 the 2008 relabelling), or None."""

    key: str
    title: str
    rules: RuleSet
    about: str
    intro: str
    steps: tuple[Step, ...]
    mirrored: WorkedExample | None = None

    @property
    def own(self) -> bool:
        """Whether the square shown is the learner's own ('yours') rather than the opponent's."""
        return self.about == "yours"


@dataclass(frozen=True)
class MissingExample:
    """A worked example of the source that cannot be rebuilt, and why."""

    key: str
    title: str
    why: str


def load_examples(path: Path = EXAMPLES_FILE) -> tuple[tuple[WorkedExample, ...], tuple[MissingExample, ...]]:
    """The worked examples and the examples that could not be reconstructed, in source order."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        examples = tuple(_example(item) for item in data["examples"])
        missing = tuple(MissingExample(item["key"], item["title"], item["why"]) for item in data["not reconstructed"])
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise ExampleFormatError(f"{path.name}: {type(error).__name__}: {error}") from None
    return examples, missing


def _example(item: dict[str, Any]) -> WorkedExample:
    rules = rules_by_key(item["rules"])
    mirror = item.get("mirror")
    mirrored = None
    if mirror is not None:
        other = rules_by_key(mirror["rules"])
        captions = {int(k): v for k, v in mirror.get("captions", {}).items()}
        mirrored = WorkedExample(
            item["key"], mirror["title"], other, item["about"], mirror["intro"],
            _steps(mirror.get("start", item["start"]), item["steps"], other, item["about"], captions, mirror=True))
    return WorkedExample(item["key"], item["title"], rules, item["about"], item["intro"],
                         _steps(item["start"], item["steps"], rules, item["about"], {}, mirror=False), mirrored)


def _steps(start: str, items: list[dict[str, Any]], rules: RuleSet, about: str, captions: dict[int, str],
           mirror: bool) -> tuple[Step, ...]:
    if about not in ("yours", "theirs"):
        raise ExampleFormatError(f"'about' is 'yours' or 'theirs', not {about!r}")
    squares: list[Square] = []
    steps = []
    for index, item in enumerate(items):
        follows = None if index == 0 else item.get("from", index - 1)
        if follows is not None and not (isinstance(follows, int) and 0 <= follows < index):
            raise ExampleFormatError(f"step {index}: 'from' names an earlier step, not {follows!r}")
        base = Square.parse(start) if follows is None else squares[follows]
        card = space = None
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
            else:
                refused = verdict
        squares.append(square)
        prefix = "mirror " if mirror else ""
        steps.append(Step(
            square=square, value=square_value(square, rules), caption=captions.get(index, item["caption"]),
            rules=rules, card=card, space=space, by=by, refused=refused,
            stated=None if mirror else item.get("stated"),
            stated_with_bonus=None if mirror else item.get("stated with bonus"),
            expected=item.get(prefix + "value"), expected_with_bonus=item.get(prefix + "with bonus"),
            follows=follows))
    return tuple(steps)
