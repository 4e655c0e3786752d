"""A simple, deterministic player for lessons: the computer opponent of the guided hand and the
source of its hints. It looks one move ahead with the engine's own scoring."""

from __future__ import annotations

from ..engine import Discard, GoOut, Hand, Move, Play, hand_score, square_value


def square_changes(hand: Hand, move: Move) -> tuple[int, int]:
    """How much `move` changes the value of the mover's own square and of the opponent's, in that order (only a
    play changes a square, and only the one it is played on)."""
    if not isinstance(move, Play):
        return (0, 0)
    square = hand.squares[move.square_owner]
    change = square_value(square.with_card(move.card, move.space), hand.rules) - square_value(square, hand.rules)
    return (change, 0) if move.square_owner == hand.to_move else (0, change)


def move_gain(hand: Hand, move: Move) -> int:
    """How much `move` changes (own square value − opponent's square value) for the player to move."""
    own, theirs = square_changes(hand, move)
    return own - theirs


def coach_move(hand: Hand) -> Move:
    """The move this player picks for whoever is to move: go out when that wins the hand now,
    otherwise the play that gains most, preferring to build on its own square, else a discard."""
    me = hand.to_move
    moves = hand.legal_moves()
    rules = hand.rules
    if GoOut() in moves:
        mine = hand_score(hand.value(me), True, rules)
        theirs = hand_score(hand.value(1 - me), False, rules)
        if mine > theirs:
            return GoOut()

    def preference(move: Move) -> tuple[int, int, int]:
        builds = isinstance(move, Play) and move.square_owner == me and move.card.rank <= 10
        spends = isinstance(move, Discard) and move.card.rank >= 11
        return (move_gain(hand, move), int(builds), -int(spends))

    choices = [m for m in moves if not isinstance(m, GoOut)]
    return max(choices, key=preference)
