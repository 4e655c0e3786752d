"""NameKeys: the page side of the student's name in the header (`StudentBar`), which ipywidgets cannot set from Python.
Escape in the "Your name" box drops the edit: the box gives back the text it had and the bar is told (`on_escape`),
to show the name as it was with Change; Enter on the name as it was keeps it, as Keep does (`on_enter`: the box,
whose value did not change, tells nothing); the box is described by what the two keys do (`how`). The bar's line
saying what became of the name (`.lt-student-said`) is a polite live region (role "status"), there from the start,
so that what it says is heard.

    bar.children = (..., NameKeys(on_escape=bar.cancel, on_enter=bar.keep_shown, how="Enter keeps…"))   # in the bar
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from .board import STATIC


class NameKeys(anywidget.AnyWidget):
    """Escape in the name box of the bar holding it calls `on_escape`, Enter on a name left as it was `on_enter` (the
    box tells no change then); the box is described by `how`; the bar's said line is a live region."""

    _esm = STATIC / "name_keys.js"
    how = traitlets.Unicode("").tag(sync=True)
    """The name box's accessible description: what Enter and Escape do in it."""

    def __init__(self, on_escape: Callable[[], object], on_enter: Callable[[], object], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_escape, self.on_enter = on_escape, on_enter
        self.on_msg(self._on_page_msg)

    def _on_page_msg(self, _widget: object, content: object, _buffers: object) -> None:
        if isinstance(content, dict) and content.get("type") == "escape":
            self.on_escape()
        elif isinstance(content, dict) and content.get("type") == "enter":
            self.on_enter()
