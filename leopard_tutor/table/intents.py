"""Intents from the page to a table, and what every table shares: the live-region message and the routing
of each intent to a method. Headless: a widget forwards the page's intents here and draws the answer."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..engine import LeopardError
from ..engine.errors import quote
from .state import BoardState


class BadIntent(LeopardError):
    """A message from the page that is not a known intent, or lacks what the intent needs."""


class BoardController(Protocol):
    """What the board drives: intents in, a new table state out.

    `handle` makes the engine calls an intent asks for (a refused move is explained in the next
    state's message, not raised); it raises a `LeopardError` (a ValueError) only for input it
    cannot read, and then changes nothing. `board_state` returns the table as a value (`BoardState`).
    """

    def handle(self, intent: Mapping[str, Any]) -> None:
        """React to one intent sent by the page (see the package docstring for the intents)."""

    def board_state(self) -> BoardState:
        """The table as it is now, in the board's state schema."""


class TableController:
    """What the board's controllers share: the live-region message, and intents routed to methods.

    A subclass lists its buttons in `action_handlers()` and overrides whichever of `select`,
    `click_space` and `discard` its table answers; the others refuse the intent as unknown.
    """

    def __init__(self, message: str = "") -> None:
        self.message = message
        self.tone = "info"
        self.seq = 0

    def say(self, text: str, tone: str = "info") -> None:
        """Set the live-region message (re-announced even when the words repeat)."""
        self.message, self.tone = text, tone
        self.seq += 1

    def handle(self, intent: Mapping[str, Any]) -> None:
        """select(index), space(square, space), discard, answer(value), or action(id) among `action_handlers()`."""
        kind = intent.get("type")
        if kind == "select":
            self.select(whole_number(intent, "index"))
        elif kind == "space":
            self.click_space(whole_number(intent, "square"), whole_number(intent, "space"))
        elif kind == "discard":
            self.discard()
        elif kind == "answer":
            value = intent.get("value")
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise BadIntent(f"an answer is a whole number or nothing, not {quote(value)}")
            self.answer_value(value)
        elif kind == "action":
            handlers = self.action_handlers()
            ident = intent.get("id")
            if not isinstance(ident, str) or ident not in handlers:
                raise BadIntent(f"unknown action {quote(ident)}")
            handlers[ident]()
        else:
            raise BadIntent(f"unknown intent {quote(kind)}")

    def action_handlers(self) -> Mapping[str, Callable[[], object]]:
        """The buttons this table answers: action id -> what it does."""
        return {}

    def select(self, index: int) -> None:
        """Pick card `index` of the hand."""
        raise BadIntent("there is no hand to pick a card from here")

    def click_space(self, square: int, space: int) -> None:
        """Click `space` of the square whose key is `square`."""
        raise BadIntent("the spaces cannot be clicked here")

    def discard(self) -> None:
        """Click the discard pile."""
        raise BadIntent("there is no discard pile here")

    def answer_value(self, value: int | None) -> None:
        """The number typed in the board's answer box (None when the box was left empty)."""
        raise BadIntent("there is no question to answer here")


def whole_number(intent: Mapping[str, Any], field: str) -> int:
    """The whole-number `field` of an intent; BadIntent if it is missing or not a whole number."""
    value = intent.get(field)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadIntent(f"the intent {quote(intent.get('type'))} needs a whole number '{field}', not {quote(value)}")
    return value
