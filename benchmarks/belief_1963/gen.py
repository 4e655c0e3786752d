"""Rows for the belief: hands of the master (4 deals a move) against expert@20b2e17 (6 deals) or itself, 1963 rules.

usage: gen.py FIRST_SEED COUNT OUT.jsonl [AGAINST]
AGAINST: expert@20b2e17 (the default, 6 deals a move) or master (the master as shipped, 4 deals a move).
At every decision with a choice of the master in seat `seed % 2` (the other seat's player is the one modelled), one
JSON line: for each card that master has not seen, its features (`beliefs.NAMES`), how many copies the other player
holds and how many are unseen.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from beliefs import History
from expert_20b2e17 import ExpertPlayer as OldExpert

from leopard_tutor.ai.players import MasterPlayer
from leopard_tutor.engine import RULE_SETS, Hand

OLD_EXPERT = "expert@20b2e17"


def main() -> None:
    """Play the hands and append their rows."""
    first, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    against = sys.argv[4] if len(sys.argv) > 4 else OLD_EXPERT
    if against not in (OLD_EXPERT, "master"):
        raise SystemExit(f"AGAINST is {OLD_EXPERT} or master, not {against!r}")
    rules = RULE_SETS["ORIGINAL_1963"]
    with open(out, "a") as file:
        for seed in range(first, first + count):
            me = seed % 2
            hand = Hand.deal(rules, seed=seed, dealer=0)
            master = MasterPlayer(seed * 2, time_budget=60.0)
            other = (OldExpert if against == OLD_EXPERT else MasterPlayer)(seed * 2 + 1, time_budget=60.0)
            master.deals, other.deals = 4, 6 if against == OLD_EXPERT else 4
            players = {me: master, 1 - me: other}
            history = History(me)
            while not hand.is_over:
                mover = hand.to_move
                view = hand.view(mover)
                if mover == me and len(view.legal_moves()) > 1 and view.other_hand_size:
                    held = Counter(hand.held[1 - me])
                    unseen = Counter(view.unseen())
                    rows = [[*history.features(view.squares, rules, card), held[card], copies]
                            for card, copies in sorted(unseen.items())]
                    file.write(json.dumps({"seed": seed, "t": history.decisions, "h": view.other_hand_size,
                                           "n": sum(unseen.values()), "rows": rows}) + "\n")
                move = players[mover].choose(view)
                if mover != me:
                    history.see(hand, move)
                hand.apply(move)
            file.flush()


if __name__ == "__main__":
    main()
