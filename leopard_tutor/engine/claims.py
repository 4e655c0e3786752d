"""Claims: what a sentence about a position asserts, as a value the engine can check.

A sentence that tells a player something about the position (a line scores 3, a square goes from 4
to 9, two jacks are still unseen, the opponent has another turn) is said only with the claims it
makes, and only where every one of them `holds` in the player's view. Whoever builds the words
chooses among sentences by their claims, so a count of zero, a move that changes nothing, or the
last turns of a hand pick the sentence that is true of them instead of one that is not.

Every claim is about one player's view (`PlayerView`) and, where it says "after", the move being
explained (a `Play` on one of the squares; other moves leave both squares as they are).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card
from .legality import allowed_spaces, face_up_ranks, turn_moves
from .moves import Discard, GoOut, Move, Play
from .scoring import scoring_lines, square_value
from .square import Hidden, Square
from .view import PlayerView

Spaces = tuple[int, int, int]


class Claim:
    """Something a sentence asserts about a view and a move, with the engine's check of it."""

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        """Whether the assertion is true in `view` for `move`."""
        raise NotImplementedError


def square_after(view: PlayerView, move: Move | None, owner: int) -> Square:
    """`owner`'s square as it stands once `move` is made (unchanged unless the move is a play on it)."""
    square = view.squares[owner]
    if isinstance(move, Play) and move.square_owner == owner:
        return square.with_card(move.card, move.space, by_other=owner != view.player)
    return square


def line_points(square: Square, spaces: Spaces, view: PlayerView) -> int:
    """What the line `spaces` of `square` pays under the view's rules."""
    return next(line.points for line in scoring_lines(square, view.rules) if line.spaces == spaces)


def unseen_jacks(view: PlayerView) -> int:
    """Jacks the opponent may still hold or draw: the unseen ones, less those known to lie face down."""
    known_down = sum(1 for square in view.squares for space in range(1, 10)
                     for face, _ in square.pile(space) if isinstance(face, Hidden) and face.jack_only)
    return max(0, sum(1 for card in view.unseen() if card.rank == 11) - known_down)


def mending_cards(view: PlayerView, after: Square, space: int, lost: Iterable[tuple[Spaces, int]]) -> list[Card]:
    """The unseen cards the owner of `after` could lay on `space` that make one of the `lost` lines (each as its
    spaces and what it paid before) score again: of its suit, or of its colour only (a suit line then pays as a
    colour line, 1 point where it paid 2 or 3: mended, not whole)."""
    ranks = face_up_ranks(after, space, own=True)
    lost = list(lost)
    return [card for card in view.unseen() if card.rank in ranks and any(
        line_points(after.with_card(card, space), spaces, view) > 0 for spaces, _paid in lost)]


def opponent_can_lay(view: PlayerView, move: Move | None) -> bool:
    """Whether the opponent will have a turn holding a card (one they hold or will draw), after `move`
    (None: after any move of this turn but going out)."""
    if isinstance(move, GoOut):
        return False
    return view.other_hand_size + min(view.stock_size, view.rules.draws_per_turn) > 0


def next_turn(view: PlayerView, move: Move | None) -> bool | None:
    """Whether the player of `view` gets another turn after this one once `move` is made: True if the hand
    surely lasts until then (unless someone goes out), False if it surely ends first, None if that depends
    on moves still to come (Running Leopard, where a turn may lay several cards)."""
    if isinstance(move, GoOut):
        return False
    rules, stock = view.rules, view.stock_size
    held = len(view.hand) - (1 if isinstance(move, (Play, Discard)) else 0)
    drawn = min(stock, rules.draws_per_turn)
    theirs_most = max(0, view.other_hand_size + drawn - 1)
    if not rules.multiple_plays:
        return not (stock - drawn == 0 and held == 0 and theirs_most == 0)
    mine_least = 0 if isinstance(move, Play) else held
    theirs_least = 0
    if stock - drawn > 0 or mine_least > 0 or theirs_least > 0:
        return True
    if held == 0 and theirs_most == 0:
        return False
    return None


def line_can_score(view: PlayerView, square: Square, spaces: Spaces) -> bool:
    """Whether the line `spaces` of `square` (`owner`'s) is not yet complete and could still score: its
    face-up cards are of one colour, and each open space could take a card of that colour that is still
    out of sight of the public (in this player's hand or unseen)."""
    shown = [card for card in (square.showing(s) for s in spaces) if card is not None]
    open_spaces = [s for s in spaces if square.is_open(s)]
    colours = {card.color for card in shown}
    if not open_spaces or len(colours) > 1:
        return False
    available = [*view.hand, *view.unseen()]
    for colour in colours or {"red", "black"}:  # the square's owner lays the cards that complete it
        if all(any(card.color == colour and allowed_spaces(card.rank, square, True) >> (s - 1) & 1
                   for card in available if card.rank not in (11, 12)) for s in open_spaces):
            return True
    return False


@dataclass(frozen=True)
class LinePays(Claim):
    """`owner`'s line `spaces` pays `points`, before the move or (`after`) once it is made."""

    owner: int
    spaces: Spaces
    points: int
    after: bool = False

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        square = square_after(view, move, self.owner) if self.after else view.squares[self.owner]
        return line_points(square, self.spaces, view) == self.points


@dataclass(frozen=True)
class LineChanges(Claim):
    """The move takes `owner`'s line `spaces` from paying `before` to paying `after` (two different figures)."""

    owner: int
    spaces: Spaces
    before: int
    after: int

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return self.before != self.after and (
            LinePays(self.owner, self.spaces, self.before).holds(view, move)
            and LinePays(self.owner, self.spaces, self.after, after=True).holds(view, move))


@dataclass(frozen=True)
class LineCanScore(Claim):
    """`owner`'s line `spaces` can still score (before the move, or `after` it): see `line_can_score`."""

    owner: int
    spaces: Spaces
    after: bool = False

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        square = square_after(view, move, self.owner) if self.after else view.squares[self.owner]
        return line_can_score(view, square, self.spaces)


@dataclass(frozen=True)
class OneCardFrom(Claim):
    """Before the move, `owner`'s line `spaces` has one open space, and a card laid there would make it
    pay `points`: a card not yet in sight of the public (this player's or unseen), or (`unseen`) one of the unseen
    cards alone, which the other player may hold or draw."""

    owner: int
    spaces: Spaces
    points: int
    unseen: bool = False

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        square = view.squares[self.owner]
        open_spaces = [s for s in self.spaces if square.is_open(s)]
        if len(open_spaces) != 1:
            return False
        space = open_spaces[0]
        pool = view.unseen() if self.unseen else view.unseen() + list(view.hand)
        candidates = {card for card in pool if card.rank not in (11, 12)}
        return any(allowed_spaces(card.rank, square, True) >> (space - 1) & 1
                   and line_points(square.with_card(card, space), self.spaces, view) == self.points
                   for card in candidates)


@dataclass(frozen=True)
class Value(Claim):
    """`owner`'s square is worth `value` before the move, or (`after`) once it is made."""

    owner: int
    value: int
    after: bool = False

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        square = square_after(view, move, self.owner) if self.after else view.squares[self.owner]
        return square_value(square, view.rules) == self.value


@dataclass(frozen=True)
class ValueChanges(Claim):
    """The move takes `owner`'s square from `before` to `after`; `before == after` claims it stays."""

    owner: int
    before: int
    after: int

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return Value(self.owner, self.before).holds(view, move) and Value(self.owner, self.after, True).holds(
            view, move)


@dataclass(frozen=True)
class UnseenJacks(Claim):
    """Exactly `count` jacks may still be in the opponent's hand or the stock (`unseen_jacks`)."""

    count: int

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return unseen_jacks(view) == self.count


@dataclass(frozen=True)
class Mending(Claim):
    """After a jack on `space` of the opponent's square broke the `lost` lines (spaces, points before),
    exactly `count` unseen cards could mend one of them on that space."""

    space: int
    lost: tuple[tuple[Spaces, int], ...]
    count: int

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        after = square_after(view, move, view.opponent)
        return after.is_open(self.space) and len(mending_cards(view, after, self.space, self.lost)) == self.count


@dataclass(frozen=True)
class OpponentCanLay(Claim):
    """The opponent will (`expected`) or will not have a turn with a card to lay, after the move, or
    (`waiting`) after any move of this turn but going out (`opponent_can_lay`)."""

    expected: bool = True
    waiting: bool = False

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return opponent_can_lay(view, None if self.waiting else move) == self.expected


@dataclass(frozen=True)
class NextTurn(Claim):
    """This player surely gets (`expected`) or surely does not get another turn after this one (`next_turn`)."""

    expected: bool = True

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return next_turn(view, move) is self.expected


@dataclass(frozen=True)
class NoPlayGains(Claim):
    """No legal play this turn raises this player's square or lowers the opponent's: under rules of several plays a
    turn, no plays one after another either (`turn_can_gain` says it surely cannot)."""

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return turn_can_gain(view) is False


@dataclass(frozen=True)
class PlaysCanGain(Claim):
    """Some legal play this turn raises this player's square or lowers the opponent's: under rules of several plays a
    turn, some plays one after another (`turn_can_gain` found them)."""

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return turn_can_gain(view) is True


TURN_POSITIONS = 1_000
"""The most positions `turn_can_gain` looks at before it gives up telling."""


def turn_can_gain(view: PlayerView, most: int = TURN_POSITIONS) -> bool | None:
    """Whether this player's plays from here to the end of their turn can raise their square or lower the opponent's:
    one play under rules of one play a turn; under rules of several, any plays of the cards held one after another.
    None where telling would mean looking at more than `most` positions. (A hand played empty ends the turn: the
    player draws at their next one.)"""
    if view.is_over or view.to_move != view.player:
        return False
    global _last_told
    last = _last_told
    if last is not None and last[1] == most and last[0] == view:
        return last[2]
    told = _turn_can_gain(view, most)
    _last_told = (view, most, told)
    return told


_last_told: tuple[PlayerView, int, bool | None] | None = None
"""The last view `turn_can_gain` was asked about, its `most` and its answer: a hint's sentences ask of one view
several times."""


def _turn_can_gain(view: PlayerView, most: int) -> bool | None:
    """`turn_can_gain` unremembered: a play's legality and what it does read only the square it goes on, so plays on
    one's own square and plays on the other's are looked at apart."""
    told = [_square_can_gain(view, owner, most) for owner in (view.player, view.opponent)]
    return True if True in told else None if None in told else False


def _square_can_gain(view: PlayerView, owner: int, most: int) -> bool | None:
    """Whether plays of this turn on `owner`'s square can raise it (the player's own) or lower it (the other's); None
    if telling would mean looking at more than `most` positions."""
    me, rules = view.player, view.rules
    before, sign = view.value(owner), 1 if owner == me else -1
    seen: set[tuple[str, tuple[int, ...]]] = set()
    stack = [(view.squares[owner], view.hand)]
    while stack:
        square, held = stack.pop()
        squares = (square, view.squares[1]) if owner == 0 else (view.squares[0], square)
        for play in turn_moves(rules, squares, list(held), me, view.plays_made, 0):
            if not isinstance(play, Play) or play.square_owner != owner:
                continue
            laid = square.with_card(play.card, play.space, by_other=owner != me)
            if sign * (square_value(laid, rules) - before) > 0:
                return True
            if not rules.multiple_plays:
                continue
            rest = list(held)
            rest.remove(play.card)
            key = (str(laid), tuple(sorted(card.code for card in rest)))
            if key not in seen:
                if len(seen) >= most:
                    return None
                seen.add(key)
                stack.append((laid, tuple(rest)))
    return False


@dataclass(frozen=True)
class Shows(Claim):
    """Once the move is made, `card` lies face up on top of `space` of `owner`'s square."""

    owner: int
    space: int
    card: Card

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return square_after(view, move, self.owner).showing(self.space) == self.card


@dataclass(frozen=True)
class Blocks(Claim):
    """Once the move is made, a card shows face up on `space` of `owner`'s square, and no card from ace to ten may
    go there while it shows, for either player (only a king of the owner's, or a jack or a queen face down)."""

    owner: int
    space: int

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        after = square_after(view, move, self.owner)
        return after.showing(self.space) is not None and not any(
            allowed_spaces(rank, after, own) >> (self.space - 1) & 1 for rank in range(1, 11) for own in (True, False))


@dataclass(frozen=True)
class Covers(Claim):
    """Before the move a card shows on `space` of `owner`'s square, and once it is made the space is open."""

    owner: int
    space: int

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return (view.squares[self.owner].showing(self.space) is not None
                and square_after(view, move, self.owner).is_open(self.space))


@dataclass(frozen=True)
class LaidByOther(Claim):
    """The top card on `space` of `owner`'s square was laid there by the other player (`by_other`), or by the owner
    (not `by_other`), before the move."""

    owner: int
    space: int
    by_other: bool = True

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        marks = view.squares[self.owner].laid_by_other(self.space)
        return bool(marks) and marks[-1] == self.by_other


@dataclass(frozen=True)
class Open(Claim):
    """Once the move is made, each of `spaces` of `owner`'s square is open (empty or face down on top)."""

    owner: int
    spaces: tuple[int, ...]

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        after = square_after(view, move, self.owner)
        return all(after.is_open(space) for space in self.spaces)


@dataclass(frozen=True)
class Spoilers(Claim):
    """Exactly `count` unseen cards could go on open `space` of this player's square and clash there
    with a line of `colour`: the cards of that number in the other colour."""

    space: int
    colour: str
    count: int

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return square_after(view, move, view.player).is_open(self.space) and self.count == sum(
            1 for card in view.unseen() if card.rank == self.space and card.color != self.colour)


def all_hold(claims: Sequence[Claim], view: PlayerView, move: Move | None) -> bool:
    """Whether every claim holds in `view` for `move`."""
    return all(claim.holds(view, move) for claim in claims)

