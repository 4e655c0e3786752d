"""The placement table (rules.md A.1.6) cell by cell, with rulings B-6 to B-10 and B-30.

The expected verdicts are written out here as data, independently of the engine's own table.
"""

from __future__ import annotations

import pytest
from keyed import mark, said

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


def test_reasons_name_the_card_space_and_rule(keyed: None) -> None:
    square = Square.parse("AS . 3C / 4S 5C . / 7H 8S 9S")

    def card(code: str) -> str:
        return Card.parse(code).the_name

    def first(code: str) -> str:
        return Card.parse(code).the_name_first

    wrong = check_play(Card.parse("4H"), square, 6, own=True)
    assert wrong.code == "wrong-space" and wrong.key == "engine.illegal.wrong_space"
    assert said(wrong.reason, "engine.illegal.wrong_space", a_rank=mark("words.a_rank.4"), number=4,
                the_card=card("4H"), where=mark("engine.place.own", space=6))
    assert said(wrong.reason, "engine.illegal.wrong_space.taken", number=4, the_blocker=card("4S"))  # why not space 4
    queen = check_play(Card.parse("QD"), square, 7, own=False)
    assert said(queen.reason, "engine.illegal.own_only", ranks=mark("engine.illegal.own_only.ranks.queen"),
                the_card=card("QD"), manner=mark("engine.illegal.own_only.face_down"),
                where=mark("engine.place.other", space=7))
    assert said(queen.reason, "engine.illegal.own_only.queen")  # what would work instead: a jack
    ten = check_play(Card.parse("10D"), square, 5, own=True)
    assert ten.code == "covered" and said(ten.reason, "engine.illegal.ten_covered", The_card=first("10D"),
                                                 the_shown=card("5C"))
    assert said(ten.reason, "engine.illegal.ten_covered.open", spaces=mark("engine.spaces.many", first=2, last=6))
    jack = check_play(Card.parse("JD"), square, 2, own=False)
    assert jack.code == "needs-card" and said(jack.reason, "engine.illegal.needs_card", the_card=card("JD"),
                                               where=mark("engine.place.other", space=2))
    king = check_play(Card.parse("KS"), square, 7, own=True)
    assert king.legal and said(king.reason, "engine.legal.play", The_card=first("KS"),
                               where=mark("engine.place.own", space=7))
    assert said(king.reason, "engine.legal.king.covering", the_under=card("7H"))
    # the rule alone names neither the card nor the place (said beside words that name them)
    assert said(king.rule, "engine.legal.king.empty") and card("7H") not in king.rule and "KS" not in king.rule
    jack_ok = check_play(Card.parse("JC"), Square.parse("AH 2H 3H / . . 6H / . . 9H"), 3, own=False)
    assert jack_ok.legal and said(jack_ok.reason, "engine.legal.play_face_down", The_card=first("JC"),
                                  where=mark("engine.place.other", space=3))
    assert said(jack_ok.reason, "engine.legal.cover.face_up", the_under=card("3H"))
    assert said(jack_ok.rule, "engine.legal.cover") and said(jack_ok.rule, "engine.legal.cover.emptied")
    assert not said(jack_ok.rule, "engine.legal.cover.face_up") and not said(jack_ok.rule, "engine.legal.play")
    assert not wrong.rule, "a refusal keeps no rule apart"


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
