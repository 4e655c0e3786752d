"""The errors the engine raises: every one is a ValueError whose message says what was wrong.

An error a learner may read carries a catalogue key and its facts (`LeopardError(key=..., facts=...)`):
its `str()` is `text(key, **facts)`, in the language current when it is read, so every caller that shows
`str(error)` shows the catalogue's words. An error only a programmer can meet (a bad argument to an
internal function) is raised with a plain English message and no key; `is_keyed` tells the two apart, and
the page never shows the second kind (`LeopardBoard.guard` shows a catalogue text instead)."""

from __future__ import annotations

import json
import reprlib
from collections.abc import Mapping

from .catalogue import Later, text


class LeopardError(ValueError):
    """Bad input given to the engine: nothing was changed.

    `LeopardError(key="book.path", facts={...})` is an error a learner reads: `str()` renders the catalogue
    text at `key` with `facts` in the current language (facts that are names were put in words when the
    error was raised). `LeopardError("message")` is a programmer's error, in English, with no key."""

    def __init__(self, message: str = "", *, key: str | None = None, facts: Mapping[str, object] | None = None) -> None:
        super().__init__(message or key or "")
        self.key = key
        self.facts: dict[str, object] = dict(facts or {})

    def __str__(self) -> str:
        if self.key is not None:
            return text(self.key, **self.facts)
        return super().__str__()

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt with its key, facts and every other attribute, whatever its subclass's __init__ takes; facts
        # put in words when read (`Later`) travel as the words they have now.
        attributes = dict(self.__dict__)
        attributes["facts"] = {name: str(value) if isinstance(value, Later) else value
                               for name, value in self.facts.items()}
        return (_rebuilt, (type(self), self.args, attributes))


def _rebuilt(kind: type[LeopardError], args: tuple[object, ...], attributes: dict[str, object]) -> LeopardError:
    error = kind.__new__(kind)
    error.args = args
    error.__dict__.update(attributes)
    return error


def is_keyed(error: BaseException) -> bool:
    """Whether `error` carries a catalogue key, so a learner may read it (in any language)."""
    return getattr(error, "key", None) is not None and isinstance(error, LeopardError)


def error_words(error: BaseException) -> str:
    """What the page may say of an error it did not expect: the catalogue's words if it is keyed, else only
    the name of its type ("KeyError"), since a programmer's message is English (it goes to the log)."""
    return str(error) if is_keyed(error) else type(error).__name__


class NotationError(LeopardError):
    """Text that is not a valid card or square in Leopard notation."""


class SavedGameError(LeopardError):
    """A saved hand or match that cannot be read back."""


class IllegalMove(LeopardError):
    """A move the rules do not allow in this position; `.reason` says why in words (the verdict's key and
    facts, when it has them, make the error keyed)."""

    def __init__(self, reason: str, move: object = None, *, key: str | None = None,
                 facts: Mapping[str, object] | None = None) -> None:
        super().__init__(reason, key=key, facts=facts)
        self.move = move

    @property
    def reason(self) -> str:
        """Why the move is not allowed, in words (in the current language when the error is keyed)."""
        return str(self)


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
