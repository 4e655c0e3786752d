"""Names that read alike (`class_codes.name_key`): where two would be shown together, one is refused."""

from __future__ import annotations

import unicodedata

import pytest

from leopard_tutor.class_codes import LOOK_ALIKE, name_key, player_name


@pytest.mark.parametrize(("one", "other"), [
    ("Ana", "ANA"),
    ("Ana", "\u0410na"),  # a Cyrillic capital A
    ("Oscar", "\u041esc\u0430r"),  # Cyrillic O and a
    ("Kate", "\u039a\u03b1te"),  # a Greek capital kappa and a small alpha
    ("Ana", "\uff21\uff4e\uff41"),  # full-width letters
    ("Bo", "\U0001d401\U0001d428"),  # mathematical bold letters
    ("José", "Jose\u0301"),  # an accent composed or combined
])
def test_names_that_read_alike_have_one_key(one: str, other: str) -> None:
    assert name_key(player_name(one, "")) == name_key(player_name(other, ""))


@pytest.mark.parametrize(("one", "other"), [("Ana", "Ána"), ("Ai", "Al"), ("Ana", "Anna"), ("Ben", "Ben 2")])
def test_names_that_read_apart_have_two(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


def test_each_look_alike_letter_is_another_alphabets_and_stands_for_a_latin_one() -> None:
    for letter, latin in LOOK_ALIKE.items():
        assert unicodedata.name(chr(letter)).split()[0] in ("CYRILLIC", "GREEK"), chr(letter)
        assert chr(letter) == chr(letter).casefold() and "a" <= chr(latin) <= "z"
