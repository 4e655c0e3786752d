"""The review of a hand: every move one player made, judged by the strongest level's search (`REVIEW_LEVEL`) from
what they could see then.

Each decision is judged from the player's view at that moment, rebuilt by replaying the hand's
moves (never from cards they could not see). A cheap pass values the move made and the best few
moves by the judging level's one-move value the moment the move is made; the judging search (`judging`, the one
hints are chosen by, so a hinted move that is made is the best move found) then refines those values playout by
playout, over deals of the unseen cards (`HandReview.refine`, in short slices while the player thinks, or in one
bounded stretch when the review is asked for). The cost of a move is how many
points of expected final score difference it gives up against the best move found; `THRESHOLDS`,
applied to the figure the learner reads (`shown`, one decimal), turn it into good / inaccuracy / mistake /
blunder. The words come from the catalogue (book
`review`), and the sentence on the better move is the hint's own reason for it (`hints.explain`),
so its claims are the engine facts the hint tests check.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import Hand, Move, PlayerView
from ..engine.catalogue import and_list, text
from ..engine.narration import move_words
from .hints import explain
from .judging import JUDGE_CANDIDATES, JUDGE_DEALS, JUDGE_LEVEL, JUDGE_SEED, JudgedSearch, taken_up

REVIEW_LEVEL = JUDGE_LEVEL  # the level whose search judges (`judging`): the strongest, as for hints
REVIEW_SEED = JUDGE_SEED  # reviews are reproducible: the same view and move always get the same judgement
REVIEW_DEALS = JUDGE_DEALS  # deals of the unseen cards behind a finished judgement
REVIEW_CANDIDATES = JUDGE_CANDIDATES  # the best moves by the one-move value that are searched beside the move made
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 5.0), ("mistake", 2.5), ("inaccuracy", 1.0))
"""A move costing at least this many points (expected final score difference) gets this mark; below
the lowest, it is good."""
VERDICTS = ("good", "inaccuracy", "mistake", "blunder")
"""The marks, best first."""


def shown(cost: float) -> float:
    """A cost as the review writes it: to one decimal."""
    return round(cost, 1)


def verdict_for(cost: float) -> str:
    """The mark of a move that gives up `cost` points against the best one: `THRESHOLDS` applied to the figure
    as written (`shown`), so a move written as "about 2.5 points lost" is a mistake, as the legend says."""
    figure = shown(cost)
    return next((name for name, least in THRESHOLDS if figure >= least), "good")


def figure_words(points: float) -> str:
    """A figure of the review as the learner reads it: whole without decimals ("1", "5"), else to one decimal,
    with the language's decimal point ("2.5", in Spanish "2,5")."""
    written = f"{points:.0f}" if float(points).is_integer() else f"{points:.1f}"
    return written.replace(".", text("words.decimal_point"))


@dataclass(frozen=True)
class Decision:
    """A move one player made: its place in the hand's moves, and what they could see just before it."""

    index: int
    view: PlayerView
    move: Move


def decisions(hand: Hand, player: int, start: int = 0) -> list[Decision]:
    """Every move `player` made in `hand` from move number `start` (counting from 0), each with the view
    `player` had just before it, rebuilt by taking the moves back and making them again."""
    moves, movers = hand.moves, hand.movers
    replay = hand.copy()
    for _ in range(len(moves) - start):
        replay.undo()
    found = []
    for index in range(start, len(moves)):
        if movers[index] == player:
            found.append(Decision(index, replay.view(player), moves[index]))
        replay.apply(moves[index])
    return found


def view_before(hand: Hand, index: int, player: int) -> PlayerView:
    """What `player` could see just before move number `index` of `hand` was made."""
    replay = hand.copy()
    for _ in range(len(hand.moves) - index):
        replay.undo()
    return replay.view(player)


@dataclass(frozen=True)
class Judgement:
    """The judging level's verdict on one decision.

    `cost` is the points of expected final score difference the move gave up against `best` (0 when it
    was the best found); `deals` how many deals of the unseen cards the search used (0: the one-move
    value only); `facts` the (catalogue key, values) the sentence was filled with; `final` whether the search
    behind it has followed all the deals a finished judgement needs (the sentence says so when not).
    """

    decision: Decision
    best: Move
    cost: float
    deals: int
    sentence: str
    facts: tuple[tuple[str, dict[str, Any]], ...]
    final: bool = True

    @property
    def verdict(self) -> str:
        """good, inaccuracy, mistake or blunder (see `THRESHOLDS`)."""
        return verdict_for(self.cost)

    @property
    def points(self) -> float:
        """The points lost as the review writes them (`shown`)."""
        return shown(self.cost)

    @property
    def move(self) -> Move:
        """The move that was made."""
        return self.decision.move

    @property
    def view(self) -> PlayerView:
        """What the player could see when making it."""
        return self.decision.view


def _search_for(decision: Decision, seed: int, candidates: int, deals: int) -> JudgedSearch:
    """The judging search for one decision, with the move made among its candidates: a hint's finished search in that
    view if the hint chose that move and the review searches as hints do (`taken_up`), else a new one."""
    hinted = None
    if (seed, candidates, deals) == (JUDGE_SEED, JUDGE_CANDIDATES, JUDGE_DEALS):
        hinted = taken_up(decision.view, decision.move)
    return hinted or JudgedSearch(decision.view, decision.move, seed=seed, candidates=candidates)


def _judgement(decision: Decision, search: JudgedSearch, deals: int) -> Judgement:
    """The verdict on `decision` as far as its `search` has gone, with its sentence; not final while the search has
    followed fewer than `deals` deals, and then its sentence says how far it has gone."""
    if search.forced:
        return Judgement(decision, decision.move, 0.0, 0, text("review.sentence.forced"),
                         (("review.sentence.forced", {}),))
    values = search.values()
    best = search.best()
    assert search.made is not None
    cost = max(0.0, values[best] - values[search.made])
    sentence, facts = _sentence(decision, search.moves[best], cost)
    if search.deals < deals:
        key = "review.not_final.deals" if search.deals else "review.not_final.quick"
        so_far: dict[str, Any] = {"deals": search.deals, "target": deals} if search.deals else {}
        sentence, facts = f"{sentence} {text(key, **so_far)}", (*facts, (key, so_far))
    return Judgement(decision, search.moves[best], cost, search.deals, sentence, facts, search.deals >= deals)


def _sentence(decision: Decision, best: Move, cost: float) -> tuple[str, tuple[tuple[str, dict[str, Any]], ...]]:
    """What the review says of a decision: agreement, or what the better move would have done: the hint's reason for
    it and, where it would have changed a square's value, both values before and after (the hint's own figures)."""
    if best == decision.move:
        judge = {"level": text(f"levels.in_sentence.{REVIEW_LEVEL}")}
        return text("review.sentence.best", **judge), (("review.sentence.best", judge),)
    view = decision.view
    hint = explain(view, best)
    reason = next(((key, values) for key, values in hint.facts if key.startswith("reason.")))
    facts = {"better": move_words(best, "advice", view.player), "reason": hint.reason, "points": shown(cost)}
    if shown(cost) == 0:  # the two moves' values differ by less than the review writes
        key = "review.sentence.equal"
    else:
        key = "review.sentence.close" if verdict_for(cost) == "good" else "review.sentence.better"
    said: tuple[tuple[str, dict[str, Any]], ...] = ((key, facts), (f"hints.{reason[0]}", reason[1]))
    sentence = text(key, **facts)
    if key == "review.sentence.better":  # a move that lost points: first what it did to the squares, if anything
        made = _changes(explain(view, decision.move).facts)
        if not all(side.endswith("_stays") for side, _ in made):
            mine, theirs = (text(f"review.made.{side}", **values) for side, values in made)
            sentence = f"{text('review.made.sentence', mine=mine, theirs=theirs)} {sentence}"
            said = (*said, *((f"review.made.{side}", values) for side, values in made))
    changes = _changes(hint.facts)
    if all(side.endswith("_stays") for side, _ in changes):  # no card laid, or neither value moves
        return sentence, said
    mine, theirs = (text(f"review.change.{side}", **values) for side, values in changes)
    return (f"{sentence} {text('review.change.sentence', mine=mine, theirs=theirs)}",
            (*said, *((f"hints.change.{side}", values) for side, values in changes)))


def _changes(facts: tuple[tuple[str, dict[str, Any]], ...]) -> list[tuple[str, dict[str, Any]]]:
    """A hint's figures of how its move changes the two squares' values: (side, values), mine first ("mine_goes",
    "theirs_stays"...)."""
    return [(key.removeprefix("change."), values) for key, values in facts if key.startswith("change.")]


@dataclass(frozen=True)
class Review:
    """The judgements of one player's moves in one hand, in order; `complete` once every decision with
    a choice has been searched as far as a review goes."""

    judgements: tuple[Judgement, ...]
    complete: bool

    def count(self, verdict: str) -> int:
        """How many moves got this mark."""
        return sum(1 for j in self.judgements if j.verdict == verdict)

    @property
    def points_lost(self) -> float:
        """The points given up by every move not marked good, each against the best move where it was made and as its
        mark writes it (`shown`), added up: the figures the review lists add up to it (more than a hand is worth, at
        times)."""
        return round(sum(j.points for j in self.judgements if j.verdict != "good"), 1)

    @property
    def not_final(self) -> int:
        """How many judgements rest on less search than a finished one (`Judgement.final`)."""
        return sum(1 for j in self.judgements if not j.final)

    def summary(self) -> str:
        """One line: how many inaccuracies, mistakes and blunders, and the points those moves lost (`points_lost`),
        and how many of the judgements are not final yet, if any."""
        parts = [text(f"review.count.{verdict}", count=self.count(verdict)) for verdict in VERDICTS[1:]
                 if self.count(verdict)]
        if not self.judgements:
            return text("review.summary.empty")
        if not parts:
            line = text("review.summary.clean", moves=len(self.judgements))
        else:
            lost = self.points_lost  # (the figures each move's mark says, added up)
            line = text("review.summary.line", counts=and_list(parts), points=lost, figure=figure_words(lost))
        if self.not_final:
            return text("review.summary.not_final", summary=line, count=self.not_final)
        return line


class HandReview:
    """The review of `player`'s moves in one hand, kept up to date as the hand goes on.

    `follow(hand)` takes in the moves made since the last call (and forgets moves taken back); each new
    decision gets the cheap pass at once. `refine(seconds)` spends at most about that long on the
    judging level's search, a playout at a time, the least searched decision first; `review()` gives the
    judgements as they stand, `finish(seconds)` refines first.
    """

    def __init__(self, player: int = 0, *, deals: int = REVIEW_DEALS, candidates: int = REVIEW_CANDIDATES,
                 seed: int = REVIEW_SEED,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.player = player
        self.deals = deals
        self.candidates = candidates
        self.seed = seed
        self.clock = clock
        self._moves: list[Move] = []
        self._judged: list[tuple[Decision, JudgedSearch]] = []

    def follow(self, hand: Hand) -> None:
        """Catch up with `hand`: judge the new decisions cheaply, drop those of moves taken back."""
        moves = hand.moves
        same = 0
        while same < min(len(moves), len(self._moves)) and moves[same] == self._moves[same]:
            same += 1
        self._judged = [(decision, search) for decision, search in self._judged if decision.index < same]
        self._judged += [(decision, _search_for(decision, self.seed, self.candidates, self.deals))
                         for decision in decisions(hand, self.player, same)]
        self._moves = list(moves)

    def _waiting(self) -> list[JudgedSearch]:
        """The searches with a choice to judge that have not followed all their deals yet."""
        return [search for _, search in self._judged if not search.forced and search.deals < self.deals]

    @property
    def pending(self) -> int:
        """How many deals of search the review still lacks."""
        return sum(self.deals - search.deals for search in self._waiting())

    def refine(self, seconds: float) -> bool:
        """Search for about `seconds` at most (whole playouts: the last may run past); whether work remains."""
        deadline = self.clock() + seconds
        while True:
            waiting = self._waiting()
            if not waiting:
                return False
            min(waiting, key=lambda search: (search.deals, not search.busy)).step()
            if self.clock() >= deadline:
                return self.pending > 0

    @property
    def moves_judged(self) -> tuple[int, ...]:
        """Where each decision judged stands in the hand's moves (counting from 0), in order."""
        return tuple(decision.index for decision, _ in self._judged)

    def refine_move(self, number: int, seconds: float) -> None:
        """Search the judgement of `player`'s move number `number` (from 0) for about `seconds` at most (whole
        playouts), until it is final."""
        _, search = self._judged[number]
        deadline = self.clock() + seconds
        while not search.forced and search.deals < self.deals and self.clock() < deadline:
            search.step()

    def review(self) -> Review:
        """The judgements as they stand now."""
        return Review(tuple(_judgement(decision, search, self.deals) for decision, search in self._judged),
                      self.pending == 0)

    def finish(self, seconds: float) -> Review:
        """The review after at most about `seconds` more of search."""
        self.refine(seconds)
        return self.review()


def review_hand(hand: Hand, player: int = 0, *, deals: int = REVIEW_DEALS, seed: int = REVIEW_SEED) -> Review:
    """The finished review of `player`'s moves in `hand`, however long the search takes."""
    reviewer = HandReview(player, deals=deals, seed=seed)
    reviewer.follow(hand)
    while reviewer.refine(60.0):
        pass
    return reviewer.review()

