"""CopyButton: a button that copies a text to the clipboard in the click itself, and tells the kernel whether the
browser let it. A kernel's answer comes too late for a browser that allows copying only during the click, so the
text to copy is kept on the page beforehand (`value`). The page writes no trait (`PageWrites`).

    copy = CopyButton(description="Copy my code", value=progress.to_code(), on_copied=lambda ok: ...)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from .board import STATIC, PageWrites


class CopyButton(PageWrites, anywidget.AnyWidget):
    """A button labelled `description` that puts `value` on the clipboard when pressed, then calls `on_copied(ok)`:
    ok is False where the browser refused (a page served over plain HTTP from another machine, a denied
    permission)."""

    _esm = STATIC / "copy_button.js"
    description = traitlets.Unicode("").tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)

    def __init__(self, on_copied: Callable[[bool], object], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_copied = on_copied
        self.on_msg(self._on_page_msg)

    def _on_page_msg(self, _widget: object, content: object, _buffers: object) -> None:
        if isinstance(content, dict) and content.get("type") == "copied" and isinstance(content.get("ok"), bool):
            self.on_copied(content["ok"])
