"""The worked examples of rules.md section C, replayed from tests/data/worked_examples.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from leopard_tutor.engine import (
    ORIGINAL_1963,
    REVISED_2008,
    Card,
    Discard,
    GoOut,
    Hand,
    Play,
    Square,
    check_play,
    hand_score,
    scoring_lines,
    square_value,
)

EXAMPLES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "worked_examples.json").read_text(encoding="utf-8"))["examples"]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["key"] for e in EXAMPLES])
def test_worked_example(example: dict[str, Any]) -> None:
    square = Square.parse(example["start"])
    if "value" in example:
        assert square_value(square, REVISED_2008) == example["value"]
    if "value_1963" in example:
        assert square_value(square, ORIGINAL_1963) == example["value_1963"]
    for step in example["steps"]:
        card = Card.parse(step["card"])
        verdict = check_play(card, square, step["space"], own=step["by"] == "you")
        assert verdict.legal is step.get("legal", True), (step, verdict.reason)
        if not verdict.legal:
            continue
        square = square.with_card(card, step["space"])
        if "value" in step:
            assert square_value(square, REVISED_2008) == step["value"], step
        if "value_1963" in step:
            assert square_value(square, ORIGINAL_1963) == step["value_1963"], step
    assert str(square) == example["end"]


def test_c3_lines_after_the_king() -> None:
    square = Square.parse("AS . 3C / 4S 5C . / 7H+KS 8S 9S")
    scoring = {line.name: (line.kind, line.points) for line in scoring_lines(square) if line.points}
    assert scoring == {"row 7-8-9": ("suit", 3), "column 1-4-7": ("suit", 3),
                       "diagonal 1-5-9": ("color", 1), "diagonal 3-5-7": ("color", 1)}


def test_c1_mirror_positions_in_1963() -> None:
    # mirror: 4 at p4, 8 at p2, 3 at p9, 6 at p6 (p = reading-order position from the top-left)
    position = {space: 3 * ORIGINAL_1963.cell(space)[0] + ORIGINAL_1963.cell(space)[1] + 1 for space in (4, 8, 3, 6)}
    assert position == {4: 4, 8: 2, 3: 9, 6: 6}


def test_c8_with_bonus() -> None:
    raw_1963 = square_value(Square.parse("AD 2S 3H / 4D 5D 6H / 7H 8H 9H"), ORIGINAL_1963)
    assert (raw_1963, hand_score(raw_1963, False, ORIGINAL_1963)) == (8, 11)
    raw_2008 = square_value(Square.parse("AH 2H 3H / 4D 5D 6H / 7D 8S 9H"), REVISED_2008)
    assert (raw_2008, hand_score(raw_2008, False, REVISED_2008)) == (10, 13)


def c6_hand(rules: Any = REVISED_2008) -> Hand:
    """C6 as a hand: player 0 holds the ace; the opponent holds a jack and a spare card."""
    return Hand(rules, [Square.parse(". 2H 3H / 4H . . / 7H 8H 9H"), Square()],
                [[Card.parse("AH"), Card.parse("5C")], [Card.parse("JC"), Card.parse("2C")]],
                [Card.parse(t) for t in ("KD", "KC", "QS", "QH")], [], to_move=0, dealer=1)


def test_c6_going_out_waits_for_the_next_turn() -> None:
    hand = c6_hand()
    assert GoOut() not in hand.legal_moves()
    assert "worth at least 7" in hand.check(GoOut()).reason
    hand.apply(Play(Card.parse("AH"), 0, 1))
    assert hand.value(0) == 9 and hand.to_move == 1
    hand.apply(Discard(Card.parse("2C")))
    assert hand.to_move == 0 and GoOut() in hand.legal_moves()
    hand.apply(GoOut())
    assert hand.is_over and hand.went_out == 0
    assert hand.scores()[0] == 10  # 9 + 2 - 1


def test_c6_a_jack_on_the_ace_stops_going_out() -> None:
    hand = c6_hand()
    hand.apply(Play(Card.parse("AH"), 0, 1))
    hand.apply(Play(Card.parse("JC"), 0, 1))
    assert hand.value(0) == 3 and GoOut() not in hand.legal_moves()


def test_c6_in_1963_going_out_is_allowed_and_scores_6() -> None:
    hand = c6_hand(ORIGINAL_1963)
    hand.apply(Play(Card.parse("AH"), 0, 1))
    hand.apply(Discard(Card.parse("2C")))
    assert hand.value(0) == 6
    hand.apply(GoOut())
    assert hand.scores()[0] == 6
