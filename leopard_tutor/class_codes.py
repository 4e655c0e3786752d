"""What a player types, checked alike by the page's kernel and the class server: table codes and players' names,
and the error a class table answers with. Standard library and the engine only, so the page's kernel (the static
site's too, which has no sqlite3) can check a code without the server's class store (`server/referee.py`), and
the server checks a name without the table (`table/`)."""

from __future__ import annotations

import unicodedata
from typing import Any

from .engine import LeopardError
from .engine.catalogue import text

CODE_LETTERS = "ABCDEFGHJKMNPQRSTWXYZ"
"""The letters of a table code: none that reads like a digit or another letter (no I, L, O, U, V)."""
CODE_LENGTH = 4
CODE_COUNT = len(CODE_LETTERS) ** CODE_LENGTH
"""How many table codes there are."""
MAX_NAME = 24
"""The longest name a player may give."""
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters Python counts as printable that show as nothing (the Hangul fillers, the blank braille pattern): in
a name they count as spaces, so a name of them alone is blank."""
MOST_MARKS = 3
"""The most combining marks (accents and the like) one character of a name may carry."""
LOOK_ALIKE = str.maketrans("авекмнорстухѕіјһԁӏԛԝαβεζηικμνορτυχϲ", "abekmhopctyxsijhdlqwabezhikmnoptyxc")
"""Cyrillic and Greek letters (in small letters, as `str.casefold` leaves them) whose small or capital form is drawn
like a Latin letter, and that letter: "Аna" with a Cyrillic А reads as "Ana"."""


def code_of(number: int) -> str:
    """The table code numbered `number` (0 to `CODE_COUNT` - 1): its letters as the digits of `number` written
    in base len(CODE_LETTERS)."""
    base = len(CODE_LETTERS)
    return "".join(CODE_LETTERS[number // base ** place % base] for place in reversed(range(CODE_LENGTH)))


def player_name(name: str, default: str) -> str:
    """A name a player typed, composed (NFC) and trimmed, characters that show as nothing counted as spaces
    (`BLANK_LOOKING`; `default` if blank); a `LeopardError` if it is too long, holds a control character, or
    stacks more than `MOST_MARKS` marks on one character."""
    composed = unicodedata.normalize("NFC", str(name))
    trimmed = " ".join("".join(" " if character in BLANK_LOOKING else character for character in composed).split())
    if len(trimmed) > MAX_NAME:
        raise LeopardError(key="classmates.refused.name_too_long", facts={"most": MAX_NAME, "length": len(trimmed)})
    if any(not character.isprintable() for character in trimmed):
        raise LeopardError(key="classmates.refused.name_unprintable")
    if _most_marks(trimmed) > MOST_MARKS:
        raise LeopardError(key="classmates.refused.name_marks", facts={"most": MOST_MARKS})
    return trimmed or default


def name_key(name: str) -> str:
    """What `name` reads as, for telling two names apart: its compatibility form (NFKC: "Ａｎａ" is "Ana"), case aside,
    and letters of other alphabets drawn like Latin ones read as those (`LOOK_ALIKE`). Two names with one key would
    show alike on a page, so one of them is refused where both would be shown together."""
    return unicodedata.normalize("NFKC", name).casefold().translate(LOOK_ALIKE)


def _most_marks(name: str) -> int:
    """The longest run of combining marks in `name`: the most any one of its characters carries."""
    most = run = 0
    for character in name:
        run = run + 1 if unicodedata.category(character) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


class ClassTableError(LeopardError):
    """A request the tables refuse, changing nothing: `key` names the catalogue text that says why (under
    "classmates.refused"), `facts` fill it."""

    def __init__(self, key: str, **facts: Any) -> None:
        super().__init__(key)
        self.key: str = key
        self.facts = facts

    def __str__(self) -> str:
        return self.key  # the server's own error: its key and facts go to the page, which words them

    @property
    def words(self) -> str:
        """Why, in words of the language current now."""
        return text(f"classmates.refused.{self.key}", **self.facts)


def valid_code(code: object) -> str:
    """A table code as typed (any case, spaces around, letters of any width: "ｋｒｔｑ"), in capitals; a
    `ClassTableError` if it is not one."""
    found = unicodedata.normalize("NFKC", code[:40]).strip().upper() if isinstance(code, str) else ""
    if len(found) != CODE_LENGTH or any(letter not in CODE_LETTERS for letter in found):
        raise ClassTableError("bad_code", length=CODE_LENGTH)
    return found


def valid_name(name: object) -> str:
    """A player's name (`player_name`: trimmed, at most `MAX_NAME` characters, printable), not blank; refused with
    what is wrong with it ("bad_name" for what is not text at all)."""
    if not isinstance(name, str):
        raise ClassTableError("bad_name")
    try:
        found = player_name(name, "")
    except LeopardError as error:  # (its key is a refusal's: "classmates.refused.name_too_long")
        raise ClassTableError(str(error.key).rsplit(".", 1)[-1], **error.facts) from None
    if not found:
        raise ClassTableError("no_name")
    return found
