"""The computer opponents, weakest first: beginner, casual, intermediate, expert and master.

Each reads only the `PlayerView` it is given and draws its randomness from its seed and that
view's public content, so the same view always gets the same move from the same player.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable
from typing import Protocol

from ..engine import GoOut, Hand, Move, PlayerView
from ..engine.catalogue import text
from ..engine.gains import instinct_moves
from ..protocol import LEVELS
from .determinize import sample_hand
from .evaluation import Judge, Memo, hand_tuned
from .learned import learned_value
from .position import Position, hand_unseen
from .randomness import move_key, rng_for

DEFAULT_TIME_BUDGET = 0.75 if sys.platform == "emscripten" else 0.9
"""Seconds of search per move of the expert and the master: the goal is a reply within 1 s of the click. In the
browser (the static site, Pyodide) handing the move to the search and drawing the reply take longer, up to 0.25 s on a
slow laptop, so the search stops sooner there (benchmarks/HISTORY.md, "The static website")."""
DEFAULT_DEALS = 400  # upper bound on deals of the hidden cards per expert move
EXPERT_CANDIDATES = 8  # moves the expert searches, the best ones by the intermediate evaluation first
EXPERT_TURNS = 2  # turns of greedy play by both sides after each candidate, before the evaluation
MASTER_TURNS = 1  # the master's turns of greedy play (by the learned value) after each candidate
HALVING_DEALS = 4  # after every this many deals the expert drops the worse half of its candidates
EXPERT_PRIOR = 4.0  # how many deals' worth of weight the one-move evaluation keeps in the expert's choice
SETTLE_DEALS = 8  # deals the final two candidates need before a clear gap between them ends the search
# How often the lower levels play by instinct instead of thinking (see EvaluationPlayer), tuned so that each
# level beats the one below in 70 to 80% of four-hand matches (docs/figures.md, "The ladder of computer levels").
BEGINNER_INSTINCT = 0.7
CASUAL_INSTINCT = 0.3
INTERMEDIATE_INSTINCT = 0.0


class AIError(ValueError):
    """Bad input to a computer player: an unknown level, a bad budget or a view not waiting for it."""


class Player(Protocol):
    """A computer opponent: `choose` returns one of the view's legal moves."""

    level: str

    def choose(self, view: PlayerView) -> Move:
        """The move this player makes in the position `view` shows."""
        ...


def _legal(view: PlayerView) -> list[Move]:
    if not isinstance(view, PlayerView):
        raise AIError(f"a computer player reads a PlayerView (from hand.view(player)), not {view!r}")
    moves = sorted(view.legal_moves(), key=move_key)
    if not moves:
        raise AIError("this view is not waiting for its player's move (the hand is over or it is the other turn)")
    return moves


class EvaluationPlayer:
    """One move of lookahead on the full evaluation, with human-like slips.

    On each decision, with chance `instinct`, the player does not think it through and plays by
    instinct instead (`instinct_move`: the move that scores most at once, building on its own square
    when nothing scores); otherwise it takes the move the evaluation likes best. The slips are
    sensible moves a player who knows the rules makes without looking ahead, never random ones.
    """

    level = "evaluation"
    instinct = 0.0

    def __init__(self, seed: int, judge: Judge = hand_tuned) -> None:
        self.seed = seed
        self.judge = judge

    def choose(self, view: PlayerView) -> Move:
        """A legal move: the one the evaluation likes best, or now and then the instinctive one."""
        moves = _legal(view)
        if len(moves) == 1:
            return moves[0]
        rng = rng_for(self.seed, view, self.level + "|instinct")
        if rng.random() < self.instinct:
            return instinct_move(view, rng)
        return ranked_moves(view, rng_for(self.seed, view, self.level), self.judge)[0][1]


def instinct_move(view: PlayerView, rng: random.Random) -> Move:
    """What a player who has learned the rules plays without looking ahead (`engine.gains.instinct_moves`), ties
    drawn at random."""
    return rng.choice(instinct_moves(view, _legal(view)))


class BeginnerPlayer(EvaluationPlayer):
    """Knows the rules and builds its own lines, but mostly plays by instinct without looking ahead."""

    level = "beginner"
    instinct = BEGINNER_INSTINCT


class CasualPlayer(EvaluationPlayer):
    """Thinks most of its moves through; plays the others by instinct."""

    level = "casual"
    instinct = CASUAL_INSTINCT


class IntermediatePlayer(EvaluationPlayer):
    """Weighs both squares one move ahead on every move: it never plays by instinct."""

    level = "intermediate"
    instinct = INTERMEDIATE_INSTINCT


def ranked_moves(view: PlayerView, rng: random.Random, judge: Judge = hand_tuned) -> list[tuple[float, Move]]:
    """Every legal move with its one-move-lookahead value for the viewer by `judge`, best first."""
    moves = _legal(view)
    base = Position.from_view(view)
    unseen = (base.unseen, base.unseen_total)
    hand = sample_hand(view, rng)
    scored = []
    memo: Memo = {}
    for move in moves:
        hand.apply(move)
        scored.append((judge(Position.from_hand(hand, view.player, unseen), memo), move))
        hand.undo()
    scored.sort(key=lambda pair: -pair[0])
    return scored


def greedy_move(hand: Hand, player: int, judge: Judge = hand_tuned) -> Move:
    """The move `judge` likes best for `player` (who is to move) in a fully known hand."""
    moves = hand.legal_moves()
    if len(moves) == 1:
        return moves[0]
    unseen = hand_unseen(hand, hand.held[player])
    best, best_value = moves[0], -1e9
    memo: Memo = {}
    for move in moves:
        hand.apply(move)
        value = judge(Position.from_hand(hand, player, unseen), memo)
        hand.undo()
        if value > best_value:
            best, best_value = move, value
    return best


def play_out(hand: Hand, me: int, turns: int, judge: Judge = hand_tuned) -> float:
    """Play `judge`'s greedy moves until `me`'s turn has come round `turns` times, then judge for `me`; undoes it
    all."""
    made = 0
    passes = 0
    while not hand.is_over:
        mover = hand.to_move
        hand.apply(greedy_move(hand, mover, judge))
        made += 1
        if mover != me and hand.to_move == me:
            passes += 1
            if passes >= turns:
                break
    value = judge(Position.from_hand(hand, me), None)
    for _ in range(made):
        hand.undo()
    return value


class ExpertPlayer:
    """Determinized search under a time budget.

    Its judge (the hand-tuned evaluation, unless given another) picks the candidate moves one move
    ahead. For each deal of the unseen cards that fits the view, every candidate is followed by `turns`
    turns of best-by-judge play from both sides (the opponent playing with the cards the deal gives
    them, going out when it pays them), then valued by the judge. Every few deals the worse half of
    the candidates is dropped; the search ends at the deal cap, once the last two are clearly apart,
    or before the budget runs out: a play-out is only started if one as slow as the slowest so far
    would end in time, so on a slower Python (Pyodide, in a browser) it keeps its budget by searching
    fewer deals. The best average wins, with the one-move value counted as a few deals' worth of
    evidence.
    """

    level = "expert"

    def __init__(self, seed: int, time_budget: float = DEFAULT_TIME_BUDGET, deals: int = DEFAULT_DEALS,
                 candidates: int = EXPERT_CANDIDATES, turns: int = EXPERT_TURNS, prior: float = EXPERT_PRIOR,
                 judge: Judge = hand_tuned,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.seed = seed
        self.time_budget = time_budget
        self.deals = deals
        self.candidates = candidates
        self.turns = turns
        self.prior = prior
        self.judge = judge
        self.clock = clock
        self.last_deals = 0

    def choose(self, view: PlayerView) -> Move:
        """The candidate move with the best average result over the deals searched in the budget."""
        start = self.clock()
        moves = _legal(view)
        if len(moves) == 1:
            self.last_deals = 0
            return moves[0]
        rng = rng_for(self.seed, view, self.level)
        ranked = ranked_moves(view, rng, self.judge)
        chosen = ranked[:self.candidates] + [pair for pair in ranked[self.candidates:] if isinstance(pair[1], GoOut)]
        candidates = [move for _, move in chosen]
        # the one-move evaluation counts as `prior` deals' worth of evidence for each candidate
        prior = [self.prior * value for value, _ in chosen]
        deadline = start + self.time_budget
        active = list(range(len(candidates)))
        totals = [0.0] * len(candidates)
        history: list[list[float]] = [[] for _ in candidates]
        deals = 0
        slowest = 0.0  # the longest play-out so far: one more is started only if one that long still fits
        while deals < self.deals:
            hand = sample_hand(view, rng)
            values = []
            for index in active:
                began = self.clock()
                if began + slowest > deadline:
                    break
                hand.apply(candidates[index])
                values.append(play_out(hand, view.player, self.turns, self.judge))
                hand.undo()
                slowest = max(slowest, self.clock() - began)
            if len(values) < len(active):
                break  # out of time in the middle of a deal: that deal does not count
            for index, value in zip(active, values):
                totals[index] += value
                history[index].append(value)
            deals += 1
            if len(active) == 2 and _settled(history[active[0]], history[active[1]]):
                break
            if deals % HALVING_DEALS == 0 and len(active) > 2:
                # successive halving: spend the rest of the budget on the better half
                active.sort(key=lambda i: (-(totals[i] + prior[i]), i))
                active = sorted(active[:max(2, (len(active) + 1) // 2)])
            if self.clock() > deadline:
                break
        self.last_deals = deals
        if not deals:
            return candidates[0]  # not even one deal fitted in the budget: the one-move evaluation decides
        best = max(active, key=lambda i: ((totals[i] + prior[i]) / (len(history[i]) + self.prior), -i))
        return candidates[best]


class MasterPlayer(ExpertPlayer):
    """The expert's search judged by the value learned by self-play (`learned.learned_value`) instead of the
    hand-tuned evaluation: it ranks the candidates, plays one turn of both sides' best moves after each, and
    values what follows, on as many deals of the hidden cards as the same time budget allows."""

    level = "master"

    def __init__(self, seed: int, time_budget: float = DEFAULT_TIME_BUDGET, deals: int = DEFAULT_DEALS,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        super().__init__(seed, time_budget, deals, turns=MASTER_TURNS, judge=learned_value, clock=clock)


SEARCHES: dict[str, tuple[Judge, int]] = {ExpertPlayer.level: (hand_tuned, EXPERT_TURNS),
                                          MasterPlayer.level: (learned_value, MASTER_TURNS)}
"""How each searching level judges a position and how many turns of greedy play follow a candidate (the review
searches as its level does)."""


def _settled(first: list[float], second: list[float]) -> bool:
    """Whether the last two candidates' paired results already tell them apart clearly."""
    count = min(len(first), len(second))
    if count < SETTLE_DEALS:
        return False
    gaps = [a - b for a, b in zip(first[-count:], second[-count:])]
    mean = sum(gaps) / count
    spread = math.sqrt(sum((gap - mean) ** 2 for gap in gaps) / (count - 1))
    return spread < 1e-9 or abs(mean) > 3.0 * spread / math.sqrt(count)


def make_player(level: str, seed: int | None = None, time_budget: float | None = None) -> Player:
    """A computer opponent of the given level; with a seed it is reproducible.

    `time_budget` (seconds a move) applies to the expert and the master; the default keeps it under a second.
    """
    if level not in LEVELS:
        raise AIError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    if seed is None:
        seed = random.randrange(2**63)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise AIError(f"a seed is a whole number, not {seed!r}")
    if time_budget is not None and (isinstance(time_budget, bool) or not isinstance(time_budget, (int, float))
                                    or not 0 < time_budget <= 60):
        raise AIError(f"a time budget is a number of seconds above 0 and at most 60, not {time_budget!r}")
    return PLAYERS[level](seed, DEFAULT_TIME_BUDGET if time_budget is None else float(time_budget))


def how_it_plays(level: str) -> str:
    """What `level` does when it chooses a move, in words (`levels.how`), its figures read from the settings above."""
    if level not in LEVELS:
        raise AIError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    seconds = f"{DEFAULT_TIME_BUDGET:g}".replace(".", text("words.decimal_point"))
    facts: dict[str, dict[str, object]] = {
        BeginnerPlayer.level: {"percent": round(100 * BEGINNER_INSTINCT)},
        CasualPlayer.level: {"percent": round(100 * CASUAL_INSTINCT)},
        ExpertPlayer.level: {"turns": EXPERT_TURNS, "seconds": seconds},
        MasterPlayer.level: {"turns": MASTER_TURNS, "seconds": seconds}}
    return text(f"levels.how.{level}", **facts.get(level, {}))


PLAYERS: dict[str, Callable[[int, float], Player]] = dict(zip(LEVELS, (
    lambda seed, _budget: BeginnerPlayer(seed),
    lambda seed, _budget: CasualPlayer(seed),
    lambda seed, _budget: IntermediatePlayer(seed),
    ExpertPlayer,
    MasterPlayer,
), strict=True))
"""The player of each level (`protocol.LEVELS`, weakest first: a level added there and here reaches `make_player`,
the app's menu and the class server)."""
