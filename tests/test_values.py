"""The facts lessons name from the values a square can have (engine/values.py, checked against the rules
research in tests/test_possible_values.py)."""

from __future__ import annotations

from leopard_tutor.engine import ORIGINAL_1963, REVISED_2008
from leopard_tutor.engine.facts import value_facts


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
