"""The Learn section: the staged lessons on the board, with the goal and the lesson's text beside it,
hints, stars, unlocking and the progress code. `LearnController` is pure Python (intents in, board
state out); `LearnSection` adds the ordinary controls around the board."""

from __future__ import annotations

import html
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from ..engine import Card, Discard, EndTurn, GoOut, LeopardError, Move, Play, PlayerView, RuleSet
from ..engine.catalogue import and_list, text
from ..engine.knowledge import ANSWERS
from ..engine.square import Face
from ..engine.turns import end_turn_passes
from ..hint_ladder import CARD_RUNG
from ..lessons import Attempt, Feedback, Lesson, Progress, current_lessons, kernel_progress
from ..lessons.attempt import MOST_INPUTS, replayed
from ..lessons.model import going_out_stage
from ..lessons.notation import LEARNER
from ..lessons.questions import answer_words
from ..table import BadIntent, BoardState, Marks, State, TableController
from ..table.offers import end_turn_shown
from ..table.presenter import action, goal_panel, list_panel, table_state, text_panel
from ..table.sentences import places_words
from .board import LeopardBoard
from .copy_button import CopyButton
from .section import SectionPlace
from .stage_tabs import StageTabs
from .storage import BrowserStorage

if TYPE_CHECKING:
    from ..client.student_client import StudentRecord

log = logging.getLogger(__name__)

ME = 0
FAILED_TRIES = ("off-track", "failed")
"""The feedback of a failed try of a stage: a wrong move or answer, or a hand ended short of the goal (an illegal
move is answered with the rules, not counted)."""
TAKEN_BACK = ("illegal", "off-track")
"""The feedback of a move taken back (refused by the rules, or legal but not the lesson's)."""



class LearnController(TableController):
    """The lesson in progress on the board. Implements the board's `BoardController`."""

    def __init__(self, lessons: Sequence[Lesson] | None = None, progress: Progress | None = None) -> None:
        self.lessons = tuple(current_lessons() if lessons is None else lessons)  # in the language of now
        self.progress = progress if progress is not None else kernel_progress()
        self.index = 0
        self.attempt: Attempt = self.lessons[0].new_attempt()
        self.marks = Marks()
        self.failed_listeners: list[Callable[[str], None]] = []
        """Called with the lesson's key at each failed try of it (`FAILED_TRIES`)."""
        super().__init__(text("sections.learn.start"))

    @property
    def lesson(self) -> Lesson:
        """The lesson on the board."""
        return self.lessons[self.index]

    # -- reading -------------------------------------------------------------------------------
    def board_state(self) -> BoardState:
        """The lesson's table, only legal targets lit for the selected card."""
        attempt = self.attempt
        playing = not attempt.finished
        view = attempt.view
        over = self._over()  # why a finished stage's buttons are greyed
        buttons = [action("hint", text("sections.learn.hint_button"), enabled=playing, note=over)]
        if self.lesson.questions:  # the answers of the question asked (of the last one, once all are answered)
            offered = (attempt.question or self.lesson.questions[-1]).answers
            buttons += [action(f"answer_{answer}", answer_words(answer), enabled=playing, note=over)
                        for answer in offered]
        else:
            why = self._refusal(GoOut())
            if not why or self.lesson.stage >= going_out_stage(current_lessons()):  # (else a button that only refuses)
                buttons.append(action("go_out", text("sections.learn.go_out_button"), enabled=not why, note=why))
        why = self._refusal(EndTurn())
        if not self.lesson.questions and end_turn_shown(self.lesson.rules, not why):
            passes = not why and end_turn_passes(attempt.hand)  # (named as the rules and the lesson say it)
            buttons.append(action("end_turn", text("sections.learn.pass_button" if passes else
                                                   "sections.learn.end_turn_button"), enabled=not why, note=why))
        buttons.append(action("restart", text("sections.learn.restart_button"), enabled=True))
        if self.index + 1 < len(self.lessons):  # (the last stage has no next one to offer)
            next_open = attempt.solved or self.progress.is_unlocked(self.lessons[self.index + 1].key)
            buttons.append(action("next", text("sections.learn.next_button"), enabled=next_open,
                                  primary=attempt.solved, note="" if next_open else text("sections.learn.next_locked")))
        turn = text("sections.learn.turn_done" if attempt.solved else "sections.learn.turn", stage=self.lesson.stage,
                    stages=len(current_lessons()), title=self.lesson.title,  # a group's stage is the course's
                    rules=text(f"rules.{self.lesson.rules.key}"))
        question = attempt.question
        last = {question.owner: {question.space}} if question is not None and question.space else self.marks.last
        state = table_state(view, selected=self.marks.selected if playing else None, message=self.message,
                            hinted=self.marks.hinted_place(view.hand) if playing else None,
                            tone=self.tone, seq=self.seq, last=last, changes=self.marks.changes, actions=buttons,
                            turn=turn, moves=self.marks.travelling(self.seq, ME), aside=self.panels())
        inert = self._no_cards()
        if inert:
            state = replace(state, inert=inert, note=over)  # (a finished stage says so under the message, always)
        return self.marks.quiet(state)

    def panels(self) -> list[State]:
        """The side column: the goal and where it stands (and the question asked), what is in sight besides
        the top cards (in a stage that asks questions about the table), then the lesson's text with its figures."""
        lesson, attempt = self.lesson, self.attempt
        best = self.progress.stars.get(lesson.key, 0)
        status = [text("sections.learn.status", slips=attempt.slips, hints=attempt.hints_used),
                  text("sections.learn.stars_earned", stars="★" * best) if best else text("sections.learn.not_yet")]
        figures = [{"caption": figure.caption, "grid": [list(row) for row in figure.rules.grid]}
                   for figure in lesson.figures]
        items = [*attempt.goal_status(), *filter(None, [attempt.question_words()])]
        about_table = any(question.kind != "can a square be worth" for question in lesson.questions)
        seen = [in_sight_panel(attempt.view)] if about_table else []
        asking = "lt-goal-asks" if attempt.question is not None else ""  # (board.css: on a phone held sideways)
        return [goal_panel(text("sections.learn.goal") + ":", lesson.goal, items, " · ".join(status), asking), *seen,
                text_panel(f"{lesson.stage}. {lesson.title}", lesson.intro, figures, css="lt-lesson-text")]

    # -- intents -------------------------------------------------------------------------------
    def action_handlers(self) -> dict[str, Callable[[], None]]:
        """The buttons: hint, go out, end turn, start again, next stage; in a stage that asks questions, the
        answers (the question asked says which it takes)."""
        handlers: dict[str, Callable[[], None]] = {
            "hint": self.hint, "go_out": lambda: self.press(GoOut()), "end_turn": lambda: self.press(EndTurn()),
            "restart": self.restart,
            "next": lambda: self.open(self.index + 1)}
        if self.lesson.questions:
            handlers.update({f"answer_{answer}": partial(self.answer, answer) for answer in ANSWERS})
        return handlers

    def answer(self, given: str) -> None:
        """Answer the lesson's question now asked ("yes", "no", or "unknown" where offered); the engine judges it."""
        feedback = self.attempt.answer(given)
        self._judged(feedback)
        self.say(feedback.text, "ok" if feedback.ok else "warn")

    def discard(self) -> None:
        """Discard the picked card (a card must be picked first)."""
        card = self.marks.picked(self.attempt.view.hand)
        if card is None:
            self.say(text("sections.learn.pick_first"), "warn")
        else:
            self.try_move(Discard(card))

    def open(self, index: int) -> None:
        """Start the lesson at `index` (0-based) if it is unlocked; otherwise say which stage opens it."""
        if not 0 <= index < len(self.lessons):
            self.say(text("sections.learn.last_stage"), "ok")
            return
        lesson = self.lessons[index]
        if not self.progress.is_unlocked(lesson.key):
            self.say(text("sections.learn.locked", stage=lesson.stage, previous=lesson.stage - 1), "warn")
            return
        self.index = index
        self._fresh(" ".join((text("sections.learn.opened", stage=lesson.stage, title=lesson.title),
                              text("sections.learn.start_questions" if lesson.questions else "sections.learn.start"))))

    def resume(self, index: int, inputs: object) -> None:
        """Open the stage at `index` where the learner left it: its attempt's `inputs` (kept by the browser, or carried
        into another language) made again, and what it said last said again. Inputs that are none of that stage's
        open it from its start, as `open` does."""
        if not 0 <= index < len(self.lessons) or not self.progress.is_unlocked(self.lessons[index].key):
            self.open(index)
            return
        lesson = self.lessons[index]
        try:
            attempt, said = replayed(lesson, inputs)
        except LeopardError:
            log.warning("a stage's moves kept could not be made again; it opens from its start")
            self.open(index)
            return
        self.index, self.attempt = index, attempt
        self.marks.clear()
        self.say(" ".join(filter(None, (text("sections.learn.resumed", stage=lesson.stage, title=lesson.title), said))))

    def restart(self) -> None:
        """Begin the current lesson again."""
        self._fresh(text("sections.learn.restarted"))

    def select(self, index: int) -> None:
        """Pick a card of the hand (again to put it back); the board then lights its legal spaces."""
        refused = self._no_cards()
        if refused:
            self.say(refused, "warn")
            return
        cards = self.attempt.view.hand
        if not self.marks.pick(index, len(cards)):
            self.say(text("play.put_back", the_card=cards[index].the_name))
            return
        card = cards[index]
        where, count = self._places(card)
        self.say(text("sections.learn.picked", the_card=card.the_name, where=where, count=count) if count else
                 text("sections.learn.picked_stuck", the_card=card.the_name))

    def _places(self, card: Card) -> tuple[str, int]:
        """Where `card` may go now, in words ("space 6 of your square or the discard pile"), "" if nowhere: what the
        board lights, said for a learner who cannot see it; and how many places that is."""
        targets: dict[int, set[int]] = {0: set(), 1: set()}
        for play in self.attempt.targets(card):
            targets[play.square_owner].add(play.space)
        discard = self.attempt.can_discard(card)
        count = sum(len(spaces) for spaces in targets.values()) + discard
        return (places_words(targets, LEARNER, discard) if count else ""), count

    def click_space(self, owner: int, space: int) -> None:
        """Play the selected card on a space (any space: a wrong one is answered, not refused)."""
        if owner not in (0, 1) or not 1 <= space <= 9:
            raise BadIntent(f"there is no space {space} of square {owner}")
        card = self.marks.picked(self.attempt.view.hand)
        if card is None:
            self.say(text("sections.learn.pick_first"), "warn")
            return
        self.try_move(Play(card, owner, space))

    def try_move(self, move: Move) -> None:
        """Send a try to the lesson and show its feedback; a solved lesson records its stars. While the message
        says why a try was taken back, the place tried does not say it again on hover (the card stays picked)."""
        before = self.attempt.view.squares
        played = len(self.attempt.hand.moves)
        feedback = self.attempt.try_move(move)
        self._judged(feedback)
        words = feedback.text
        if feedback.kind == "solved" and self.index + 1 == len(self.lessons):
            after = text("sections.learn.all_done", practice=text("app.tabs.practice"), play=text("app.tabs.play"))
            words = f"{words} {after}"  # what comes after the course
        picked = self.marks.picked(self.attempt.view.hand)
        if feedback.kind in TAKEN_BACK and picked is not None:  # (a learner told to try again tapped it once more,
            # and so put it back); where a goal's line already says the card is in the hand, that line says both
            words = self._still_picked(words, picked)
        self.say(words, "ok" if feedback.ok else "warn")
        if feedback.kind in ("progress", "solved", "failed"):
            self.marks.after(self.attempt.hand, played, before, self.attempt.view.squares, self.lesson.rules,
                             self.seq)
        elif feedback.kind in TAKEN_BACK:
            self.marks.refused(move, self.seq)

    def _still_picked(self, words: str, card: Card) -> str:
        """`words` (a try taken back) with the sentence that `card` is still picked: joined to the line of a goal for
        that card that says it is still in the hand, where there is one, else after them."""
        attempt, hand = self.attempt, self.attempt.hand
        for goal, line in zip(self.lesson.goals, attempt.goal_status()):
            if (goal.kind in ("played", "discarded") and goal.card == card and line in words and not goal.met(hand)
                    and line == goal.status(hand, attempt.answered, named=True)):  # (the line that names the card)
                joined = text("sections.learn.held_and_picked", The_card=card.the_name_first)
                return words.replace(line, joined, 1)
        return f"{words} {text('play.still_picked', The_card=card.the_name_first)}"

    def _refusal(self, move: GoOut | EndTurn) -> str:
        """Why the Go out or End turn button is greyed now ("" if it is offered): the stage is finished, or the
        engine's reason."""
        return self._over() or self.attempt.refusal(move)

    def press(self, move: GoOut | EndTurn) -> None:
        """Go out or End turn pressed: tried, unless the button was greyed (a page's late or forged press), which is
        answered with its reason and costs no slip."""
        why = self._refusal(move)
        if why:
            self.say(why, "warn")
        else:
            self.try_move(move)

    def _over(self) -> str:
        """Why the stage takes no more tries: it is finished ("" while it is not)."""
        return text("lessons.feedback.finished") if self.attempt.finished else ""

    def _no_cards(self) -> str:
        """Why the cards take no move now (the stage is finished, or answered with buttons), or "": a finished stage
        says so whatever its kind (one of questions said it was answered with buttons)."""
        return self._over() or (text("lessons.feedback.not_now") if self.lesson.questions else "")

    def hint(self) -> None:
        """Show the next rung of the hint ladder; from the second rung on, the card is picked for you (said where the
        hint picked it: a card picked already is only said where it may go)."""
        hint = self.attempt.hint()
        words = text("sections.learn.hint_again" if self.attempt.hint_repeated else "sections.learn.hint",
                     level=hint.level, count=self.attempt.hint_rungs, text=hint.text)
        changed = self.marks.follow_hint(hint, self.attempt.view.hand)  # (its place lit apart, once the rung names it)
        if isinstance(hint.move, (Play, Discard)) and hint.level >= CARD_RUNG:
            where, count = self._places(hint.move.card)
            picked = text("sections.learn.hint_picked" if changed else "sections.learn.hint_places", where=where,
                          count=count)  # (a tap puts it back)
            words = f"{words} {picked}"
        self.say(words)

    # -- inside --------------------------------------------------------------------------------
    def _judged(self, feedback: Feedback) -> None:
        """A solved lesson records its stars; a wrong try (`FAILED_TRIES`) is told to `failed_listeners`."""
        if feedback.kind == "solved":
            self.progress.record_lesson(self.lesson.key, feedback.stars)
        elif feedback.kind in FAILED_TRIES:
            for listener in list(self.failed_listeners):
                listener(self.lesson.key)

    def _fresh(self, words: str) -> None:
        self.attempt = self.lesson.new_attempt()
        self.marks.clear()
        self.say(words)


def in_sight_panel(view: PlayerView) -> State:
    """What both players can see besides the top cards: the discard pile and every pile's buried cards."""
    items = [text("sections.learn.in_sight.discards", count=len(view.discards),
                  cards=and_list([card.name for card in view.discards]))] if view.discards else []
    for owner, square in enumerate(view.squares):
        for space in range(1, 10):
            pile = square.pile(space)
            if len(pile) > 1:
                where = text(f"lessons.goals.where.{'your' if owner == view.player else 'their'}")
                items.append(text("sections.learn.in_sight.pile", where=where, space=space,
                                  cards=and_list([_pile_card(face, face_up) for face, face_up in reversed(pile)])))
    return list_panel(text("sections.learn.in_sight.title"), items, empty=text("sections.learn.in_sight.none"),
                      css="lt-in-sight")


def _pile_card(face: Face, face_up: bool) -> str:
    """A card of a pile as the learner knows it: its name, their own face-down card, or a face-down card."""
    if not isinstance(face, Card):
        return text("sections.learn.in_sight.face_down")
    return face.name if face_up else text("sections.learn.in_sight.own_face_down", card=face.name)


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
        load = W.Button(description=text("sections.progress.load"))
        load.on_click(lambda _b: self.board.control(self.load_code))
        self.code_note = W.HTML()
        """What became of the last Copy or Load, beside the box (the board's message says a Load too, far above it)."""
        self.code_note.add_class("lt-code-note")
        code_box = W.VBox([W.HTML(f"<h4>{html.escape(text('sections.progress.title'))}</h4>"
                                  f"<p>{html.escape(text('sections.progress.explain'))}</p>"),
                           W.HBox([self.code, self.copy, load], layout=W.Layout(flex_flow="row wrap")), self.code_note])
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
