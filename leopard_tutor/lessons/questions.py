"""The questions of a lesson whose task is to answer from what the learner can see (FORMAT.md,
"Questions"): the file names what is asked about; the engine (`engine.knowledge`) works out the answer
from the learner's view, so no file ever states an answer."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Card, LeopardError, PlayerView
from ..engine.catalogue import text
from ..engine.errors import quote
from ..engine.knowledge import ANSWERS, KINDS, Knowing, can_be_worth, other_holds, top_card_is
from .goals import _place
from .notation import LEARNER


class QuestionError(LeopardError):
    """A question in a lesson file that is not in the vocabulary."""


@dataclass(frozen=True)
class StageQuestion:
    """One question of a lesson: `kind` is "is it" (the top card of a space: `what`, `owner`, `space`),
    "do they hold" (`card`) or "can a square be worth" (`value`)."""

    kind: str
    what: str = ""
    owner: int = LEARNER
    space: int = 0
    card: Card | None = None
    value: int = 0

    @property
    def ground(self) -> str:
        """What the answer is worked out from: "rules" (what a square can be worth under the lesson's rules) or
        "seen" (the table as the learner sees it)."""
        return "rules" if self.kind == "can a square be worth" else "seen"

    @property
    def answers(self) -> tuple[str, ...]:
        """The answers offered, in order: "yes" and "no" where the rules settle the question, and also "unknown"
        where it is answered from the table (what is seen may not tell)."""
        return ANSWERS if self.ground == "seen" else ANSWERS[:2]

    def prompt(self) -> str:
        """The question in words."""
        if self.kind == "is it":
            where = text(f"lessons.goals.where.{'your' if self.owner == LEARNER else 'their'}")
            return text("lessons.questions.is it", space=self.space, where=where,
                        what=text(f"knowledge.kinds.{self.what}"))
        if self.kind == "do they hold":
            assert self.card is not None
            return text("lessons.questions.do they hold", the_card=self.card.the_name)
        return text("lessons.questions.can a square be worth", value=self.value)

    def truth(self, view: PlayerView) -> Knowing:
        """The answer the learner can give from `view`, and why (the engine's)."""
        if self.kind == "is it":
            return top_card_is(view, self.owner, self.space, self.what)
        if self.kind == "do they hold":
            assert self.card is not None
            return other_holds(view, self.card)
        return can_be_worth(view.rules, self.value)


def parse_question(data: object) -> StageQuestion:
    """A question read from its lesson-file form: {"is it": "jack", "on": "your 5"}, {"do they hold": "7H"}
    or {"can a square be worth": 17}."""
    if isinstance(data, dict) and set(data) == {"is it", "on"}:
        what = data["is it"]
        if what not in KINDS:
            raise QuestionError(f"'is it' asks for one of {', '.join(KINDS)}, not {quote(what)}")
        owner, space = _place(data["on"])
        if owner is None:
            raise QuestionError("'on' names a space of one square: 'your 5' or 'their 5'")
        return StageQuestion("is it", what=what, owner=owner, space=space)
    if isinstance(data, dict) and set(data) == {"do they hold"} and isinstance(data["do they hold"], str):
        try:
            return StageQuestion("do they hold", card=Card.parse(data["do they hold"]))
        except LeopardError as error:
            raise QuestionError(str(error)) from None
    if isinstance(data, dict) and set(data) == {"can a square be worth"}:
        value = data["can a square be worth"]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise QuestionError(f"'can a square be worth' needs a whole number, not {quote(value)}")
        return StageQuestion("can a square be worth", value=value)
    raise QuestionError(f"a question is {{\"is it\": \"jack\", \"on\": \"your 5\"}}, {{\"do they hold\": \"7H\"}} "
                        f"or {{\"can a square be worth\": 17}}, not {quote(data)}")


def answer_words(answer: str, offered: tuple[str, ...] = ANSWERS) -> str:
    """One of the `offered` answers in words, as on its button."""
    if answer not in offered:
        raise QuestionError(f"an answer here is one of {', '.join(offered)}, not {quote(answer)}")
    return text(f"lessons.questions.answers.{answer}")
