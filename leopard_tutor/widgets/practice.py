"""The Practice section: endless questions on the board (what is this square worth, can this card go
there, which play scores most), answered by the engine and counted per concept in the progress."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipywidgets as W

from ..engine import RULE_SETS, Card, Play, rules_by_key
from ..engine.catalogue import text
from ..lessons import KINDS, Answer, BestPlayQuestion, PlacementQuestion, Practice, Question, ValueQuestion
from ..lessons.progress import CONCEPTS, kernel_progress
from .board import BadIntent, LeopardBoard, State
from .presenter import action, hand_part, square_part, table_state

ME = 0
SQUARE_LABELS = ("Your square", "Opponent's square")



class PracticeController:
    """The question on the board and its answer. Implements the board's `BoardController`."""

    def __init__(self, practice: Practice | None = None, kind: str | None = None) -> None:
        self.practice = practice if practice is not None else Practice(progress=kernel_progress())
        self.kind = kind
        self.seq = 0
        self.selected: int | None = None
        self.result: Answer | None = None
        self.message = ""
        self.tone = "info"
        self.question: Question = self.next_question()

    def next_question(self) -> Question:
        """Ask a new question of the chosen kind (or any kind)."""
        self.question = self.practice.next(self.kind)
        self.result, self.selected = None, None
        self.say(self.question.prompt)
        return self.question

    def set_rules(self, key: str) -> None:
        """Practise under another rule set (the record carries on) and ask a new question."""
        self.practice = Practice(rules=rules_by_key(key), progress=self.practice.progress)
        self.next_question()

    def set_kind(self, kind: str | None) -> None:
        """Choose the kind of questions ('value', 'placement', 'best play' or None for any) and ask one."""
        if kind is not None and kind not in KINDS:
            raise BadIntent(f"there is no practice of kind {kind!r}")
        self.kind = kind
        self.next_question()

    def say(self, words: str, tone: str = "info") -> None:
        """Set the live-region message."""
        self.message, self.tone = words, tone
        self.seq += 1

    def answer(self, given: object) -> Answer:
        """Answer the question on the board (a number, yes/no, or a play); the engine judges it."""
        result = self.practice.answer(given)
        if self.result is None:
            self.result = result
        self.selected = None
        self.say(result.text, "ok" if result.ok else "warn")
        return result

    # -- the board -----------------------------------------------------------------------------
    def board_state(self) -> State:
        """The question's table (a new dict each time)."""
        question = self.question
        answered = self.result is not None
        buttons = []
        if isinstance(question, PlacementQuestion):
            buttons += [action("yes", text("sections.practice.yes"), enabled=not answered),
                        action("no", text("sections.practice.no"), enabled=not answered)]
        buttons.append(action("next", text("sections.practice.next"), enabled=True, primary=answered))
        turn = text("sections.practice.turn", kind=text(f"sections.practice.kinds.{question.kind}"),
                    rules=text(f"rules.{question.rules.key}"))
        if isinstance(question, BestPlayQuestion):
            return table_state(question.hand.view(ME), selected=None if answered else self.selected,
                               message=self.message, tone=self.tone, seq=self.seq, actions=buttons, turn=turn)
        common: State = {"message": self.message, "tone": self.tone, "seq": self.seq, "actions": buttons, "turn": turn}
        if isinstance(question, ValueQuestion):
            part = square_part(question.square, question.rules, key=ME, label=text("sections.practice.this_square"))
            if not answered:
                part.update(lines=[], value=None, value_text=text("sections.practice.hidden_value"))
            return {"squares": [part], "error": "", **common}
        part = square_part(question.square, question.rules, key=question.owner, label=SQUARE_LABELS[question.owner],
                           last=[question.space])
        return {"squares": [part], "hand": hand_part([question.card], selected=0), "error": "", **common}

    def handle(self, intent: Mapping[str, Any]) -> None:
        """action(id: yes, no, next); for 'which play scores most', select(index) then space(square, space)."""
        kind = intent.get("type")
        question = self.question
        if kind == "action":
            ident = intent.get("id")
            if ident == "next":
                self.next_question()
            elif ident in ("yes", "no") and isinstance(question, PlacementQuestion):
                self.answer(ident == "yes")
            else:
                raise BadIntent(f"unknown action {ident!r}")
        elif kind in ("select", "space") and isinstance(question, BestPlayQuestion):
            if kind == "select":
                self._select(intent.get("index"), question)
            else:
                self._space(intent.get("square"), intent.get("space"), question)
        elif kind in ("select", "space", "discard"):
            self.say(text("sections.practice.not_now"), "warn")
        else:
            raise BadIntent(f"unknown intent {kind!r}")

    def _select(self, index: object, question: BestPlayQuestion) -> None:
        cards = question.hand.hands[ME]
        if not isinstance(index, int) or not 0 <= index < len(cards):
            raise BadIntent(f"there is no card number {index!r} in your hand")
        self.selected = index
        self.say(text("sections.practice.picked", card=cards[index].name))

    def _space(self, owner: object, space: object, question: BestPlayQuestion) -> None:
        if owner not in (0, 1) or not isinstance(space, int) or not 1 <= space <= 9:
            raise BadIntent(f"there is no space {space!r} of square {owner!r}")
        if self.selected is None:
            self.say(text("sections.practice.pick_first"), "warn")
            return
        if owner != ME:
            self.say(text("sections.practice.own_square"), "warn")
            return
        card: Card = question.hand.hands[ME][self.selected]
        self.answer(Play(card, ME, space))


class PracticeSection(W.VBox):  # type: ignore[misc]
    """The kind of questions, the board, the answer box for values, and the record per concept."""

    def __init__(self, controller: PracticeController) -> None:
        self.controller = controller
        self.board = LeopardBoard(controller)
        options = [(text("sections.practice.any"), "")] + [(text(f"sections.practice.kinds.{kind}"), kind)
                                                           for kind in KINDS]
        self.kind_pick = W.Dropdown(options=options, value=controller.kind or "",
                                    description=text("sections.practice.kind"))
        self.kind_pick.observe(lambda change: self.board.act(lambda: controller.set_kind(change["new"] or None)),
                               names="value")
        self.rules_pick = W.Dropdown(options=[(text(f"rules.{key}"), key) for key in RULE_SETS],
                                     value=controller.practice.rules.key, description=text("sections.practice.rules"))
        self.rules_pick.observe(lambda change: self.board.act(lambda: controller.set_rules(change["new"])),
                                names="value")
        self.value_box = W.BoundedIntText(value=0, min=0, max=99, description=text("sections.practice.value_label"),
                                          layout=W.Layout(width="12em"))
        self.value_box.add_class("lt-answer")
        self.check = W.Button(description=text("sections.practice.check"), button_style="info")
        self.check.add_class("lt-check")
        self.check.on_click(lambda _b: self.board.act(lambda: controller.answer(int(self.value_box.value))))
        self.value_row = W.HBox([self.value_box, self.check])
        self.record = W.HTML()
        self.record.add_class("lt-panel")
        self.board.listeners.append(lambda _intent: self.update_panels())
        picks = W.HBox([self.kind_pick, self.rules_pick], layout=W.Layout(flex_flow="row wrap"))
        super().__init__([picks, self.board, self.value_row, self.record])
        self.add_class("lt-practice")
        self.update_panels()

    def update_panels(self) -> None:
        """Show the answer box only for value questions, and redraw the record."""
        is_value = isinstance(self.controller.question, ValueQuestion)
        self.value_row.layout.display = "flex" if is_value else "none"
        self.check.disabled = not is_value or self.controller.result is not None
        self.record.value = record_html(self.controller.practice.progress.practice)


def record_html(record: Mapping[str, tuple[int, int]]) -> str:
    """Right and wrong answers per concept, as HTML."""
    rows = [text("sections.practice.record_row", concept=text(f"lessons.practice.concepts.{c}"), right=record[c][0],
                 wrong=record[c][1]) for c in CONCEPTS if c in record]
    items = "".join(f"<li>{html.escape(row)}</li>" for row in rows or [text("sections.practice.record_none")])
    return f"<h4>{html.escape(text('sections.practice.record'))}</h4><ul class='lt-record'>{items}</ul>"


def build_practice() -> PracticeSection:
    """The Practice section for the app, sharing this kernel's progress with Learn."""
    return PracticeSection(PracticeController())
