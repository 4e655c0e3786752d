"""Advice in lesson files: words said after the engine's reason when a try is illegal, each entry tied
by its conditions (the verdict, the card or rank tried, the square, the space and what lies on it) to
the tries it is true of (FORMAT.md, "Advice"). An entry whose conditions no try could meet stops the import."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any

from ..engine import Card, Discard, Hand, LeopardError, Move, Play, Square, check_play
from ..engine.cards import RANK_TOKENS
from ..engine.errors import quote
from .notation import LEARNER, SQUARE_WORDS

PLAY_CODES = frozenset({"wrong-space", "covered", "own-square-only", "needs-card"})
"""The verdicts on a play the placement table refuses: they may be tied to a square, a space and its top."""
CARD_CODES = PLAY_CODES | {"not-in-hand", "discard-after-play"}
"""The verdicts on a try with a card: they may be tied to the card or its rank."""
CODES = CARD_CODES | {"out-value", "out-timing", "must-act"}
"""Every verdict code a lesson's advice may answer."""

RANKS = {RANK_TOKENS.get(rank, str(rank)): rank for rank in range(1, 14)}
"""The ranks as advice conditions write them: A, 2 ... 10, J, Q, K."""
TOPS = {"empty": frozenset({"empty"}), "face up": frozenset({"face up"}), "face down": frozenset({"face down"}),
        "open": frozenset({"empty", "face down"}), "card": frozenset({"face up", "face down"})}
"""What may lie on the space tried, as a `top` condition names it: the states each word allows."""
_ALL_RANKS = frozenset(RANKS.values())
_ALL_SPACES = frozenset(range(1, 10))
_ALL_TOPS = TOPS["empty"] | TOPS["card"]
_ALL_SQUARES = frozenset(SQUARE_WORDS.values())
_CONDITIONS = {"card", "rank", "square", "space", "top"}
_PLAY_CONDITIONS = {"square", "space", "top"}


class AdviceError(LeopardError):
    """An advice entry in a lesson file that breaks FORMAT.md, or that no try could ever meet."""


@dataclass(frozen=True)
class Advice:
    """Words said after the engine's reason for an illegal try that meets every condition: the verdict
    `code`, the `card` (any copy), its rank among `ranks`, the square's owner among `squares`, the space
    among `spaces`, and the state of the space's top card ("empty", "face up", "face down") among `tops`."""

    code: str
    text: str
    card: Card | None = None
    ranks: frozenset[int] = _ALL_RANKS
    squares: frozenset[int] = _ALL_SQUARES
    spaces: frozenset[int] = _ALL_SPACES
    tops: frozenset[str] = _ALL_TOPS

    @property
    def plays_only(self) -> bool:
        """Whether a condition names a square, a space or a top card, which only a play has."""
        return (self.squares, self.spaces, self.tops) != (_ALL_SQUARES, _ALL_SPACES, _ALL_TOPS)

    @property
    def cards_only(self) -> bool:
        """Whether a condition names a card or a rank, which only a play or a discard has."""
        return self.card is not None or self.ranks != _ALL_RANKS

    def matches(self, hand: Hand, move: Move, code: str) -> bool:
        """Whether `move`, tried in `hand` and refused with verdict `code`, meets every condition."""
        if code != self.code:
            return False
        if not isinstance(move, (Play, Discard)):
            return not (self.cards_only or self.plays_only)
        if (self.card is not None and move.card is not self.card) or move.card.rank not in self.ranks:
            return False
        if not isinstance(move, Play):
            return not self.plays_only
        square = hand.squares[move.square_owner]
        return (move.square_owner in self.squares and move.space in self.spaces
                and top_state(square, move.space) in self.tops)


def top_state(square: Square, space: int) -> str:
    """What lies on `space` of `square`: "empty", "face up" or "face down"."""
    top = square.top(space)
    return "empty" if top is None else "face up" if top[1] else "face down"


def parse_advice(data: Any) -> tuple[Advice, ...]:
    """The advice entries of a lesson file, in order; AdviceError, saying what is wrong, if they break FORMAT.md."""
    if not isinstance(data, list):
        raise AdviceError("'advice' is a list of entries such as "
                          "{\"code\": \"covered\", \"rank\": \"A-9\", \"square\": \"your\", \"text\": \"...\"}")
    return tuple(_entry(item) for item in data)


def _entry(data: Any) -> Advice:
    if not isinstance(data, dict) or not {"code", "text"} <= set(data) or set(data) - _CONDITIONS - {"code", "text"}:
        raise AdviceError(f"an advice entry has a 'code' and a 'text', and conditions among {sorted(_CONDITIONS)}")
    code, words = data["code"], data["text"]
    if not isinstance(code, str) or code not in CODES:
        raise AdviceError(f"advice answers a verdict code among {sorted(CODES)}, not {quote(code)}")
    if not isinstance(words, str) or not words.strip():
        raise AdviceError(f"the text of the advice for {quote(code)} must be a text with words in it")
    allowed = (_CONDITIONS if code in PLAY_CODES else _CONDITIONS - _PLAY_CONDITIONS if code in CARD_CODES
               else set())
    if set(data) - allowed - {"code", "text"}:
        raise AdviceError(f"advice for {quote(code)} takes conditions among {sorted(allowed)}, "
                          f"not {quote(sorted(set(data) - allowed - {'code', 'text'}))}")
    advice = Advice(code, words, card=_card(data["card"]) if "card" in data else None,
                    ranks=_ranks(data["rank"]) if "rank" in data else _ALL_RANKS,
                    squares=_square(data["square"]) if "square" in data else _ALL_SQUARES,
                    spaces=_spaces(data["space"]) if "space" in data else _ALL_SPACES,
                    tops=_top(data["top"]) if "top" in data else _ALL_TOPS)
    if advice.card is not None and advice.card.rank not in advice.ranks:
        raise AdviceError(f"the advice for {quote(code)} asks for the card {advice.card.name} "
                          "and for ranks it is not of")
    if code in PLAY_CODES and not _can_happen(advice):
        raise AdviceError(f"no play meets the conditions of the advice for {quote(code)}: "
                          "the engine never gives that verdict there")
    return advice


def _can_happen(advice: Advice) -> bool:
    """Whether some play meeting the advice's conditions gets its verdict code from the engine."""
    ranks = {advice.card.rank} if advice.card is not None else advice.ranks
    return any(check_play(Card(rank, "S"), _lone_square(space, top), space, own=owner == LEARNER).code == advice.code
               for rank, owner, space, top in product(sorted(ranks), sorted(advice.squares), sorted(advice.spaces),
                                                      sorted(advice.tops)))


def _lone_square(space: int, top: str) -> Square:
    """A square with nothing on it but `space`, whose top is as `top` says: what a verdict on that
    space depends on, besides the card and whose square it is."""
    tokens = ["."] * 9
    tokens[space - 1] = {"empty": ".", "face up": "KH", "face down": "KH+QH*"}[top]
    return Square.parse(" / ".join(" ".join(tokens[row:row + 3]) for row in (0, 3, 6)))


def _card(value: Any) -> Card:
    if not isinstance(value, str):
        raise AdviceError(f"an advice's 'card' is written like '7S', not {quote(value)}")
    return Card.parse(value)


def _ranks(value: Any) -> frozenset[int]:
    """The ranks a 'rank' condition names: one ("7", "K"), a run ("A-9") or a list of these."""
    items = value if isinstance(value, list) and value else [value]
    ranks: set[int] = set()
    for item in items:
        ends = item.split("-") if isinstance(item, str) else []
        if not 1 <= len(ends) <= 2 or not all(end in RANKS for end in ends) or RANKS[ends[0]] > RANKS[ends[-1]]:
            raise AdviceError(f"an advice's 'rank' is a rank such as \"7\" or \"K\", a run such as \"A-9\", "
                              f"or a list of these, not {quote(value)}")
        ranks.update(range(RANKS[ends[0]], RANKS[ends[-1]] + 1))
    return frozenset(ranks)


def _square(value: Any) -> frozenset[int]:
    if not isinstance(value, str) or value not in SQUARE_WORDS:
        raise AdviceError(f"an advice's 'square' is \"your\" or \"their\", not {quote(value)}")
    return frozenset({SQUARE_WORDS[value]})


def _spaces(value: Any) -> frozenset[int]:
    items = value if isinstance(value, list) and value else [value]
    if not all(isinstance(item, int) and not isinstance(item, bool) and 1 <= item <= 9 for item in items):
        raise AdviceError(f"an advice's 'space' is a space from 1 to 9 or a list of them, not {quote(value)}")
    return frozenset(items)


def _top(value: Any) -> frozenset[str]:
    if not isinstance(value, str) or value not in TOPS:
        raise AdviceError(f"an advice's 'top' is one of {quote(sorted(TOPS))}, not {quote(value)}")
    return TOPS[value]
