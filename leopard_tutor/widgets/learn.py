"""The Learn section: the staged lessons on the board, with the goal and the lesson's text beside it,
hints, stars, unlocking and the progress code. `LearnController` (leopard_tutor/table/lesson_table.py) is pure
Python (intents in, board state out); `LearnSection` adds the ordinary controls around the board."""

from __future__ import annotations

import html
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from ..engine import LeopardError, RuleSet
from ..engine.catalogue import text
from ..lessons import Lesson, Progress, current_lessons
from ..lessons.attempt import MOST_INPUTS
from ..table import BadIntent
from ..table.lesson_table import LearnController
from .board import LeopardBoard
from .copy_button import CopyButton
from .section import SectionPlace
from .stage_tabs import StageTabs
from .storage import BrowserStorage

if TYPE_CHECKING:
    from ..client.student_client import StudentRecord

log = logging.getLogger(__name__)


class LearnSection(W.VBox):  # type: ignore[misc]
    """The stage picker over the board (whose side column holds the goal and the lesson's text; to a screen reader
    and the keyboard a tablist whose panel is the board, `StageTabs`), and the progress code under it."""

    id = "learn"

    def __init__(self, controller: LearnController) -> None:
        self.controller = controller
        self.board = LeopardBoard(controller)
        self.stage_buttons = [W.Button(tooltip=lesson.title) for lesson in controller.lessons]
        for index, button in enumerate(self.stage_buttons):
            button.add_class("lt-stage")
            button.add_class("lt-says-why")  # locked: greyed, yet reached by the arrow keys, and pressed it says why
            button.on_click(lambda _b, i=index: self.board.control(lambda: controller.open(i)))
        stages = W.HBox(self.stage_buttons)
        stages.add_class("lt-stages")
        stages.add_class("lt-controls")
        self.stage_tabs = StageTabs(label=text("sections.learn.stages_label"))
        self.code = W.Text(placeholder=text("sections.progress.placeholder"),
                           description=text("sections.progress.code_label"))  # (read out only: see GameSaver's)
        self.code.add_class("lt-unseen-label")
        self.code.add_class("lt-code")
        progress = controller.progress
        self.copy = CopyButton(description=text("sections.progress.copy"), value=progress.to_code(),
                               on_copied=lambda ok: self.board.control(lambda: self.show_code(ok)))
        progress.listeners.append(lambda: setattr(self.copy, "value", progress.to_code()))
        self.load = W.Button(description=text("sections.progress.load"))
        self.load.on_click(lambda _b: self.board.control(self.load_code))
        self.load.add_class("lt-says-why")  # greyed, yet in the Tab order, its reason its description (page_roles.js)
        self.load_why = W.HTML()
        """Why Load a code is greyed (its box is empty), on the screen under the box, or nothing."""
        self.load_why.add_class("lt-load-why")
        self.code.observe(lambda _change: self._offer_load(), names="value")
        self._offer_load()
        self.code_note = W.HTML()
        """What became of the last Copy or Load, beside the box (the board's message says a Load too, far above it)."""
        self.code_note.add_class("lt-code-note")
        code_box = W.VBox([W.HTML(f"<h4>{html.escape(text('sections.progress.title'))}</h4>"
                                  f"<p>{html.escape(text('sections.progress.explain'))}</p>"),
                           W.HBox([self.code, self.copy, self.load], layout=W.Layout(flex_flow="row wrap")),
                           self.load_why, self.code_note])
        code_box.add_class("lt-panel")
        code_box.add_class("lt-below")
        self.stage_keeper = BrowserStorage("stage")
        """The stage on the board and what the learner did in it, kept in the browser: a reload opens it again where
        it was (`take_up_stage`)."""
        self.stage_keeper.on_restore(self.take_up_stage)
        self._used = False
        """Whether the board was used since the section was built (a click, a stage opened by a link or redrawn in
        another language): then the stage the browser kept makes no change."""
        self._kept: tuple[str, object] | None = None
        """The stage the browser kept ("" if none) and its attempt's inputs (as the page gave them: `replayed` reads
        them), once the page has said them."""
        self._index_shown = controller.index
        """The stage the board showed after the last click (`_moved_on`)."""
        self.board.listeners.append(lambda _intent: self._keep_stage())  # (first: update_panels reads `_used`)
        self.board.listeners.append(lambda _intent: self.update_panels())
        self.board.listeners.append(self._moved_on)
        super().__init__([stages, self.board, code_box, self.stage_tabs, self.stage_keeper])
        self.add_class("lt-section")
        self.add_class("lt-learn")
        self.update_panels()

    def _moved_on(self, intent: Mapping[str, Any]) -> None:
        """Next stage pressed, and the next stage opened: the keyboard goes to its table (the button stays greyed
        until that stage is solved, and the one nearest it is Start again)."""
        opened, self._index_shown = self.controller.index != self._index_shown, self.controller.index
        if opened and intent.get("type") == "action" and intent.get("id") == "next":
            self.board.focus_table()

    def open_stage(self, stage: int, inputs: Sequence[str] = ()) -> None:
        """Open Learn at `stage` (its number in the course, as a teacher's link says it; a group of stages holds
        only some), the stages before it opened too; with `inputs` (an attempt's), where they leave it."""
        controller = self.controller
        index = next((index for index, lesson in enumerate(controller.lessons) if lesson.stage == stage), None)
        if index is None:
            raise BadIntent(f"there is no stage {stage}")
        controller.progress.open_through(controller.lessons[index].key)
        self.board.act(lambda: controller.resume(index, list(inputs)) if inputs else controller.open(index))

    def take_up_stage(self, kept: str) -> None:
        """Open the stage the browser `kept` (where the learner was when the page was left: `_keep_stage`) where it
        was, if it is one of this section's and open; else the first open stage not yet solved (the first stage if
        every one is). Nothing changes once the board has been used. The progress the browser keeps may come after
        it (its storage lies after the sections in the page): `update_panels`, which the app calls then, looks again
        (`_open_kept`)."""
        try:
            found = json.loads(kept) if kept.startswith("{") else {"stage": kept}
        except (ValueError, RecursionError):  # (a text of the browser's: not JSON, or nested past Python's reach)
            found = None
        if not isinstance(found, dict):
            found = {}
        stage = found.get("stage")
        self._kept = (str(stage) if isinstance(stage, (int, str)) else "", found.get("inputs"))
        self._open_kept()

    def _open_kept(self) -> None:
        """Open the stage `take_up_stage` says, while the board has not been used since the page said it."""
        if self._kept is None or self._used:
            return
        kept, inputs = self._kept
        controller = self.controller
        lessons, progress = controller.lessons, controller.progress
        index = next((index for index, lesson in enumerate(lessons)
                      if str(lesson.stage) == kept and progress.is_unlocked(lesson.key)), None)
        if index is not None and inputs:
            at, self._kept = index, None  # (made again once: later redraws leave it as it is)
            self.board.act(lambda: controller.resume(at, inputs))
            return
        if index is None:
            index = next((index for index, lesson in enumerate(lessons)
                          if progress.is_unlocked(lesson.key) and not progress.stars.get(lesson.key)), 0)
        if index != controller.index:
            self.board.act(lambda: controller.open(index))

    def _keep_stage(self) -> None:
        """The board was used: have the browser keep the stage on it and what the learner did there (once the page has
        said what it kept)."""
        self._used = True
        if self.stage_keeper.restored:
            inputs = self.controller.attempt.inputs
            kept = {"stage": self.controller.lesson.stage, "inputs": inputs if len(inputs) <= MOST_INPUTS else []}
            self.stage_keeper.save(json.dumps(kept, separators=(",", ":")))

    def watch_rules(self, follow: Callable[[RuleSet], None]) -> None:
        """Call `follow` with the rules of the stage on the board, now and after every change of stage."""
        self.board.listeners.append(lambda _intent: follow(self.controller.lesson.rules))
        follow(self.controller.lesson.rules)

    def place(self) -> SectionPlace:
        """The stage on the board, and what the learner did there (its attempt's inputs)."""
        return self.controller.lesson.stage, tuple(self.controller.attempt.inputs)

    def take_place(self, place: SectionPlace) -> None:
        """Open the stage of `place` again, where it was (one this section does not hold is logged)."""
        if isinstance(place, tuple):
            stage, inputs = place
            try:
                self.open_stage(stage, inputs)
            except LeopardError:
                log.exception("the stage could not be carried into another language")

    def report_to(self, student: StudentRecord) -> None:
        """Tell `student`'s record of each failed try of a stage."""
        self.controller.failed_listeners.append(student.tried)

    def now_doing(self) -> tuple[int | None, str | None]:
        """The stage on the board."""
        return self.controller.lesson.stage, None

    def show_code(self, copied: bool) -> None:
        """Put the progress code in the text box, and say beside it whether the page could also copy it (`copied`)."""
        self.code.value = self.controller.progress.to_code()
        self._note(text("sections.progress.copied" if copied else "sections.progress.not_copied"))

    def load_code(self) -> None:
        """Add the text box's code to the progress, the better of each (as the class server's record is added): a code
        never takes away stars or answers this page has; say what it added (a damaged code changes nothing and says
        why, on the board and beside the box)."""
        progress = self.controller.progress
        try:
            if not self.code.value.strip():  # (pressed on a page behind: the button was greyed, saying why)
                raise LeopardError(key="sections.progress.empty")
            merged = progress.merge_code(self.code.value)
        except LeopardError as error:
            self._note(str(error), "warn")
            raise
        said = [text("sections.progress.merged", raised=len(merged.raised))] if merged else []
        if merged.replaced:
            said.append(text("sections.progress.merged_practice", concepts=len(merged.replaced)))
        words = " ".join(said) or text("sections.progress.nothing_new")
        self._note(words)
        self.controller.say(words, "ok")

    def _offer_load(self) -> None:
        """Load a code is offered while its box holds something; greyed, saying why under the box, while it is empty."""
        empty = not self.code.value.strip()
        why = text("sections.progress.empty") if empty else ""
        with self.load.hold_sync():  # greyed and its reason in one message: never greyed without saying why
            self.load.disabled = empty
            self.load.tooltip = why
        self.load_why.value = f"<p>{html.escape(why)}</p>" if why else ""

    def _note(self, words: str, tone: str = "info") -> None:
        self.code_note.value = f"<p class='lt-tone-{tone}'>{html.escape(words)}</p>"

    def update_panels(self) -> None:
        """Redraw the stage buttons from the progress: stars, locks and the stage on the board (and their names in
        words, `StageTabs`), and the board, whose Next stage button follows the progress too; before the board is
        used, the stage the browser kept may be open now (`_open_kept`)."""
        self._open_kept()
        controller = self.controller
        progress = controller.progress
        names = []
        for index, (lesson, button) in enumerate(zip(controller.lessons, self.stage_buttons)):
            stars = progress.stars.get(lesson.key, 0)
            open_ = progress.is_unlocked(lesson.key)
            # (its stars set apart from its number: "3 ★★" read as three stars)
            button.description = (f"{lesson.stage} · {'★' * stars}" if open_ and stars else str(lesson.stage) if open_
                                  else f"{lesson.stage} · {text('sections.learn.locked_label')}")
            names.append(text("sections.learn.stage_name", stage=lesson.stage, title=lesson.title, stars=stars)
                         if open_ else text("sections.learn.stage_name_locked", stage=lesson.stage, title=lesson.title))
            button.disabled = not open_
            button.tooltip = lesson.title if open_ else text("sections.learn.locked", stage=lesson.stage,
                                                             previous=lesson.stage - 1)
            if index == controller.index:
                button.add_class("lt-current")
            else:
                button.remove_class("lt-current")
        self.stage_tabs.names, self.stage_tabs.selected = names, controller.index
        self.board.refresh()


def _stages(first: int, last: int | None) -> list[Lesson]:
    """The stages `first` to `last` (to the end if None) of the course in the current language."""
    lessons = current_lessons()
    chosen = [lesson for lesson in lessons if first <= lesson.stage <= (last or len(lessons))]
    if not chosen:
        raise BadIntent(f"there are no stages from {first} to {last}")
    return chosen


def group_progress(first: int, last: int | None = None) -> Progress:
    """A new progress of the stages `first` to `last` alone, its first stage open (the same in every language:
    a group drawn again in another language is given the same one)."""
    return Progress(_stages(first, last))


def build_learn(first: int = 1, last: int | None = None, progress: Progress | None = None) -> LearnSection:
    """The Learn section with stages `first` to `last` (all by default, sharing this kernel's progress
    with Practice). A group of stages keeps its own progress (`progress`, else a new `group_progress`)."""
    chosen = _stages(first, last)
    if len(chosen) == len(current_lessons()):
        return LearnSection(LearnController())
    return LearnSection(LearnController(chosen, progress or Progress(chosen)))
