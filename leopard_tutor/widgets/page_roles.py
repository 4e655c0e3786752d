"""PageRoles: the app's structure as a screen reader and the keyboard meet it. Where the app is the whole page
(Voilà's or the static site's, which has no main landmark of its own; never a notebook, where the app is one
output among others) its header is the page's banner and its sections are the page's main landmark. Everywhere,
the row of sections is a named tablist whose tabs each control their own tab panel (`aria-controls`,
`aria-labelledby`), as the WAI-ARIA tabs pattern asks. On a page of its own, the notes above the sections (on the link
the page was opened with, on keeping the learner's progress: `.lt-link-note`, `.lt-storage-note`) are named regions
while they say something, so that no content of the page is outside a landmark. A press (a finger's tap or a click)
on a greyed control marked `lt-says-why` shows why it is greyed beside it (a button's title; for a menu of Play's row,
the note under that row), where a finger finds no tooltip; greyed, such a control stays in the keyboard's Tab order
(WAI-ARIA's "focusable when disabled": `aria-disabled`, never `disabled`, its reason its description) and a press or
Enter there changes nothing, as the widget's own `disabled` asks. A row that asks a question (`lt-asks`, its sentence
`lt-question-words`: New match's question) has its buttons described by its sentence (`aria-describedby`), so the
keyboard put on an answer hears what it answers, and Escape there presses the answer that loses nothing (`lt-keeps`);
Enter in a box of a row that submits (`lt-submits`: a table's code) presses its button (`lt-submit`: Join); every
menu (a select) is described by how a choice is made in it (`menus_how`: `MenuKeys` holds a step of the arrow keys
back until Enter, which a screen reader does not say). On a page of its own, the first stop of the Tab order is a
link, seen while the keyboard is on it (`skip_label`), that takes the keyboard past the header and the section's menus
to the open section's board.

The tabs themselves are Lumino's (`ipywidgets.Tab`): they are already tabs with `aria-selected`, one in the
keyboard's Tab order, and they follow the pattern's manual activation: the arrow keys, Home and End move the focus
along the row, Enter or Space opens the section. Manual, because a section is built when it is first opened: moving
along the row must not build each section passed. The page sets the rest, and when the focus leaves the row, the
open section's tab is again the one Tab comes back to.

    app.children = (..., PageRoles(sections_label="Sections of the tutor", link_note_label="About this link",
                                   storage_note_label="Keeping your progress"))   # inside the app (`.lt-app`)
"""

from __future__ import annotations

import anywidget
import traitlets

from .board import STATIC


class PageRoles(anywidget.AnyWidget):
    """Sets the app's landmarks and its sections' tab semantics in the page (see above); it draws nothing."""

    _esm = STATIC / "page_roles.js"
    sections_label = traitlets.Unicode("").tag(sync=True)
    """The accessible name of the row of sections' tabs, in the app's language."""
    skip_label = traitlets.Unicode("").tag(sync=True)
    """The words of the link first in the Tab order on a page of its own, which takes the keyboard to the board."""
    link_note_label = traitlets.Unicode("").tag(sync=True)
    """The accessible name of the note on the link the page was opened with, while it says something."""
    storage_note_label = traitlets.Unicode("").tag(sync=True)
    """The accessible name of the note on keeping the learner's progress, while it says something."""
    menus_how = traitlets.Unicode("").tag(sync=True)
    """The accessible description of every menu of the app: how a choice is made in it (`MenuKeys`)."""
