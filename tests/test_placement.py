"""The placement table (rules.md A.1.6) cell by cell, with rulings B-6 to B-10 and B-30.

The expected verdicts are written out here as data, independently of the engine's own table.
"""

from __future__ import annotations

import pytest

from leopard_tutor.engine import (
    ORIGINAL_1963,
    REVISED_2008,
    RUNNING_LEOPARD,
    Card,
    Square,
    allowed_spaces,
    check_play,
)

# What lies on the target space: nothing, a face-up card, or a face-down card on top.
STATES = {"empty": ".", "face up": "8C", "face down": "8C+QH*"}

# (rank class, own square?) -> target states where the card may go (on the right space for A-9).
EXPECTED = {
    ("A-9", True): {"empty", "face down"},
    ("A-9", False): {"empty", "face down"},          # B-8: either square, even on a face-down card
    ("10", True): {"empty", "face down"},            # B-9: a ten may go on a face-down card
    ("10", False): set(),
    ("J", True): {"face up", "face down"},           # B-6: never on an empty space; B-7: on a face-down card
    ("J", False): {"face up", "face down"},
    ("Q", True): {"face up", "face down"},
    ("Q", False): set(),
    ("K", True): {"empty", "face up", "face down"},  # B-10
    ("K", False): set(),
}


def rank_class(rank: int) -> str:
    return "A-9" if rank <= 9 else {10: "10", 11: "J", 12: "Q", 13: "K"}[rank]


def square_with(state: str, space: int) -> Square:
    tokens = ["."] * 9
    tokens[space - 1] = STATES[state]
    return Square.parse(" ".join(tokens))


@pytest.mark.parametrize("rules", [REVISED_2008, ORIGINAL_1963, RUNNING_LEOPARD], ids=lambda r: r.key)
@pytest.mark.parametrize("own", [True, False], ids=["own", "opponent"])
@pytest.mark.parametrize("state", list(STATES))
@pytest.mark.parametrize("rank", range(1, 14))
def test_placement_table(rank: int, state: str, own: bool, rules: object) -> None:
    card = Card(rank, "H")
    for space in range(1, 10):
        square = square_with(state, space)
        expected = state in EXPECTED[(rank_class(rank), own)] and (rank > 9 or space == rank)
        verdict = check_play(card, square, space, own=own)  # type: ignore[arg-type]
        assert verdict.legal is expected, (str(card), space, state, own, verdict.reason)
        assert bool(allowed_spaces(rank, square, own) >> (space - 1) & 1) is expected
        assert card.name in verdict.reason and f"space {space}" in verdict.reason


def test_b30_a_six_cannot_go_straight_onto_a_six() -> None:
    square = Square.parse(". . . / . . 6S / . . .")
    verdict = check_play(Card.parse("6H"), square, 6, own=False)
    assert not verdict.legal and verdict.code == "covered"
    assert "6 of spades" in verdict.reason and "jack" in verdict.reason
    covered = Square.parse(". . . / . . 6S+JD* / . . .")
    assert check_play(Card.parse("6H"), covered, 6, own=False).legal


def test_reasons_name_the_card_space_and_rule() -> None:
    square = Square.parse("AS . 3C / 4S 5C . / 7H 8S 9S")
    wrong = check_play(Card.parse("4H"), square, 6, own=True)
    assert wrong.code == "wrong-space"
    assert wrong.reason.startswith("A 4 only goes on space 4")
    assert "4 of spades" in wrong.reason  # says why space 4 here will not do either
    queen = check_play(Card.parse("QD"), square, 7, own=False)
    assert queen.reason.startswith("Queens go face down on your own square only")
    assert "jack" in queen.reason  # what would work instead
    ten = check_play(Card.parse("10D"), square, 5, own=True)
    assert ten.code == "covered" and "Spaces 2 and 6 of your square are open" in ten.reason
    jack = check_play(Card.parse("JD"), square, 2, own=False)
    assert jack.code == "needs-card" and "empty" in jack.reason
    king = check_play(Card.parse("KS"), square, 7, own=True)
    assert king.legal and "7 of hearts" in king.reason and "king" in king.reason
    jack_ok = check_play(Card.parse("JC"), Square.parse("AH 2H 3H / . . 6H / . . 9H"), 3, own=False)
    assert jack_ok.legal and "face down" in jack_ok.reason and "3 of hearts" in jack_ok.reason


def test_bad_arguments_are_refused() -> None:
    square = Square()
    with pytest.raises(ValueError, match="numbered 1 to 9"):
        check_play(Card.parse("AS"), square, 0, own=True)
    with pytest.raises(ValueError, match="Card"):
        check_play("AS", square, 1, own=True)  # type: ignore[arg-type]


def test_a_ten_with_no_open_space_is_told_the_true_ways_to_make_room() -> None:
    full = Square.parse("AS 2S 3S / 4S 5S 6S / 7S 8S 9S")
    reason = check_play(Card.parse("10H"), full, 5, own=True).reason
    assert "only a king can cover" not in reason
    assert "jack" in reason and "queen" in reason
