"""Teacher links: the app's address with settings in its query string, read and checked.

`?rules=1963` (or 2008, running), `?level=expert` (or any level, or adaptive), `?deal=CODE` (everyone who opens
the link gets the same deal), `?tab=learn&lesson=5` (Learn opened at stage 5, the stages before it open), `?lang=es`
(the tutor in Spanish, over the learner's own choice and the browser's language) and, on a class server,
`?table=KRTQ` (Play opened ready to join a classmate's table). A value
the app cannot use is left out and explained in a note; nothing in a link can fail the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl

from .class_codes import ClassTableError, valid_code
from .deals import DEAL_CODE
from .engine import RULE_SETS
from .engine.catalogue import language_code, languages, text
from .engine.rules import LINK_WORDS
from .protocol import THEME_ARGUMENTS

RULES_READ = {**{word: key for key, word in LINK_WORDS.items()}, **{key.lower(): key for key in RULE_SETS}}
"""What a link may say for each rule set (case does not matter)."""
MAX_QUERY = 1_000  # characters of query string read at most
SETTINGS = ("rules", "level", "deal", "tab", "lesson", "table", "lang")


@dataclass(frozen=True)
class TeacherLink:
    """The settings a link asks for (None where it asks nothing or asked for something unusable)."""

    rules: str | None = None
    level: str | None = None
    deal: str | None = None
    tab: str | None = None
    lesson: int | None = None
    table: str | None = None
    lang: str | None = None
    notes: tuple[str, ...] = ()


def read_link(query: str, *, levels: tuple[str, ...], tabs: tuple[str, ...], lessons: int) -> TeacherLink:
    """The settings in a query string, each checked; a note says what was left out and why."""
    if len(query) > MAX_QUERY:
        return TeacherLink(notes=(text("app.link.too_long"),))
    notes: list[str] = []
    found: dict[str, str] = {}
    for name, value in parse_qsl(query, keep_blank_values=True):
        if name in THEME_ARGUMENTS:  # the page's own (light or dark), read by the server: passed over here
            continue
        if name not in SETTINGS:
            notes.append(text("app.link.unknown", name=_shown(name), known=", ".join(SETTINGS)))
        elif name in found:
            notes.append(text("app.link.twice", name=name))
        else:
            found[name] = value.strip()
    rules = level = deal = tab = None
    lesson = None
    if "rules" in found:
        rules = RULES_READ.get(found["rules"].lower())
        if rules is None:
            notes.append(text("app.link.rules", value=_shown(found["rules"]), known=", ".join(LINK_WORDS.values())))
    if "level" in found:
        level = found["level"].lower() if found["level"].lower() in levels else None
        if level is None:
            notes.append(text("app.link.level", value=_shown(found["level"]), known=", ".join(levels)))
    if "deal" in found:
        deal = found["deal"].upper() if DEAL_CODE.fullmatch(found["deal"]) else None
        if deal is None:
            notes.append(text("app.link.deal", value=_shown(found["deal"])))
    if "tab" in found:
        tab = found["tab"].lower() if found["tab"].lower() in tabs else None
        if tab is None:
            notes.append(text("app.link.tab", value=_shown(found["tab"]), known=", ".join(tabs)))
    if "lesson" in found:
        given = found["lesson"]
        lesson = int(given) if given.isascii() and given.isdigit() and 1 <= int(given) <= lessons else None
        if lesson is None:
            notes.append(text("app.link.lesson", value=_shown(given), last=lessons))
        elif tab not in (None, "learn"):
            notes.append(text("app.link.lesson_tab", tab=tab))
            lesson = None
        else:
            tab = "learn"
    table = None
    if "table" in found:
        try:
            table = valid_code(found["table"])
        except ClassTableError:
            notes.append(text("app.link.table", value=_shown(found["table"])))
    lang = None
    if "lang" in found:
        lang = language_code(found["lang"])
        if lang is None:
            notes.append(text("app.link.lang", value=_shown(found["lang"]), known=", ".join(languages())))
    return TeacherLink(rules, level, deal, tab, lesson, table, lang, tuple(dict.fromkeys(notes)))  # each note once


def link_language(query: str) -> str | None:
    """The language a link's `?lang=` asks for, if it is one the tutor has (read before anything else: the
    app is drawn in it; `read_link` explains a bad one)."""
    if len(query) > MAX_QUERY:
        return None
    asked = [value for name, value in parse_qsl(query, keep_blank_values=True) if name == "lang"]
    return language_code(asked[0].strip()) if asked else None


def _shown(value: str) -> str:
    """A value from a link as a note quotes it: at most 30 characters."""
    return repr(value if len(value) <= 30 else value[:29] + "…")
