"""The page's address: settings of a teacher's link taken out of it once they have been used, so that a reload
does not follow them again (a table link joined, then closed, warned at every reload that its table was gone; a
link's language would win over the one the learner picked since), and settings put in it, so that a reload does
(the tab in view: a reload in the middle of a lesson came back on Play).

    address = PageAddress()               # must be displayed (the page changes its own address)
    address.forget_setting("table")       # ?table=... left out of the address from now on
    address.keep_setting("tab", "learn")  # ?tab=learn in the address ("" leaves it out)
    address.entries = ["tab"]             # the settings an entry of the browser's history may differ by
    address.keep_setting("tab", "practice", entry=True)  # the address with it is a new entry (Back: the one before)
    address.on_return(callback)           # callback({"tab": "learn"}) when Back or Forward brings an entry again

A setting kept as a new `entry` makes a new entry of the browser's history, so that Back brings the one before it
again (the tab before); any other change is made to the entry in view. When Back or Forward brings an entry again,
the page tells the kernel what each setting of `entries` is in it: a bounded text for each, "" where the address
leaves it out; anything else the page sends is refused and changes nothing. Only a page that is the app's own
should make entries (a notebook's page in JupyterLab is JupyterLab's, whose history is its own).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

import anywidget
import traitlets

from .board import STATIC

MAX_SETTING = 100
"""Characters of a setting the page may give back (a tab's name has a few)."""
log = logging.getLogger(__name__)


class PageAddress(anywidget.AnyWidget):
    """Takes the settings named in `forgotten` out of the page's address and puts those of `kept` in it, each change
    of a setting of `entries` as a new entry of the browser's history (see above); it draws nothing."""

    _esm = STATIC / "page_address.js"
    forgotten = traitlets.List(traitlets.Unicode()).tag(sync=True)
    kept = traitlets.Dict(value_trait=traitlets.Unicode()).tag(sync=True)
    entries = traitlets.List(traitlets.Unicode()).tag(sync=True)
    entry = traitlets.Int(0).tag(sync=True)
    """How many changes of `kept` made a new entry of the history: the page makes one where it grew with the change."""

    def __init__(self) -> None:
        super().__init__()
        self._callbacks: list[Callable[[dict[str, str]], None]] = []
        self.on_msg(self._on_page_msg)

    def forget_setting(self, name: str) -> None:
        """Leave the link's setting `name` out of the page's address from now on."""
        if name not in self.forgotten:
            self.forgotten = [*self.forgotten, name]

    def keep_setting(self, name: str, value: str, entry: bool = False) -> None:
        """Put the setting `name` in the page's address with `value` ("" takes it out), so that a reload follows it:
        as a new entry of the page's history if `entry` and the page makes entries (Back then brings the address
        before it), else in place."""
        if self.kept.get(name) != value:
            with self.hold_sync():  # (one message: the page knows whether it is an entry when the address changes)
                self.entry += entry and bool(self.entries)
                self.kept = {**self.kept, name: value}

    def on_return(self, callback: Callable[[dict[str, str]], None]) -> None:
        """Call `callback(settings)` each time Back or Forward brings an entry of the page's history again, with the
        entry's value of each setting of `entries` ("" where it has none); what the callback keeps of them is kept in
        place."""
        self._callbacks.append(callback)

    def returned(self, settings: object) -> None:
        """The page's address is an entry of its history brought again, whose settings of `entries` are `settings`:
        told to the callbacks (what they keep of them is kept in place); anything but a text of at most `MAX_SETTING`
        characters for each of `entries` (and nothing else) is refused, logged, and changes nothing."""
        if not (self.entries and isinstance(settings, Mapping) and set(settings) == set(self.entries)
                and all(isinstance(value, str) and len(value) <= MAX_SETTING for value in settings.values())):
            log.warning("the page gave back settings of its address that are not %s: refused", self.entries)
            return
        given = dict(settings)
        for callback in list(self._callbacks):
            callback(given)

    def _on_page_msg(self, _widget: object, content: object, _buffers: object) -> None:
        if isinstance(content, Mapping) and content.get("type") == "returned":
            self.returned(content.get("settings"))
