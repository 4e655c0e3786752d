"""The board of a lesson: `LearnController`, the Learn section's stage in progress (intents in, board state out),
and the panel of what is in sight beside the top cards."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

from ..engine import Card, Discard, EndTurn, GoOut, LeopardError, Move, Play, PlayerView
from ..engine.catalogue import and_list, text
from ..engine.knowledge import ANSWERS
from ..engine.moves import spaces_for
from ..engine.square import Face
from ..engine.turns import end_turn_passes
from ..hint_ladder import CARD_RUNG
from ..lessons import Attempt, Feedback, Lesson, Progress, current_lessons, kernel_progress
from ..lessons.attempt import replayed
from ..lessons.model import going_out_stage
from ..lessons.notation import LEARNER
from ..lessons.questions import answer_words
from .intents import BadIntent, TableController
from .marks import Marks
from .offers import end_turn_shown
from .presenter import action, goal_panel, list_panel, table_state, text_panel
from .sentences import places_words
from .state import BoardState, State

log = logging.getLogger(__name__)

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
                            turn=turn, moves=self.marks.travelling(self.seq, LEARNER), aside=self.panels())
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
        targets = spaces_for(card, self.attempt.targets(card))
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
        return self.attempt.over_words() if self.attempt.finished else ""

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
