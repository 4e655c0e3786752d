"""Where a card may be played (placement table A.1.6) and why: the one legality check.

`allowed_spaces` is the only decision about placement; `check_play` explains it in a sentence,
and `Hand.legal_moves` enumerates it. The table is the same in all three rule sets.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import JACK, KING, QUEEN, TEN, Card, rank_words
from .errors import LeopardError
from .moves import DISCARDS, END_TURN, GO_OUT, PLAYS, Move, Play
from .rules import REVISED_2008, RuleSet
from .square import FULL_MASK, Square


@dataclass(frozen=True)
class Placement:
    """One row of the placement table: where cards of some rank may go and how they land."""

    cards: str
    own_only: bool
    numbered: bool
    target: str  # "open": empty or face down; "card": any card; "any": anything, even empty
    face_up: bool
    rule: str

    def __str__(self) -> str:
        return self.rule


_NUMBERED = Placement(
    "ace to nine", own_only=False, numbered=True, target="open", face_up=True,
    rule="a card from ace to nine goes face up only on the space with its own number (the ace on 1), "
         "in either square, and only where that space is empty or its top card lies face down")
PLACEMENT: dict[int, Placement] = {rank: _NUMBERED for rank in range(1, 10)}
PLACEMENT[TEN] = Placement(
    "ten", own_only=True, numbered=False, target="open", face_up=True,
    rule="a ten goes face up on any space of your own square that is empty or whose top card lies face down")
PLACEMENT[JACK] = Placement(
    "jack", own_only=False, numbered=False, target="card", face_up=False,
    rule="a jack goes face down on top of any card, in either square, and the space then counts as empty")
PLACEMENT[QUEEN] = Placement(
    "queen", own_only=True, numbered=False, target="card", face_up=False,
    rule="a queen goes face down on top of any card of your own square, and the space then counts as empty")
PLACEMENT[KING] = Placement(
    "king", own_only=True, numbered=False, target="any", face_up=True,
    rule="a king goes face up on any space of your own square, empty or not")

# The table compiled for speed: (own square only, which mask to use, spaces allowed by number).
_TARGETS = {"open": 0, "card": 1, "any": 2}
COMPILED: tuple[tuple[bool, int, int], ...] = (
    (False, 0, 0),
    *((p.own_only, _TARGETS[p.target], 1 << (rank - 1) if p.numbered else FULL_MASK)
      for rank, p in sorted(PLACEMENT.items())),
)


def allowed_spaces(rank: int, square: Square, own: bool) -> int:
    """The spaces of `square` where a card of this rank may go, as a bit mask (bit 0 = space 1)."""
    own_only, target, numbers = COMPILED[rank]
    if own_only and not own:
        return 0
    if target == 0:
        return square.open_mask & numbers
    if target == 1:
        return square.filled_mask & numbers
    return numbers


def spaces_of(mask: int) -> list[int]:
    """The space labels whose bits are set in a mask."""
    return [space for space in range(1, 10) if mask >> (space - 1) & 1]


@dataclass(frozen=True)
class Verdict:
    """Whether a move is allowed, and a sentence saying why (and, if not, what would work)."""

    legal: bool
    reason: str
    code: str = "ok"

    def __bool__(self) -> bool:
        return self.legal

    def __str__(self) -> str:
        return self.reason


def place_words(space: int, own: bool) -> str:
    """'space 4 of your square' or 'space 4 of your opponent's square'."""
    return f"space {space} of {'your' if own else 'your opponent' + chr(39) + 's'} square"


def _article(word: str) -> str:
    """'a' or 'an', by how the word (a rank in words or digits) is said aloud."""
    return "an" if word.startswith(("a", "8", "11", "18")) else "a"


def _list_spaces(spaces: list[int]) -> str:
    if len(spaces) == 1:
        return f"space {spaces[0]}"
    return "spaces " + ", ".join(str(s) for s in spaces[:-1]) + f" and {spaces[-1]}"


def check_play(card: Card, square: Square, space: int, *, own: bool, rules: RuleSet = REVISED_2008) -> Verdict:
    """Whether `card` may be played on `space` of `square` (`own`: the player's own square), and why."""
    if not isinstance(card, Card):
        raise LeopardError(f"check_play needs a Card, not {card!r}")
    if not isinstance(square, Square):
        raise LeopardError(f"check_play needs a Square, not {square!r}")
    if not isinstance(space, int) or isinstance(space, bool) or not 1 <= space <= 9:
        raise LeopardError(f"spaces are numbered 1 to 9, not {space!r}")
    if not isinstance(rules, RuleSet):
        raise LeopardError(f"rules must be a RuleSet, not {rules!r}")
    own = bool(own)
    placement = PLACEMENT[card.rank]
    where = place_words(space, own)
    the_card = f"the {card.name}"
    if allowed_spaces(card.rank, square, own) >> (space - 1) & 1:
        return Verdict(True, _legal_reason(card, square, space, own, where))
    rank = card.rank
    if placement.own_only and not own:
        advice = {
            TEN: "Any empty space of your own square will take it.",
            QUEEN: "To spoil your opponent's square, use a jack; a queen only covers your own cards.",
            KING: "Put it on any space of your own square, where it can even cover a face-up card.",
        }[rank]
        manner = "" if placement.face_up else " face down"
        return Verdict(False, f"{rank_words(rank, plural=True).capitalize()} go{manner} on your own square only, "
                              f"so {the_card} cannot go on {where}. {advice}", "own-square-only")
    if placement.numbered and space != rank:
        target_open = square.is_open(rank)
        if target_open:
            advice = f"Space {rank} of this square is open for it."
        else:
            blocker = square.showing(rank)
            advice = (f"Space {rank} of this square is taken by the {blocker.name}, "  # type: ignore[union-attr]
                      f"so look at space {rank} of the other square, or discard it.")
        named = rank_words(rank)
        return Verdict(False, f"{_article(named).capitalize()} {named} only goes on space {rank}, in either square, "
                              f"so {the_card} cannot go on {where}. {advice}", "wrong-space")
    if placement.target == "open":
        shown = square.showing(space)
        assert shown is not None
        if rank == TEN:
            open_spaces = [s for s in range(1, 10) if square.is_open(s)]
            advice = (f"{_list_spaces(open_spaces).capitalize()} of your square "
                      f"{'is' if len(open_spaces) == 1 else 'are'} open for it." if open_spaces
                      else "No space of your square is open for it now; only a king can cover a face-up card.")
            return Verdict(False, f"{the_card.capitalize()} cannot go on {where}: the {shown.name} lies face up there, "
                                  f"and a ten needs an empty space or a face-down card. {advice}", "covered")
        cover = "a jack or a queen" if own else "a jack"
        other = "your opponent's square" if own else "your own square"
        return Verdict(False, f"{the_card.capitalize()} cannot go on {where}: the {shown.name} lies face up there, "
                              f"and a card from ace to nine needs its space empty or covered face down. "
                              f"Cover it first with {cover}, or try space {rank} of {other}.", "covered")
    # a jack or queen on an empty space
    filled = [s for s in range(1, 10) if not square.is_empty(s)]
    advice = (f"{_list_spaces(filled).capitalize()} of this square {'has' if len(filled) == 1 else 'have'} "
              f"a card to cover." if filled else "This square has no card yet to cover; you could discard it instead.")
    return Verdict(False, f"A {rank_words(rank)} goes face down on top of a card, so {the_card} cannot go on "
                          f"{where}, which is empty (there it would change nothing). {advice}", "needs-card")


def _legal_reason(card: Card, square: Square, space: int, own: bool, where: str) -> str:
    rank = card.rank
    top = square.top(space)
    the_card = f"The {card.name}"
    if rank <= 9:
        state = "that space is empty" if top is None else "the face-down card there counts as an empty space"
        return (f"{the_card} can go on {where}: a card from ace to nine goes only on the space with its own "
                f"number, and {state}.")
    if rank == TEN:
        state = "is empty" if top is None else "has a face-down card on top, which counts as empty"
        return f"{the_card} can go on {where}: a ten may fill any open space of your own square, and this one {state}."
    if rank == KING:
        state = "" if top is None else f", even on top of the {top[0].name if top[1] else 'face-down card'}"
        return f"{the_card} can go on {where}: a king may go on any space of your own square{state}."
    owner = "either square" if rank == JACK else "your own square"
    assert top is not None
    covered = (f"it hides the {top[0].name}, so the space counts as empty" if top[1]
               else "covering a face-down card changes nothing for scoring")
    return f"{the_card} can go face down on {where}: a {rank_words(rank)} may cover any card in {owner}, and {covered}."


_PLAY_LISTS: dict[int, tuple[Play, ...]] = {}


def _plays(card: Card, owner: int, mask: int) -> tuple[Play, ...]:
    key = ((card.code << 1) | owner) << 9 | mask
    plays = _PLAY_LISTS.get(key)
    if plays is None:
        row = PLAYS[card.code][owner]
        plays = _PLAY_LISTS[key] = tuple(row[space - 1] for space in spaces_of(mask))
    return plays


def turn_moves(rules: RuleSet, squares: tuple[Square, Square] | list[Square], cards: list[Card],
               player: int, plays_made: int, value: int) -> list[Move]:
    """Every legal move for `player` holding `cards`, having played `plays_made` cards this turn
    and owning a square worth `value`: going out, plays, discards, ending the turn."""
    moves: list[Move] = []
    if plays_made == 0 and value >= rules.out_threshold:
        moves.append(GO_OUT)
    own, other = squares[player], squares[1 - player]
    seen = 0
    distinct = []
    for card in cards:
        if seen & card.bit:
            continue
        seen |= card.bit
        distinct.append(card)
        mask = allowed_spaces(card.rank, own, True)
        if mask:
            moves.extend(_plays(card, player, mask))
        mask = allowed_spaces(card.rank, other, False)
        if mask:
            moves.extend(_plays(card, 1 - player, mask))
    if plays_made == 0:
        moves.extend(DISCARDS[card.code] for card in distinct)
    if not cards or (plays_made and rules.multiple_plays):
        moves.append(END_TURN)
    return moves
