"""The Practice section: endless questions on the board (what is this square worth, can this card go
there, which play scores most), answered on the board, judged by the engine and counted per concept in
the progress."""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as W

from ..engine import RULE_SETS
from ..engine.catalogue import text
from ..lessons import KINDS, Practice, Question
from ..table.practice_table import PracticeController
from .board import LeopardBoard
from .section import SectionDefaults, SectionPlace


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


def build_practice() -> PracticeSection:
    """The Practice section for the app, sharing this kernel's progress with Learn."""
    return PracticeSection(PracticeController())
