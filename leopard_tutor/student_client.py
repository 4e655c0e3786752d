"""Kernel side of the students' records (issue 20, `/work/notes/contract20.md`): a page's kernel tells its class
server the student's name, lesson progress, finished matches and what they are doing, and reads back at start
what the server keeps for this student (`server/student_handlers.py`), proving which kernel it is as
`class_client.ClassLink` does.

`StudentLink.here()` is the link of this kernel, or None where there is no class server (the static site, a
notebook, Binder). `StudentRecord` keeps the server up to date without ever holding up a click: its reports go
out from one background thread (`Reports`), each with a short timeout; a report that fails is dropped (the log
says so once until one gets through), and a newer report of the same kind replaces one not yet sent. Nothing is
sent before the student has a name; what they did before is sent once they give one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import count
from typing import Any

from .class_client import ClassRefused, KernelLink
from .class_codes import ClassTableError, valid_name
from .lessons.progress import Progress

log = logging.getLogger(__name__)

PATH = "leopard/students/"
"""Where the students' handlers are, under the server's base URL."""
REPORT_SECONDS = 3.0
"""How long one report may take before it is given up."""
ME_SECONDS = 3.0
"""How long the page's start may wait for what the server keeps for this student."""
MOST_PENDING = 50
"""Reports waiting to be sent at most (matches finished while the server does not answer); more are dropped."""
HELD_GAMES = 20
"""Matches kept at most while the student has no name yet."""
NOW_AGAIN_SECONDS = 60.0
"""After this long, what the student is doing is told again at their next click, though it has not changed (the
server counts a student whose last report of it is two minutes old as away)."""
DOINGS = ("learn", "play", "practice", "examples", "rules")
"""What the server understands a student to be doing (`POST now`)."""
RESULTS = ("won", "drawn", "lost")


class StudentLink(KernelLink):
    """The students' records of the server at `base`, for the kernel `kernel_id` holding `key`."""

    PATH = PATH

    def me(self, timeout: float = ME_SECONDS) -> dict[str, Any]:
        """What the server keeps for this kernel's student (`GET me`); a `ClassRefused` if it cannot say."""
        found = self._ask("me", timeout=timeout)
        if not isinstance(found, dict):
            raise ClassRefused("unreachable")
        return found

    def tell(self, action: str, body: dict[str, Any]) -> None:
        """Send one report (`POST action` with `body`); a `ClassRefused` if it is refused or gets no answer."""
        self._ask(action, body, timeout=REPORT_SECONDS)


@dataclass(frozen=True)
class ServerRecord:
    """What the server keeps for a student, checked: their name, their progress code, whether the teacher opened
    every lesson for them, and the class's default rules and opponent level (None where it says nothing usable)."""

    name: str | None = None
    progress: str | None = None
    unlock_all: bool = False
    rules: str | None = None
    level: str | None = None

    @classmethod
    def read(cls, said: object) -> ServerRecord:
        """The record in a `GET me` answer; anything malformed in it is left out."""
        if not isinstance(said, dict):
            return cls()
        try:
            name: str | None = valid_name(said.get("name"))
        except ClassTableError:
            name = None
        progress = said.get("progress")
        defaults = said.get("defaults")
        defaults = defaults if isinstance(defaults, dict) else {}
        rules, level = defaults.get("rules"), defaults.get("level")
        return cls(name, progress if isinstance(progress, str) else None, said.get("unlock_all") is True,
                   rules if isinstance(rules, str) else None, level if isinstance(level, str) else None)


class Reports:
    """Reports handed to `send(action, body)` one at a time from a background thread, in the order given; a
    report given again under the same key before it went out replaces it (in its place)."""

    def __init__(self, send: Callable[[str, dict[str, Any]], object]) -> None:
        self._send = send
        self._pending: dict[object, tuple[str, dict[str, Any]]] = {}
        self._changed = threading.Condition()
        self._busy = False
        self._thread: threading.Thread | None = None
        self._failing = False  # a failure was logged: the next ones are not, until a report gets through
        self._serial = count()

    def put(self, action: str, body: dict[str, Any], *, alone: bool = False) -> None:
        """Send `body` to `action` soon; `alone`, it replaces no other report (a finished match)."""
        key: object = (action, next(self._serial)) if alone else action
        with self._changed:
            if key not in self._pending and len(self._pending) >= MOST_PENDING:
                log.warning("a student report to %s was dropped: too many are waiting", action)
                return
            self._pending[key] = (action, body)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True, name="leopard-student-reports")
                self._thread.start()
            self._changed.notify_all()

    def flush(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds until every report given so far has been sent or dropped: whether it was."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._pending and not self._busy, timeout)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self._pending))
                action, body = self._pending.pop(next(iter(self._pending)))
                self._busy = True
            try:
                self._send(action, body)
                self._failing = False
            except Exception as error:  # a report is never worth more than the page: dropped
                if not self._failing:
                    log.warning("a student report to %s was dropped (%s); later failures are not logged until one "
                                "gets through", action, error)
                self._failing = True
            finally:
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()


class StudentRecord:
    """This student's record on the class server, kept up to date from the kernel: their name, their `progress`'s
    code, each finished match, what they are doing. Until the student has a name nothing is sent; giving one
    sends the name, then the progress and what was held back."""

    def __init__(self, link: StudentLink, progress: Progress, reports: Reports | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.link, self.progress = link, progress
        self.reports = reports if reports is not None else Reports(link.tell)
        self.clock = clock
        self.name: str | None = None
        self._held_games: list[dict[str, Any]] = []
        self._doing: dict[str, Any] | None = None
        self._doing_told = 0.0  # when (by `clock`) what the student does was last told

    def read(self) -> ServerRecord:
        """What the server keeps for this student (asked once, at the page's start); an empty record if it cannot
        say, logged. A name it keeps becomes this record's name."""
        try:
            found = ServerRecord.read(self.link.me())
        except Exception as error:  # the page starts without the class's record rather than not at all
            log.warning("the class server did not say what it keeps for this student: %s", error)
            return ServerRecord()
        if found.name is not None and self.name is None:
            self.name = found.name
        return found

    def give_name(self, name: object) -> str:
        """Make `name` the student's name (checked: a `ClassTableError` changes nothing) and tell the server; the
        first name also sends what was held back. The name as kept."""
        kept = valid_name(name)
        first = self.name is None
        if kept == self.name:
            return kept
        self.name = kept
        self.reports.put("name", {"name": kept})
        if first:
            if self.progress.stars or self.progress.practice:
                self.progress_changed()
            for game in self._held_games:
                self.reports.put("game", game, alone=True)
            self._held_games.clear()
            if self._doing is not None:
                self._doing_told = self.clock()
                self.reports.put("now", self._doing)
        return kept

    def progress_changed(self) -> None:
        """Tell the server the progress's code (a listener of the progress)."""
        if self.name is not None:
            self.reports.put("progress", {"code": self.progress.to_code()})

    def game(self, against: str, result: str) -> None:
        """Tell the server of a finished match: against "computer:LEVEL" or "classmate", "won", "drawn" or "lost"
        from the student's seat."""
        if result not in RESULTS:
            raise ValueError(f"a match's result is one of {RESULTS}, not {result!r}")
        body = {"against": against, "result": result}
        if self.name is not None:
            self.reports.put("game", body, alone=True)
        elif len(self._held_games) < HELD_GAMES:
            self._held_games.append(body)

    def now(self, doing: str, stage: int | None = None, with_: str | None = None) -> None:
        """Tell the server what the student is doing (one of `DOINGS`; Learn's stage; the classmate they play),
        if that is not what it was last told, or was told over `NOW_AGAIN_SECONDS` ago."""
        if doing not in DOINGS:
            raise ValueError(f"a student is doing one of {DOINGS}, not {doing!r}")
        body = {"doing": doing, "stage": stage, "with": with_}
        now = self.clock()
        if body == self._doing and now - self._doing_told < NOW_AGAIN_SECONDS:
            return
        self._doing = body
        if self.name is not None:
            self._doing_told = now
            self.reports.put("now", body)
