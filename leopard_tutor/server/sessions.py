"""Visitors' sessions on a server: whose each kernel is, and whether its page is still there.

A kernel handed to a visitor's page belongs to the browser that asked for the page (its Jupyter
identity: the signed, HttpOnly cookie the server sets on the first visit). `SessionBook` keeps, per
handed-out kernel, that owner and when its page was last seen connected; `guards.py` checks the owner
on the kernel's websocket, shutdown and REST handlers and shuts down the kernels whose page has been
gone (no websocket) for `gone_after` seconds, whatever the tab did (closed, crashed, killed, asleep).
It also counts what the server's limits are about: the sessions in use (handed out, and pages still
being made, which will be), overall and per visitor, and the websockets each session has.

Pure Python (no Jupyter imports), so it is tested without a server.
"""

from __future__ import annotations

import hmac
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PAGE_GONE_SECONDS = 60.0
"""How long a session lives once its page has gone: a reload or a short network drop comes back well within it."""
SESSIONS_PER_VISITOR = 4
"""Sessions one visitor (one browser) may have at once by default: a student with a few tabs."""
LEFT_KEPT = 10_000
"""How many visitors' leaving times a book keeps (the oldest go first): a class's, many times over."""


@dataclass
class Session:
    """One handed-out kernel: the visitor it belongs to, and when its page was last known to be there
    (None while the page is still being sent: its clock starts once it has been served)."""

    owner: str
    seen: float | None = None
    doing: dict[str, Any] | None = None
    """What its page said last that the visitor does (`Students.now`'s record of it), None before it has said."""


class SessionBook:
    """The sessions handed to visitors: their owners, and which pages have been gone too long."""

    def __init__(self, gone_after: float = PAGE_GONE_SECONDS, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.gone_after = gone_after
        self.clock = clock
        self.wall = wall
        self.sessions: dict[str, Session] = {}
        self.making: Counter[str | None] = Counter()
        self.sockets: Counter[str] = Counter()
        self.left: dict[str, float] = {}
        """When each visitor's last connected page went (`wall` time), for those with none connected since: at most
        `LEFT_KEPT`, the latest last."""
        self.started = wall()
        """When the book began (`wall` time): the server's start. Of a visitor with no page connected since, and none
        gone since (`left`), the server cannot know whether a page of theirs is still open, waiting to be reloaded."""
        self.arrival_listeners: list[Callable[[str], None]] = []
        """Called with a visitor whose page connects while none of theirs was (the class tables: `Referee.arrived`)."""

    def in_use(self, visitor: str | None = None, *, anyone: bool = True) -> int:
        """Sessions in use: those handed out plus the pages being made (each will be one), of everyone
        or (`anyone=False`) of `visitor` only."""
        if anyone:
            return len(self.sessions) + sum(self.making.values())
        return sum(1 for s in self.sessions.values() if s.owner == visitor) + self.making[visitor]

    def open_pages(self, visitor: str | None) -> int:
        """The sessions of `visitor` whose page is open: being made, being sent, or connected now (the others'
        pages have gone: closed, or cut off, they hold their place until `freed_within`)."""
        return self.making[visitor] + sum(1 for kernel_id, s in self.sessions.items() if s.owner == visitor and (
            s.seen is None or self.sockets.get(kernel_id, 0) > 0))

    @property
    def sweep_every(self) -> float:
        """Seconds between two looks for the sessions whose page has been gone `gone_after` seconds."""
        return max(0.5, min(10.0, self.gone_after / 4))

    @property
    def freed_within(self) -> float:
        """Seconds within which the place of a session whose page has gone is free (its kernel then shutting down)."""
        return self.gone_after + self.sweep_every

    def page_begun(self, visitor: str | None) -> None:
        """A page for `visitor` is being made: it counts as a session from now on."""
        self.making[visitor] += 1

    def page_ended(self, visitor: str | None) -> None:
        """A page for `visitor` has been made (its kernel handed out) or has failed."""
        self.making[visitor] -= 1
        if self.making[visitor] <= 0:
            del self.making[visitor]

    def hand_out(self, kernel_id: str, owner: str) -> None:
        """Record that `kernel_id` was given to the visitor `owner` (its page is being made)."""
        self.sessions[kernel_id] = Session(owner)

    def socket_opened(self, kernel_id: str, limit: int) -> bool:
        """Count one more websocket on `kernel_id` if it has fewer than `limit` (True), else refuse (False).
        A kernel that is no visitor's session is not counted."""
        if kernel_id not in self.sessions:
            return True
        if self.sockets[kernel_id] >= limit:
            return False
        owner = self.sessions[kernel_id].owner
        arriving = owner not in self.connected_visitors()
        self.sockets[kernel_id] += 1
        self.left.pop(owner, None)
        if arriving:
            for listener in list(self.arrival_listeners):
                listener(owner)
        return True

    def socket_closed(self, kernel_id: str) -> None:
        """One websocket counted on `kernel_id` has closed (or its opening failed); if it was its visitor's last, they
        have left now."""
        if self.sockets[kernel_id] > 1:
            self.sockets[kernel_id] -= 1
            return
        self.sockets.pop(kernel_id, None)
        self._maybe_left(self.owner(kernel_id))

    def _maybe_left(self, visitor: str | None) -> None:
        """Note that `visitor` left now, if no page of theirs is connected any more."""
        if visitor is None or visitor in self.connected_visitors():
            return
        self.left.pop(visitor, None)
        self.left[visitor] = self.wall()
        while len(self.left) > LEFT_KEPT:
            del self.left[next(iter(self.left))]

    def served(self, kernel_id: str) -> None:
        """The page of `kernel_id` has been sent (or its sending failed): from now on it must connect."""
        session = self.sessions.get(kernel_id)
        if session is not None and session.seen is None:
            session.seen = self.clock()

    def owner(self, kernel_id: str) -> str | None:
        """The visitor `kernel_id` was handed to (None if it is no visitor's)."""
        session = self.sessions.get(kernel_id)
        return None if session is None else session.owner

    def connected_visitors(self) -> set[str]:
        """The visitors with a page connected now (a websocket open on one of their sessions)."""
        return {session.owner for kernel_id, session in self.sessions.items() if self.sockets.get(kernel_id, 0) > 0}

    def told(self, kernel_id: str, doing: dict[str, Any]) -> None:
        """The page of `kernel_id` said what its visitor does now (`doing`, with its "at"); nothing for a kernel
        that is no visitor's."""
        session = self.sessions.get(kernel_id)
        if session is not None:
            session.doing = doing

    def doings(self) -> dict[str, dict[str, Any]]:
        """What each visitor does, as the page of theirs that is connected now and told last said it: a tab they
        closed no longer speaks for them. A visitor none of whose connected pages has told yet is not in it."""
        found: dict[str, dict[str, Any]] = {}
        for kernel_id, session in self.sessions.items():
            doing, known = session.doing, found.get(session.owner)
            if doing is not None and self.sockets.get(kernel_id, 0) > 0 and (
                    known is None or float(doing.get("at", 0)) >= float(known.get("at", 0))):
                found[session.owner] = doing
        return found

    def allows(self, kernel_id: str, visitor: str | None) -> bool:
        """Whether `visitor` may reach `kernel_id`: its owner may; anyone may reach a kernel that is no
        visitor's (the preheated spare, or one a notebook user started)."""
        session = self.sessions.get(kernel_id)
        return session is None or (visitor is not None and hmac.compare_digest(session.owner, visitor))

    def forget(self, kernel_id: str) -> None:
        """Drop what is kept about `kernel_id` (its kernel has gone); its visitor leaves if its page was their last."""
        session = self.sessions.pop(kernel_id, None)
        if self.sockets.pop(kernel_id, 0) and session is not None:
            self._maybe_left(session.owner)

    def sweep(self, connections: Callable[[str], int | None]) -> tuple[list[str], list[str]]:
        """(kernels whose page has been gone for `gone_after` seconds or more, kernels that no longer exist).

        `connections(kernel_id)` is how many websockets the kernel has now, or None if it no longer
        exists. A connected page counts as seen now; a page still being sent is not gone. The caller
        shuts down the first and forgets both."""
        now = self.clock()
        gone, vanished = [], []
        for kernel_id, session in list(self.sessions.items()):
            count = connections(kernel_id)
            if count is None:
                vanished.append(kernel_id)
            elif count > 0:
                session.seen = now
            elif session.seen is not None and now - session.seen >= self.gone_after:
                gone.append(kernel_id)
        return gone, vanished
