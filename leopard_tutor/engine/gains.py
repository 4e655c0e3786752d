"""What a move gains at once, by the engine's own scoring, and the moves a player makes who looks no further.

`value_changes` says how a move changes the two squares' values; `instinct_moves` are the moves a player who
has learned the rules makes without looking ahead: going out where that wins the hand now, else the moves that
raise (own square's value − the other's) the most, and among those a card laid face up on one's own square first,
and a jack, queen or king kept rather than discarded. Two players play by it, and differ among equals only:

- the computer's instinct (the beginner's and the casual player's slips) lays a card on the other square only last,
  counts a king laid on its own square as building like any face-up card, and draws one of the moves left at random;
- the lessons' coach keeps a king for covering a card (only an ace to ten builds), blocks a space of the other
  square rather than throw a card away, lays a card where it fits the lines through its space best (`line_fit`: the
  same suit as the face-up cards there, else their colour, rather than one that spoils a line), and takes the first
  move left in the order of legal moves.
"""

from __future__ import annotations

from .cards import JACK, TEN, Card
from .claims import square_after
from .moves import Discard, GoOut, Move, Play
from .placement import lies_face_down
from .rules import LINES
from .scoring import hand_score, square_value
from .view import PlayerView


def value_changes(view: PlayerView, move: Move) -> tuple[int, int]:
    """How much `move` changes the value of the viewer's own square and of the other's, in that order (only a play
    changes a square, and only the one it is played on)."""
    if not isinstance(move, Play):
        return (0, 0)
    owner = move.square_owner
    change = square_value(square_after(view, move, owner), view.rules) - view.value(owner)
    return (change, 0) if owner == view.player else (0, change)


def move_gain(view: PlayerView, move: Move) -> int:
    """How much `move` changes (own square's value − the other's) for the viewer."""
    own, theirs = value_changes(view, move)
    return own - theirs


def going_out_wins(view: PlayerView) -> bool:
    """Whether going out would score the viewer more than the other player, the squares as they stand (whether
    they may go out is the rules' own question)."""
    me, rules = view.player, view.rules
    return hand_score(view.value(me), True, rules) > hand_score(view.value(1 - me), False, rules)


def line_fit(view: PlayerView, move: Play) -> int:
    """How well the card of `move` (laid face up on the viewer's own square) fits the lines through its space: for
    each line whose other spaces show face-up cards, 2 if they are all of its suit, 1 if all of its colour, -1 if one
    is not (the line can no longer score while the card lies there); lines with nothing face up elsewhere count 0."""
    square, card = view.squares[view.player], move.card
    fit = 0
    for line in LINES:
        if move.space not in line:
            continue
        shown = [face for space in line if space != move.space and (layer := square.top(space)) is not None
                 and layer[1] and isinstance(face := layer[0], Card)]
        if not shown:
            continue
        fit += (2 if all(other.suit == card.suit for other in shown) else
                1 if all(other.color == card.color for other in shown) else -1)
    return fit


def instinct_moves(view: PlayerView, moves: list[Move], *, coach: bool = False) -> list[Move]:
    """Those of the viewer's legal `moves` (in their order) that a player who looks no further prefers, equally:
    going out alone, where it is legal and wins the hand now; else as the computer's instinct or (`coach`) the
    lessons' coach ranks them (see the module docstring)."""
    if GoOut() in moves and going_out_wins(view):
        return [GoOut()]
    me = view.player

    def preference(move: Move) -> tuple[int, bool, bool, bool, int]:
        theirs = isinstance(move, Play) and move.square_owner != me
        face_up = isinstance(move, Play) and (move.card.rank <= TEN if coach else not lies_face_down(move.card))
        spends = isinstance(move, Discard) and move.card.rank >= JACK
        fits = line_fit(view, move) if coach and isinstance(move, Play) and face_up and not theirs else 0
        return (move_gain(view, move), face_up and not theirs, coach or not theirs, not spends, fits)

    keys = [(preference(move), move) for move in moves if not isinstance(move, GoOut)]
    if not keys:
        return list(moves)
    best = max(key for key, _ in keys)
    return [move for key, move in keys if key == best]
