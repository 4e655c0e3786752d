"""The Play section's review controls: "Review this hand", "Review the last hand", "Why did the computer
do that?", and a panel with the review's summary and every judged move (a list to jump through).

Every button goes through the board (`board.dispatch`), so its errors reach the page the same way as
a click on the table; stepping, "Try this position again" and "Back to the game" are the board's own
action buttons while a review is shown (see `PlayController.actions`).
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from ..ai.review import THRESHOLDS, Judgement
from ..engine.catalogue import text
from ..engine.narration import move_words
from .board import LeopardBoard
from .play import ME, PlayController


class ReviewControls:
    """The review's buttons and panel for one Play section; `update()` redraws them from the controller."""

    def __init__(self, controller: PlayController, board: LeopardBoard) -> None:
        self.controller = controller
        self.board = board
        self.review_button = W.Button(description=text("review.buttons.review"),
                                      tooltip=text("review.buttons.review_tooltip"))
        self.last_button = W.Button(description=text("review.buttons.review_last"))
        self.why_button = W.Button(description=text("review.buttons.why"), tooltip=text("review.buttons.why_tooltip"))
        self.summary = W.HTML()
        self.moves = W.Select(options=[], rows=8, layout=W.Layout(width="100%"))
        self.moves.add_class("lt-review-moves")
        self.legend = W.HTML(f"<p class='lt-muted'>{html.escape(legend())}</p>")
        self.panel = W.VBox([self.summary, self.moves, self.legend])
        self.panel.add_class("lt-panel")
        self.panel.add_class("lt-review")
        self.buttons = W.HBox([self.review_button, self.last_button, self.why_button],
                              layout=W.Layout(flex_flow="row wrap"))
        self._drawing = False
        self.review_button.on_click(lambda _b: self.board.dispatch({"type": "action", "id": "review"}))
        self.last_button.on_click(lambda _b: self.board.dispatch({"type": "action", "id": "review_last"}))
        self.why_button.on_click(lambda _b: self.board.dispatch({"type": "action", "id": "why"}))
        self.moves.observe(self._picked, names="value")
        self.update()

    def update(self) -> None:
        """Show the open review (its summary and moves, the one on the board selected), or nothing."""
        session = self.controller.reviewing
        self.last_button.disabled = self.controller.last_review is None
        self.panel.layout.display = "none" if session is None else ""
        self._drawing = True
        try:
            if session is None:
                self.summary.value = ""
                self.moves.options = []
                return
            title = html.escape(text("review.panel.title", number=session.number))
            self.summary.value = f"<h3>{title}</h3><p role='status'>{html.escape(session.review.summary())}</p>"
            self.moves.options = [(move_label(number, judgement), number)
                                  for number, judgement in enumerate(session.review.judgements)]
            self.moves.value = session.step
        finally:
            self._drawing = False

    def _picked(self, change: dict[str, Any]) -> None:
        if not self._drawing and change["new"] is not None:
            step = int(change["new"])
            self.board.act(lambda: self.controller.review_goto(step))


def move_label(number: int, judgement: Judgement) -> str:
    """One line of the list: the move's number, the move, its mark and cost."""
    mark = text(f"review.verdict.{judgement.verdict}")
    if judgement.verdict != "good":
        mark = text("review.cost", verdict=mark, points=round(judgement.cost, 1))
    return text("review.panel.move", number=number + 1, move=move_words(judgement.move, "undo", ME), mark=mark)


def legend() -> str:
    """The thresholds in words: what each mark means in points."""
    limits = dict(THRESHOLDS)
    return text("review.panel.legend", inaccuracy=limits["inaccuracy"], mistake=limits["mistake"],
                blunder=limits["blunder"])
