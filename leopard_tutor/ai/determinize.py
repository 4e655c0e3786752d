"""Deals of the hidden cards consistent with one player's view, as engine hands for search."""

from __future__ import annotations

import random

from ..engine import Card, Hand, Hidden, PlayerView, Square
from ..engine.square import Face


def sample_hand(view: PlayerView, rng: random.Random) -> Hand:
    """An engine hand matching everything `view` shows, with the unseen cards dealt at random.

    Face-down cards the viewer cannot name become unseen jacks or queens (jacks where only a jack
    is possible); the rest of the unseen cards fill the other hand and the stock.
    """
    pool = list(view.unseen())
    rng.shuffle(pool)
    squares = [_named(square, pool, jack_only=True) for square in view.squares]
    squares = [_named(square, pool, jack_only=False) for square in squares]
    other = view.opponent
    hands: list[list[Card]] = [[], []]
    hands[view.player] = list(view.hand)
    hands[other] = pool[:view.other_hand_size]
    stock = pool[view.other_hand_size:]
    return Hand(view.rules, squares, hands, stock, view.discards, view.to_move, view.dealer, view.plays_made)


def _named(square: Square, pool: list[Card], *, jack_only: bool) -> Square:
    """`square` with each hidden card of the given kind replaced by a matching card taken from `pool`."""
    piles: list[list[tuple[Face, bool, bool]]] = []
    for space in range(1, 10):
        pile: list[tuple[Face, bool, bool]] = []
        for (face, face_up), by_other in zip(square.pile(space), square.laid_by_other(space)):
            if isinstance(face, Hidden) and face.jack_only == jack_only:
                index = next(i for i, card in enumerate(pool) if card.rank in face.ranks)
                face = pool.pop(index)
            pile.append((face, face_up, by_other))
        piles.append(pile)
    return Square(piles)
