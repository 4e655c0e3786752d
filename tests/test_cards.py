"""Card notation: every accepted spelling, the canonical form, and clear errors for anything else."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leopard_tutor.engine import ALL_CARDS, Card, LeopardError, NotationError, full_deck


@pytest.mark.parametrize(("text", "canonical", "rank", "suit", "color"), [
    ("10H", "10H", 10, "H", "red"),
    ("TH", "10H", 10, "H", "red"),
    ("10♥", "10H", 10, "H", "red"),
    ("kd", "KD", 13, "D", "red"),
    ("Q♣", "QC", 12, "C", "black"),
    ("AS", "AS", 1, "S", "black"),
    ("1s", "AS", 1, "S", "black"),
    (" 7h ", "7H", 7, "H", "red"),
    ("j♠", "JS", 11, "S", "black"),
    ("9♢", "9D", 9, "D", "red"),
])
def test_parse_accepts_every_spelling(text: str, canonical: str, rank: int, suit: str, color: str) -> None:
    card = Card.parse(text)
    assert (str(card), card.rank, card.suit, card.color) == (canonical, rank, suit, color)


def test_every_card_round_trips_and_is_interned() -> None:
    assert len(ALL_CARDS) == 52
    for card in ALL_CARDS:
        assert Card.parse(str(card)) is card
        assert Card(card.rank, card.suit) is card
        assert copy.deepcopy(card) is card
        assert pickle.loads(pickle.dumps(card)) is card


def test_names_in_words() -> None:
    words = {str(c): c.name for c in map(Card.parse, ["AS", "7H", "10C", "JD", "QH", "KS"])}
    assert words == {"AS": "ace of spades", "7H": "7 of hearts", "10C": "10 of clubs", "JD": "jack of diamonds",
                     "QH": "queen of hearts", "KS": "king of spades"}
    assert Card.parse("7H").symbol == "7♥"


def test_double_deck_has_every_card_twice() -> None:
    deck = full_deck()
    assert len(deck) == 104
    assert all(deck.count(card) == 2 for card in ALL_CARDS)


def test_cards_cannot_be_changed() -> None:
    with pytest.raises(AttributeError):
        Card.parse("7H").rank = 8  # type: ignore[misc]


@pytest.mark.parametrize(("text", "complaint"), [
    ("", "is not a card"), ("7", "is not a card"), ("7X", "not a suit"), ("11H", "not a rank"),
    ("0S", "not a rank"), ("ZZ", "not a suit"), ("HH", "not a rank"), ("10", "not a suit"),
])
def test_bad_text_says_what_is_wrong(text: str, complaint: str) -> None:
    with pytest.raises(NotationError, match=complaint):
        Card.parse(text)


@pytest.mark.parametrize("args", [(0, "H"), (14, "S"), (7, "X"), ("7", "H"), (True, "H")])
def test_bad_constructor_arguments(args: tuple[object, object]) -> None:
    with pytest.raises(LeopardError):
        Card(*args)  # type: ignore[arg-type]


def test_non_text_is_refused() -> None:
    with pytest.raises(NotationError):
        Card.parse(7)  # type: ignore[arg-type]


@given(st.text(max_size=6))
def test_fuzzed_text_only_raises_notation_errors(text: str) -> None:
    try:
        card = Card.parse(text)
    except NotationError as error:
        assert str(error)
    else:
        assert Card.parse(str(card)) is card
