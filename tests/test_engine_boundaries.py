"""The engine depends on the standard library only."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import leopard_tutor.engine

ENGINE = Path(leopard_tutor.engine.__file__).parent


def test_engine_imports_only_the_standard_library() -> None:
    outside = []
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            outside += [f"{path.name}: {n}" for n in names
                        if n.split(".")[0] not in sys.stdlib_module_names and n != "__future__"]
    assert outside == []
