"""Playing cards: ranks, suits, colours, notation and the 104-card double deck."""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

from .catalogue import language, text, upper_first
from .errors import NotationError, quote

SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
"""The suits' English names as identifiers (data keys such as a knowledge kind); a learner reads a suit's name from
the catalogue (`words.suit.*`, in `Card.name`)."""
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")

RANK_TOKENS = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
"""The ranks' English names as identifiers; a learner reads `rank_words`, from the catalogue."""

_RANK_ALIASES = {"A": 1, "1": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
_RANK_ALIASES.update({str(n): n for n in range(2, 11)})
_SUIT_ALIASES = {
    "S": "S", "H": "H", "D": "D", "C": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}

JACK, QUEEN, KING, TEN = 11, 12, 13, 10


class Card:
    """One card. Cards are immutable and interned: `Card(7, "H") is Card.parse("7H")`."""

    __slots__ = ("rank", "suit", "color", "code", "bit", "suit_index")
    rank: int
    suit: str
    color: str
    code: int
    bit: int
    suit_index: int

    _cache: ClassVar[dict[tuple[int, str], Card]] = {}

    def __new__(cls, rank: int, suit: str) -> Card:
        if type(rank) is int and type(suit) is str:
            card = cls._cache.get((rank, suit))
            if card is not None:
                return card
        if not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= 13:
            raise NotationError(f"a card's rank is a whole number from 1 (ace) to 13 (king), not {quote(rank)}")
        if not isinstance(suit, str) or suit not in SUITS or len(suit) != 1:
            raise NotationError(f"a card's suit is one of S, H, D, C, not {quote(suit)}")
        raise AssertionError("unreachable: every valid card is interned at import")

    @classmethod
    def _make(cls, rank: int, suit: str) -> Card:
        card = object.__new__(cls)
        setter = object.__setattr__
        setter(card, "rank", rank)
        setter(card, "suit", suit)
        setter(card, "color", "red" if suit in RED_SUITS else "black")
        setter(card, "suit_index", SUITS.index(suit))
        setter(card, "code", SUITS.index(suit) * 13 + rank - 1)
        setter(card, "bit", 1 << (SUITS.index(suit) * 13 + rank - 1))
        cls._cache[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code

    def __hash__(self) -> int:
        return self.code

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as `10H`, `TH`, `10♥`, `kd` or `Q♣` (rank, then suit; case ignored)."""
        if not isinstance(text, str):
            raise NotationError(f"a card is written as text such as '7H', not {type(text).__name__}")
        stripped = text.strip()
        token = stripped.upper()
        if len(token) < 2 or len(stripped) > 8 or not all(ch.isascii() or ch in _SUIT_ALIASES for ch in stripped):
            raise NotationError(
                f"{quote(text)} is not a card: write a rank (A, 2-10, J, Q, K) then a suit (S, H, D, C)")
        rank_text, suit_text = token[:-1], token[-1]
        suit = _SUIT_ALIASES.get(suit_text)
        if suit is None:
            raise NotationError(
                f"{quote(text)} is not a card: '{stripped[-1]}' is not a suit (use S, H, D, C or ♠ ♥ ♦ ♣)")
        rank = _RANK_ALIASES.get(rank_text)
        if rank is None:
            raise NotationError(
                f"{quote(text)} is not a card: '{stripped[:-1]}' is not a rank (use A, 2-10, T, J, Q or K)")
        return cls._cache[(rank, suit)]

    @property
    def rank_token(self) -> str:
        """The rank as written in notation: A, 2..10, J, Q, K."""
        return RANK_TOKENS.get(self.rank, str(self.rank))

    @property
    def name(self) -> str:
        """The card in words, in the current language, such as '7 of hearts' or 'queen of spades'
        ('7 de corazones' in Spanish)."""
        return _card_name(self.rank, self.suit, language())

    @property
    def the_name(self) -> str:
        """The card in words with its article, in the current language, such as 'the 7 of hearts' or 'the queen of
        spades' ('el 7 de corazones', 'la reina de picas' in Spanish, where the article follows the rank)."""
        return _the_card_name(self.rank, self.suit, language())

    @property
    def the_name_first(self) -> str:
        """The card with its article, to begin a sentence: 'The 7 of hearts', 'La reina de picas' (a text's fact
        `The_card`, where `the_card` is `the_name`)."""
        return upper_first(self.the_name)

    def facts(self, key: str) -> dict[str, str]:
        """The card's names as a text's facts under `key`: `name`, `the_name` and `the_name_first`, under `key`, the
        same with ``the_`` before it, and with ``The_`` (for "card": ``card``, ``the_card``, ``The_card``)."""
        return {key: self.name, f"the_{key}": self.the_name, f"The_{key}": self.the_name_first}

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, such as '7♥'."""
        return f"{self.rank_token}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return f"{self.rank_token}{self.suit}"

    def __repr__(self) -> str:
        return f"Card.parse({quote(str(self))})"


for _suit in SUITS:
    for _rank in range(1, 14):
        Card._make(_rank, _suit)

ALL_CARDS: tuple[Card, ...] = tuple(sorted(Card._cache.values()))
"""The 52 different cards, spades first, ace to king within each suit."""


COPIES = 2
"""How many times the two packs hold each card."""
_DOUBLE_DECK = tuple(card for card in ALL_CARDS for _ in range(COPIES))


def full_deck() -> list[Card]:
    """The 104 cards of two packs shuffled together: every card twice, in a fixed order."""
    return list(_DOUBLE_DECK)


def rank_words(rank: int, *, plural: bool = False) -> str:
    """A rank in words in the current language ('ace', '7', 'king'), or its plural ('aces', '7s', 'kings')."""
    return _rank_words(rank, plural, language())


# Names are found once per card and language (a hint names cards hundreds of times a click); the language
# is an argument, so a change of language is never answered from another language's names.
@cache
def _rank_words(rank: int, plural: bool, lang: str) -> str:
    return text(f"words.{'ranks' if plural else 'rank'}.{rank}")


@cache
def _suit_words(suit: str, lang: str) -> str:
    return text(f"words.suit.{suit}")


@cache
def _card_name(rank: int, suit: str, lang: str) -> str:
    return text("words.card", rank=_rank_words(rank, False, lang), suit=_suit_words(suit, lang))


@cache
def _the_card_name(rank: int, suit: str, lang: str) -> str:
    return text("words.the_card", the_rank=text(f"words.the_rank.{rank}"), suit=_suit_words(suit, lang))
