"""The class tables' HTTP handlers in the server process, for the pages' kernels only (`class_tables.py`).

Every request names its kernel (`KERNEL_HEADER`) and proves it is that kernel (`sessions.PROOF_HEADER`, an
HMAC under the kernel's connection key, which no browser ever holds); the visitor it acts for is the one
the kernel was handed to (`guards.BOOK`). So a page moves only through its own kernel, and for its own
seat. Under `PATH` (after the server's base URL):

* GET  `mine`: the visitor's table (`ClassTables.report`), at once; GET `wait?version=N`: the same once its
  version is not N, or after `WAIT_SECONDS` (a long poll: how a kernel learns of the other player's move);
* GET  `tables`: the tables waiting for a second player, [{"code", "name"}];
* POST `open` {"name", "rules"} -> {"code"}; `join` {"name", "code"} -> {"seat"};
  `move` {"code", "number", "move"} -> {"moves"}; `end` {"code", "ending"} -> {}.

A refusal is HTTP 400 with {"refused": key, "facts": {...}} (the key of a text under "classmates.refused");
a request without a valid proof is 403, and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from tornado.web import RequestHandler

from ..class_client import KERNEL_HEADER, PATH
from ..class_codes import ClassTableError
from ..kernel_proof import PROOF_HEADER, proof_holds
from .class_tables import ClassTables
from .guards import BOOK, refuse

WAIT_SECONDS = 20.0
"""The longest a long poll waits before it answers anyway (the answer also says if the other player is gone)."""
MAX_BODY = 4096
"""The largest request body a kernel sends (a move is under 100 bytes)."""


class Waiters:
    """An event per table that is set (and replaced) at every change, for the long polls waiting on it."""

    def __init__(self) -> None:
        self.events: dict[str, asyncio.Event] = {}

    def event(self, code: str) -> asyncio.Event:
        """The event the next change to `code` sets."""
        return self.events.setdefault(code, asyncio.Event())

    def changed(self, code: str) -> None:
        """Table `code` changed: wake whoever waits on it."""
        event = self.events.pop(code, None)
        if event is not None:
            event.set()


class ClassHandler(RequestHandler):
    """One handler for every request of the class tables (`action` is the last part of the path)."""

    tables: ClassTables
    waiters: Waiters
    visitor: str
    kernel_id: str

    def initialize(self, tables: ClassTables, waiters: Waiters) -> None:
        """Given by the route: the server's tables and their waiters."""
        self.tables, self.waiters = tables, waiters

    def check_xsrf_cookie(self) -> None:
        """No XSRF cookie: a request is a kernel's, proven by its HMAC, never a browser's."""

    def prepare(self) -> None:
        """Refuse (403) a request that does not prove it comes from a visitor's kernel."""
        kernel_id = self.request.headers.get(KERNEL_HEADER, "")
        try:
            key = self.settings["kernel_manager"].get_kernel(kernel_id).session.key
        except Exception:  # no such kernel
            key = None
        visitor = BOOK.owner(kernel_id)
        if visitor is None or not proof_holds(key, kernel_id, self.request.headers.get(PROOF_HEADER)):
            refuse(self, 403, "only a visitor's kernel may use the class tables")
        self.visitor, self.kernel_id = str(visitor), kernel_id

    def _report(self) -> dict[str, Any]:
        """The visitor's table; the visitor counts as here only while their page is connected to this kernel."""
        return self.tables.report(self.visitor, present=BOOK.sockets.get(self.kernel_id, 0) > 0)

    def _answer(self, data: Any) -> None:
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(data))

    def _refused(self, error: ClassTableError) -> None:
        self.set_status(400)
        self._answer({"refused": error.key, "facts": error.facts})

    async def get(self, action: str) -> None:
        """mine, wait, tables."""
        if action == "mine":
            self._answer(self._report())
        elif action == "tables":
            self._answer([{"code": code, "name": name} for code, name in self.tables.waiting()])
        elif action == "wait":
            await self._wait()
        else:
            refuse(self, 404, "no such class request")

    async def _wait(self) -> None:
        try:
            version = int(self.get_argument("version", "-1"))
        except ValueError:
            version = -1
        report = self._report()
        code = report.get("table")
        if code is not None and report["version"] == version:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.waiters.event(str(code)).wait(), WAIT_SECONDS)
            report = self._report()
        self._answer(report)

    def post(self, action: str) -> None:
        """open, join, move, end."""
        if len(self.request.body) > MAX_BODY:
            refuse(self, 413, "a class request too large")
        try:
            body = json.loads(self.request.body or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict):
            self._refused(ClassTableError("bad_request"))
            return
        tables, visitor = self.tables, self.visitor
        try:
            if action == "open":
                self._answer({"code": tables.open(visitor, body.get("name"), body.get("rules", "REVISED_2008"))})
            elif action == "join":
                self._answer({"seat": tables.join(visitor, body.get("name"), body.get("code"))})
            elif action == "move":
                self._answer({"moves": tables.move(visitor, body.get("code"), body.get("number"), body.get("move"))})
            elif action == "end":
                ending = body.get("ending")
                tables.end(visitor, body.get("code"), ending if isinstance(ending, str) else "")
                self._answer({})
            else:
                refuse(self, 404, "no such class request")
        except ClassTableError as error:
            self._refused(error)


def class_routes(base_url: str, tables: ClassTables, waiters: Waiters) -> list[tuple[str, Any, dict[str, Any]]]:
    """The route of the class handlers under the server's `base_url`."""
    return [(f"{base_url.rstrip('/')}/{PATH}(mine|wait|tables|open|join|move|end)", ClassHandler,
             {"tables": tables, "waiters": waiters})]
