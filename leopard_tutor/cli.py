"""The `leopard-tutor` command."""

from __future__ import annotations

import argparse
import random

from .engine import REVISED_2008, RULE_SETS, Hand, Play


def demo(rules_key: str, seed: int) -> None:
    """Print a seeded hand of random legal moves, each with the engine's reason."""
    hand = Hand.deal(RULE_SETS[rules_key], seed=seed)
    rng = random.Random(seed)
    while not hand.is_over:
        move = rng.choice(hand.legal_moves())
        player = hand.to_move
        reason = hand.check(move).reason
        hand.apply(move)
        if isinstance(move, Play):
            print(f"Player {player}: {move}. {reason}")
        else:
            print(f"Player {player}: {move}.")
    print(f"Squares: {hand.squares[0]}  |  {hand.squares[1]}")
    print(f"Scores: {hand.scores()}")


def main(argv: list[str] | None = None) -> None:
    """Entry point of the `leopard-tutor` console script."""
    parser = argparse.ArgumentParser(prog="leopard-tutor", description="Leopard Tutor")
    sub = parser.add_subparsers(dest="command")
    demo_parser = sub.add_parser("demo", help="print a seeded hand played by random legal moves")
    demo_parser.add_argument("--rules", choices=sorted(RULE_SETS), default=REVISED_2008.key)
    demo_parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    demo(getattr(args, "rules", REVISED_2008.key), getattr(args, "seed", 1))


if __name__ == "__main__":
    main()
