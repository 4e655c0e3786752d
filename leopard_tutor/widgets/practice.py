"""The Practice section: endless questions on the board (what is this square worth, can this card go
there, which play scores most), answered on the board, judged by the engine and counted per concept in
the progress."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import ipywidgets as W

from ..board_parts import square_part
from ..engine import RULE_SETS, Play, rules_by_key
from ..engine.catalogue import text
from ..engine.errors import quote
from ..lessons import KINDS, Answer, BestPlayQuestion, PlacementQuestion, Practice, Question, ValueQuestion
from ..lessons.progress import CONCEPTS, kernel_progress
from ..table import BadIntent, BoardState, Marks, State, TableController
from ..table.presenter import action, hand_part, list_panel, square_labels, table_state
from ..table.sentences import places_words
from .board import LeopardBoard
from .section import SectionDefaults, SectionPlace

ME = 0
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
            state = table_state(question.hand.view(ME), selected=None if answered else self.marks.selected,
                                message=self.message, tone=self.tone, seq=self.seq, actions=buttons, turn=turn,
                                aside=aside, only_own=text("sections.practice.own_square"),
                                stuck="sections.practice.no_space")
            return replace(state, inert=text("sections.practice.answered")) if answered else state
        # (answered with its own buttons or answer box: the table takes no click, and says why on hover and focus)
        common = BoardState(squares=(), message=self.message, tone=self.tone, seq=self.seq, actions=tuple(buttons),
                            turn=turn, aside=tuple(aside),
                            inert=text("sections.practice.answered" if answered else "sections.practice.not_now"))
        if isinstance(question, ValueQuestion):
            part = square_part(question.square, question.rules, key=ME, label=text("sections.practice.this_square"))
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
        cards = question.hand.held[ME]
        if not self.marks.pick(index, len(cards)):  # picked again (or Escape): put back, as in Play and Learn
            self.say(text("play.put_back", the_card=cards[index].the_name))
            return
        card = cards[index]
        spaces = {move.space for move in question.hand.view(ME).legal_moves()
                  if isinstance(move, Play) and move.card is card and move.square_owner == ME}
        self.say(text("sections.practice.picked", the_card=card.the_name, where=places_words({ME: spaces}, ME, False))
                 if spaces else text("sections.practice.no_space", The_card=card.the_name_first),
                 "info" if spaces else "warn")

    def click_space(self, square: int, space: int) -> None:
        """Play the picked card on a space of your square ('which play scores most' only)."""
        question = self.question
        if square not in (0, 1) or not 1 <= space <= 9:
            raise BadIntent(f"there is no space {space} of square {square}")
        if self.result is not None or not isinstance(question, BestPlayQuestion):
            self.refuse("not_now")
        elif (card := self.marks.picked(question.hand.held[ME])) is None:
            self.refuse("pick_first")
        elif square != ME:
            self.refuse("own_square")
        else:
            self.answer(Play(card, ME, space))

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


class PracticeSection(SectionDefaults, W.VBox):  # type: ignore[misc]
    """The kind of questions and the rules over the board, whose side column holds the answer box for
    values and the record per concept."""

    id = "practice"

    def __init__(self, controller: PracticeController) -> None:
        self.controller = controller
        self.board = LeopardBoard(controller)
        options = [(text("sections.practice.any"), "")] + [(text(f"sections.practice.kinds.{kind}"), kind)
                                                           for kind in KINDS]
        self._taking_up = False  # the menus set to a carried place: the controller takes it up itself
        self.kind_pick = W.Dropdown(options=options, value=controller.kind or "",
                                    description=text("sections.practice.kind"))
        self.board.follow_pick(self.kind_pick,
                               lambda kind: None if self._taking_up else controller.set_kind(kind or None))
        self.rules_pick = W.Dropdown(options=[(text(f"rules.menu.{key}"), key) for key in RULE_SETS],
                                     value=controller.practice.rules.key, description=text("sections.practice.rules"))
        self.board.follow_pick(self.rules_pick, lambda key: None if self._taking_up else controller.set_rules(key))
        picks = W.HBox([self.kind_pick, self.rules_pick])
        picks.add_class("lt-controls")
        super().__init__([picks, self.board])
        self.add_class("lt-section")
        self.add_class("lt-practice")

    def update_panels(self) -> None:
        """The progress changed (a code loaded in Learn, the class server's record): draw the record per concept
        again."""
        self.board.refresh()

    def place(self) -> SectionPlace:
        """The practice under way (its rules and stream of questions), the kind of questions chosen, and the question
        on the board while it is unanswered."""
        controller = self.controller
        return PracticePlace(controller.practice, controller.kind,
                             controller.question if controller.result is None else None)

    def take_place(self, place: SectionPlace) -> None:
        """Go on with the practice of `place`: its menus' choices, and its question (said in this language) or, where
        it was answered, the next."""
        if not isinstance(place, PracticePlace):
            return
        self._taking_up = True
        try:
            self.kind_pick.value = place.kind or ""
            self.rules_pick.value = place.practice.rules.key
        finally:
            self._taking_up = False
        self.controller.take_up(place.practice, place.kind, place.question)
        self.board.refresh()


@dataclass(frozen=True)
class PracticePlace:
    """Where the learner is in Practice, carried into the section drawn in another language."""

    practice: Practice
    kind: str | None
    question: Question | None


def record_panel(record: Mapping[str, tuple[int, int]]) -> State:
    """Right and wrong answers per concept, for the side column."""
    rows = [text("sections.practice.record_row", concept=text(f"lessons.practice.concepts.{c}"), right=record[c][0],
                 wrong=record[c][1]) for c in CONCEPTS if c in record]
    return list_panel(text("sections.practice.record"), rows, empty=text("sections.practice.record_none"),
                      css="lt-record")


def build_practice() -> PracticeSection:
    """The Practice section for the app, sharing this kernel's progress with Learn."""
    return PracticeSection(PracticeController())
