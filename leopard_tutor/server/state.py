"""What one server process keeps about its visitors, made once at start (`launch.class_server`, or for Voilà as a
Jupyter server extension `extension.py`) and handed to every handler through the tornado application's settings
(`SETTING`; `state_of` reads it): the sessions, the refusals so far, the visitors' processor budgets, the gates of
the kernel connections, the class's waiting line, the limits a visit meets and the preheated kernels' filler."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .connection_gate import Gate
from .sessions import SessionBook
from .visitor_pace import VisitorPace
from .waiting_line import PAGES_AT_ONCE, ClassLine

if TYPE_CHECKING:
    from tornado.web import Application, RequestHandler

    from .connection import GuardedConnection
    from .kernel_pool import PoolFiller

GONE_KERNELS_KEPT = 1024
"""How many kernels asked for but gone a server remembers having logged (a class's pages after a restart)."""
SETTING = "leopard_tutor"
"""The key of the server's state in the tornado application's settings."""


@dataclass
class ServerState:
    """The state of one server process (see the module's docstring); `limit` caps the sessions at once and
    `per_visitor` those of one visitor (None: no cap, as Voilà served by a Jupyter server has)."""

    book: SessionBook = field(default_factory=SessionBook)
    refusals: Counter[str] = field(default_factory=Counter)
    gone_kernels: dict[str, None] = field(default_factory=dict)
    """The kernels asked for lately that this server does not have (oldest first, at most `GONE_KERNELS_KEPT`):
    each is logged once (`guards.refuse_gone_kernel`)."""
    pace: VisitorPace = field(default_factory=VisitorPace)
    gates: dict[GuardedConnection, Gate] = field(default_factory=dict)
    line: ClassLine = field(default_factory=ClassLine)
    limit: int | None = None
    per_visitor: int | None = None
    pages: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(PAGES_AT_ONCE))
    filler: PoolFiller | None = None


def state_of(handler: RequestHandler) -> ServerState:
    """The server's state, from a handler's application settings."""
    state: ServerState = handler.settings[SETTING]
    return state


def state_of_application(application: Application) -> ServerState:
    """The server's state, from a tornado application's settings."""
    state: ServerState = application.settings[SETTING]
    return state
