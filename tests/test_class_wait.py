"""The class tables' long poll (`server/class_handlers.py`, GET `wait`) as a kernel meets it over HTTP: a closed table
read before the kernel's page connected is told once the page has connected, while the poll is held."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from fake_clock import Clock
from own_thread import in_own_thread

from leopard_tutor.server import class_handlers
from leopard_tutor.server.class_handlers import ClassHandler, Waiters
from leopard_tutor.server.class_store import ClassStore
from leopard_tutor.server.referee import Referee
from leopard_tutor.server.state import SETTING, ServerState
from leopard_tutor.table.class_table import away_words

NOW = 1_800_000_000.0
KERNEL = "vics-kernel"


def test_a_table_the_teacher_ended_while_the_student_was_away_is_said_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Vic's page was closed when the teacher ended his table. A page he opens reads its table as its kernel starts,
    before the page connects, so that reading does not count as told; the kernel's long poll, held while the page
    connects, reads it again once it has, so a reload a few seconds later no longer says "while you were away" (it
    said it on every visit within the poll's 20 s)."""
    from tornado.httpclient import AsyncHTTPClient
    from tornado.httpserver import HTTPServer
    from tornado.testing import bind_unused_port
    from tornado.web import Application

    monkeypatch.setattr(class_handlers, "WAIT_SECONDS", 4.0)
    tables = Referee(ClassStore.in_folder(tmp_path), clock=Clock(NOW))
    code = tables.open("uma", "Uma", "REVISED_2008", 2)
    tables.join("vic", "Vic", code)
    tables.end_by_teacher(code)
    served = ServerState()

    class Proved(ClassHandler):
        def prepare(self) -> None:  # as a kernel proved to be Vic's (kernel_handler.KernelHandler.prepare)
            self.visitor, self.kernel_id = "vic", KERNEL

    async def visit() -> tuple[dict[str, Any], dict[str, Any], float]:
        server = HTTPServer(Application([(r"/(mine|wait)", Proved, {"tables": tables, "waiters": Waiters()})],
                                        **{SETTING: served}))
        listening, port = bind_unused_port()
        server.add_sockets([listening])
        client = AsyncHTTPClient()
        try:
            first = json.loads((await client.fetch(f"http://127.0.0.1:{port}/mine")).body)  # the kernel starts
            held = asyncio.ensure_future(client.fetch(f"http://127.0.0.1:{port}/wait?known={first['state']}"))
            await asyncio.sleep(0.3)
            served.book.sockets[KERNEL] = 1  # the page connects to its kernel
            began = time.monotonic()
            while "vic" not in tables.last["vic"].told and time.monotonic() - began < 3.5:
                await asyncio.sleep(0.05)
            told_after = time.monotonic() - began
            answer = json.loads((await held).body)
            return first, answer, told_after
        finally:
            server.stop()

    first, answer, told_after = in_own_thread(lambda: asyncio.run(visit()))
    assert first["ended"] == "teacher" and first["told"] is False and away_words(first)
    assert told_after < 1.5, f"told {told_after:.1f} s after the page connected"
    assert answer["state"] == first["state"]  # (nothing else changed: the poll was answered at its end)
    again = tables.report("vic", present=False)  # the next visit: a reload
    assert again["told"] is True and not away_words(again)
