"""Randomness for computer players drawn only from their seed and what their view shows.

Two views that show the same thing give the same random stream, however the hidden cards
actually lie, so a player cannot be swayed by what it is not allowed to see.
"""

from __future__ import annotations

import hashlib
import random

from leopard_tutor.engine import Move, PlayerView


def public_key(view: PlayerView) -> str:
    """Everything the view shows, as text (own cards sorted, so their order in hand does not matter)."""
    return "|".join((
        view.rules.key, str(view.player), str(view.dealer), str(view.to_move), str(view.plays_made),
        " ".join(sorted(str(card) for card in view.hand)), str(view.squares[0]), str(view.squares[1]),
        " ".join(str(card) for card in view.discards), str(view.stock_size), str(view.hand_sizes),
        str(view.went_out), str(view.is_over),
    ))


def rng_for(seed: int, view: PlayerView, purpose: str = "") -> random.Random:
    """A random stream fixed by the player's seed and the view's public content."""
    digest = hashlib.sha256(f"{seed}|{purpose}|{public_key(view)}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def move_key(move: Move) -> str:
    """A fixed order for moves that does not depend on the order of the cards in hand."""
    return str(move)
