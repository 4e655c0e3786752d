"""The question Play's New match asks before it ends a match under way: a sentence and two buttons, in a row under
Play's controls, shown only while it waits for an answer."""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as W

from ..engine.catalogue import text


class NewMatchQuestion(W.HBox):  # type: ignore[misc]
    """"This match is not over yet: start a new one in its place?", with Start a new match (`start`, called once
    the row is gone) and Keep playing (`back`, to put the keyboard back on New match)."""

    def __init__(self, start: Callable[[], object], back: Callable[[], object]) -> None:
        self.words = W.HTML(text("play.new_match_question.asked"))
        self.words.add_class("lt-question-words")
        self.start_button = W.Button(description=text("play.new_match_question.start"))
        self.keep_button = W.Button(description=text("play.new_match_question.keep"))
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

    def ask(self) -> None:
        """Show the row, the keyboard on Keep playing (the answer that loses nothing)."""
        self.layout.display = ""
        self.keep_button.focus()

    def drop(self) -> None:
        """Hide the row (the question no longer holds, or was answered)."""
        self.layout.display = "none"

    def _answered(self, then: Callable[[], object]) -> None:
        self.drop()
        then()
