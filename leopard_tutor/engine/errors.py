"""The errors the engine raises: every one is a ValueError whose message says what was wrong."""

from __future__ import annotations


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


def quote(value: object, limit: int = 80) -> str:
    """`value` as an error message quotes it: its repr, cut to about `limit` characters."""
    text = value if isinstance(value, str) else repr(value)
    return f"'{text}'" if len(text) <= limit else f"'{text[:limit]}…' ({len(text)} characters)"


def is_player(value: object) -> bool:
    """Whether `value` is a player number: the int 0 or 1 (not a bool, not a float)."""
    return type(value) is int and value in (0, 1)
