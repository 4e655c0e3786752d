"""StageTabs: Learn's row of stage buttons as a screen reader and the keyboard meet it, a tablist over the board.
Choosing a stage shows that stage's lesson on the board under the row, one stage at a time: the WAI-ARIA tabs
pattern, the board being the panel every stage's tab controls, named by the stage on it.

Each button is a tab named in words (`names`: "Stage 3: Lines: where the points come from, 2 stars", where the
button shows "3 · ★★"), the stage on the board is the selected one (`selected`), and the row is named ("Stages").
Only the selected stage's tab is in the keyboard's Tab order; the arrow keys, Home and End move the focus along
the stages, locked ones too (greyed, described by why they are locked, which Enter or Space shows), and Enter or
Space opens the open stage in focus, as a click does: manual activation, like the app's row of sections, since
opening a stage starts it again.

    section.children = (..., StageTabs(label="Stages", names=[...], selected=0))   # inside `.lt-learn`
"""

from __future__ import annotations

import anywidget
import traitlets

from .board import STATIC


class StageTabs(anywidget.AnyWidget):
    """Gives the stage buttons of its Learn section tab semantics and arrow keys (see above); it draws nothing."""

    _esm = STATIC / "stage_tabs.js"
    label = traitlets.Unicode("").tag(sync=True)
    """The row's accessible name, in the app's language."""
    names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """Each stage button's accessible name, in the row's order."""
    selected = traitlets.Int(0).tag(sync=True)
    """The place in the row of the stage on the board."""
