"""The data folder (`server/data_folder.py`, used by the class store, `kept_secret` and `kept_token`) and the class
store's failures: the folder is 0700 and every file kept there 0600 (the store with its -wal and -shm, the cookie
secret, the teacher's token); a folder the server cannot write is refused at start in one line; a write the file
or its disk refuses while serving (read-only, full) is one log line, a refusal ("not_stored") that changes
nothing, and a line on the class page."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_clock import Clock
from keyed import mark
from own_thread import in_own_thread
from servers import free_port

from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.moves import move_to_data
from leopard_tutor.server.class_store import DATABASE_NAME, ClassStore, StoreWriteError
from leopard_tutor.server.data_folder import COOKIE_SECRET_FILE, TOKEN_FILE, DataFolderError, make_private
from leopard_tutor.server.launch import SECRET_BYTES, kept_secret
from leopard_tutor.server.referee import UNJOINED_SECONDS, Referee
from leopard_tutor.server.students import Students
from leopard_tutor.server.teacher import TOKEN, ClassPage, kept_token

ROOT = Path(__file__).resolve().parent.parent
NOW = 1_800_000_000.0
COMPANIONS = ("-wal", "-shm")
UNPRIVILEGED = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
"""What a server is started under so that file modes bind it: root ignores them (its CAP_DAC_OVERRIDE), so as root
the server runs without that capability (util-linux's setpriv), as a normal user it runs as it is."""


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def usual_umask() -> Iterator[None]:
    """The umask most systems give (022: files readable by everyone unless made otherwise)."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def store_in(folder: Path) -> tuple[ClassStore, Referee, Students]:
    store = ClassStore.in_folder(folder)
    return store, Referee(store, clock=Clock(NOW)), Students(store, clock=Clock(NOW))


# -- private files -------------------------------------------------------------------------------------------
def test_the_folder_is_made_0700_and_the_store_its_wal_and_shm_are_0600_after_writes(
        tmp_path: Path, usual_umask: None) -> None:
    folder = tmp_path / "new" / "data"
    store, tables, students = store_in(folder)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    hand = tables.tables[code].match.current
    tables.move(("ana", "ben")[hand.to_move], code, 0, move_to_data(hand.legal_moves()[0]))
    students.name("ana", "Ana")
    files = [folder / DATABASE_NAME, *(folder / (DATABASE_NAME + companion) for companion in COMPANIONS)]
    assert all(path.is_file() for path in files)  # the store is open: SQLite keeps its -wal and -shm
    assert mode(folder) == 0o700
    assert [mode(path) for path in files] == [0o600] * 3
    assert kept_token(folder) and len(kept_secret(folder / COOKIE_SECRET_FILE)) == SECRET_BYTES
    assert mode(folder / TOKEN_FILE) == mode(folder / COOKIE_SECRET_FILE) == 0o600
    store.close()


def test_an_open_folder_of_the_servers_files_is_made_private_and_another_left_but_its_kept_files_private(
        tmp_path: Path, usual_umask: None) -> None:
    ours, shared = tmp_path / "ours", tmp_path / "shared"
    for folder in (ours, shared):
        folder.mkdir(mode=0o755)
        with sqlite3.connect(folder / DATABASE_NAME) as db:  # as an older server left it: 0644 in a 0755 folder
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE kept (x)")
        (folder / TOKEN_FILE).write_text("t" * 32 + "\n")
        assert mode(folder) == 0o755 and mode(folder / DATABASE_NAME) == mode(folder / TOKEN_FILE) == 0o644
    (shared / "notes.txt").write_text("someone else's")
    for folder in (ours, shared):
        ClassStore.in_folder(folder).close()
        assert kept_token(folder) == "t" * 32
        assert mode(folder / DATABASE_NAME) == mode(folder / TOKEN_FILE) == 0o600
    assert mode(ours) == 0o700
    assert mode(shared) == 0o755 and mode(shared / "notes.txt") == 0o644  # no folder of its own: left as it is
    assert not make_private(shared) and make_private(ours)


def test_a_token_or_secret_a_failed_write_cut_short_is_made_again(tmp_path: Path) -> None:
    (tmp_path / TOKEN_FILE).write_text("")  # as a full disk leaves it: an empty token would open the class page
    (tmp_path / COOKIE_SECRET_FILE).write_bytes(b"short")
    token = kept_token(tmp_path)
    assert TOKEN.fullmatch(token) and (tmp_path / TOKEN_FILE).read_text().strip() == token
    secret = kept_secret(tmp_path / COOKIE_SECRET_FILE)
    assert len(secret) == SECRET_BYTES and (tmp_path / COOKIE_SECRET_FILE).read_bytes() == secret
    assert kept_token(tmp_path) == token and kept_secret(tmp_path / COOKIE_SECRET_FILE) == secret


# -- a folder that cannot be written ---------------------------------------------------------------------------
def test_a_folder_under_a_file_is_refused_with_the_folder_and_why(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    for folder in (tmp_path / "a-file" / "data", tmp_path / "a-file"):
        with pytest.raises(DataFolderError) as refused:
            ClassStore.in_folder(folder)
        assert refused.value.folder == folder and refused.value.reason == os.strerror(20)  # ENOTDIR
        assert str(refused.value) == text("teacher.unusable_folder", folder=folder, reason=os.strerror(20))
    with pytest.raises(DataFolderError):
        kept_token(tmp_path / "a-file")


def start_refused(folder: Path) -> tuple[int, list[str]]:
    """(exit status, lines printed) of `leopard-tutor --data-dir folder`, run as `UNPRIVILEGED` says; a server
    that starts (it did not refuse the folder) fails the test."""
    command = [*UNPRIVILEGED, sys.executable, "-m", "leopard_tutor.cli", "--no-browser", "--port", str(free_port()),
               "--data-dir", str(folder)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120,
                              env={**os.environ, "JUPYTER_PLATFORM_DIRS": "1"})
    except subprocess.TimeoutExpired as started:
        pytest.fail(f"the server started on a folder it cannot write: {started.stdout!r} {started.stderr!r}")
    assert "Traceback" not in done.stdout + done.stderr
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


def refusal_of(folder: Path, line: str) -> bool:
    """Whether `line` is the start's refusal of `folder` (with any reason)."""
    before, after = text("teacher.unusable_folder", folder=folder, reason="\0").split("\0")
    return line.startswith(before) and line.endswith(after) and len(line) > len(before + after)


def test_a_folder_under_a_file_stops_the_start_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")  # no one, root included, can make a folder in a file
    folder = tmp_path / "a-file" / "data"
    status, lines = start_refused(folder)
    assert status != 0 and len(lines) == 1 and refusal_of(folder, lines[0]), lines


@pytest.mark.parametrize("database", ["new", "kept", "read-only file"])
def test_a_read_only_folder_or_store_stops_the_start_in_one_line(database: str, tmp_path: Path) -> None:
    """A folder of mode 0500 (the database new, or kept from an earlier start), or a kept database of mode 0400 in a
    folder the server can write (SQLite would open it read-only and say nothing)."""
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    if database != "new":
        store, tables, _ = store_in(folder)
        code = tables.open("ana", "Ana")
        store.close()
    if database == "read-only file":
        (folder / DATABASE_NAME).chmod(0o400)
    else:
        folder.chmod(0o500)
    before = sorted(path.name for path in folder.iterdir())
    try:
        status, lines = start_refused(folder)
    finally:
        folder.chmod(0o700)
    assert status != 0 and len(lines) == 1 and refusal_of(folder, lines[0]), lines
    assert sorted(path.name for path in folder.iterdir()) == before
    if database != "new":
        (folder / DATABASE_NAME).chmod(0o600)
        assert ClassStore.in_folder(folder).table(code) is not None  # the kept tables are there still


# -- a write that fails while serving --------------------------------------------------------------------------
def not_stored(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == "leopard_tutor.server.class_store"]


def test_a_write_the_file_refuses_is_one_log_line_a_refusal_and_changes_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, keyed: None) -> None:
    store, tables, students = store_in(tmp_path)
    page = ClassPage(students, tables, "t" * 32)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    students.name("ana", "Ana")
    hand = tables.tables[code].match.current
    first = move_to_data(hand.legal_moves()[0])
    assert page.report()["not_stored"] is None
    store.db.execute("PRAGMA query_only=ON")  # the file refuses every write from here, as a read-only one does
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        for refused in (lambda: tables.move(("ana", "ben")[hand.to_move], code, 0, first),
                        lambda: tables.open("cy", "Cy"), lambda: students.name("ana", "Anita"),
                        lambda: students.game("ben", "computer:expert", "won", "0123456789abcdef")):
            with pytest.raises(StoreWriteError) as said:
                refused()
            assert said.value.kind == "read_only" and not isinstance(said.value, ValueError)  # no bad input
    records = not_stored(caplog)
    assert len(records) == 4 and all(record.exc_info is None and "\n" not in record.getMessage()
                                     for record in records)
    assert "readonly" in records[0].getMessage()
    assert store.failures.count == 4
    assert tables.tables[code].moves == [] and store.moves(tables.tables[code].row.id) == []  # nothing half-made
    assert [live.row.names[0] for live in tables.tables.values()] == ["Ana"] and len(list(store.live_tables())) == 1
    assert store.student("ana").name == "Ana" and store.student("ben").games == {}
    assert page.report()["not_stored"] == mark("teacher.not_stored", count=4, time=page_time(store),
                                               reason=mark("teacher.store_failures.read_only"))
    store.db.execute("PRAGMA query_only=OFF")  # writable again: the same move is taken, as the next one
    assert tables.move(("ana", "ben")[hand.to_move], code, 0, first) == 1
    assert len(store.moves(tables.tables[code].row.id)) == 1


def test_the_class_page_is_read_while_the_sweep_cannot_be_stored(tmp_path: Path, keyed: None) -> None:
    """A table due to close while the file refuses writes: the class page still answers, the table still listed
    (nothing closed that is not stored), and says what was not stored; once writable the next refresh closes it."""
    store = ClassStore.in_folder(tmp_path)
    clock = Clock(NOW)
    tables, students = Referee(store, clock=clock), Students(store, clock=clock)
    page = ClassPage(students, tables, "t" * 32)
    code = tables.open("ana", "Ana")
    clock.now += UNJOINED_SECONDS + 1
    store.db.execute("PRAGMA query_only=ON")
    report = page.report()
    assert [table["code"] for table in report["tables"]] == [code] and report["not_stored"] is not None
    store.db.execute("PRAGMA query_only=OFF")
    assert page.report()["tables"] == []


def page_time(store: ClassStore) -> str:
    """The time of the store's last failure as the class page says it."""
    assert store.failures.at is not None
    return time.strftime("%H:%M", time.localtime(store.failures.at))


def test_a_full_disk_undoes_the_whole_transaction_and_the_store_goes_on_once_there_is_room(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, keyed: None) -> None:
    store, tables, students = store_in(tmp_path)
    page = ClassPage(students, tables, "t" * 32)
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count={pages}")  # the file may not grow: as a full disk
    with caplog.at_level(logging.WARNING), pytest.raises(StoreWriteError) as refused, store.transaction():
        store.set_setting("rules", "RUNNING_LEOPARD")
        store.set_setting("note", "x" * 100_000)  # needs pages the file may not have
    assert refused.value.kind == "full" and len(not_stored(caplog)) == 1
    assert "database or disk is full" in not_stored(caplog)[0].getMessage()
    assert not store.db.in_transaction and store.setting("rules") is None and store.setting("note") is None
    assert page.report()["not_stored"] == mark("teacher.not_stored", count=1, time=page_time(store),
                                               reason=mark("teacher.store_failures.full"))
    store.db.execute("PRAGMA max_page_count=1000000")
    with store.transaction():
        store.set_setting("rules", "RUNNING_LEOPARD")
    assert store.setting("rules") == "RUNNING_LEOPARD" and store.failures.count == 1


def test_an_error_that_is_no_failure_of_the_file_is_raised_as_it_is(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    store = ClassStore.in_folder(tmp_path)
    with caplog.at_level(logging.WARNING):
        with pytest.raises(sqlite3.OperationalError, match="no such table"):
            store.db.execute("SELECT * FROM no_such_table")
        store.set_setting("rules", "REVISED_2008")
        with pytest.raises(sqlite3.IntegrityError):  # as a move numbered twice (the tables' "stale"): no failure
            store.db.execute("INSERT INTO class_settings VALUES ('rules', 'RUNNING_LEOPARD')")
    assert store.failures.count == 0 and not not_stored(caplog)


def test_a_failure_no_handler_catches_is_the_kernels_refusal_without_a_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A kernel's GET of its table closes a table nobody joined in time (a write) and the file refuses it: the
    kernel's handler, which catches no refusal on a GET, answers "not_stored" all the same."""
    from tornado.httpclient import AsyncHTTPClient
    from tornado.httpserver import HTTPServer
    from tornado.testing import bind_unused_port
    from tornado.web import Application

    from leopard_tutor.server.class_handlers import ClassHandler, Waiters
    from leopard_tutor.server.referee import UNJOINED_SECONDS
    from leopard_tutor.server.state import SETTING, ServerState

    clock = Clock(NOW)
    store = ClassStore.in_folder(tmp_path)
    tables = Referee(store, clock=clock)
    tables.open("ana", "Ana")
    clock.now += UNJOINED_SECONDS
    store.db.execute("PRAGMA query_only=ON")

    class Proved(ClassHandler):
        def prepare(self) -> None:  # as a kernel proved to be ana's (kernel_handler.KernelHandler.prepare)
            self.visitor, self.kernel_id = "ana", "kernel"

    async def ask() -> tuple[int, bytes]:
        server = HTTPServer(Application([(r"/(mine)", Proved, {"tables": tables, "waiters": Waiters()})],
                                        **{SETTING: ServerState()}))
        listening, port = bind_unused_port()
        server.add_sockets([listening])
        try:
            reply = await AsyncHTTPClient().fetch(f"http://127.0.0.1:{port}/mine", raise_error=False)
            return reply.code, reply.body
        finally:
            server.stop()

    with caplog.at_level(logging.WARNING):
        status, body = in_own_thread(lambda: asyncio.run(ask()))
    assert (status, json.loads(body)) == (400, {"refused": "not_stored", "facts": {}})
    assert len(not_stored(caplog)) == 1 and not [record for record in caplog.records if record.exc_info]
    assert [live.row.names[0] for live in tables.tables.values()] == ["Ana"]  # not closed, as it is not stored
