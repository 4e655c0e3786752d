"""Where a card may be played (by the placement table, `placement.PLACEMENT`) and why: the one legality check.

`allowed_spaces` is the only decision about placement; `check_play` explains it in a sentence,
and `Hand.legal_moves` enumerates it. The table is the same in all three rule sets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .cards import ALL_CARDS, JACK, KING, QUEEN, TEN, Card, rank_words
from .catalogue import Later, later, text, upper_first
from .errors import LeopardError, quote
from .moves import DISCARDS, END_TURN, GO_OUT, PLAYS, Discard, Move, Play
from .placement import PLACEMENT
from .rules import RuleSet
from .square import FULL_MASK, Square

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


def _target_masks(square: Square) -> tuple[int, int, int]:
    """The spaces of `square` each placement target allows, indexed by the target's number in COMPILED
    (as `allowed_spaces` reads them): open (empty or face down), filled (any card), any."""
    return (square.open_mask, square.filled_mask, FULL_MASK)


def face_up_ranks(square: Square, space: int, own: bool) -> list[int]:
    """The ranks (ace 1 to king 13) a player may lay face up on `space` of `square` now."""
    return [rank for rank, placement in sorted(PLACEMENT.items())
            if placement.face_up and allowed_spaces(rank, square, own) >> (_space_index(space)) & 1]


def pile_problem(square: Square) -> str | None:
    """Why the piles of `square` could not have been built by legal plays, or None if they could."""
    built = Square()
    for space in range(1, 10):
        for (face, face_up), by_other in zip(square.pile(space), square.laid_by_other(space)):
            rank = face.rank if isinstance(face, Card) else JACK
            if not allowed_spaces(rank, built, own=not by_other) >> (space - 1) & 1:
                the_what = face.the_name if isinstance(face, Card) else text("engine.the_face_down_card")
                return text("engine.impossible_pile", the_what=the_what, space=space, rule=PLACEMENT[rank].rule)
            built._push(space, face, face_up, by_other)
    return None


def _space_index(space: int) -> int:
    if not isinstance(space, int) or isinstance(space, bool) or not 1 <= space <= 9:
        raise LeopardError(f"spaces are numbered 1 to 9, not {quote(space)}")
    return space - 1


def spaces_of(mask: int) -> list[int]:
    """The space labels whose bits are set in a mask."""
    return [space for space in range(1, 10) if mask >> (space - 1) & 1]


@dataclass(frozen=True)
class Verdict:
    """Whether a move is allowed, and a sentence saying why (and, if not, what would work). A refusal also
    keeps the sentence's catalogue `key` and `facts` (`refused`), which an `IllegalMove` carries; an allowed move keeps
    its `rule` apart."""

    legal: bool
    reason: str
    code: str = "ok"
    key: str | None = field(default=None, compare=False)
    facts: Mapping[str, object] = field(default_factory=dict, compare=False)
    rule: str = field(default="", compare=False)
    """An allowed move's rule, naming neither the card nor the place ("a king may go on any space of your own
    square"): said beside words that name them already ("" where there is none)."""

    def __bool__(self) -> bool:
        return self.legal

    def __str__(self) -> str:
        """The reason, in the current language when the verdict keeps its key."""
        return text(self.key, **self.facts) if self.key is not None else self.reason


def refused(code: str, key: str, /, **facts: object) -> Verdict:
    """A verdict that the move is not allowed (`code`), said by the catalogue text at `key` with `facts`."""
    return Verdict(False, text(key, **facts), code, key, facts)


def place_words(space: int, own: bool) -> str:
    """'space 4 of your square' or 'space 4 of your opponent's square'."""
    return text("engine.place.own" if own else "engine.place.other", space=space)


def spaces_words(spaces: Sequence[int]) -> str:
    """'space 4' or 'spaces 1, 2 and 5', in the catalogue's language."""
    if len(spaces) == 1:
        return text("engine.spaces.one", space=spaces[0])
    return text("engine.spaces.many", first=text("words.list_separator").join(str(s) for s in spaces[:-1]),
                last=spaces[-1])


def check_play(card: Card, square: Square, space: int, *, own: bool, other: Square | None = None) -> Verdict:
    """Whether `card` may be played on `space` of `square` (`own`: the player's own square), and why; `other` is the
    other square, when there is one: a refusal points to its space only if the card may go there.

    The placement table is the same under all three rule sets, so no rule set is asked for."""
    if not isinstance(card, Card):
        raise LeopardError(f"check_play needs a Card, not {quote(card)}")
    if not isinstance(square, Square):
        raise LeopardError(f"check_play needs a Square, not {quote(square)}")
    _space_index(space)
    own = bool(own)
    where = place_words(space, own)
    if allowed_spaces(card.rank, square, own) >> (space - 1) & 1:
        key = "engine.legal.play_face_down" if card.rank in (JACK, QUEEN) else "engine.legal.play"
        reason = text(key, The_card=card.the_name_first, where=where, rule=_legal_rule(card, square, space, True))
        return Verdict(True, reason, rule=_legal_rule(card, square, space, False))
    return _illegal_verdict(card, square, space, own, other)


def discard_allowed(card: Card) -> Verdict:
    """The verdict on a discard of `card` where discarding is allowed now, with its rule."""
    rule = text("engine.turn.discard_rule")
    return Verdict(True, text("engine.turn.discard_ok", the_card=card.the_name, rule=rule), rule=rule)


def _illegal_verdict(card: Card, square: Square, space: int, own: bool, other: Square | None) -> Verdict:
    rank = card.rank
    placement = PLACEMENT[rank]
    # The facts are words made when read (`later`), so that a refusal kept in a keyed error reads in the
    # language current when it is shown.
    side = "own" if own else "other"
    named, place = Later(lambda: card.the_name), later(f"engine.place.{side}", space=space)
    other_square = later(f"engine.illegal.numbered_covered.{side}_other")  # named only where `other` was checked
    if placement.own_only and not own:
        advice = later(f"engine.illegal.own_only.{placement.cards}")
        manner = "" if placement.face_up else later("engine.illegal.own_only.face_down")
        return refused("own-square-only", "engine.illegal.own_only",
                       ranks=later(f"engine.illegal.own_only.ranks.{placement.cards}"),
                       manner=manner, the_card=named, where=place, advice=advice)
    if placement.numbered and space != rank:
        blocker = square.showing(rank)
        if blocker is None:
            advice = later("engine.illegal.wrong_space.open", number=rank)
        elif other is None:  # the other square's space is named only where it has been checked
            advice = later("engine.illegal.wrong_space.taken", number=rank, the_blocker=Later(lambda: blocker.the_name))
        else:
            there = "open" if _may_take(rank, other, not own) else "taken"
            advice = later(f"engine.illegal.wrong_space.taken_other_{there}", number=rank,
                           the_blocker=Later(lambda: blocker.the_name), other=other_square)
        return refused("wrong-space", "engine.illegal.wrong_space",
                       a_rank=Later(lambda: upper_first(text(f"words.a_rank.{rank}"))),
                       number=rank, the_card=named, where=place, advice=advice)
    shown = square.showing(space)
    if placement.target == "open" and shown is not None:
        covered, first = Later(lambda: shown.the_name), Later(lambda: card.the_name_first)
        if rank == TEN:
            open_spaces = [s for s in range(1, 10) if square.is_open(s)]
            key = ("illegal.ten_covered.none_open" if not open_spaces else
                   "illegal.ten_covered.one_open" if len(open_spaces) == 1 else "illegal.ten_covered.open")
            advice = later("engine." + key,
                           spaces=Later(lambda: upper_first(spaces_words(open_spaces)) if open_spaces else ""))
            return refused("covered", "engine.illegal.ten_covered", The_card=first, where=place, the_shown=covered,
                           advice=advice)
        cover = later(f"engine.illegal.numbered_covered.{side}")
        if other is not None and _may_take(rank, other, not own):
            advice = later("engine.illegal.numbered_covered.cover_or_other", cover=cover, number=rank,
                           other=other_square)
        else:
            advice = later("engine.illegal.numbered_covered.cover", cover=cover)
        return refused("covered", "engine.illegal.numbered_covered", The_card=first, where=place, the_shown=covered,
                       advice=advice)
    filled = [s for s in range(1, 10) if not square.is_empty(s)]
    key = ("illegal.needs_card.none" if not filled else
           "illegal.needs_card.one" if len(filled) == 1 else "illegal.needs_card.some")
    advice = later("engine." + key, spaces=Later(lambda: upper_first(spaces_words(filled)) if filled else ""))
    return refused("needs-card", "engine.illegal.needs_card", rank=Later(lambda: rank_words(rank)), the_card=named,
                   where=place, advice=advice)


def _may_take(rank: int, square: Square, own: bool) -> bool:
    """Whether a card of `rank` from ace to nine may go on its own space of `square` (`own`: the player's own)."""
    return bool(allowed_spaces(rank, square, own) >> (rank - 1) & 1)


def _legal_rule(card: Card, square: Square, space: int, named: bool) -> str:
    """The rule that lets `card` go on `space` of `square`, as it stands there; `named`: naming the card it covers,
    else not ("the space then counts as empty")."""
    rank = card.rank
    top = square.top(space)
    if rank <= 9:
        state = text("engine.legal.numbered.empty" if top is None else "engine.legal.numbered.face_down")
        return text("engine.legal.numbered", state=state)
    if rank == TEN:
        state = text("engine.legal.ten.empty" if top is None else "engine.legal.ten.face_down")
        return text("engine.legal.ten", state=state)
    if rank == KING:
        if top is None or not named:
            return text("engine.legal.king.empty")
        shown = square.showing(space)
        under = shown.the_name if shown is not None else text("engine.the_face_down_card")
        return text("engine.legal.king.covering", the_under=under)
    assert top is not None
    shown = square.showing(space)
    effect = (text("engine.legal.cover.face_down") if shown is None else
              text("engine.legal.cover.face_up", the_under=shown.the_name) if named else
              text("engine.legal.cover.emptied"))
    owner = text("engine.legal.cover.either" if rank == JACK else "engine.legal.cover.own")
    return text("engine.legal.cover", rank=rank_words(rank), owner=owner, effect=effect)


class _PlaysByMask(dict[int, tuple[Play, ...]]):
    """The plays of one card on one player's square, by the mask of spaces it may take (filled in when first asked)."""

    def __init__(self, card: Card, owner: int) -> None:
        super().__init__()
        self.row = PLAYS[card.code][owner]

    def __missing__(self, mask: int) -> tuple[Play, ...]:
        plays = self[mask] = tuple(self.row[space - 1] for space in spaces_of(mask))
        return plays


# _PLAYS_BY_MASK[owner][card.code][mask]: every play of the card on `owner`'s square allowed by `mask`
_PLAYS_BY_MASK = tuple(tuple(_PlaysByMask(card, owner) for card in ALL_CARDS) for owner in (0, 1))

_CardMoves = tuple[int, int, int, _PlaysByMask, _PlaysByMask | None, Discard]


def _card_moves(card: Card, player: int) -> _CardMoves:
    """What listing `card`'s moves for `player` needs: the card's bit, which mask its placement reads,
    the spaces its number allows, its plays on the player's own square and on the other's (None if
    it may not go there), and its discard."""
    own_only, target, numbers = COMPILED[card.rank]
    other = None if own_only else _PLAYS_BY_MASK[1 - player][card.code]
    return (card.bit, target, numbers, _PLAYS_BY_MASK[player][card.code], other, DISCARDS[card.code])


# _CARD_MOVES[player][card.code]: `_card_moves(card, player)`
_CARD_MOVES = tuple(tuple(_card_moves(card, player) for card in ALL_CARDS) for player in (0, 1))


def may_go_out(rules: RuleSet, plays_made: int, value: int) -> bool:
    """Whether a player whose square is worth `value` may go out, having played `plays_made` cards this turn: only
    before any play, and only with a square worth the rule set's threshold or more."""
    return plays_made == 0 and value >= rules.out_threshold


def may_discard(plays_made: int) -> bool:
    """Whether a player may discard a held card, having played `plays_made` cards this turn: only instead of
    playing (a turn of plays ends with End turn, in Running Leopard)."""
    return plays_made == 0


def may_end_turn(rules: RuleSet, held: int, plays_made: int) -> bool:
    """Whether a player holding `held` cards, having played `plays_made` this turn, may end it without another move:
    with no card left to play (a pass), or after a play where several are allowed (Running Leopard)."""
    return not held or bool(plays_made and rules.multiple_plays)


def turn_moves(rules: RuleSet, squares: tuple[Square, Square] | list[Square], cards: list[Card],
               player: int, plays_made: int, value: int) -> list[Move]:
    """Every legal move for `player` holding `cards`, having played `plays_made` cards this turn
    and owning a square worth `value`: going out, plays, discards, ending the turn."""
    moves: list[Move] = [GO_OUT] if may_go_out(rules, plays_made, value) else []
    own_masks = _target_masks(squares[player])
    other_masks = _target_masks(squares[1 - player])
    by_code = _CARD_MOVES[player]
    seen = 0  # the cards listed so far, as bits: a card held twice has its moves listed once
    discards = []
    for card in cards:
        bit, target, numbers, own_plays, other_plays, discard = by_code[card.code]
        if seen & bit:
            continue
        seen |= bit
        discards.append(discard)
        mask = own_masks[target] & numbers
        if mask:
            moves += own_plays[mask]
        if other_plays is not None:
            mask = other_masks[target] & numbers
            if mask:
                moves += other_plays[mask]
    if may_discard(plays_made):
        moves += discards
    if may_end_turn(rules, len(cards), plays_made):
        moves.append(END_TURN)
    return moves
