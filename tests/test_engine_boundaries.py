"""The engine depends on the standard library only; what a kernel and the class server share is one protocol module,
so the server's modules import no kernel-side client."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import leopard_tutor.engine

ENGINE = Path(leopard_tutor.engine.__file__).parent
PACKAGE = ENGINE.parent
KERNEL_SIDE = ("client",)
"""The package a page's kernel asks the server with: the server never imports it (it reads `protocol.py`)."""


def relative_imports(path: Path) -> list[str]:
    """The package modules `path` (under leopard_tutor/) imports, as dotted names from the package."""
    here = path.relative_to(PACKAGE).parent.parts
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
            found.append(".".join((*base, *(node.module or "").split("."))).strip("."))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("leopard_tutor."):
            found.append((node.module or "").removeprefix("leopard_tutor."))
    return found


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


def test_the_server_imports_no_kernel_side_client() -> None:
    found = [f"{path.name}: {name}" for path in (PACKAGE / "server").glob("*.py") for name in relative_imports(path)
             if name.split(".")[0] in KERNEL_SIDE]
    assert found == []
    assert "protocol" in relative_imports(PACKAGE / "server" / "class_handlers.py"), "the check reads imports"
