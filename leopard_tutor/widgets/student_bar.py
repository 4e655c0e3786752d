"""The student's name in the app's header, on a class server: on a first visit "You are Quiet Otter" (a generated two-
word name that no classmate has: `StudentRecord.free_name`) and "Change". The offered name is the student's name
until they change it: the record gives it to the server at their first report worth a record (`StudentRecord.offer`),
so a visit that does nothing leaves no row on the class page. "Change" shows a box "Your name" and a button to keep
the name typed (Enter in the box keeps it too, as does leaving the box with a new name); once kept, the name and
"Change", and a polite live region says the name kept (after a press of Keep, Enter or leaving the box: the keyboard,
back on "Change", would hear nothing of it). Escape in the box drops the edit: the name as it was, with "Change" and
the keyboard on it (`NameKeys`, the page's side). The name is kept in the browser (`BrowserStorage("student_name")`:
the offered one too, marked as only offered until it is given), with the class's id (`kept_text`), and told to the
server (`StudentRecord`); a name that is not one (`class_codes.valid_name`) is answered under the box and changes
nothing. If the server no longer keeps the student's record (the teacher forgot the class, while the page was open
or, as the class's id then says, while it was closed), the browser forgets the name too and the box asks again,
holding the name that was, with a note saying why.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable, Sequence

import ipywidgets as W

from ..class_codes import ClassTableError, valid_name
from ..client.student_client import StudentRecord
from ..engine.catalogue import text, texts
from .name_keys import NameKeys
from .storage import BrowserStorage

KEPT_SEPARATOR = "\n"
"""Between the class's id and the name in the browser's kept text (no name holds it: names are printable)."""


OFFERED_MARK = "offered"
"""In the place of the class's id in the kept text, a name only offered, not given yet: a page of this browser reloaded
offers it again if no classmate has taken it (a class's id is hexadecimal, so never this word)."""


def kept_text(name: str, class_id: str | None) -> str:
    """What the browser keeps for the student's `name` kept in the class `class_id` (just the name if the server has
    not said its id)."""
    return name if class_id is None else f"{class_id}{KEPT_SEPARATOR}{name}"


def read_kept(kept: str) -> tuple[str | None, str]:
    """The class's id (None if the text has none: kept before classes had ids, or the server said none) and the name
    in a text the browser kept (not checked)."""
    class_id, separator, name = kept.partition(KEPT_SEPARATOR)
    return (class_id, name) if separator else (None, kept)


CANDIDATES = 12
"""Made-up names a page proposes to the server at once, which offers the first no classmate has (`free_name`)."""


def generated_name(choose: Callable[[Sequence[str]], str] = random.choice) -> str:
    """A name made of two catalogue words, an adjective and an animal, each picked by `choose`."""
    return text("students.generated", adjective=choose(list(texts("students.adjectives").values())),
                animal=choose(list(texts("students.animals").values())))


def candidate_names(first: str, choose: Callable[[Sequence[str]], str] = random.choice) -> list[str]:
    """`first`, then other made-up names (by `choose`), distinct, at most `CANDIDATES`, keeping only valid names
    (a language's made-up name may be too long to be one)."""
    found: list[str] = []
    for name in (first, *(generated_name(choose) for _ in range(2 * CANDIDATES))):
        try:
            name = valid_name(name)
        except ClassTableError:
            continue
        if name not in found:
            found.append(name)
        if len(found) == CANDIDATES:
            break
    return found


class StudentBar(W.HBox):  # type: ignore[misc]
    """The name of the student of `record` in the header (see the module docstring); `named_listeners` are
    called with each name the student goes by: the one offered ("You are …"), then each one kept that differs."""

    def __init__(self, record: StudentRecord, choose: Callable[[Sequence[str]], str] = random.choice) -> None:
        self.record = record
        self.choose = choose
        self.named_listeners: list[Callable[[str], None]] = []
        self._named = ""  # the name the listeners were told last
        self.storage = BrowserStorage("student_name")
        self.lead = W.HTML(text("students.you_are"), layout=W.Layout(display="none"))
        self.lead.add_class("lt-student-lead")
        self.shown = W.HTML()
        self.shown.add_class("lt-student-name")
        self.about = W.HTML()
        """What the name shown is for, read out after it (the page shows it as the name's tooltip only)."""
        self.about.add_class("lt-student-about")
        self.about.add_class("lt-unseen")
        self.change_button = W.Button(description=text("students.change"), tooltip=text("students.change_tooltip"))
        self.box = W.Text(value=record.offered or generated_name(choose), description=text("students.label"),
                          placeholder=text("students.placeholder"), style={"description_width": "initial"},
                          continuous_update=False)  # its value changes at Enter (or when the box is left)
        self._filling = False  # the bar sets the box's value itself: not the student typing
        self.box.add_class("lt-student-box")
        self.keep_button = W.Button(description=text("students.keep"), tooltip=text("students.keep_tooltip"))
        self.note = W.HTML(layout=W.Layout(display="none"))
        self.close_button = W.Button(description=text("students.close"), tooltip=text("students.close_tooltip"))
        self.close_button.on_click(lambda _b: self._say(""))
        self.note_box = W.HBox([self.note, self.close_button], layout=W.Layout(display="none"))
        """The note beside or under the name, until closed or until a name is kept: it takes its own room in the
        header, which stands above the tabs meanwhile (the bar is marked "lt-noting"), so it covers none of the page's
        buttons."""
        self.note_box.add_class("lt-student-note")
        self.said = W.HTML()
        """The name the student just kept, said (a polite live region, `NameKeys`; read out, not shown)."""
        self.said.add_class("lt-student-said")
        self.said.add_class("lt-unseen")
        self.change_button.on_click(lambda _b: self._change_pressed())
        self.keep_button.on_click(lambda _b: self._keep_pressed())
        self.box.observe(self._typed, names="value")
        self.storage.on_restore(self._restore)
        record.forgotten_listeners.append(self.forgotten)
        record.offered_listeners.append(self.offered_given)
        keys = NameKeys(on_escape=self.cancel, on_enter=self.keep_shown, how=text("students.box_how"))
        super().__init__([self.lead, self.shown, self.about, self.change_button, self.box, self.keep_button,
                          self.note_box, self.said, self.storage, keys])
        self.add_class("lt-student")
        if record.name is not None:
            self._show(record.name)
        else:
            self._parts(asking=None)  # nothing until the browser has said what it keeps

    def keep(self, name: str) -> bool:
        """Keep `name` as the student's name (in the browser, on the server); a name that is not one, or that another
        student keeps, is answered under the box (shown, holding it) and changes nothing. Whether it was kept."""
        try:
            kept = self.record.give_name(name)
        except ClassTableError as error:
            self._ask_holding(name, error.words)
            return False
        self.storage.save(kept_text(kept, self.record.class_id))
        self.said.value = ""  # (what Keep said of the name before is no longer so; Keep says it again)
        self._show(kept)
        self._tell(kept)
        return True

    def offer(self, name: str) -> None:
        """Offer `name`: "You are NAME" and "Change"; it becomes the student's name at their first report worth a
        record (`offered_given`), unless they change it first."""
        offered = self.record.offer(name)
        self.storage.save(kept_text(offered, OFFERED_MARK))  # (a reload offers it again: `_restore`)
        self._fill(offered)
        self._show(offered, offered=True)
        self._tell(offered)

    def offered_given(self, name: str) -> None:
        """The offered `name` was given to the server: it is kept in the browser and shown as the name kept. A
        listener of the record's, from the moment the bar is made."""
        self.storage.save(kept_text(name, self.record.class_id))
        self._show(name, in_place=True)
        self._tell(name)

    def _tell(self, name: str) -> None:
        """Tell the listeners the name the student goes by now, unless it is the one they were told last."""
        if name != self._named:
            self._named = name
            for listener in list(self.named_listeners):
                listener(name)

    def ask(self) -> None:
        """Show the box (holding the name kept, if any) and the button to keep it."""
        if self.record.name is not None:
            self._fill(self.record.name)
        self._parts(asking=True)

    def cancel(self) -> None:
        """Escape in the box: the name as it was shown again, "Change" with the keyboard on it, the box holding that
        name; nothing changes while there is no name to go back to (the box asks for one)."""
        name = self.record.name if self.record.name is not None else self.record.offered
        if name is None or self.box.layout.display == "none":
            return
        self._fill(name)
        self._show(name, offered=self.record.name is None)
        self.change_button.focus()

    def keep_shown(self) -> None:
        """Enter on the name the box held when the keyboard came into it: kept, as Keep keeps it."""
        if self.box.layout.display != "none":
            self._keep_pressed()

    def _change_pressed(self) -> None:
        """"Change": the box is shown, and the keyboard goes into it (the button pressed is gone)."""
        self.ask()
        self.box.focus()

    def _keep_pressed(self) -> None:
        """"Keep": the name is kept, and the keyboard goes on to "Change" (the button pressed is gone); a name
        refused leaves the keyboard where it was."""
        if self.keep(self.box.value):
            self._kept_said()

    def _typed(self, change: dict[str, object]) -> None:
        """The box's value changed at Enter (or as the student left it): keep the name typed, as Keep does, and the
        keyboard goes on to "Change" (the box and Keep are gone)."""
        if not self._filling and self.box.layout.display != "none" and self.keep(str(change["new"])):
            self._kept_said()

    def _kept_said(self) -> None:
        """The student kept a name: say it (the live region), and the keyboard goes on to "Change"."""
        self.said.value = html.escape(text("students.kept_said", name=self.record.name or ""))
        self.change_button.focus()

    def _fill(self, name: str) -> None:
        """Put `name` in the box without keeping it."""
        self._filling = True
        try:
            self.box.value = name
        finally:
            self._filling = False

    def _restore(self, kept: str) -> None:
        """The browser said what it keeps: its name if it is one, kept in this class (under another class's id while
        the server keeps no record of the student, the class was forgotten since: ask again, as `forgotten` does),
        else the server's (now kept here too), else offer a made-up name no classmate has
        (`StudentRecord.free_name`; first the one this browser was offered before, `OFFERED_MARK`), else ask."""
        class_id, found = read_kept(kept)
        offered_before = None
        if class_id == OFFERED_MARK:  # a name only offered to this browser: offered first again, if still free
            offered_before, class_id, found = found, None, ""
        try:
            name = valid_name(found)
        except ClassTableError:
            name = None
        if (name is not None and self.record.name is None
                and None not in (class_id, self.record.class_id) and class_id != self.record.class_id):
            self.forgotten(name)
        elif name is not None:
            self.keep(name)
        elif self.record.name is not None:
            self.keep(self.record.name)
        elif self.record.offered is not None:
            self.offer(self.record.offered)
        else:
            candidates = candidate_names(offered_before or self.box.value, self.choose)
            if candidates:
                self.offer(self.record.free_name(candidates))
            else:  # a language's made-up names too long to be names: the student types one
                self.ask()

    def forgotten(self, former: str, words: str = "") -> None:
        """The server keeps no record of the student any more (or refused the name, `words` saying why): forget the
        name here too and ask again (the box holding `former`, the name that was). A listener of the record's, from
        the moment the bar is made."""
        self.storage.save("")
        self._ask_holding(former, words or text("students.forgotten"))

    def _ask_holding(self, name: str, words: str) -> None:
        """Show the box holding `name` and its button to keep it, and `words` (why) under it."""
        self._fill(name)
        self._parts(asking=True)
        self._say(words)

    def _show(self, name: str, offered: bool = False, in_place: bool = False) -> None:
        """Show `name` and "Change": "You are" before it while it is `offered` (not yet given). Given by the record
        at a report of the student's (`in_place`: a hand or a stage just ended, a finger about to tap Next), a name
        offered in a row of its own on a phone keeps that row (`lt-own-row`), so that nothing under the header moves;
        the row goes at the student's own Change or Keep, or with the page."""
        own_row = "lt-offered" in self._dom_classes or "lt-own-row" in self._dom_classes
        tooltip = text("students.offered_tooltip" if offered else "students.shown_tooltip", name=name)
        self.shown.value = f"<span title='{html.escape(tooltip)}'>{html.escape(name)}</span>"
        self.about.value = html.escape(tooltip)
        self._say("")
        self._parts(asking=False)
        self.lead.layout.display = "" if offered else "none"
        self.keep_button.layout.display = "" if offered else "none"  # the offered name may be kept at once too
        self._mark({"lt-offered": offered, "lt-own-row": in_place and own_row})

    def _mark(self, wanted: dict[str, bool]) -> None:
        """Give the bar each class of `wanted` that is True and take away each that is False, in one change: the page
        then never draws a state between them (a name given in place, drawn for a frame with neither "lt-offered" nor
        "lt-own-row", took the header's second row away, and the board jumped up and back under a finger)."""
        with self.hold_sync():
            for name, on in wanted.items():
                if on:
                    self.add_class(name)
                else:
                    self.remove_class(name)

    def _say(self, words: str) -> None:
        self.note.value = f"<p role='alert'>{html.escape(words)}</p>" if words else ""
        self.note.layout.display = self.note_box.layout.display = "" if words else "none"
        self._mark({"lt-noting": bool(words)})

    def _parts(self, asking: bool | None) -> None:
        """Show the box and its button (`asking`), the name and "Change" (not `asking`), or nothing (None)."""
        if asking is not False:
            self.lead.layout.display = "none"
        for part, shown in ((self.shown, asking is False), (self.about, asking is False),
                            (self.change_button, asking is False),
                            (self.box, asking is True), (self.keep_button, asking is True)):
            part.layout.display = "" if shown else "none"
        if asking:
            self.said.value = ""  # no longer so while the box asks (and a name kept again is said again)
        self._mark({"lt-asking": bool(asking)})
