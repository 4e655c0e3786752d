"""One kernel's Play board flooded with New match against the expert, in this process: without the kernel's pace
(every click handled, as before the pace covered every control) and with it (pacing.py).

A click arrives every `--every` seconds, as the messages of a script that never waits would be read by the
kernel; each run lasts `--seconds`. Prints, for each run, the clicks handled (matches made), the expert's first
moves and the processor used, as a share of one processor.

Usage: nice .venv/bin/python benchmarks/new_match_flood.py [--seconds 30] [--every 0.02]
       .venv/bin/python benchmarks/new_match_flood.py --smoke    (each flood lasts 2 s)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's code, not an installed copy

from leopard_tutor.ai import make_player
from leopard_tutor.engine import Move, PlayerView
from leopard_tutor.pacing import IntentPace
from leopard_tutor.table import against_computer
from leopard_tutor.widgets import LeopardBoard

SMOKE = {"seconds": 2.0}
"""--smoke: the smallest real run (the test suite runs it): two short floods."""


class Counted:
    """The expert, counting its moves."""

    def __init__(self) -> None:
        self.expert = make_player("expert", seed=1)
        self.time_budget = self.expert.time_budget  # type: ignore[attr-defined]
        self.moves = 0

    def choose(self, view: PlayerView) -> Move:
        self.moves += 1
        return self.expert.choose(view)


def flood(paced: bool, seconds: float, every: float) -> None:
    """Flood one fresh board with New match for `seconds`, a click every `every` s, with or without the pace;
    print what it did."""
    opponent = Counted()
    board = LeopardBoard(against_computer(opponent, seed=1, background=False))
    board.pace = IntentPace()
    board.send = lambda _content, _buffers=None: None  # type: ignore[method-assign]
    handled = 0
    original = board.controller.new_match  # type: ignore[union-attr]

    def counted_new_match() -> None:
        nonlocal handled
        handled += 1
        original()
    board.controller.new_match = counted_new_match  # type: ignore[union-attr, method-assign]
    opponent.moves = 0
    intent = {"type": "action", "id": "new_match"}
    started, processor, next_click, clicks = time.monotonic(), time.process_time(), time.monotonic(), 0
    while time.monotonic() - started < seconds:
        if paced:
            board._on_custom_msg(board, intent, [])
        else:
            board.dispatch(intent)
        clicks += 1
        next_click += every
        time.sleep(max(0.0, next_click - time.monotonic()))
        next_click = max(next_click, time.monotonic() - every)  # a kernel behind reads the backlog at once
    wall, used = time.monotonic() - started, time.process_time() - processor
    print(f"{'with the pace   ' if paced else 'without the pace'}: {clicks} clicks in {wall:.0f} s, {handled} matches "
          f"made, {opponent.moves} expert moves, {used:.1f} s of processor ({used / wall:.2f} of one processor)")


def main() -> None:
    """Run the flood without the pace, then with it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30, help="how long each flood lasts")
    parser.add_argument("--every", type=float, default=0.02, help="seconds between two clicks")
    parser.add_argument("--smoke", action="store_true", help=f"the smallest real run: {SMOKE} (overrides those)")
    args = parser.parse_args()
    if args.smoke:
        vars(args).update(SMOKE)
    for paced in (False, True):
        flood(paced, args.seconds, args.every)


if __name__ == "__main__":
    main()
