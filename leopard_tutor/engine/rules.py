"""The three rule sets as data: line points, thresholds, draws, layout of the labelled spaces."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Literal

from .catalogue import text
from .errors import LeopardError, quote

SPACES = range(1, 10)
MAX_HANDS = 20  # hands in a match
Orientation = Literal["row", "column", "diagonal"]
"""How a line lies as a rule set draws the square."""
ORIENTATIONS: tuple[Orientation, ...] = ("row", "column", "diagonal")  # the order a square's lines are listed in

# Every line as a set of labels. These triples are the same in both layouts: the 1963 keypad is
# the 2008 reading order flipped top to bottom, which maps rows, columns and diagonals onto each other.
ROWS = tuple((first, first + 1, first + 2) for first in (1, 4, 7))
COLUMNS = tuple((top, top + 3, top + 6) for top in (1, 2, 3))
LINES: tuple[tuple[int, int, int], ...] = (*ROWS, *COLUMNS, (1, 5, 9), (3, 5, 7))
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, line in enumerate(LINES) if space in line) for space in range(10)
)


@dataclass(frozen=True)
class RuleSet:
    """One variant of Leopard: every number and switch in which the rule sets differ."""

    key: str
    title: str
    year: str
    suit_points: int
    color_points: int
    out_threshold: int
    bonus_threshold: int
    out_penalty: int
    keypad_layout: bool
    draws_per_turn: int
    multiple_plays: bool
    hands_per_match: int = 4

    def cell(self, space: int) -> tuple[int, int]:
        """Where the space with this label is drawn: (row, column) from the top-left, 0-based."""
        if not isinstance(space, int) or not 1 <= space <= 9:
            raise LeopardError(f"spaces are numbered 1 to 9, not {quote(space)}")
        row, column = divmod(space - 1, 3)
        return (2 - row if self.keypad_layout else row, column)

    def space_at(self, row: int, column: int) -> int:
        """The label of the space drawn at (row, column) from the top-left, 0-based."""
        if not (0 <= row <= 2 and 0 <= column <= 2):
            raise LeopardError(f"a square has rows and columns 0 to 2, not ({row}, {column})")
        return 3 * (2 - row if self.keypad_layout else row) + column + 1

    @property
    def grid(self) -> tuple[tuple[int, int, int], ...]:
        """The labels as drawn, top row first."""
        rows = tuple(tuple(self.space_at(r, c) for c in range(3)) for r in range(3))
        return rows  # type: ignore[return-value]

    def orientation(self, spaces: tuple[int, int, int]) -> Orientation:
        """How a line lies as this rule set draws the square: 'row', 'column' or 'diagonal'."""
        cells = [self.cell(s) for s in spaces]
        return ("row" if len({r for r, _ in cells}) == 1
                else "column" if len({c for _, c in cells}) == 1 else "diagonal")

    def line_name(self, spaces: tuple[int, int, int]) -> str:
        """'row 1-2-3', 'column 3-6-9' or 'diagonal 3-5-7' (labels in increasing order), in the current
        language ('fila 1-2-3')."""
        return line_words(self.orientation(spaces), spaces)

    def __str__(self) -> str:
        """The rule set's name in the current language (`rules.<key>`); a rule set the catalogue does not name
        (one read from a saved game) by its own title."""
        try:
            return text(f"rules.{self.key}")
        except KeyError:
            return self.title

    def to_data(self) -> dict[str, object]:
        """Every setting of the rule set, as JSON-ready data (what a saved game keeps)."""
        return asdict(self)

    @classmethod
    def from_data(cls, data: object) -> RuleSet:
        """The rule set saved by `to_data` (or named by its key, as older saves did); LeopardError if invalid."""
        if isinstance(data, str):
            return rules_by_key(data)
        if not isinstance(data, dict):
            raise LeopardError("the rules must be saved as an object of settings or a rule set's key")
        settings: dict[str, object] = {}
        for field in fields(cls):
            value = data.get(field.name)
            kind = _SETTING_KINDS[field.name]
            if kind is str:
                ok = isinstance(value, str) and 0 < len(value) <= 40
            elif kind is bool:
                ok = isinstance(value, bool)
            elif isinstance(kind, tuple):
                low, high = kind
                ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
            else:
                raise AssertionError(kind)
            if not ok:
                raise LeopardError(f"the rule setting {quote(field.name)} is missing or out of range")
            settings[field.name] = value
        if set(data) - set(settings):
            raise LeopardError("the rules hold a setting this version does not know")
        rules = cls(**settings)  # type: ignore[arg-type]
        return next((known for known in RULE_SETS.values() if known == rules), rules)


_SETTING_KINDS: dict[str, type | tuple[int, int]] = {
    "key": str, "title": str, "year": str, "suit_points": (0, 24), "color_points": (0, 24),
    "out_threshold": (0, 200), "bonus_threshold": (0, 200), "out_penalty": (0, 200),
    "keypad_layout": bool, "draws_per_turn": (1, 2), "multiple_plays": bool, "hands_per_match": (1, MAX_HANDS),
}


REVISED_2008 = RuleSet(
    key="REVISED_2008", title="Revised rules (2008)", year="2008",
    suit_points=3, color_points=1, out_threshold=7, bonus_threshold=7, out_penalty=1,
    keypad_layout=False, draws_per_turn=1, multiple_plays=False,
)
ORIGINAL_1963 = RuleSet(
    key="ORIGINAL_1963", title="Original rules (1963)", year="1963",
    suit_points=2, color_points=1, out_threshold=5, bonus_threshold=5, out_penalty=1,
    keypad_layout=True, draws_per_turn=1, multiple_plays=False,
)
RUNNING_LEOPARD = RuleSet(
    key="RUNNING_LEOPARD", title="Running Leopard", year="2008",
    suit_points=3, color_points=1, out_threshold=7, bonus_threshold=7, out_penalty=1,
    keypad_layout=False, draws_per_turn=2, multiple_plays=True,
)

RULE_SETS: dict[str, RuleSet] = {r.key: r for r in (REVISED_2008, ORIGINAL_1963, RUNNING_LEOPARD)}
INFERRED: dict[str, frozenset[str]] = {ORIGINAL_1963.key: frozenset({"out_penalty"})}
"""The settings of a rule set (by its key) that no source states and our rulings infer: going out costs a point in
1963 as in 2008, since Abbott's list of what he changed in 2008 does not name it (ruling B-5)."""
LINK_WORDS = {REVISED_2008.key: "2008", ORIGINAL_1963.key: "1963", RUNNING_LEOPARD.key: "running"}
"""How a link names each rule set of `RULE_SETS` (`?rules=1963`); a link may give its key too."""


def line_words(orientation: Orientation, spaces: tuple[int, int, int]) -> str:
    """A line that lies as `orientation` named by its labels in increasing order, in the current language."""
    return text(f"words.line.{orientation}", labels="-".join(str(s) for s in sorted(spaces)))


def rules_by_key(key: str) -> RuleSet:
    """The rule set with this key ('REVISED_2008', 'ORIGINAL_1963' or 'RUNNING_LEOPARD')."""
    try:
        return RULE_SETS[key]
    except (KeyError, TypeError):
        raise LeopardError(f"unknown rule set {quote(key)}: choose one of {', '.join(RULE_SETS)}") from None
