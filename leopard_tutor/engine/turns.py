"""The one turn runner: a player other than the learner moves until their turn is over.

The Play section's computer opponent and a lesson's scripted or coached opponent both answer the
learner this way; only how each move is chosen (and, for Play, how it is told) differs.
"""

from __future__ import annotations

from collections.abc import Callable

from .hand import Hand
from .moves import Move

MAX_MOVES_IN_A_TURN = 64  # far more than any turn needs: a Running Leopard turn plays at most a hand of cards


class TurnError(RuntimeError):
    """A chooser picked a move the rules do not allow, or never ended its turn: a fault in the program."""


def play_turn(hand: Hand, player: int, choose: Callable[[], Move],
              make: Callable[[Move], object] | None = None) -> list[Move]:
    """Let `player` move while it is their turn and the hand goes on: `choose()` picks each move, which
    must be legal, and `make(move)` makes it (`hand.apply` unless given). The moves made, in order."""
    made: list[Move] = []
    for _ in range(MAX_MOVES_IN_A_TURN):
        if hand.is_over or hand.to_move != player:
            return made
        move = choose()
        if not hand.check(move).legal:
            raise TurnError(f"player {player} chose {move}, which the rules do not allow")
        (make or hand.apply)(move)
        made.append(move)
    raise TurnError(f"player {player} made {MAX_MOVES_IN_A_TURN} moves without ending the turn")
