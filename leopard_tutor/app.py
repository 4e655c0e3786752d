"""The Leopard Tutor app: a title and one tab per section, built from the package.

Adding a section is a one-line change to `SECTIONS`: a title and a zero-argument factory that returns
a widget, given either as a callable or as the text "module:function" (imported only when the tab is
first opened, so the app starts fast). For example:

    ("Learn", "leopard_tutor.widgets.learn:build_learn"),

A section that fails to build shows a short message in its tab instead (no traceback).

`open_app()` is what the app notebook runs: the app, then set up as the visitor's address asks
(a teacher's link, see `links.py`), read from the host (`host.py`).
"""

from __future__ import annotations

import html
import importlib
import logging
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from .engine import RuleSet
from .engine.catalogue import text
from .widgets.board import STATIC

log = logging.getLogger(__name__)

Factory = Callable[[], Any]


def play_section() -> Any:
    """The Play section against `leopard_tutor.ai` opponents (beginner first) with expert hints, and on a class
    server against a classmate; the review's search runs in the background unless many visitors share this
    machine's processors."""
    from .ai import hint, make_player
    from .class_client import ClassLink
    from .host import current_host
    from .widgets import build_play

    host = current_host()
    return build_play(make_player("beginner"), hinter=hint, opponent_factory=make_player, level="beginner",
                      address=host.page_address, background=not host.shares_processors(), class_link=ClassLink.here())


SECTIONS: list[tuple[str, Factory | str]] = [
    ("Play", play_section),
    ("Learn", "leopard_tutor.widgets.learn:build_learn"),
    ("Examples", "leopard_tutor.widgets.examples_view:build_examples"),
    ("Practice", "leopard_tutor.widgets.practice:build_practice"),
]


def load_factory(factory: Factory | str) -> Factory:
    """A section factory itself, or the one a "module:function" text names."""
    if callable(factory):
        return factory
    module, _, name = factory.partition(":")
    found: Factory = getattr(importlib.import_module(module), name)
    return found


def build_section(factory: Factory | str) -> Any:
    """Build one section; if it fails, a short message in its place (the error goes to the log)."""
    try:
        return load_factory(factory)()
    except Exception as error:  # a broken section must not take the app down with it
        log.exception("building a Leopard Tutor section failed")
        message = W.HTML(text("app.section_failed", error=f"{type(error).__name__}: {error}"))
        message.add_class("lt-error")
        return message


class TutorApp(W.VBox):  # type: ignore[misc]
    """The app: a one-line title (the introduction behind an "About" button) and a tab per section, each
    built the first time it is opened."""

    def __init__(self, sections: list[tuple[str, Factory | str]] | None = None) -> None:
        self.sections = list(SECTIONS if sections is None else sections)
        self.built: dict[int, Any] = {}
        self.tabs = W.Tab(children=[W.VBox() for _ in self.sections], titles=[t for t, _ in self.sections])
        self.rules_in_view: dict[int, RuleSet] = {}  # by tab: the rules of each built section that has some
        self.tabs.observe(lambda change: self.open_tab(change["new"]), names="selected_index")
        words = {key: html.escape(text(f"app.{key}")) for key in ("title", "intro", "help", "help_button")}
        style = (STATIC / "app.css").read_text(encoding="utf-8")
        header = W.HTML(f"<style>{style}</style><header class='lt-header'><h1 class='lt-title'>{words['title']}</h1>"
                        f"<details class='lt-help'><summary>{words['help_button']}</summary>"
                        f"<div class='lt-help-text'><p>{words['intro']}</p><p>{words['help']}</p></div></details>"
                        "</header>")
        self.link_note = W.HTML()
        self.link_note.add_class("lt-link-note")
        self.storage_note = W.HTML()
        self.storage_note.add_class("lt-storage-note")
        self.storage = self._keep_progress()
        from .widgets.rules_sheet import RulesSheetLink

        self.rules_link = RulesSheetLink()
        head = W.HBox([self.rules_link, header])
        head.add_class("lt-head")
        super().__init__([head, self.link_note, self.storage_note, self.tabs, self.storage])
        self.add_class("lt-app")
        if self.sections:
            self.open_tab(0)

    def _keep_progress(self) -> Any:
        """The learner's stars and practice record, kept in the browser (see widgets/storage.py)."""
        from .lessons import kernel_progress
        from .widgets.storage import BrowserStorage, keep_progress

        def note(words: str) -> None:
            self.storage_note.value = f"<p role='status'>{html.escape(words)}</p>"

        def redraw() -> None:
            for section in self.built.values():
                if hasattr(section, "update_panels"):
                    section.update_panels()

        storage = BrowserStorage("progress")
        keep_progress(kernel_progress(), storage, note, redraw)
        return storage

    def open_tab(self, index: int | None) -> None:
        """Build the section of tab `index` if it is not built yet; the rules link then follows the section
        in view."""
        if index is not None and index not in self.built and 0 <= index < len(self.sections):
            widget = build_section(self.sections[index][1])
            self.built[index] = widget
            self.tabs.children[index].children = [widget]
            if hasattr(widget, "watch_rules"):
                widget.watch_rules(lambda rules, i=index: self._section_rules(i, rules))
        self._follow_rules()

    def _section_rules(self, index: int, rules: RuleSet) -> None:
        """Section `index` now plays under `rules`."""
        self.rules_in_view[index] = rules
        self._follow_rules()

    def _follow_rules(self) -> None:
        """Make the rules link open the sheet of the rules of the section in view (else leave it as it is)."""
        rules = self.rules_in_view.get(self.tabs.selected_index)
        if rules is not None:
            self.rules_link.show(rules)


    def sit_at_class_table(self) -> None:
        """On a class server, once the kernel is its visitor's: put Play's board at the visitor's class table, if
        they sit at one (after a reload, a lost kernel or a server restart)."""
        titles = [title.lower() for title, _ in self.sections]
        play = self.built.get(titles.index("play")) if "play" in titles else None
        resume = getattr(play, "resume_class_table", None)
        if resume is not None:
            resume()

    def follow_link(self, query: str) -> None:
        """Set the app up as a teacher's link asks (see `links.py`); what it cannot use is said in a note."""
        from .ai import LEVELS
        from .lessons import LESSONS
        from .links import read_link

        titles = [title.lower() for title, _ in self.sections]
        link = read_link(query, levels=LEVELS, tabs=tuple(titles), lessons=len(LESSONS))
        if (link.rules or link.level or link.deal) and "play" in titles:
            self.open_tab(titles.index("play"))
            self.built[titles.index("play")].open_deal(rules=link.rules, level=link.level, deal=link.deal)
        if link.table is not None and "play" in titles:
            self.open_tab(titles.index("play"))
            self.built[titles.index("play")].join_table(link.table)
        if link.tab is not None:
            self.tabs.selected_index = titles.index(link.tab)
        if link.lesson is not None:
            self.built[titles.index("learn")].open_stage(link.lesson)
        notes = "".join(f"<li>{html.escape(note)}</li>" for note in link.notes)
        title = html.escape(text("app.link.title"))
        self.link_note.value = f"<div role='status'><h3>{title}</h3><ul>{notes}</ul></div>" if notes else ""


def build_app(sections: list[tuple[str, Factory | str]] | None = None) -> TutorApp:
    """The whole app (the notebook's only cell calls this)."""
    return TutorApp(sections)


def open_app() -> TutorApp:
    """The app as a visitor opens it: built, then set up by the visitor's address (on a server whose
    kernels are preheated, the last step waits for the visitor)."""
    from .host import current_host

    host = current_host()
    tutor = build_app()
    query = host.query()
    tutor.sit_at_class_table()
    tutor.follow_link(query)
    return tutor
