"""Sphinx configuration of the documentation site (bash scripts/docs.sh builds it into docs/_build/html)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pygments.lexers.special import TextLexer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

project = "Leopard Tutor"
author = "the Leopard Tutor authors"
copyright = "2026, the Leopard Tutor authors"

extensions = ["myst_parser", "sphinx.ext.autodoc", "catalogue_keys"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "_ext"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

html_theme = "pydata_sphinx_theme"
html_title = "Leopard Tutor"
html_theme_options = {"navigation_with_keys": True, "show_toc_level": 2, "secondary_sidebar_items": ["page-toc"]}
html_sidebars: dict[str, list[str]] = {"**": []}  # one level of pages: the top bar lists them

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}

# The engine's annotations name the standard library's types; without the network (no intersphinx) these
# cannot be linked, so they are named without a link. Anything else unresolved is an error.
nitpick_ignore_regex = [
    ("py:class", r"(collections\.abc|typing|enum|dataclasses|random|json|pathlib)\..*"),
    ("py:class", r"(Iterator|Iterable|Sequence|Mapping|Callable|Collection|Set|Hashable|Any|Self|Random)"),
    ("py:class", r"(NoneType|Enum|IntEnum|object|int|str|bool|float|tuple|list|dict|set|frozenset)"),
]


def setup(app: Any) -> None:
    # docs/table-modes.md draws the table's modes in Mermaid, which Sphinx would need a network-loaded script
    # to render: the drawing is shown as its text.
    app.add_lexer("mermaid", TextLexer)
