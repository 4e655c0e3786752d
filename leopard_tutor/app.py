"""The Leopard Tutor app: a title and one tab per section, built from the package.

Adding a section is a one-line change to `SECTIONS`: the section's id (`widgets/section.py`) and a zero-argument
factory that returns a widget, given either as a callable or as the text "module:function" (imported only when
the tab is first opened, so the app starts fast). For example:

    ("learn", "leopard_tutor.widgets.learn:build_learn"),

A section that fails to build shows a short message in its tab instead (no traceback). A tab's title is the
catalogue's `app.tabs.<id>` where there is one (else the id itself). The app asks each section what a `Section`
answers (its rules, progress, place and report) and finds a section by its id, never by its title.

The language: a picker in the header ("Language", each language in its own words) and a widget in the page
(`widgets/language.py`) that keeps the learner's choice in the browser and says the browser's languages. The
app is drawn in the first of a teacher's link (`?lang=es`), the learner's choice, the browser's languages and
the server's LEOPARD_TUTOR_LANGUAGE that the tutor has, else English (`catalogue.choose_language`). When that
changes (the page answered, a link, the picker), the same app draws itself again in the new language in place:
the tab in view and each section's place (Learn's stage, a match begun against the computer) stay where they were.

`open_app()` is what the app notebook runs: the app, then set up as the visitor's address asks
(a teacher's link, see `links.py`), read from the host (`client/host.py`).
"""

from __future__ import annotations

import functools
import html
import importlib
import logging
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from .ai import hint, make_player
from .class_member import ClassMember
from .client.class_client import ClassClient
from .client.host import current_host
from .client.student_client import StudentClient, StudentRecord
from .engine import RuleSet
from .engine.catalogue import choose_language, language, languages, server_language, set_language, text
from .engine.errors import error_words
from .lessons import kernel_progress, lesson_keys
from .links import TeacherLink, link_language, read_link
from .protocol import LEVEL_CHOICES
from .widgets.board import STATIC
from .widgets.header_fit import HeaderFit
from .widgets.input_limits import InputLimits
from .widgets.language import PageLanguage
from .widgets.learn import LearnSection, build_learn, group_progress
from .widgets.menu_keys import MenuKeys
from .widgets.page_address import PageAddress
from .widgets.page_roles import PageRoles
from .widgets.play_section import PlaySection, build_play
from .widgets.rules_sheet import RulesSheetLink
from .widgets.section import Section
from .widgets.storage import BrowserStorage, keep_progress
from .widgets.student_bar import StudentBar

log = logging.getLogger(__name__)

Factory = Callable[[], Any]


def play_section() -> PlaySection:
    """The Play section against `leopard_tutor.ai` opponents (beginner first) with expert hints, and on a class
    server against a classmate; the review's search runs in the background unless many visitors share this
    machine's processors."""
    host = current_host()
    return build_play(make_player("beginner"), hinter=hint, opponent_factory=make_player, level="beginner",
                      address=host.page_address, background=not host.shares_processors(),
                      class_client=ClassClient.here())


SECTIONS: list[tuple[str, Factory | str]] = [
    ("play", play_section),
    ("learn", "leopard_tutor.widgets.learn:build_learn"),
    ("examples", "leopard_tutor.widgets.examples_view:build_examples"),
    ("practice", "leopard_tutor.widgets.practice:build_practice"),
]


def tab_title(section_id: str) -> str:
    """A section's tab title in the current language (`app.tabs`), or its id for a section the catalogue
    does not name."""
    try:
        return text(f"app.tabs.{section_id}")
    except KeyError:
        return section_id


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


def section_heading(section_id: str) -> W.HTML:
    """The heading of a section's tab panel (level 2, under the page's title): its tab's title, for a screen
    reader's list of headings; it takes no room on the screen (`.lt-section-heading`)."""
    heading = W.HTML(f"<h2>{html.escape(tab_title(section_id))}</h2>")
    heading.add_class("lt-section-heading")
    return heading


class TutorApp(W.VBox):  # type: ignore[misc]
    """The app: a one-line title (the introduction behind an "About" button) and a tab per section, each
    built the first time it is opened."""

    def __init__(self, sections: list[tuple[str, Factory | str]] | None = None) -> None:
        self.sections = list(SECTIONS if sections is None else sections)  # (id, factory), a tab each
        self.built: dict[int, Any] = {}  # by tab: the widget built, a `Section` unless it failed to build
        self.tabs = W.Tab(children=[W.VBox() for _ in self.sections], titles=[tab_title(i) for i, _ in self.sections])
        self.rules_in_view: dict[int, RuleSet] = {}  # by tab: the rules of each built section that has some
        self.tabs.observe(lambda change: self.open_tab(change["new"]), names="selected_index")
        self.tabs.observe(lambda change: self._keep_tab(change["new"], entry=True), names="selected_index")
        self.drawn_language = language()  # the language of every word the app shows
        self.header = W.HTML(self._header_html())
        self.language_pick = W.Dropdown(options=[(name, code) for code, name in languages().items()],
                                        value=self.drawn_language, description=text("app.language.label"))
        self.language_pick.add_class("lt-language")
        self.language_pick.observe(self._language_picked, names="value")
        self._putting_pick = False
        self.page_language = PageLanguage(lang=self.drawn_language, title=text("app.title"))
        self.page_address = PageAddress()
        self.page_address.on_return(self._tab_returned)
        self.kept_language = ""  # the learner's choice, as the browser keeps it
        self.link_language: str | None = None  # a teacher's link's ?lang=, if it is a language of the tutor
        self.link_query = ""  # the link the app follows (`follow_link`), for its note in another language
        self.asked_languages: tuple[str, ...] = ()  # the browser's, as its request said them, until the page says
        self.page_language.on_restore(self._page_said)
        self.page_language.on_restore(lambda _kept: self._settle())
        self.link_note = W.HTML()
        self.link_note.add_class("lt-link-note")
        self.storage_note = W.HTML()
        self.storage_note.add_class("lt-storage-note")
        self.nothing_kept = False  # the browser gave back no progress: a newcomer, Play points them to Learn
        self.storage = self._keep_progress()
        self.rules_link = RulesSheetLink()
        self.head = W.HBox([self.rules_link, self.header, self.language_pick])
        self.head.add_class("lt-head")
        self.member: ClassMember | None = None  # the student, on a class server (`join_class`)
        self.page_roles = PageRoles(**self._page_labels())
        super().__init__([self.head, self.link_note, self.storage_note, self.tabs, self.storage, self.page_language,
                          self.page_address, HeaderFit(), MenuKeys(), InputLimits(), self.page_roles])
        self.add_class("lt-app")
        self._settle()
        if self.sections:
            self.open_tab(0)

    @staticmethod
    def _page_labels() -> dict[str, str]:
        """The names `PageRoles` gives the row of sections and the notes above it, and how a menu is chosen in, in the
        app's language."""
        return {"sections_label": text("app.sections_label"), "skip_label": text("app.skip_label"),
                "link_note_label": text("app.link_note_label"),
                "storage_note_label": text("app.storage_note_label"), "menus_how": text("app.menus_how")}

    @staticmethod
    def _header_html() -> str:
        """The title and the About button with the introduction behind it, in the app's language (a plain box: the
        whole header around it, `.lt-head`, is the page's banner, `PageRoles`)."""
        words = {key: html.escape(text(f"app.{key}")) for key in ("title", "intro", "help", "help_button")}
        style = (STATIC / "app.css").read_text(encoding="utf-8")
        return (f"<style>{style}</style><div class='lt-header'><h1 class='lt-title'>{words['title']}</h1>"
                f"<details class='lt-help'><summary>{words['help_button']}</summary>"
                f"<div class='lt-help-text'><p>{words['intro']}</p><p>{words['help']}</p></div></details>"
                "</div>")

    # -- the sections -----------------------------------------------------------------------------------
    def _tab(self, section_id: str) -> int | None:
        """The tab of the section `section_id`, if the app has one."""
        ids = [found for found, _ in self.sections]
        return ids.index(section_id) if section_id in ids else None

    def _section(self, section_id: str) -> Section | None:
        """The section `section_id` if it is built, else None."""
        tab = self._tab(section_id)
        section = None if tab is None else self.built.get(tab)
        return section if isinstance(section, Section) else None

    def _play(self) -> PlaySection | None:
        """The Play section if it is built, else None."""
        play = self._section("play")
        return play if isinstance(play, PlaySection) else None

    def open_tab(self, index: int | None) -> None:
        """Build the section of tab `index` if it is not built yet; the rules link then follows the section
        in view."""
        if index is not None and index not in self.built and 0 <= index < len(self.sections):
            widget = build_section(self.sections[index][1])
            self.built[index] = widget
            self.tabs.children[index].children = [section_heading(self.sections[index][0]), widget]
            if isinstance(widget, Section):
                widget.watch_rules(functools.partial(self._section_rules, index))
                if self.member is not None:
                    self.member.follow_section(widget, self._report_now)
            if isinstance(widget, PlaySection):
                self._point_to_learn()
                widget.keeper.storage.on_restore(lambda _kept: self._settle())  # (after the kept match is taken up)
        self._follow_rules()

    def _keep_tab(self, index: int | None, entry: bool = False) -> None:
        """Put the tab in view in the page's address (`?tab=learn`; the first tab leaves it out), so that a reload
        comes back to it as a teacher's link would open it: as a new entry of the page's history if `entry` (a tab
        chosen). Away from Learn, a link's stage (`&lesson=5`, its stages opened by now) leaves the address too: with
        another tab it would only be refused at the reload."""
        if index is not None and 0 <= index < len(self.sections):
            section = self.sections[index][0]
            self.page_address.keep_setting("tab", section if index else "", entry=entry)
            if section != "learn":
                self.page_address.keep_setting("lesson", "")

    def _section_rules(self, index: int, rules: RuleSet) -> None:
        """Section `index` now plays under `rules`."""
        self.rules_in_view[index] = rules
        self._follow_rules()

    def _follow_rules(self) -> None:
        """Make the rules link open the sheet of the rules of the section in view (else leave it as it is)."""
        rules = self.rules_in_view.get(self.tabs.selected_index)
        if rules is not None:
            self.rules_link.show(rules)

    def _redraw(self) -> None:
        """Let the built sections redraw what depends on the progress."""
        for section in self.built.values():
            if isinstance(section, Section):
                section.update_panels()

    # -- the language ---------------------------------------------------------------------------------
    def _page_said(self, kept: str) -> None:
        """The page said the language the learner chose in this browser (if any) and the browser's languages."""
        self.kept_language = kept
        self.follow_language()

    def _language_picked(self, change: dict[str, Any]) -> None:
        """The learner chose a language in the picker: kept in the browser, and over a link's for this page (whose
        ?lang= leaves the page's address, so that a reload keeps the learner's choice)."""
        if self._putting_pick:
            return
        self.kept_language = str(change["new"])
        self.link_language = None
        self.page_language.save(self.kept_language)
        self.page_address.forget_setting("lang")
        self.follow_language()
        self.language_pick.focus()  # the page is drawn again: the keyboard stays where the choice was made

    def follow_language(self) -> None:
        """Draw the app in the language of the link, else the learner's choice, else the browser's, else the
        server's (`catalogue.choose_language`)."""
        page = self.page_language
        browser = page.browser if page.restored else self.asked_languages
        self.use_language(choose_language(self.link_language, self.kept_language, *browser, server_language()))

    def use_language(self, code: str) -> None:
        """Read this kernel's texts in `code` and, if that is another language than the app's, draw the app again
        in it where the learner was: the tab in view and each section's place."""
        set_language(code)
        if code != self.drawn_language:
            self._draw_again()
            self.drawn_language = code
        self.page_language.lang, self.page_language.title = code, text("app.title")
        self._putting_pick = True
        try:
            self.language_pick.value = code
        finally:
            self._putting_pick = False

    def _draw_again(self) -> None:
        """Draw every word of the app again in the language now in use, each built section built anew and put
        back in its place (`Section.place`), the same tab in view."""
        tab = self.tabs.selected_index
        places = {index: section.place() for index, section in self.built.items() if isinstance(section, Section)}
        self.header.value = self._header_html()
        self.language_pick.description = text("app.language.label")
        for name, value in self._page_labels().items():
            setattr(self.page_roles, name, value)
        self.rules_link.label = text("rules_sheet.link")
        shown, self.rules_link.rules = self.rules_link.rules, None
        if shown is not None:
            self.rules_link.show(shown)
        self.storage_note.value = ""
        self.link_note.value = self._link_note(self.link_query)
        self._show_student_bar()
        built, self.built, self.rules_in_view = sorted(self.built), {}, {}
        self.tabs.titles = [tab_title(section_id) for section_id, _ in self.sections]
        for box in self.tabs.children:  # the same boxes emptied: new ones would make the page show the first tab
            box.children = ()
        for index in built:
            self.open_tab(index)
        if tab is not None:
            self.open_tab(tab)
        for index, place in places.items():
            section = self.built.get(index)
            if place is not None and isinstance(section, Section):
                section.take_place(place)
        self.sit_at_class_table(redrawn=True)

    def _keep_progress(self) -> BrowserStorage:
        """The learner's stars and practice record, kept in the browser (see widgets/storage.py)."""

        def note(words: str) -> None:
            self.storage_note.value = f"<p role='status'>{html.escape(words)}</p>"

        def nothing() -> None:
            self.nothing_kept = True
            self._point_to_learn()

        storage = BrowserStorage("progress")
        keep_progress(kernel_progress(), storage, note, self._redraw, nothing)
        storage.on_restore(lambda _kept: self._settle())  # (after the pointer to Learn is shown or not)
        kernel_progress().merged_listeners.append(self._redraw)  # (a code loaded in Learn shows in Practice at once)
        kernel_progress().listeners.append(self._point_to_learn)  # (gone with the first star or answer)
        return storage

    def _point_to_learn(self) -> None:
        """Show Play's pointer to Learn to a newcomer (their browser kept no progress, and no stage is solved or
        practice question answered since), where the app has both; hide it otherwise."""
        play, learn = self._play(), self._tab("learn")
        if play is None:
            return
        progress = kernel_progress()
        play.open_learn = None if learn is None else functools.partial(setattr, self.tabs, "selected_index", learn)
        play.want_newcomer(learn is not None and self.nothing_kept and not progress.stars and not progress.practice)

    # -- a teacher's link -------------------------------------------------------------------------------
    def follow_link(self, query: str) -> None:
        """Set the app up as a teacher's link asks (see `links.py`); what it cannot use is said in a note."""
        link = self._read_link(query)
        self.link_query, self.link_language = query, link.lang
        self.follow_language()
        rules, level = (link.rules, link.level) if self.member is None else (
            self.member.class_choices(self._play(), link.rules, link.level))
        play_tab = self._tab("play")
        if (rules or level or link.deal) and play_tab is not None:
            self.open_tab(play_tab)
            play = self._play()
            if play is not None:
                play.open_deal(rules=rules, level=level, deal=link.deal)
        if link.table is not None and play_tab is not None:
            self.open_tab(play_tab)
            play = self._play()
            if play is not None:
                play.link_used_listeners.append(self.page_address.forget_setting)
                play.join_table(link.table)
        if link.tab is not None:
            self.tabs.selected_index = self._tab(link.tab)
        learn = self._section("learn")
        if link.lesson is not None and isinstance(learn, LearnSection):
            learn.open_stage(link.lesson)
        self.link_note.value = self._link_note(query)

    def _read_link(self, query: str) -> TeacherLink:
        """The link `query` as this app reads it: any computer level or the adaptive one, its tabs, its stages."""
        return read_link(query, levels=LEVEL_CHOICES, tabs=tuple(i for i, _ in self.sections),
                         lessons=len(lesson_keys()))

    def _link_note(self, query: str) -> str:
        """What the note under the header says of the link `query` (nothing if the app used all of it)."""
        link = self._read_link(query)
        said = list(link.notes)
        play = self._play()
        if link.table is not None and (play is None or play.classmates is None):  # (the static site, a notebook)
            said.append(text("app.link.no_tables", value=link.table))
        notes = "".join(f"<li>{html.escape(note)}</li>" for note in said)
        title = html.escape(text("app.link.title"))
        return f"<div role='status'><h3>{title}</h3><ul>{notes}</ul></div>" if notes else ""

    # -- a class server -------------------------------------------------------------------------------------
    def sit_at_class_table(self, redrawn: bool = False) -> None:
        """On a class server, once the kernel is its visitor's: put Play's board at the visitor's class table, if
        they sit at one (after a reload, a lost kernel or a server restart; or the same page `redrawn` in another
        language); from now on Play comes forward by itself when the teacher's round seats the visitor, and tells
        the server at once what the student does then."""
        play, tab = self._play(), self._tab("play")
        if play is not None:
            play.come_forward[:] = [lambda: setattr(self.tabs, "selected_index", tab), self._report_now]
            play.resume_class_table(redrawn)

    def join_class(self, client: StudentClient | None) -> None:
        """On a class server (a `client` of it), once the kernel is its visitor's: read what the server keeps for the
        student (`ClassMember`), put the student's name in the header, and from now on tell the server what is
        earned here, each finished match and what the student is doing."""
        if client is None:
            return
        member = self.member = ClassMember(StudentRecord(client, kernel_progress()), self.storage, self._redraw)
        self._show_student_bar()
        self.tabs.observe(lambda _change: self._tab_shown(), names="selected_index")
        for widget in self.built.values():
            if isinstance(widget, Section):
                member.follow_section(widget, self._report_now)
        self._report_now()

    def _show_student_bar(self) -> None:
        """The student's name (a `StudentBar`) first in the header, in place of the one there was, if any; the
        name they go by (offered or kept) goes in Play's classmate name box (`PlaySection.offer_classmate_name`)."""
        if self.member is None:
            return
        bar = self.member.name_bar(self.head.children, self._name_classmate)
        self.head.children = (bar, *(part for part in self.head.children if not isinstance(part, StudentBar)))
        bar.storage.on_restore(lambda _kept: self._settle())  # (after the bar shows the name)
        self._settle()

    def _tab_returned(self, settings: dict[str, str]) -> None:
        """Back or Forward brought an entry of the page's history again: the tab its address names is shown, as a link
        would open it (the first tab where it names none, or none the app has), kept in that entry's address."""
        index = (self._tab(settings["tab"].lower()) if settings.get("tab") else None) or 0
        self._keep_tab(index)  # kept in place first: showing it then changes nothing of the address, nor makes an entry
        self.tabs.selected_index = index

    def _settle(self) -> None:
        """Show the tabs and sections once the page has said what the browser keeps (the learner's progress and
        language and, on a class server, name), else hold them drawn but not shown (`lt-settling`, app.css): what it
        keeps may put a row above the board (Play's pointer to Learn, a first visit's name on a phone, a note), which
        arriving after the board would push it away from under a finger; and, with Play shown, the matches it keeps,
        whose match takes the place of the one dealt meanwhile (a click there went to a match about to go)."""
        kept = [self.storage, self.page_language]
        if self.member is not None and self.member.bar is not None:
            kept.append(self.member.bar.storage)
        shown = self.built.get(self.tabs.selected_index)
        if isinstance(shown, PlaySection):
            kept.append(shown.keeper.storage)
        if all(storage.restored for storage in kept):
            self.remove_class("lt-settling")
        else:
            self.add_class("lt-settling")

    def _name_classmate(self, name: str) -> None:
        """The student goes by `name` (offered or kept): Play's classmate name box holds it, unless another name is
        typed there."""
        play = self._play()
        if play is not None:
            play.offer_classmate_name(name, offered=self.member is not None and self.member.record.name is None)

    def _tab_shown(self) -> None:
        """Another tab is shown: tell the server; for Learn, ask whether the teacher has opened every lesson."""
        self._report_now()
        learn = self._tab("learn")
        if self.member is not None and learn is not None:
            if self.tabs.selected_index == learn:
                self.member.follow_unlocking()
            else:
                self.member.stop_following()

    def _report_now(self) -> None:
        """Tell the server what the student is doing: the section in view and what it says."""
        index = self.tabs.selected_index
        if self.member is not None and index is not None and 0 <= index < len(self.sections):
            self.member.now(self.sections[index][0], self.built.get(index), self._play())


def build_app(sections: list[tuple[str, Factory | str]] | None = None) -> TutorApp:
    """The whole app (the notebook's only cell calls this)."""
    return TutorApp(sections)


def open_app(sections: list[tuple[str, Factory | str]] | None = None) -> TutorApp:
    """The app as a visitor opens it (with only `sections`, if given): built, then set up by the visitor's
    address (on a server whose kernels are preheated, the last step waits for the visitor)."""
    host = current_host()
    tutor = build_app(sections)
    query = host.query()
    tutor.asked_languages = host.languages()
    tutor.link_language = link_language(query)
    tutor.follow_language()  # before the student's bar and the link's settings: drawn once in the language
    tutor.sit_at_class_table()
    tutor.join_class(StudentClient.here())
    tutor.follow_link(query)
    if host.page_address():  # the page is the app's own (Voilà's, the site's): each tab shown is an entry of its
        tutor.page_address.entries = ["tab"]  # history, so that Back shows the tab before (not in JupyterLab's page)
    return tutor


def open_lessons(first: int, last: int | None = None) -> TutorApp:
    """Learn's stages `first` to `last` alone, in the app's frame (its title, rules sheet and language, which
    follows the page as the whole app's does; the group's stars kept when it is drawn again): a lesson
    notebook's one cell."""
    return open_app([("learn", functools.partial(build_learn, first, last, group_progress(first, last)))])


def open_examples() -> TutorApp:
    """The published worked examples alone, in the app's frame: the examples notebook's one cell."""
    return open_app([("examples", "leopard_tutor.widgets.examples_view:build_examples")])
