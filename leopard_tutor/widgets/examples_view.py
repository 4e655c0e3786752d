"""The Examples section: the published worked examples stepped through on the board, with the lines
annotated, the values shown, the example's introduction beside the square, and the same example under
the other rule set where there is one; under the board, the bonus tables (what each value scores, and the
values no square has). The source's examples whose pictures are lost (`NOT_RECONSTRUCTED`) are not offered to a
student: there is nothing of them to step through."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as W

from ..board_parts import square_part
from ..engine import RULE_SETS, BonusRow, Hidden, RuleSet, bonus_table
from ..engine.catalogue import and_list, text
from ..engine.narration import line_changes, score_words
from ..examples import Step, WorkedExample, current_examples
from ..table import BadIntent, BoardState, TableController
from ..table.presenter import action, hand_part, square_labels, text_panel
from .board import LeopardBoard
from .rules_sheet import bonus_tables_html, limits_html
from .section import SectionDefaults


class ExampleController(TableController):
    """One worked example on the board, one step at a time."""

    def __init__(self, examples: Sequence[WorkedExample] | None = None) -> None:
        examples = current_examples()[0] if examples is None else examples  # in the language of now
        super().__init__()
        self.examples = tuple(examples)
        self.index = 0
        self.mirrored = False
        self.step = 0

    @property
    def example(self) -> WorkedExample:
        """The example shown, in the rule set chosen (its mirrored version when `mirrored`)."""
        example = self.examples[self.index]
        return example.mirrored if self.mirrored and example.mirrored is not None else example

    @property
    def current(self) -> Step:
        """The step shown."""
        return self.example.steps[self.step]

    def board_state(self) -> BoardState:
        """The example's square after the current step, lines annotated, the caption in the live region."""
        example, step = self.example, self.current
        before = step.square if step.follows is None else example.steps[step.follows].square
        label = square_labels()[0 if example.about == "yours" else 1]
        changes = line_changes(0, before, step.square, example.rules) if step.refused is None else ()
        last = [step.space] if step.space is not None and step.refused is None else []
        seen = example.seen(step)
        part = square_part(seen, example.rules, key=0, label=label, last=last, changes=changes)
        other = self.examples[self.index].mirrored
        more = self.step + 1 < len(example.steps)
        buttons = [action("back", text("sections.examples.back"), enabled=self.step > 0,
                          note="" if self.step else text("sections.examples.first")),
                   action("next", text("sections.examples.next"), enabled=more, primary=True,
                          note="" if more else text("sections.examples.last"))]
        if other is not None:  # (first: it stands where it is at every step)
            shown = self.examples[self.index] if self.mirrored else other
            label = text("sections.examples.other_rules", rules=text(f"rules.{shown.rules.key}"))
            buttons.insert(0, action("mirror", label, enabled=True))
        if (step.card is not None and step.refused is None and step.space is not None
                and isinstance(seen.pile(step.space)[-1][0], Hidden)):
            # (the other player's card, landed face down: the learner knows no more of it than the square shows)
            hand = hand_part([], label=text("sections.examples.card_face_down"), counted=False)
        elif step.card is not None:  # (one card, not a hand: no count)
            who = "tried" if step.refused is not None else step.by
            hand = hand_part([step.card], selected=0, label=text(f"sections.examples.card_{who}"), counted=False)
        else:  # (its room kept, as on a step with a card: the buttons stay where they were)
            hand = hand_part([], label=text("sections.examples.card_none"), counted=False)
        return BoardState(
            squares=(part,), actions=tuple(buttons), message=self.message or self.caption(), tone=self.tone,
            seq=self.seq, hand=hand, message_room=tuple(self.caption(each) for each in example.steps),
            aside=(text_panel(f"{example.key} · {example.title}", [example.intro], css="lt-example-text"),),
            turn=text("sections.examples.turn", key=example.key, step=self.step + 1, steps=len(example.steps),
                      rules=text(f"rules.{example.rules.key}")))

    def caption(self, step: Step | None = None) -> str:
        """What the live region says for `step` (the current one): the caption, the value, the source's figure."""
        step = self.current if step is None else step
        words = [step.caption]
        if step.refused is not None:
            words.append(step.refused.reason)  # the engine's own words: why the card tried may not go there
        words.append(text("sections.examples.value", value=step.value))
        if step.stated is not None:
            words.append(text("sections.examples.stated", stated=step.stated))
        if step.stated_with_bonus is not None or step.expected_with_bonus is not None:
            words.append(text("sections.examples.with_bonus", score=score_words(step.value, False, step.rules)))
        if step.stated_with_bonus is not None:
            words.append(text("sections.examples.stated_with_bonus", bonus=step.stated_with_bonus))
        return " ".join(words)

    def action_handlers(self) -> dict[str, Callable[[], None]]:
        """Back, Next, and the same example under the other rules."""
        return {"back": lambda: self.go(self.step - 1), "next": lambda: self.go(self.step + 1),
                "mirror": self.mirror}

    def mirror(self) -> None:
        """Show the example under the other rules from its first step, and say so."""
        self.show(self.index, mirrored=not self.mirrored)
        shown = text("sections.examples.shown_under", rules=text(f"rules.{self.example.rules.key}"))
        self.say(f"{shown} {self.caption()}")

    def select(self, index: int) -> None:
        """The card of a step is shown, not played."""
        self.say(text("sections.examples.not_clickable"), "warn")

    def click_space(self, square: int, space: int) -> None:
        """The square of an example is shown, not played on."""
        self.say(text("sections.examples.not_clickable"), "warn")

    def discard(self) -> None:
        """An example has no discard pile to click."""
        self.say(text("sections.examples.not_clickable"), "warn")

    def go(self, step: int) -> None:
        """Show step `step` (0-based), kept within the example."""
        self.step = max(0, min(step, len(self.example.steps) - 1))
        self.say("")

    def show(self, index: int, mirrored: bool = False) -> None:
        """Show example `index` from its first step, under its own rules or the other ones."""
        if not 0 <= index < len(self.examples):
            raise BadIntent(f"there is no example number {index}")
        self.index, self.mirrored = index, mirrored and self.examples[index].mirrored is not None
        self.go(0)


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
