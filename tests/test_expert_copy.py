"""The copy of the expert of commit 20b2e17 (benchmarks/expert_20b2e17, the opponent of benchmarks/duel.py) chooses
the moves that commit's own expert chose in 250 seeded positions of the three rule sets, recorded by
benchmarks/expert_20b2e17/record.py in a worktree of that commit (a fixed deal cap and a clock that never moves)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from expert_20b2e17 import ExpertPlayer

from leopard_tutor.engine import RULE_SETS, Hand
from leopard_tutor.engine.moves import move_from_data

RECORDED = json.loads((Path(__file__).parent / "data" / "expert_20b2e17_moves.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("rules_key", sorted(RULE_SETS))
def test_the_copy_chooses_the_old_experts_moves(rules_key: str) -> None:
    """In every recorded position of the rule set, the copy picks the move the old expert picked."""
    positions = [record for record in RECORDED["positions"] if record["rules"] == rules_key]
    assert len(positions) >= 60
    for record in positions:
        hand = Hand.deal(RULE_SETS[rules_key], seed=record["deal"], dealer=record["dealer"])
        for index in record["path"]:
            hand.apply(sorted(hand.legal_moves(), key=str)[index])
        player = ExpertPlayer(record["expert_seed"], time_budget=RECORDED["time_budget"], deals=RECORDED["deals"],
                              clock=lambda: 0.0)
        assert player.choose(hand.view(hand.to_move)) == move_from_data(record["move"]), record
