"""Endless practice from real positions of random hands, reproducible with a seed: what is this square
worth, can this card go there, which play scores most. Every answer is judged by the engine."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine import (
    ALL_CARDS,
    REVISED_2008,
    Card,
    GoOut,
    Hand,
    LeopardError,
    Move,
    Play,
    RuleSet,
    Square,
    check_play,
    scoring_lines,
    square_value,
)
from ..engine.catalogue import text
from ..engine.errors import quote
from ..engine.turns import apply_move
from ..engine.view import NOBODY, seen_square
from .notation import LEARNER, OPPONENT, parse_move
from .progress import Progress

KINDS = ("value", "placement", "best play")


class AnswerError(LeopardError):
    """An answer that cannot be read (not a number, not yes or no, not a play of yours)."""


@dataclass(frozen=True)
class Answer:
    """The verdict on one answer; `counted` is False when the question had already been answered."""

    ok: bool
    text: str
    counted: bool = True


@dataclass(frozen=True)
class ValueQuestion:
    """What is this square worth? Explained line by line."""

    square: Square
    rules: RuleSet
    kind: str = "value"
    concept: str = "lines"

    @property
    def prompt(self) -> str:
        """The question in words."""
        return text("lessons.practice.value.prompt")

    @property
    def solution(self) -> int:
        """The right answer: the square's raw value."""
        return square_value(self.square, self.rules)

    def explanation(self) -> list[str]:
        """One sentence per scoring line, then the total."""
        said = [text("lessons.practice.value.line", name=line.name.capitalize(),
                     kind=text(f"lessons.practice.value.{line.kind}"),
                     points=line.points) for line in scoring_lines(self.square, self.rules) if line.points]
        total = text("lessons.practice.value.total", value=self.solution)
        return (said or [text("lessons.practice.value.none")]) + [total]

    def check(self, answer: object) -> Answer:
        """Judge a value given as a number or digits."""
        if isinstance(answer, str) and answer.strip().isdigit():
            answer = int(answer.strip())
        if not isinstance(answer, int) or isinstance(answer, bool) or answer < 0:  # (no square is worth less than 0)
            raise AnswerError(key="lessons.practice.value.bad")
        ok = answer == self.solution
        head = text("lessons.practice.value.right" if ok else "lessons.practice.value.wrong", given=answer,
                    value=self.solution)
        return Answer(ok, " ".join([head, *self.explanation()]))


@dataclass(frozen=True)
class PlacementQuestion:
    """Can this card go on this space? Answered with the engine's reason."""

    card: Card
    square: Square
    owner: int
    space: int
    rules: RuleSet
    kind: str = "placement"

    @property
    def concept(self) -> str:
        """The card's kind: 'aces to nines', 'tens', 'jacks', 'queens' or 'kings'."""
        return {10: "tens", 11: "jacks", 12: "queens", 13: "kings"}.get(self.card.rank, "aces to nines")

    @property
    def prompt(self) -> str:
        """The question in words."""
        where = text(f"lessons.goals.where.{'your' if self.owner == LEARNER else 'their'}")
        return text("lessons.practice.placement.prompt", card=self.card.name, space=self.space, where=where)

    @property
    def solution(self) -> bool:
        """The right answer: whether the play is legal."""
        return check_play(self.card, self.square, self.space, own=self.owner == LEARNER).legal

    def check(self, answer: object) -> Answer:
        """Judge a yes/no answer (True/False or the words)."""
        if isinstance(answer, str):
            answer = {"yes": True, "y": True, "no": False, "n": False}.get(answer.strip().lower(), answer)
        if not isinstance(answer, bool):
            raise AnswerError(key="lessons.practice.placement.bad")
        verdict = check_play(self.card, self.square, self.space, own=self.owner == LEARNER)
        ok = answer == verdict.legal
        head = text("lessons.practice.placement.right" if ok else "lessons.practice.placement.wrong")
        return Answer(ok, f"{head} {verdict.reason}")


@dataclass(frozen=True)
class BestPlayQuestion:
    """Which play makes your square worth the most? From a real position in which you are to move."""

    hand: Hand
    kind: str = "best play"
    concept: str = "best play"

    @property
    def rules(self) -> RuleSet:
        """The rule set of the position."""
        return self.hand.rules

    @property
    def prompt(self) -> str:
        """The question in words."""
        return text("lessons.practice.best play.prompt")

    def outcomes(self) -> dict[Play, int]:
        """Every legal play on your own square and what your square would then be worth."""
        square = self.hand.squares[LEARNER]
        return {m: square_value(square.with_card(m.card, m.space), self.rules) for m in self.hand.legal_moves()
                if isinstance(m, Play) and m.square_owner == LEARNER}

    @property
    def solution(self) -> list[Play]:
        """The plays that reach the highest value."""
        outcomes = self.outcomes()
        best = max(outcomes.values())
        return [m for m, value in outcomes.items() if value == best]

    def check(self, answer: object) -> Answer:
        """Judge a play (a Play, or lesson notation such as 'play 7H on your 7')."""
        try:
            move: Move = parse_move(answer) if isinstance(answer, str) else answer  # type: ignore[assignment]
        except LeopardError:
            raise AnswerError(key="lessons.practice.best play.bad") from None
        outcomes = self.outcomes()
        if move not in outcomes:
            if not isinstance(move, Play):
                raise AnswerError(key="lessons.practice.best play.bad")
            raise AnswerError(key="lessons.practice.best play.bad_because", facts={"reason": self.hand.check(move)})
        best = self.solution[0]
        before = self.hand.value(LEARNER)
        ok = outcomes[move] == outcomes[best]
        key = "lessons.practice.best play." + ("right" if ok else "wrong" if outcomes[move] > before
                                               else "wrong_same" if outcomes[move] == before else "wrong_down")
        shown = move if ok else best
        assert isinstance(move, Play)
        return Answer(ok, text(key, the_card=move.card.the_name, space=move.space, mine=outcomes[move],
                               the_best_card=best.card.the_name, best_space=best.space, before=before,
                               after=outcomes[shown]))


Question = ValueQuestion | PlacementQuestion | BestPlayQuestion


class Practice:
    """An endless, seeded stream of questions; answers are recorded per concept in `progress`."""

    def __init__(self, seed: int | str | None = None, rules: RuleSet = REVISED_2008,
                 progress: Progress | None = None) -> None:
        self.rng = random.Random(seed)
        self.rules = rules
        self.progress = progress if progress is not None else Progress()
        self.current: Question | None = None
        self._answered = False

    def next(self, kind: str | None = None) -> Question:
        """A new question of `kind` ('value', 'placement', 'best play'), or of a random kind."""
        if kind is None:
            kind = self.rng.choice(KINDS)
        if kind not in KINDS:
            raise AnswerError(f"there is no practice of kind {quote(kind)}: choose one of {', '.join(KINDS)}")
        question: Question
        if kind == "value":
            question = self._value()
        elif kind == "placement":
            question = self._placement()
        else:
            question = self._best_play()
        self.current = question
        self._answered = False
        return question

    def answer(self, given: object) -> Answer:
        """Judge `given` for the current question; only the first answer to a question is recorded."""
        question = self.current
        if question is None:
            raise AnswerError("ask for a question first")
        verdict = question.check(given)
        if self._answered:
            return Answer(verdict.ok, f"{verdict.text} {text('lessons.practice.answered')}", counted=False)
        self._answered = True
        self.progress.record_practice(question.concept, verdict.ok)
        return verdict

    # -- real positions ------------------------------------------------------------------------
    def _position(self, learner_to_move: bool = False) -> Hand:
        """A hand dealt from the seed and played on by random legal moves (going out excepted)."""
        while True:
            hand = Hand.deal(self.rules, seed=self.rng.randrange(2**32), dealer=OPPONENT)
            for _ in range(self.rng.randrange(8, 80)):
                moves = [m for m in hand.legal_moves() if not isinstance(m, GoOut)]
                if hand.is_over or not moves:
                    break
                apply_move(hand, self.rng.choice(moves))
            if not hand.is_over and (hand.to_move == LEARNER or not learner_to_move):
                return hand

    def _value(self) -> ValueQuestion:
        """A square of a real position, each face-down card unnamed: shown alone ("This square"), whoever laid it."""
        want_points = self.rng.random() >= 0.15
        for _ in range(50):
            owner = self.rng.choice((LEARNER, OPPONENT))
            square = seen_square(self._position().squares[owner], owner, NOBODY)
            if (square_value(square, self.rules) > 0) == want_points:
                break
        return ValueQuestion(square, self.rules)

    def _placement(self) -> PlacementQuestion:
        hand = self._position()
        want_legal = self.rng.random() < 0.5
        for _ in range(50):
            owner = self.rng.choice((LEARNER, OPPONENT))
            card = self.rng.choice(ALL_CARDS)
            square = seen_square(hand.squares[owner], owner, LEARNER)  # as the learner knows it
            legal = [s for s in range(1, 10) if check_play(card, square, s, own=owner == LEARNER)]
            illegal = [s for s in range(1, 10) if s not in legal]
            if (legal if want_legal else illegal):
                break
        if want_legal and legal:
            space = self.rng.choice(legal)
        elif card.rank in illegal and self.rng.random() < 0.5:
            space = card.rank  # the tempting wrong answer: its own number, but not open
        else:
            space = self.rng.choice(illegal)
        return PlacementQuestion(card, square, owner, space, self.rules)

    def _best_play(self) -> BestPlayQuestion:
        while True:
            question = BestPlayQuestion(self._position(learner_to_move=True))
            outcomes = question.outcomes()
            if outcomes and max(outcomes.values()) > question.hand.value(LEARNER) and \
                    len(question.solution) < len(outcomes):
                return question
