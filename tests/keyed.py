"""Texts as the keys and facts that made them: a test about behaviour asserts what the tutor said, not its words.

Under the `keyed` fixture (tests/conftest.py) every catalogue text renders as a marker,
`⟦play.picked|card=⟦words.card|...⟧|where=...⟧`: its key, then each fact as name=value in the order given.
Facts that are themselves catalogue texts (a card's name, a nested sentence, a list's words) are markers
inside the marker. Plural forms render the same marker whatever their count (the count is a fact). Nothing of
the production code changes (nor do the forms of a person: the fact that picked one is a fact of the marker): the
fixture replaces `catalogue.entry`, which `text` reads each
template from, with one whose templates format themselves as markers (and forgets the words kept per
language). The words themselves are checked, once and whole, by test_catalogue.py and
test_catalogue_languages.py.

`keys_in(s)` lists the keys of the markers in `s` (outermost first, in order); `said(s, key, **facts)` tells
whether some marker in `s` (at any depth) has `key` and, for each fact named, that value (`str()` of it: a
number, a marker from `mark(...)`, a word)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from leopard_tutor.engine import cards, catalogue
from leopard_tutor.examples import model as examples

NAMES_KEPT = (cards._rank_words, cards._suit_words, cards._card_name, cards._the_card_name, examples.examples_in)
"""The words kept once made (per language: names, the worked examples' captions): forgotten before and after a
keyed test, so that markers are made for it and none outlives it."""

OPEN, CLOSE, SEP = "⟦", "⟧", "|"


def mark(key: str, /, **facts: object) -> str:
    """The marker `text(key, **facts)` renders as under `keyed`."""
    return OPEN + SEP.join([key, *(f"{name}={value}" for name, value in facts.items())]) + CLOSE


class _Marker(str):
    """A template that formats itself as the marker of its key and facts."""

    key: str

    def format(self, *args: object, **facts: object) -> str:
        return mark(self.key, **facts)


def _marker(key: str) -> _Marker:
    found = _Marker(key)
    found.key = key
    return found


def keyed_entry(real_entry: Any) -> Any:
    """An `entry` like `real_entry` whose texts (and plural forms) are markers; groups stay groups."""

    def entry(key: str) -> Any:
        found = real_entry(key)
        if isinstance(found, str):
            return _marker(key)
        if isinstance(found, dict) and ("plural" in found or "person" in found):
            return {name: (form if name in ("plural", "person") else _marker(key)) for name, form in found.items()}
        return found

    return entry


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every catalogue text, for this test, as the marker of its key and facts (see this module)."""
    monkeypatch.setattr(catalogue, "entry", keyed_entry(catalogue.entry))
    for kept in NAMES_KEPT:
        kept.cache_clear()
    yield
    for kept in NAMES_KEPT:
        kept.cache_clear()


def _split(body: str) -> list[str]:
    """`body` cut at each SEP that is not inside a nested marker."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(body):
        depth += (char == OPEN) - (char == CLOSE)
        if char == SEP and depth == 0:
            parts.append(body[start:at])
            start = at + 1
    parts.append(body[start:])
    return parts


def markers(s: str) -> Iterator[tuple[str, dict[str, str]]]:
    """Every marker in `s`, nested ones included (outermost first), as its key and facts."""
    stack: list[int] = []
    found: list[tuple[int, str]] = []
    for at, char in enumerate(s):
        if char == OPEN:
            stack.append(at)
        elif char == CLOSE and stack:
            start = stack.pop()
            found.append((start, s[start + 1:at]))
    for _, body in sorted(found):
        key, *facts = _split(body)
        yield key, dict(fact.partition("=")[::2] for fact in facts)


def keys_in(s: str) -> list[str]:
    """The keys of every marker in `s`, outermost first, in order."""
    return [key for key, _ in markers(s)]


def said(s: str, key: str, /, **facts: object) -> bool:
    """Whether `s` holds a marker of `key` whose facts include each of `facts` (compared as `str()`)."""
    return any(found == key and all(name in have and have[name] == str(value) for name, value in facts.items())
               for found, have in markers(s))
