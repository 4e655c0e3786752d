"""The Play section's review buttons: "Review this hand", "Review the last hand" and "Why did the computer
do that?".

Each goes through the board (`board.dispatch`), so its errors reach the page the same way as a click on
the table. The review itself is drawn by the board: the position judged on the table, the summary and
every judged move in its side column, and the buttons to step through it, try a position again or go
back to the game among its actions (see `PlayController.board_state` and `actions`).
"""

from __future__ import annotations

import ipywidgets as W

from ..engine.catalogue import text
from .board import LeopardBoard


class ReviewButtons(W.HBox):  # type: ignore[misc]
    """The three buttons, sending the board the actions "review", "review_last" and "why"."""

    def __init__(self, board: LeopardBoard) -> None:
        self.board = board
        self.review_button = W.Button(description=text("review.buttons.review"),
                                      tooltip=text("review.buttons.review_tooltip"))
        self.last_button = W.Button(description=text("review.buttons.review_last"))
        self.why_button = W.Button(description=text("review.buttons.why"), tooltip=text("review.buttons.why_tooltip"))
        for button, ident in ((self.review_button, "review"), (self.last_button, "review_last"),
                              (self.why_button, "why")):
            button.on_click(lambda _b, ident=ident: self.board.dispatch({"type": "action", "id": ident}))
        super().__init__([self.review_button, self.last_button, self.why_button])
        self.add_class("lt-review-buttons")
