"""The server's data folder (`--data-dir`): what it keeps there is this user's alone, and a folder it cannot
write stops the start in one line.

The folder is made 0700 and every file kept in it is 0600: the class store (`DATABASE_NAME`, and SQLite's
`-wal` and `-shm` beside it) holds the live tables' seeds and moves, enough to work out both hands, and the
students' names; the cookie secret and the teacher's token open every seat and the class page. An existing
folder others may read is made private if it is this user's and holds nothing but these files (`make_private`
says when it is not: it is some other folder, such as a home, left as it is); a kept file others may read is
made private. A folder or file that cannot be made, written or read is a `DataFolderError`, which says so in
one line.

Standard library and the catalogue only: the class store, tested without a server, uses it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from ..engine.catalogue import text

DATABASE_NAME = "leopard-tutor.sqlite3"
COOKIE_SECRET_FILE = "cookie_secret"
TOKEN_FILE = "teacher_token"
KEPT_NAMES = (DATABASE_NAME, COOKIE_SECRET_FILE, TOKEN_FILE)
"""How the names of the files kept in the folder begin (SQLite's own add "-wal", "-shm" or "-journal"), after
the dot of a file being written (`write_private`) or of the check that the folder can be written."""
FOLDER_MODE = 0o700
FILE_MODE = 0o600
OTHERS = 0o077
"""The mode bits of the group and of other users."""
CHECK_PREFIX = f".{DATABASE_NAME}-write-check-"


class DataFolderError(Exception):
    """The data folder `folder` cannot be used (made, written or read), for `reason` (the system's words)."""

    def __init__(self, folder: Path, reason: str) -> None:
        super().__init__(folder, reason)
        self.folder, self.reason = folder, reason

    def __str__(self) -> str:
        return text("teacher.unusable_folder", folder=self.folder, reason=self.reason)


def unusable(folder: Path, error: OSError) -> DataFolderError:
    """The `DataFolderError` of `folder` that the system's `error` makes."""
    return DataFolderError(folder, error.strerror or str(error))


def kept_here(name: str) -> bool:
    """Whether a file of the data folder named `name` is one the server keeps there."""
    return name.lstrip(".").startswith(KEPT_NAMES)


def make_private(folder: Path) -> bool:
    """Make `folder` (mode 0700, with its parents) if it is missing; take the group's and others' rights from an
    existing one that is this user's and holds nothing but kept files. Whether others are kept out of it now (if
    not, the files kept there are private all the same). A `DataFolderError` if it cannot be made or is no folder."""
    try:
        folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
        found = folder.stat()
        if not found.st_mode & OTHERS:
            return True
        if found.st_uid != os.geteuid() or not all(kept_here(entry.name) for entry in os.scandir(folder)):
            return False
        os.chmod(folder, stat.S_IMODE(found.st_mode) & ~OTHERS)
        return True
    except FileExistsError:  # a file of that name
        raise DataFolderError(folder, os.strerror(errno.ENOTDIR)) from None
    except OSError as error:
        raise unusable(folder, error) from None


def check_writable(folder: Path) -> None:
    """A `DataFolderError` unless a file can be made (and removed) in `folder`."""
    try:
        descriptor, name = tempfile.mkstemp(prefix=CHECK_PREFIX, dir=folder)
        os.close(descriptor)
        os.unlink(name)
    except OSError as error:
        raise unusable(folder, error) from None


def keep_private(path: Path) -> None:
    """Take the group's and others' rights from the file `path`, if it exists and is this user's."""
    try:
        found = path.stat()
        if found.st_mode & OTHERS and found.st_uid == os.geteuid():
            os.chmod(path, stat.S_IMODE(found.st_mode) & ~OTHERS)
    except FileNotFoundError:
        return
    except OSError as error:
        raise unusable(path.parent, error) from None


def create_private(path: Path) -> None:
    """Make the file `path` (empty, mode 0600) unless it exists, and keep it private; a `DataFolderError` if it
    cannot be made or written."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE))
    except OSError as error:
        raise unusable(path.parent, error) from None
    keep_private(path)


def read_private(path: Path) -> bytes | None:
    """What the kept file `path` holds (None if it does not exist), the file made private."""
    try:
        found = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise unusable(path.parent, error) from None
    keep_private(path)
    return found


def write_private(path: Path, data: bytes) -> None:
    """Keep `data` in the file `path` (mode 0600), whole or not at all: written beside it, then put in its place.
    A `DataFolderError` if it cannot be (the folder read-only, the disk full)."""
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    except OSError as error:
        raise unusable(path.parent, error) from None
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise unusable(path.parent, error) from None
