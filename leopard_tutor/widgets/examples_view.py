"""The Examples section: the published worked examples stepped through on the board, with the lines
annotated, the values shown, the example's introduction beside the square, and the same example under
the other rule set where there is one; under the board, the bonus tables (what each value scores, and the
values no square has). The source's examples whose pictures are lost (`NOT_RECONSTRUCTED`) are not offered to a
student: there is nothing of them to step through."""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as W

from ..engine import RULE_SETS, BonusRow, RuleSet, bonus_table
from ..engine.catalogue import and_list, text
from ..table.example_table import ExampleController
from .board import LeopardBoard
from .rules_sheet import bonus_tables_html, limits_html
from .section import SectionDefaults


class ExamplesSection(SectionDefaults, W.VBox):  # type: ignore[misc]
    """A picker of the worked examples, the example's introduction and the board stepping through it."""

    id = "examples"

    def __init__(self, controller: ExampleController) -> None:
        self.controller = controller
        self.board = LeopardBoard(controller)
        options = [(f"{e.key} · {e.menu}", i) for i, e in enumerate(controller.examples)]  # (the title: over the board)
        self.picker = W.Dropdown(options=options, value=controller.index, description=text("sections.examples.pick"))
        self.board.follow_pick(self.picker, controller.show)
        notes = W.HTML(scores_html())  # (the examples whose pictures are lost are the developers' record, not shown)
        notes.add_class("lt-panel")
        notes.add_class("lt-below")
        picks = W.HBox([self.picker])
        picks.add_class("lt-controls")
        super().__init__([picks, self.board, notes])
        self.add_class("lt-section")
        self.add_class("lt-examples")

    def watch_rules(self, follow: Callable[[RuleSet], None]) -> None:
        """Call `follow` with the rules of the example on the board, now and after every change of example or rules."""
        self.board.listeners.append(lambda _intent: follow(self.controller.example.rules))
        follow(self.controller.example.rules)


PHONE_COLUMNS = 7
"""At most this many values a table on a phone's screen (app.css shows those tables there, the whole ones wider)."""


def scores_html() -> str:
    """The bonus table and the values no square has, once for each way of scoring among the rule sets (the
    rule sets that score alike share one table), under a heading that names them: the table whole, and cut into
    tables of `PHONE_COLUMNS` values for a phone (app.css shows one of them, by the screen's width)."""
    alike: dict[tuple[BonusRow, ...], list[str]] = {}
    for rules in RULE_SETS.values():
        alike.setdefault(bonus_table(rules), []).append(rules.key)
    parts = []
    for keys in alike.values():
        rules = RULE_SETS[keys[0]]
        names = and_list([text(f"rules.{key}") for key in keys])
        parts.append(f"<h4>{html.escape(text('sections.examples.scores', rules=names))}</h4>"
                     f"<div class='lt-scores-whole'>{bonus_tables_html(rules)}</div>"
                     f"<div class='lt-scores-cut'>{bonus_tables_html(rules, PHONE_COLUMNS)}</div>"
                     f"{limits_html(rules)}")
    return f"<div class='lt-example-scores'>{''.join(parts)}</div>"


def build_examples() -> ExamplesSection:
    """The Examples section for the app."""
    return ExamplesSection(ExampleController())
