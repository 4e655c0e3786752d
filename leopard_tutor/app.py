"""The Leopard Tutor app: a title and one tab per section, built from the package.

Adding a section is a one-line change to `SECTIONS`: a title and a zero-argument factory that returns
a widget, given either as a callable or as the text "module:function" (imported only when the tab is
first opened, so the app starts fast). For example:

    ("Learn", "leopard_tutor.widgets.learn:build_learn"),

A section that fails to build shows a short message in its tab instead (no traceback). A tab's title is the
catalogue's `app.tabs.<title in lower case>` where there is one (the title in the code is the section's name).

The language: a picker in the header ("Language", each language in its own words) and a widget in the page
(`widgets/language.py`) that keeps the learner's choice in the browser and says the browser's languages. The
app is drawn in the first of a teacher's link (`?lang=es`), the learner's choice, the browser's languages and
the server's LEOPARD_TUTOR_LANGUAGE that the tutor has, else English (`catalogue.choose_language`). When that
changes (the page answered, a link, the picker), the same app draws itself again in the new language in place:
the tab in view, Learn's stage and a match begun against the computer stay where they were.

`open_app()` is what the app notebook runs: the app, then set up as the visitor's address asks
(a teacher's link, see `links.py`), read from the host (`client/host.py`).
"""

from __future__ import annotations

import functools
import html
import importlib
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import ipywidgets as W

from .engine import LeopardError, RuleSet
from .engine.catalogue import choose_language, language, languages, server_language, set_language, text
from .engine.errors import error_words
from .widgets.board import STATIC
from .widgets.header_fit import HeaderFit
from .widgets.language import PageLanguage

if TYPE_CHECKING:
    from .client.student_client import StudentClient, StudentRecord

log = logging.getLogger(__name__)

Factory = Callable[[], Any]


def play_section() -> Any:
    """The Play section against `leopard_tutor.ai` opponents (beginner first) with expert hints, and on a class
    server against a classmate; the review's search runs in the background unless many visitors share this
    machine's processors."""
    from .ai import hint, make_player
    from .client.class_client import ClassClient
    from .client.host import current_host
    from .widgets import build_play

    host = current_host()
    return build_play(make_player("beginner"), hinter=hint, opponent_factory=make_player, level="beginner",
                      address=host.page_address, background=not host.shares_processors(), class_link=ClassClient.here())


SECTIONS: list[tuple[str, Factory | str]] = [
    ("Play", play_section),
    ("Learn", "leopard_tutor.widgets.learn:build_learn"),
    ("Examples", "leopard_tutor.widgets.examples_view:build_examples"),
    ("Practice", "leopard_tutor.widgets.practice:build_practice"),
]


def tab_title(name: str) -> str:
    """A section's tab title in the current language (`app.tabs`), or its own name for a section the catalogue
    does not name."""
    try:
        return text(f"app.tabs.{name.lower()}")
    except KeyError:
        return name


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
        message = W.HTML(text("app.section_failed", error=error_words(error)))
        message.add_class("lt-error")
        return message


class TutorApp(W.VBox):  # type: ignore[misc]
    """The app: a one-line title (the introduction behind an "About" button) and a tab per section, each
    built the first time it is opened."""

    def __init__(self, sections: list[tuple[str, Factory | str]] | None = None) -> None:
        self.sections = list(SECTIONS if sections is None else sections)
        self.built: dict[int, Any] = {}
        self.tabs = W.Tab(children=[W.VBox() for _ in self.sections], titles=[tab_title(t) for t, _ in self.sections])
        self.rules_in_view: dict[int, RuleSet] = {}  # by tab: the rules of each built section that has some
        self.tabs.observe(lambda change: self.open_tab(change["new"]), names="selected_index")
        self.drawn_language = language()  # the language of every word the app shows
        self.header = W.HTML(self._header_html())
        self.language_pick = W.Dropdown(options=[(name, code) for code, name in languages().items()],
                                        value=self.drawn_language, description=text("app.language.label"))
        self.language_pick.add_class("lt-language")
        self.language_pick.observe(self._language_picked, names="value")
        self._putting_pick = False
        self.page_language = PageLanguage(lang=self.drawn_language)
        self.kept_language = ""  # the learner's choice, as the browser keeps it
        self.link_language: str | None = None  # a teacher's link's ?lang=, if it is a language of the tutor
        self.link_query = ""  # the link the app follows (`follow_link`), for its note in another language
        self.asked_languages: tuple[str, ...] = ()  # the browser's, as its request said them, until the page says
        self.page_language.on_restore(self._page_said)
        self.link_note = W.HTML()
        self.link_note.add_class("lt-link-note")
        self.storage_note = W.HTML()
        self.storage_note.add_class("lt-storage-note")
        self.storage = self._keep_progress()
        from .widgets.rules_sheet import RulesSheetLink

        self.rules_link = RulesSheetLink()
        self.head = W.HBox([self.rules_link, self.header, self.language_pick])
        self.head.add_class("lt-head")
        self.student: StudentRecord | None = None
        self.unlock_check: threading.Thread | None = None
        """The last background question whether the teacher has unlocked every lesson (`_follow_unlocking`)."""
        self.class_defaults = ""  # the class's default rules and level, as a link's query (see `join_class`)
        self._classmate_name = ""  # the name `_name_classmate` last put in the classmate name box
        super().__init__([self.head, self.link_note, self.storage_note, self.tabs, self.storage, self.page_language,
                          HeaderFit()])
        self.add_class("lt-app")
        if self.sections:
            self.open_tab(0)

    @staticmethod
    def _header_html() -> str:
        """The title and the About button with the introduction behind it, in the app's language."""
        words = {key: html.escape(text(f"app.{key}")) for key in ("title", "intro", "help", "help_button")}
        style = (STATIC / "app.css").read_text(encoding="utf-8")
        return (f"<style>{style}</style><header class='lt-header'><h1 class='lt-title'>{words['title']}</h1>"
                f"<details class='lt-help'><summary>{words['help_button']}</summary>"
                f"<div class='lt-help-text'><p>{words['intro']}</p><p>{words['help']}</p></div></details>"
                "</header>")

    # -- the language ---------------------------------------------------------------------------------
    def _page_said(self, kept: str) -> None:
        """The page said the language the learner chose in this browser (if any) and the browser's languages."""
        self.kept_language = kept
        self.follow_language()

    def _language_picked(self, change: dict[str, Any]) -> None:
        """The learner chose a language in the picker: kept in the browser, and over a link's for this page."""
        if self._putting_pick:
            return
        self.kept_language = str(change["new"])
        self.link_language = None
        self.page_language.save(self.kept_language)
        self.follow_language()

    def follow_language(self) -> None:
        """Draw the app in the language of the link, else the learner's choice, else the browser's, else the
        server's (`catalogue.choose_language`)."""
        page = self.page_language
        browser = page.browser if page.restored else self.asked_languages
        self.use_language(choose_language(self.link_language, self.kept_language, *browser, server_language()))

    def use_language(self, code: str) -> None:
        """Read this kernel's texts in `code` and, if that is another language than the app's, draw the app again
        in it where the learner was: the tab in view, Learn's stage and a match against the computer."""
        set_language(code)
        if code != self.drawn_language:
            self._draw_again(self._place())
            self.drawn_language = code
        self.page_language.lang = code
        self._putting_pick = True
        try:
            self.language_pick.value = code
        finally:
            self._putting_pick = False

    def _place(self) -> dict[str, Any]:
        """Where the learner is: the tab in view, the sections built, Learn's stage and Play's match (as a saved
        game's code: a match against the computer, not at a class table)."""
        from .engine.game_code import game_code

        place: dict[str, Any] = {"tab": self.tabs.selected_index, "built": sorted(self.built)}
        learn = self._built("learn")
        if learn is not None and hasattr(learn, "controller"):
            place["stage"] = learn.controller.lesson.stage
        play = self._built("play")
        if play is not None and hasattr(play, "controller") and not play.people and not play.at_class_table():
            table = play.controller
            if table.begun:
                place["game"] = game_code(table.match, play.opponent_level())
        return place

    def _draw_again(self, place: dict[str, Any]) -> None:
        """Draw every word of the app again in the language now in use, each section built anew and put back
        where `place` says."""
        from .ai import LEVELS
        from .engine.game_code import read_game_code

        self.header.value = self._header_html()
        self.language_pick.description = text("app.language.label")
        self.rules_link.label = text("rules_sheet.link")
        shown, self.rules_link.rules = self.rules_link.rules, None
        if shown is not None:
            self.rules_link.show(shown)
        self.storage_note.value = ""
        self.link_note.value = self._link_note(self.link_query)
        if self.student is not None:
            self._show_student_bar()
        self.built, self.rules_in_view = {}, {}
        self.tabs.titles = [tab_title(title) for title, _ in self.sections]
        for box in self.tabs.children:  # the same boxes emptied: new ones would make the page show the first tab
            box.children = ()
        for index in place["built"]:
            self.open_tab(index)
        if place["tab"] is not None:
            self.open_tab(place["tab"])
        learn, play = self._built("learn"), self._built("play")
        try:  # a place that cannot be taken up again is logged: the rest of the app is drawn all the same
            if place.get("stage") is not None and hasattr(learn, "open_stage"):
                learn.open_stage(place["stage"])
        except LeopardError:
            log.exception("the stage could not be carried into another language")
        if place.get("game") is not None and hasattr(play, "resume"):
            try:
                play.resume(read_game_code(place["game"], LEVELS))
            except LeopardError:
                log.exception("the match could not be carried into another language")
        self.sit_at_class_table()

    def _keep_progress(self) -> Any:
        """The learner's stars and practice record, kept in the browser (see widgets/storage.py)."""
        from .lessons import kernel_progress
        from .widgets.storage import BrowserStorage, keep_progress

        def note(words: str) -> None:
            self.storage_note.value = f"<p role='status'>{html.escape(words)}</p>"

        storage = BrowserStorage("progress")
        keep_progress(kernel_progress(), storage, note, self._redraw)
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
            if self.student is not None:
                self._report_section(widget)
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
        they sit at one (after a reload, a lost kernel or a server restart); from now on Play comes forward by itself
        when the teacher's round seats the visitor."""
        titles = [title.lower() for title, _ in self.sections]
        play: Any = self.built.get(titles.index("play")) if "play" in titles else None
        resume = getattr(play, "resume_class_table", None)
        if resume is not None:
            play.come_forward[:] = [lambda: setattr(self.tabs, "selected_index", titles.index("play"))]
            resume()

    def follow_link(self, query: str) -> None:
        """Set the app up as a teacher's link asks (see `links.py`); what it cannot use is said in a note."""
        from .ai import LEVELS
        from .lessons import lesson_keys
        from .links import read_link

        titles = [title.lower() for title, _ in self.sections]
        link = read_link(query, levels=LEVELS, tabs=tuple(titles), lessons=len(lesson_keys()))
        self.link_query, self.link_language = query, link.lang
        self.follow_language()
        rules, level = self._class_choices(link.rules, link.level)
        if (rules or level or link.deal) and "play" in titles:
            self.open_tab(titles.index("play"))
            self.built[titles.index("play")].open_deal(rules=rules, level=level, deal=link.deal)
        if link.table is not None and "play" in titles:
            self.open_tab(titles.index("play"))
            self.built[titles.index("play")].join_table(link.table)
        if link.tab is not None:
            self.tabs.selected_index = titles.index(link.tab)
        if link.lesson is not None:
            self.built[titles.index("learn")].open_stage(link.lesson)
        self.link_note.value = self._link_note(query)

    def _link_note(self, query: str) -> str:
        """What the note under the header says of the link `query` (nothing if the app used all of it)."""
        from .ai import LEVELS
        from .lessons import lesson_keys
        from .links import read_link

        titles = tuple(title.lower() for title, _ in self.sections)
        link = read_link(query, levels=LEVELS, tabs=titles, lessons=len(lesson_keys()))
        notes = "".join(f"<li>{html.escape(note)}</li>" for note in link.notes)
        title = html.escape(text("app.link.title"))
        return f"<div role='status'><h3>{title}</h3><ul>{notes}</ul></div>" if notes else ""

    # -- the student's record on a class server -------------------------------------------------------
    def join_class(self, link: StudentClient | None) -> None:
        """On a class server (a `link`), once the kernel is its visitor's: read what the server keeps for the
        student (their progress joins this kernel's, every lesson opened if the teacher said so, the class's
        default rules and level kept for `follow_link`), put the student's name in the header, and from now on
        tell the server what is earned here, each finished match and what the student is doing."""
        if link is None:
            return
        from .client.student_client import StudentRecord
        from .lessons import kernel_progress

        progress = kernel_progress()
        student = self.student = StudentRecord(link, progress)
        found = student.read()
        if found.progress is not None:
            self._merge_progress(found.progress)
            if not self.storage.restored:  # the browser's progress replaces the kernel's when it comes: merge again
                self.storage.on_restore(lambda _kept, code=found.progress: self._merge_progress(code))
        if found.unlock_all:
            self._open_every_lesson()
        self.class_defaults = urlencode({key: value for key, value in (("rules", found.rules),
                                                                       ("level", found.level)) if value})
        self._show_student_bar()
        self.tabs.observe(lambda _change: self._report_now(), names="selected_index")
        self.tabs.observe(lambda _change: self._follow_unlocking(), names="selected_index")
        for widget in self.built.values():
            self._report_section(widget)
        self._report_now()

    def _show_student_bar(self) -> None:
        """The student's name (a `StudentBar`) first in the header, in place of the one there was, if any."""
        from .widgets.student_bar import StudentBar

        if self.student is None:
            return
        for old in self.head.children:  # a bar replaced no longer follows the record
            if isinstance(old, StudentBar) and old.forgotten in self.student.forgotten_listeners:
                self.student.forgotten_listeners.remove(old.forgotten)
                self.student.offered_listeners.remove(old.offered_given)
        bar = StudentBar(self.student)
        bar.named_listeners.append(self._name_classmate)
        self.head.children = (bar, *(part for part in self.head.children if not isinstance(part, StudentBar)))

    def _follow_unlocking(self) -> None:
        """When Learn is shown and a stage is still locked, ask the server again (in the background, so the tab
        opens at once) whether the teacher has unlocked every lesson since the page started."""
        from .lessons import LESSONS, kernel_progress

        student, index = self.student, self.tabs.selected_index
        if student is None or index is None or self.sections[index][0].lower() != "learn":
            return
        progress = kernel_progress()
        if progress.is_unlocked(LESSONS[-1].key):
            return

        def ask() -> None:
            if student.read().unlock_all:
                self._open_every_lesson()

        self.unlock_check = threading.Thread(target=ask, daemon=True, name="leopard-unlock-check")
        self.unlock_check.start()

    def _open_every_lesson(self) -> None:
        """The teacher unlocked every lesson: open them all and redraw the sections that show progress."""
        from .lessons import LESSONS, kernel_progress

        kernel_progress().open_through(LESSONS[-1].key)
        self._redraw()

    def _built(self, title: str) -> Any:
        """The section titled `title` (in lower case) if it is built, else None."""
        titles = [name.lower() for name, _ in self.sections]
        return self.built.get(titles.index(title)) if title in titles else None

    def _merge_progress(self, code: str) -> None:
        """Add the progress the server keeps to this kernel's (a damaged code is logged and changes nothing)."""
        from .lessons import ProgressCodeError, kernel_progress

        try:
            if kernel_progress().merge_code(code):
                self._redraw()
        except ProgressCodeError as error:
            log.warning("the progress the class server keeps could not be read: %s", error)

    def _redraw(self) -> None:
        """Let the built sections redraw what depends on the progress."""
        for section in self.built.values():
            if hasattr(section, "update_panels"):
                section.update_panels()

    def _class_choices(self, rules: str | None, level: str | None) -> tuple[str | None, str | None]:
        """The rules and level a link chose, else the class's defaults, read as a link's (what is unusable, or
        what the Play section already plays, is left out; nothing at a class table)."""
        from .ai import LEVELS
        from .links import read_link
        from .widgets.play_section import ADAPTIVE

        play = self._built("play")
        if not self.class_defaults or play is None or play.at_class_table():
            return rules, level
        defaults = read_link(self.class_defaults, levels=(*LEVELS, ADAPTIVE), tabs=(), lessons=0)
        if rules is None and defaults.rules != play.rules_pick.value:
            rules = defaults.rules
        if level is None and defaults.level != play.level_pick.value:
            level = defaults.level
        return rules, level

    def _name_classmate(self, name: str) -> None:
        """The student kept `name`: the Play section's classmate name box holds it, unless another name is typed."""
        panel = getattr(self._built("play"), "classmates", None)
        if panel is not None and panel.name.value in ("", self._classmate_name):
            panel.name.value = name
        self._classmate_name = name

    def _report_section(self, widget: Any) -> None:
        """Tell the server what the student is doing after each click in `widget`'s board, each match it ends and
        each failed try of a Learn stage."""
        board = getattr(widget, "board", None)
        if board is not None:
            board.listeners.append(lambda _intent: self._report_now())
        student = self.student
        if student is not None and hasattr(widget, "match_listeners"):
            widget.match_listeners.append(student.game)
        failed = getattr(getattr(widget, "controller", None), "failed_listeners", None)
        if student is not None and failed is not None:
            failed.append(student.tried)

    def _report_now(self) -> None:
        """Tell the server what the student is doing: the tab in view, Learn's stage, the classmate played."""
        from .protocol import DOINGS
        from .table.class_table import ClassTable

        index = self.tabs.selected_index
        if self.student is None or index is None or not 0 <= index < len(self.sections):
            return
        doing = self.sections[index][0].lower()
        if doing not in DOINGS:
            return
        section = self.built.get(index)
        controller: Any = getattr(section, "controller", None)
        stage = controller.lesson.stage if doing == "learn" and hasattr(controller, "lesson") else None
        playing = isinstance(controller, ClassTable) and controller.store_move is not None
        self.student.now(doing, stage, controller.name(1 - controller.seat) if playing else None)


def build_app(sections: list[tuple[str, Factory | str]] | None = None) -> TutorApp:
    """The whole app (the notebook's only cell calls this)."""
    return TutorApp(sections)


def open_app(sections: list[tuple[str, Factory | str]] | None = None) -> TutorApp:
    """The app as a visitor opens it (with only `sections`, if given): built, then set up by the visitor's
    address (on a server whose kernels are preheated, the last step waits for the visitor)."""
    from .client.host import current_host
    from .client.student_client import StudentClient
    from .links import link_language

    host = current_host()
    tutor = build_app(sections)
    query = host.query()
    tutor.asked_languages = tuple(getattr(host, "languages", tuple)())
    tutor.link_language = link_language(query)
    tutor.follow_language()  # before the student's bar and the link's settings: drawn once in the language
    tutor.sit_at_class_table()
    tutor.join_class(StudentClient.here())
    tutor.follow_link(query)
    return tutor


def open_lessons(first: int, last: int | None = None) -> TutorApp:
    """Learn's stages `first` to `last` alone, in the app's frame (its title, rules sheet and language, which
    follows the page as the whole app's does; the group's stars kept when it is drawn again): a lesson
    notebook's one cell."""
    from .widgets.learn import build_learn, group_progress

    return open_app([("Learn", functools.partial(build_learn, first, last, group_progress(first, last)))])


def open_examples() -> TutorApp:
    """The rulebook's worked examples alone, in the app's frame: the examples notebook's one cell."""
    return open_app([("Examples", "leopard_tutor.widgets.examples_view:build_examples")])
