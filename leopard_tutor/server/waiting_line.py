"""The line a class waits in for its pages, when more students arrive at once than pages can be made.

A page is made `PAGES_AT_ONCE` at a time (`launch.py`). A visit that would wait (others already in line,
every place taken, or no preheated kernel ready) gets a small waiting page at once instead of a blank
one: it holds a ticket, asks the server every `POLL_SECONDS` how many are ahead of it (saying so in
words), and once the server admits it, loads the app with its ticket, which lets it in. A ticket whose
page stops asking for `TICKET_SECONDS` has gone (the tab was closed); an admitted ticket not used within
`ADMITTED_SECONDS` lapses, so a lost page holds no place.

Pure Python with a clock, so it is tested without a server.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

POLL_SECONDS = 1.0
"""How often a waiting page asks how many are ahead of it."""
TICKET_SECONDS = 10.0
"""How long a ticket whose page has stopped asking keeps its place."""
ADMITTED_SECONDS = 30.0
"""How long an admitted ticket keeps its place until its page comes to use it."""
TICKET_CHARACTERS = 16
"""The length of a ticket (URL-safe letters and digits)."""


@dataclass
class Ticket:
    """A place in the line: whose it is, when its page last asked, and when it was admitted (None: waiting)."""

    visitor: str | None
    seen: float
    admitted: float | None = None


class WaitingLine:
    """The tickets in the order they came (see the module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.tickets: dict[str, Ticket] = {}

    def join(self, visitor: str | None) -> str:
        """A new ticket for `visitor`, at the end of the line."""
        token = secrets.token_urlsafe(TICKET_CHARACTERS)[:TICKET_CHARACTERS]
        self.tickets[token] = Ticket(visitor, self.clock())
        return token

    def prune(self) -> None:
        """Forget the tickets whose pages have gone and the admitted ones that lapsed."""
        now = self.clock()
        for token, ticket in list(self.tickets.items()):
            if (now - ticket.seen > TICKET_SECONDS if ticket.admitted is None
                    else now - ticket.admitted > ADMITTED_SECONDS):
                del self.tickets[token]

    def admitted(self) -> int:
        """Tickets admitted and not yet used: places taken."""
        return sum(1 for ticket in self.tickets.values() if ticket.admitted is not None)

    def held(self, visitor: str | None) -> int:
        """Tickets of `visitor` in the line (admitted or not)."""
        return sum(1 for ticket in self.tickets.values() if ticket.visitor == visitor)

    def admit(self, free: int) -> None:
        """Admit the first waiting tickets while fewer than `free` are admitted."""
        self.prune()
        now = self.clock()
        room = free - self.admitted()
        for ticket in self.tickets.values():
            if room <= 0:
                break
            if ticket.admitted is None:
                ticket.admitted = now
                room -= 1

    def ahead(self, token: str) -> int | None:
        """How many tickets are before `token` in the line, 0 once it is admitted (None: no such ticket); the
        page holding it has asked now."""
        ticket = self.tickets.get(token)
        if ticket is None:
            return None
        ticket.seen = self.clock()
        if ticket.admitted is not None:
            return 0
        return list(self.tickets).index(token)

    def enter(self, token: str | None) -> bool:
        """Use an admitted ticket (its page is being made now): True if it was admitted, and it is gone."""
        ticket = self.tickets.get(token or "")
        if ticket is None or ticket.admitted is None:
            return False
        del self.tickets[token or ""]
        return True
