"""Every rule of the rules research (rules.md sections A and B) is taught somewhere: the mapping in
lessons/data/rule_coverage.json names, for each rule by id, the lesson, worked example or rules-sheet
entry that teaches it and how, or (only for a rule about the program or one no learner needs) why not.
This is what makes the last stage's "You have seen every rule of Leopard in play" true."""

from __future__ import annotations

import json
from pathlib import Path

from leopard_tutor.engine.catalogue import TEXTS_ROOT
from leopard_tutor.examples import WORKED_EXAMPLES
from leopard_tutor.lessons import LESSONS
from leopard_tutor.lessons.model import STAGES_DIR

COVERAGE = Path(STAGES_DIR).parent / "rule_coverage.json"
RULE_IDS = [
    *(f"A.1.{n}" for n in range(1, 14)),  # the 2008 rules
    *(f"A.2.{n}" for n in range(1, 10)),  # the rows of the 1963 table, in order
    *(f"A.3.{n}" for n in range(1, 7)),  # Running Leopard
    *(f"B-{n}" for n in range(1, 32)),  # the rulings
]
"""The rules of rules.md sections A and B (A.0 is vocabulary, A.4 a summary of A.1 to A.3)."""
NOT_TAUGHT = {"A.2.9", "B-23", "B-28", "B-31"}
"""Rules given a reason instead: the unknown partnership game, two points about the program only, and a
simplification in one source that is not a rule."""


def coverage() -> list[dict[str, object]]:
    rules = json.loads(COVERAGE.read_text(encoding="utf-8"))["rules"]
    assert isinstance(rules, list)
    return rules


def sheet_has(key: str) -> bool:
    node: object = json.loads((TEXTS_ROOT / "en" / "rules_sheet.json").read_text(encoding="utf-8"))
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return isinstance(node, str) or (isinstance(node, dict) and ("plural" in node or "person" in node))


def test_the_mapping_lists_every_rule_of_sections_a_and_b_once_in_order() -> None:
    assert [item["id"] for item in coverage()] == RULE_IDS


def test_every_rule_is_taught_by_what_exists_or_has_an_honest_reason() -> None:
    lessons = {lesson.key for lesson in LESSONS}
    examples = {example.key for example in WORKED_EXAMPLES}
    for item in coverage():
        rule_id = item["id"]
        assert item["rule"], rule_id
        if rule_id in NOT_TAUGHT:
            assert set(item) == {"id", "rule", "reason"} and item["reason"], rule_id
            continue
        assert set(item) == {"id", "rule", "taught by", "how"} and item["how"], rule_id
        places = item["taught by"]
        assert isinstance(places, list) and places, rule_id
        for place in places:
            ((kind, key),) = place.items()
            known = {"lesson": key in lessons, "example": key in examples, "sheet": sheet_has(key)}
            assert known[kind], (rule_id, place)


def test_every_new_stage_teaches_some_rule_and_the_last_stage_claims_them_all() -> None:
    taught = {place["lesson"] for item in coverage() for place in item.get("taught by", [])  # type: ignore[attr-defined]
              if "lesson" in place}
    assert {"what-you-see", "running-leopard", "values-and-bonus", "stock-runs-out"} <= taught
    assert "every rule of Leopard" in LESSONS[-1].success
