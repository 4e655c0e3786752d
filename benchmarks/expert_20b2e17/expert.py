"""The expert of commit 20b2e17, frozen for the duels (benchmarks/duel.py): `ExpertPlayer` and what it uses,
copied from leopard_tutor/ai/players.py of that commit, changed only where the engine renamed things since
(`Hand.hands` is now `Hand.held`). The instinct levels and `make_player` of that file are left out.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from leopard_tutor.engine import GoOut, Hand, Move, PlayerView

from .determinize import sample_hand
from .evaluation import DEFAULT_WEIGHTS, Memo, Weights, evaluate
from .position import Position, hand_unseen
from .randomness import move_key, rng_for

DEFAULT_TIME_BUDGET = 0.9  # seconds of search per expert move: the goal is at most 1 s
DEFAULT_DEALS = 400  # upper bound on deals of the hidden cards per expert move
EXPERT_CANDIDATES = 8  # moves the expert searches, the best ones by the intermediate evaluation first
EXPERT_TURNS = 2  # turns of greedy play by both sides after each candidate, before the evaluation
HALVING_DEALS = 4  # after every this many deals the expert drops the worse half of its candidates
EXPERT_PRIOR = 4.0  # how many deals' worth of weight the one-move evaluation keeps in the expert's choice
SETTLE_DEALS = 8  # deals the final two candidates need before a clear gap between them ends the search


class AIError(ValueError):
    """Bad input to a computer player: an unknown level, a bad budget or a view not waiting for it."""


def _legal(view: PlayerView) -> list[Move]:
    if not isinstance(view, PlayerView):
        raise AIError(f"a computer player reads a PlayerView (from hand.view(player)), not {view!r}")
    moves = sorted(view.legal_moves(), key=move_key)
    if not moves:
        raise AIError("this view is not waiting for its player's move (the hand is over or it is the other turn)")
    return moves


def ranked_moves(view: PlayerView, rng: random.Random,
                 weights: Weights = DEFAULT_WEIGHTS) -> list[tuple[float, Move]]:
    """Every legal move with its one-move-lookahead value for the viewer, best first."""
    moves = _legal(view)
    base = Position.from_view(view)
    unseen = (base.unseen, base.unseen_total)
    hand = sample_hand(view, rng)
    scored = []
    memo: Memo = {}
    for move in moves:
        hand.apply(move)
        scored.append((evaluate(Position.from_hand(hand, view.player, unseen), weights, memo), move))
        hand.undo()
    scored.sort(key=lambda pair: -pair[0])
    return scored


def greedy_move(hand: Hand, player: int, weights: Weights = DEFAULT_WEIGHTS) -> Move:
    """The move the evaluation likes best for `player` (who is to move) in a fully known hand."""
    moves = hand.legal_moves()
    if len(moves) == 1:
        return moves[0]
    unseen = hand_unseen(hand, hand.held[player])
    best, best_value = moves[0], -1e9
    memo: Memo = {}
    for move in moves:
        hand.apply(move)
        value = evaluate(Position.from_hand(hand, player, unseen), weights, memo)
        hand.undo()
        if value > best_value:
            best, best_value = move, value
    return best


def play_out(hand: Hand, me: int, turns: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """Play greedy moves until `me`'s turn has come round `turns` times, then evaluate for `me`; undoes it all."""
    made = 0
    passes = 0
    while not hand.is_over:
        mover = hand.to_move
        hand.apply(greedy_move(hand, mover, weights))
        made += 1
        if mover != me and hand.to_move == me:
            passes += 1
            if passes >= turns:
                break
    value = evaluate(Position.from_hand(hand, me), weights)
    for _ in range(made):
        hand.undo()
    return value


class ExpertPlayer:
    """Determinized search under a time budget.

    The intermediate evaluation picks the candidate moves. For each deal of the unseen cards that
    fits the view, every candidate is followed by `turns` turns of best-by-evaluation play from both
    sides (the opponent playing with the cards the deal gives them, going out when it pays them),
    then scored by the evaluation. Every few deals the worse half of the candidates is dropped; the
    search ends at the deal cap, once the last two are clearly apart, or before the budget runs out: a
    play-out is only started if one as slow as the slowest so far would end in time, so on a slower
    Python (Pyodide, in a browser) the expert keeps its budget by searching fewer deals. The best
    average wins, with the one-move evaluation counted as a few deals' worth of evidence.
    """

    level = "expert"

    def __init__(self, seed: int, time_budget: float = DEFAULT_TIME_BUDGET, deals: int = DEFAULT_DEALS,
                 candidates: int = EXPERT_CANDIDATES, turns: int = EXPERT_TURNS, prior: float = EXPERT_PRIOR,
                 weights: Weights = DEFAULT_WEIGHTS,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.seed = seed
        self.time_budget = time_budget
        self.deals = deals
        self.candidates = candidates
        self.turns = turns
        self.prior = prior
        self.weights = weights
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
        ranked = ranked_moves(view, rng, self.weights)
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
                values.append(play_out(hand, view.player, self.turns, self.weights))
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


def _settled(first: list[float], second: list[float]) -> bool:
    """Whether the last two candidates' paired results already tell them apart clearly."""
    count = min(len(first), len(second))
    if count < SETTLE_DEALS:
        return False
    gaps = [a - b for a, b in zip(first[-count:], second[-count:])]
    mean = sum(gaps) / count
    spread = math.sqrt(sum((gap - mean) ** 2 for gap in gaps) / (count - 1))
    return spread < 1e-9 or abs(mean) > 3.0 * spread / math.sqrt(count)
