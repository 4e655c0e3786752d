"""MenuKeys: the app's menus (Rules, Opponent, Language, a practice's questions, a table's length) act on a choice
made, not on each step of the keyboard through them. A closed menu moved through with the arrow keys (or by typing)
is told to the kernel once, at Enter or when the focus leaves it; Escape puts its choice back. Each step used to
be a choice: arrowing from Beginner to Master changed the opponent four times and, passing "Someone at this
device", set the match aside.

    app.children = (..., MenuKeys())   # displayed inside the app (`.lt-app`); it draws nothing
"""

from __future__ import annotations

import anywidget

from .board import STATIC


class MenuKeys(anywidget.AnyWidget):
    """Holds back a menu's change made by stepping through it with the keyboard until the choice is made (above)."""

    _esm = STATIC / "menu_keys.js"
