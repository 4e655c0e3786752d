"""Which raw values a square can have at all: worked out by going through every pattern of top cards.

Only the top card of each space counts, and only whether it is blank-like (empty or face down) or shows
one of the four suits, so a square is one of 5^9 patterns. What it is worth depends only on how many of
its lines are of one suit and how many of one colour with mixed suits; those pairs of counts are the
same under every rule set, so they are found once and priced per rule set.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from .rules import LINES, RuleSet

_SUITS = range(4)  # 0 and 1 red, 2 and 3 black: a suit's colour is suit // 2


def _canonical_masks() -> list[tuple[int, ...]]:
    """One set of showing spaces (0-based) from each class the square's eight symmetries make: turning or
    mirroring a square maps lines onto lines, so it keeps the counts of each kind of line."""
    grid = [(r, c) for r in range(3) for c in range(3)]
    maps = []
    for turn in range(4):
        for mirror in (False, True):
            def move(cell: tuple[int, int], turn: int = turn, mirror: bool = mirror) -> tuple[int, int]:
                r, c = cell
                for _ in range(turn):
                    r, c = c, 2 - r
                return (r, 2 - c) if mirror else (r, c)
            maps.append([grid.index(move(cell)) for cell in grid])
    chosen = []
    for bits in range(1, 1 << 9):
        showing = frozenset(i for i in range(9) if bits >> i & 1)
        images = [sum(1 << m[i] for i in showing) for m in maps]
        if bits == min(images):
            chosen.append(tuple(sorted(showing)))
    return chosen


@cache
def line_counts() -> frozenset[tuple[int, int]]:
    """Every (lines of one suit, lines of one colour with mixed suits) some square has, the empty one too."""
    lines = [tuple(space - 1 for space in line) for line in LINES]
    found = {(0, 0)}
    for showing in _canonical_masks():
        complete = [line for line in lines if all(space in showing for space in line)]
        if not complete:
            continue
        first, rest = showing[0], showing[1:]
        # Swapping the suits of a colour, or the two colours, keeps every count: the first card is a heart.
        for suits in product(_SUITS, repeat=len(rest)):
            suit = dict(zip(rest, suits))
            suit[first] = 0
            one_suit = one_colour = 0
            for a, b, c in complete:
                if suit[a] == suit[b] == suit[c]:
                    one_suit += 1
                elif suit[a] // 2 == suit[b] // 2 == suit[c] // 2:
                    one_colour += 1
            found.add((one_suit, one_colour))
    return frozenset(found)


@cache
def possible_values(rules: RuleSet) -> frozenset[int]:
    """Every raw value some square can have under `rules` (0 included), by going through every pattern of
    top cards: blank-like or one of the four suits on each of the nine spaces."""
    return frozenset(suit * rules.suit_points + colour * rules.color_points for suit, colour in line_counts())
