"""The plain reference rules in benchmarks/ agree with the engine, so the speed ratio compares like with like."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import engine_speed
import reference_engine

from leopard_tutor.engine import RULE_SETS, Hand


@pytest.mark.parametrize("key", list(RULE_SETS))
def test_reference_and_engine_agree_on_random_hands(key: str) -> None:
    assert engine_speed.first_disagreement(RULE_SETS[key], range(100)) is None


@pytest.mark.parametrize("key", list(RULE_SETS))
def test_reference_deals_the_engine_deal(key: str) -> None:
    for seed in range(20):
        hand = Hand.deal(RULE_SETS[key], seed=seed, dealer=seed % 2)
        reference = reference_engine.ReferenceHand(key, seed, dealer=seed % 2)
        assert [[(c.rank, c.suit) for c in held] for held in hand.held] == reference.hands
        assert hand.stock_size == len(reference.stock)
        assert hand.to_move == reference.to_move


def test_the_check_catches_a_rule_the_reference_gets_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    # kings allowed on the other player's square: the move sets must differ somewhere
    wrong_king = reference_engine.Placement(own_only=False, numbered=False, target="any", face_up=True)
    monkeypatch.setitem(reference_engine.PLACEMENT, 13, wrong_king)
    problem = engine_speed.first_disagreement(RULE_SETS["REVISED_2008"], range(20))
    assert problem is not None
    assert any(f"play K{suit} on" in problem for suit in "SHDC"), problem


def test_the_check_catches_a_scoring_slip(monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = reference_engine.Rules(3, 1, 7, 8, 1, draws_per_turn=1, multiple_plays=False)  # bonus above 8
    monkeypatch.setitem(reference_engine.RULES, "REVISED_2008", wrong)
    problem = engine_speed.first_disagreement(RULE_SETS["REVISED_2008"], range(200))
    assert problem is not None and "scores" in problem
