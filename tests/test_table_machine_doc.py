"""The diagram of the table's modes in the developer documentation is the transition table's own drawing."""

from __future__ import annotations

from pathlib import Path

from project_scripts import load_script

from leopard_tutor.table.machine import MODES, TRANSITIONS, mermaid

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_diagram_is_drawn_from_the_transition_table() -> None:
    script = load_script("table_modes")
    assert (ROOT / "docs" / "table-modes.md").read_text(encoding="utf-8") == script.page(), \
        "run scripts/table_modes.py after changing the transition table"


def test_every_mode_is_reached_and_left() -> None:
    drawn = mermaid()
    for mode in MODES:
        assert any(new == mode for targets in TRANSITIONS.values() for new in targets), mode
        assert any(old == mode for old, _ in TRANSITIONS), mode
        assert f"{mode} -->" in drawn or f"--> {mode}" in drawn
