"""Write docs/table-modes.md: the table's modes and transitions as a Mermaid diagram, drawn from the transition
table itself (leopard_tutor/table/machine.py), so the picture never drifts from the code.

Usage: .venv/bin/python scripts/table_modes.py   (tests/test_table_machine_doc.py checks the file is current)
"""

from __future__ import annotations

from pathlib import Path

from leopard_tutor.table.machine import mermaid

DOC = Path(__file__).resolve().parent.parent / "docs" / "table-modes.md"


def page() -> str:
    """The whole page: what a mode is, the diagram, and where each part lives."""
    return f"""# The table's modes

A table (`leopard_tutor/table/`) is in exactly one mode at a time, and changes mode only along the transition
table in `leopard_tutor/table/machine.py` (`TRANSITIONS`: mode × intent → the modes it may lead to). Where an
intent may lead to several modes, the turn runner (`leopard_tutor/engine/turns.py`) decides which: after a move
the hand goes on, the device is passed to the other person at the same device, or the hand or the match is over.
Which actions a mode offers, and why not the others, is said by `leopard_tutor/table/offers.py`.

This page is written by `scripts/table_modes.py` from the transition table; intents that keep the mode (a hint,
"why", undo, a change of opponent or name) are left out of the drawing.

```mermaid
{mermaid()}```
"""


def main() -> None:
    DOC.write_text(page(), encoding="utf-8")
    print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
