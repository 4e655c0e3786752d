"""The class tables' HTTP handlers in the server process, for the pages' kernels only (`referee.py`).

Every request names its kernel and proves it is that kernel (`kernel_handler.KernelHandler`); the visitor it
acts for is the one the kernel was handed to (the server state's `book`). So a page moves only through its own
kernel, and for its own seat. Under `protocol.CLASS_PATH` (after the server's base URL):

* GET  `mine`: the visitor's table (`Referee.report`), at once; GET `wait?known=STATE`: the same once its
  "state" is not STATE, or after `WAIT_SECONDS` (a long poll: how a kernel learns of the other player's move, and
  of a table or a round the teacher seated it at);
* GET  `tables`: the tables waiting for a second player, [{"code", "name"}];
* POST `open` {"name", "rules", "hands" (1, 2 or 4; left out: the rules' length)} -> {"code"};
  `join` {"name", "code"} -> {"seat"};
  `move` {"code", "number", "move"} -> {"moves"}; `end` {"code", "ending"} -> {}; `take` {"code"} -> {} (the
  visitor takes the match of their table that closed before it ended on against the computer: `Referee.take_on`).

A refusal is HTTP 400 with {"refused": key, "facts": {...}} (the key of a text under "classmates.refused");
a request without a valid proof is 403, and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ..class_codes import ClassTableError
from ..protocol import CLASS_PATH, WAIT_SECONDS
from .guards import refuse
from .kernel_handler import KernelHandler
from .referee import Referee
from .state import state_of

PRESENCE_STEP_SECONDS = 1.0
"""How often a long poll looks whether its kernel's page has connected, while the report it holds tells of a closed
table the page has not been told of (`ClassHandler._hold`)."""


class Waiters:
    """An event per visitor that is set (and replaced) at every change of their report, for the long polls of their
    kernels."""

    def __init__(self) -> None:
        self.events: dict[str, asyncio.Event] = {}

    def event(self, visitor: str) -> asyncio.Event:
        """The event the next change to `visitor`'s report sets."""
        return self.events.setdefault(visitor, asyncio.Event())

    def changed(self, visitor: str) -> None:
        """`visitor`'s report changed: wake whoever waits on it."""
        event = self.events.pop(visitor, None)
        if event is not None:
            event.set()


class ClassHandler(KernelHandler):
    """One handler for every request of the class tables (`action` is the last part of the path)."""

    tables: Referee
    waiters: Waiters

    def initialize(self, tables: Referee, waiters: Waiters) -> None:
        """Given by the route: the server's tables and their waiters."""
        self.tables, self.waiters = tables, waiters

    def _present(self) -> bool:
        """Whether the visitor's page is connected to this kernel."""
        return state_of(self).book.sockets.get(self.kernel_id, 0) > 0

    def _report(self) -> dict[str, Any]:
        """The visitor's table; the visitor counts as here only while their page is connected to this kernel."""
        return self.tables.report(self.visitor, present=self._present())

    async def get(self, action: str) -> None:
        """mine, wait, tables."""
        if action == "mine":
            self.answer(self._report())
        elif action == "tables":
            self.answer([{"code": code, "name": name} for code, name in self.tables.waiting()])
        elif action == "wait":
            await self._wait()
        else:
            refuse(self, 404, "no such class request")

    async def _wait(self) -> None:
        known = self.get_argument("known", "")[:200]
        report = self._report()
        if report["state"] == known:
            await self._hold(untold=report.get("told") is False and not self._present())
            report = self._report()
        self.answer(report)

    async def _hold(self, untold: bool) -> None:
        """Wait until the visitor's report changes, or `WAIT_SECONDS`. `untold`: it tells of their closed table, read
        before this kernel's page connected (a kernel reads its table as it starts, before its page shows it), so it
        is read again once the page has connected (looked at every `PRESENCE_STEP_SECONDS`), which counts as told
        (`Referee.report`): a page that showed "while you were away" says it once, however soon it is reloaded."""
        event, loop = self.waiters.event(self.visitor), asyncio.get_running_loop()
        end = loop.time() + WAIT_SECONDS
        while (left := end - loop.time()) > 0:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(event.wait(), min(left, PRESENCE_STEP_SECONDS) if untold else left)
                return
            if untold and self._present():
                self._report()
                untold = False

    def post(self, action: str) -> None:
        """open, join, move, end, take."""
        tables, visitor = self.tables, self.visitor
        try:
            body = self.body()
            if action == "open":
                rules = body.get("rules", "REVISED_2008")
                self.answer({"code": tables.open(visitor, body.get("name"), rules if isinstance(rules, str) else "",
                                                 body.get("hands"))})
            elif action == "join":
                self.answer({"seat": tables.join(visitor, body.get("name"), body.get("code"))})
            elif action == "move":
                self.answer({"moves": tables.move(visitor, body.get("code"), body.get("number"), body.get("move"))})
            elif action == "end":
                ending = body.get("ending")
                tables.end(visitor, body.get("code"), ending if isinstance(ending, str) else "")
                self.answer({})
            elif action == "take_round":
                tables.take_round(visitor, body.get("started"))
                self.answer({})
            elif action == "take":
                tables.take_on(visitor, body.get("code"))
                self.answer({})
            else:
                refuse(self, 404, "no such class request")
        except ClassTableError as error:
            self.refused(error)


def class_routes(base_url: str, tables: Referee, waiters: Waiters) -> list[tuple[str, Any, dict[str, Any]]]:
    """The route of the class handlers under the server's `base_url`."""
    return [(f"{base_url.rstrip('/')}/{CLASS_PATH}(mine|wait|tables|open|join|move|end|take_round|take)", ClassHandler,
             {"tables": tables, "waiters": waiters})]
