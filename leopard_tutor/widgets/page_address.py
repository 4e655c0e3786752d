"""The page's address: settings of a teacher's link taken out of it once they have been used, so that a reload
does not follow them again (a table link joined, then closed, warned at every reload that its table was gone; a
link's language would win over the one the learner picked since).

    address = PageAddress()           # must be displayed (the page changes its own address)
    address.forget_setting("table")   # ?table=... left out of the address from now on
"""

from __future__ import annotations

import anywidget
import traitlets

from .board import STATIC


class PageAddress(anywidget.AnyWidget):
    """Takes the settings named in `forgotten` out of the page's address (see above); it draws nothing."""

    _esm = STATIC / "page_address.js"
    forgotten = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def forget_setting(self, name: str) -> None:
        """Leave the link's setting `name` out of the page's address from now on."""
        if name not in self.forgotten:
            self.forgotten = [*self.forgotten, name]
