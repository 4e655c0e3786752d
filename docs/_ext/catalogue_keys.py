"""The `catalogue-keys` directive: every key of the text catalogue (leopard_tutor/texts/en/) with its English
text, one table per book, read from the books at build time so the list cannot go stale."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

TEXTS = Path(__file__).resolve().parents[2] / "leopard_tutor" / "texts" / "en"
PLURAL = {"zero", "one", "two", "few", "many", "other"}


def leaves(node: Any, prefix: str) -> list[tuple[str, str]]:
    if isinstance(node, dict) and node and not set(node) <= PLURAL and "person" not in node:
        found = []
        for key, value in node.items():
            if key != "about" or prefix:
                found += leaves(value, f"{prefix}.{key}" if prefix else key)
        return found
    if isinstance(node, dict):
        return [(prefix, "; ".join(f"{form}: {text}" for form, text in node.items()))]
    if isinstance(node, list):
        shown = ", ".join(str(item) for item in node[:8])
        return [(prefix, shown + (f", ... ({len(node)} in all)" if len(node) > 8 else ""))]
    return [(prefix, str(node))]


def table(book: str, rows: list[tuple[str, str]]) -> nodes.table:
    group = nodes.tgroup(cols=2)
    group += nodes.colspec(colwidth=35)
    group += nodes.colspec(colwidth=65)
    head = nodes.thead()
    group += head
    head += nodes.row("", *(nodes.entry("", nodes.paragraph(text=name)) for name in ("key", "English")))
    body = nodes.tbody()
    group += body
    for key, text in rows:
        body += nodes.row("", nodes.entry("", nodes.paragraph("", "", nodes.literal(text=f"{book}.{key}"))),
                          nodes.entry("", nodes.paragraph(text=text)))
    return nodes.table("", group)


class CatalogueKeys(Directive):
    def run(self) -> list[nodes.Node]:
        found: list[nodes.Node] = []
        for path in sorted(TEXTS.glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            book = path.stem
            section = nodes.section(ids=[f"book-{book}"], names=[f"book {book}"])
            section += nodes.title(text=f"{book}.json")
            if isinstance(data, dict) and isinstance(data.get("about"), str):
                section += nodes.paragraph(text=data["about"])
            section += table(book, leaves(data, ""))
            found.append(section)
        return found


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("catalogue-keys", CatalogueKeys)
    return {"parallel_read_safe": True}
