"""The values a square can and cannot have, and the bonus table, as the engine computes them, checked
against the numbers of the rules research (shared/rules/rules.md, A.1.8 and D)."""

from __future__ import annotations

from leopard_tutor.engine import (
    ORIGINAL_1963,
    REVISED_2008,
    RUNNING_LEOPARD,
    BonusRow,
    bonus_table,
    highest_value,
    impossible_values,
    possible_values,
)


def test_the_highest_and_the_impossible_values_are_those_of_the_rules_research() -> None:
    assert (highest_value(REVISED_2008), impossible_values(REVISED_2008)) == (24, (17, 19, 21, 22, 23))
    assert (highest_value(ORIGINAL_1963), impossible_values(ORIGINAL_1963)) == (16, (15,))
    assert possible_values(RUNNING_LEOPARD) == possible_values(REVISED_2008)
    assert possible_values(REVISED_2008) == frozenset(range(25)) - {17, 19, 21, 22, 23}


def test_the_bonus_table_is_that_of_the_rules_research() -> None:
    table = {row.raw: row for row in bonus_table(REVISED_2008)}
    assert sorted(table) == sorted(possible_values(REVISED_2008))
    assert table[6] == BonusRow(6, 6, None)
    assert (table[7], table[8], table[9]) == (BonusRow(7, 7, 6), BonusRow(8, 9, 8), BonusRow(9, 11, 10))
    assert (table[16], table[18], table[20], table[24]) == (
        BonusRow(16, 25, 24), BonusRow(18, 29, 28), BonusRow(20, 33, 32), BonusRow(24, 41, 40))
    old = {row.raw: row for row in bonus_table(ORIGINAL_1963)}
    assert 15 not in old and (old[4], old[5], old[8], old[16]) == (
        BonusRow(4, 4, None), BonusRow(5, 5, 4), BonusRow(8, 11, 10), BonusRow(16, 27, 26))
