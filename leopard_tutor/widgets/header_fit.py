"""HeaderFit: the app's header (title, rules link, About, language, a student's name) stands at the right of
the row of tabs when both fit on one line, and above the tabs when they do not. The page measures it, since
how long the header's words are depends on the language: fixed widths in the CSS would fit one language only.

    app.children = (..., HeaderFit())   # displayed inside the app (`.lt-app`); it draws nothing
"""

from __future__ import annotations

import anywidget

from .board import STATIC


class HeaderFit(anywidget.AnyWidget):
    """Puts the class `lt-head-above` on the app while its header would cover the row of tabs (see above)."""

    _esm = STATIC / "header_fit.js"
