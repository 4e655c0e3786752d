"""The engine depends on the standard library only; what a kernel and the class server share is one protocol module
(and the checks of `class_codes.py`), so the server's modules reach no kernel-side client, no table, no computer player
and no widget, and nothing but the command line that starts it imports the server."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import leopard_tutor.engine

ENGINE = Path(leopard_tutor.engine.__file__).parent
PACKAGE = ENGINE.parent
KERNEL_SIDE = ("client",)
"""The package a page's kernel asks the server with: the server never imports it (it reads `protocol.py`)."""
NOT_IN_THE_SERVER = ("table", "ai", "widgets", "client")
"""What the class server's process never loads: the page's table, the computer players, the widgets, the kernel's
clients (what it shares with them lies below: the engine, `protocol.py`, `class_codes.py`, `board_parts.py`)."""
STARTS_THE_SERVER = ("cli",)
"""The modules outside server/ that import it: the `leopard-tutor` command, which starts it."""


def relative_imports(path: Path) -> list[str]:
    """The package modules `path` (under leopard_tutor/) imports, as dotted names from the package (a name imported
    from a package is counted as its module when it is one)."""
    here = path.relative_to(PACKAGE).parent.parts
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
            module = ".".join((*base, *(node.module or "").split("."))).strip(".")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("leopard_tutor"):
            module = (node.module or "").removeprefix("leopard_tutor").strip(".")
        else:
            continue
        found += [module, *(f"{module}.{alias.name}".strip(".") for alias in node.names
                            if module_file(f"{module}.{alias.name}".strip(".")) is not None)]
    return [name for name in found if name]


def module_file(name: str) -> Path | None:
    """The file of the package module `name` (dotted, from the package), or None if there is none."""
    path = PACKAGE.joinpath(*name.split("."))
    for found in (path.with_suffix(".py"), path / "__init__.py"):
        if found.is_file():
            return found
    return None


def reached(start: list[str]) -> dict[str, str]:
    """Every package module that importing the modules `start` loads (their packages' `__init__` too), each with
    the module that imports it."""
    found: dict[str, str] = {}
    waiting = [(name, "") for name in start]
    while waiting:
        name, by = waiting.pop()
        if name in found or (path := module_file(name)) is None:
            continue
        found[name] = by
        parts = name.split(".")
        waiting += [(".".join(parts[:end]), name) for end in range(1, len(parts))]
        waiting += [(imported, name) for imported in relative_imports(path)]
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


def test_the_server_reaches_no_table_ai_widget_or_client() -> None:
    server = [f"server.{path.stem}" for path in (PACKAGE / "server").glob("*.py")]
    loaded = reached(server)
    assert [f"{name} (imported by {by})" for name, by in loaded.items()
            if name.split(".")[0] in NOT_IN_THE_SERVER] == []
    assert {"protocol", "class_codes", "board_parts", "lessons"} <= set(loaded), "the check follows imports"


def test_only_the_command_line_imports_the_server() -> None:
    found = [f"{path.relative_to(PACKAGE)}: {name}" for path in PACKAGE.rglob("*.py")
             if path.parent.relative_to(PACKAGE).parts[:1] != ("server",) and path.stem not in STARTS_THE_SERVER
             for name in relative_imports(path) if name.split(".")[0] == "server"]
    assert found == []
    assert "server.launch" in relative_imports(PACKAGE / "cli.py"), "the check reads imports inside functions"


LAYERS = (
    ("cli",), ("app",), ("class_member", "server"), ("widgets",), ("pacing",), ("client",), ("table",),
    ("ai", "lessons", "examples"), ("links", "kernel_loop"),
    ("protocol", "class_codes", "deals", "board_parts", "hint_ladder"), ("engine",),
)
"""The package's parts from the page down to the rules (docs/guides/developers.md, "The layers" and "Where things
are"): each imports only parts of the layers below its own."""


def test_every_part_imports_only_the_layers_below_its_own() -> None:
    rank = {part: number for number, layer in enumerate(LAYERS) for part in layer}
    parts = {path.relative_to(PACKAGE).parts[0].removesuffix(".py") for path in PACKAGE.rglob("*.py")}
    assert parts - {"__init__", "__main__"} == set(rank), "every part of the package has its place in a layer"
    upward = [f"{path.relative_to(PACKAGE)}: {name}" for path in PACKAGE.rglob("*.py")
              if (part := path.relative_to(PACKAGE).parts[0].removesuffix(".py")) in rank
              for name in relative_imports(path)
              if (top := name.split(".")[0]) in rank and top != part and rank[top] <= rank[part]]
    assert upward == []
