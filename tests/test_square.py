"""Square notation and the square's own bookkeeping (tops, open spaces, lines)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leopard_tutor.engine import LINES, Card, Hidden, LeopardError, NotationError, Square
from leopard_tutor.engine.cards import ALL_CARDS, JACK, QUEEN


@pytest.mark.parametrize("text", [
    ". . . / . . . / . . .",
    "AS . 3C / 4S 5C . / 7H+KS 8S 9S",
    "7H+QD*+7S . . / . 5S+JC* . / . . KD",
    "AH 2H 3H / . . 6H / . . 9H",
    "2S+?* . 5H+J?* / . . . / . . .",
])
def test_round_trip(text: str) -> None:
    square = Square.parse(text)
    assert str(square) == text
    assert Square.parse(str(square)) == square


def test_rows_may_be_written_without_slashes_or_with_lower_case() -> None:
    assert Square.parse("as . 3c 4s 5c . 7h+ks 8s 9s") == Square.parse("AS . 3C / 4S 5C . / 7H+KS 8S 9S")
    assert Square.parse("AS . 3C/4S 5C ./7H 8S 9S") == Square.parse("AS . 3C / 4S 5C . / 7H 8S 9S")


def test_top_pile_and_cards() -> None:
    square = Square.parse("7H+QD*+7S . . / . 5S+JC* . / . . KD")
    assert square.top(1) == (Card.parse("7S"), True)
    assert square.top(5) == (Card.parse("JC"), False)
    assert square.top(2) is None
    assert square.pile(1) == ((Card.parse("7H"), True), (Card.parse("QD"), False), (Card.parse("7S"), True))
    assert [str(c) for c in square.cards()] == ["7H", "QD", "7S", "5S", "JC", "KD"]
    assert square.is_open(5) and square.is_open(2) and not square.is_open(1)
    assert square.showing(5) is None and square.showing(9) == Card.parse("KD")


@pytest.mark.parametrize(("text", "complaint"), [
    (". . .", "needs 9 tokens"),
    (". . . . . . . . . .", "needs 9 tokens"),
    ("QD . . . . . . . .", "always played face down"),
    ("JS . . . . . . . .", "always played face down"),
    ("7H* . . . . . . . .", "only jacks and queens"),
    ("KS* . . . . . . . .", "only jacks and queens"),
    ("7X . . . . . . . .", "not a suit"),
    ("7H+ . . . . . . . .", "not a card"),
    (". . / . . . . / . . .", "between rows"),
    ("? . . . . . . . .", "written with"),
    ("JS* . . . . . . . .", "never on an empty space"),
    (". . . / . . . / . QD* .", "space 8: a face-down card .* never on an empty space"),
    ("?* . . . . . . . .", "never on an empty space"),
    ("J?* . . . . . . . .", "never on an empty space"),
])
def test_bad_squares_are_refused_with_a_reason(text: str, complaint: str) -> None:
    with pytest.raises(NotationError, match=complaint):
        Square.parse(text)


@pytest.mark.parametrize(("text", "card", "where"), [
    ("AS+AS+AS . . . . . . . .", "AS", ""),
    ("7H . . / . 7H+QD*+7H . / . . .", "7H", "space 5: .* "),
])
def test_a_card_three_times_is_refused_by_its_name(text: str, card: str, where: str, keyed: None) -> None:
    """The notation's complaints are the programmer's English, but the card in them is named by the catalogue
    (`Card.name`, a marker under `keyed`), in the language in use."""
    named = re.escape(Card.parse(card).name)
    assert named.startswith(re.escape("⟦"))
    with pytest.raises(NotationError, match=f"{where}{named} 3 times: the two packs have 2"):
        Square.parse(text)


def test_hidden_cards_are_face_down_jacks_or_queens() -> None:
    square = Square.parse("AS+J?* . . / . . . / . . .")
    face, face_up = square.top(1)  # type: ignore[misc]
    assert face == Hidden(jack_only=True) and not face_up
    assert square.cards() == [Card.parse("AS")]
    with pytest.raises(LeopardError):
        Square([[(Hidden(), True)]] + [[]] * 8)


def test_with_card_leaves_the_original_alone() -> None:
    square = Square.parse("AS . 3C / 4S 5C . / 7H 8S 9S")
    after = square.with_card(Card.parse("QD"), 7)
    assert str(square) == "AS . 3C / 4S 5C . / 7H 8S 9S"
    assert str(after) == "AS . 3C / 4S 5C . / 7H+QD* 8S 9S"
    jacked = square.with_card(Card.parse("JC"), 7, by_other=True)
    assert str(jacked) == "AS . 3C / 4S 5C . / 7H+JC*! 8S 9S" and Square.parse(str(jacked)) == jacked
    for own_only in ("10H", "QD", "KS"):
        with pytest.raises(LeopardError, match="other player"):
            square.with_card(Card.parse(own_only), 7, by_other=True)


def test_space_numbers_are_checked() -> None:
    square = Square()
    for bad in (0, 10, "3", True):
        with pytest.raises(LeopardError, match="numbered 1 to 9"):
            square.top(bad)  # type: ignore[arg-type]


_face_up = st.sampled_from([str(card) for card in ALL_CARDS if card.rank not in (JACK, QUEEN)])
_face_down = st.sampled_from([f"{card}*" for card in ALL_CARDS if card.rank in (JACK, QUEEN)] + ["?*", "J?*"])
_token = st.one_of(st.just("."), st.tuples(_face_up, st.lists(st.one_of(_face_up, _face_down), max_size=2))
                   .map(lambda layers: "+".join([layers[0], *layers[1]])))


@given(st.lists(_token, min_size=9, max_size=9))
def test_generated_squares_round_trip_and_lines_agree(tokens: list[str]) -> None:
    text = " ".join(tokens)
    counts = Counter(layer.rstrip("*") for token in tokens for layer in token.split("+") if "?" not in layer)
    counts.pop(".", None)
    if max(counts.values(), default=0) > 2:
        with pytest.raises(NotationError, match="the two packs have 2 of each card"):
            Square.parse(text)
        return
    square = Square.parse(text)
    assert Square.parse(str(square)) == square
    for index, spaces in enumerate(LINES):
        shown = [square.showing(s) for s in spaces]
        if any(card is None for card in shown):
            expected = None
        elif len({c.suit for c in shown}) == 1:  # type: ignore[union-attr]
            expected = "suit"
        elif len({c.color for c in shown}) == 1:  # type: ignore[union-attr]
            expected = "color"
        else:
            expected = None
        assert square.line_kind(index) == expected


@given(st.one_of(st.text(max_size=30),
                 st.text(alphabet=st.sampled_from(list("AJQKT0123456789SHDCshdc♥♠*+./? x")), max_size=40)))
def test_fuzzed_text_only_raises_notation_errors(text: str) -> None:
    try:
        square = Square.parse(text)
    except NotationError as error:
        assert str(error)
    else:
        assert Square.parse(str(square)) == square
