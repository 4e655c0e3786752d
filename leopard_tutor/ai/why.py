"""Why the computer made a move: the hint's own reason for it, worked out from the computer's view at that
moment and told to the other player ("your opponent", "your square")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import Move, PlayerView
from ..engine.catalogue import text
from ..engine.narration import move_words
from .hints import explain


@dataclass(frozen=True)
class Why:
    """The move in words, the reason for it, and the facts the reason was filled with: (key, values),
    the key being the hint's (`hints.reason.<name>`), whose claim the hint tests know how to check."""

    move: Move
    sentence: str
    fact: tuple[str, dict[str, Any]]


def why(view: PlayerView, move: Move) -> Why:
    """Why the player of `view` made `move` there, told to the other player."""
    key, values = next((key, values) for key, values in explain(view, move).facts if key.startswith("reason."))
    reason = text(f"review.why.{key}", **values)
    told = move_words(move, "report", view.opponent)
    return Why(move, text("review.why.said", move=told, reason=reason), (f"hints.{key}", values))
