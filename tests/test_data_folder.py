"""The data folder (`server/data_folder.py`, used by the class store, `kept_secret` and `kept_token`): the folder
is 0700 and every file kept there 0600 (the store with its -wal and -shm, the cookie secret, the teacher's
token); a folder the server cannot write is refused at start in one line."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_clock import Clock
from servers import free_port

from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.moves import move_to_data
from leopard_tutor.server.class_store import DATABASE_NAME, ClassStore
from leopard_tutor.server.class_tables import ClassTables
from leopard_tutor.server.data_folder import COOKIE_SECRET_FILE, TOKEN_FILE, DataFolderError, make_private
from leopard_tutor.server.launch import SECRET_BYTES, kept_secret
from leopard_tutor.server.students import Students
from leopard_tutor.server.teacher import TOKEN, kept_token

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


def store_in(folder: Path) -> tuple[ClassStore, ClassTables, Students]:
    store = ClassStore.in_folder(folder)
    return store, ClassTables(store, clock=Clock(NOW)), Students(store, clock=Clock(NOW))


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
