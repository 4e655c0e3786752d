"""Matches: the cut, alternating deals, totals, the winner or a draw, saving and loading."""

from __future__ import annotations

import json
import random

import pytest

from leopard_tutor.engine import ORIGINAL_1963, REVISED_2008, GoOut, Hand, LeopardError, Match, SavedGameError
from leopard_tutor.engine.match import RESULTS, cut_for_deal, results_of


def finish(hand: Hand, rng: random.Random) -> None:
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_moves()))


def test_the_cut_draws_again_on_equal_ranks_and_the_higher_rank_deals() -> None:
    for seed in range(300):
        dealer, draws = cut_for_deal(random.Random(seed))
        *ties, (first, second) = draws
        assert all(a.rank == b.rank for a, b in ties)
        assert first.rank != second.rank and dealer == (0 if first.rank > second.rank else 1)
    assert any(len(cut_for_deal(random.Random(seed))[1]) > 1 for seed in range(300))


def test_four_hands_with_the_deal_alternating_and_totals() -> None:
    match = Match(seed=7)
    rng = random.Random(7)
    dealers = []
    while True:
        dealers.append(match.current.dealer)
        finish(match.current, rng)
        if match.is_over:
            break
        with pytest.raises(LeopardError, match="over"):
            match.winner  # noqa: B018
        match.next_hand()
    assert dealers[0] == match.first_dealer and dealers == [dealers[0], 1 - dealers[0]] * 2
    assert len(match.results) == 4
    assert match.totals == tuple(sum(r[p] for r in match.results) for p in (0, 1))
    first, second = match.totals
    assert match.winner == (None if first == second else 0 if first > second else 1)
    expected = ["drawn", "drawn"] if first == second else ["won", "lost"] if first > second else ["lost", "won"]
    assert [match.result_for(player) for player in (0, 1)] == expected
    with pytest.raises(LeopardError, match="match is over"):
        match.next_hand()


def test_a_drawn_match() -> None:
    match = Match(seed=1, hands=1)
    hand = match.current
    while not hand.is_over:  # both squares stay empty: discard everything
        hand.apply(next(m for m in hand.legal_moves() if type(m).__name__ == "Discard"))
    assert match.totals == (0, 0) and match.is_over and match.winner is None
    assert match.result_for(0) == match.result_for(1) == "drawn"
    assert [results_of(totals) for totals in ((3, 3), (4, 1), (1, 4))] == [
        (RESULTS[1],) * 2, (RESULTS[0], RESULTS[2]), (RESULTS[2], RESULTS[0])], "the class server's counts too"


def test_next_hand_needs_the_current_one_finished() -> None:
    with pytest.raises(LeopardError, match="finish the hand"):
        Match(seed=2).next_hand()


def test_saved_match_round_trips() -> None:
    match = Match(ORIGINAL_1963, seed="club night", hands=3)
    rng = random.Random(3)
    finish(match.current, rng)
    match.next_hand()
    match.current.apply(rng.choice(match.current.legal_moves()))
    restored = Match.from_json(match.to_json())
    assert restored.to_json() == match.to_json()
    assert restored.current == match.current and restored.totals == match.totals
    assert restored.hand_number == 2 and restored.rules is ORIGINAL_1963


@pytest.mark.parametrize("text", ["", "[]", '{"format": "leopard-tutor/match", "version": 1}',
                                  '{"format": "leopard-tutor/match", "version": 1, "rules": "REVISED_2008", '
                                  '"hands": 4, "seed": 1, "hands_played": []}'])
def test_corrupt_saved_matches(text: str) -> None:
    with pytest.raises(SavedGameError):
        Match.from_json(text)


def test_a_saved_match_with_a_foreign_hand_is_refused() -> None:
    match = Match(seed=5)
    other = Match(seed=6)
    text = match.to_json().replace(match.current.to_json()[:-1][1:], other.current.to_json()[:-1][1:])
    with pytest.raises(SavedGameError, match="not dealt by this match"):
        Match.from_json(text)


def test_bad_match_settings() -> None:
    for hands in (0, 21, 10**9, 4.0, True):
        with pytest.raises(LeopardError):
            Match(hands=hands)  # type: ignore[arg-type]
    saved = json.loads(Match(seed=1).to_json())
    saved["hands"] = 10**9
    with pytest.raises(SavedGameError, match="1 to 20 hands"):
        Match.from_json(json.dumps(saved))
    with pytest.raises(LeopardError):
        Match(seed=[1, 2])  # type: ignore[arg-type]
    assert REVISED_2008.hands_per_match == Match(seed=1).hands == 4
    assert GoOut() not in Match(seed=1).current.legal_moves()
