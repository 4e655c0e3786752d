"""Layouts, lines, line values and the bonus tables D.1 and D.2."""

from __future__ import annotations

import pytest

from leopard_tutor.engine import (
    LINES,
    ORIGINAL_1963,
    REVISED_2008,
    RULE_SETS,
    RUNNING_LEOPARD,
    LeopardError,
    ScoreParts,
    Square,
    bonus,
    hand_score,
    rules_by_key,
    score_parts,
    scoring_lines,
    square_value,
)
from leopard_tutor.engine.legality import may_discard, may_end_turn, may_go_out


def test_2008_labels_run_in_reading_order() -> None:
    assert [space for row in REVISED_2008.grid for space in row] == list(range(1, 10))
    assert REVISED_2008.cell(1) == (0, 0) and REVISED_2008.cell(9) == (2, 2)
    # C1: the 8 lies one row down and one column right of the 4
    assert REVISED_2008.cell(8) == (REVISED_2008.cell(4)[0] + 1, REVISED_2008.cell(4)[1] + 1)


def test_1963_labels_are_the_keypad() -> None:
    assert ORIGINAL_1963.grid == ((7, 8, 9), (4, 5, 6), (1, 2, 3))
    assert ORIGINAL_1963.cell(7) == (0, 0) and ORIGINAL_1963.cell(3) == (2, 2)
    # C1 mirrored: in 1963 the 8 is up and to the right of the 4
    assert ORIGINAL_1963.cell(8) == (ORIGINAL_1963.cell(4)[0] - 1, ORIGINAL_1963.cell(4)[1] + 1)
    for space in range(1, 10):
        assert ORIGINAL_1963.space_at(*ORIGINAL_1963.cell(space)) == space


def test_line_names_follow_the_drawing() -> None:
    names = [line.name for line in scoring_lines(Square(), REVISED_2008)]
    assert names == ["row 1-2-3", "row 4-5-6", "row 7-8-9", "column 1-4-7", "column 2-5-8", "column 3-6-9",
                     "diagonal 1-5-9", "diagonal 3-5-7"]
    names_1963 = [line.name for line in scoring_lines(Square(), ORIGINAL_1963)]
    assert names_1963[:3] == ["row 7-8-9", "row 4-5-6", "row 1-2-3"]
    assert sorted(names) == sorted(names_1963)


def test_rule_set_numbers() -> None:
    table = {r.key: (r.suit_points, r.color_points, r.out_threshold, r.bonus_threshold, r.out_penalty,
                     r.draws_per_turn, r.multiple_plays, r.hands_per_match)
             for r in (REVISED_2008, ORIGINAL_1963, RUNNING_LEOPARD)}
    assert table == {
        "REVISED_2008": (3, 1, 7, 7, 1, 1, False, 4),
        "ORIGINAL_1963": (2, 1, 5, 5, 1, 1, False, 4),
        "RUNNING_LEOPARD": (3, 1, 7, 7, 1, 2, True, 4),
    }
    assert rules_by_key("ORIGINAL_1963") is ORIGINAL_1963
    with pytest.raises(LeopardError, match="unknown rule set"):
        rules_by_key("1999")


@pytest.mark.parametrize(("text", "value_2008", "value_1963"), [
    ("AH 2H 3H / 4H 5H 6H / 7H 8H 9H", 24, 16),       # every line one suit
    ("AH 2D 3H / 4D 5H 6D / 7H 8D 9H", 12, 10),       # all red: diagonals all hearts, six lines mixed
    ("AH 2H 3H / . . . / . . .", 3, 2),
    ("AH 2D 3H / . . . / . . .", 1, 1),
    ("AH 2S 3H / . . . / . . .", 0, 0),               # mixed colours
    ("AH 2H 3S+QH* / . . . / . . .", 0, 0),           # a face-down card breaks the line
    ("AH 2H 3H+JS* / . . . / . . .", 0, 0),
    ("AH 2H 3H+JS*+KH / . . . / . . .", 3, 2),        # a king on top shows its suit again
])
def test_line_values(text: str, value_2008: int, value_1963: int) -> None:
    square = Square.parse(text)
    assert square_value(square, REVISED_2008) == value_2008
    assert square_value(square, ORIGINAL_1963) == value_1963
    assert square_value(square, REVISED_2008) == sum(line.points for line in scoring_lines(square, REVISED_2008))


def test_a_one_suit_line_is_not_also_paid_as_a_colour_line() -> None:  # B-11
    lines = scoring_lines(Square.parse("AH 2H 3H / . . . / . . ."))
    assert [(line.name, line.kind, line.points) for line in lines if line.points] == [("row 1-2-3", "suit", 3)]


# D.1 and D.2: raw -> (with bonus, if this player went out), written out as in rules.md.
BONUS_2008 = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 9, 9: 11, 10: 13, 11: 15, 12: 17, 13: 19,
              14: 21, 15: 23, 16: 25, 17: 27, 18: 29, 19: 31, 20: 33, 21: 35, 22: 37, 23: 39, 24: 41}
BONUS_1963 = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 7, 7: 9, 8: 11, 9: 13, 10: 15, 11: 17, 12: 19, 13: 21,
              14: 23, 15: 25, 16: 27}


@pytest.mark.parametrize(("rules", "table"), [(REVISED_2008, BONUS_2008), (ORIGINAL_1963, BONUS_1963)],
                         ids=["D.1", "D.2"])
def test_bonus_tables(rules: object, table: dict[int, int]) -> None:
    for raw, with_bonus in table.items():
        assert hand_score(raw, False, rules) == with_bonus  # type: ignore[arg-type]
        assert raw + bonus(raw, rules) == with_bonus  # type: ignore[arg-type]
        if raw >= rules.out_threshold:  # type: ignore[attr-defined]
            assert hand_score(raw, True, rules) == with_bonus - 1  # type: ignore[arg-type]


def test_c9_and_b18_going_out_at_the_threshold() -> None:
    assert [hand_score(raw, False) for raw in (7, 8, 9)] == [7, 9, 11]
    assert hand_score(7, True, REVISED_2008) == 6 and hand_score(5, True, ORIGINAL_1963) == 4


def test_a_score_in_parts_adds_up_to_the_hands_score() -> None:
    """What the end of a hand shows (raw, bonus, penalty) adds up to the score the engine gives, in every rule set."""
    for rules in RULE_SETS.values():
        for raw in range(25):
            for out in (False, True):
                parts = score_parts(raw, out, rules)
                assert parts.raw + parts.bonus - parts.penalty == parts.total == hand_score(raw, out, rules)
                assert parts.bonus == bonus(raw, rules) and parts.penalty == (rules.out_penalty if out else 0)
    assert score_parts(5, True, ORIGINAL_1963) == ScoreParts(raw=5, bonus=0, penalty=1, total=4)


def test_bad_raw_values() -> None:
    for bad in (-1, 2.5, "7", True):
        with pytest.raises(LeopardError):
            hand_score(bad, False)  # type: ignore[arg-type]
        with pytest.raises(LeopardError):
            score_parts(bad, False)  # type: ignore[arg-type]


def test_lines_know_how_they_lie_and_are_listed_by_that_not_by_their_names() -> None:
    for rules in RULE_SETS.values():
        lines = scoring_lines(Square(), rules)
        assert [line.orientation for line in lines] == ["row"] * 3 + ["column"] * 3 + ["diagonal"] * 2
        assert all(line.name.startswith(line.orientation) for line in lines)
        assert sorted(line.spaces for line in lines) == sorted(LINES)


def test_the_turns_rules_are_each_said_once_and_follow_the_rule_set() -> None:
    """Going out at the rule set's threshold and only before a play; a discard only instead of a play; a turn ended
    with no card held, or after a play where several are allowed."""
    for rules in RULE_SETS.values():
        threshold = rules.out_threshold
        assert may_go_out(rules, 0, threshold) and not may_go_out(rules, 0, threshold - 1)
        assert not may_go_out(rules, 1, threshold + 5)
        assert may_end_turn(rules, 0, 0) and not may_end_turn(rules, 3, 0)
        assert may_end_turn(rules, 3, 1) == rules.multiple_plays
    assert may_discard(0) and not may_discard(1)
    assert (ORIGINAL_1963.out_threshold, REVISED_2008.out_threshold) == (5, 7)
