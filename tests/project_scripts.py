"""The project's scripts (scripts/*.py) and the static site's tools (website/*.py) imported as modules, for the
tests that call their functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_module(path: Path, name: str) -> ModuleType:
    """The Python file `path` imported afresh as module `name` (registered in sys.modules, where dataclasses look
    their module up)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_script(name: str) -> ModuleType:
    """scripts/`name`.py, imported afresh."""
    return load_module(ROOT / "scripts" / f"{name}.py", name)


def load_site_tool(name: str) -> ModuleType:
    """website/`name`.py, imported afresh (as `site_<name>`)."""
    return load_module(ROOT / "website" / f"{name}.py", f"site_{name}")
