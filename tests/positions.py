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


def blocking_eight() -> Hand:
    """The position of a reported review (2008 rules): their column 2-5-8 holds the 2 and 5 of diamonds and their row
    7-8-9 the 10 and 9 of spades, both with space 8 open, each one card from a line of one suit (3 points); the 8 of
    hearts there makes the column a line of one colour (1 point) and takes the space both lines needed."""
    return prepared("AS . . / 4C . . / . . .", ". 2D . / . 5D . / 10S . 9S", "8H 3C 6C 7D 4D KC 2C 6H", "5C")
