"""Visitors' sessions without a server: owners, pages gone, the kernel's proof, the screen on kernel output,
clean-up of what is kept per kernel, and the pace of a board's intents."""

from __future__ import annotations

from typing import Any

import pytest
from fake_clock import Clock
from kernel_client import run
from keyed import mark, said
from tornado.web import HTTPError

from leopard_tutor.app import build_app
from leopard_tutor.engine import Card
from leopard_tutor.pacing import IntentPace
from leopard_tutor.protocol import kernel_proof, proof_holds
from leopard_tutor.server import guards, sessions
from leopard_tutor.server.kernel_messages import ERROR_REPLY, screen
from leopard_tutor.server.kernels import ForgettingKernels
from leopard_tutor.server.sessions import SessionBook
from leopard_tutor.server.state import ServerState
from leopard_tutor.server.visits import PageKernels


def test_a_session_answers_its_owner_only() -> None:
    book = SessionBook()
    book.hand_out("k1", "alice")
    assert book.allows("k1", "alice")
    assert not book.allows("k1", "bob") and not book.allows("k1", None)
    assert book.allows("spare", "bob"), "a kernel no visitor was given (the preheated one) is nobody's"
    book.forget("k1")
    assert book.allows("k1", "bob")


def test_a_page_gone_for_the_grace_time_is_swept_and_a_connected_one_is_not() -> None:
    clock = Clock(1000.0)
    book = SessionBook(gone_after=60, clock=clock)
    for kernel in ("never-came", "left", "stays", "died", "still-sending"):
        book.hand_out(kernel, kernel)
        if kernel != "still-sending":
            book.served(kernel)
    live = {"never-came": 0, "left": 1, "stays": 1, "died": 1, "still-sending": 0}
    clock.now += 30
    assert book.sweep(live.get) == ([], [])
    live["left"] = 0
    del live["died"]
    clock.now += 31
    assert book.sweep(live.get) == (["never-came"], ["died"]), "the page that never connected is 61 s gone"
    book.forget("died")
    clock.now += 28
    assert book.sweep(live.get) == (["never-came"], []), "the page that left was last seen connected 59 s ago"
    clock.now += 1
    assert book.sweep(live.get)[0] == ["never-came", "left"], "a page still being sent is never gone"
    book.served("still-sending")
    clock.now += 60
    assert "still-sending" in book.sweep(live.get)[0]


def test_only_the_kernel_holding_the_key_can_prove_it_is_that_kernel() -> None:
    key = b"connection-key"
    proof = kernel_proof(key, "k1")
    assert proof_holds(key, "k1", proof)
    assert not proof_holds(key, "k2", proof)
    assert not proof_holds(b"other", "k1", proof)
    assert not proof_holds(None, "k1", proof) and not proof_holds(key, "k1", None) and not proof_holds(b"", "k1", "")


@pytest.mark.parametrize(("msg_type", "content", "verdict"), [
    ("error", {"ename": "TraitError", "traceback": ["File /srv/x.py"]}, False),
    ("stream", {"name": "stderr", "text": "Traceback (most recent call last):\n"}, False),
    ("stream", {"name": "stdout", "text": "hello\n"}, True),
    ("comm_msg", {"data": {"method": "update"}}, True),
    ("status", {"execution_state": "idle"}, True),
    ("execute_reply", {"status": "error", "ename": "ZeroDivisionError", "traceback": ["File /srv/x.py"]},
     ERROR_REPLY),
    ("comm_info_reply", {"status": "ok", "comms": {}}, True),
])
def test_no_traceback_or_error_output_is_let_through(msg_type: str, content: dict[str, Any], verdict: object) -> None:
    assert screen(msg_type, lambda: content) == verdict


def test_the_content_of_ordinary_messages_is_not_even_unpacked() -> None:
    def unpack() -> dict[str, Any]:
        raise AssertionError("unpacked")
    assert screen("comm_msg", unpack) is True and screen("status", unpack) is True


class Kernel:
    def __init__(self) -> None:
        self.last_activity = None


class Manager:
    """The parts of Voilà's kernel manager the guards use."""

    def __init__(self) -> None:
        self.kernels: dict[str, int] = {"spare": 0}
        self.shut: list[str] = []
        self.count = 0

    async def get_rendered_notebook(self, notebook: str) -> tuple[None, list[str], str]:
        return None, [], "spare"

    async def start_kernel(self, **_kwargs: Any) -> str:
        self.count += 1
        kernel = f"k{self.count}"
        self.kernels[kernel] = 0
        return kernel

    async def shutdown_kernel(self, kernel_id: str) -> None:
        self.shut.append(kernel_id)
        del self.kernels[kernel_id]

    def list_kernel_ids(self) -> list[str]:
        return list(self.kernels)

    def kernel_model(self, kernel_id: str) -> dict[str, Any]:
        return {"id": kernel_id, "connections": self.kernels[kernel_id]}

    def get_kernel(self, kernel_id: str) -> Kernel:
        return Kernel()


def test_the_kernel_a_page_gets_is_its_visitors_and_is_forgotten_with_every_cache_when_it_goes() -> None:
    from voila.request_info_handler import RequestInfoSocketHandler

    book = SessionBook()
    state = ServerState(book)
    manager = Manager()

    async def visit(visitor: str | None) -> str:
        page = PageKernels(manager, state, guards.PageRequest(visitor))
        kernel = await page.start_kernel()
        await page.start_kernel()  # a second kernel started in the same request is nobody's
        return kernel

    kernel = run(visit("alice"))
    assert book.allows(kernel, "alice") and not book.allows(kernel, "bob")
    assert book.allows("k2", "bob")
    _task, _cache, handed = run(PageKernels(manager, state, guards.PageRequest("carol")).get_rendered_notebook("nb"))
    assert not book.allows(handed, "alice") and book.allows(handed, "carol")
    RequestInfoSocketHandler.send_updates({"kernel_id": kernel, "payload": {"QUERY_STRING": "deal=X"}})
    assert kernel in RequestInfoSocketHandler._cache
    kernels = ForgettingKernels()
    kernels.book = book
    with pytest.raises(HTTPError):  # not one of its kernels (404): shut down elsewhere, forgotten all the same
        run(kernels.shutdown_kernel(kernel))
    assert kernel not in RequestInfoSocketHandler._cache, "Voilà's query cache kept the kernel's request"
    assert book.allows(kernel, "bob") and kernel not in book.sessions


def test_the_idle_check_passes_over_a_kernel_still_starting() -> None:
    """Jupyter server's idle check (every minute) reads a kernel's last activity, which a kernel still starting (a
    preheated one) has not set yet: it is passed over, where the check logged the error's traceback."""
    from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

    kernels = ForgettingKernels()
    kernels._kernels["starting"] = ServerKernelManager()
    run(kernels.cull_kernel_if_idle("starting"))
    assert "starting" in kernels._kernels


class Handler:
    """A page request of the visitor `name`."""

    def __init__(self, name: str) -> None:
        self.current_user = type("User", (), {"username": name})()


def test_sessions_whose_page_has_gone_are_shut_down_and_forgotten() -> None:
    from voila.request_info_handler import RequestInfoSocketHandler

    clock = Clock(1000.0)
    book = SessionBook(gone_after=60, clock=clock)
    state = ServerState(book)
    manager = Manager()

    async def start(request: guards.PageRequest) -> None:
        await PageKernels(manager, state, request).start_kernel()

    async def scenario() -> list[list[str]]:
        ended = []

        async def slow_page(request: guards.PageRequest) -> None:
            await start(request)
            clock.now += 500  # the page takes long to make: its clock has not started
            assert await guards.end_gone_sessions(manager, book) == []

        await guards.serve_page(Handler("c"), book, slow_page)
        for visitor in ("a", "b"):
            await guards.serve_page(Handler(visitor), book, start)
        manager.kernels["k1"] = manager.kernels["k3"] = 1  # c's and b's pages are connected
        RequestInfoSocketHandler.send_updates({"kernel_id": "k2", "payload": {}})
        ended.append(await guards.end_gone_sessions(manager, book))
        clock.now += 61
        ended.append(await guards.end_gone_sessions(manager, book))
        return ended

    assert run(scenario()) == [[], ["k2"]]
    assert manager.shut == ["k2"] and "k2" not in RequestInfoSocketHandler._cache
    assert list(book.sessions) == ["k1", "k3"] and book.allows("k1", "c") and not book.allows("k1", "a")


def test_a_board_takes_a_burst_of_intents_then_a_steady_pace_and_answers_every_one(keyed: None) -> None:
    clock = Clock(1000.0)
    tutor = build_app()
    board = tutor.built[0].board
    board.pace = IntentPace(rate=10, burst=30, clock=clock)
    controller = board.controller
    handled: list[object] = []
    original = controller.handle
    controller.handle = lambda intent: (handled.append(intent), original(intent))  # type: ignore[method-assign]
    sent: list[object] = []
    board.send = sent.append  # type: ignore[method-assign]
    for i in range(1000):
        board._on_custom_msg(board, {"type": "select", "index": i % 2}, [])
    assert len(handled) == 30 and len(sent) == 1000, "every intent is answered, only a burst is handled"
    assert board.state["message"] == mark("board.too_fast")
    table = controller.board_state().as_dict()
    assert board.state["hand"] == table["hand"] and board.state["squares"] == table["squares"], "in step"
    clock.now += 1
    for _ in range(20):
        board._on_custom_msg(board, {"type": "select", "index": 2}, [])
    assert len(handled) == 40
    board.pace = IntentPace(rate=10, burst=30, clock=clock)
    board._on_custom_msg(board, {"type": "select", "index": 3}, [])
    picked = board.state["hand"]["cards"][3]
    assert picked["selected"]
    assert said(board.state["message"], "play.picked", the_card=Card.parse(picked["card"]["code"]).the_name)


def test_sessions_in_use_count_the_pages_being_made_overall_and_per_visitor() -> None:
    book = SessionBook()
    book.page_begun("alice")
    book.page_begun("alice")
    book.page_begun("bob")
    assert (book.in_use(), book.in_use("alice", anyone=False), book.in_use("bob", anyone=False)) == (3, 2, 1)
    book.hand_out("k1", "alice")
    book.page_ended("alice")  # her first page got its kernel: still 3 in use
    book.page_ended("bob")  # his page failed
    assert (book.in_use(), book.in_use("alice", anyone=False), book.in_use("bob", anyone=False)) == (2, 2, 0)
    book.forget("k1")
    assert book.in_use() == 1 and book.in_use("carol", anyone=False) == 0


def test_a_visitors_open_pages_are_those_being_made_sent_or_connected_and_a_gone_ones_place_is_freed_in_time() -> None:
    """The "too many pages" notice tells the pages still open from those gone a moment ago (it told a browser whose
    tabs had just been closed to close one of them); and says within how long a gone page's place is free."""
    book = SessionBook(gone_after=60)
    book.page_begun("alice")  # being made
    for kernel_id in ("k1", "k2", "k3"):
        book.hand_out(kernel_id, "alice")
    book.served("k2")
    book.served("k3")
    assert book.socket_opened("k2", 2)  # k1 still being sent: open; k2 connected; k3 served, never connected: gone
    assert (book.in_use("alice", anyone=False), book.open_pages("alice"), book.open_pages("bob")) == (4, 3, 0)
    book.socket_closed("k2")  # its tab closed
    assert book.open_pages("alice") == 2
    assert book.sweep_every == 10.0 and book.freed_within == 70.0
    assert SessionBook(gone_after=4).freed_within == 5.0


def test_a_session_takes_a_limited_number_of_websockets_and_a_closed_one_frees_its_place() -> None:
    book = SessionBook()
    book.hand_out("k1", "alice")
    assert book.socket_opened("k1", 2) and book.socket_opened("k1", 2)
    assert not book.socket_opened("k1", 2)
    book.socket_closed("k1")
    assert book.socket_opened("k1", 2)
    assert all(book.socket_opened("spare", 2) for _ in range(3)), "a kernel that is no session is not counted"
    book.forget("k1")
    assert "k1" not in book.sockets


def test_a_visitor_leaves_when_their_last_page_goes_and_is_back_when_one_connects(
        monkeypatch: pytest.MonkeyPatch) -> None:
    wall = Clock()
    book = SessionBook(wall=wall)
    book.hand_out("k1", "ana")
    book.hand_out("k2", "ana")
    book.socket_opened("k1", 2)
    book.socket_opened("k2", 2)
    wall.now += 30
    book.socket_closed("k1")
    assert book.left == {}, "another of her pages is still connected"
    wall.now += 30
    book.socket_closed("k2")
    assert book.left == {"ana": wall.now}
    arrived: list[str] = []
    book.arrival_listeners.append(arrived.append)
    book.socket_opened("k1", 2)
    assert book.left == {} and arrived == ["ana"], "back, and said to be"
    book.socket_opened("k2", 2)
    assert arrived == ["ana"], "a second page of hers connected while one was: not an arrival"
    book.socket_closed("k2")
    book.forget("k1")
    assert book.left == {"ana": wall.now}, "her kernel went while her page was connected: she left then"
    monkeypatch.setattr(sessions, "LEFT_KEPT", 2)
    for visitor in ("ben", "cy"):
        book.hand_out(visitor, visitor)
        book.socket_opened(visitor, 2)
        wall.now += 1
        book.socket_closed(visitor)
    assert list(book.left) == ["ben", "cy"], "the oldest goes past the limit"


@pytest.mark.parametrize(("headers", "visit"), [
    ({}, True),  # a script, an older browser
    ({"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-Site": "cross-site"}, True),
    ({"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe", "Sec-Fetch-Site": "same-origin"}, True),
    ({"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe", "Sec-Fetch-Site": "cross-site"}, False),
    ({"Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image", "Sec-Fetch-Site": "cross-site"}, False),
    ({"Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "script"}, False),
    ({"Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"}, False),
    ({"Sec-Fetch-Dest": "image"}, False),
])
def test_only_a_top_level_visit_is_a_visit(headers: dict[str, str], visit: bool) -> None:
    assert (guards.not_a_visit(headers) is None) == visit


def test_a_refusal_of_what_is_no_visit_is_one_of_a_few_kinds_whatever_the_headers_say() -> None:
    """The server counts its refusals by kind, for as long as it runs: a request's own header values never make a
    new kind (100,000 made-up values made 100,000 kinds and 16 MB)."""
    kinds = {guards.not_a_visit({"Sec-Fetch-Mode": f"m{n:016d}"}) for n in range(1000)}
    kinds |= {guards.not_a_visit({"Sec-Fetch-Dest": f"d{n:016d}"}) for n in range(1000)}
    assert len(kinds) == 2 and all(kind is not None and "another" in kind for kind in kinds)
    known = {guards.not_a_visit({"Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}),
             guards.not_a_visit({"Sec-Fetch-Dest": "image"})}
    assert all(kind is not None and kind.endswith(("no-cors)", "image)")) for kind in known), known


def test_the_default_cap_is_set_by_the_limit_that_binds() -> None:
    from leopard_tutor.server.launch import FILES_PER_SESSION, Limits, default_session_cap, session_caps

    gib = 2**30
    assert default_session_cap(Limits(24 * gib, 20_000, 20_000)) == (245, "memory")
    assert default_session_cap(Limits(24 * gib, 1024, 1024)) == ((1024 - 200) // FILES_PER_SESSION, "open files")
    assert default_session_cap(Limits(24 * gib, 20_000, 1023)) == ((1023 - 50) // 10, "ZMQ sockets")
    assert min(session_caps(Limits(2**20, 10, 10)).values()) == 1, "never below one session"
