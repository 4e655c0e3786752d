"""The page's address: settings of a teacher's link taken out of it once they have been used, so that a reload
does not follow them again (a table link joined, then closed, warned at every reload that its table was gone; a
link's language would win over the one the learner picked since), and settings put in it, so that a reload does
(the tab in view: a reload in the middle of a lesson came back on Play).

    address = PageAddress()               # must be displayed (the page changes its own address)
    address.forget_setting("table")       # ?table=... left out of the address from now on
    address.keep_setting("tab", "learn")  # ?tab=learn in the address ("" leaves it out)
"""

from __future__ import annotations

import anywidget
import traitlets

from .board import STATIC


class PageAddress(anywidget.AnyWidget):
    """Takes the settings named in `forgotten` out of the page's address and puts those of `kept` in it (see above);
    it draws nothing."""

    _esm = STATIC / "page_address.js"
    forgotten = traitlets.List(traitlets.Unicode()).tag(sync=True)
    kept = traitlets.Dict(value_trait=traitlets.Unicode()).tag(sync=True)

    def forget_setting(self, name: str) -> None:
        """Leave the link's setting `name` out of the page's address from now on."""
        if name not in self.forgotten:
            self.forgotten = [*self.forgotten, name]

    def keep_setting(self, name: str, value: str) -> None:
        """Put the setting `name` in the page's address with `value` ("" takes it out), so that a reload follows it."""
        if self.kept.get(name) != value:
            self.kept = {**self.kept, name: value}
