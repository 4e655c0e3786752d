"""Who plays whom in a round (`server/pairing.py`): everyone seated once; no repeated opponent while a pairing
without one exists (checked against every pairing of small classes); a whole round robin with the same students;
then pairs by score, the computer meeting the lowest ranked; the same answer every time."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest

from leopard_tutor.server.pairing import Pairing, circle_pairs, met_counts, pair_round


def names(count: int) -> list[str]:
    return [f"s{number:02d}" for number in range(count)]


def everyone(pairing: Pairing) -> list[str]:
    return sorted([*(who for pair in pairing.pairs for who in pair), *([pairing.computer] if pairing.computer else [])])


def meetings(pairing: Pairing) -> list[tuple[str, str | None]]:
    """The store's rows of a round: each student with their opponent (None: the computer)."""
    rows: list[tuple[str, str | None]] = [row for first, second in pairing.pairs
                                          for row in ((first, second), (second, first))]
    return rows + ([(pairing.computer, None)] if pairing.computer else [])


def fewest_repeats(students: Sequence[str], met: Counter[frozenset[str | None]]) -> int:
    """The fewest repeated meetings any pairing of `students` has (every pairing tried)."""
    places: list[str | None] = [*students, *([None] if len(students) % 2 else [])]

    def pairings(left: list[str | None]) -> Iterator[list[frozenset[str | None]]]:
        if not left:
            yield []
            return
        for index in range(1, len(left)):
            rest = left[1:index] + left[index + 1:]
            for more in pairings(rest):
                yield [frozenset((left[0], left[index])), *more]
    return min(sum(met.get(pair, 0) for pair in pairing) for pairing in pairings(places))


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 9, 30, 31])
def test_everyone_present_is_seated_once_and_an_odd_one_plays_the_computer(count: int) -> None:
    students = names(count)
    pairing = pair_round(students, 1, met=Counter(), points={})
    assert everyone(pairing) == students
    assert (pairing.computer is not None) == (count % 2 == 1)
    assert all(first != second for first, second in pairing.pairs)


@pytest.mark.parametrize("count", [4, 6, 7, 12, 30, 31])
def test_the_same_class_plays_a_whole_round_robin_before_any_repeat(count: int) -> None:
    students, rows = names(count), []
    rounds = count - 1 if count % 2 == 0 else count
    for number in range(1, rounds + 1):
        pairing = pair_round(students, number, met=met_counts(rows), points={})
        assert not any(met_counts(rows).get(frozenset(pair)) for pair in meetings(pairing)), f"round {number}"
        rows += meetings(pairing)
    met = met_counts(rows)
    assert all(met[frozenset(pair)] == 1 for pair in itertools.combinations(students, 2))
    if count % 2:
        assert all(met[frozenset((who, None))] == 1 for who in students), "the computer goes round the class"


def test_with_students_coming_and_going_no_repeat_while_a_pairing_without_one_exists() -> None:
    rng = random.Random(34)
    class_ = names(8)
    rows: list[tuple[str, str | None]] = []
    for number in range(1, 25):
        present = sorted(rng.sample(class_, rng.randint(2, 8)))
        met = met_counts(rows)
        pairing = pair_round(present, number, met=met, points={who: rng.randint(0, 5) for who in present})
        assert everyone(pairing) == present
        found = sum(met.get(frozenset(pair), 0) for pair in [*pairing.pairs, *(
            [(pairing.computer, None)] if pairing.computer else [])])
        assert found == fewest_repeats(present, met), f"round {number}: {pairing}"
        rows += meetings(pairing)


def test_once_everyone_has_met_pairs_go_by_score_and_the_computer_meets_the_lowest() -> None:
    students = ["ana", "ben", "cat", "dan", "eve"]
    rows = [(first, second) for first in students for second in students if first != second]
    rows += [(who, None) for who in students]
    points = {"ana": 1.0, "ben": 4.0, "cat": 0.5, "dan": 3.0, "eve": 2.0}  # ranked: ben, dan, eve, ana, cat
    pairing = pair_round(students, 9, met=met_counts(rows), points=points)
    assert {frozenset(pair) for pair in pairing.pairs} == {frozenset(("ben", "dan")), frozenset(("eve", "ana"))}
    assert pairing.computer == "cat"


def test_a_pairing_is_the_same_every_time_and_first_seats_alternate_by_round() -> None:
    students = names(10)
    assert pair_round(students, 3, met=Counter(), points={}) == pair_round(list(reversed(students)), 3,
                                                                            met=Counter(), points={})
    odd, even = pair_round(students[:2], 1, met=Counter(), points={}), pair_round(students[:2], 2, met=Counter(),
                                                                                   points={})
    assert odd.pairs[0] == tuple(reversed(even.pairs[0]))


def test_the_circle_method_meets_everyone_once() -> None:
    order: list[str | None] = [*names(5), None]
    pairs = [pair for number in range(1, 6) for pair in circle_pairs(order, number)]
    assert len(pairs) == len(set(pairs)) == 15
