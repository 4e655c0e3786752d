"""The board of a practice question: `PracticeController`, the question on the board and its answer (intents in,
board state out), and the panel of the learner's record per concept."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from ..board_parts import square_part
from ..engine import Play, rules_by_key
from ..engine.catalogue import text
from ..engine.errors import quote
from ..engine.moves import spaces_for
from ..lessons import KINDS, Answer, BestPlayQuestion, PlacementQuestion, Practice, Question, ValueQuestion
from ..lessons.notation import LEARNER
from ..lessons.progress import CONCEPTS, kernel_progress
from .intents import BadIntent, TableController
from .marks import Marks
from .presenter import action, hand_part, list_panel, square_labels, table_state
from .sentences import places_words
from .state import BoardState, State

MAX_VALUE_ANSWER = 99  # the answer box's largest number (no square is worth more than 24)


class PracticeController(TableController):
    """The question on the board and its answer."""

    def __init__(self, practice: Practice | None = None, kind: str | None = None) -> None:
        super().__init__()
        self.practice = practice if practice is not None else Practice(progress=kernel_progress())
        self.kind = kind
        self.marks = Marks()
        self.result: Answer | None = None
        self.question: Question = self.next_question()

    def next_question(self) -> Question:
        """Ask a new question of the chosen kind (or any kind)."""
        self.question = self.practice.next(self.kind)
        self.result = None
        self.marks.clear()
        self.say(self.question.prompt)
        return self.question

    def set_rules(self, key: str) -> None:
        """Practise under another rule set (the record carries on) and ask a new question."""
        self.practice = Practice(rules=rules_by_key(key), progress=self.practice.progress)
        self.next_question()

    def take_up(self, practice: Practice, kind: str | None, question: Question | None) -> None:
        """Go on with `practice` (its rules, its stream of questions and the record) at questions of `kind`, from
        `question` unanswered, or a new one where none is given: a section drawn again in another language."""
        self.practice, self.kind = practice, kind
        if question is None:
            self.next_question()
            return
        self.question, self.result = question, None
        self.marks.clear()
        self.say(question.prompt)

    def set_kind(self, kind: str | None) -> None:
        """Choose the kind of questions ('value', 'placement', 'best play' or None for any) and ask one."""
        if kind is not None and kind not in KINDS:
            raise BadIntent(f"there is no practice of kind {quote(kind)}")
        self.kind = kind
        self.next_question()

    def answer(self, given: object) -> Answer:
        """Answer the question on the board (a number, yes/no, or a play); the engine judges it."""
        result = self.practice.answer(given)
        if self.result is None:
            self.result = result
        self.marks.clear()
        self.say(result.text, "ok" if result.ok else "warn")
        return result

    # -- the board -----------------------------------------------------------------------------
    def board_state(self) -> BoardState:
        """The question's table."""
        question = self.question
        answered = self.result is not None
        buttons = []
        if isinstance(question, PlacementQuestion):  # greyed once answered, with the reason (one note for both)
            over = text("sections.practice.answered") if answered else ""
            buttons += [action("yes", text("sections.practice.yes"), enabled=not answered, note=over),
                        action("no", text("sections.practice.no"), enabled=not answered, note=over)]
        buttons.append(action("next", text("sections.practice.next"), enabled=True, primary=answered))
        turn = text("sections.practice.turn", kind=text(f"sections.practice.kinds.{question.kind}"),
                    rules=text(f"rules.{question.rules.key}"))
        aside = [record_panel(self.practice.progress.practice)]
        if isinstance(question, BestPlayQuestion):
            state = table_state(question.hand.view(LEARNER), selected=None if answered else self.marks.selected,
                                message=self.message, tone=self.tone, seq=self.seq, actions=buttons, turn=turn,
                                aside=aside, only_own=text("sections.practice.own_square"),
                                stuck="sections.practice.no_space")
            return replace(state, inert=text("sections.practice.answered")) if answered else state
        # (answered with its own buttons or answer box: the table takes no click, and says why on hover and focus)
        common = BoardState(squares=(), message=self.message, tone=self.tone, seq=self.seq, actions=tuple(buttons),
                            turn=turn, aside=tuple(aside),
                            inert=text("sections.practice.answered" if answered else "sections.practice.not_now"))
        if isinstance(question, ValueQuestion):
            part = square_part(question.square, question.rules, key=LEARNER,
                               label=text("sections.practice.this_square"))
            if not answered:
                part.update(lines=[], value=None, value_text=text("sections.practice.hidden_value"))
            answer = {"label": text("sections.practice.value_label"), "button": text("sections.practice.check"),
                      "min": 0, "max": MAX_VALUE_ANSWER, "enabled": not answered,
                      "why": text("sections.practice.answered") if answered else ""}
            return replace(common, squares=(part,), answer=answer)
        part = square_part(question.square, question.rules, key=question.owner, label=square_labels()[question.owner],
                           last=[question.space])
        return replace(common, squares=(part,), hand=hand_part([question.card], selected=0))

    def action_handlers(self) -> dict[str, Callable[[], object]]:
        """Next question always; Yes and No while a placement question is on the board."""
        handlers: dict[str, Callable[[], object]] = {"next": self.next_question}
        if isinstance(self.question, PlacementQuestion):
            handlers.update(yes=lambda: self.answer(True), no=lambda: self.answer(False))
        return handlers

    def select(self, index: int) -> None:
        """Pick a card of the hand ('which play scores most' only)."""
        question = self.question
        if self.result is not None or not isinstance(question, BestPlayQuestion):
            self.refuse("not_now")
            return
        cards = question.hand.held[LEARNER]
        if not self.marks.pick(index, len(cards)):  # picked again (or Escape): put back, as in Play and Learn
            self.say(text("play.put_back", the_card=cards[index].the_name))
            return
        card = cards[index]
        spaces = spaces_for(card, question.hand.view(LEARNER).legal_moves())[LEARNER]
        self.say(text("sections.practice.picked", the_card=card.the_name,
                      where=places_words({LEARNER: spaces}, LEARNER, False))
                 if spaces else text("sections.practice.no_space", The_card=card.the_name_first),
                 "info" if spaces else "warn")

    def click_space(self, square: int, space: int) -> None:
        """Play the picked card on a space of your square ('which play scores most' only)."""
        question = self.question
        if square not in (0, 1) or not 1 <= space <= 9:
            raise BadIntent(f"there is no space {space} of square {square}")
        if self.result is not None or not isinstance(question, BestPlayQuestion):
            self.refuse("not_now")
        elif (card := self.marks.picked(question.hand.held[LEARNER])) is None:
            self.refuse("pick_first")
        elif square != LEARNER:
            self.refuse("own_square")
        else:
            self.answer(Play(card, LEARNER, space))

    def discard(self) -> None:
        """No practice question is answered by a discard ('which play scores most' by a space of your square)."""
        self.refuse("own_square" if isinstance(self.question, BestPlayQuestion) else "not_now")

    def answer_value(self, value: int | None) -> None:
        """A value typed in the board's answer box ('what is it worth' only)."""
        if self.result is not None or not isinstance(self.question, ValueQuestion):
            self.refuse("not_now")
            return
        self.answer(value)

    def refuse(self, why: str) -> None:
        """Say, as a warning, why a click answers nothing (`sections.practice.<why>`); once the question is answered,
        that it is, with its judgement again (the message keeps it)."""
        if self.result is not None:
            self.say(f"{text('sections.practice.answered')} {self.result.text}", "warn")
        else:
            self.say(text(f"sections.practice.{why}"), "warn")


def record_panel(record: Mapping[str, tuple[int, int]]) -> State:
    """Right and wrong answers per concept, for the side column."""
    rows = [text("sections.practice.record_row", concept=text(f"lessons.practice.concepts.{c}"), right=record[c][0],
                 wrong=record[c][1]) for c in CONCEPTS if c in record]
    return list_panel(text("sections.practice.record"), rows, empty=text("sections.practice.record_none"),
                      css="lt-record")
