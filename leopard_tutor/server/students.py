"""The students of a class server: a name, and what each has done, kept as aggregates in the class store.

Each visitor (a browser, known by its kernel: `student_handlers.py`) reports through its kernel: a name, its
progress code (`lessons.progress.Progress.to_code`), a whole match's result, and what it is doing now. The
store keeps, per student, one row: the best stars per lesson, the larger practice record per concept, won /
drawn / lost per opponent, the last report of what they do, when last seen, and whether the teacher unlocked
every lesson. Nothing grows with clicks: a row's size is bounded by the lessons, concepts and opponents.

The teacher reads the class as rows of cells (`Students.rows`, and the same rows as CSV), unlocks lessons,
sets the class's default rules and opponent level, and forgets the class. Standard library only (no Jupyter,
no tornado), so it is tested without a server.
"""

from __future__ import annotations

import csv
import hashlib
import io
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..ai import LEVELS
from ..class_codes import ClassTableError, valid_name
from ..engine import RULE_SETS
from ..engine.catalogue import text
from ..lessons import LESSONS
from ..lessons.progress import CONCEPTS, MAX_CODE_LENGTH, MAX_COUNT, Progress, ProgressCodeError
from .class_store import ClassStore, StudentRow

ADAPTIVE = "adaptive"
"""The level menu's choice that follows the learner's results (as `widgets.play_section.ADAPTIVE`)."""
LEVEL_CHOICES = (*LEVELS, ADAPTIVE)
"""The opponent levels the app offers, as the Play section's menu lists them."""
DOING = ("learn", "play", "practice", "examples", "rules")
"""What a student may report doing: the app's tabs."""
RESULTS = ("won", "drawn", "lost")
CLASSMATE = "classmate"
COMPUTER = "computer:"
OPPONENTS = (*(COMPUTER + level for level in LEVEL_CHOICES), CLASSMATE)
"""Whom a game may be against: the computer at a level, or a classmate."""
LIVE_SECONDS = 600.0
"""A student seen this recently counts as live (the server's idle kernels are culled after as long)."""
AWAY_SECONDS = 120.0
"""A student whose last report is older than this is away."""
ID_LENGTH = 16
"""Characters of a student's id on the class page (a hash of the visitor: the page never holds an identity)."""
COLUMNS = ("name", "lessons", "practice", "games", "now", "last_seen")
"""The class page's columns, in order (their titles are under "teacher.columns")."""


def student_id(visitor: str) -> str:
    """The id the class page knows a student by."""
    return hashlib.sha256(visitor.encode()).hexdigest()[:ID_LENGTH]


class Students:
    """The students' records in `store`: at most `limit` live students (seen in the last `LIVE_SECONDS`)."""

    def __init__(self, store: ClassStore, *, limit: int = 1000, clock: Callable[[], float] = time.time) -> None:
        self.store, self.limit, self.clock = store, limit, clock
        self._lock = threading.RLock()
        """Held through each read, change and write of a record, so that two reports at once (a kernel reports from
        a thread of its own) or a report and the teacher's unlocking never undo each other's change."""

    # -- what a student's kernel reports ---------------------------------------------------------
    def _record(self, visitor: str) -> StudentRow:
        """`visitor`'s record, seen now; a new one (unless `limit` students are live: refused "class_full")."""
        now = self.clock()
        row = self.store.student(visitor)
        if row is None:
            if self.store.seen_since(now - LIVE_SECONDS) >= self.limit:
                raise ClassTableError("class_full", most=self.limit)
            return StudentRow(visitor, "", now)
        return replace(row, last_seen=now)

    def me(self, visitor: str) -> dict[str, Any]:
        """What `visitor`'s kernel is told: the name, the stored progress code, the unlock, the class's defaults."""
        with self._lock:
            row = self._record(visitor)
            self.store.put_student(row)
        progress = None
        if row.stars or row.practice:
            kept = Progress()
            kept.stars = dict(row.stars)
            kept.practice = {concept: (pair[0], pair[1]) for concept, pair in row.practice.items()}
            progress = kept.to_code()
        return {"name": row.name or None, "progress": progress, "unlock_all": row.unlock_all,
                "defaults": self.defaults()}

    def name(self, visitor: str, name: object) -> None:
        """Keep `visitor`'s name (`class_codes.valid_name`: refused "bad_name" or "no_name")."""
        found = valid_name(name)
        with self._lock:
            self.store.put_student(replace(self._record(visitor), name=found))

    def progress(self, visitor: str, code: object) -> None:
        """Merge the progress `code` into `visitor`'s record: the best stars per lesson, and per practice concept
        the record with more answers. A code that cannot be read is refused ("bad_progress", with the key of its
        problem, which a reader may word in their own language) and changes nothing."""
        if not isinstance(code, str) or len(code) > MAX_CODE_LENGTH:
            raise ClassTableError("bad_progress", problem="sections.progress.too_long")
        try:
            Progress.from_code(code)  # read before anything is written
        except ProgressCodeError as error:
            raise ClassTableError("bad_progress", problem=error.key) from None
        with self._lock:
            row = self._record(visitor)
            record = Progress()  # the merge is the kernel's own (`Progress.merge_code`)
            record.stars.update(row.stars)
            record.practice.update({concept: (pair[0], pair[1]) for concept, pair in row.practice.items()})
            record.merge_code(code)
            practice = {concept: list(pair) for concept, pair in record.practice.items()}
            self.store.put_student(replace(row, stars=dict(record.stars), practice=practice))

    def game(self, visitor: str, against: object, result: object) -> None:
        """Count one whole match of `visitor` against `against` (one of `OPPONENTS`) with `result` (one of
        `RESULTS`); anything else is refused ("bad_game")."""
        if against not in OPPONENTS or result not in RESULTS:
            raise ClassTableError("bad_game")
        with self._lock:
            row = self._record(visitor)
            games = {opponent: dict(counts) for opponent, counts in row.games.items()}
            counts = games.setdefault(str(against), dict.fromkeys(RESULTS, 0))
            counts[str(result)] = min(MAX_COUNT, counts.get(str(result), 0) + 1)
            self.store.put_student(replace(row, games=games))

    def now(self, visitor: str, doing: object, stage: object = None, with_: object = None) -> None:
        """Keep what `visitor` does now: a tab of `DOING`, Learn's `stage` (1 to the number of lessons, or
        None), a classmate's name `with_` (or None); anything else is refused ("bad_doing")."""
        whole = isinstance(stage, int) and not isinstance(stage, bool) and 1 <= stage <= len(LESSONS)
        if doing not in DOING or not (stage is None or whole):
            raise ClassTableError("bad_doing")
        try:
            classmate = None if with_ is None else valid_name(with_)
        except ClassTableError:
            raise ClassTableError("bad_doing") from None
        with self._lock:
            row = self._record(visitor)
            self.store.put_student(replace(row, doing={"doing": doing, "stage": stage, "with": classmate,
                                                       "at": row.last_seen}))

    # -- the class's settings --------------------------------------------------------------------
    def defaults(self) -> dict[str, str | None]:
        """The class's default rules (a key of RULE_SETS) and opponent level (of `LEVEL_CHOICES`), None if unset."""
        return {"rules": self.store.setting("rules"), "level": self.store.setting("level")}

    def set_defaults(self, rules: object, level: object) -> None:
        """Set the class's defaults (None unsets one); an unknown rule set or level is a ValueError, changing
        nothing."""
        if not (rules is None or rules in RULE_SETS) or not (level is None or level in LEVEL_CHOICES):
            raise ValueError("the rules are a rule set's key and the level one the app offers")
        self.store.set_setting("rules", None if rules is None else str(rules))
        self.store.set_setting("level", None if level is None else str(level))

    # -- the teacher's -------------------------------------------------------------------------
    def unlock(self, who: str) -> int:
        """Unlock every lesson for the student `who` (an id of `student_id`), or for every student ("all");
        how many records changed."""
        with self._lock:
            if who == "all":
                return self.store.unlock_students(None)
            visitor = next((row.visitor for row in self.store.students() if student_id(row.visitor) == who), None)
            return 0 if visitor is None else self.store.unlock_students(visitor)

    def forget(self) -> int:
        """Remove every student's record from the store; how many there were."""
        with self._lock:
            return self.store.forget_students()

    def rows(self, connected: Callable[[str], bool]) -> list[dict[str, Any]]:
        """The class as the teacher reads it, a row per student: {"id", "unlock_all", "away", "cells"}, the cells
        in `COLUMNS`' order, each {"text", "sort"} (what the page shows, and the value it sorts by).
        `connected(visitor)`: whether any page of that visitor is connected now (else they are away)."""
        now = self.clock()
        rows = []
        for row in self.store.students():
            away = _away(row, now, connected(row.visitor))
            rows.append({"id": student_id(row.visitor), "unlock_all": row.unlock_all, "away": away,
                         "cells": [_name(row), _lessons(row), _practice(row), _games(row), _now(row, now, away),
                                   _last_seen(row)]})
        return rows

    def csv(self, connected: Callable[[str], bool]) -> str:
        """The class's rows as CSV: the columns' titles, then each row's texts (the cells of `rows`), a text a
        spreadsheet would take for a formula (a name such as "=1+1") preceded by an apostrophe."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([text(f"teacher.columns.{column}") for column in COLUMNS])
        for row in self.rows(connected):
            writer.writerow([_not_a_formula(cell["text"]) for cell in row["cells"]])
        return out.getvalue()


def _cell(words: str, sort: float | str) -> dict[str, Any]:
    return {"text": words, "sort": sort}


def _name(row: StudentRow) -> dict[str, Any]:
    return _cell(row.name or text("teacher.no_name"), row.name.casefold())


def _lessons(row: StudentRow) -> dict[str, Any]:
    done = sum(1 for lesson in LESSONS if row.stars.get(lesson.key, 0) > 0)
    stars = sum(row.stars.get(lesson.key, 0) for lesson in LESSONS)
    return _cell(text("teacher.lessons", done=done, total=len(LESSONS), stars=stars), done * 100 + stars)


def _practice(row: StudentRow) -> dict[str, Any]:
    shares = sorted((round(100 * right / (right + wrong)), CONCEPTS.index(concept), concept, right + wrong)
                    for concept, (right, wrong) in row.practice.items() if concept in CONCEPTS and right + wrong)
    if not shares:
        return _cell(text("teacher.nothing_yet"), 101)
    words = [text("teacher.practice", concept=text(f"lessons.practice.concepts.{concept}"), share=share,
                  answers=answers) for share, _, concept, answers in shares]
    return _cell(text("teacher.separator").join(words), shares[0][0])


def _games(row: StudentRow) -> dict[str, Any]:
    words, total = [], 0
    for opponent in OPPONENTS:
        counts = row.games.get(opponent)
        if not counts:
            continue
        name = text("teacher.classmate") if opponent == CLASSMATE else text(
            f"levels.names.{opponent.removeprefix(COMPUTER)}")
        words.append(text("teacher.games", opponent=name, **{result: counts.get(result, 0) for result in RESULTS}))
        total += sum(counts.get(result, 0) for result in RESULTS)
    return _cell(text("teacher.separator").join(words) if words else text("teacher.nothing_yet"), total)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""How a cell a spreadsheet takes for a formula begins."""


def _not_a_formula(words: str) -> str:
    return "'" + words if words.startswith(FORMULA_STARTS) else words


def _away(row: StudentRow, now: float, connected: bool) -> bool:
    """Whether the student is away: no page of theirs connected, or no report for `AWAY_SECONDS`."""
    return not connected or row.doing is None or now - float(row.doing.get("at", 0)) > AWAY_SECONDS


def _now(row: StudentRow, now: float, away: bool) -> dict[str, Any]:
    doing = row.doing
    if away or doing is None:
        minutes = max(0, int((now - row.last_seen) // 60))
        return _cell(text("teacher.now.away", minutes=minutes), f"~{minutes:09d}")  # sorts after every tab
    tab, stage, classmate = doing.get("doing"), doing.get("stage"), doing.get("with")
    if tab == "play" and classmate:
        words = text("teacher.now.playing", name=classmate)
    elif tab == "learn" and stage is not None:
        words = text("teacher.now.learn_stage", stage=stage)
    else:
        words = text(f"teacher.now.{tab}")
    return _cell(words, words.casefold())


def _last_seen(row: StudentRow) -> dict[str, Any]:
    return _cell(time.strftime("%Y-%m-%d %H:%M", time.localtime(row.last_seen)), row.last_seen)
