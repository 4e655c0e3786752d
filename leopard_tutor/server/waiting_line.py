"""The line a class waits in for its pages, when more students arrive at once than pages can be made.

A page is made `PAGES_AT_ONCE` at a time (`visits.py`). A visit that would wait (others already in line,
every place taken, or no preheated kernel ready) gets a small waiting page at once instead of a blank
one: it holds a ticket, asks the server every `POLL_SECONDS` how many are ahead of it (saying so in
words), and once the server admits it, loads the app with its ticket, which lets it in. A ticket whose
page stops asking (or never asks) for `TICKET_SECONDS` has gone (the tab was closed; a spell in which the server
itself answered nobody, `STALL_SECONDS` or longer, does not count, for the page's first question as for the
next); an admitted ticket not used within `ADMITTED_SECONDS` lapses, so a lost page holds no place.

A page's place is set by its first question, so the waiting page names no count until then
(`app.preparing_place`): the count a page is told is always where it stands, and it never grows.

Nobody can shut a class out with visits that never come back (a script's GETs, thrown away):

* the line is pruned before its tickets are counted against the server's limits (`prune`), so a ticket whose
  page never asks holds a place for `TICKET_SECONDS` (of the server answering) at most;
* only a ticket whose page has asked for its place is admitted, waits ahead of others, or keeps the kernels
  from being preheated (`asked`, `waiting`): the waiting page asks at once, a thrown-away visit never does.
  The line's order is the order in which pages first asked, so the count ahead of a page never grows: a page
  that asks late (its ticket was given earlier) takes its place behind those already asking;
* a visitor without a cookie (whose identity the server makes for this very visit) gets at most one ticket
  per network address (an IPv6 /64) and `FRESH_SECONDS` (`join`): past it, its waiting page holds no ticket
  and comes back a moment later, with the cookie it was given, for one. So a class behind one address (a
  school's NAT) still gets in at once, while a script that sends no cookie holds no more than
  `TICKET_SECONDS / FRESH_SECONDS` places per address. (Bounding the line instead by what kernels can be made
  soon would still let such a flood take every place in it, and refuse the class for as long as it lasts.)

`WaitingLine` is pure Python with a clock, so it is tested without a server; `ClassLine` is the line of a class
server with the pages past it, which counts the preheated kernels ready (`kernel_pool.ready_kernels`).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.catalogue import text
from .kernel_pool import ready_kernels

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0
"""How often a waiting page asks how many are ahead of it."""
TICKET_SECONDS = 10.0
"""How long a ticket whose page has stopped asking (or never asked) keeps its place."""
STALL_SECONDS = 3 * POLL_SECONDS
"""A gap this long between two looks at the line while pages wait in it (they ask every `POLL_SECONDS`) means the
server itself was not answering (a busy machine): that time does not count as their pages' silence."""
ADMITTED_SECONDS = 30.0
"""How long an admitted ticket keeps its place until its page comes to use it."""
FRESH_SECONDS = 1.0
"""How often a network address may get a ticket for a visitor without a cookie."""
TICKET_CHARACTERS = 16
"""The length of a ticket (URL-safe letters and digits)."""
IPV6_NETWORK = 64
"""The prefix of an IPv6 address that counts as one address (what one home or school is given)."""


@dataclass
class Ticket:
    """A place in the line: whose it is, when its page last asked (or the ticket was made), whether it has
    asked at all, and when it was admitted (None: waiting)."""

    visitor: str | None
    seen: float
    admitted: float | None = None
    asked: bool = False


def network_of(address: str) -> str:
    """The network a client address counts as: an IPv4 address itself (also written as IPv6), an IPv6
    address's /64; anything else (no address, a Unix socket) as it is."""
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{parsed}/{IPV6_NETWORK}", strict=False))
    return str(parsed)


class WaitingLine:
    """The tickets in the order they came (see the module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.tickets: dict[str, Ticket] = {}
        self.fresh: dict[str, float] = {}  # network -> when it last got a ticket for a visitor without a cookie
        self.claimed = 0  # tickets whose page has asked for its place, so far: students who waited
        self.looked = clock()  # when the line was last pruned (every question to it prunes it first)

    def join(self, visitor: str | None, address: str | None = None) -> str | None:
        """A new ticket for `visitor`, at the end of the line. For a visitor without a cookie, `address` is
        where it comes from: None (no ticket) if that address got one less than `FRESH_SECONDS` ago."""
        now = self.clock()
        if address is not None:
            network = network_of(address)
            if now - self.fresh.get(network, -FRESH_SECONDS) < FRESH_SECONDS:
                return None
            self.fresh[network] = now
        token = secrets.token_urlsafe(TICKET_CHARACTERS)[:TICKET_CHARACTERS]
        self.tickets[token] = Ticket(visitor, now)
        return token

    def prune(self) -> None:
        """Forget the tickets whose pages have gone (or never came), the admitted ones that lapsed, and the
        addresses whose last ticket is older than `FRESH_SECONDS`. After a stall (`STALL_SECONDS` or more since
        the line was last looked at while pages were waiting and asking), the tickets waiting are given that time
        back: their pages' questions (a page's first one too) may be among those the server did not answer. (With no
        page asking, a gap is only quiet: tickets nobody asks for get no time back, so they cannot shut a class out.)"""
        now = self.clock()
        stalled, self.looked = now - self.looked, now
        waiting = [ticket for ticket in self.tickets.values() if ticket.admitted is None]
        if stalled >= STALL_SECONDS and any(ticket.asked for ticket in waiting):
            for ticket in waiting:
                ticket.seen = min(now, ticket.seen + stalled)
        for token, ticket in list(self.tickets.items()):
            if (now - ticket.seen > TICKET_SECONDS if ticket.admitted is None
                    else now - ticket.admitted > ADMITTED_SECONDS):
                if ticket.asked:
                    log.warning("A waiting page lost its place in line: %s",
                                "it stopped asking" if ticket.admitted is None else "admitted, it did not come")
                del self.tickets[token]
        for network, when in list(self.fresh.items()):
            if now - when >= FRESH_SECONDS:
                del self.fresh[network]

    def admitted(self) -> int:
        """Tickets admitted and not yet used: places taken."""
        return sum(1 for ticket in self.tickets.values() if ticket.admitted is not None)

    def waiting(self) -> int:
        """Tickets whose page has asked for its place (admitted or not): students in line."""
        return sum(1 for ticket in self.tickets.values() if ticket.asked)

    def held(self, visitor: str | None) -> int:
        """Tickets of `visitor` in the line (admitted or not)."""
        return sum(1 for ticket in self.tickets.values() if ticket.visitor == visitor)

    def admit(self, free: int) -> None:
        """Admit the first waiting tickets whose page has asked, while fewer than `free` are admitted."""
        self.prune()
        now = self.clock()
        room = free - self.admitted()
        for ticket in self.tickets.values():
            if room <= 0:
                break
            if ticket.admitted is None and ticket.asked:
                ticket.admitted = now
                room -= 1

    def asked(self, token: str) -> bool:
        """The page holding `token` asks for its place now: whether the ticket is (still) in the line."""
        self.prune()
        ticket = self.tickets.get(token)
        if ticket is None:
            return False
        if not ticket.asked:  # it takes its place in the line now: behind every page that asked before it
            self.claimed += 1
            self.tickets[token] = self.tickets.pop(token)
        ticket.seen, ticket.asked = self.clock(), True
        return True

    def ahead(self, token: str) -> int | None:
        """How many tickets whose page has asked are before `token` in the line, 0 once it is admitted (None: no
        such ticket)."""
        ticket = self.tickets.get(token)
        if ticket is None:
            return None
        if ticket.admitted is not None:
            return 0
        before = 0
        for other, held in self.tickets.items():
            if other == token:
                break
            before += held.asked
        return before

    def enter(self, token: str | None) -> bool:
        """Use an admitted ticket (its page is being made now): True if it was admitted, and it is gone."""
        ticket = self.tickets.get(token or "")
        if ticket is None or ticket.admitted is None:
            return False
        del self.tickets[token or ""]
        return True


PAGES_AT_ONCE = max(2, os.cpu_count() or 2)
"""Pages made at once (a kernel started and the app built in it); a class that opens the link together
queues for the rest, first come first served, so that the first pages arrive in seconds and the
students already playing keep a share of the processors."""


class ClassLine:
    """The waiting line of a class server and the pages past it (`inside`: waiting for one of the
    `PAGES_AT_ONCE` places, `queued`, or being made)."""

    def __init__(self, line: WaitingLine | None = None) -> None:
        self.line = WaitingLine() if line is None else line
        self.inside = 0
        self.queued = 0
        self.answered = False  # whether this server answers waiting pages at LINE_PATH (a class server does)

    def free(self, manager: Any) -> int:
        """Places for pages to be made now: one for each preheated kernel ready beyond those the queued pages
        will take, or else what is left of `PAGES_AT_ONCE` (a page with no kernel ready waits for one to
        start)."""
        return max(ready_kernels(manager) - self.queued, PAGES_AT_ONCE - self.inside)

    def must_wait(self, manager: Any) -> bool:
        """Whether a new visit waits in line: others already do, or no kernel is ready for it beyond those the
        pages being made take (its page would wait for one to start); never where no waiting page would be
        answered (Voilà as an extension of a Jupyter server, on Binder)."""
        if not self.answered:
            return False
        self.line.admit(self.free(manager))
        return self.line.waiting() > 0 or ready_kernels(manager) <= self.queued

    def place(self, ticket: str, manager: Any) -> dict[str, Any]:
        """What a waiting page is told: `go` (admitted), `gone` (no such ticket: come again) or how many are
        ahead of it, in words."""
        if not self.line.asked(ticket):
            return {"gone": True}
        self.line.admit(self.free(manager))
        ahead = self.line.ahead(ticket)
        if ahead is None:
            return {"gone": True}
        if self.line.tickets[ticket].admitted is not None:
            return {"go": True}
        ahead += self.inside
        return {"ahead": ahead, "text": text("app.preparing", ahead=ahead)}
