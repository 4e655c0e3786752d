"""The errors the engine raises: every one is a ValueError whose message says what was wrong."""

from __future__ import annotations

import json
import reprlib


class LeopardError(ValueError):
    """Bad input given to the engine: nothing was changed."""


class NotationError(LeopardError):
    """Text that is not a valid card or square in Leopard notation."""


class SavedGameError(LeopardError):
    """A saved hand or match that cannot be read back."""


class IllegalMove(LeopardError):
    """A move the rules do not allow in this position; `.reason` says why in words."""

    def __init__(self, reason: str, move: object = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.move = move


def _short_repr() -> reprlib.Repr:
    short = reprlib.Repr()
    short.maxlevel = 3
    short.maxlist = short.maxtuple = short.maxdict = short.maxset = 6
    short.maxstring = short.maxlong = short.maxother = 40
    return short


_SHORT = _short_repr()


def quote(value: object, limit: int = 80) -> str:
    """`value` as an error message quotes it: a text as it is, anything else by its repr, cut to about
    `limit` characters (a repr is built only that far, however large or deeply nested the value)."""
    if isinstance(value, str):
        return f"'{value}'" if len(value) <= limit else f"'{value[:limit]}…' ({len(value)} characters)"
    text = _SHORT.repr(value)
    return f"'{text}'" if len(text) <= limit else f"'{text[:limit]}…'"


def is_player(value: object) -> bool:
    """Whether `value` is a player number: the int 0 or 1 (not a bool, not a float)."""
    return type(value) is int and value in (0, 1)


def saved_json(text: object, what: str, limit: int) -> object:
    """The parsed JSON of a saved `what` ("hand", "match"); SavedGameError if the text is longer than
    `limit` characters or is not JSON."""
    if isinstance(text, (str, bytes)) and len(text) > limit:
        raise SavedGameError(f"this text is too long to be a saved {what} ({len(text):,} characters, "
                             f"at most {limit:,})")
    try:
        return json.loads(text)  # type: ignore[arg-type]
    except (TypeError, ValueError, RecursionError) as error:
        raise SavedGameError(f"a saved {what} must be JSON text: {error}") from None
