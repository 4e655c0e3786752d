"""No module but the turn runner advances a game: every call that makes a move (`.apply(...)`) or deals a match's
next hand (`.next_hand()`) outside `engine/turns.py` is in the engine's own hand and match, or in the computer's
searches and the review's replays, which play out copies of a hand in their heads and advance no game."""

from __future__ import annotations

import ast
from pathlib import Path

import leopard_tutor

PACKAGE = Path(leopard_tutor.__file__).parent
SEARCHES = {"ai/players.py", "ai/judging.py", "ai/review.py", "ai/why.py"}
"""Where a hand's copy is played out to judge or explain moves (the expert's search, the judging search of hints and
the review, the review's and why's replays)."""
ENGINE = {"engine/turns.py", "engine/hand.py", "engine/match.py"}


def calls(path: Path, names: set[str]) -> list[int]:
    """The lines of `path` that call a method with one of `names`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names]


def test_only_the_turn_runner_advances_a_game() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in ENGINE | SEARCHES:
            continue
        found += [f"{relative}:{line}" for line in calls(path, {"apply", "next_hand"})]
    # a class table's next deal is the table's own `next_hand` (which deals through the turn runner)
    allowed = {f"table/class_table.py:{line}" for line in calls(PACKAGE / "table/class_table.py", {"next_hand"})}
    assert sorted(set(found) - allowed) == []
