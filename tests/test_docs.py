"""The usage shown in the README and in the engine's docstrings still works."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import leopard_tutor.engine

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_engine_docstring_examples() -> None:
    for info in pkgutil.iter_modules(leopard_tutor.engine.__path__):
        module = importlib.import_module(f"leopard_tutor.engine.{info.name}")
        assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0, info.name
