"""The adaptive opponent: one level up after two match wins in a row, one level down after two losses."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.match import RESULTS
from ..protocol import LEVELS
from .players import AIError

STREAK = 2  # matches won (or lost) in a row that move the level


class AdaptiveLevel:
    """Which level the learner meets next, moved by their match results (seen from the learner).

    Two wins in a row move it one level up, two losses in a row one level down; a draw, or a move,
    starts the count again. It never goes past the strongest or the weakest level.
    """

    def __init__(self, start: str = LEVELS[0], levels: Sequence[str] = LEVELS) -> None:
        if start not in levels:
            raise AIError(f"unknown level {start!r}: choose one of {', '.join(levels)}")
        self.levels = tuple(levels)
        self.index = self.levels.index(start)
        self.wins = 0
        self.losses = 0

    @property
    def level(self) -> str:
        """The level to play now."""
        return self.levels[self.index]

    @property
    def at_top(self) -> bool:
        """Whether the level is the strongest there is (a streak of wins cannot move it up)."""
        return self.index == len(self.levels) - 1

    @property
    def at_bottom(self) -> bool:
        """Whether the level is the weakest there is (a streak of losses cannot move it down)."""
        return self.index == 0

    def to_data(self) -> dict[str, object]:
        """What a browser keeps of it (`from_data` reads it): the level reached and the wins and losses in a row."""
        return {"level": self.level, "wins": self.wins, "losses": self.losses}

    @classmethod
    def from_data(cls, data: object, levels: Sequence[str] = LEVELS) -> AdaptiveLevel:
        """The adaptive level `to_data` gave (an `AIError` if `data` is not one: it came back from a browser)."""
        if not isinstance(data, dict):
            raise AIError("an adaptive level is kept as a mapping")
        level, wins, losses = data.get("level"), data.get("wins"), data.get("losses")
        if not isinstance(level, str) or level not in levels:
            raise AIError("the adaptive level kept is not a level")
        if not (type(wins) is int and type(losses) is int and 0 <= wins < STREAK and 0 <= losses < STREAK
                and not (wins and losses)):  # (a bool is no count)
            raise AIError("the wins and losses in a row kept are not a streak the adaptive level can be in")
        adaptive = cls(level, levels)
        adaptive.wins, adaptive.losses = wins, losses
        return adaptive

    def record(self, result: str) -> str:
        """Count one finished match ("won", "drawn" or "lost" for the learner: `Match.result_for`) and say what it
        did to the level: "up" or "down", "up_top" or "down_bottom" (a move that reached the strongest or the weakest
        level), "top" or "bottom" (a streak that cannot move it further), or "" (nothing)."""
        if result not in RESULTS:
            raise AIError(f"a match result is one of {', '.join(RESULTS)}, not {result!r}")
        self.wins = self.wins + 1 if result == "won" else 0
        self.losses = self.losses + 1 if result == "lost" else 0
        if self.wins < STREAK and self.losses < STREAK:
            return ""
        up = self.wins >= STREAK
        self.wins = self.losses = 0
        if up:
            if self.at_top:
                return "top"
            self.index += 1
            return "up_top" if self.at_top else "up"
        if self.at_bottom:
            return "bottom"
        self.index -= 1
        return "down_bottom" if self.at_bottom else "down"
