"""The class server's database: one SQLite file (standard library, WAL) in the server's data folder.

It keeps what must outlive a page, a kernel and the server itself: the students (a browser, the name it gave,
and what it has done as aggregates: stars per lesson, answers per practice concept, games per opponent, what
it does now, the ids of its latest matches; `students.py`), the class's settings, the tables they play at and every
accepted move, in order.
Each write is committed before the call returns, so a move is stored before any board shows it. The schema is
versioned: `schema_version` holds the version, and `MIGRATIONS[n]` takes a database from version n to n + 1 at start.

The file and SQLite's `-wal` and `-shm` beside it are this user's alone (0600), in a private folder
(`data_folder.py`); a folder or file the store cannot write stops it from opening (a `DataFolderError`, in one
line). Once open, a statement the file or its disk refuses (read-only, full, an I/O error, held by another
program) is one log line, counted in `ClassStore.failures` (which the teacher's class page shows), and a
`StoreWriteError` (a kernel's request is refused "not_stored"): the connection does this for every
statement (`KeptConnection`), so a method needs nothing of its own; SQLite has then kept nothing of the statement,
nor of the transaction it was in.

Stdlib only, no Jupyter: the class tables (`referee.py`) use it, and it is tested without a server.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..class_codes import name_key
from ..protocol import COMPUTER, FINISHED, LEFT
from .data_folder import DATABASE_NAME as DATABASE_NAME  # the store's file, kept in the data folder
from .data_folder import DataFolderError, check_writable, create_private, keep_private, make_private

log = logging.getLogger(__name__)

APP_FOLDER = "leopard-tutor"

ABANDONED, FORGOTTEN, DAMAGED, TEACHER = "abandoned", "forgotten", "damaged", "teacher"
"""How a table ended ("teacher": the teacher ended it from the class page), as its row and its players' reports say
(beside `protocol.FINISHED`, `protocol.LEFT` and `protocol.COMPUTER` + a level)."""

TABLE_IDS: tuple[str, ...] = (
    """CREATE TABLE tables_with_ids (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         code TEXT NOT NULL,
         rules TEXT NOT NULL,
         hands INTEGER NOT NULL,
         seed TEXT NOT NULL,
         visitor0 TEXT NOT NULL,
         name0 TEXT NOT NULL,
         visitor1 TEXT,
         name1 TEXT,
         opened REAL NOT NULL,
         joined REAL,
         ended REAL,
         ending TEXT,
         scores TEXT)""",
    """INSERT INTO tables_with_ids (code, rules, hands, seed, visitor0, name0, visitor1, name1, opened, joined,
         ended, ending)
       SELECT code, rules, hands, seed, visitor0, name0, visitor1, name1, opened, joined, ended, ending
       FROM tables WHERE visitor1 IS NOT NULL OR ended IS NULL ORDER BY opened""",
    """CREATE TABLE moves_by_id (
         table_id INTEGER NOT NULL REFERENCES tables_with_ids (id),
         number INTEGER NOT NULL,
         player INTEGER NOT NULL,
         move TEXT NOT NULL,
         at REAL NOT NULL,
         PRIMARY KEY (table_id, number))""",
    """INSERT INTO moves_by_id SELECT kept.id, moves.number, moves.player, moves.move, moves.at
       FROM moves JOIN tables_with_ids AS kept ON kept.code = moves.code""",
    "DROP TABLE moves",
    "DROP TABLE tables",
    "ALTER TABLE tables_with_ids RENAME TO tables",  # the moves' reference follows the new name
    "ALTER TABLE moves_by_id RENAME TO moves",
    "CREATE INDEX tables_open ON tables (ended)",
    "CREATE INDEX tables_code ON tables (code)",
)
"""A migration: each table gets its own id (a code is given again once its table has closed and rested) and a
place for its final scores; the moves reference the id; the rows of closed tables nobody joined go (nothing to
remember of them)."""

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 0 -> 1: students, tables of two seats, and their moves
        """CREATE TABLE students (
             visitor TEXT PRIMARY KEY,
             name TEXT NOT NULL,
             seen REAL NOT NULL)""",
        """CREATE TABLE tables (
             code TEXT PRIMARY KEY,
             rules TEXT NOT NULL,
             hands INTEGER NOT NULL,
             seed TEXT NOT NULL,
             visitor0 TEXT NOT NULL,
             name0 TEXT NOT NULL,
             visitor1 TEXT,
             name1 TEXT,
             opened REAL NOT NULL,
             joined REAL,
             ended REAL,
             ending TEXT)""",
        "CREATE INDEX tables_open ON tables (ended)",
        """CREATE TABLE moves (
             code TEXT NOT NULL REFERENCES tables (code),
             number INTEGER NOT NULL,
             player INTEGER NOT NULL,
             move TEXT NOT NULL,
             at REAL NOT NULL,
             PRIMARY KEY (code, number))""",
    ),
    (  # 1 -> 2: each student's record (aggregates, bounded) and the class's settings
        "ALTER TABLE students RENAME COLUMN seen TO last_seen",
        "ALTER TABLE students ADD COLUMN stars TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE students ADD COLUMN practice TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE students ADD COLUMN games TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE students ADD COLUMN doing TEXT",
        "ALTER TABLE students ADD COLUMN unlock_all INTEGER NOT NULL DEFAULT 0",
        "CREATE TABLE class_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    (  # a record only for a student who gave a name; the class page pages by last seen; each match counted once
        "DELETE FROM students WHERE name = ''",  # a visit's record (no name): never kept from now on
        "CREATE INDEX students_seen ON students (last_seen)",
        """CREATE TABLE student_matches (
             visitor TEXT NOT NULL REFERENCES students (visitor) ON DELETE CASCADE,
             match TEXT NOT NULL,
             at REAL NOT NULL,
             PRIMARY KEY (visitor, match))""",
    ),
    TABLE_IDS,
    (  # what the standings read: each finished hand's scores, and the seat that ended a table
        "ALTER TABLE tables ADD COLUMN hand_scores TEXT",
        "ALTER TABLE tables ADD COLUMN ended_by INTEGER",
    ),
    (  # each student's latest failed tries of a Learn stage (bounded), which make the class page's "stuck" mark
        "ALTER TABLE students ADD COLUMN tries TEXT NOT NULL DEFAULT '[]'",
    ),
    (  # the rounds the teacher paired, and each student's seat in them (a classmate's table, or the computer)
        """CREATE TABLE rounds (
             number INTEGER PRIMARY KEY,
             started REAL NOT NULL,
             rules TEXT NOT NULL,
             hands INTEGER NOT NULL,
             level TEXT NOT NULL)""",
        """CREATE TABLE round_seats (
             round INTEGER NOT NULL REFERENCES rounds (number),
             visitor TEXT NOT NULL,
             opponent TEXT,
             table_id INTEGER,
             PRIMARY KEY (round, visitor))""",
    ),
    (  # the deal of the match a round's student left over plays against the computer (the server's, as a table's)
        "ALTER TABLE round_seats ADD COLUMN seed TEXT",
    ),
    (  # the seats told how their table ended, as bits (1: seat 0, 2: seat 1), kept across a restart; a table stored
       # before counts as told to both, as the server held then
        "ALTER TABLE tables ADD COLUMN told INTEGER NOT NULL DEFAULT 3",
    ),
    (  # the seats whose player took the match of their table on against the computer after it closed (the classmate
       # had left it, or the server closed it), as bits (1: seat 0, 2: seat 1): one page of theirs plays it on, their
       # other pages do not; a table stored before counts as taken on by nobody
        "ALTER TABLE tables ADD COLUMN taken INTEGER NOT NULL DEFAULT 0",
    ),
    (  # which page of the student left over plays the round's match against the computer: taken by one (1), once
        "ALTER TABLE round_seats ADD COLUMN taken INTEGER NOT NULL DEFAULT 0",
    ),
)
"""The schema's migrations in order: `MIGRATIONS[n]` takes version n to n + 1."""
SCHEMA_VERSION = len(MIGRATIONS)


def default_data_dir() -> Path:
    """The user's data folder for the app: $XDG_DATA_HOME/leopard-tutor, else ~/.local/share/leopard-tutor."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_FOLDER


@dataclass(frozen=True)
class TableRow:
    """One table as stored: its code, rules key, hands a match, deal seed, the two seats' visitors and names
    (seat 1 empty until someone joins), when it was opened, joined and ended, how it ended, the match's final
    totals by seat (once it finished), its id in the store (0 until stored), the scores by seat of each hand
    finished before it closed (None: a table closed before they were kept), the seat whose player ended it
    (left it, or finished against the computer; None otherwise), the seats whose player was told how it ended, and the
    seats whose player took its match on against the computer after it closed (`ClassStore.take_table`)."""

    code: str
    rules: str
    hands: int
    seed: str
    visitors: tuple[str, str | None]
    names: tuple[str, str | None]
    opened: float
    joined: float | None = None
    ended: float | None = None
    ending: str | None = None
    scores: tuple[int, int] | None = None
    id: int = 0
    hand_scores: tuple[tuple[int, int], ...] | None = None
    ended_by: int | None = None
    told: tuple[int, ...] = ()
    taken: tuple[int, ...] = ()


@dataclass(frozen=True)
class StudentRow:
    """One student as stored: the visitor (a browser), the name given, when last seen, what they earned in this
    server's kernels (the best stars per lesson key, [right, wrong] per practice concept, {"won", "drawn", "lost"}
    counts of matches and "hands" played to their end per opponent), the last report of what they do (or None),
    whether the teacher unlocked every lesson for them, and their latest failed tries of a stage, [lesson key, time]
    each, the oldest first. (Records older than the migration that brought `student_matches` hold what kernels
    reported then: progress codes that could include what a browser brought.)"""

    visitor: str
    name: str
    last_seen: float
    stars: dict[str, int] = field(default_factory=dict)
    practice: dict[str, list[int]] = field(default_factory=dict)
    games: dict[str, dict[str, int]] = field(default_factory=dict)
    doing: dict[str, Any] | None = None
    unlock_all: bool = False
    tries: list[list[Any]] = field(default_factory=list)


@dataclass(frozen=True)
class RoundRow:
    """One round the teacher paired: its number (from 1), when, under which rules, for how many hands a match, and
    the computer level that plays the student left over."""

    number: int
    started: float
    rules: str
    hands: int
    level: str


@dataclass(frozen=True)
class RoundSeat:
    """A student's seat in a round: the visitor, their opponent (a visitor; None: the computer), the table's id
    (None against the computer), and the deal of the match against the computer (None at a table, and in a round
    stored before the server chose it)."""

    visitor: str
    opponent: str | None
    table_id: int | None
    seed: str | None = None


@dataclass(frozen=True)
class RoundMatch:
    """The match against the computer a round gave a student: the round's number, and the match's id
    (`protocol.match_key` of its rules, hands and the deal the server chose)."""

    number: int
    match: str


@dataclass(frozen=True)
class MoveRow:
    """One accepted move of a table: its number (from 0, over the whole match), the player, and the move as
    `engine.moves.move_to_data`'s dict, or {"next hand": True} for the next deal."""

    number: int
    player: int
    move: dict[str, Any]


FAILURES = {
    "attempt to write a readonly database": "read_only",
    "access permission denied": "read_only",
    "database or disk is full": "full",
    "disk I/O error": "io",
    "unable to open database file": "io",
    "database disk image is malformed": "io",
    "file is not a database": "io",
    "database is locked": "busy",
}
"""SQLite's words for a statement the file or its disk refused (its result codes READONLY, PERM, FULL, IOERR,
CANTOPEN, CORRUPT, NOTADB, BUSY), and the kind of failure each is (the class page words it). Any other error (a
constraint, a statement's mistake) is no failure of the file: it is raised as it is."""
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")
"""What SQLite adds to the file's name for the files it keeps beside it."""


def failure_kind(error: sqlite3.Error) -> str | None:
    """The kind of failure (a value of `FAILURES`) SQLite's `error` says, None if it is no failure of the file."""
    return FAILURES.get(str(error))


class StoreWriteError(Exception):
    """A change the store could not keep (`kind`: a value of `FAILURES`); nothing of it was kept. A kernel's request
    that meets one is refused with `KEY` (a text under "classmates.refused": `kernel_handler.KernelHandler`), the
    teacher's with HTTP 503 (`teacher.TeacherHandler`). It is no `ValueError`: no caller takes it for bad input."""

    KEY = "not_stored"

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass
class WriteFailures:
    """The statements the store could not carry out since it opened: how many, the last one's kind (a value of
    `FAILURES`) and when (seconds since the epoch)."""

    count: int = 0
    kind: str | None = None
    at: float | None = None

    def failed(self, kind: str, sql: str, error: sqlite3.Error) -> StoreWriteError:
        """Count a statement `sql` that failed with SQLite's `error` of `kind`, in one log line; its refusal."""
        self.count += 1
        self.kind, self.at = kind, time.time()
        log.warning("Not stored: %s... failed: %s (%d since the server started)", " ".join(sql.split()[:3]), error,
                    self.count)
        return StoreWriteError(kind)


class KeptConnection(sqlite3.Connection):
    """The store's connection (`sqlite3.connect`'s `factory`): once `failures` is set, a statement the file or its
    disk refuses (`failure_kind`) is undone with the transaction it was in, counted there (one log line) and
    raised as a `StoreWriteError`; every other result and error is sqlite3's own."""

    failures: WriteFailures | None = None
    """Where failures are counted once the store has opened; before that (checking the file) they are raised."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        """As `sqlite3.Connection.execute`."""
        try:
            return super().execute(sql, parameters)
        except sqlite3.DatabaseError as error:
            failure = self._failure(sql, error)
            if failure is None:
                raise
            raise failure from None

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        """As `sqlite3.Connection.executemany`."""
        try:
            return super().executemany(sql, parameters)
        except sqlite3.DatabaseError as error:
            failure = self._failure(sql, error)
            if failure is None:
                raise
            raise failure from None

    def _failure(self, sql: str, error: sqlite3.DatabaseError) -> StoreWriteError | None:
        """The refusal to raise for `error` of the statement `sql` (None: raise the error itself)."""
        kind = failure_kind(error)
        if kind is None or self.failures is None:
            return None
        if self.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # (what SQLite could not undo, it undoes at the next open)
                super().execute("ROLLBACK")
        return self.failures.failed(kind, sql, error)


class ClassStore:
    """The database file `path`, created (0600, in a private folder made if missing) and migrated to
    `SCHEMA_VERSION`; `failures` counts the statements it could not carry out since (`WriteFailures`)."""

    def __init__(self, path: Path) -> None:
        """Open the store; a `DataFolderError` (one line: the folder, and why) if its folder or file cannot be
        made or written: a folder read-only, a path under a file, a file read-only."""
        folder = path.parent
        make_private(folder)
        check_writable(folder)
        for companion in SQLITE_COMPANIONS:
            keep_private(path.with_name(path.name + companion))
        create_private(path)  # SQLite gives its -wal and -shm the file's mode
        self.path = path
        self.failures = WriteFailures()
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, factory=KeptConnection)
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.migrate()
            self._check_writable()
        except sqlite3.DatabaseError as error:
            if failure_kind(error) is None:
                raise
            self.db.close()
            raise DataFolderError(folder, str(error)) from None
        self.db.failures = self.failures

    def _check_writable(self) -> None:
        """Make a change to the file and undo it: SQLite opens a file it may not write read-only, unsaid."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("CREATE TABLE write_check (checked INTEGER)")
        finally:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")

    @classmethod
    def in_folder(cls, folder: Path) -> ClassStore:
        """The store in the data folder `folder` (see `ClassStore`)."""
        return cls(folder / DATABASE_NAME)

    @property
    def version(self) -> int:
        """The schema version of the file (0 for a new one)."""
        exists = self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").fetchone()
        if not exists:
            return 0
        row = self.db.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0]) if row else 0

    def migrate(self) -> None:
        """Bring the schema to `SCHEMA_VERSION`, one migration per transaction; a newer file is refused."""
        version = self.version
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"{self.path} has schema version {version}; this Leopard Tutor reads up to "
                               f"{SCHEMA_VERSION}")
        for step in range(version, SCHEMA_VERSION):
            with self.transaction():
                for statement in MIGRATIONS[step]:
                    self.db.execute(statement)
                self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                self.db.execute("DELETE FROM schema_version")
                self.db.execute("INSERT INTO schema_version VALUES (?)", (step + 1,))

    def transaction(self) -> Any:
        """A context in which statements commit together (or not at all)."""
        store = self

        class Transaction:
            def __enter__(self) -> None:
                store.db.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind: object, *_rest: object) -> None:
                if kind is None:
                    store.db.execute("COMMIT")
                elif store.db.in_transaction:  # (SQLite has undone one a failure of the file stopped)
                    store.db.execute("ROLLBACK")

        return Transaction()

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    # -- students --------------------------------------------------------------------------------
    def student_seen(self, visitor: str, name: str, at: float) -> None:
        """Keep `visitor`'s name, and that they were here at `at` (a class table's player)."""
        self.db.execute("INSERT INTO students (visitor, name, last_seen) VALUES (?, ?, ?) ON CONFLICT (visitor) "
                        "DO UPDATE SET name = excluded.name, last_seen = excluded.last_seen", (visitor, name, at))

    def student(self, visitor: str) -> StudentRow | None:
        """The record of `visitor`, if there is one."""
        found = self.db.execute(f"SELECT {STUDENT_COLUMNS} FROM students WHERE visitor = ?", (visitor,)).fetchone()
        return None if found is None else _student_row(found)

    def students(self, *, after: int = 0, most: int = -1) -> list[tuple[int, StudentRow]]:
        """The students' records in the order they came (their row numbers after `after`), at most `most` of
        them (-1: every one), each with its row number (to ask for the next ones after it)."""
        return [(number, _student_row(found)) for number, *found in self.db.execute(
            f"SELECT rowid, {STUDENT_COLUMNS} FROM students WHERE rowid > ? ORDER BY rowid LIMIT ?", (after, most))]

    def recent_students(self, most: int) -> list[StudentRow]:
        """The `most` records seen last, the latest first (read through the index on `last_seen`)."""
        return [_student_row(found) for found in self.db.execute(
            f"SELECT {STUDENT_COLUMNS} FROM students ORDER BY last_seen DESC, rowid DESC LIMIT ?", (most,))]

    def students_of(self, visitors: Collection[str]) -> list[StudentRow]:
        """The records of those of `visitors` that have one."""
        return [_student_row(found) for found in self.db.execute(
            f"SELECT {STUDENT_COLUMNS} FROM students WHERE visitor IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(visitors)),))]

    def student_count(self) -> int:
        """How many records there are."""
        return int(self.db.execute("SELECT COUNT(*) FROM students").fetchone()[0])

    def students_among(self, visitors: Collection[str]) -> int:
        """How many of `visitors` have a record."""
        return int(self.db.execute("SELECT COUNT(*) FROM students WHERE visitor IN (SELECT value FROM json_each(?))",
                                   (json.dumps(sorted(visitors)),)).fetchone()[0])

    def visitors(self) -> list[str]:
        """The visitor of every record (and nothing else of it)."""
        return [visitor for (visitor,) in self.db.execute("SELECT visitor FROM students")]

    def put_student(self, row: StudentRow) -> None:
        """Store `row` in place of the record of its visitor (or as a new one)."""
        self.db.execute(
            f"INSERT INTO students ({STUDENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (visitor) DO "
            "UPDATE SET name = excluded.name, last_seen = excluded.last_seen, stars = excluded.stars, practice = "
            "excluded.practice, games = excluded.games, doing = excluded.doing, unlock_all = excluded.unlock_all, "
            "tries = excluded.tries",
            (row.visitor, row.name, row.last_seen, json.dumps(row.stars), json.dumps(row.practice),
             json.dumps(row.games), None if row.doing is None else json.dumps(row.doing), int(row.unlock_all),
             json.dumps(row.tries)))

    def put_student_match(self, row: StudentRow, match: str, keep: int) -> bool:
        """Store `row` (its record with a match counted) if the match `match` is new to its visitor, keeping the
        ids of their `keep` latest matches; whether it was new (else nothing changes)."""
        with self.transaction():
            new = self.db.execute("INSERT OR IGNORE INTO student_matches VALUES (?, ?, ?)",
                                  (row.visitor, match, row.last_seen)).rowcount == 1
            if new:
                self.put_student(row)
                self.db.execute("DELETE FROM student_matches WHERE visitor = ? AND match NOT IN (SELECT match FROM "
                                "student_matches WHERE visitor = ? ORDER BY at DESC, rowid DESC LIMIT ?)",
                                (row.visitor, row.visitor, keep))
        return new

    def student_matches(self, visitor: str) -> int:
        """How many match ids are kept for `visitor`."""
        return int(self.db.execute("SELECT COUNT(*) FROM student_matches WHERE visitor = ?", (visitor,)).fetchone()[0])

    def expire_students(self, before: float) -> int:
        """Delete every record last seen before `before` (and its matches' ids); how many there were."""
        return self.db.execute("DELETE FROM students WHERE last_seen < ?", (before,)).rowcount

    def unlock_students(self, visitor: str | None) -> int:
        """Unlock every lesson for `visitor` (None: for every student); how many records changed (a student whose
        lessons were open already is not counted)."""
        if visitor is None:
            return self.db.execute("UPDATE students SET unlock_all = 1 WHERE unlock_all = 0").rowcount
        return self.db.execute("UPDATE students SET unlock_all = 1 WHERE visitor = ? AND unlock_all = 0",
                               (visitor,)).rowcount

    def forget_students(self) -> int:
        """Delete every student's record (and their matches' ids); how many there were."""
        return self.db.execute("DELETE FROM students").rowcount

    # -- the class's settings --------------------------------------------------------------------
    def setting(self, key: str) -> str | None:
        """The class setting `key`, if set."""
        found = self.db.execute("SELECT value FROM class_settings WHERE key = ?", (key,)).fetchone()
        return None if found is None else str(found[0])

    def set_setting(self, key: str, value: str | None) -> None:
        """Set the class setting `key` to `value` (None: unset it)."""
        if value is None:
            self.db.execute("DELETE FROM class_settings WHERE key = ?", (key,))
        else:
            self.db.execute("INSERT INTO class_settings VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = "
                            "excluded.value", (key, value))

    # -- tables ----------------------------------------------------------------------------------
    def add_table(self, row: TableRow) -> TableRow:
        """Store a new table: the row with its id."""
        cursor = self.db.execute(
            f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, 0, 0)",
            (row.code, row.rules, row.hands, row.seed, row.visitors[0], row.names[0], row.visitors[1], row.names[1],
             row.opened, row.joined, row.ended, row.ending, None if row.scores is None else json.dumps(row.scores)))
        assert cursor.lastrowid is not None
        return replace(row, id=cursor.lastrowid)

    def seat_guest(self, table_id: int, visitor: str, name: str, at: float) -> None:
        """Seat `visitor` as `name` at the empty seat of table `table_id`."""
        self.db.execute("UPDATE tables SET visitor1 = ?, name1 = ?, joined = ? WHERE id = ?",
                        (visitor, name, at, table_id))

    def rename_seat(self, table_id: int, seat: int, name: str) -> None:
        """Name the player in `seat` (0 or 1) of table `table_id` `name`."""
        self.db.execute(("UPDATE tables SET name0 = ? WHERE id = ?", "UPDATE tables SET name1 = ? WHERE id = ?")[seat],
                        (name, table_id))

    def end_table(self, table_id: int, at: float, ending: str, scores: tuple[int, int] | None = None,
                  hand_scores: Sequence[tuple[int, int]] = (), ended_by: int | None = None) -> None:
        """Record that table `table_id` ended at `at`, how (`ending`), if its match finished its `scores`, the scores
        of each hand finished (`hand_scores`) and the seat whose player ended it (`ended_by`, if one did)."""
        self.db.execute("UPDATE tables SET ended = ?, ending = ?, scores = ?, hand_scores = ?, ended_by = ? "
                        "WHERE id = ? AND ended IS NULL",
                        (at, ending, None if scores is None else json.dumps(scores),
                         json.dumps([list(pair) for pair in hand_scores]), ended_by, table_id))

    def mark_told(self, table_id: int, seat: int) -> None:
        """Keep that the player in `seat` (0 or 1) of the ended table `table_id` was told how it ended."""
        self.db.execute("UPDATE tables SET told = told | ? WHERE id = ?", (1 << seat, table_id))

    def take_table(self, table_id: int, seat: int) -> bool:
        """Keep that the player in `seat` (0 or 1) took the match of the ended table `table_id` on against the computer:
        whether this call did (False if it was taken on by them already, or the table has not ended). One statement,
        so two requests at once are decided once: the first takes it."""
        found = self.db.execute("UPDATE tables SET taken = taken | ? WHERE id = ? AND ended IS NOT NULL "
                                "AND taken & ? = 0", (1 << seat, table_id, 1 << seat))
        return found.rowcount == 1

    def delete_table(self, table_id: int) -> None:
        """Delete table `table_id` and its moves."""
        with self.transaction():
            self.db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))
            self.db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def forget_tables(self) -> int:
        """Delete every table and move; how many tables there were."""
        with self.transaction():
            self.db.execute("DELETE FROM moves")
            return self.db.execute("DELETE FROM tables").rowcount

    def table(self, code: str) -> TableRow | None:
        """The table `code` (the live one, else the latest that had that code), if there is one."""
        found = self.db.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE code = ? ORDER BY id DESC LIMIT 1",
                                (code,)).fetchone()
        return None if found is None else _table_row(found)

    def live_tables(self) -> Iterator[TableRow]:
        """Every table that has not ended, oldest first."""
        for found in self.db.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE ended IS NULL ORDER BY id").fetchall():
            yield _table_row(found)

    def closed_since(self, at: float) -> Iterator[TableRow]:
        """Every table that ended at `at` or later, in the order they ended (one query, by the index of ends)."""
        for found in self.db.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE ended >= ? ORDER BY ended, id",
                                     (at,)):
            yield _table_row(found)

    def matches_ended(self, since: float | None = None) -> Iterator[TableRow]:
        """Every table two players sat at that ended "finished", "left" or "computer:LEVEL" (at `since` or later, if
        given), in the order they ended (the standings' matches: `standings.py`)."""
        for found in self.db.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE (ending IN (?, ?) OR ending LIKE ?) "
                "AND ended >= ? AND visitor1 IS NOT NULL ORDER BY ended, id",
                (FINISHED, LEFT, COMPUTER + "%", -1.0 if since is None else since)).fetchall():
            yield _table_row(found)

    def byes(self, since: float | None = None) -> dict[str, int]:
        """How many rounds (paired at `since` or later, if given) gave each student the computer to play instead of
        a classmate (the one left over), by visitor."""
        return dict(self.db.execute(
            "SELECT s.visitor, COUNT(*) FROM round_seats s JOIN rounds r ON r.number = s.round "
            "WHERE s.opponent IS NULL AND r.started >= ? GROUP BY s.visitor", (-1.0 if since is None else since,)))

    def names_of(self, visitors: Collection[str]) -> dict[str, str]:
        """The name each of `visitors` who has a record keeps now."""
        return dict(self.db.execute("SELECT visitor, name FROM students WHERE visitor IN (SELECT value FROM "
                                    "json_each(?))", (json.dumps(sorted(visitors)),)).fetchall())

    def kept_among(self, name: str, visitors: Collection[str]) -> str | None:
        """The name as the record of one of `visitors` keeps it, if one keeps `name` or a name that reads alike
        (`class_codes.name_key`: "Ana", "ANA" and "Аna" with a Cyrillic А are one name on the class page); else
        None."""
        key = name_key(name)
        return next((kept for (kept,) in self.db.execute(
            "SELECT name FROM students WHERE visitor IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(visitors)),)) if name_key(kept) == key), None)

    def names_in_use(self, names: Collection[str]) -> set[str]:
        """Those of `names` that a student's record keeps, or a name that reads alike (`name_key`)."""
        keyed = {name_key(name): name for name in names}
        return {keyed[name_key(kept)] for (kept,) in self.db.execute("SELECT DISTINCT name FROM students")
                if name_key(kept) in keyed}

    # -- rounds ----------------------------------------------------------------------------------
    def add_round(self, row: RoundRow, seats: Iterable[RoundSeat]) -> None:
        """Store round `row` and its `seats` (inside the caller's transaction, with its tables)."""
        self.db.execute("INSERT INTO rounds VALUES (?, ?, ?, ?, ?)",
                        (row.number, row.started, row.rules, row.hands, row.level))
        self.db.executemany("INSERT INTO round_seats (round, visitor, opponent, table_id, seed) VALUES (?, ?, ?, ?, ?)",
                            ((row.number, seat.visitor, seat.opponent, seat.table_id, seat.seed) for seat in seats))

    def latest_round(self) -> tuple[RoundRow, list[RoundSeat]] | None:
        """The round paired last and its seats, if there was one."""
        found = self.db.execute("SELECT number, started, rules, hands, level FROM rounds "
                                "ORDER BY number DESC LIMIT 1").fetchone()
        if found is None:
            return None
        row = RoundRow(*found)
        return row, [RoundSeat(*seat) for seat in self.db.execute(
            "SELECT visitor, opponent, table_id, seed FROM round_seats WHERE round = ? ORDER BY visitor",
            (row.number,))]

    def computer_rounds(self) -> list[tuple[str, RoundRow, str]]:
        """Every match against the computer a round gave a student: (the student, the round, the deal's seed), the
        rounds in the order they were paired."""
        return [(visitor, RoundRow(*row), seed) for visitor, seed, *row in self.db.execute(
            "SELECT s.visitor, s.seed, r.number, r.started, r.rules, r.hands, r.level FROM round_seats s "
            "JOIN rounds r ON r.number = s.round WHERE s.opponent IS NULL AND s.seed IS NOT NULL ORDER BY r.number")]

    def meetings(self) -> list[tuple[str, str | None]]:
        """Every (student, opponent) who met: at every table two classmates sat at (a round's, or one they opened
        and joined themselves), each pair twice, once from each side; and every student a round paired with the
        computer (opponent None)."""
        return list(self.db.execute(
            "SELECT visitor, NULL FROM round_seats WHERE opponent IS NULL "
            "UNION ALL SELECT visitor0, visitor1 FROM tables WHERE visitor1 IS NOT NULL "
            "UNION ALL SELECT visitor1, visitor0 FROM tables WHERE visitor1 IS NOT NULL"))

    def take_round_seat(self, number: int, visitor: str) -> bool:
        """Keep that a page of `visitor` plays their match against the computer of round `number`: whether this call
        did (False if a page did already, or they have no such seat). One statement: two pages at once, one takes it."""
        found = self.db.execute("UPDATE round_seats SET taken = 1 WHERE round = ? AND visitor = ? "
                                "AND opponent IS NULL AND table_id IS NULL AND taken = 0", (number, visitor))
        return found.rowcount == 1

    def forget_rounds(self) -> int:
        """Delete every round and its seats; how many rounds there were."""
        with self.transaction():
            self.db.execute("DELETE FROM round_seats")
            return self.db.execute("DELETE FROM rounds").rowcount

    # -- moves -----------------------------------------------------------------------------------
    def add_move(self, table_id: int, number: int, player: int, move: dict[str, Any], at: float) -> None:
        """Store move `number` of table `table_id`; an existing number is an `sqlite3.IntegrityError`."""
        self.db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (table_id, number, player, json.dumps(move), at))

    def moves(self, table_id: int) -> list[MoveRow]:
        """The moves of table `table_id`, in order."""
        return [MoveRow(number, player, json.loads(move)) for number, player, move in self.db.execute(
            "SELECT number, player, move FROM moves WHERE table_id = ? ORDER BY number", (table_id,))]

    def drop_moves(self, table_ids: Iterable[int]) -> None:
        """Delete the moves of the tables `table_ids` (closed ones: their rows stay as the record of how they
        ended)."""
        with self.transaction():
            self.db.executemany("DELETE FROM moves WHERE table_id = ?", ((table_id,) for table_id in table_ids))

    def drop_moves_ended_before(self, at: float) -> None:
        """Delete the moves of every table that ended before `at` (reads the moves kept, not every table)."""
        self.db.execute("DELETE FROM moves WHERE (SELECT ended FROM tables WHERE id = moves.table_id) < ?", (at,))


TABLE_COLUMNS = ("code, rules, hands, seed, visitor0, name0, visitor1, name1, opened, joined, ended, ending, scores, "
                 "id, hand_scores, ended_by, told, taken")
"""The tables table's columns in the order `TableRow` takes them."""


STUDENT_COLUMNS = "visitor, name, last_seen, stars, practice, games, doing, unlock_all, tries"
"""The students table's columns in the order `StudentRow` takes them."""


def _student_row(found: tuple[Any, ...]) -> StudentRow:
    visitor, name, last_seen, stars, practice, games, doing, unlock_all, tries = found
    return StudentRow(visitor, name, last_seen, json.loads(stars), json.loads(practice), json.loads(games),
                      None if doing is None else json.loads(doing), bool(unlock_all), json.loads(tries))


def _table_row(found: tuple[Any, ...]) -> TableRow:
    (code, rules, hands, seed, visitor0, name0, visitor1, name1, opened, joined, ended, ending, scores, table_id,
     hand_scores, ended_by, told, taken) = found
    return TableRow(code, rules, hands, seed, (visitor0, visitor1), (name0, name1), opened, joined, ended, ending,
                    None if scores is None else _scores(json.loads(scores)), table_id,
                    None if hand_scores is None else tuple(_scores(pair) for pair in json.loads(hand_scores)),
                    ended_by, _seats(told), _seats(taken))


def _seats(bits: int) -> tuple[int, ...]:
    """The seats of `bits` (1: seat 0, 2: seat 1)."""
    return tuple(seat for seat in (0, 1) if bits & (1 << seat))


def _scores(found: list[Any]) -> tuple[int, int]:
    first, second = found
    return int(first), int(second)
