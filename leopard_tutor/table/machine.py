"""The table as a state machine: the one table of which intent may move a table from which mode to which.

`TRANSITIONS[(mode, intent)]` lists the modes (by their `kind`, modes.py) that `intent` may lead to from `mode`;
an intent with no entry for a mode is not offered in that mode (offers.py says why, in words). Where an intent
may lead to several modes, the turn runner decides which: after a move, the hand goes on (`playing`), the device
is passed to the other person here (`passing_device`), or the hand or the match is over. `Table` changes its mode
only through `move_to`, which checks the change against this table. `mermaid()` draws it (docs/table-modes.md).
"""

from __future__ import annotations

from .modes import Mode

SEATING, PLAYING, PASSING, HAND_OVER, MATCH_OVER = "seating", "playing", "passing_device", "hand_over", "match_over"
REVIEWING, RETRYING, CLOSED = "reviewing", "retrying", "closed"
MODES = (SEATING, PLAYING, PASSING, HAND_OVER, MATCH_OVER, REVIEWING, RETRYING, CLOSED)
"""Every mode's kind, in the order a match meets them."""

AFTER_A_MOVE = (PLAYING, PASSING, HAND_OVER, MATCH_OVER)
"""Where a move (or a new deal) may lead: the turn runner's events decide."""
AFTER_A_REPLY = (PLAYING, HAND_OVER, MATCH_OVER)
"""Where a move may lead at a table with a computer or a person elsewhere (never at one device)."""

TRANSITIONS: dict[tuple[str, str], tuple[str, ...]] = {
    # a class table waiting for the classmate: no game until they sit down
    (SEATING, "sit"): (PLAYING,),
    (SEATING, "close"): (CLOSED,),
    (SEATING, "rename"): (SEATING,),
    # the hand goes on
    (PLAYING, "move"): AFTER_A_MOVE,
    (PLAYING, "receive"): AFTER_A_REPLY,
    (PLAYING, "undo"): (PLAYING,),
    (PLAYING, "hint"): (PLAYING,),
    (PLAYING, "why"): (PLAYING,),
    (PLAYING, "opponent"): (PLAYING,),
    (PLAYING, "rename"): (PLAYING,),
    (PLAYING, "cover"): (PASSING,),
    (PLAYING, "review"): (REVIEWING,),
    (PLAYING, "review_last"): (REVIEWING,),
    (PLAYING, "new_match"): (PLAYING, PASSING),
    (PLAYING, "resume"): AFTER_A_REPLY,
    (PLAYING, "close"): (CLOSED,),
    (PLAYING, "seat_computer"): AFTER_A_REPLY,
    # two people at one device, between turns
    (PASSING, "show_hand"): (PLAYING, HAND_OVER, MATCH_OVER),
    (PASSING, "rename"): (PASSING,),
    (PASSING, "new_match"): (PLAYING, PASSING),
    (PASSING, "resume"): (PLAYING,),
    (PASSING, "take_up"): (PASSING,),  # a game the browser kept, taken up behind the hand-over screen
    # a hand over, the match going on
    (HAND_OVER, "next_hand"): (PLAYING, PASSING),
    (HAND_OVER, "pass"): (PASSING,),
    (HAND_OVER, "why"): (HAND_OVER,),
    (HAND_OVER, "opponent"): (HAND_OVER,),
    (HAND_OVER, "rename"): (HAND_OVER,),
    (HAND_OVER, "cover"): (PASSING,),
    (HAND_OVER, "review"): (REVIEWING,),
    (HAND_OVER, "review_last"): (REVIEWING,),
    (HAND_OVER, "new_match"): (PLAYING, PASSING),
    (HAND_OVER, "resume"): AFTER_A_REPLY,
    (HAND_OVER, "close"): (CLOSED,),
    (HAND_OVER, "seat_computer"): (HAND_OVER,),  # the classmate went away between two hands
    # the match over
    (MATCH_OVER, "pass"): (PASSING,),
    (MATCH_OVER, "why"): (MATCH_OVER,),
    (MATCH_OVER, "opponent"): (MATCH_OVER,),
    (MATCH_OVER, "rename"): (MATCH_OVER,),
    (MATCH_OVER, "cover"): (PASSING,),
    (MATCH_OVER, "review"): (REVIEWING,),
    (MATCH_OVER, "review_last"): (REVIEWING,),
    (MATCH_OVER, "new_match"): (PLAYING, PASSING),
    (MATCH_OVER, "resume"): AFTER_A_REPLY,
    (MATCH_OVER, "close"): (CLOSED,),
    # a review shown over the table
    (REVIEWING, "review_step"): (REVIEWING,),
    (REVIEWING, "try_again"): (RETRYING,),
    (REVIEWING, "review_close"): (PLAYING, HAND_OVER, MATCH_OVER, CLOSED),
    (REVIEWING, "close"): (REVIEWING,),
    (REVIEWING, "opponent"): (REVIEWING,),
    (REVIEWING, "rename"): (REVIEWING,),
    (REVIEWING, "cover"): (PASSING,),
    (REVIEWING, "new_match"): (PLAYING, PASSING),
    (REVIEWING, "resume"): (PLAYING,),
    # a reviewed position played again against the computer (its hand may end: the mode stays until left)
    (RETRYING, "move"): (RETRYING,),
    (RETRYING, "undo"): (RETRYING,),
    (RETRYING, "hint"): (RETRYING,),
    (RETRYING, "why"): (RETRYING,),
    (RETRYING, "opponent"): (RETRYING,),
    (RETRYING, "rename"): (RETRYING,),
    (RETRYING, "retry_close"): (PLAYING, HAND_OVER, MATCH_OVER),
    (RETRYING, "new_match"): (PLAYING, PASSING),
    (RETRYING, "resume"): (PLAYING,),
    # a class table closed before its match ended
    (CLOSED, "review"): (REVIEWING,),
    (CLOSED, "review_last"): (REVIEWING,),
    (CLOSED, "seat_computer"): AFTER_A_REPLY,
    (CLOSED, "close"): (CLOSED,),
}

ACTION_INTENTS: dict[str, str] = {
    "go_out": "move", "end_turn": "move", "undo": "undo", "hint": "hint", "why": "why",
    "next_hand": "next_hand", "new_match": "new_match", "review": "review", "review_last": "review_last",
    "review_prev": "review_step", "review_next": "review_step", "review_mistake": "review_step",
    "review_goto": "review_step",
    "try_again": "try_again", "review_close": "review_close", "retry_close": "retry_close",
    "pass": "pass", "show_hand": "show_hand",
}
"""The intent each button of the board sends (picking a card, a space or the discard pile is a "move" too)."""


class TransitionError(RuntimeError):
    """A table tried a change of mode the transition table does not hold: a fault in the program."""


def allowed(mode: Mode | str, intent: str) -> tuple[str, ...]:
    """The modes `intent` may lead to from `mode` (empty: not in this mode)."""
    kind = mode if isinstance(mode, str) else mode.kind
    return TRANSITIONS.get((kind, intent), ())


def check_move(old: Mode, intent: str, new: Mode) -> None:
    """Raise a `TransitionError` unless the transition table lets `intent` take a table from `old` to `new`."""
    if new.kind not in allowed(old, intent):
        raise TransitionError(f"no transition from {old.kind} by {intent} to {new.kind}")


def mermaid() -> str:
    """The transition table as a Mermaid state diagram (intents that keep the mode are left out)."""
    lines = ["stateDiagram-v2", f"    [*] --> {PLAYING}", f"    [*] --> {SEATING}"]
    edges: dict[tuple[str, str], list[str]] = {}
    for (old, intent), targets in TRANSITIONS.items():
        for new in targets:
            if new != old:
                edges.setdefault((old, new), []).append(intent)
    lines += [f"    {old} --> {new}: {', '.join(intents)}" for (old, new), intents in edges.items()]
    return "\n".join(lines) + "\n"
