"""A plain reference implementation of Leopard's rules, the yardstick for `engine_speed.py`.

Written the way one would first write the rules down, clearly and without tuning, and on its own:
it imports nothing from `leopard_tutor`, so a slip in the engine cannot hide in a shared helper.
Piles are lists, a square's value is recomputed from its eight lines whenever it is needed, and
the legal moves are found by trying every held card on every space of both squares against the
placement table. `engine_speed.py` and `tests/test_reference_engine.py` check that it agrees with
the engine on every legal move set and on the scores.

Cards are (rank, suit) pairs, ace 1 to king 13 and suits S, H, D, C. Moves are tuples:
("play", card, square_owner, space), ("discard", card), ("go out",) and ("end turn",).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

Card = tuple[int, str]
Move = tuple[Any, ...]  # its first item says which kind of move it is, and so what follows
Layer = tuple[Card, bool]  # a card in a pile and whether it lies face up

SUITS = "SHDC"
RED = "HD"
LINES = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7))
CARDS_DEALT = 8


@dataclass(frozen=True)
class Rules:
    """The numbers in which the three rule sets differ (the research notes' parameter summary)."""

    suit_points: int
    color_points: int
    out_threshold: int
    bonus_threshold: int
    out_penalty: int
    draws_per_turn: int
    multiple_plays: bool


RULES = {
    "REVISED_2008": Rules(3, 1, 7, 7, 1, draws_per_turn=1, multiple_plays=False),
    "ORIGINAL_1963": Rules(2, 1, 5, 5, 1, draws_per_turn=1, multiple_plays=False),
    "RUNNING_LEOPARD": Rules(3, 1, 7, 7, 1, draws_per_turn=2, multiple_plays=True),
}


@dataclass(frozen=True)
class Placement:
    """One row of the placement table."""

    own_only: bool  # only on the player's own square
    numbered: bool  # only on the space labelled with the card's number
    target: str  # what the top of the pile must be: "blank" (empty or face down), "card" (any card) or "any"
    face_up: bool  # how the card lands


PLACEMENT = {rank: Placement(own_only=False, numbered=True, target="blank", face_up=True) for rank in range(1, 10)}
PLACEMENT[10] = Placement(own_only=True, numbered=False, target="blank", face_up=True)
PLACEMENT[11] = Placement(own_only=False, numbered=False, target="card", face_up=False)
PLACEMENT[12] = Placement(own_only=True, numbered=False, target="card", face_up=False)
PLACEMENT[13] = Placement(own_only=True, numbered=False, target="any", face_up=True)


def can_play(card: Card, pile: list[Layer], space: int, own: bool) -> bool:
    """Whether `card` may go on `pile`, which lies on `space` of the player's own square or the other's."""
    placement = PLACEMENT[card[0]]
    if placement.own_only and not own:
        return False
    if placement.numbered and space != card[0]:
        return False
    if placement.target == "blank":
        return not pile or not pile[-1][1]
    if placement.target == "card":
        return bool(pile)
    return True


def square_value(square: list[list[Layer]], rules: Rules) -> int:
    """The raw value of a square: what its eight lines pay."""
    value = 0
    for line in LINES:
        tops = []
        for space in line:
            pile = square[space - 1]
            if pile and pile[-1][1]:
                tops.append(pile[-1][0])
        if len(tops) < 3:
            continue
        suits = {suit for _, suit in tops}
        if len(suits) == 1:
            value += rules.suit_points
        elif all(suit in RED for suit in suits) or not any(suit in RED for suit in suits):
            value += rules.color_points
    return value


class ReferenceHand:
    """One hand of Leopard from a seeded deal, with the same deal as `Hand.deal(rules, seed, dealer)`."""

    def __init__(self, rules_key: str, seed: int, dealer: int = 0) -> None:
        self.rules = RULES[rules_key]
        deck = [(rank, suit) for suit in SUITS for rank in range(1, 14) for _ in range(2)]
        random.Random(seed).shuffle(deck)
        first = 1 - dealer
        self.hands: list[list[Card]] = [[], []]
        self.hands[first] = deck[0:2 * CARDS_DEALT:2]
        self.hands[dealer] = deck[1:2 * CARDS_DEALT:2]
        self.stock = deck[2 * CARDS_DEALT:]  # drawn from the front
        self.discards: list[Card] = []
        self.squares: list[list[list[Layer]]] = [[[] for _ in range(9)], [[] for _ in range(9)]]
        self.to_move = first
        self.plays_made = 0
        self.went_out: int | None = None
        self.over = False
        self.draw(first)

    def draw(self, player: int) -> None:
        """The draw at the start of a turn: as many cards as the rules say, or what is left."""
        for _ in range(self.rules.draws_per_turn):
            if self.stock:
                self.hands[player].append(self.stock.pop(0))

    def legal_moves(self) -> list[Move]:
        """Every move the player to move may make now."""
        if self.over:
            return []
        me, other = self.to_move, 1 - self.to_move
        rules = self.rules
        hand = self.hands[me]
        moves: list[Move] = []
        if self.plays_made == 0 and square_value(self.squares[me], rules) >= rules.out_threshold:
            moves.append(("go out",))
        distinct: list[Card] = []
        for card in hand:
            if card in distinct:
                continue
            distinct.append(card)
            for owner in (me, other):
                for space in range(1, 10):
                    if can_play(card, self.squares[owner][space - 1], space, owner == me):
                        moves.append(("play", card, owner, space))
        if self.plays_made == 0:
            moves.extend(("discard", card) for card in distinct)
        if not hand or (self.plays_made and rules.multiple_plays):
            moves.append(("end turn",))
        return moves

    def apply(self, move: Move) -> None:
        """Make a move for the player to move; ValueError if the rules do not allow it."""
        me = self.to_move
        hand = self.hands[me]
        kind = move[0]
        if self.over:
            raise ValueError("the hand is over")
        if kind == "play":
            _, card, owner, space = move
            pile = self.squares[owner][space - 1]
            if card not in hand or not can_play(card, pile, space, owner == me):
                raise ValueError(f"illegal play {move}")
            hand.remove(card)
            pile.append((card, PLACEMENT[card[0]].face_up))
            self.plays_made += 1
            if not self.rules.multiple_plays:
                self.end_turn()
            elif self.all_played():
                self.over = True
        elif kind == "discard":
            card = move[1]
            if card not in hand or self.plays_made:
                raise ValueError(f"illegal discard {move}")
            hand.remove(card)
            self.discards.append(card)
            self.end_turn()
        elif kind == "go out":
            if self.plays_made or square_value(self.squares[me], self.rules) < self.rules.out_threshold:
                raise ValueError("going out is not allowed now")
            self.went_out = me
            self.over = True
        elif kind == "end turn":
            if hand and not (self.plays_made and self.rules.multiple_plays):
                raise ValueError("a player holding cards must play or discard")
            self.end_turn()
        else:
            raise ValueError(f"not a move: {move}")

    def all_played(self) -> bool:
        """Whether the stock and both hands are empty."""
        return not self.stock and not self.hands[0] and not self.hands[1]

    def end_turn(self) -> None:
        """Pass the turn, and the draw, to the other player, unless every card has been played."""
        if self.all_played():
            self.over = True
            return
        self.to_move = 1 - self.to_move
        self.plays_made = 0
        self.draw(self.to_move)

    def scores(self) -> tuple[int, int]:
        """Each player's score for the finished hand: raw value, plus the bonus, minus the going-out penalty."""
        rules = self.rules
        result = []
        for player in (0, 1):
            raw = square_value(self.squares[player], rules)
            penalty = rules.out_penalty if self.went_out == player else 0
            result.append(raw + max(0, raw - rules.bonus_threshold) - penalty)
        return (result[0], result[1])
