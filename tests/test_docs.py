"""The usage shown in the documentation site's pages (docs/) and in the engine's docstrings still works."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import leopard_tutor.engine

ROOT = Path(__file__).resolve().parent.parent


def test_documentation_examples() -> None:
    pages = [page for page in (ROOT / "docs").rglob("*.md") if "_build" not in page.parts]
    attempted = 0
    for page in [ROOT / "README.md", *pages]:
        result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, page
        attempted += result.attempted
    assert attempted > 0


def test_engine_docstring_examples() -> None:
    for info in pkgutil.iter_modules(leopard_tutor.engine.__path__):
        module = importlib.import_module(f"leopard_tutor.engine.{info.name}")
        assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0, info.name
