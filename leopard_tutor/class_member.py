"""What the app (`app.py`) does for a student on a class server: `ClassMember` keeps their record on the server
(`student_client.StudentRecord`), merges the progress the server keeps into this kernel's, opens every lesson
when the teacher says so, keeps the class's default rules and level for a teacher's link, and tells the server
what the student earns and does in each section (`Section.report_to`, `Section.now_doing`).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlencode

from .client.student_client import StudentRecord, match_id
from .kernel_loop import LoopGone, in_turn, running_loop
from .lessons import LESSONS, ProgressCodeError, kernel_progress
from .links import read_link
from .protocol import DOINGS, LEVEL_CHOICES
from .widgets.play_section import PlaySection
from .widgets.section import Section
from .widgets.storage import BrowserStorage
from .widgets.student_bar import StudentBar

log = logging.getLogger(__name__)

UNLOCK_POLL_SECONDS = 10.0
"""While Learn is shown with a stage still locked, how often the page asks the server whether the teacher has
unlocked every lesson (thirty students on Learn ask three times a second in all)."""


class ClassMember:
    """A student of a class, as the app follows them: read from the server when they join (their progress joins
    this kernel's, every lesson opened if the teacher said so, the class's default rules and level kept)."""

    def __init__(self, record: StudentRecord, storage: BrowserStorage, redraw: Callable[[], None]) -> None:
        """`redraw` lets the app's sections redraw what depends on the progress; the browser's progress (in
        `storage`) replaces the kernel's when it comes, so the server's is merged again then."""
        self.record = record
        self.redraw = redraw
        self.unlock_check: threading.Thread | None = None
        """The background questions, while Learn is shown, whether the teacher has unlocked every lesson
        (`follow_unlocking`)."""
        self.learn_left = threading.Event()
        """Set when Learn is no longer shown (`stop_following`): the questions stop at once."""
        found = record.read()
        if found.progress is not None:
            code = found.progress
            self.merge_progress(code)
            if not storage.restored:
                storage.on_restore(lambda _kept: self.merge_progress(code))
        if found.unlock_all:
            self.open_every_lesson()
        self.defaults = urlencode({key: value for key, value in (("rules", found.rules), ("level", found.level))
                                   if value})
        """The class's default rules and level, as a link's query (see `class_choices`)."""
        self.bar: StudentBar | None = None
        """The student's name in the header (`name_bar`)."""

    def merge_progress(self, code: str) -> None:
        """Add the progress the server keeps to this kernel's (a damaged code is logged and changes nothing; what it
        changes, the app redraws: `Progress.merged_listeners`)."""
        try:
            kernel_progress().merge_code(code)
        except ProgressCodeError as error:
            log.warning("the progress the class server keeps could not be read: %s", error)

    def open_every_lesson(self) -> None:
        """The teacher unlocked every lesson: open them all and redraw the sections that show progress."""
        kernel_progress().open_through(LESSONS[-1].key)
        self.redraw()

    def follow_unlocking(self) -> None:
        """Learn is shown: until it is left (`stop_following`) and while a stage is still locked, ask the server (in
        the background, so the tab opens at once, and again every `UNLOCK_POLL_SECONDS` until it cannot say) whether
        the teacher has unlocked every lesson, and open them all once they have."""
        progress = kernel_progress()  # (read here, on the kernel's thread: the thread below reads no module state)
        if progress.is_unlocked(LESSONS[-1].key) or (
                self.unlock_check is not None and self.unlock_check.is_alive() and not self.learn_left.is_set()):
            return

        loop = running_loop()
        left = self.learn_left = threading.Event()

        def ask() -> None:
            while not (unlocked := self.record.unlocked()):
                if unlocked is None:  # the server cannot say now: asked again when Learn is next shown
                    return
                if left.wait(UNLOCK_POLL_SECONDS) or progress.is_unlocked(LESSONS[-1].key):
                    return
            with contextlib.suppress(LoopGone):  # (the kernel is shutting down)
                in_turn(loop, self.open_every_lesson)  # between two clicks, never while one redraws

        self.unlock_check = threading.Thread(target=ask, daemon=True, name="leopard-unlock-check")
        self.unlock_check.start()

    def stop_following(self) -> None:
        """Learn is no longer shown: stop asking whether the teacher has unlocked every lesson, at once."""
        self.learn_left.set()

    def class_choices(self, play: PlaySection | None, rules: str | None,
                      level: str | None) -> tuple[str | None, str | None]:
        """The rules and level a link chose, else the class's defaults, read as a link's (what is unusable, or
        what `play` already plays, is left out; nothing while the board shows a class table's match, open or closed,
        where the class's level is the one the computer plays at if it finishes that match)."""
        if not self.defaults or play is None:
            return rules, level
        defaults = read_link(self.defaults, levels=LEVEL_CHOICES, tabs=(), lessons=0)
        if play.class_table_shown():
            if level is None and defaults.level is not None:
                play.finishing_level(defaults.level)
            return rules, level
        if rules is None and defaults.rules != play.rules_pick.value:
            rules = defaults.rules
        if level is None and defaults.level != play.level_pick.value:
            level = defaults.level
        return rules, level

    def name_bar(self, header: Sequence[Any], named: Callable[[str], None]) -> StudentBar:
        """A new bar with the student's name (`named` is told each name they keep); the bars among `header`'s
        parts no longer follow the record."""
        for old in header:
            if isinstance(old, StudentBar) and old.forgotten in self.record.forgotten_listeners:
                self.record.forgotten_listeners.remove(old.forgotten)
                self.record.offered_listeners.remove(old.offered_given)
        bar = self.bar = StudentBar(self.record)
        bar.named_listeners.append(named)
        return bar

    def keep_table_name(self, name: str) -> bool:
        """The student opens or joins a class table as `name`: it is their name in the header and on the class page
        too (one name). Whether it is (a name the server refuses, one a classmate here keeps, is said under the
        header's box, and the table is not opened or joined)."""
        if self.bar is None or name == self.record.name:
            return True
        return self.bar.keep(name)

    def follow_section(self, section: Section, clicked: Callable[[], None]) -> None:
        """Call `clicked` after each click in `section`'s board, and tell the server what the section reports
        (`Section.report_to`: each match it ends, each failed try of a Learn stage); in Play, the name a class table
        is opened or joined under becomes the student's (`keep_table_name`)."""
        section.board.listeners.append(lambda _intent: clicked())
        section.report_to(self.record)
        if isinstance(section, PlaySection):
            section.name_listeners.append(self.keep_table_name)

    def now(self, doing: str, section: Any, play: PlaySection | None = None) -> None:
        """Tell the server the student is in the section `doing` (an id; `section` built, or None), what the section
        says (`Section.now_doing`: Learn's stage, the classmate played), and the match against the computer under way
        on `play`'s board (the Play section, if built), by its id, whichever section is shown: a round the teacher
        pairs sets it aside, and the class page says so when it is that of the round before."""
        if doing in DOINGS:
            stage, with_ = section.now_doing() if isinstance(section, Section) else (None, None)
            match = None if play is None else play.computer_match()
            self.record.now(doing, stage, with_, None if match is None else match_id(match))
