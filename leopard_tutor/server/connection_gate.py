"""What one page's websocket connection may send its kernel, and when: the server's gate on each connection.

A page sends its kernel one request at a time in ordinary use: a click, and a few requests when it
connects. A script can send thousands a second; forwarded at once they would wait in the kernel's own
queue, out of the server's reach, and keep the kernel working long after the visitor's processor budget
(`visitor_pace.py`) is spent. So the server forwards at most `IN_FLIGHT` of a connection's shell requests
that the kernel has not finished yet (it says so with an "idle" status naming the request), and holds the
rest in order; while the visitor's budget is spent it holds everything. Past `HELD` held messages, or
`HELD_BYTES` of them, more are dropped: a connection's messages may each be up to `launch.MAX_MESSAGE_BYTES`,
and a page that keeps the gate shut (requests its kernel never answers) must not make the server hold much of
them. A request whose "idle" never comes counts as finished after `IN_FLIGHT_SECONDS`.

Pure Python: `guards.py` feeds it the connection's messages and forwards what it returns.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

IN_FLIGHT = 4
"""Shell requests of one connection the kernel may have unfinished at once: a page connecting asks a few
things together; a person's click is one."""
IN_FLIGHT_SECONDS = 10.0
"""Seconds after which a forwarded request counts as finished even if its "idle" status never came (the
expert's longest think is under this)."""
HELD = 100
"""Messages held at most per connection: a page sends one click at a time, so only a script that floods
comes near it; past it, messages are dropped."""
HELD_BYTES = 2 * 2**20
"""The bytes of the messages held at most per connection: a page's largest message (a pasted saved-game code of
up to 200,000 characters) fits many times; past it, messages are dropped."""


@dataclass
class Waiting:
    """A message held by a connection: the message as it came, its request id if it is a shell request, and its
    size in bytes (or characters)."""

    message: Any
    request: str | None
    size: int


@dataclass
class Gate:
    """One connection's unfinished shell requests (id: when forwarded), what it holds (and its size), how many it
    dropped, and whether it was paused when last asked."""

    unfinished: dict[str, float] = field(default_factory=dict)
    held: deque[Waiting] = field(default_factory=deque)
    held_bytes: int = 0
    dropped: int = 0
    paused: bool = False
    comms_opened: int = 0
    """How often the page asked to open ipywidgets' own comm in its kernel (`guards.CONTROL_OPENS` times pass)."""

    def admit(self, message: Any, request: str | None, paused: bool, now: float) -> list[Any]:
        """Take a message from the page (`request`: its id if it is a shell request) and return what to forward
        now, in order; past `HELD` held ones, or `HELD_BYTES`, it is dropped (counted in `dropped`)."""
        size = len(message) if isinstance(message, (str, bytes)) else 0
        if len(self.held) >= HELD or self.held_bytes + size > HELD_BYTES:
            self.dropped += 1
            return []
        self.held.append(Waiting(message, request, size))
        self.held_bytes += size
        return self.release(paused, now)

    def finished(self, request: str, paused: bool, now: float) -> list[Any]:
        """The kernel finished `request`: return what may be forwarded now."""
        self.unfinished.pop(request, None)
        return self.release(paused, now)

    def release(self, paused: bool, now: float) -> list[Any]:
        """What may be forwarded now, in order: nothing while `paused`; else held messages up to the first
        shell request that would make more than `IN_FLIGHT` unfinished."""
        for request, when in list(self.unfinished.items()):
            if now - when > IN_FLIGHT_SECONDS:
                del self.unfinished[request]
        self.paused = paused
        out: list[Any] = []
        while self.held and not paused:
            waiting = self.held[0]
            if waiting.request is not None:
                if len(self.unfinished) >= IN_FLIGHT:
                    break
                self.unfinished[waiting.request] = now
            released = self.held.popleft()
            self.held_bytes -= released.size
            out.append(released.message)
        return out
