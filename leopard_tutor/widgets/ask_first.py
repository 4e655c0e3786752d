"""A question asked before a button does what cannot be undone (New match ending a match under way, Leave ending a
class table's match): a sentence and two buttons, in a row under the button's own row, shown only while it waits
for an answer."""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as W

from ..engine.catalogue import text


class AskFirst(W.HBox):  # type: ignore[misc]
    """The question of catalogue keys `keys` (`asked`, its sentence; `start`, the answer that goes on; `keep`, the
    answer that loses nothing), "This match is not over yet: start a new one in its place?" for New match: `start`
    is called once the row is gone, `back` after Keep (to put the keyboard back on the button that asked)."""

    def __init__(self, keys: str, start: Callable[[], object], back: Callable[[], object]) -> None:
        self.question_keys = keys
        self.words = W.HTML()  # (its sentence, once asked)
        self.words.add_class("lt-question-words")
        self.start_button = W.Button(description=text(f"{keys}.start"))
        self.keep_button = W.Button(description=text(f"{keys}.keep"))
        self.start_button.on_click(lambda _b: self._answered(start))
        self.keep_button.on_click(lambda _b: self._answered(back))
        super().__init__([self.words, self.start_button, self.keep_button],
                         layout=W.Layout(display="none", flex_flow="row wrap", align_items="center"))
        self.add_class("lt-new-match-question")
        self.add_class("lt-asks")  # each button described by the sentence (`PageRoles`): heard with the focus
        self.keep_button.add_class("lt-keeps")  # the answer Escape gives (`PageRoles`)

    @property
    def asked(self) -> bool:
        """Whether the row is shown, waiting for an answer."""
        return bool(self.layout.display != "none")

    def ask(self, **facts: object) -> None:
        """Show the row (its sentence filled with `facts`), the keyboard on the answer that loses nothing."""
        self.words.value = text(f"{self.question_keys}.asked", **facts)
        self.layout.display = ""
        self.keep_button.focus()

    def drop(self) -> None:
        """Hide the row (the question no longer holds, or was answered)."""
        self.layout.display = "none"

    def _answered(self, then: Callable[[], object]) -> None:
        self.drop()
        then()
