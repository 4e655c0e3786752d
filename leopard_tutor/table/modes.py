"""What a table is doing, one value at a time, each meaning one thing: waiting for a classmate to sit down,
playing (whose move it is, is the turn runner's), handing the device over, a hand over, the match over, reviewing
a hand, trying a reviewed position again, or closed. `Table.mode` holds one of these; each has a `kind`, the name
the transition table (machine.py) knows it by."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..ai.review import HandReview, Judgement, Review
from ..engine import Hand


@dataclass(frozen=True)
class LogEntry:
    """One move of the hand in words, as each person at the table reads it (by player number)."""

    mover: int
    told: tuple[str, str]
    shared: str = ""
    """Between two people at one device: the move told to the other player in the words of what both may know (the
    squares as anyone sees them: no card named that either laid face down), which the hand-over screen shows to both."""

    def text(self, viewer: int) -> str:
        """The move told to `viewer`."""
        return self.told[viewer]


@dataclass(frozen=True)
class Seating:
    """A class table opened under `code`, waiting for a classmate to sit down: no game is offered yet."""

    code: str
    kind: ClassVar[str] = "seating"


@dataclass(frozen=True)
class Playing:
    """The hand goes on; whose move it is, is the turn runner's `current_player` (the viewer, the computer, which
    answers at once, or a person elsewhere, whose move the table waits for)."""

    kind: ClassVar[str] = "playing"


@dataclass(frozen=True)
class PassingDevice:
    """The device is to be passed to `player`, who sits at this page too: no hand is shown until they ask."""

    player: int
    kind: ClassVar[str] = "passing_device"


@dataclass(frozen=True)
class HandFinished:
    """The hand in play is over and the match goes on: its end is shown until the next hand is dealt."""

    kind: ClassVar[str] = "hand_over"


@dataclass(frozen=True)
class MatchFinished:
    """The match's last hand is over: its end and the match's result are shown."""

    kind: ClassVar[str] = "match_over"


ELSEWHERE = "elsewhere"
"""The `Closed.ending` of a class table whose match the person here took on against the computer in another of their
pages: it goes on there, so Finish against the computer is not offered here."""
BY_TEACHER = "teacher"
"""The `Closed.ending` of a class table the teacher ended (or cleared with the class): both players are free and its
match counts for nobody, so it is not played on (Finish against the computer is not offered: no seat is empty)."""
LEFT_HERE = "left"
"""The `Closed.ending` of a class table the person here left: its match is the classmate's to finish against the
computer, not theirs."""


@dataclass(frozen=True)
class Closed:
    """A table between classmates that has ended before its match did: `ending` is "left" (the person here left),
    "other_left" (the classmate left), "teacher" (the teacher ended it), "ended" (the server closed it otherwise) or
    "elsewhere" (the person here took its match on against the computer in another page). No move is made any more.
    `unseated`: the code of a table closed while it waited for a classmate (no game was ever shown on it), else None."""

    ending: str
    unseated: str | None = None
    kind: ClassVar[str] = "closed"

    def finishable(self, match_over: bool) -> bool:
        """Whether its match may still be finished against the computer here (Finish against the computer): not
        once it is over (`match_over`), nor on a table where no game began, nor by the one who left it, nor where it
        goes on in another page or the teacher ended it."""
        return self.unseated is None and not match_over and self.ending not in (ELSEWHERE, BY_TEACHER, LEFT_HERE)


@dataclass(frozen=True)
class Reviewing:
    """A review being stepped through: the judgements of `player`'s moves, the hand they judge (a copy), which
    hand of the match it was, the judgement shown, the mode it was opened from, and the review's maker, whose
    search may go on meanwhile (`searching`)."""

    review: Review
    hand: Hand
    number: int
    player: int
    step: int = 0
    back: Mode = field(default_factory=lambda: Playing())  # where closing the review leads back to
    reviewer: HandReview | None = field(default=None, compare=False)
    kind: ClassVar[str] = "reviewing"

    @property
    def judgement(self) -> Judgement:
        """The judgement shown now."""
        return self.review.judgements[self.step]

    @property
    def searching(self) -> HandReview | None:
        """The review's maker while its search may still change these judgements: none is final yet, and it judges the
        same moves (not once it has followed other moves)."""
        if self.reviewer is None or self.review.complete:
            return None
        same = self.reviewer.moves_judged == tuple(judgement.decision.index for judgement in self.review.judgements)
        return self.reviewer if same else None


@dataclass(frozen=True)
class Retrying:
    """A position of a reviewed hand played again: the hand (a copy, taken back to that move), the first move
    that may not be taken back, the judgement it came from, and the match's log meanwhile."""

    hand: Hand
    floor: int
    judgement: Judgement
    number: int
    saved_log: tuple[LogEntry, ...]
    kind: ClassVar[str] = "retrying"


Mode = Seating | Playing | PassingDevice | HandFinished | MatchFinished | Reviewing | Retrying | Closed
"""One of the table's modes."""


def shows_no_game(mode: Mode) -> bool:
    """Whether the table has no game to show: it waits for a classmate, or closed while it waited."""
    return isinstance(mode, Seating) or (isinstance(mode, Closed) and mode.unseated is not None)


@dataclass(frozen=True)
class PastHand:
    """A finished hand of the match kept for its review: the hand (a copy), the reviews of the people's moves
    (by player number), and its number in the match."""

    hand: Hand
    reviewers: dict[int, HandReview]
    number: int
