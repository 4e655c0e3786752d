"""The judging search: the strongest level's values of a few candidate moves, over deals of the unseen cards.

Both the hint and the review of a hand judge by this one search, with the same seed, so a hinted move that is
made is reviewed as the best move (`JudgedSearch` with that move as `made` follows exactly the same candidates
on exactly the same deals as the search that chose it). The candidates are the best few moves by the one-move
value, going out if allowed, and the move made (if any); every candidate still in the running is followed on the
same deals, so their differences are paired. After `PRUNE_DEALS` deals only the best `KEEP` go on, the move made
always among them. The search is as long as its deal count, never as long as a clock: the same view always gets
the same judgement, however busy the machine.
"""

from __future__ import annotations

import copy
from collections import OrderedDict

from ..engine import GoOut, Hand, Move, PlayerView
from ..protocol import LEVELS
from .determinize import sample_hand
from .players import EXPERT_PRIOR, SEARCHES, AIError, play_out, ranked_moves
from .randomness import move_key, public_key, rng_for

JUDGE_LEVEL = LEVELS[-1]  # the level whose search judges: the strongest
JUDGE, JUDGE_TURNS = SEARCHES[JUDGE_LEVEL]  # how that level values positions and how far it plays on
JUDGE_SEED = 20080320  # judgements are reproducible: the same view and move always get the same one
JUDGE_DEALS = 16  # deals of the unseen cards behind a finished judgement
JUDGE_CANDIDATES = 4  # the best moves by the one-move value that are searched (beside the move made)
PRUNE_DEALS = 4  # deals after which only the best `KEEP` candidates are followed further
KEEP = 3  # how many those are (the move made always one of them)
REMEMBERED = 256  # finished searches of hints kept (the most recent), so the review takes them up as they are


class JudgedSearch:
    """The judging level's search in one view, one play-out at a time (`step`), optionally with the move `made`
    there always among the candidates followed."""

    def __init__(self, view: PlayerView, made: Move | None = None, *, seed: int = JUDGE_SEED,
                 candidates: int = JUDGE_CANDIDATES) -> None:
        self.view = view
        self.rng = rng_for(seed, view, "review")
        legal = sorted(view.legal_moves(), key=move_key)
        if not legal:
            raise AIError("this view is not waiting for its player's move (the hand is over or it is the other turn)")
        self.forced = len(legal) == 1
        if self.forced:
            chosen = [(0.0, legal[0])]
        else:
            ranked = ranked_moves(view, self.rng, JUDGE)
            chosen = ranked[:candidates] + [pair for pair in ranked[candidates:]
                                            if isinstance(pair[1], GoOut) or pair[1] == made]
        self.moves = [move for _, move in chosen]
        self.prior = [value for value, _ in chosen]
        self.made = None if made is None else self.moves.index(made)
        self.totals = [0.0] * len(self.moves)
        self.counts = [0] * len(self.moves)
        self.active = list(range(len(self.moves)))
        self.deals = 0
        self._hand: Hand | None = None
        self._results: list[float] = []

    @property
    def busy(self) -> bool:
        """Whether a deal is half followed."""
        return self._hand is not None

    def step(self) -> None:
        """Follow the next candidate on the current deal (drawing a new deal first if none is open)."""
        view = self.view
        if self._hand is None:
            self._hand, self._results = sample_hand(view, self.rng), []
        hand = self._hand
        hand.apply(self.moves[self.active[len(self._results)]])
        self._results.append(play_out(hand, view.player, JUDGE_TURNS, JUDGE))
        hand.undo()
        if len(self._results) < len(self.active):
            return
        for index, value in zip(self.active, self._results):
            self.totals[index] += value
            self.counts[index] += 1
        self._hand = None
        self.deals += 1
        if self.deals == PRUNE_DEALS:
            values = self.values()
            ranked = sorted((i for i in self.active if i != self.made), key=lambda i: (-values[i], i))
            kept = ranked[:KEEP] if self.made is None else [self.made, *ranked[:KEEP - 1]]
            self.active = sorted(kept)

    def run(self, deals: int = JUDGE_DEALS) -> JudgedSearch:
        """Search until `deals` deals are done (none for a forced move); returns itself."""
        while not self.forced and self.deals < deals:
            self.step()
        return self

    def values(self) -> list[float]:
        """Each candidate's expected value: its deals' average, with the one-move value counted as a
        few deals' worth of evidence (as the searching levels weigh it)."""
        return [(total + EXPERT_PRIOR * prior) / (count + EXPERT_PRIOR)
                for total, prior, count in zip(self.totals, self.prior, self.counts)]

    def best(self) -> int:
        """The index in `moves` of the best candidate still followed (the first listed, on a tie)."""
        values = self.values()
        return max(self.active, key=lambda i: (values[i], -i))


_finished: OrderedDict[str, JudgedSearch] = OrderedDict()
"""The last `REMEMBERED` searches `judged_move` finished, by the view they searched (`public_key`)."""


def judged_move(view: PlayerView) -> Move:
    """The move the judging search, run to its full deal count, finds best in `view` (AIError if the view is not
    waiting for its player). The search is remembered for `taken_up`."""
    key = public_key(view)
    search = _finished.pop(key, None) or JudgedSearch(view).run()
    _finished[key] = search
    while len(_finished) > REMEMBERED:
        _finished.popitem(last=False)
    return search.moves[search.best()]


def taken_up(view: PlayerView, made: Move) -> JudgedSearch | None:
    """The finished search behind a hint in `view` whose move `made` then was, with that move as its `made`: what
    `JudgedSearch(view, made).run()` would end as (the same candidates on the same deals), without searching
    again; None if no hint there chose `made`."""
    search = _finished.get(public_key(view))
    if search is None or search.moves[search.best()] != made:
        return None
    taken = copy.copy(search)
    taken.made = search.moves.index(made)
    return taken
