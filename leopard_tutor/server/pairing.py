"""Who plays whom in a round the teacher pairs: every student present meets a classmate, one left over (an odd
number) meets the computer.

Chosen in this order, over every way of pairing the round (searched depth first, best pairs tried first, at most
`SEARCH_STEPS` steps, so thirty students are paired in milliseconds):

1. as few repeated opponents as can be: a pair that has met before costs the times they met; meeting the computer
   costs the times the student met it (so it goes round the class);
2. a round robin while one is possible: among pairs that have not met, those of the circle method (one student
   fixed, the rest turning one place a round) over the students in a fixed order, for this round's number; with
   the same students every round, each meets every other once before anyone meets anyone twice;
3. then by score: the students ranked by points (a win 1, a draw a half), each paired as near their own rank as
   the above allows, the computer ranked last (so, once everyone has met it, it meets the lowest ranked).

Stdlib only, no server: tested by itself (`tests/test_pairing.py`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

SEARCH_STEPS = 20000
"""The most pairs the search tries before it keeps the best pairing found so far."""
REPEAT, OFF_CIRCLE = 1_000_000, 1_000
"""What a repeated meeting and a pair outside the round robin cost, against at most `OFF_CIRCLE - 1` for the
distance in rank of one pair: each weighs more than all of the next kind together."""


@dataclass(frozen=True)
class Pairing:
    """A round's pairs: (first seat, second seat) of each classmates' table, and the student who plays the computer
    (None if nobody does)."""

    pairs: tuple[tuple[str, str], ...]
    computer: str | None


def met_counts(meetings: Iterable[tuple[str, str | None]]) -> Counter[frozenset[str | None]]:
    """How often each pair met, from the store's (student, opponent) of every meeting (`ClassStore.meetings`:
    opponent None for the computer; each pair of classmates is listed once from each side)."""
    return Counter(frozenset((student, opponent)) for student, opponent in meetings
                   if opponent is None or student < opponent)


def circle_pairs(order: Sequence[str | None], number: int) -> set[frozenset[str | None]]:
    """The round robin's pairs (circle method) of round `number` (from 1) among `order` (an even number of places;
    None: the computer's place)."""
    if len(order) < 2:
        return set()
    fixed, turning = order[0], list(order[1:])
    shift = (number - 1) % len(turning)
    seated = [fixed, *turning[shift:], *turning[:shift]]
    return {frozenset((seated[index], seated[-1 - index])) for index in range(len(seated) // 2)}


def pair_round(students: Sequence[str], number: int, *, met: Mapping[frozenset[str | None], int],
               points: Mapping[str, float]) -> Pairing:
    """Pair `students` (visitors, each once) for round `number`, given how often each pair `met` before (the computer
    as None) and each student's `points`: see the module's rules. The first seat of a table alternates with the
    round's number. Deterministic."""
    order: list[str | None] = [*sorted(students)]
    if len(order) % 2:
        order.append(None)
    circle = circle_pairs(order, number)
    ranked = sorted(order, key=lambda who: (who is None, -points.get(who, 0.0) if who else 0.0, who or ""))
    rank = {who: index for index, who in enumerate(ranked)}

    costs: dict[tuple[str | None, str | None], int] = {}

    def cost(first: str | None, second: str | None) -> int:
        found = costs.get((first, second))
        if found is None:
            pair = frozenset((first, second))
            times = met.get(pair, 0)
            distance = min(abs(rank[first] - rank[second]), OFF_CIRCLE - 1)  # the computer ranks last
            found = costs[first, second] = times * REPEAT + (not times and pair not in circle) * OFF_CIRCLE + distance
        return found

    best: list[tuple[str | None, str | None]] = []
    best_cost = [float("inf")]
    steps = [0]
    chosen: list[tuple[str | None, str | None]] = []

    def search(left: list[str | None], spent: int) -> None:
        if not left:
            if spent < best_cost[0]:
                best_cost[0], best[:] = spent, list(chosen)
            return
        first, rest = left[0], left[1:]
        for second in sorted(rest, key=lambda other: (cost(first, other), rank[other])):
            if (steps[0] >= SEARCH_STEPS or best_cost[0] < OFF_CIRCLE) and best:
                return  # out of steps, or the round robin's own pairs found: none can do better
            steps[0] += 1
            step = cost(first, second)
            if spent + step >= best_cost[0]:
                break  # the candidates come cheapest first: none after this one can do better
            chosen.append((first, second))
            search([who for who in rest if who != second], spent + step)
            chosen.pop()

    search(ranked, 0)
    pairs: list[tuple[str, str]] = []
    computer = None
    for first, second in best:
        if first is None or second is None:
            computer = second if first is None else first
            continue
        low, high = sorted((first, second))
        pairs.append((low, high) if number % 2 else (high, low))
    return Pairing(tuple(sorted(pairs)), computer)
