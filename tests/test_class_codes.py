"""Names that read alike (`class_codes.name_key`): where two would be shown together, one is refused."""

from __future__ import annotations

import unicodedata

import pytest

from leopard_tutor.class_codes import LOOK_ALIKE, ClassTableError, name_key, player_name, valid_code, valid_name


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


def test_a_table_code_typed_in_full_width_letters_is_that_code() -> None:
    """Names in full-width letters were read as names ("Ａｎａ" is Ana), table codes refused ("ＺＤＡＰ")."""
    assert valid_code("\uff3a\uff24\uff21\uff30") == valid_code(" zdap ") == "ZDAP"
    with pytest.raises(ClassTableError, match="bad_code"):
        valid_code("\uff3a\uff24\uff21")


@pytest.mark.parametrize(("name", "key", "facts"), [
    ("x" * 200, "name_too_long", {"most": 24, "length": 200}),
    ("Dan\u200b", "name_unprintable", {}),
    ("Bo" + "\u0336" * 4 + "b", "name_marks", {"most": 3}),
    (7, "bad_name", {}),
])
def test_a_refused_name_says_what_is_wrong_with_it(name: object, key: str, facts: dict[str, object]) -> None:
    """A class's name refused said "at most 24 characters, with letters, digits, spaces and punctuation only" of a name
    of 200 characters, of one with an invisible character, and of none (yet "Fay ★" is a name): each says its own."""
    with pytest.raises(ClassTableError) as refused:
        valid_name(name)
    assert (refused.value.key, refused.value.facts) == (key, facts)
    assert valid_name("Fay \u2605") == "Fay \u2605"
