"""The values a square can have (engine/values.py) against the rules research's table (rules.md A.1.8 and
D, checked there by brute force) and against the engine's own pricing of random squares, and the facts
lessons name from them."""

from __future__ import annotations

import random

from leopard_tutor.engine import ORIGINAL_1963, REVISED_2008, RULE_SETS, Square, possible_values, square_value
from leopard_tutor.engine.facts import value_facts
from leopard_tutor.engine.values import line_counts

SUIT_CARDS = ("5H", "5D", "5S", "5C")  # one card of each suit: only the suit of a top card counts


def test_the_values_of_the_rules_research() -> None:
    """rules.md A.1.8 and D: at most 24 in 2008 with 17, 19, 21, 22 and 23 never reached; at most 16 in 1963
    with 15 never reached."""
    assert possible_values(REVISED_2008) == frozenset(range(25)) - {17, 19, 21, 22, 23}
    assert possible_values(ORIGINAL_1963) == frozenset(range(17)) - {15}
    assert all(possible_values(rules) for rules in RULE_SETS.values())


def test_every_pattern_of_a_random_sample_is_priced_as_the_engine_prices_squares() -> None:
    rng = random.Random(7)
    counts = line_counts()
    for _ in range(3000):
        pattern = [rng.randrange(5) for _ in range(9)]
        rows = [" ".join(SUIT_CARDS[p - 1] if p else "." for p in pattern[r * 3:r * 3 + 3]) for r in range(3)]
        square = Square.parse(" / ".join(rows))
        for rules in RULE_SETS.values():
            assert square_value(square, rules) in possible_values(rules)
        assert (square._suit_lines, square._color_lines) in counts


def test_the_value_facts() -> None:
    facts = value_facts(REVISED_2008)
    assert facts["max_value"] == 24
    assert facts["values_never_reached"] == "17, 19, 21, 22 and 23"
    table = str(facts["bonus_table"])
    assert table.startswith("7 → 7 (6); 8 → 9 (8); 9 → 11 (10)") and table.endswith("20 → 33 (32); 24 → 41 (40)")
    assert "17 →" not in table
    old = value_facts(ORIGINAL_1963)
    assert (old["max_value"], old["values_never_reached"]) == (16, "15")
    assert str(old["bonus_table"]).startswith("5 → 5 (4); 6 → 7 (6)")
