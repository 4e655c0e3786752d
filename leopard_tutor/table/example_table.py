"""The board of a worked example: `ExampleController`, one published example stepped through on the board
(intents in, board state out)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..board_parts import square_part
from ..engine import Hidden
from ..engine.catalogue import text
from ..engine.narration import line_changes, score_words
from ..examples import Step, WorkedExample, current_examples
from .intents import BadIntent, TableController
from .presenter import action, hand_part, square_labels, text_panel
from .state import BoardState


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
