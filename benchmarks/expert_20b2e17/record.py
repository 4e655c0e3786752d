"""Record the moves the expert of a checkout chooses in seeded positions, for tests/test_expert_copy.py.

Run with the checkout of commit 20b2e17 first on the path (a temporary worktree), so that its own ExpertPlayer
chooses; the positions are written as the indexes of the moves leading to them (among the legal moves sorted by
their notation), so that today's engine can rebuild them:

    git worktree add /tmp/e20 20b2e17
    .venv/bin/python benchmarks/expert_20b2e17/record.py --checkout /tmp/e20 --out tests/data/expert_20b2e17_moves.json
    git worktree remove /tmp/e20

Each position: a hand dealt from a seed, then a seeded number of moves, each the old greedy move (its evaluation
one move ahead, with every card known) or now and then a random one, until a position where the mover has a
choice. The expert plays with a fixed deal cap and a clock that never advances, so its moves depend on nothing
but its seed and the position.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

POSITIONS_PER_RULES = 100
DEALS = 6  # the expert's deal cap: past its first halving of the candidates
RULES = ("REVISED_2008", "ORIGINAL_1963", "RUNNING_LEOPARD")


def record(positions: int) -> list[dict[str, Any]]:
    """The positions and the expert's move in each (imports whichever leopard_tutor is first on the path)."""
    from leopard_tutor.ai.players import ExpertPlayer, greedy_move
    from leopard_tutor.engine import RULE_SETS, Hand
    from leopard_tutor.engine.moves import move_to_data

    records = []
    for rules_key in RULES:
        for index in range(positions):
            seed = 1000 + index
            rng = random.Random(f"{rules_key}|{seed}")
            hand = Hand.deal(RULE_SETS[rules_key], seed=seed, dealer=index % 2)
            plies = rng.randrange(0, 60)
            path: list[int] = []
            while not hand.is_over and (len(path) < plies or len(hand.legal_moves()) < 2):
                moves = sorted(hand.legal_moves(), key=str)
                move = rng.choice(moves) if rng.random() < 0.25 else greedy_move(hand, hand.to_move)
                path.append(moves.index(move))
                hand.apply(move)
            if hand.is_over:
                continue
            expert = ExpertPlayer(seed, time_budget=1.0, deals=DEALS, clock=lambda: 0.0)
            chosen = expert.choose(hand.view(hand.to_move))
            records.append({"rules": rules_key, "deal": seed, "dealer": index % 2, "path": path,
                            "expert_seed": seed, "move": move_to_data(chosen)})
    return records


def main(argv: list[str] | None = None) -> int:
    """Record the positions with the given checkout's expert and write them as JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkout", type=Path, required=True, help="the checkout whose expert chooses")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--positions", type=int, default=POSITIONS_PER_RULES, help="positions per rule set")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.checkout.resolve()))
    records = record(args.positions)
    data = {"deals": DEALS, "time_budget": 1.0, "positions": records}
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    import leopard_tutor

    checkout = Path(leopard_tutor.__file__).parent.parent
    print(f"{len(records)} positions chosen by the expert of {checkout}, written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
