"""A real `leopard-tutor` server driven at the protocol level (HTTP and the kernel websocket, as a page
does; see kernel_client.py): sessions belong to the browser that opened them, no traceback reaches a
page, a flood of intents is paced, and a session whose page has gone is ended whatever the tab did."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from kernel_client import Visit, VisitError, run
from rendered import picked
from websockets.asyncio.client import connect

from leopard_tutor.engine.catalogue import text
from leopard_tutor.server import connection_gate

GONE_AFTER = 4  # seconds: the server's page-gone grace, scaled down from a minute


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, server_tools: Any) -> Iterator[Any]:
    start, stop = server_tools
    started = start(tmp_path_factory.mktemp("guards") / "server.log", "--page-gone-after", str(GONE_AFTER))
    try:
        yield started
    finally:
        stop(started.process)


def request(method: str, url: str, cookies: dict[str, str], origin: str | None = None) -> int:
    """The status of one HTTP request sent with these cookies (and Origin)."""
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
    if origin:
        headers["Origin"] = origin
    data = b"" if method in ("POST", "DELETE") else None
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data, headers, method=method), timeout=30) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_another_browser_with_a_stolen_kernel_id_cannot_connect_query_or_end_the_session(server: Any) -> None:
    async def scenario() -> None:
        base, own = server.url, server.url.rstrip("/")
        alice, mallory = Visit(base), Visit(base)
        await alice.open()
        assert await mallory.load() == 200 and mallory.cookies != alice.cookies, "her own page, her own cookie"
        kernel = alice.kernel_id
        with pytest.raises(VisitError, match="403"):
            await mallory.connect(kernel)
        assert request("GET", f"{base}api/kernels/{kernel}", mallory.cookies) == 403
        assert request("DELETE", f"{base}api/kernels/{kernel}", mallory.cookies, own) == 403
        assert request("POST", f"{base}voila/api/shutdown/{kernel}", mallory.cookies, own) == 403
        assert request("POST", f"{base}voila/api/shutdown/{kernel}", {}, own) == 403
        assert request("POST", f"{base}voila/api/shutdown/{kernel}", alice.cookies, "https://evil.example") == 403
        for headers in ({}, {"X-Leopard-Kernel-Proof": "0" * 64}):
            with pytest.raises(Exception, match="403"):
                async with connect(f"ws://{base[7:]}voila/query/{kernel}", additional_headers=headers):
                    pass
        assert request("GET", f"{base}api/kernels/{kernel}", alice.cookies) == 200
        table, _ = await alice.click({"type": "select", "index": 0})
        assert table is not None, "her session is untouched"
        assert table["message"].startswith(picked(table["hand"]["cards"][0]["card"]))
        await alice.close()
        assert request("POST", f"{base}voila/api/shutdown/{kernel}", alice.cookies, own) == 204, "her own beacon"
        await mallory.close()

    run(scenario())


def test_a_teacher_link_still_reaches_the_preheated_kernel(server: Any) -> None:
    """The kernel proves who it is on the query socket, and gets its visitor's query string."""
    async def scenario() -> str:
        visit = Visit(server.url)
        await visit.open("?rules=1963")
        turn = str(visit.table()["turn"])
        await visit.close()
        return turn

    assert text("rules.ORIGINAL_1963") in run(scenario())


def test_no_traceback_reaches_a_page(server: Any) -> None:
    async def scenario() -> list[dict[str, object]]:
        visit = Visit(server.url)
        await visit.open()
        seen = len(visit.received)
        board = visit.board
        bad = [{"method": "update", "state": {"state": 5}, "buffer_paths": []},  # ipywidgets shows a traceback
               {"method": "update", "state": {"texts": [1]}, "buffer_paths": []},
               {"method": "custom", "content": {"type": "action", "id": ["hint"]}},
               {"method": "custom", "content": "not an intent"},
               {"method": "no such method"}]
        for data in bad:
            await visit.send("shell", "comm_msg", {"comm_id": board, "data": data})
        await visit.send("shell", "comm_msg", {"comm_id": "no-such-comm", "data": {}})
        await visit.send("shell", "comm_info_request", {"target_name": 5})
        await visit.send("shell", "execute_request", {"code": "1/0"})
        table, _ = await visit.click({"type": "select", "index": 0})  # answered after all of the above
        assert table is not None
        await asyncio.sleep(1)
        await visit.close()
        return visit.received[seen:]

    received = run(scenario())
    text = json.dumps(received)
    assert "Traceback" not in text and "site-packages" not in text and ".py" not in text
    assert not [m for m in received if m["header"]["msg_type"] in ("error", "stream")]  # type: ignore[index]


FLOOD = connection_gate.HELD
"""Intents sent at once: as many as the server holds for a connection (beyond them it drops, unanswered: a page
sends one at a time and waits for its answer, so only a script sends more)."""


async def click_once_the_pace_refills(visit: Visit, card: Any, within: float = 30) -> dict[str, Any] | None:
    """Click the third card until the kernel's pace takes the click (a click beyond it changes nothing), polled
    rather than waited for: its new table state (None if the pace never took one `within` seconds)."""
    deadline = time.monotonic() + within
    while True:
        table, _ = await visit.click({"type": "select", "index": 2})
        if (table is not None and table["message"].startswith(picked(card))) or time.monotonic() > deadline:
            return table
        await asyncio.sleep(0.2)


def test_a_flood_of_intents_is_paced_and_the_board_stays_in_step(server: Any) -> None:
    async def scenario() -> tuple[list[dict[str, Any]], float, dict[str, Any], dict[str, Any] | None]:
        visit = Visit(server.url)
        await visit.open()
        seen = len(visit.received)
        board = visit.board
        start = time.monotonic()
        for i in range(FLOOD):
            await visit.send("shell", "comm_msg", {"comm_id": board, "data": {"method": "custom",
                                                                              "content": {"type": "select",
                                                                                          "index": i % 2}}})
        done = 0
        while done < FLOOD and time.monotonic() < start + 120:  # every intent is answered, handled or not
            await asyncio.sleep(0.2)
            done = sum(1 for m in visit.received[seen:]
                       if m["content"].get("data", {}).get("content") == {"type": "done"})
        elapsed = time.monotonic() - start
        tables = [m["content"]["data"]["state"]["state"] for m in visit.received[seen:]
                  if m["content"].get("data", {}).get("method") == "update"
                  and "state" in m["content"]["data"].get("state", {})]
        card = tables[-1]["hand"]["cards"][2]["card"]
        table = await click_once_the_pace_refills(visit, card)
        await visit.close()
        return tables, elapsed, card, table

    tables, elapsed, card, table = run(scenario())
    assert elapsed < 120, "every intent was answered"
    assert len(tables) <= 30 + 10 * elapsed + elapsed / 2 + 1, (len(tables), elapsed)  # handled, a note now and then
    assert text("board.too_fast") in [t["message"] for t in tables]
    assert table is not None and table["message"].startswith(picked(card))
    assert [c["selected"] for c in table["hand"]["cards"]].count(True) == 1  # type: ignore[index]


def test_a_session_whose_page_has_gone_is_ended_whatever_the_tab_did(server: Any) -> None:
    async def scenario() -> tuple[dict[str, int], dict[str, int]]:
        base = server.url
        never, left, stays = Visit(base), Visit(base), Visit(base)
        visits = {"never": never, "left": left, "stays": stays}
        alive = {}

        def check(name: str) -> int:
            return request("GET", f"{base}api/kernels/{visits[name].kernel_id}", visits[name].cookies)
        await stays.open()
        alive["stays"] = check("stays")
        await left.open()
        await left.close()  # no unload beacon: a crashed or killed tab
        alive["left"] = check("left")
        assert await never.load() == 200  # a script's GET: a kernel handed out, never connected to
        alive["never"] = check("never")
        deadline = time.monotonic() + GONE_AFTER + 20
        after = alive
        while time.monotonic() < deadline:
            await asyncio.sleep(1)
            after = {name: check(name) for name in visits}
            if after["never"] == after["left"] == 404:
                break
        table, _ = await stays.click({"type": "select", "index": 0})
        assert table is not None, "the connected page lives on"
        assert table["message"].startswith(picked(table["hand"]["cards"][0]["card"]))
        await stays.close()
        return alive, after

    alive, after = run(scenario())
    assert alive == {"never": 200, "left": 200, "stays": 200}
    assert after == {"never": 404, "left": 404, "stays": 200}

