"""Golden transcripts: seeded hands written out move by move with the engine's reasons.

Any change in what the engine decides or says shows up as a readable diff. To accept a deliberate
change, run with LEOPARD_UPDATE_TRANSCRIPTS=1 and review the diff of tests/data/transcripts/.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from leopard_tutor.engine import RULE_SETS, Hand

FOLDER = Path(__file__).parent / "data" / "transcripts"
CASES = [("REVISED_2008", 11), ("ORIGINAL_1963", 12), ("RUNNING_LEOPARD", 13)]


def transcript(rules_key: str, seed: int) -> str:
    hand = Hand.deal(RULE_SETS[rules_key], seed=seed, dealer=seed % 2)
    rng = random.Random(seed)
    lines = [f"{rules_key}, seed {seed}, dealer {hand.dealer}"]
    turn = 0
    while not hand.is_over:
        moves = hand.legal_moves()
        move = rng.choice(moves)
        player = hand.to_move
        reason = hand.check(move).reason
        hand.apply(move)
        turn += 1
        lines.append(f"{turn:3d} P{player} [{len(moves):2d} legal] {move}: {reason}")
        lines.append(f"      {hand.squares[0]}  ({hand.value(0)})  |  {hand.squares[1]}  ({hand.value(1)})")
    lines.append(f"went out: {hand.went_out}; scores {hand.scores()}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("rules_key", "seed"), CASES)
def test_transcript(rules_key: str, seed: int) -> None:
    path = FOLDER / f"{rules_key.lower()}-seed{seed}.txt"
    text = transcript(rules_key, seed)
    if os.environ.get("LEOPARD_UPDATE_TRANSCRIPTS") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
