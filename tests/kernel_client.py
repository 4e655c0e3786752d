"""A visitor of the app at the protocol level: what a browser's page does over HTTP and the kernel websocket.

`Visit.open(base_url)` GETs the page (keeping the cookies the server sets, as a browser does), connects
to the kernel the page names over Jupyter's v1 websocket protocol, asks for every widget's state through
the widget control comm (as the page's widget manager does) and finds the Play board. `visit.click(intent)`
sends the board the same comm message a click sends (`model.send(intent)`) and returns the board's new
state and how long it took to arrive. Used by the protocol tests and by benchmarks/classroom_load.py.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Coroutine
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any, TypeVar
from urllib.parse import urlsplit

from own_thread import in_own_thread
from websockets.asyncio.client import ClientConnection, connect

PROTOCOL = "v1.kernel.websocket.jupyter.org"
T = TypeVar("T")
KERNEL_ID = re.compile(r'"kernelId": *"([0-9a-f-]{36})"')
WAITING = re.compile(r'fetch\(("[^"]*"), .*?answer\.go \? ("[^"]*")', re.S)
"""The waiting page's line address and ticket (server.WAITING_PAGE)."""
TITLE = re.compile(r"<title>([^<]*)</title>")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `coroutine` to its end in a thread of its own (the test process may already run an event loop)."""
    return in_own_thread(lambda: asyncio.run(coroutine))


class VisitError(RuntimeError):
    """The server refused or failed a step of the visit."""


def pack(channel: str, header: dict[str, Any], content: dict[str, Any], metadata: dict[str, Any] | None = None,
         parent: dict[str, Any] | None = None) -> bytes:
    """One message in the v1 kernel websocket protocol (offsets, channel, header, parent, metadata, content)."""
    parts = [json.dumps(part).encode() for part in (header, parent or {}, metadata or {}, content)]
    name = channel.encode()
    offsets = [8 * (1 + 1 + len(parts) + 1)]
    offsets.append(offsets[-1] + len(name))
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    head = len(offsets).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + name + b"".join(parts)


def unpack(data: bytes | str) -> dict[str, Any]:
    """A v1 websocket message as {channel, header, parent_header, metadata, content} (JSON text frames too)."""
    if isinstance(data, str):
        message: dict[str, Any] = json.loads(data)
        return message
    count = int.from_bytes(data[:8], "little")
    offsets = [int.from_bytes(data[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
    parts = [data[offsets[i]:offsets[i + 1]] for i in range(count - 1)]
    names = ("header", "parent_header", "metadata", "content")
    message = {"channel": parts[0].decode()}
    for name, part in zip(names, parts[1:5]):
        message[name] = json.loads(part) if part else {}
    return message


def http_get(url: str, cookies: dict[str, str], timeout: float = 300) -> tuple[int, str, dict[str, str]]:
    """GET `url` sending `cookies`: (status, body, cookies set by the reply)."""
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            status, body, head = reply.status, reply.read().decode("utf-8", "replace"), reply.headers
    except urllib.error.HTTPError as error:
        status, body, head = error.code, error.read().decode("utf-8", "replace"), error.headers
    jar: dict[str, str] = {}
    for line in head.get_all("Set-Cookie") or []:
        parsed = SimpleCookie()
        parsed.load(line)
        jar.update({name: morsel.value for name, morsel in parsed.items()})
    return status, body, jar


@dataclass
class Visit:
    """One visitor: the page's cookies, its kernel and its websocket."""

    base_url: str
    cookies: dict[str, str] = field(default_factory=dict)
    kernel_id: str = ""
    socket: ClientConnection | None = None
    session: str = field(default_factory=lambda: uuid.uuid4().hex)
    told: list[str] = field(default_factory=list)  # what the waiting page said, in order
    lost: int = 0  # times a waiting page holding a ticket was told it had gone (it lost its place)
    states: dict[str, dict[str, Any]] = field(default_factory=dict)
    board: str = ""
    received: list[dict[str, Any]] = field(default_factory=list)
    _waiters: list[tuple[Any, asyncio.Future[dict[str, Any]]]] = field(default_factory=list)
    _reader: asyncio.Task[None] | None = None

    # -- the page ------------------------------------------------------------------------------
    async def load(self, query: str = "") -> int:
        """GET the page (its kernel's id read from it), waiting in the server's line as the waiting page does
        (what it was told kept in `told`); returns the HTTP status."""
        status, body, jar = await asyncio.to_thread(http_get, self.base_url + query, self.cookies)
        self.cookies.update(jar)
        while status == 200 and (waiting := WAITING.search(body)):
            line_url, ticket = json.loads(waiting.group(1)), json.loads(waiting.group(2))
            self.told.append(html.unescape(TITLE.search(body).group(1)))  # type: ignore[union-attr]
            parts = urlsplit(self.base_url)
            while True:
                _, answer, _ = await asyncio.to_thread(http_get, f"http://{parts.netloc}{line_url}", self.cookies)
                place = json.loads(answer)
                if place.get("go") or place.get("gone"):
                    break
                self.told.append(place["text"])
                await asyncio.sleep(1.0)
            self.lost += bool(ticket and place.get("gone"))
            self.cookies["leopard_ticket"] = ticket if place.get("go") else ""
            status, body, jar = await asyncio.to_thread(http_get, self.base_url + query, self.cookies)
            self.cookies.pop("leopard_ticket", None)
            self.cookies.update({name: value for name, value in jar.items() if name != "leopard_ticket"})
        found = KERNEL_ID.search(body)
        if status == 200 and found:
            self.kernel_id = found.group(1)
        return status

    async def connect(self, kernel_id: str | None = None, origin: str | None = None) -> None:
        """Open the kernel websocket as the page does (VisitError if the server refuses it)."""
        kernel = kernel_id or self.kernel_id
        parts = urlsplit(self.base_url)
        url = f"ws://{parts.netloc}/api/kernels/{kernel}/channels?session_id={self.session}"
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        try:
            self.socket = await connect(url, subprotocols=[PROTOCOL], additional_headers=headers,  # type: ignore[list-item]
                                        origin=origin or f"http://{parts.netloc}",  # type: ignore[arg-type]
                                        max_size=2**26, open_timeout=120, ping_interval=None)
        except Exception as error:  # websockets raises InvalidStatus and friends
            raise VisitError(f"websocket refused: {error}") from error
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.socket is not None
        try:
            async for data in self.socket:
                message = unpack(data)
                self.received.append(message)
                self._waiters = [entry for entry in self._waiters if not entry[1].done()]
                for entry in list(self._waiters):
                    test, future = entry
                    if not future.done() and test(message):
                        future.set_result(message)
                        self._waiters.remove(entry)
        except Exception:  # the connection closed: waiters time out
            return
        finally:
            for _test, future in self._waiters:
                if not future.done():
                    future.set_exception(VisitError("the websocket closed"))

    def expect(self, test: Any) -> asyncio.Future[dict[str, Any]]:
        """A future for the next message that satisfies `test` (register before sending)."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters.append((test, future))
        return future

    async def send(self, channel: str, msg_type: str, content: dict[str, Any],
                   metadata: dict[str, Any] | None = None) -> str:
        """Send one message to the kernel; returns its msg_id."""
        assert self.socket is not None
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": msg_type, "session": self.session, "username": "",
                  "date": "", "version": "5.3"}
        await self.socket.send(pack(channel, header, content, metadata))
        return msg_id

    # -- the widgets ---------------------------------------------------------------------------
    async def fetch_states(self, timeout: float = 120) -> dict[str, dict[str, Any]]:
        """Every widget's state, through the widget control comm (what the page's widget manager asks)."""
        comm_id = uuid.uuid4().hex
        reply = self.expect(lambda m: m["header"].get("msg_type") == "comm_msg"
                            and m["content"].get("comm_id") == comm_id)
        await self.send("shell", "comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget.control",
                                               "data": {}}, {"version": "1.0.0"})
        await self.send("shell", "comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}})
        message = await asyncio.wait_for(reply, timeout)
        self.states = message["content"]["data"]["states"]
        return self.states

    def find_board(self) -> str:
        """The model id of the Play board (the anywidget whose table has a hand)."""
        for model_id, model in self.states.items():
            table = model.get("state", {}).get("state")
            if isinstance(table, dict) and "hand" in table and "_esm" in model.get("state", {}):
                self.board = model_id
                return model_id
        raise VisitError("no board among the widgets")

    async def ready(self, timeout: float = 120) -> None:
        """Wait until the kernel answers on the websocket, as the page does before anything else (a message
        sent while the server is still wiring the connection up is dropped)."""
        deadline = time.monotonic() + timeout
        while True:
            reply = self.expect(lambda m: m["header"].get("msg_type") == "kernel_info_reply")
            await self.send("shell", "kernel_info_request", {})
            try:
                await asyncio.wait_for(reply, min(5.0, max(0.1, deadline - time.monotonic())))
                return
            except asyncio.TimeoutError:
                if time.monotonic() >= deadline:
                    raise VisitError("the kernel did not answer") from None

    async def open(self, query: str = "", timeout: float = 300) -> None:
        """Load the page, connect to its kernel and find the board (VisitError on a refusal)."""
        status = await asyncio.wait_for(self.load(query), timeout)
        if status != 200 or not self.kernel_id:
            raise VisitError(f"the page answered {status}")
        await self.connect()
        await self.ready(min(timeout, 120))
        await self.fetch_states(min(timeout, 120))
        self.find_board()

    async def click(self, intent: dict[str, Any], timeout: float = 60) -> tuple[dict[str, Any] | None, float]:
        """Send the board an intent as a click does; (its new table state or None, seconds until the answer).

        The answer is the board's state update (not one drawn while the computer chooses its reply: `thinking`), or
        its "done" message when the intent changed nothing."""
        board = self.board

        def answer(message: dict[str, Any]) -> bool:
            content = message["content"]
            if message["header"].get("msg_type") != "comm_msg" or content.get("comm_id") != board:
                return False
            data = content.get("data", {})
            state = data.get("state", {})
            return (data.get("method") in ("update", "echo_update") and "state" in state
                    and not state["state"].get("thinking")) or (
                data.get("method") == "custom" and data.get("content", {}).get("type") == "done")

        reply = self.expect(answer)
        start = time.perf_counter()
        await self.send("shell", "comm_msg", {"comm_id": board, "data": {"method": "custom", "content": intent}})
        message = await asyncio.wait_for(reply, timeout)
        elapsed = time.perf_counter() - start
        data = message["content"]["data"]
        if data.get("method") == "custom":
            return None, elapsed
        table: dict[str, Any] = data["state"]["state"]
        self.states[board]["state"]["state"] = table
        return table, elapsed

    def table(self) -> dict[str, Any]:
        """The board's table as last seen."""
        table: dict[str, Any] = self.states[self.board]["state"]["state"]
        return table

    async def close(self) -> None:
        """Close the websocket (as a tab that is closed or crashes, without the unload beacon)."""
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
