"""The one turn runner: whose move it is, the legal moves, making a move, and what happened, as typed events.

Every part of the tutor that advances a game goes through here (the table, a class table, Learn's attempts and
the class server): `current_player(hand)` says whose move it is (None once the hand is over, as OpenSpiel's
`current_player` answers a terminal state; the moves it may make are `Hand.legal_moves`), `apply_move(hand, move)`
makes a legal move and returns what it did as `Event`s (the move itself, then a turn that begins, with the cards
drawn or none, or the hand's end), and `deal_next(match)` deals a match's next hand. Sentences about a turn are
made from these events and the rules, never guessed again from a board. No words here: the events are facts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .cards import Card
from .errors import LeopardError
from .hand import Hand
from .match import Match
from .moves import Discard, EndTurn, GoOut, Move, Play

MAX_MOVES_IN_A_TURN = 64  # far more than any turn needs: a Running Leopard turn plays at most a hand of cards


class TurnError(RuntimeError):
    """A chooser picked a move the rules do not allow, or never ended its turn: a fault in the program."""


@dataclass(frozen=True)
class Played:
    """`player` played `move` (a card onto a space of either square)."""

    player: int
    move: Play


@dataclass(frozen=True)
class Discarded:
    """`player` threw `card` onto the discard pile."""

    player: int
    card: Card


@dataclass(frozen=True)
class EndedTurn:
    """`player` ended a turn in which they had played `plays` cards (Running Leopard)."""

    player: int
    plays: int


@dataclass(frozen=True)
class Passed:
    """`player` ended a turn in which they had played nothing: they held no card (the stock being empty)."""

    player: int


@dataclass(frozen=True)
class WentOut:
    """`player` went out with their square worth `value`: the hand ends at once."""

    player: int
    value: int


@dataclass(frozen=True)
class TurnBegan:
    """`player`'s turn began, and they drew `drew` cards from the stock (none once it is empty)."""

    player: int
    drew: int


@dataclass(frozen=True)
class HandEnded:
    """The hand is over, with these scores (player 0's first); `went_out`: who went out, if anyone did."""

    scores: tuple[int, int]
    went_out: int | None


@dataclass(frozen=True)
class MatchEnded:
    """The match's last hand is over: the totals, and the winner (None for a drawn match)."""

    totals: tuple[int, int]
    winner: int | None


@dataclass(frozen=True)
class HandDealt:
    """Hand `number` of the match was dealt; `player` moves first, having drawn `drew` cards."""

    number: int
    player: int
    drew: int


Event = Played | Discarded | EndedTurn | Passed | WentOut | TurnBegan | HandEnded | MatchEnded | HandDealt
"""What a move, or a deal, did: one of the event types above."""


def current_player(hand: Hand) -> int | None:
    """The player to move, or None once the hand is over."""
    return None if hand.is_over else hand.to_move


def apply_move(hand: Hand, move: Move, match: Match | None = None) -> list[Event]:
    """Make the legal `move` of the player to move and say what happened: the move, then the turn that began (or
    the hand's end, and with `match` given and the hand its last, the match's end). An `IllegalMove` (with the
    reason, from `Hand.apply`) if the rules do not allow it; then nothing changes. The legal moves are the hand's
    own (`Hand.legal_moves`)."""
    player, plays = hand.to_move, hand.plays_made
    value = hand.value(player)
    hand.apply(move)
    events: list[Event] = [_move_event(move, player, plays, value)]
    if hand.is_over:
        events.append(HandEnded(hand.scores(), hand.went_out))
        if match is not None and match.current is hand and match.is_over:
            events.append(MatchEnded(match.totals, match.winner))
    elif hand.to_move != player:
        events.append(TurnBegan(hand.to_move, drawn_this_turn(hand)))
    return events


def _move_event(move: Move, player: int, plays: int, value: int) -> Event:
    if isinstance(move, Play):
        return Played(player, move)
    if isinstance(move, Discard):
        return Discarded(player, move.card)
    if isinstance(move, GoOut):
        return WentOut(player, value)
    assert isinstance(move, EndTurn)
    return EndedTurn(player, plays) if plays else Passed(player)  # (`end_turn_passes` before the move)


def end_turn_passes(hand: Hand) -> bool:
    """Whether ending the turn now (where the rules allow it) would be a pass: the player to move has played nothing
    this turn, as they may end it only when they hold no card (`Passed`, not `EndedTurn`)."""
    return hand.plays_made == 0


def drawn_this_turn(hand: Hand) -> int:
    """How many cards the player to move drew when their turn began (0 once the stock ran out). At a dealt hand's
    first turn, the first player has drawn as every turn does (`Hand.deal`)."""
    for index in range(len(hand.moves) - 1, -1, -1):  # within a turn of several plays: the move that began it
        if hand.movers[index] != hand.to_move:
            return hand.drawn_by_move(index)
    return hand.drawn_at_start


def cards_drawn(hand: Hand) -> tuple[Card, ...]:
    """The cards the player to move drew as their turn began, while they have made no play in it yet (a draw puts
    them last in the hand); () once they have played, or where they drew none, or once the hand is over."""
    player = current_player(hand)
    count = drawn_this_turn(hand)
    if player is None or hand.plays_made or not count:
        return ()
    return tuple(hand.held[player][-count:])


def turn_began(hand: Hand) -> TurnBegan | None:
    """The beginning of the turn in play (who, and what they drew), or None once the hand is over."""
    player = current_player(hand)
    return None if player is None else TurnBegan(player, drawn_this_turn(hand))


def deal_next(match: Match) -> HandDealt:
    """Deal the match's next hand (the hand in play must be over, and the match not): who moves first and what
    they drew. A `LeopardError` otherwise, changing nothing."""
    if match.is_over:
        raise LeopardError(key="play.match_over")
    if not match.current.is_over:
        raise LeopardError(key="play.finish_first")
    hand = match.next_hand()
    return HandDealt(match.hand_number, hand.to_move, drawn_this_turn(hand))


def play_turn(hand: Hand, player: int, choose: Callable[[], Move | None],
              make: Callable[[Move], object] | None = None) -> list[Move]:
    """Let `player` move while it is their turn and the hand goes on: `choose()` picks each move, which
    must be legal, or None where the player's next move comes later (the turn then waits for it), and
    `make(move)` makes it (`apply_move` unless given). The moves made, in order."""
    made: list[Move] = []
    for _ in range(MAX_MOVES_IN_A_TURN):
        if current_player(hand) != player:
            return made
        move = choose()
        if move is None:
            return made
        if not hand.check(move).legal:
            raise TurnError(f"player {player} chose {move}, which the rules do not allow")
        if make is None:
            apply_move(hand, move)
        else:
            make(move)
        made.append(move)
    raise TurnError(f"player {player} made {MAX_MOVES_IN_A_TURN} moves without ending the turn")
