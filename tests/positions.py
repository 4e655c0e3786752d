"""Prepared positions shared by the tests of the computer players and hints."""

from __future__ import annotations

import random
from collections import Counter

from leopard_tutor.engine import REVISED_2008, Card, Hand, RuleSet, Square, full_deck


def c(text: str) -> Card:
    """A card from its notation."""
    return Card.parse(text)


def prepared(mine: str, theirs: str, my_cards: str, their_cards: str, stock_size: int = 40,
             rules: RuleSet = REVISED_2008) -> Hand:
    """Player 0 to move with the given squares and cards; the stock is the rest, in a fixed order."""
    squares = [Square.parse(mine), Square.parse(theirs)]
    hands = [[c(t) for t in my_cards.split()], [c(t) for t in their_cards.split()]]
    used = Counter(hands[0]) + Counter(hands[1]) + Counter(squares[0].cards()) + Counter(squares[1].cards())
    rest = list((Counter(full_deck()) - used).elements())
    random.Random(0).shuffle(rest)
    return Hand(rules, squares, hands, rest[:stock_size], rest[stock_size:], 0, 1)


def random_hand(rules: RuleSet, seed: int, most_moves: int = 100) -> Hand:
    """A seeded hand after a random number (below `most_moves`) of random legal moves, still in play."""
    rng = random.Random(seed)
    hand = Hand.deal(rules, seed=seed)
    for _ in range(rng.randrange(0, most_moves)):
        hand.apply(rng.choice(hand.legal_moves()))
        if hand.is_over:
            hand.undo()
            break
    return hand
