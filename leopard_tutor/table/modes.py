"""What a table is doing, one value at a time: playing, waiting for a seat elsewhere, handing the device over,
reviewing a hand, or trying a reviewed position again. `Table.mode` holds one of these."""

from __future__ import annotations

from dataclasses import dataclass

from ..ai.review import HandReview, Judgement, Review
from ..engine import Hand


@dataclass(frozen=True)
class LogEntry:
    """One move of the hand in words, as each person at the table reads it (by player number)."""

    mover: int
    told: tuple[str, str]

    def text(self, viewer: int) -> str:
        """The move told to `viewer`."""
        return self.told[viewer]


@dataclass(frozen=True)
class Playing:
    """The hand goes on, with the viewer to move (or waiting for a computer, which answers at once), or it is
    over and shows its end."""


@dataclass(frozen=True)
class Waiting:
    """It is the move of `player`, who sits elsewhere: the table waits for their answer."""

    player: int


@dataclass(frozen=True)
class HandOver:
    """The device is to be passed to `player`, who sits at this page too: no hand is shown until they ask."""

    player: int


@dataclass
class Reviewing:
    """A review being stepped through: the judgements of `player`'s moves, the hand they judge (a copy), which
    hand of the match it was, and the judgement shown."""

    review: Review
    hand: Hand
    number: int
    player: int
    step: int = 0

    @property
    def judgement(self) -> Judgement:
        """The judgement shown now."""
        return self.review.judgements[self.step]


@dataclass
class Retrying:
    """A position of a reviewed hand played again: the hand (a copy, taken back to that move), the first move
    that may not be taken back, the judgement it came from, and the match's log meanwhile."""

    hand: Hand
    floor: int
    judgement: Judgement
    number: int
    saved_log: list[LogEntry]


Mode = Playing | Waiting | HandOver | Reviewing | Retrying
"""One of the table's modes."""


@dataclass(frozen=True)
class PastHand:
    """A finished hand of the match kept for its review: the hand (a copy), the reviews of the people's moves
    (by player number), and its number in the match."""

    hand: Hand
    reviewers: dict[int, HandReview]
    number: int
