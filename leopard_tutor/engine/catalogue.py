"""The text catalogue: every sentence, phrase and label a learner reads, by key, in one language.

The words live in data files, `leopard_tutor/texts/<language>/<book>.json`, one book per part of
the tutor (`engine`, `narration`, `hints`, `lessons`, `play`, `board`, `app`, ...). A key names the
book, then the path inside it: `text("play.picked", card=..., where=...)`. Texts are `str.format`
templates filled from the facts passed in, but for a full stop right after a fact that ends with one, which is left
out (a name such as "José, Jr." at a sentence's end). A text may instead come in plural forms,
`{"plural": "count", "one": "...", "other": "..."}`: the fact named by "plural" picks the form, and
an optional "zero" form is said when that count is 0 (where nothing of the kind is left, the
sentence says so rather than counting nothing). A text may also come in forms for who did what it tells,
`{"person": "mover", "you": "...", "other": "..."}`: the fact named by "person" is "you" where the reader did
it (the "you" form) and anything else where somebody else did (the "other" form), so a language whose verb
agrees with its subject says "Descartaste" to the reader and "Tu rival descartó" of the other player, while a
language that needs no choice keeps one plain template.
One book, `language`, says what is not a sentence: the language's name in its own words (for the language
picker) and, as lists of beginnings, where a list's joining word changes with the sound after it (Spanish "u",
"e").

The language is the one chosen for this kernel's page (`set_language`: a teacher's link, the learner's
choice or the browser's language, see `choose_language`), else the one the environment variable
LEOPARD_TUTOR_LANGUAGE names for a whole server, else English; only a folder of `texts/` is a language, and
a key missing there falls back to English. A second language is a folder of data files and nothing else.
"""

from __future__ import annotations

import json
import os
import re
import string
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

TEXTS_ROOT = Path(__file__).resolve().parent.parent / "texts"
"""Where the books live: one folder per language code."""

DEFAULT_LANGUAGE = "en"
LANGUAGE_ENV = "LEOPARD_TUTOR_LANGUAGE"
"""The environment variable that names a whole server's language (`leopard-tutor --language` sets it)."""
LANGUAGE_TAG = re.compile(r"([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8}){0,6}")
"""A language as a browser or a link says it ("es", "es-MX", "pt_BR"): its first part names the language."""

_CHOSEN: list[str] = []
"""The language chosen for this kernel's page (`set_language`), if one was: one kernel serves one page."""
_ANSWERING: ContextVar[str | None] = ContextVar("leopard_tutor_answering_in", default=None)
"""The language of the one answer being made in this context (`answer_in`: a server's page for one visitor)."""


def language() -> str:
    """The language texts are read in: the one of the answer being made (`answer_in`), else the one chosen for
    this kernel's page, else LEOPARD_TUTOR_LANGUAGE if it is one, else English."""
    return _ANSWERING.get() or (_CHOSEN[0] if _CHOSEN else server_language())


def server_language() -> str:
    """The language of the whole server (or machine): LEOPARD_TUTOR_LANGUAGE if it is one, else English."""
    return language_code(os.environ.get(LANGUAGE_ENV)) or DEFAULT_LANGUAGE


def set_language(code: object) -> str:
    """Read this kernel's texts in language `code` ("es", or a browser's "es-MX") from now on, whatever the
    environment says; anything that is not a language of `texts/` (None, "xx", a hostile text) chooses English.
    The language now in use."""
    _CHOSEN[:] = [language_code(code) or DEFAULT_LANGUAGE]
    return _CHOSEN[0]


def answer_in(code: object) -> str:
    """Read texts in language `code` (as `set_language` reads it) in this context only, from now on: a server
    answering one visitor while it answers others. Tornado runs each request as an asyncio task of its own,
    with a context of its own, so the language lasts as long as that request's answer. The language now in
    use."""
    _ANSWERING.set(language_code(code) or DEFAULT_LANGUAGE)
    return language()


def language_code(said: object) -> str | None:
    """The language of `texts/` that `said` names ("es" for "es", "ES" or "es-MX"), else None."""
    if not isinstance(said, str) or len(said) > 40:
        return None
    found = LANGUAGE_TAG.fullmatch(said.strip())
    if found is None:
        return None
    code = found.group(1).lower()
    return code if _has_folder(TEXTS_ROOT, code) else None


def choose_language(*said: object) -> str:
    """The first language of `said` the tutor has, in order of precedence (a link's, the learner's kept
    choice, each of the browser's languages, the server's), else English."""
    for each in said:
        code = language_code(each)
        if code is not None:
            return code
    return DEFAULT_LANGUAGE


def languages() -> dict[str, str]:
    """Every language of `texts/` by code, with its name in its own words (`language.name` of its books, else
    its code), English first."""
    codes = sorted(path.name for path in TEXTS_ROOT.iterdir()
                   if path.is_dir() and re.fullmatch(r"[a-z]{2,3}", path.name))
    codes.sort(key=lambda code: code != DEFAULT_LANGUAGE)
    return {code: str(book("language", code).get("name") or code) for code in codes}


@cache
def _has_folder(root: Path, name: str) -> bool:
    """Whether `root` holds a folder `name` (asked once per folder: text() is called very often)."""
    return (root / name).is_dir()


@cache
def book(name: str, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The whole book `name` in language `lang` (an empty book if that language lacks it)."""
    path = TEXTS_ROOT / lang / f"{name}.json"
    if not name.isidentifier() or not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"text book {path} must hold a JSON object")
    return data


def entry(key: str) -> Any:
    """The raw catalogue entry at `key` ("book.path"): a template, plural forms, or a group of them.

    Inside a book a path is matched whole first ("legal.numbered.empty" may be one flat key), then
    one segment at a time through nested groups. KeyError if there is no such entry.
    """
    found = _entry(key, language())
    if found is None:
        raise KeyError(f"no text {key!r} in the catalogue")
    return found


@cache
def _entry(key: str, lang: str) -> Any:
    """The entry at `key` in `lang`, else in English, else None (found once per key and language: a click
    looks up some 180 texts)."""
    name, _, path = key.partition(".")
    for each in dict.fromkeys((lang, DEFAULT_LANGUAGE)):
        found = _find(book(name, each), path)
        if found is not None:
            return found
    return None


def _find(node: Any, path: str) -> Any:
    while path:
        if not isinstance(node, dict):
            return None
        if path in node:
            return node[path]
        head, _, path = path.partition(".")
        if head not in node or not path:
            return None
        node = node[head]
    return node


def text(key: str, /, **facts: object) -> str:
    """The text at `key` ("book.path") filled with `facts`; plural forms (zero, one, other) are chosen by
    their count fact, the forms of a person (`{"person": "mover", ...}`) by whether that fact is "you"."""
    template = entry(key)
    if isinstance(template, dict) and "person" in template:
        template = template["you" if facts[template["person"]] == "you" else "other"]
    if isinstance(template, dict) and "plural" in template:
        count = facts[template["plural"]]
        template = template["zero" if count == 0 and "zero" in template else "one" if count == 1 else "other"]
    if not isinstance(template, str):
        raise KeyError(f"{key!r} is a group of texts, not one text")
    return _filled(template, facts)


_FORMATTER = string.Formatter()


def _filled(template: str, facts: dict[str, object]) -> str:
    """`template` filled with `facts`, as `str.format` would, but for a full stop right after a fact that ends with
    one, which is left out: "Round 2: you play {name}." with the name "José, Jr." ends "José, Jr.", not "Jr..".
    """
    if "}." not in template:
        return template.format(**facts)
    parts: list[str] = []
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        if literal.startswith(".") and parts and parts[-1].endswith("."):
            literal = literal[1:]
        parts.append(literal)
        if field is not None:
            value = _FORMATTER.convert_field(_FORMATTER.get_field(field, (), facts)[0], conversion)
            parts.append(_FORMATTER.format_field(value, spec or ""))
    return "".join(parts)


def texts(key: str, /, **facts: object) -> dict[str, str]:
    """Every text of the group at `key`, by name, each filled with `facts` (for a page that needs a set)."""
    group = entry(key)
    if not isinstance(group, dict):
        raise KeyError(f"{key!r} is one text, not a group")
    return {name: text(f"{key}.{name}", **facts) for name in group if name != "about"}


def _joined(kind: str, items: Sequence[str]) -> str:
    if len(items) == 1:
        return items[0]
    first, last = text("words.list_separator").join(items[:-1]), items[-1]
    sounds = entry(f"language.sounds.{kind}")
    said = last.lower()
    sound = any(map(said.startswith, sounds["before"])) and not any(map(said.startswith, sounds["not_before"]))
    return text(f"words.{kind}_sound" if sound else f"words.{kind}", first=first, last=last)


def and_list(items: Sequence[str]) -> str:
    """Items together in words: 'a', 'a and b', 'a, b and c' (in Spanish 'a y b', but 'a e i' before the
    sound i)."""
    return _joined("and_list", items)


def or_list(items: Sequence[str]) -> str:
    """Items as alternatives in words: 'a', 'a or b', 'a, b or c' (in Spanish 'a o b', but 'a u o' before the
    sound o)."""
    return _joined("or_list", items)


def upper_first(words: str) -> str:
    """`words` with its first letter upper case (the rest as it is), to begin a sentence."""
    return words[:1].upper() + words[1:]


class Later:
    """Words put together when they are read, not when they are made: a fact of a text kept for later (a keyed
    error's, a verdict's) whose words must come in the language current when it is shown, such as a card's name
    or a nested text. `str()` and formatting call `make`."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], str]) -> None:
        self.make = make

    def __str__(self) -> str:
        return self.make()

    def __format__(self, spec: str) -> str:
        return format(self.make(), spec)

    def __repr__(self) -> str:
        return f"Later({self.make()!r})"


def later(key: str, /, **facts: object) -> Later:
    """The text at `key` with `facts`, put in words each time it is read (see `Later`)."""
    return Later(lambda: text(key, **facts))
