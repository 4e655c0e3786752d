"""The students of a class server: a name, and what each has earned here, kept as aggregates in the class store.

Each visitor (a browser, known by its kernel: `student_handlers.py`) reports through its kernel: a name, what it earned
in that kernel (a stage solved with its stars, practice answers right and wrong: `lessons.progress.Progress`'s earned
listeners), a whole match's result against the computer with the match's id, each hand played to its end (the match's id
and the hand's number), what it is doing now, and each failed try of a Learn stage (the latest `TRIES_KEPT` kept, for
the class page's "stuck" mark). A record is made when a name is kept (`Students.name`), never at a visit: `me` of a
visitor without one answers from nothing and stores nothing, and any other report of theirs is refused "unknown_student"
(after "Forget this class", or once the record expired: the kernel then forgets the name and the page asks again), so no
record is ever without a name.

The store keeps, per student, one row: the best stars per lesson, right and wrong per practice concept, won / drawn
/ lost and hands played per opponent (each match and hand once: the ids of the latest `MATCHES_KEPT` are kept), the
last report of what they do, when last seen, and whether the teacher unlocked every lesson. Nothing grows with
clicks: a row's size is bounded by the lessons, concepts and opponents. Progress a browser brings from its storage
stays with the student's own page: the class page counts only what this server saw. A record unseen for
`RECORD_DAYS` is forgotten.

The matches between classmates are not a page's to report: the class's tables decide and keep them, and the Games
cell counts them from there (`standings.tally`, as the standings do), beside the hands the pages report.

The teacher reads the class as rows of cells (`Students.rows`: the `PAGE_ROWS` students seen last, by name, with a
cell per stage; the CSV holds every one), unlocks lessons, sets the class's default rules and opponent level, and
forgets the class. Standard library only (no Jupyter, no tornado), so it is tested without a server.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import secrets
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..class_codes import ClassTableError, valid_name
from ..engine import RULE_SETS
from ..engine.catalogue import text
from ..engine.match import RESULTS
from ..engine.rules import MAX_HANDS
from ..lessons import LESSONS, current_lessons
from ..lessons.progress import CONCEPTS, MAX_COUNT, Progress
from ..protocol import CLASSMATE, COMPUTER, DOINGS, LEVEL_CHOICES, MATCH_ID_LENGTH
from .class_store import ClassStore, RoundMatch, StudentRow
from .standings import Standing

HANDS = "hands"
"""Where a student's games per opponent count the hands played to their end (beside the matches' `RESULTS`)."""
OPPONENTS = (*(COMPUTER + level for level in LEVEL_CHOICES), CLASSMATE)
"""Whom a game may be against: the computer at a level, or a classmate."""
MATCH_ID = re.compile(rf"[0-9a-f]{{{MATCH_ID_LENGTH}}}")
"""A match's id as a kernel reports it (`client.student_client.match_id`: from its rules, hands and seed)."""
MATCHES_KEPT = 1000
"""The ids of a student's latest matches and hands (a match's id and the hand's number) kept to count each once; an
older one reported again counts again."""
RECORD_DAYS = 183
"""A student's record is kept this many days after they were last seen (a term and its holidays), then forgotten
(at the next record made, and at start): nothing a visitor does makes the store grow for longer."""
QUIET_SECONDS = 120.0
"""A student whose page is connected but whose last report of what they do is older than this is quiet: the class page
says how long their page has sent no news (a page tells it again at the first click after
`protocol.NOW_AGAIN_SECONDS`, less than this)."""
PAGE_ROWS = 200
"""The class page's refresh shows the students seen last, this many at most (the CSV holds every one)."""
ID_LENGTH = 16
"""Characters of a student's id on the class page (a hash of the visitor: the page never holds an identity)."""
COLUMNS = ("name", "lessons", "practice", "games", "now", "last_seen")
"""The class page's columns, in order (their titles are under "teacher.columns")."""
CSV_ROWS = 200
"""Rows of the CSV made at a time (`Students.csv_parts`), so that its sender can let others in between."""
LESSON_KEYS = frozenset(lesson.key for lesson in LESSONS)
"""The lessons a stage solved may name."""
TRIES_KEPT = 10
"""A student's latest failed tries of a stage kept (`Students.tried`), the oldest dropped first."""
MOST_CANDIDATES = 32
"""Names a page may propose at most for the server to offer one of (`Students.offer`)."""
OFFERED_SECONDS = 3600.0
"""How long a name offered to one page is not offered to another (in memory only)."""
MOST_OFFERED = 1000
"""Names offered lately remembered at most (the oldest forgotten first), so that nothing builds up."""
CLASS_ID = "class_id"
"""The class setting holding the class's id (`Students.class_id`)."""
CLASS_UNLOCKED = "unlock_all"
"""The class setting, once the teacher has unlocked every lesson for the whole class: "1" (a record made later is
made unlocked too), else unset."""
CLASS_ID_LENGTH = 16
"""Hex digits of a class's id."""
STUCK_TRIES = 3
STUCK_SECONDS = 600.0
"""A student who failed the same stage `STUCK_TRIES` times within `STUCK_SECONDS`, without solving it since, is
stuck on it (the class page marks them)."""


def student_id(visitor: str) -> str:
    """The id the class page knows a student by."""
    return hashlib.sha256(visitor.encode()).hexdigest()[:ID_LENGTH]


@dataclass(frozen=True)
class Presence:
    """What the server knows of the students now, beyond their records: what the class page reads beside them.

    `connected(visitor)`: whether any page of that visitor is connected now (else they are away); `classmates`: the
    matches between classmates each student played, by visitor (`standings.tally`); `rounds`: the matches against
    the computer the rounds gave a student, by visitor (`Referee.computer_matches`); `left`: when each visitor's last
    page went (`SessionBook.left`), which counts as seen then, if it is later than their last report; `started`: when
    the server started (`SessionBook.started`): a student away who was last seen before it and has had no page
    connected since is "not seen since the restart", not away (their page may still be open, waiting to be reloaded:
    the server cannot know); `doings`: what each student does, as the connected page that told last said it
    (`SessionBook.doings`), where the store's record (the last page to tell, which may have closed since) says it
    otherwise; `waiting`: the students at a class table whose classmate is to move, by visitor, that classmate's name
    (`ClassPage.waiting_for`): their page has no news because they wait."""

    connected: Callable[[str], bool]
    classmates: Mapping[str, Standing] = field(default_factory=dict)
    rounds: Mapping[str, Sequence[RoundMatch]] = field(default_factory=dict)
    left: Mapping[str, float] = field(default_factory=dict)
    started: float | None = None
    doings: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    waiting: Mapping[str, str] = field(default_factory=dict)

    def row(self, row: StudentRow, now: float) -> dict[str, Any]:
        """`row` as the page shows it now: {"id", "unlock_all", "away", "cells"}."""
        return _row(_seen(row, self.left, self.doings), now, self.connected(row.visitor),
                    self.classmates.get(row.visitor), self.rounds.get(row.visitor, ()),
                    _unseen_since(row, self.left, self.started), self.waiting.get(row.visitor))


class Students:
    """The students' records in `store`: at most `limit` records of students whose page is connected now."""

    def __init__(self, store: ClassStore, *, limit: int = 1000, clock: Callable[[], float] = time.time,
                 renamed: Callable[[str, str], None] = lambda visitor, name: None) -> None:
        """`renamed(visitor, name)` is called once a student's record keeps a name (`name`): the class tables name
        them so (`Referee.rename`)."""
        self.store, self.limit, self.clock, self.renamed = store, limit, clock, renamed
        self._offered: dict[str, tuple[float, str | None]] = {}
        """The names offered lately (`offer`), with when and to which visitor, oldest first: in memory only, at most
        `MOST_OFFERED`."""
        self._lock = threading.RLock()
        """Held through each read, change and write of a record, so that two reports at once (a kernel reports from
        a thread of its own) or a report and the teacher's unlocking never undo each other's change."""
        store.expire_students(clock() - RECORD_DAYS * 86400)

    # -- what a student's kernel reports ---------------------------------------------------------
    def _known(self, visitor: str) -> StudentRow:
        """`visitor`'s record, seen now; refused "unknown_student" if there is none (it is made by a name only)."""
        row = self.store.student(visitor)
        if row is None:
            raise ClassTableError("unknown_student")
        return replace(row, last_seen=self.clock())

    def me(self, visitor: str) -> dict[str, Any]:
        """What `visitor`'s kernel is told: the name, what they earned here as a progress code, the unlock, the
        class's defaults. A visitor without a record is told so (no name, nothing earned; the lessons open if the whole
        class's are: `class_unlocked`). Nothing is stored: a page
        asks again every few seconds whether its lessons were unlocked, which is no news of the student's (their
        "Last seen" moved on while "Now" said they had sent none for minutes)."""
        row = self.store.student(visitor)
        if row is None:
            return {"name": None, "progress": None, "unlock_all": self.class_unlocked(), "defaults": self.defaults(),
                    "class": self.class_id()}
        progress = None
        if row.stars or row.practice:
            kept = Progress()
            kept.stars = dict(row.stars)
            kept.practice = {concept: (pair[0], pair[1]) for concept, pair in row.practice.items()}
            progress = kept.to_code()
        return {"name": row.name, "progress": progress, "unlock_all": row.unlock_all, "defaults": self.defaults(),
                "class": self.class_id()}

    def offer(self, names: object, visitor: str | None = None) -> str | None:
        """One of `names` (a page's made-up names, at most `MOST_CANDIDATES`, each checked: refused "bad_name") that
        no student's record keeps and that was not offered to another visitor's page in the last `OFFERED_SECONDS`
        (a page of `visitor` reloaded asks first for the name it was offered: it is still theirs): the first such,
        remembered as offered to `visitor`; None if there is none. Nothing is stored."""
        if not isinstance(names, list) or not 0 < len(names) <= MOST_CANDIDATES:
            raise ClassTableError("bad_name")
        try:
            candidates = [valid_name(name) for name in names]
        except ClassTableError:  # (a page's own made-up names: one that is not a name says nothing more of it)
            raise ClassTableError("bad_name") from None
        with self._lock:
            now = self.clock()
            offered = self._offered
            for old in [name for name, (at, _to) in offered.items() if now - at > OFFERED_SECONDS]:
                del offered[old]
            in_use = self.store.names_in_use(candidates)
            found = next((name for name in candidates if name not in in_use
                          and (name not in offered or (visitor is not None and offered[name][1] == visitor))), None)
            if found is not None:
                offered.pop(found, None)  # (the latest last: the oldest go first)
                offered[found] = (now, visitor)
                while len(offered) > MOST_OFFERED:
                    del offered[next(iter(offered))]
            return found

    def name(self, visitor: str, name: object, connected: Collection[str] = ()) -> None:
        """Keep `visitor`'s name (`class_codes.valid_name`: refused "bad_name" or "no_name"), making their record if
        they have none: refused "class_full" if `limit` of the `connected` visitors (those whose page is connected
        now) have one already. Refused "name_taken" if another of them keeps it, in any case: two students in the
        room at once are told apart by their names (a name kept by a page now closed is not refused: it may be this
        student's own, from another browser)."""
        found = valid_name(name)
        with self._lock:
            now = self.clock()
            taken = self.store.kept_among(found, set(connected) - {visitor})
            if taken is not None:
                raise ClassTableError("name_taken", name=taken)
            row = self.store.student(visitor)
            if row is None:
                if self.store.students_among(set(connected) - {visitor}) >= self.limit:
                    raise ClassTableError("class_full", most=self.limit)
                self.store.expire_students(now - RECORD_DAYS * 86400)
                row = StudentRow(visitor, found, now, unlock_all=self.class_unlocked())
            self.store.put_student(replace(row, name=found, last_seen=now))
            self.renamed(visitor, found)

    def progress(self, visitor: str, stars: object, practice: object) -> None:
        """Add what `visitor` earned in their kernel since their last report: `stars` {lesson key: 1 to 3} (a
        stage solved: the best is kept) and `practice` {concept: [right, wrong]} (answers given: added, each count
        at most `MAX_COUNT`); one of them may be None. Anything else is refused ("bad_progress") and changes
        nothing."""
        if stars is None and practice is None:
            raise ClassTableError("bad_progress")
        stars = {} if stars is None else stars
        practice = {} if practice is None else practice
        if not (isinstance(stars, dict) and all(key in LESSON_KEYS and _whole(n, 1, 3) for key, n in stars.items())
                and isinstance(practice, dict) and all(
                    concept in CONCEPTS and isinstance(pair, list) and len(pair) == 2
                    and all(_whole(n, 0, MAX_COUNT) for n in pair) for concept, pair in practice.items())):
            raise ClassTableError("bad_progress")
        with self._lock:
            row = self._known(visitor)
            kept_stars = {**row.stars, **{key: max(n, row.stars.get(key, 0)) for key, n in stars.items()}}
            kept_practice = {concept: list(pair) for concept, pair in row.practice.items()}
            for concept, (right, wrong) in practice.items():
                old = kept_practice.get(concept, [0, 0])
                kept_practice[concept] = [min(MAX_COUNT, old[0] + right), min(MAX_COUNT, old[1] + wrong)]
            tries = [found for found in row.tries if found[0] not in stars]  # a stage solved is no longer stuck
            self.store.put_student(replace(row, stars=kept_stars, practice=kept_practice, tries=tries))

    def tried(self, visitor: str, lesson: object) -> None:
        """Count a failed try of the stage `lesson` (a key of `LESSON_KEYS`, else refused "bad_try") by `visitor`,
        now; only the latest `TRIES_KEPT` are kept."""
        if not (isinstance(lesson, str) and lesson in LESSON_KEYS):
            raise ClassTableError("bad_try")
        with self._lock:
            row = self._known(visitor)
            self.store.put_student(replace(row, tries=[*row.tries, [lesson, row.last_seen]][-TRIES_KEPT:]))

    def game(self, visitor: str, against: object, result: object, match: object, hand: object = None) -> bool:
        """Count one whole match of `visitor`, its id `match` (`MATCH_ID`), against the computer (`against`, one of
        `OPPONENTS` but a classmate, whose matches the tables count) with `result` (one of `RESULTS`); or, with `hand`
        (its number in the match, 1 to `MAX_HANDS`) and no `result`, one hand of that match (against any of
        `OPPONENTS`) played to its end. Each match and each hand counts once (keyed by the match's id, and the hand's
        number: a saved game resumed and finished again is not counted again); anything else is refused
        ("bad_game"). Whether it was counted."""
        whole = result in RESULTS and hand is None and against != CLASSMATE
        if against not in OPPONENTS or not (isinstance(match, str) and MATCH_ID.fullmatch(match)) or not (
                whole or (result is None and _whole(hand, 1, MAX_HANDS))):
            raise ClassTableError("bad_game")
        counted = HANDS if hand is not None else str(result)
        with self._lock:
            row = self._known(visitor)
            games = {opponent: dict(counts) for opponent, counts in row.games.items()}
            counts = games.setdefault(str(against), dict.fromkeys(RESULTS, 0))
            counts[counted] = min(MAX_COUNT, counts.get(counted, 0) + 1)
            key = match if hand is None else f"{match}:{hand}"
            return self.store.put_student_match(replace(row, games=games), key, MATCHES_KEPT)

    def now(self, visitor: str, doing: object, stage: object = None, with_: object = None,
            match: object = None) -> dict[str, Any]:
        """Keep what `visitor` does now: a tab of `DOINGS`, Learn's `stage` (1 to the number of lessons, or
        None), a classmate's name `with_` (or None), the id of the match against the computer played (`MATCH_ID`, or
        None); anything else is refused ("bad_doing"). The record kept, with when ("at"), which the server's sessions
        keep for the page that told it (`SessionBook.told`)."""
        whole = isinstance(stage, int) and not isinstance(stage, bool) and 1 <= stage <= len(LESSONS)
        if doing not in DOINGS or not (stage is None or whole):
            raise ClassTableError("bad_doing")
        if match is not None and not (isinstance(match, str) and MATCH_ID.fullmatch(match)):
            raise ClassTableError("bad_doing")
        try:
            classmate = None if with_ is None else valid_name(with_)
        except ClassTableError:
            raise ClassTableError("bad_doing") from None
        with self._lock:
            row = self._known(visitor)
            told = {"doing": doing, "stage": stage, "with": classmate, "match": match, "at": row.last_seen}
            self.store.put_student(replace(row, doing=told))
            return told

    # -- the class's settings --------------------------------------------------------------------
    def defaults(self) -> dict[str, str | None]:
        """The class's default rules (a key of RULE_SETS) and opponent level (of `LEVEL_CHOICES`), None if unset."""
        return {"rules": self.store.setting("rules"), "level": self.store.setting("level")}

    def set_defaults(self, rules: object, level: object) -> None:
        """Set the class's defaults (None unsets one); an unknown rule set or level is a ValueError, changing
        nothing."""
        if not (rules is None or (isinstance(rules, str) and rules in RULE_SETS)) or not (
                level is None or level in LEVEL_CHOICES):
            raise ValueError("the rules are a rule set's key and the level one the app offers")
        with self.store.transaction():  # both or neither
            self.store.set_setting("rules", None if rules is None else str(rules))
            self.store.set_setting("level", None if level is None else str(level))

    # -- the teacher's -------------------------------------------------------------------------
    def unlock(self, who: str) -> int:
        """Unlock every lesson for the student `who` (an id of `student_id`), or for the whole class ("all": every
        student, and each whose record is made later); how many records changed. A `LookupError` if `who` is no
        student's."""
        with self._lock, self.store.transaction():
            if who == "all":
                self.store.set_setting(CLASS_UNLOCKED, "1")
                return self.store.unlock_students(None)
            visitor = next((visitor for visitor in self.store.visitors() if student_id(visitor) == who), None)
            if visitor is None:
                raise LookupError(who)
            return self.store.unlock_students(visitor)

    def name_for(self, who: str) -> str:
        """The name the student `who` (an id of `student_id`) keeps; a `LookupError` if `who` is no student's."""
        with self._lock:
            found = self.store.names_of(self.store.visitors())
        name = next((name for visitor, name in found.items() if student_id(visitor) == who), None)
        if name is None:
            raise LookupError(who)
        return name

    def class_unlocked(self) -> bool:
        """Whether the teacher has unlocked every lesson for the whole class (`unlock` "all")."""
        return self.store.setting(CLASS_UNLOCKED) == "1"

    def forget(self) -> int:
        """Remove every student's record from the store, and the class's id (the next is another); how many records
        there were."""
        with self._lock, self.store.transaction():
            self.store.set_setting(CLASS_ID, None)
            self.store.set_setting(CLASS_UNLOCKED, None)  # (the next class's lessons open as each student goes)
            return self.store.forget_students()

    def class_id(self) -> str:
        """The class's id: made at the first question, and made anew once the class is forgotten, so a page that
        kept a student's name under another id knows the name was forgotten with it."""
        with self._lock:
            found = self.store.setting(CLASS_ID)
            if found is None:
                found = secrets.token_hex(CLASS_ID_LENGTH // 2)
                self.store.set_setting(CLASS_ID, found)
            return found

    def count(self) -> int:
        """How many students' records there are."""
        return self.store.student_count()

    def rows(self, presence: Presence, most: int = PAGE_ROWS, here: Collection[str] = ()) -> list[dict[str, Any]]:
        """The class as the teacher reads it: every student among the visitors `here` (their page connected now),
        and the students seen last up to `most` rows (so that records made and left in a burst never hide the
        students in the room), ordered by name (case ignored; the latest seen first among equal names), a row each:
        {"id", "unlock_all", "away", "cells", "stages", "stuck"}, the cells in `COLUMNS`' order, each {"text",
        "sort"} (what the page shows, and the value it sorts by: a number, a word, or a list compared part by part),
        the stages one {"stage" (from 1), "title" (in the page's language), "stars" (0 to 3)} per lesson in order,
        "stuck" {"stage", "text"} for a student stuck on a stage (`STUCK_TRIES`), else None; each read with what
        the server knows of them now (`presence`)."""
        now = self.clock()
        titles = [lesson.title for lesson in current_lessons()]
        present = self.store.students_of(here)
        seen = {row.visitor for row in present}
        recent = [row for row in self.store.recent_students(most) if row.visitor not in seen]
        shown = sorted([*present, *recent[:max(0, most - len(present))]],
                       key=lambda row: (row.name.casefold(), -row.last_seen))
        return [{**presence.row(row, now), "stages": _stages(row, titles), "stuck": _stuck(row, now)}
                for row in shown]

    def csv_parts(self, presence: Presence) -> Iterator[str]:
        """The class's rows as CSV, every student in the order they came, in parts of `CSV_ROWS` rows: the columns'
        titles, then each row's texts (the cells of `rows`, read with `presence`), a text a spreadsheet would take for
        a formula (a name such as "=1+1") preceded by an apostrophe."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([text(f"teacher.columns.{column}") for column in COLUMNS])
        after = 0
        while True:
            found = self.store.students(after=after, most=CSV_ROWS)
            now = self.clock()
            for _, row in found:
                writer.writerow([not_a_formula(cell["text"]) for cell in presence.row(row, now)["cells"]])
            yield out.getvalue()
            out.seek(0)
            out.truncate()
            if len(found) < CSV_ROWS:
                return
            after = found[-1][0]

    def csv(self, presence: Presence) -> str:
        """The whole CSV of `csv_parts`, as one text."""
        return "".join(self.csv_parts(presence))


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _seen(row: StudentRow, left: Mapping[str, float], doings: Mapping[str, dict[str, Any]]) -> StudentRow:
    """`row` last seen when the student's last page went (of `left`), if that is later than their last report, and
    doing what their connected page that told last said (of `doings`), if one has."""
    gone, doing = left.get(row.visitor), doings.get(row.visitor)
    if doing is not None:
        row = replace(row, doing=doing)
    return row if gone is None or gone <= row.last_seen else replace(row, last_seen=gone)


def _unseen_since(row: StudentRow, left: Mapping[str, float], started: float | None) -> bool:
    """Whether `row`'s student was last seen before the server `started` and no page of theirs has gone since (of
    `left`): with none connected now, none has been since the start."""
    return started is not None and row.last_seen < started and row.visitor not in left


def _row(row: StudentRow, now: float, connected: bool, classmates: Standing | None,
         round_matches: Sequence[RoundMatch] = (), unseen_since_start: bool = False,
         waiting_for: str | None = None) -> dict[str, Any]:
    away = _away(row, now, connected)
    return {"id": student_id(row.visitor), "unlock_all": row.unlock_all, "away": away,
            "cells": [_name(row), _lessons(row), _practice(row), _games(row, classmates),
                      _now(row, now, away, round_matches, unseen_since_start and not connected, waiting_for),
                      _last_seen(row, now)]}


def _stages(row: StudentRow, titles: list[str]) -> list[dict[str, Any]]:
    """One cell per lesson, in order: its stage, its title (`titles`, in the page's language), the stars kept."""
    return [{"stage": number, "title": title, "stars": row.stars.get(lesson.key, 0)}
            for number, (lesson, title) in enumerate(zip(LESSONS, titles, strict=True), start=1)]


def _stuck(row: StudentRow, now: float) -> dict[str, Any] | None:
    """The stage `row`'s student is stuck on (failed `STUCK_TRIES` times in the last `STUCK_SECONDS`, not solved
    since: a solve drops its tries), the one tried last if several, with the words saying so; else None."""
    recent: dict[str, int] = {}
    for lesson, at in row.tries:  # the oldest first: the stage tried last is counted last
        if now - at <= STUCK_SECONDS and lesson in LESSON_KEYS:
            recent[lesson] = recent.pop(lesson, 0) + 1
    stuck = [(lesson, count) for lesson, count in recent.items() if count >= STUCK_TRIES]
    if not stuck:
        return None
    lesson, count = stuck[-1]
    stage = next(number for number, found in enumerate(LESSONS, start=1) if found.key == lesson)
    return {"stage": stage, "text": text("teacher.stuck", stage=stage, count=count,
                                         minutes=round(STUCK_SECONDS / 60))}


def _cell(words: str, sort: float | str | list[float | str]) -> dict[str, Any]:
    return {"text": words, "sort": sort}


def _name(row: StudentRow) -> dict[str, Any]:
    return _cell(row.name, row.name.casefold())


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


def _games(row: StudentRow, classmates: Standing | None = None) -> dict[str, Any]:
    """The Games cell: per opponent, the whole matches (and how they ended) and the hands played to their end;
    sorted by matches, then hands. The matches against classmates are `classmates`' (the tables' own count, as the
    standings have it), their hands the pages'."""
    words, matches, hands = [], 0, 0
    joined = text("teacher.games.joined")
    for opponent in OPPONENTS:
        counts = dict(row.games.get(opponent) or {})
        if opponent == CLASSMATE:
            counts.update({"won": 0, "drawn": 0, "lost": 0} if classmates is None else
                          {"won": classmates.won, "drawn": classmates.drawn, "lost": classmates.lost})
        played, finished = sum(counts.get(result, 0) for result in RESULTS), counts.get(HANDS, 0)
        if not played and not finished:
            continue
        parts = []
        if played:
            results = joined.join(text(f"teacher.games.{result}", count=counts[result]) for result in RESULTS
                                  if counts.get(result, 0))
            parts.append(text("teacher.games.matches", matches=played, results=results))
        if finished:
            parts.append(text("teacher.games.hands", hands=finished))
        name = text("teacher.classmate") if opponent == CLASSMATE else text(
            f"levels.names.{opponent.removeprefix(COMPUTER)}")
        words.append(text("teacher.games.line", opponent=name, counts=joined.join(parts)))
        matches, hands = matches + played, hands + finished
    return _cell(text("teacher.separator").join(words) if words else text("teacher.nothing_yet"),
                 matches + hands / (MAX_COUNT + 1))


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""How a cell a spreadsheet takes for a formula begins."""


def not_a_formula(words: str) -> str:
    """`words` as a CSV cell: preceded by an apostrophe if a spreadsheet would take them for a formula."""
    return "'" + words if words.startswith(FORMULA_STARTS) else words


def _away(row: StudentRow, now: float, connected: bool) -> bool:
    """Whether the student is away: no page of theirs connected, or none that has said what they do."""
    return not connected or row.doing is None


def _now(row: StudentRow, now: float, away: bool, round_matches: Sequence[RoundMatch] = (),
         unseen_since_start: bool = False, waiting_for: str | None = None) -> dict[str, Any]:
    """What the student does, as the page last said it (a match against the computer a round gave them, of
    `round_matches`, named as that round's); how long the page has sent no news of it, if that is over
    `QUIET_SECONDS` (a page tells again at the first click after `NOW_AGAIN_SECONDS`), unless they play the classmate
    `waiting_for`, whose move it is: then that it is that classmate's turn; or how long since they were
    last seen, away; or, `unseen_since_start` (no page of theirs connected since the server started, last seen
    before), only that: whether they left, or their page waits to be reloaded, the server cannot know."""
    doing = row.doing
    if away or doing is None:
        minutes = max(0, int((now - row.last_seen) // 60))
        words = text("teacher.now.restarted") if unseen_since_start else text("teacher.now.away", minutes=minutes)
        return _cell(words, [1, minutes])  # after every tab, the longest last
    words = _doing_words(doing, round_matches)
    told = now - float(doing.get("at", 0))
    if told > QUIET_SECONDS and waiting_for is not None and doing.get("with") == waiting_for:
        words = text("teacher.now.their_turn", doing=words, name=waiting_for)
    elif told > QUIET_SECONDS:
        words = text("teacher.now.quiet", doing=words, minutes=int(told // 60))
    return _cell(words, [0, words.casefold()])


def _doing_words(doing: dict[str, Any], round_matches: Sequence[RoundMatch] = ()) -> str:
    """What a report of what the student does says: the tab, Learn's stage, the classmate played, a round's match
    against the computer (one of `round_matches`, where the page says it plays that match), or another match against
    the computer under way."""
    tab, stage, classmate = doing.get("doing"), doing.get("stage"), doing.get("with")
    given = next((found for found in round_matches if found.match == doing.get("match")), None)
    if tab == "play" and classmate:
        words = text("teacher.now.playing", name=classmate)
    elif tab == "play" and given is not None:
        words = text("teacher.now.round_computer", number=given.number)
    elif tab == "play" and doing.get("match"):
        words = text("teacher.now.computer")
    elif tab == "learn" and stage is not None:
        words = text("teacher.now.learn_stage", stage=stage)
    else:
        words = text(f"teacher.now.{tab}")
    return words


def _last_seen(row: StudentRow, now: float) -> dict[str, Any]:
    """When the student was last seen, its date and time (the CSV's), and, where that is today (`now`'s date, both in
    the server's time), "short": the time alone, which the page shows (a projected class's rows are a line shorter)."""
    seen = time.localtime(row.last_seen)
    cell = _cell(time.strftime("%Y-%m-%d %H:%M", seen), row.last_seen)
    if seen[:3] == time.localtime(now)[:3]:
        cell["short"] = time.strftime("%H:%M", seen)
    return cell
