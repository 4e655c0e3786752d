"""Keeping a text in the visitor's browser (localStorage), so that what the learner earned comes back
by itself after a reload, with no server storage and no account.

The API (the same in a Voilà kernel and in a static Pyodide site; the widget draws nothing but must
be displayed somewhere on the page, since the page does the reading and writing):

    storage = BrowserStorage("progress")   # kept under "leopard-tutor/progress" for this site, one text for
                                           # all its tabs (per_tab=True: one text for each tab, see below)
    storage.on_restore(callback)           # callback(text) once, when the page has read what it kept
                                           # ("" if nothing); a kept text that is too long gives ""
    storage.save(text)                     # the page keeps `text` from now on ("" forgets it)

Every text is bounded (`MAX_STORED` characters) and goes through the caller's own reader: what a
browser gives back is input like any other. `keep_progress(progress, storage, note)` does this for
the learner's lesson stars and practice record (`lessons.Progress`), as a progress code: restored
when the page opens (a damaged or foreign text is explained by `note(...)` and changes nothing) and
saved after every change.

Kept per tab (`per_tab`, Play's matches: `match_keeper.py`), each tab of the browser keeps its own text, and the
browser keeps those of a few tabs (six at most, the oldest dropped past that). A reload of a tab takes up that tab's
own (`this_tab`), unless another tab has taken it up since (a closed tab the browser reopened): it then does as a new
tab does. A new tab takes up the newest text of a tab that is closed, which is then its own and no longer the
closed tab's, so that no two tabs take one text up; if every text kept is another open tab's, it takes up nothing and
`held_elsewhere` gives it the newest of them, to say so. A tab the browser duplicated is a new tab whose own text is
held elsewhere (by the tab it copies). `static/storage.js` asks the open tabs over a BroadcastChannel; it also takes
up, once, the one text that earlier versions kept for all tabs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from ..engine import LeopardError
from ..engine.catalogue import text
from ..lessons.progress import Progress, ProgressCodeError
from .board import STATIC, PageWrites

KEY_PREFIX = "leopard-tutor/"
MAX_STORED = 20_000
"""Characters a kept text may have (a progress code has about a hundred)."""


def kept_script(name: str) -> str:
    """The ES module of the script `name` in static/, after `kept.js` (reading and writing localStorage), which
    storage.js and language.js both use: a widget's module is one text, so the two are put together here."""
    return "\n".join((STATIC / each).read_text(encoding="utf-8") for each in ("kept.js", name))


class StorageError(LeopardError):
    """A text too long to keep, or a name that is not a plain word."""


class BrowserStorage(PageWrites, anywidget.AnyWidget):
    """One text kept in the browser under a name (see the module docstring)."""

    _esm = kept_script("storage.js")
    key = traitlets.Unicode().tag(sync=True)
    saved = traitlets.Unicode("").tag(sync=True)
    per_tab = traitlets.Bool(False).tag(sync=True)
    """Whether each tab keeps a text of its own (see the module docstring): a reload of a tab takes up that tab's,
    a new tab the newest of a closed tab's, unless every text kept is another open tab's (`held_elsewhere`)."""

    def __init__(self, name: str, per_tab: bool = False, **kwargs: Any) -> None:
        if not name.isidentifier():
            raise StorageError(f"a storage name is a plain word, not {name!r:.40}")
        super().__init__(key=KEY_PREFIX + name, per_tab=per_tab, **kwargs)
        self.restored = False
        self.refused = False
        """Whether the browser refuses to keep anything (site data blocked): what is saved lasts only with the page."""
        self.this_tab = False
        """Whether the text restored was this tab's own (per_tab: a reload of the tab), not a closed tab's."""
        self.held_elsewhere = ""
        """Where every text kept is another open tab's (per_tab, a new or duplicated tab), the newest of them, else "":
        this tab then took up nothing (its callbacks were given ""), so that two tabs never go on with two copies of
        one text."""
        self._callbacks: list[Callable[[str], None]] = []
        self.on_msg(self._on_page_msg)

    def on_restore(self, callback: Callable[[str], None]) -> None:
        """Call `callback(text)` with what the browser kept, once, when the page has read it."""
        self._callbacks.append(callback)

    def save(self, value: str) -> None:
        """Have the browser keep `value` ("" forgets it); StorageError if it is longer than MAX_STORED."""
        if not isinstance(value, str) or len(value) > MAX_STORED:
            raise StorageError(f"a kept text is at most {MAX_STORED} characters")
        self.saved = value

    def restore(self, value: object, this_tab: bool = False, refused: bool = False, held: bool = False) -> None:
        """Hand what the page kept to the callbacks (the first time only; anything but a bounded text is ""), noting
        whether it is what this very tab kept (`this_tab`: a reload of it) rather than a closed tab's (a new tab),
        whether another open tab `held` it (then the callbacks are given "" and it is kept as `held_elsewhere`), and
        whether the browser `refused` to keep anything."""
        if self.restored:
            return
        self.restored = True
        self.this_tab = this_tab is True
        self.refused = refused is True
        kept = value if isinstance(value, str) and len(value) <= MAX_STORED else ""
        if held is True and not self.this_tab:
            self.held_elsewhere, kept = kept, ""
        for callback in self._callbacks:
            callback(kept)

    def _on_page_msg(self, _widget: object, content: object, _buffers: object) -> None:
        if isinstance(content, dict) and content.get("type") == "restore":
            self.restore(content.get("value"), content.get("tab") is True, content.get("refused") is True,
                         content.get("held") is True)


def keep_progress(progress: Progress, storage: BrowserStorage, note: Callable[[str], None],
                  restored: Callable[[], None] = lambda: None, nothing: Callable[[], None] = lambda: None) -> None:
    """Keep `progress` in the browser: read back when the page opens, saved after every change.

    A kept text that is not a readable progress code changes nothing: `note(...)` says so, as it says that a
    browser that refuses to keep anything keeps no progress. After a restore, `restored()` lets the sections
    redraw; where the browser kept nothing, `nothing()` is called instead."""
    def restore(kept: str) -> None:
        if storage.refused:
            note(text("app.storage.refused"))
        if not kept:
            nothing()
        if kept:
            try:
                progress.load_code(kept)
            except ProgressCodeError as error:
                note(text("app.storage.unreadable", reason=str(error)))
                return
            restored()

    storage.on_restore(restore)
    progress.listeners.append(lambda: storage.save(progress.to_code()))
