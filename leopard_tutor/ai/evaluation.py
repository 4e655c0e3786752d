"""The evaluation shared by the intermediate and expert players and by the hints.

It estimates each square's final raw value from what its owner's side can know: the lines that
already score, the lines that could still be completed (and by which cards, counted among the
unseen ones and the cards in hand), and the damage a jack could do to lines that score. The
result is the expected difference of final scores, bonus included, seen by the position's player,
with the player to move allowed to go out when that is better for them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import exp

from ..engine import LINES, Card, Square, hand_score, square_value
from ..engine.legality import may_go_out
from .position import Position

# Patterns a line can be completed in: one suit (spades, hearts, diamonds, clubs), then one colour.
PATTERNS: tuple[tuple[int, ...], ...] = ((0,), (1,), (2,), (3,), (1, 2), (0, 3))
COLORS = ((4, 1, 2), (5, 0, 3))  # (colour pattern, its two suit patterns): red, black
OPEN_CODES = tuple(tuple(tuple(suit * 13 + rank - 1 for suit in suits for rank in (space, 10, 13))
                         for space in range(10)) for suits in PATTERNS)
EXACT_CODES = tuple(tuple(tuple(suit * 13 + space - 1 for suit in suits) for space in range(10)) for suits in PATTERNS)
KING_CODES = tuple(tuple(suit * 13 + 12 for suit in suits) for suits in PATTERNS)
JACK_CODES = tuple(suit * 13 + 10 for suit in range(4))



@dataclass(frozen=True)
class Weights:
    """The evaluation's judgement calls, as numbers."""

    held_fill: float = 0.55  # chance the owner gets a held card of the space's number onto it in time
    held_wild: float = 0.45  # the same for a held ten or king, which can fill only one of the spaces it fits
    draw_fill: float = 0.6  # ceiling on the chance for a card still to be drawn (the other side may spoil)
    cover_share: float = 0.6  # a wrong face-up card can be replaced only by a king (or a queen and another card)
    jack_damage: float = 0.4  # share of the most exposed space's points a jack is expected to take
    horizon: float = 10.0  # turns each player is expected to get before the hand ends, at most
    out_margin: float = 0.0  # how much better going out must look before the mover takes it


DEFAULT_WEIGHTS = Weights()


def _chance(codes: tuple[int, ...], exact: tuple[int, ...], held: list[int] | None, unseen: list[float],
            rate: float, weights: Weights) -> float:
    if held is not None:
        for code in exact:
            if held[code]:
                return weights.held_fill
        for code in codes:
            if held[code]:
                return weights.held_wild
    if rate <= 0:
        return 0.0
    fits = 0.0
    for code in codes:
        fits += unseen[code]
    return weights.draw_fill * (1.0 - exp(-fits * rate))


Memo = dict[tuple[object, ...], float]
Judge = Callable[[Position, Memo | None], float]
"""A value of a position for its player (expected final score difference), given a memo to share between calls."""


def expected_raw(pos: Position, owner: int, weights: Weights = DEFAULT_WEIGHTS, memo: Memo | None = None) -> float:
    """The estimated final raw value of `owner`'s square, as `pos.me` can judge it.

    `memo` may keep results between calls that share the same unseen counts and weights.
    """
    square = pos.squares[owner]
    tops = [square.showing(space) for space in range(1, 10)]
    mine = owner == pos.me
    key: tuple[object, ...] = ()
    if memo is not None:
        held_key = (tuple(sorted(card.code for card in pos.hand)) if mine
                    else any(card.rank == 11 for card in pos.hand))
        key = (mine, tuple(-1 if top is None else top.suit_index for top in tops),
               pos.stock_size, pos.other_hand_size, held_key)
        found = memo.get(key)
        if found is not None:
            return found
    result = _expected_raw(pos, square, tops, mine, weights)
    if memo is not None:
        memo[key] = result
    return result


def _expected_raw(pos: Position, square: Square, tops: list[Card | None], mine: bool, weights: Weights) -> float:
    rules = pos.rules
    suit_points, color_points = rules.suit_points, rules.color_points
    unseen = pos.unseen
    draws = min(pos.stock_size / 2, weights.horizon)
    rate = (draws + (0 if mine else pos.other_hand_size)) / pos.unseen_total
    held: list[int] | None = None
    if mine:
        held = [0] * 52
        for card in pos.hand:
            held[card.code] += 1
    # factor[p][space]: chance that `space` ends up showing a card of pattern p
    factors: list[list[float]] = []
    for p in range(6):
        suits = PATTERNS[p]
        cover = -1.0
        row = [1.0] * 10
        open_codes = OPEN_CODES[p]
        exact_codes = EXACT_CODES[p]
        for space in range(1, 10):
            top = tops[space - 1]
            if top is None:
                row[space] = _chance(open_codes[space], exact_codes[space], held, unseen, rate, weights)
            elif top.suit_index not in suits:
                if cover < 0:
                    cover = weights.cover_share * _chance(KING_CODES[p], (), held, unseen, rate, weights)
                row[space] = cover
        factors.append(row)
    value = 0
    potential = 0.0
    exposure = [0] * 10
    for index, (a, b, c) in enumerate(LINES):
        kind = square.line_kind(index)
        if kind is not None:
            pts = suit_points if kind == "suit" else color_points
            value += pts
            exposure[a] += pts
            exposure[b] += pts
            exposure[c] += pts
            continue
        if tops[a - 1] is not None and tops[b - 1] is not None and tops[c - 1] is not None:
            continue  # complete and mixed: only a king or a cover could mend it, counted nowhere
        best = 0.0
        for color, first, second in COLORS:
            row = factors[color]
            in_color = row[a] * row[b] * row[c]
            if in_color < 1e-3:
                continue
            row = factors[first]
            one_suit = row[a] * row[b] * row[c]
            row = factors[second]
            one_suit = max(one_suit, row[a] * row[b] * row[c])
            worth = suit_points * one_suit + color_points * max(0.0, in_color - one_suit)
            if worth > best:
                best = worth
        potential += best
    if not value:
        return potential
    jacks = 0.0
    for code in JACK_CODES:
        jacks += unseen[code]
    total = pos.unseen_total
    if mine:
        jack_chance = 1.0 - exp(-jacks * (pos.other_hand_size + draws) / total)
    elif any(card.rank == 11 for card in pos.hand):
        jack_chance = 1.0
    else:
        jack_chance = 1.0 - exp(-jacks * draws / total)
    return value + potential - weights.jack_damage * jack_chance * max(exposure)


def final_score(raw: float, bonus_threshold: int) -> float:
    """A hand's score for an estimated raw value (no going-out penalty)."""
    return raw + max(0.0, raw - bonus_threshold)


def evaluate(pos: Position, weights: Weights = DEFAULT_WEIGHTS, memo: Memo | None = None) -> float:
    """Expected (my final score − theirs) for `pos.me`, letting the player to move go out if it pays them.

    `memo` may keep square estimates between calls that share the same unseen counts and weights.
    """
    rules = pos.rules
    me, other = pos.me, 1 - pos.me
    if pos.over:
        return float(hand_score(square_value(pos.squares[me], rules), pos.went_out == me, rules)
                     - hand_score(square_value(pos.squares[other], rules), pos.went_out == other, rules))
    carry_on = (final_score(expected_raw(pos, me, weights, memo), rules.bonus_threshold)
                - final_score(expected_raw(pos, other, weights, memo), rules.bonus_threshold))
    mover = pos.to_move
    if pos.plays_made == 0:  # (the value is worked out only where going out may be allowed)
        mover_value = square_value(pos.squares[mover], rules)
        if may_go_out(rules, pos.plays_made, mover_value):
            out = (hand_score(mover_value, True, rules)
                   - hand_score(square_value(pos.squares[1 - mover], rules), False, rules) - weights.out_margin)
            return max(carry_on, out) if mover == me else min(carry_on, -out)
    return carry_on


def hand_tuned(pos: Position, memo: Memo | None = None) -> float:
    """`evaluate` with the default weights: the judge of the intermediate and expert levels."""
    return evaluate(pos, DEFAULT_WEIGHTS, memo)
