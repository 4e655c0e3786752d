"""The newcomer's pointer over Play: "New to Leopard? Learn teaches the game one rule at a time, on the board." and a
button that opens Learn. The app shows it to a visitor whose browser gave back no progress, while no stage is solved
and no practice question answered, and never in Learn itself."""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as W

from ..engine.catalogue import text


class Newcomer(W.HBox):  # type: ignore[misc]
    """A line and a button (`go`: opens Learn), hidden until `show(True)`; on a phone the line's lead alone is shown
    beside the button (the rest is read out): the turn below it must still fit the screen."""

    def __init__(self, go: Callable[[], object]) -> None:
        self.words = W.HTML(f"<p><strong>{text('play.newcomer.lead')}</strong> "
                            f"<span class='lt-newcomer-more'>{text('play.newcomer.words')}</span></p>")
        self.button = W.Button(description=text("play.newcomer.button"))
        self.button.on_click(lambda _b: go())
        super().__init__([self.words, self.button],
                         layout=W.Layout(display="none", flex_flow="row wrap", align_items="center"))
        self.add_class("lt-newcomer")

    @property
    def shown(self) -> bool:
        """Whether the line is on the page."""
        return bool(self.layout.display != "none")

    def show(self, shown: bool) -> None:
        """Show or hide the line."""
        self.layout.display = "" if shown else "none"
