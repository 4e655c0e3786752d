"""One hand of play: the deal, whose turn it is, applying and undoing moves, the end and the scores.

Draws happen by themselves at the start of each turn, so a hand always waits at a decision:
the player to move has drawn and may go out, play, discard or (when allowed) end the turn.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .cards import Card, full_deck
from .catalogue import Later, later, text
from .errors import IllegalMove, LeopardError, SavedGameError, is_player, quote, saved_json
from .legality import (
    Verdict,
    allowed_spaces,
    check_play,
    discard_allowed,
    may_discard,
    may_end_turn,
    may_go_out,
    pile_problem,
    refused,
    turn_moves,
)
from .moves import Discard, EndTurn, GoOut, Move, Play, move_from_data, move_to_data
from .placement import PLACEMENT
from .rules import REVISED_2008, RuleSet
from .scoring import hand_score, square_value
from .square import Hidden, Square

if TYPE_CHECKING:
    from .view import PlayerView

HAND_FORMAT = "leopard-tutor/hand"
MAX_SAVED_HAND = 50_000  # characters: the longest saved hand takes about 5,000
MAX_PLAYS_IN_A_TURN = 104  # no turn can play more cards than the game holds
CARDS_DEALT = 8

# One undo record: (move, player, index the card left the hand from, plays made before it,
# how many cards the next player drew when the turn passed).
_Record = tuple[Move, int, int, int, int]


class _Start(NamedTuple):
    """The position a hand started from, as saved (its squares are private copies nothing changes)."""

    squares: tuple[Square, Square]
    held: tuple[tuple[Card, ...], tuple[Card, ...]]
    stock: tuple[Card, ...]
    discards: tuple[Card, ...]
    to_move: int
    plays_made: int


class Hand:
    """A hand of Leopard between players 0 and 1, from a start position through its moves."""

    __slots__ = ("rules", "dealer", "to_move", "went_out", "_squares", "_held", "_stock", "_discards",
                 "_plays_made", "_over", "_history", "_start")

    def __init__(self, rules: RuleSet, squares: Sequence[Square], held: Sequence[Iterable[Card]],
                 stock: Iterable[Card], discards: Iterable[Card], to_move: int, dealer: int,
                 plays_made: int = 0) -> None:
        """A hand waiting for `to_move`'s decision; `stock` lists the cards in the order they will be drawn.

        `plays_made` is how many cards `to_move` has already played this turn (Running Leopard only).
        Use `Hand.deal` for a new hand and `Hand.from_json` for a saved one.
        """
        if not isinstance(rules, RuleSet):
            raise LeopardError(f"rules must be a RuleSet, not {quote(rules)}")
        for name, who in (("to_move", to_move), ("dealer", dealer)):
            if not is_player(who):
                raise LeopardError(f"{name} must be player 0 or 1, not {quote(who)}")
        if type(plays_made) is not int or not 0 <= plays_made <= MAX_PLAYS_IN_A_TURN:
            raise LeopardError(f"plays_made is a whole number from 0 to {MAX_PLAYS_IN_A_TURN}, not {quote(plays_made)}")
        if plays_made and not rules.multiple_plays:
            raise LeopardError(f"only Running Leopard allows more than one card a turn, not {rules.title}")
        if len(squares) != 2 or not all(isinstance(s, Square) for s in squares):
            raise LeopardError("a hand needs two squares")
        for square in squares:
            for space in range(1, 10):
                if any(isinstance(face, Hidden) for face, _ in square.pile(space)):
                    raise LeopardError("a hand's squares must name every card, face-down ones included")
        if len(held) != 2:
            raise LeopardError("a hand needs the cards held by two players")
        cards_held = [_card_list(h, "a player's hand") for h in held]
        stock_cards = _card_list(stock, "the stock")
        discard_cards = _card_list(discards, "the discard pile")
        everything = [*squares[0].cards(), *squares[1].cards(), *cards_held[0], *cards_held[1], *stock_cards,
                      *discard_cards]
        extra = [str(card) for card, n in Counter(everything).items() if n > 2]
        if extra:
            raise LeopardError(f"two packs hold each card twice, but {', '.join(sorted(extra))} appear more often")
        self._set_up(rules, [squares[0].copy(), squares[1].copy()], cards_held, stock_cards, discard_cards, to_move,
                     dealer, plays_made)

    def _set_up(self, rules: RuleSet, squares: list[Square], held: list[list[Card]], stock: list[Card],
                discards: list[Card], to_move: int, dealer: int, plays_made: int) -> None:
        """Start from a position already checked; the hand takes the squares and lists given as its own."""
        self.rules = rules
        self.dealer = dealer
        self.to_move = to_move
        self.went_out: int | None = None
        self._squares = squares
        self._held = held
        self._stock = stock[::-1]
        self._discards = discards
        self._plays_made = plays_made
        self._over = False
        self._history: list[_Record] = []
        self._start = _Start((squares[0].copy(), squares[1].copy()), (tuple(held[0]), tuple(held[1])),
                             tuple(stock), tuple(discards), to_move, plays_made)
        self._check_end()

    @classmethod
    def deal(cls, rules: RuleSet = REVISED_2008, seed: int | str | None = None, dealer: int = 0) -> Hand:
        """A new hand: both packs shuffled (reproducibly for a given seed), 8 cards each dealt one
        at a time starting with the non-dealer, who moves first and has already drawn."""
        if not is_player(dealer):
            raise LeopardError(f"the dealer is player 0 or 1, not {quote(dealer)}")
        if not isinstance(rules, RuleSet):
            raise LeopardError(f"rules must be a RuleSet, not {quote(rules)}")
        deck = full_deck()
        random.Random(seed).shuffle(deck)
        first = 1 - dealer
        hands: list[list[Card]] = [[], []]
        hands[first] = deck[0:2 * CARDS_DEALT:2]
        hands[dealer] = deck[1:2 * CARDS_DEALT:2]
        drawn = 2 * CARDS_DEALT + rules.draws_per_turn
        hands[first] += deck[2 * CARDS_DEALT:drawn]
        hand = cls.__new__(cls)  # a shuffled double deck needs none of the checks a given position does
        hand._set_up(rules, [Square(), Square()], hands, deck[drawn:], [], first, dealer, 0)
        return hand

    # -- what the table shows ------------------------------------------------------------------
    @property
    def squares(self) -> tuple[Square, Square]:
        """The two squares as they stand now, player 0's first (snapshots: later moves do not change them)."""
        return (self._squares[0].copy(), self._squares[1].copy())

    @property
    def held(self) -> tuple[list[Card], list[Card]]:
        """Copies of the cards each player holds."""
        return (list(self._held[0]), list(self._held[1]))

    @property
    def stock_size(self) -> int:
        """How many cards are left to draw."""
        return len(self._stock)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discard pile, oldest first (all face up)."""
        return tuple(self._discards)

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended: someone went out, or every card has been played or discarded."""
        return self._over

    @property
    def ran_out(self) -> bool:
        """Whether the hand has ended with the stock and both hands empty (nobody went out)."""
        return self._over and self.went_out is None

    @property
    def plays_made(self) -> int:
        """How many cards the player to move has played this turn (more than one only in Running Leopard)."""
        return self._plays_made

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move made in this hand, in order."""
        return tuple(record[0] for record in self._history)

    @property
    def movers(self) -> tuple[int, ...]:
        """Who made each move of `moves`."""
        return tuple(record[1] for record in self._history)

    def drawn_by_move(self, index: int) -> int:
        """How many cards the next player drew when move `index` of `moves` passed the turn (0: it did not pass
        the turn, or the stock was empty)."""
        return self._history[index][4]

    @property
    def drawn_at_start(self) -> int:
        """How many cards the first player had drawn when the hand's first turn began: as every turn does in a
        dealt hand (`deal`); 0 for a position set up otherwise, which says nothing of a draw."""
        start, rules = self._start, self.rules
        first, other = (len(start.held[start.to_move]), len(start.held[1 - start.to_move]))
        dealt = (not start.discards and not any(square.cards() for square in start.squares)
                 and (first, other) == (CARDS_DEALT + rules.draws_per_turn, CARDS_DEALT))
        return rules.draws_per_turn if dealt else 0

    def value(self, player: int) -> int:
        """The raw value of a player's square."""
        return square_value(self._squares[_player(player)], self.rules)

    def scores(self) -> tuple[int, int]:
        """Each player's score for the finished hand: raw value + bonus − going-out penalty."""
        if not self._over:
            raise LeopardError("the hand is not over yet, so it has no scores")
        return (hand_score(self.value(0), self.went_out == 0, self.rules),
                hand_score(self.value(1), self.went_out == 1, self.rules))

    # -- moves -------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every move the player to move may make now (none once the hand is over)."""
        if self._over:
            return []
        p = self.to_move
        value = square_value(self._squares[p], self.rules)
        return turn_moves(self.rules, self._squares, self._held[p], p, self._plays_made, value)

    def check(self, move: Move) -> Verdict:
        """Whether the player to move may make `move` now, and why, in a sentence."""
        rules = self.rules
        p = self.to_move
        if not isinstance(move, (Play, Discard, GoOut, EndTurn)):
            raise LeopardError(f"{quote(move)} is not a move")
        if self._over:
            return refused("over", "engine.turn.over")
        hand = self._held[p]
        if isinstance(move, GoOut):
            value = self.value(p)
            if not may_go_out(rules, self._plays_made, max(value, rules.out_threshold)):  # not now, whatever it's worth
                timing = "engine.turn.out_timing" if self._stock else "engine.turn.out_timing_no_draw"  # (no draw)
                return refused("out-timing", timing)
            if not may_go_out(rules, self._plays_made, value):
                return refused("out-value", "engine.turn.out_value", threshold=rules.out_threshold, value=value)
            return Verdict(True, text("engine.turn.out_ok", value=value, threshold=rules.out_threshold,
                                     penalty=rules.out_penalty),
                           rule=text("engine.turn.out_rule", threshold=rules.out_threshold, penalty=rules.out_penalty))
        if isinstance(move, EndTurn):
            if not may_end_turn(rules, len(hand), self._plays_made):
                needed = later("engine.turn.must_act.running" if rules.multiple_plays
                               else "engine.turn.must_act.standard")
                return refused("must-act", "engine.turn.must_act", needed=needed)
            if self._plays_made and rules.multiple_plays:  # a turn of plays ends: not a pass, even with no card left
                stuck = bool(hand) and not any(isinstance(found, Play) for found in self.legal_moves())
                key = "engine.turn.end_after_plays_stuck" if stuck else "engine.turn.end_after_plays"
                return Verdict(True, text(key, held=len(hand)))
            return Verdict(True, text("engine.turn.pass"))  # nothing played this turn and no card to play
        card = move.card
        if card not in hand:
            return refused("not-in-hand", "engine.turn.not_held", the_card=Later(lambda: card.the_name))
        if isinstance(move, Discard):
            if not may_discard(self._plays_made):
                return refused("discard-after-play", "engine.turn.discard_after_play")
            return discard_allowed(card)
        return check_play(card, self._squares[move.square_owner], move.space,
                          own=move.square_owner == p, other=self._squares[1 - move.square_owner])

    def apply(self, move: Move) -> None:
        """Make `move` for the player to move; IllegalMove (with the reason) if it is not allowed."""
        if self._over:
            self._refuse(move)
        p = self.to_move
        hand = self._held[p]
        plays_made = self._plays_made
        rules = self.rules
        kind = type(move)
        index = drawn = 0
        if kind is Play:
            card, owner, space = move.card, move.square_owner, move.space  # type: ignore[attr-defined]
            square = self._squares[owner]
            index = _index_of(card, hand)
            if index < 0 or not allowed_spaces(card.rank, square, owner == p) >> (space - 1) & 1:
                self._refuse(move)
            del hand[index]
            square._push(space, card, PLACEMENT[card.rank].face_up, owner != p)
            self._plays_made = plays_made + 1
            if rules.multiple_plays:
                self._check_end()
            else:
                drawn = self._pass_turn()
        elif kind is Discard:
            index = _index_of(move.card, hand)  # type: ignore[attr-defined]
            if index < 0 or not may_discard(plays_made):
                self._refuse(move)
            del hand[index]
            self._discards.append(move.card)  # type: ignore[attr-defined]
            drawn = self._pass_turn()
        elif kind is GoOut:
            if not may_go_out(rules, plays_made, square_value(self._squares[p], rules)):
                self._refuse(move)
            self.went_out = p
            self._over = True
        elif kind is EndTurn:
            if not may_end_turn(rules, len(hand), plays_made):
                self._refuse(move)
            drawn = self._pass_turn()
        else:
            raise LeopardError(f"{quote(move)} is not a move")
        self._history.append((move, p, index, plays_made, drawn))

    def undo(self) -> Move:
        """Take back the last move, restoring the exact state before it; returns that move."""
        if not self._history:
            raise LeopardError("there is no move to undo")
        move, p, index, plays_made, drawn = self._history.pop()
        if drawn:
            hand = self._held[self.to_move]
            for _ in range(drawn):
                self._stock.append(hand.pop())
        self.to_move = p
        self._plays_made = plays_made
        self._over = False
        self.went_out = None
        if isinstance(move, Play):
            self._squares[move.square_owner]._pop(move.space)
            self._held[p].insert(index, move.card)
        elif isinstance(move, Discard):
            self._discards.pop()
            self._held[p].insert(index, move.card)
        return move

    def _refuse(self, move: Move) -> None:
        verdict = self.check(move)
        assert not verdict.legal, f"{move} was refused by the fast check but allowed by check()"
        raise IllegalMove(verdict.reason, move, key=verdict.key, facts=verdict.facts)

    def _pass_turn(self) -> int:
        """End the turn: the hand ends if every card is out, else the other player draws. How many cards they drew."""
        stock = self._stock
        if not stock and self._check_end():
            return 0
        self.to_move = nxt = 1 - self.to_move
        self._plays_made = 0
        hand = self._held[nxt]
        drawn = 0
        while stock and drawn < self.rules.draws_per_turn:
            hand.append(stock.pop())
            drawn += 1
        return drawn

    def _check_end(self) -> bool:
        if not self._stock and not self._held[0] and not self._held[1]:
            self._over = True
        return self._over

    # -- copies, equality, saving ------------------------------------------------------------
    def copy(self) -> Hand:
        """An independent copy, history included (so it can be undone as far as this one)."""
        new = Hand.__new__(Hand)
        new.rules = self.rules
        new.dealer = self.dealer
        new.to_move = self.to_move
        new.went_out = self.went_out
        new._squares = [self._squares[0].copy(), self._squares[1].copy()]
        new._held = [list(self._held[0]), list(self._held[1])]
        new._stock = list(self._stock)
        new._discards = list(self._discards)
        new._plays_made = self._plays_made
        new._over = self._over
        new._history = list(self._history)
        new._start = self._start
        return new

    def _state(self) -> tuple[Any, ...]:
        return (self.rules, self.dealer, self.to_move, self.went_out, self._squares, self._held, self._stock,
                self._discards, self._plays_made, self._over, self._history, self._start)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        state = "over" if self._over else f"player {self.to_move} to move"
        return (f"<Hand {self.rules.key}: {state}, squares {self.value(0)} and {self.value(1)}, "
                f"stock {len(self._stock)}>")

    def to_json(self) -> str:
        """The hand as JSON text: its start position and every move since."""
        start = self._start
        data = {
            "format": HAND_FORMAT, "version": 1, "rules": self.rules.to_data(), "dealer": self.dealer,
            "start": {"squares": [str(square) for square in start.squares],
                      "hands": [[str(c) for c in h] for h in start.held],
                      "stock": [str(c) for c in start.stock], "discards": [str(c) for c in start.discards],
                      "to_move": start.to_move, "plays_made": start.plays_made},
            "moves": [move_to_data(record[0]) for record in self._history],
        }
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> Hand:
        """A hand read back from `to_json`; SavedGameError, saying what is wrong, if it cannot be."""
        return cls.from_data(saved_json(text, "hand", MAX_SAVED_HAND))

    @classmethod
    def from_data(cls, data: object) -> Hand:
        """A hand read back from the parsed JSON of `to_json`."""
        if not isinstance(data, dict) or data.get("format") != HAND_FORMAT:
            raise SavedGameError(f"this is not a saved Leopard hand (format should be {quote(HAND_FORMAT)})")
        if data.get("version") != 1:
            raise SavedGameError(f"unknown saved-hand version {quote(data.get('version'))}")
        try:
            start = data["start"]
            if not isinstance(start, dict):
                raise SavedGameError("'start' must be an object")
            squares = start["squares"]
            if not isinstance(squares, list) or len(squares) != 2:
                raise SavedGameError("'start.squares' must hold two squares")
            hand = cls(
                RuleSet.from_data(data["rules"]),
                [Square.parse(s) for s in squares],
                [_parse_cards(h) for h in _two(start["hands"])],
                _parse_cards(start["stock"]),
                _parse_cards(start["discards"]),
                start["to_move"],
                data["dealer"],
                start.get("plays_made", 0),
            )
            moves = data["moves"]
            for square in hand._squares:
                problem = pile_problem(square)
                if problem:
                    raise SavedGameError(f"the saved hand's start position is impossible: {problem}")
        except KeyError as missing:
            raise SavedGameError(f"the saved hand has no {missing}") from None
        except SavedGameError:
            raise
        except LeopardError as error:
            raise SavedGameError(f"the saved hand's start position is not valid: {error}") from None
        if not isinstance(moves, list):
            raise SavedGameError("'moves' must be a list")
        for number, item in enumerate(moves, start=1):
            try:
                move = move_from_data(item)
            except SavedGameError as error:
                raise SavedGameError(f"in move {number} of the saved hand, {error}") from None
            try:
                hand.apply(move)
            except IllegalMove as error:
                raise SavedGameError(f"move {number} ({move}) is not legal there: {error.reason}") from None
        return hand

    def view(self, player: int) -> PlayerView:
        """What `player` may see: their own cards, both squares as they know them, and the public table."""
        from .view import PlayerView
        return PlayerView.of(self, _player(player))


def _player(player: int) -> int:
    if not is_player(player):
        raise LeopardError(f"players are numbered 0 and 1, not {quote(player)}")
    return player


def _index_of(card: Card, cards: list[Card]) -> int:
    """Where `card` first lies in `cards`, or -1 if it is not there."""
    try:
        return cards.index(card)
    except ValueError:
        return -1


def _card_list(cards: Iterable[Card], what: str) -> list[Card]:
    try:
        result = list(cards)
    except TypeError:
        raise LeopardError(f"{what} must be a list of cards") from None
    for card in result:
        if not isinstance(card, Card):
            raise LeopardError(f"{what} must hold only cards, not {quote(card)}")
    return result


def _parse_cards(items: object) -> list[Card]:
    if not isinstance(items, list):
        raise SavedGameError(f"expected a list of cards, not {quote(items)}")
    return [Card.parse(item) for item in items]


def _two(items: object) -> list[Any]:
    if not isinstance(items, list) or len(items) != 2:
        raise SavedGameError("expected a pair, one for each player")
    return items

