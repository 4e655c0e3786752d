"""Why the computer made a move, or a whole turn: the hint's own reason for each move, worked out from the
computer's view at that moment and told to the other player ("your opponent", "your square").

`why(view, move)` tells one move. `why_turn(hand, player)` tells `player`'s last turn in a hand, every move of it
in order (in Running Leopard a turn may lay several cards before it ends), each from the view just before it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import GoOut, Hand, Move, PlayerView, hand_score
from ..engine.catalogue import text
from ..engine.narration import move_words
from .hints import explain
from .players import AIError


@dataclass(frozen=True)
class Why:
    """The move in words, the reason for it, and the facts the reason was filled with: (key, values),
    the key being the hint's (`hints.reason.<name>`), whose claim the hint tests know how to check."""

    move: Move
    sentence: str
    fact: tuple[str, dict[str, Any]]


def why(view: PlayerView, move: Move) -> Why:
    """Why the player of `view` made `move` there, told to the other player; where they could have gone out and did
    not, what going out would have scored too."""
    key, values = next((key, values) for key, values in explain(view, move).facts if key.startswith("reason."))
    reason = text(f"review.why.{key}", **values)
    told = move_words(move, "report", view.opponent)
    sentence = text("review.why.said", move=told, reason=reason)
    if key != "reason.pass" and not isinstance(move, GoOut) and GoOut() in view.legal_moves():  # (a pass says it)
        rules, mine = view.rules, view.value(view.player)
        sentence += " " + text("review.why.stayed_in", value=mine, my_score=hand_score(mine, True, rules),
                               their_score=hand_score(view.value(view.opponent), False, rules))
    return Why(move, sentence, (f"hints.{key}", values))


@dataclass(frozen=True)
class TurnWhy:
    """One whole turn of `player`, told to the other player: each move of it explained (`moves`, in order, each a
    `Why` from the view just before that move), where those moves are in the hand (`indices` into `Hand.moves`),
    and `sentence`, every move's sentence one after another. A turn of one move reads as `why` tells it."""

    player: int
    indices: tuple[int, ...]
    moves: tuple[Why, ...]
    sentence: str

    @property
    def facts(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        """The (key, values) of each move's reason, in order."""
        return tuple(part.fact for part in self.moves)


def last_turn(hand: Hand, player: int) -> tuple[int, ...]:
    """Where `player`'s last turn in `hand` is in its moves: the indices (into `Hand.moves`) of the moves of that
    turn, in order; empty if `player` has made no move. Turns alternate and each holds at least one move, so a
    turn is a run of moves by one player."""
    movers = hand.movers
    end = len(movers)
    while end and movers[end - 1] != player:
        end -= 1
    start = end
    while start and movers[start - 1] == player:
        start -= 1
    return tuple(range(start, end))


def why_turn(hand: Hand, player: int, since: int = 0) -> TurnWhy:
    """Why `player` (0 or 1) played their last turn in `hand` as they did, told to the other player: every move
    of the turn (plays, a discard, going out, the end of the turn or a pass with no card) with its reason, each
    from what `player` could see just before it; only the moves from number `since` on (those before were made by
    someone else in that seat). An `AIError` if `player` has made no such move in `hand`."""
    if player not in (0, 1):
        raise AIError(f"a player is 0 or 1, not {player!r}")
    indices = tuple(index for index in last_turn(hand, player) if index >= since)
    if not indices:
        raise AIError(f"player {player} has made no move in this hand, so there is no turn to explain")
    replay = hand.copy()
    for _ in range(len(hand.moves) - indices[0]):
        replay.undo()
    told = []
    for index in indices:
        move = hand.moves[index]
        told.append(why(replay.view(player), move))
        replay.apply(move)
    return TurnWhy(player, indices, tuple(told), " ".join(part.sentence for part in told))
