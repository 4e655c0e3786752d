"""Kernel side of the students' records: a page's kernel tells its class server the student's name, lesson
progress, finished matches and what they are doing, and reads back at start what the server keeps for this student
(`server/student_handlers.py`; the requests, their bodies and words are in `protocol.py`), proving which kernel it
is as `class_client.ClassClient` does.

`StudentClient.here()` is this kernel's client, or None where there is no class server (the static site, a notebook,
Binder). `StudentRecord` keeps the server up to date without holding up a click but one: a name the student types is
told at once, since the server refuses a name another student keeps ("name_taken": the class page tells the students
apart by their names) and the page says so. Its other reports go out from one background thread (`Reports`), each with
a short timeout; a report that fails is dropped (the log says so once until one gets through), and a newer report of
the same kind replaces one not yet sent. Nothing is sent before the student has a name; what they did before is sent
once they give one. A name offered to the student (`StudentRecord.offer`: the name bar's made-up name) is their name
until they change it: it is given by itself at the first thing worth a record (a stage solved or failed, a practice
answer, a finished match, a class table), so a visit that does nothing leaves no record on the server.

Only what is earned in this kernel is told (a stage solved with its stars, each practice answer, as deltas since
the last report; each finished match with its id, `match_id`, and each hand played to its end with the match's
id and its number): progress the browser brings from its storage, or the server's record, joins the student's own
page but is never told, so the class page counts only what its server saw.
If the server answers that it keeps no record of the student ("unknown_student": the teacher forgot
the class, or the record expired), the record forgets the name, holds what was refused, reads the class's id again
(a forgotten class has another), and its `forgotten_listeners` let the page ask for a name again. The page keeps the
name in the browser with the class's id: a name kept under another id was forgotten while the page was closed.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count
from typing import TYPE_CHECKING, Any

from ..class_codes import ClassTableError, valid_name
from ..engine.match import RESULTS
from ..kernel_loop import LoopGone, running_loop, soon
from ..lessons.progress import MAX_COUNT, Progress
from ..protocol import CLASSMATE, DOINGS, NOW_AGAIN_SECONDS, STUDENTS_PATH, match_key
from .class_client import ClassRefused, KernelClient

if TYPE_CHECKING:
    from ..engine import Match

log = logging.getLogger(__name__)

REPORT_SECONDS = 3.0
"""How long one report may take before it is given up."""
ME_SECONDS = 3.0
"""How long the page's start may wait for what the server keeps for this student."""
MOST_PENDING = 50
"""Reports waiting to be sent at most (matches finished while the server does not answer); more are dropped."""
HELD_GAMES = 20
"""Matches kept at most while the student has no name yet."""
HELD_TRIES = 10
"""Failed tries of a stage kept at most while the student has no name yet."""
CLASS_ID = re.compile(r"[0-9a-f]{1,64}")
"""A class's id as the server says it (`server.students.Students.class_id`)."""
Body = dict[str, Any] | Callable[[], dict[str, Any] | None]
"""A report's body, or what makes it when it goes out (None: nothing to send)."""


def match_id(match: Match) -> str:
    """The id a finished match is counted under (the server counts each once): a hash of its rules, number of hands
    and seed, which a saved game of it keeps when it is resumed."""
    return match_key(match.rules.key, match.hands, match.seed)


class StudentClient(KernelClient):
    """The students' records of the server at `base`, for the kernel `kernel_id` holding `key`."""

    PATH = STUDENTS_PATH

    def me(self, timeout: float = ME_SECONDS) -> dict[str, Any]:
        """What the server keeps for this kernel's student (`GET me`); a `ClassRefused` if it cannot say."""
        found = self._ask("me", timeout=timeout)
        if not isinstance(found, dict):
            raise ClassRefused("unreachable")
        return found

    def offer(self, names: list[str], timeout: float = ME_SECONDS) -> str | None:
        """The first of `names` the server says no student keeps and none was offered lately (`POST offer`), else
        None; a `ClassRefused` if it cannot say."""
        found = self._ask("offer", {"names": names}, timeout=timeout)
        name = found.get("name") if isinstance(found, dict) else None
        return name if isinstance(name, str) and name in names else None

    def tell(self, action: str, body: dict[str, Any]) -> None:
        """Send one report (`POST action` with `body`); a `ClassRefused` if it is refused or gets no answer."""
        self._ask(action, body, timeout=REPORT_SECONDS)


@dataclass(frozen=True)
class ServerRecord:
    """What the server keeps for a student, checked: their name, their progress code, whether the teacher opened
    every lesson for them, the class's default rules and opponent level, and the class's id (None where it says
    nothing usable)."""

    name: str | None = None
    progress: str | None = None
    unlock_all: bool = False
    rules: str | None = None
    level: str | None = None
    class_id: str | None = None

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
        class_id = said.get("class")
        return cls(name, progress if isinstance(progress, str) else None, said.get("unlock_all") is True,
                   rules if isinstance(rules, str) else None, level if isinstance(level, str) else None,
                   class_id if isinstance(class_id, str) and CLASS_ID.fullmatch(class_id) else None)


class Reports:
    """Reports handed to `send(action, body)` one at a time from a background thread, in the order given; a
    report given again under the same key before it went out replaces it (in its place). A body may be a function
    that makes it as the report goes out (None: nothing to send)."""

    def __init__(self, send: Callable[[str, dict[str, Any]], object]) -> None:
        self._send = send
        self._pending: dict[object, tuple[str, Body]] = {}
        self._changed = threading.Condition()
        self._busy = False
        self._thread: threading.Thread | None = None
        self._failing = False  # a failure was logged: the next ones are not, until a report gets through
        self._serial = count()
        self._holding = 0  # while above 0 (`held`), no report goes out

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """No report goes out until the block ends (what the block gives goes out after it, in order)."""
        with self._changed:
            self._holding += 1
        try:
            yield
        finally:
            with self._changed:
                self._holding -= 1
                self._changed.notify_all()

    def put(self, action: str, body: Body, *, alone: bool = False) -> None:
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
                self._changed.wait_for(lambda: bool(self._pending) and not self._holding)
                action, body = self._pending.pop(next(iter(self._pending)))
                self._busy = True
            try:
                made = body() if callable(body) else body
                if made is not None:
                    self._send(action, made)
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
    """This student's record on the class server, kept up to date from the kernel: their name, what they earn in
    this kernel (`earned`, which listens to `progress` from the start), each finished match, each failed try of a
    stage, what they are doing.
    Until the student has a name nothing is sent; giving one sends the name, then what was held back."""

    def __init__(self, client: StudentClient, progress: Progress, clock: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self.reports = Reports(self._tell)
        self.loop = running_loop()
        """The kernel's event loop (the record is made while it handles a message), where the forgotten listeners
        are called from the reports' thread."""
        self.clock = clock
        self.name: str | None = None
        self.class_id: str | None = None
        """The class's id as the server said it last (`read`; asked again once the server forgot the student), under
        which the page keeps the name in the browser."""
        self.offered: str | None = None
        """The name offered to the student (`offer`), given by itself at their first report worth a record."""
        self.offered_listeners: list[Callable[[str], None]] = []
        """Called with the offered name once it is given (it is the student's name from then on)."""
        self.forgotten_listeners: list[Callable[[str, str], None]] = []
        """Called with the name this record had when the server said it keeps no record of the student (the
        teacher forgot the class, or it expired): the name is forgotten here, and the page may ask for it again."""
        self._held_games: list[dict[str, Any]] = []
        self._held_tries: list[dict[str, Any]] = []
        self._lock = threading.Lock()  # over what was earned and not yet sent: the page adds, the reports take
        self._stars: dict[str, int] = {}
        self._practice: dict[str, tuple[int, int]] = {}
        self._doing: dict[str, Any] | None = None
        self._doing_told = 0.0  # when (by `clock`) what the student does was last told
        progress.earned_listeners.append(self.earned)

    def read(self, *, class_only: bool = False) -> ServerRecord:
        """What the server keeps for this student (asked at the page's start); an empty record if it cannot say,
        logged. A name it keeps becomes this record's name (unless `class_only`: only the class's id is taken)."""
        try:
            found = ServerRecord.read(self.client.me())
        except Exception as error:  # the page starts without the class's record rather than not at all
            log.warning("the class server did not say what it keeps for this student: %s", error)
            return ServerRecord()
        if found.name is not None and self.name is None and not class_only:
            self.name = found.name
        if found.class_id is not None:
            self.class_id = found.class_id
        return found

    def unlocked(self) -> bool | None:
        """Whether the teacher has unlocked every lesson for this student; None (logged) if the server cannot say."""
        try:
            return ServerRecord.read(self.client.me()).unlock_all
        except Exception as error:  # asked again later (`ClassMember.follow_unlocking`)
            log.warning("the class server did not say whether every lesson is open: %s", error)
            return None

    def free_name(self, names: list[str]) -> str:
        """The first of the made-up `names` (each a valid name) that the server says no classmate keeps and no other
        page was offered lately, so that two students are not offered one name; the first of them if it cannot say
        (logged) or every one is taken."""
        try:
            found = self.client.offer(names)
        except Exception as error:  # a made-up name that may be a classmate's rather than none
            log.warning("the class server did not say which made-up name is free: %s", error)
            return names[0]
        return names[0] if found is None else found

    def offer(self, name: object) -> str:
        """Hold `name` (checked: a `ClassTableError` changes nothing) as the student's name until they give one:
        nothing is sent now; it is given at their first report worth a record (`earned`, `game`). The name held."""
        self.offered = valid_name(name)
        return self.offered

    def _give_offered(self) -> None:
        """The student did something worth a record: give the offered name if they have no name yet."""
        offered = self.offered
        if self.name is not None or offered is None:
            return
        with self.reports.held():  # the page shows the name before a refusal of it can forget it (`_forgotten`)
            self.give_name(offered, typed=False)
            for listener in list(self.offered_listeners):
                listener(offered)

    def give_name(self, name: object, *, typed: bool = True) -> str:
        """Make `name` the student's name (checked: a `ClassTableError` changes nothing) and tell the server; the
        first name also sends what was held back. The name as kept. The name the student has already, typed again, is
        told again if the server no longer keeps it (a class forgotten before a report of theirs said so).

        A `typed` name is told at once, after the reports given before it: one the server refuses because another
        student keeps it is refused here too ("name_taken"), changing nothing. Any other failure is logged and the
        name kept here, as a dropped report is. An offered name (not `typed`: the server chose it as free) is told
        with the other reports."""
        kept = valid_name(name)
        if kept == self.name and typed and self.read(class_only=True).name is None:
            self.name = None  # the server no longer has it (the class was forgotten): given again, as a first name
        if kept == self.name:
            return kept
        if typed:
            self._claim(kept)  # (the reports given before go first: the name may be forgotten meanwhile)
        first = self.name is None
        self.name, self.offered = kept, None  # before the report goes: its refusal forgets this name
        if not typed:
            self.reports.put("name", {"name": kept})
        if first:
            self.reports.put("progress", self._take_earned)
            for game in self._held_games:
                self.reports.put("game", game, alone=True)
            self._held_games.clear()
            for tried in self._held_tries:
                self.reports.put("tried", tried, alone=True)
            self._held_tries.clear()
            if self._doing is not None:
                self._doing_told = self.clock()
                self.reports.put("now", self._doing)
        return kept

    def _claim(self, name: str) -> None:
        """Tell the server `name` now, once the reports given before have gone; a `ClassTableError` "name_taken" if
        another student keeps it."""
        self.reports.flush(REPORT_SECONDS)
        try:
            self.client.tell("name", {"name": name})
        except ClassRefused as refused:
            if refused.key in ("name_taken", "class_full"):
                raise ClassTableError(refused.key, **refused.facts) from None
            log.warning("the name was not told to the class server (%s)", refused)
        except Exception as error:  # as a dropped report: the name is kept on this page
            log.warning("the name was not told to the class server (%s)", error)

    def earned(self, stars: dict[str, int], practice: dict[str, tuple[int, int]]) -> None:
        """Count what was earned in this kernel: `stars` per stage solved, [right, wrong] answers per practice
        concept (`Progress.earned_listeners`); told to the server soon, once the student has a name."""
        with self._lock:
            for key, n in stars.items():
                self._stars[key] = max(n, self._stars.get(key, 0))
            for concept, (right, wrong) in practice.items():
                old = self._practice.get(concept, (0, 0))
                self._practice[concept] = (min(MAX_COUNT, old[0] + right), min(MAX_COUNT, old[1] + wrong))
        if self.name is None:
            self._give_offered()  # sends what was earned with the name
        else:
            self.reports.put("progress", self._take_earned)

    def _take_earned(self) -> dict[str, Any] | None:
        """The body of a progress report: what was earned since the last one (taken: counted once), or None."""
        with self._lock:
            if not self._stars and not self._practice:
                return None
            body = {"stars": self._stars, "practice": {concept: list(pair) for concept, pair in self._practice.items()}}
            self._stars, self._practice = {}, {}
        return body

    def game(self, against: str, result: str | None, match: Match) -> None:
        """Tell the server of a finished `match` against "computer:LEVEL": "won", "drawn" or "lost" from the student's
        seat; or, with `result` None, of the hand in play of `match` (against the computer or "classmate"), played to
        its end. Each with the match's `match_id` (and the hand's number): the server counts each once. (A match
        between classmates is counted by the class's tables, not told.)"""
        if result is not None and (result not in RESULTS or against == CLASSMATE):
            raise ValueError(f"a match's result is one of {RESULTS}, against the computer, not {result!r} against "
                             f"{against!r}")
        body: dict[str, Any] = {"against": against, "match": match_id(match)}
        if result is None:
            body["hand"] = match.hand_number
        else:
            body["result"] = result
        self._tell_or_hold("game", body, self._held_games, HELD_GAMES)

    def seated(self) -> None:
        """The student sat at a class table, where a classmate sees the name they go by: worth a record (an offered
        name is given, and what they do is told from then on)."""
        self._give_offered()

    def tried(self, lesson: str) -> None:
        """Tell the server of a failed try of the Learn stage `lesson` (a key): its class page marks a student who
        fails a stage again and again. Worth a record: an offered name is given with it."""
        self._tell_or_hold("tried", {"lesson": lesson}, self._held_tries, HELD_TRIES)

    def _tell_or_hold(self, action: str, body: dict[str, Any], held: list[dict[str, Any]], most: int) -> None:
        """Send the report `action` with `body` once the student has a name; before, hold it in `held` (at most
        `most`) and give the offered name, which sends what was held with it."""
        if self.name is not None:
            self.reports.put(action, body, alone=True)
            return
        if len(held) < most:
            held.append(body)
        self._give_offered()

    def now(self, doing: str, stage: int | None = None, with_: str | None = None, match: str | None = None) -> None:
        """Tell the server what the student is doing (one of `DOINGS`; Learn's stage; the classmate they play; the
        id of the match against the computer they play, `match_id`), if that is not what it was last told, or was told
        over `NOW_AGAIN_SECONDS` ago."""
        if doing not in DOINGS:
            raise ValueError(f"a student is doing one of {DOINGS}, not {doing!r}")
        body: dict[str, Any] = {"doing": doing, "stage": stage, "with": with_}
        if match is not None:
            body["match"] = match
        now = self.clock()
        if body == self._doing and now - self._doing_told < NOW_AGAIN_SECONDS:
            return
        self._doing = body
        if self.name is not None:
            self._doing_told = now
            self.reports.put("now", body)

    def _tell(self, action: str, body: dict[str, Any]) -> None:
        """Send one report; if the server keeps no record of the student, forget the name and hold the report. An
        offered name a classmate took meanwhile ("name_taken") is forgotten too, and the page says why."""
        try:
            self.client.tell(action, body)
        except ClassRefused as refused:
            if refused.key == "name_taken" and action == "name":
                self._forgotten(action, body, str(refused))
                return
            if refused.key != "unknown_student":
                raise
            self._forgotten(action, body)

    def _forgotten(self, action: str, body: dict[str, Any], words: str = "") -> None:
        """The server keeps no record of this student (or refused the name: `words` say why): no name from now on
        (the page asks again), and the report it refused held until one is given (what they are doing is told
        again then)."""
        former, self.name, self.offered = self.name, None, None
        if action == "progress":
            self.earned(body["stars"], {concept: (pair[0], pair[1]) for concept, pair in body["practice"].items()})
        elif action == "game" and len(self._held_games) < HELD_GAMES:
            self._held_games.append(body)
        elif action == "tried" and len(self._held_tries) < HELD_TRIES:
            self._held_tries.append(body)
        if former is not None:  # the page asks again on the kernel's event loop, between two clicks
            self.read(class_only=True)  # the class's id, another if the class was forgotten
            with contextlib.suppress(LoopGone):  # (the kernel is shutting down; never waited for: the loop may wait)
                soon(self.loop, functools.partial(self._tell_forgotten, former, words))

    def _tell_forgotten(self, former: str, words: str) -> None:
        """Tell the forgotten listeners the name this record had and why it is gone ("": the server forgot it), unless
        a name was given since."""
        if self.name is not None:
            return
        for listener in list(self.forgotten_listeners):
            listener(former, words)
