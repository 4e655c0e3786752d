"""The class's standings: who beat whom in the matches between classmates, read from the tables' rows.

What counts (said on the class page and in the catalogue as "teacher.standings.counts"): every match two classmates
sat down to that ended by its last move ("finished") or because a player went: left it ("left"), or was gone so
long that the other finished it against the computer ("computer:LEVEL"). A finished match is won, drawn or lost by
its totals, and its totals are each player's points for and against. A match a player went from is lost for that
player and won for the other, with the points of the hands finished before. A table that closed for any other
reason (abandoned by both, nobody joined, ended by the teacher, forgotten, damaged) counts for nobody, and so does
a match ended by a player before this store kept which seat ended it. A round that gave a student the computer to
play instead of a classmate (the one left over) is their bye: counted apart, in no other column.

A student is one visitor (a browser), named by the name their record keeps now, else by the name they last sat at
a table under. Stdlib only, tested without a server.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.match import LOST, WON, results_of
from ..protocol import COMPUTER, FINISHED, LEFT
from .class_store import TableRow

STANDING_COLUMNS = ("name", "played", "won", "drawn", "lost", "for", "against", "byes")
"""A standings row's keys, in the order the page and the CSV show them (their titles: "teacher.standings.columns")."""


@dataclass
class Standing:
    """One student's matches counted: their latest name, and how many played, won, drawn, lost, points for and
    against; and their byes, the rounds that gave them the computer to play instead of a classmate (which count in
    no other column)."""

    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points_for: int = 0
    against: int = 0
    byes: int = 0

    def add(self, result: str, mine: int, theirs: int) -> None:
        """Count one match: `result` ("won", "drawn" or "lost") with `mine` points for and `theirs` against."""
        self.played += 1
        setattr(self, result, getattr(self, result) + 1)
        self.points_for += mine
        self.against += theirs

    def row(self) -> dict[str, Any]:
        """As the class page's JSON holds it (`STANDING_COLUMNS`)."""
        return {"name": self.name, "played": self.played, "won": self.won, "drawn": self.drawn, "lost": self.lost,
                "for": self.points_for, "against": self.against, "byes": self.byes}


def gone_seat(row: TableRow) -> int | None:
    """The seat whose player went from the match of `row` (left it, or was replaced by the computer); None if the
    match finished, or if the row does not say."""
    if row.ended_by is None:
        return None
    if row.ending == LEFT:
        return row.ended_by
    return 1 - row.ended_by if str(row.ending).startswith(COMPUTER) else None


def results(row: TableRow) -> tuple[str, str] | None:
    """How the match of `row` counts for seats 0 and 1 ("won", "drawn", "lost"), None if it counts for nobody."""
    if row.visitors[1] is None:
        return None
    if row.ending == FINISHED and row.scores is not None:
        return results_of(row.scores)
    gone = gone_seat(row)
    if gone is None:
        return None
    return (LOST, WON) if gone == 0 else (WON, LOST)  # the player who went loses


def scored(row: TableRow) -> bool:
    """Whether the match of `row` has points to count (`points`): it finished, or a hand of it did."""
    return (row.ending == FINISHED and row.scores is not None) or bool(row.hand_scores)


def points(row: TableRow) -> tuple[int, int]:
    """Each seat's points in the match of `row`: its totals if it finished, else the sum of its finished hands (none,
    0 each, where `scored` says so)."""
    if row.ending == FINISHED and row.scores is not None:
        return row.scores
    hands = row.hand_scores or ()
    return sum(pair[0] for pair in hands), sum(pair[1] for pair in hands)


def tally(rows: Iterable[TableRow], byes: Mapping[str, int] | None = None) -> dict[str, Standing]:
    """Each student's matches counted among `rows` (in the order they ended), by visitor, each named by the name
    they last sat at a table under; with their `byes` (by visitor: a student with byes alone is named "", for the
    standings to name by their record)."""
    kept: dict[str, Standing] = {visitor: Standing("", byes=count) for visitor, count in (byes or {}).items()}
    for row in rows:
        counted = results(row)
        if counted is None:
            continue
        scores = points(row)
        for seat in (0, 1):
            visitor, name = row.visitors[seat], row.names[seat]
            assert visitor is not None and name is not None
            standing = kept.setdefault(visitor, Standing(name))
            standing.name = name
            standing.add(counted[seat], scores[seat], scores[1 - seat])
    return kept


def standings(tallies: Mapping[str, Standing], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The standings of `tallies` (`tally`): a row per student, named by `names` (their record's name now) if there,
    ordered by won, then drawn, then points for less against (most first), then name (a student with byes alone and
    no record has no name, and no row)."""
    rows = [(visitor, {**standing.row(), "name": names.get(visitor, standing.name)})
            for visitor, standing in tallies.items() if names.get(visitor, standing.name)]
    rows.sort(key=lambda item: (-item[1]["won"], -item[1]["drawn"], item[1]["against"] - item[1]["for"],
                                str(item[1]["name"]).casefold(), item[0]))
    return [row for _, row in rows]


def local_midnight(at: float) -> float:
    """The server's local midnight that began the day of `at` (seconds since the epoch): where "today" starts."""
    day = time.localtime(at)
    return time.mktime((day.tm_year, day.tm_mon, day.tm_mday, 0, 0, 0, 0, 0, -1))
