"""The shared sentences of lessons, practice and progress (hint ladder, goal states, feedback), read
from data/texts.json so that every text a learner reads lives in a data file."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

TEXTS_FILE = Path(__file__).parent / "data" / "texts.json"


@cache
def _texts() -> dict[str, Any]:
    data = json.loads(TEXTS_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def text(path: str, **values: object) -> str:
    """The text at `path` ("group.name") in texts.json, with `{name}` fields filled from `values`."""
    node: Any = _texts()
    for part in path.split("."):
        node = node[part]
    if not isinstance(node, str):
        raise KeyError(f"{path} is not a text")
    return node.format(**values)

