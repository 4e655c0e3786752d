"""The engine's sentences, read from texts.json: every reason a player reads lives in that file."""

from __future__ import annotations

import json
from pathlib import Path

TEXTS: dict[str, str] = json.loads((Path(__file__).parent / "texts.json").read_text(encoding="utf-8"))


def say(key: str, **values: object) -> str:
    """The sentence `key` with its {names} filled in."""
    return TEXTS[key].format(**values)
