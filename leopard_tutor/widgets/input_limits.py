"""InputLimits: no text box of the app takes more than `INPUT_MOST` characters. A box's value goes to the kernel in
one websocket message, and the class server closes a page's connection at a message over `MAX_MESSAGE_BYTES`
(server/launch.py), so a paste of a few megabytes into a code box would cut the page off with no word of why. Cut
to this length, it reaches the box's reader, which says the text is too long (every reader's own limit is below it).

    app.children = (..., InputLimits())   # displayed inside the app (`.lt-app`); it draws nothing
"""

from __future__ import annotations

import anywidget
import traitlets

from ..engine.game_code import MAX_GAME_CODE
from .board import STATIC

INPUT_MOST = 2 * MAX_GAME_CODE + 1
"""The most characters a text box takes: one more than the longest text any box's reader looks at (a saved-game
code's reader refuses one longer than twice its limit before it removes spaces), so that a longer paste is still
refused as too long. At most three bytes of UTF-8 a character, well under the server's message limit."""


class InputLimits(anywidget.AnyWidget):
    """Gives every text box of the app (now and as boxes are drawn) a most length of `most` characters."""

    _esm = STATIC / "input_limits.js"
    most = traitlets.Int(INPUT_MOST).tag(sync=True)
