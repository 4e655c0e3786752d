"""The goal vocabulary of lesson files: small predicates on a hand, each able to say in words
how far the learner is from it. Every number comes from the engine."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Card, Discard, Hand, LeopardError, Play
from ..engine.catalogue import text
from ..engine.errors import quote
from .notation import LEARNER, OPPONENT, SQUARE_WORDS

ENDING_GOALS = ("went out", "hand over", "your score at least", "beat opponent")
"""The goals that can only be met once the hand is over."""


class GoalError(LeopardError):
    """A goal in a lesson file that is not in the vocabulary."""


@dataclass(frozen=True)
class Goal:
    """One condition a lesson's position must meet: `kind` is a phrase of the vocabulary (FORMAT.md)."""

    kind: str
    number: int = 0
    card: Card | None = None
    square: int | None = None
    space: int = 0

    def met(self, hand: Hand, answered: int = 0) -> bool:
        """Whether the hand meets this goal now, `answered` questions of the lesson answered right."""
        kind = self.kind
        if kind == "answered":
            return answered >= self.number
        if kind == "your value at least":
            return hand.value(LEARNER) >= self.number
        if kind == "their value at most":
            return hand.value(OPPONENT) <= self.number
        if kind == "played":
            return any(isinstance(m, Play) and m.card is self.card and m.space == self.space
                       and (self.square is None or m.square_owner == self.square)
                       for m, who in zip(hand.moves, hand.movers) if who == LEARNER)
        if kind == "discarded":
            return any(isinstance(m, Discard) and m.card is self.card
                       for m, who in zip(hand.moves, hand.movers) if who == LEARNER)
        if kind == "went out":
            return hand.went_out == LEARNER
        if kind == "hand over":
            return hand.is_over
        if kind == "your score at least":
            return hand.is_over and hand.scores()[LEARNER] >= self.number
        assert kind == "beat opponent"
        return hand.is_over and hand.scores()[LEARNER] > hand.scores()[OPPONENT]

    def status(self, hand: Hand, answered: int = 0, named: bool = True) -> str:
        """A sentence saying where the learner stands against this goal; a card the stage's goal does not name
        (`named` False: finding it is the puzzle) is not named before the goal is met."""
        if self.kind == "answered":
            state = "met" if self.met(hand, answered) else "unmet"
            return text(f"lessons.goals.answered.{state}", answered=answered, n=self.number)
        where = "either" if self.square is None else ("your", "their")[self.square]
        values = {"n": self.number, "you": hand.value(LEARNER), "them": hand.value(OPPONENT),
                  "the_card": self.card.the_name if self.card else "",
                  "The_card": self.card.the_name_first if self.card else "", "space": self.space,
                  "where": text(f"lessons.goals.where.{where}")}
        if hand.is_over:
            values["your_score"], values["their_score"] = hand.scores()
        state = "met" if self.met(hand) else "unmet"
        if state == "unmet" and self.kind in ("your score at least", "beat opponent") and not hand.is_over:
            state = "pending"
        if state == "unmet" and self.kind in ("played", "discarded") and not named:
            state = "secret"
        elif state == "unmet" and self.kind in ("played", "discarded") and self.card in hand.held[LEARNER]:
            state = "held"  # the goal itself says where it should go: say where it is
        elif state == "unmet" and self.kind == "their value at most" and self.number == 0:
            state = "unmet_zero"  # no square is worth less than 0: "down to 0", not "0 or less"
        return text(f"lessons.goals.{self.kind}.{state}", **values)


def parse_goal(data: object) -> Goal:
    """A goal read from its lesson-file form, such as {"your value at least": 8}."""
    if not isinstance(data, dict) or not data:
        raise GoalError(f"a goal is an object such as {{\"your value at least\": 8}}, not {quote(data)}")
    keys = set(data)
    if keys == {"played", "on"}:
        square, space = _place(data["on"])
        return Goal("played", card=_card(data["played"]), square=square, space=space)
    if len(keys) != 1:
        raise GoalError(f"a goal has one phrase (or 'played' with 'on'), not {quote(sorted(keys))}")
    (kind, value), = data.items()
    if kind in ("your value at least", "their value at most", "your score at least"):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise GoalError(f"'{kind}' needs a whole number, not {quote(value)}")
        return Goal(kind, number=value)
    if kind == "discarded":
        return Goal(kind, card=_card(value))
    if kind in ("went out", "hand over", "beat opponent", "answered"):
        if value is not True:
            raise GoalError(f"write '{kind}': true")
        return Goal(kind)
    raise GoalError(f"unknown goal {quote(kind)}: see FORMAT.md for the vocabulary")


def _card(value: object) -> Card:
    if not isinstance(value, str):
        raise GoalError(f"a card is written like '7H', not {quote(value)}")
    try:
        return Card.parse(value)
    except LeopardError as error:
        raise GoalError(str(error)) from None


_SPACES = frozenset("123456789")


def _place(value: object) -> tuple[int | None, int]:
    words = value.split() if isinstance(value, str) else []
    if len(words) == 1 and words[0] in _SPACES:
        return None, int(words[0])
    if len(words) == 2 and words[0] in SQUARE_WORDS and words[1] in _SPACES:
        return SQUARE_WORDS[words[0]], int(words[1])
    raise GoalError(f"'on' names a space as 'your 7', 'their 3' or just '7', not {quote(value)}")
