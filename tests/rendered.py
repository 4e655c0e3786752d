"""The catalogue's own words for tests whose texts are made in another process (a server, a browser page, a
Voilà kernel), where the in-process `keyed` fixture (tests/keyed.py) cannot reach: they compare what the page
shows with `catalogue.text(key, **facts)` in the server's language (English unless told), not with a sentence
written out in the test."""

from __future__ import annotations

import re

from leopard_tutor.engine import Card
from leopard_tutor.engine.catalogue import text

_CUT = "\x00"


def opening(key: str, fact: str, /, **facts: object) -> str:
    """The words of `text(key, **facts)` before the fact named `fact` (for a text whose later facts the test
    cannot know, such as where a picked card can go); facts after it need not be given."""
    given: dict[str, object] = {**facts, fact: _CUT}
    while True:
        try:
            words = text(key, **given)
        except KeyError as missing:
            name = missing.args[0]
            if not isinstance(name, str) or name in given:
                raise
            given[name] = _CUT
        else:
            return words.split(_CUT)[0]


def picked(card: dict[str, object]) -> str:
    """How the Play section's message begins once the learner picked `card` (a card of the board's state)."""
    return opening("play.picked", "where", the_card=Card.parse(str(card["code"])).the_name)


def escaped(words: str) -> str:
    """`words` as a regular expression that matches them as they are, in Python and in a page's JavaScript
    (Playwright passes a pattern's source on): only the characters special to both are escaped."""
    return re.sub(r"([\\^$.|?*+()\[\]{}])", r"\\\1", words)


def pattern(key: str, /, **groups: str) -> re.Pattern[str]:
    """A pattern of `text(key)` whose facts named in `groups` match those regular expressions (each a group, in
    the order the text gives them) and whose other words are matched as they are."""
    cuts = {name: f"{_CUT}{name}{_CUT}" for name in groups}
    parts = text(key, **cuts).split(_CUT)
    return re.compile("".join(f"({groups[part]})" if index % 2 else escaped(part) for index, part in enumerate(parts)))
