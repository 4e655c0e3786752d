"""Which values a square can have under a rule set, found by going through every pattern of top cards.

A square's value depends only on what each of its nine spaces shows on top: nothing (an empty space or a
face-down card) or a face-up card of one of the four suits, so there are 5^9 patterns. `possible_values`
covers all of them: it decides the spaces in label order, and patterns whose lines so far stand alike
(a line that can no longer score counts as dead, whatever it holds) share the rest of the search. It
keeps one square for each way of scoring it finds; each value is the engine's own `square_value` of such
a square. The first call took about 0.06 s when measured (3,802 distinct states); the answers are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product

from .cards import SUITS, Card
from .rules import LINES, LINES_THROUGH, SPACES, RuleSet
from .scoring import hand_score, square_value
from .square import _KIND_TABLE, OPEN, Square

Partial = tuple[int, ...]
"""The suits already decided on one line, in increasing order; () for a line not begun or already counted,
_DEAD for one that can no longer score."""
Outcome = tuple[int, int]
"""How many one-suit lines and how many one-colour, mixed-suit lines a square has."""

_LAST = tuple(max(line) for line in LINES)  # the space that completes each line
_DEAD: Partial = (OPEN,)


def _kind(suits: Partial) -> int:
    """The engine's kind of a line showing these three tops: 2 one suit, 1 one colour, 0 nothing."""
    return _KIND_TABLE[(suits[0] * 5 + suits[1]) * 5 + suits[2]]


@cache
def _alive(partial: Partial) -> bool:
    """Whether some suits on the line's remaining spaces would make it score."""
    return any(_kind((*partial, *rest)) for rest in product(range(len(SUITS)), repeat=3 - len(partial)))


@cache
def _rest(space: int, partials: tuple[Partial, ...]) -> dict[Outcome, tuple[int, ...]]:
    """Every outcome the lines reach when spaces `space` to 9 take every top in turn, the lines so far being
    `partials`: one choice of tops (a suit index or OPEN for each space, in order) that reaches each."""
    if space > len(SPACES):
        return {(0, 0): ()}
    found: dict[Outcome, tuple[int, ...]] = {}
    for top in (*range(len(SUITS)), OPEN):
        lines = list(partials)
        suit_lines = color_lines = 0
        for line in LINES_THROUGH[space]:
            so_far = tuple(sorted((*lines[line], top)))
            if OPEN in so_far or not _alive(so_far):
                so_far = _DEAD
            if space == _LAST[line]:
                kind = 0 if so_far == _DEAD else _kind(so_far)
                suit_lines += kind == 2
                color_lines += kind == 1
                so_far = ()
            lines[line] = so_far
        for (suits, colors), tops in _rest(space + 1, tuple(lines)).items():
            found.setdefault((suits + suit_lines, colors + color_lines), (top, *tops))
    return found


def _square(tops: tuple[int, ...]) -> Square:
    """A square showing these tops: on each space a face-up card of that suit, or nothing for OPEN."""
    return Square.parse(" ".join("." if top == OPEN else str(Card(space, SUITS[top]))
                                 for space, top in zip(SPACES, tops)))


@cache
def possible_values(rules: RuleSet) -> frozenset[int]:
    """Every raw value some square can have under `rules` (every pattern of top cards is covered)."""
    return frozenset(square_value(_square(tops), rules) for tops in _rest(1, ((),) * len(LINES)).values())


def highest_value(rules: RuleSet) -> int:
    """The most a square can be worth under `rules`."""
    return max(possible_values(rules))


def impossible_values(rules: RuleSet) -> tuple[int, ...]:
    """The values from 0 to the highest that no square can have under `rules`, in increasing order."""
    possible = possible_values(rules)
    return tuple(value for value in range(highest_value(rules)) if value not in possible)


@dataclass(frozen=True)
class BonusRow:
    """What a square worth `raw` scores at the end of a hand: `score` with the bonus, and `went_out` for the
    player who went out (None where the value is too low to go out)."""

    raw: int
    score: int
    went_out: int | None


def bonus_table(rules: RuleSet) -> tuple[BonusRow, ...]:
    """The score of every value a square can have under `rules`, lowest value first."""
    return tuple(BonusRow(raw, hand_score(raw, False, rules),
                          hand_score(raw, True, rules) if raw >= rules.out_threshold else None)
                 for raw in sorted(possible_values(rules)))
