"""What a square is worth: its eight lines, its raw value, the bonus and a hand's score."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import LeopardError, quote
from .rules import LINES, ORIENTATIONS, REVISED_2008, Orientation, RuleSet, line_words
from .square import Square


@dataclass(frozen=True)
class ScoringLine:
    """One of a square's eight lines: its three space labels (its key), how it lies ('row', 'column' or
    'diagonal' as the rule set draws the square), what it shows, what it pays, and its name in words."""

    spaces: tuple[int, int, int]
    kind: str | None
    points: int
    orientation: Orientation

    @property
    def name(self) -> str:
        """The line's name in the current language: 'row 1-2-3', 'fila 1-2-3'."""
        return line_words(self.orientation, self.spaces)

    @property
    def scores(self) -> bool:
        """Whether the line pays anything."""
        return self.points > 0


def line_points(kind: str | None, rules: RuleSet = REVISED_2008) -> int:
    """What a line of this kind pays: one suit, one colour of mixed suits, or nothing."""
    return rules.suit_points if kind == "suit" else rules.color_points if kind == "color" else 0


def scoring_lines(square: Square, rules: RuleSet = REVISED_2008) -> list[ScoringLine]:
    """The square's eight lines (rows, then columns, then diagonals, as the rule set draws them)."""
    lines = []
    for index, spaces in enumerate(LINES):
        kind = square.line_kind(index)
        lines.append(ScoringLine(spaces, kind, line_points(kind, rules), rules.orientation(spaces)))
    lines.sort(key=lambda line: (ORIENTATIONS.index(line.orientation), min(rules.cell(s) for s in line.spaces)))
    return lines


def square_value(square: Square, rules: RuleSet = REVISED_2008) -> int:
    """The square's raw value: the sum of what its eight lines pay."""
    return square._suit_lines * rules.suit_points + square._color_lines * rules.color_points


def bonus(raw: int, rules: RuleSet = REVISED_2008) -> int:
    """The bonus on a raw value: one extra point for every point above the rule set's threshold."""
    return max(0, raw - rules.bonus_threshold)


def hand_score(raw: int, went_out: bool, rules: RuleSet = REVISED_2008) -> int:
    """A player's score for a hand: raw value, plus the bonus, minus the penalty if they went out."""
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 0:
        raise LeopardError(f"a raw value is a whole number of at least 0, not {quote(raw)}")
    return raw + bonus(raw, rules) - (rules.out_penalty if went_out else 0)


@dataclass(frozen=True)
class ScoreParts:
    """A hand's score for one player, part by part: the square's raw value, the bonus on it, the penalty for going
    out (0 if they did not) and the score, raw + bonus - penalty (`hand_score`)."""

    raw: int
    bonus: int
    penalty: int
    total: int


def score_parts(raw: int, went_out: bool, rules: RuleSet = REVISED_2008) -> ScoreParts:
    """A player's score for a hand, part by part, for a page that shows how it adds up; a `LeopardError` for a raw
    value that is not one."""
    total = hand_score(raw, went_out, rules)
    return ScoreParts(raw, bonus(raw, rules), rules.out_penalty if went_out else 0, total)
