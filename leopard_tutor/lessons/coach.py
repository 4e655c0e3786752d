"""A simple, deterministic player for lessons: the computer opponent of the guided hand and the source of its
hints. It looks one move ahead with the engine's own scoring and plays the first move a player who looks no further
prefers (`engine.gains.instinct_moves`, as the computer's instinct does, but among equals keeping a king and
blocking a space of the other square rather than discarding)."""

from __future__ import annotations

from ..engine import Hand, Move
from ..engine.gains import instinct_moves


def coach_move(hand: Hand) -> Move:
    """The move this player picks for whoever is to move: go out when that wins the hand now, otherwise the move
    that gains most, preferring to build on its own square, then a card laid on either square, then a discard (the
    first of equals, in the hand's order of legal moves)."""
    view = hand.view(hand.to_move)
    return instinct_moves(view, hand.legal_moves(), coach=True)[0]
