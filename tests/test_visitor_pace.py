"""The per-visitor processor pace, with a fake clock and fake processor readings: the budget
(`VisitorPace`), what each visitor's kernels took (`KernelProcessors`), and each connection's gate
(`connection_gate.Gate` through `guards.hold_or_forward`, `request_finished`, `release_gates`) on stand-in
connections."""

from __future__ import annotations

import json
import logging
from types import SimpleNamespace
from typing import Any

import pytest
from fake_clock import Clock
from jupyter_client.session import Session
from jupyter_server.services.kernels.connection.base import serialize_binary_message, serialize_msg_to_ws_v1
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

from leopard_tutor.pacing import WORK_BURST
from leopard_tutor.server import connection_gate, guards, visitor_pace
from leopard_tutor.server.connection import GuardedConnection
from leopard_tutor.server.sessions import SessionBook
from leopard_tutor.server.state import SETTING, ServerState
from leopard_tutor.server.visitor_pace import KernelProcessors, VisitorPace


def test_a_visitor_may_spend_the_burst_then_waits_until_the_share_refills_it() -> None:
    clock = Clock()
    pace = VisitorPace(burst=2.0, share=0.5, clock=clock)
    pace.asked("b")
    assert not pace.over("a")
    clock.now = 1.0
    pace.spend({"a": 1.5})
    assert not pace.over("a"), "within the burst"
    clock.now = 2.0
    pace.spend({"a": 0.5})  # 0.5 + 0.5 - 0.5
    assert not pace.over("a")
    clock.now = 2.5
    pace.spend({"a": 1.75})  # 0.5 + 0.25 - 1.75 = -1.0
    assert pace.over("a") and not pace.over("b"), "one visitor's spending is theirs alone"
    clock.now = 4.5
    pace.asked("b")
    pace.spend({})
    assert pace.over("a"), "0.0: not above zero yet"
    clock.now = 5.0
    pace.spend({})
    assert not pace.over("a")
    clock.now = 100.0
    pace.spend({})
    assert pace.levels == {}, "a full budget is not kept"


def test_the_budget_binds_only_while_another_visitor_wants_the_processors() -> None:
    clock = Clock()
    pace = VisitorPace(burst=1.0, share=0.5, clock=clock)
    for _ in range(20):  # alone, a whole processor for 10 s
        clock.now += 0.5
        pace.asked("a")
        pace.spend({"a": 0.5, "idle": 0.01})
        assert not pace.over("a"), "alone (a visitor whose pages send nothing does not count)"
    assert pace.levels["a"] == 0.0, "what a visitor took alone is not held against them"
    clock.now += 0.5
    pace.asked("b")
    pace.spend({"a": 0.5})
    assert pace.over("a") and not pace.over("b")
    clock.now += 1.0
    pace.spend({})
    assert not pace.over("a"), "back above zero at the share"
    clock.now += visitor_pace.CONTENDED_SECONDS + 0.5
    pace.spend({"a": 3.0})
    assert not pace.over("a"), "b has sent nothing for a while: a is alone again"


def test_the_share_bounds_a_flooding_visitor_over_time_while_others_play() -> None:
    clock = Clock()
    pace = VisitorPace(burst=5.0, share=0.4, clock=clock)
    taken = 0.0
    for _ in range(1200):  # 10 minutes of readings every 0.5 s; the kernels take a whole processor when let
        clock.now += 0.5
        use = 0.0 if pace.over("flood") else 0.5
        taken += use
        pace.asked("student")
        pace.spend({"flood": use})
    assert taken <= 5.0 + 0.5 + 0.4 * clock.now


def test_one_tab_spending_its_own_kernels_whole_burst_is_not_over_budget_while_others_play() -> None:
    """One turn of the expert's in Running Leopard takes nearly a kernel's whole burst (`pacing.WORK_BURST`; 8.6 s
    were seen): a student with one tab who asks for it, while classmates play, is not held, nor are their kernels
    lowered."""
    clock = Clock()
    pace = VisitorPace(clock=clock)
    clock.now = 0.5
    pace.asked("classmate")
    pace.asked("student")
    pace.spend({"student": 8.6})  # read after the turn, all at once
    assert visitor_pace.VISITOR_BURST == WORK_BURST > 8.6, "as much as one kernel's own pace allows"
    assert not pace.over("student")


def test_each_visitors_kernels_are_summed_from_their_second_reading_and_gone_ones_forgotten() -> None:
    readings = {10: 1.0, 11: 5.0, 12: 0.5}
    processors = KernelProcessors(lambda pid: readings.get(pid))
    kernels = {"k1": ("a", 10), "k2": ("a", 11), "k3": ("b", 12)}
    assert processors.used(kernels) == {}, "what a kernel took before it was anyone's is nobody's"
    readings.update({10: 1.5, 11: 6.0, 12: 0.75})
    assert processors.used(kernels) == {"a": 1.5, "b": 0.25}
    del readings[11]
    readings[10] = 2.0
    assert processors.used(kernels) == {"a": 0.5, "b": 0.0}
    assert set(processors.last) == {"k1", "k3"}


class Connection:
    """A stand-in for jupyter_server's kernel websocket connection (JSON messages): what it forwards to its kernel."""

    subprotocol = None

    def __init__(self, kernel_id: str) -> None:
        self.kernel_id = kernel_id
        self.channels = {"shell": object()}
        self.websocket_handler = SimpleNamespace(ws_connection=object())
        self.sent: list[str] = []

    def forward_to_kernel(self, message: str) -> None:
        self.sent.append(message)


def shell(n: int, channel: str = "shell") -> str:
    """A page's JSON message number `n` on `channel`."""
    return json.dumps({"channel": channel, "header": {"msg_id": f"m{n}", "msg_type": "comm_msg"}, "content": {}})


def ids(sent: list[str]) -> list[str]:
    return [json.loads(message)["header"]["msg_id"] for message in sent]


@pytest.fixture
def gated() -> tuple[ServerState, VisitorPace, Clock]:
    """A server's state whose book has kernels k1 (visitor a) and k2 (visitor b) and whose pace has a budget of 1 s
    refilled at a whole processor, that pace, its clock, and no connection gated yet; b works (a is not alone)."""
    clock = Clock()
    book, pace = SessionBook(clock=clock), VisitorPace(burst=1.0, share=1.0, clock=clock)
    book.hand_out("k1", "a")
    book.hand_out("k2", "b")
    pace.asked("b")
    return ServerState(book, pace=pace), pace, clock


def test_an_over_budget_visitors_messages_wait_in_order_while_anothers_pass(gated: Any) -> None:
    state, pace, clock = gated
    mine, theirs = Connection("k1"), Connection("k2")
    pace.spend({"a": 3.0})  # a is 2 s below zero
    for n in range(3):
        guards.hold_or_forward(mine, shell(n), state, clock)
    guards.hold_or_forward(theirs, shell(0), state, clock)
    assert mine.sent == [] and ids(theirs.sent) == ["m0"]
    guards.release_gates(state, clock)
    assert mine.sent == [], "still over budget"
    clock.now = 2.5
    pace.asked("b")
    pace.spend({})
    guards.release_gates(state, clock)
    assert ids(mine.sent) == ["m0", "m1", "m2"]
    guards.hold_or_forward(mine, shell(3), state, clock)
    assert ids(mine.sent)[-1] == "m3", "within budget: straight through"


def test_a_connection_has_few_requests_unfinished_in_its_kernel(gated: Any) -> None:
    state, _pace, clock = gated
    mine = Connection("k1")
    for n in range(10):
        guards.hold_or_forward(mine, shell(n), state, clock)
    guards.hold_or_forward(mine, shell(10, "control"), state, clock)
    assert ids(mine.sent) == [f"m{n}" for n in range(connection_gate.IN_FLIGHT)]
    guards.request_finished(mine, "m0", state, clock)
    guards.request_finished(mine, "m0", state, clock)  # said twice (two pages of one kernel hear it)
    guards.request_finished(mine, "elsewhere", state, clock)
    assert ids(mine.sent)[-1] == f"m{connection_gate.IN_FLIGHT}" and len(mine.sent) == connection_gate.IN_FLIGHT + 1
    clock.now = connection_gate.IN_FLIGHT_SECONDS + 1  # no "idle" came for the others: counted finished
    guards.release_gates(state, clock)
    assert ids(mine.sent) == [f"m{n}" for n in range(2 * connection_gate.IN_FLIGHT + 1)]
    for n in range(connection_gate.IN_FLIGHT + 1, 2 * connection_gate.IN_FLIGHT + 1):
        guards.request_finished(mine, f"m{n}", state, clock)
    assert ids(mine.sent)[-2:] == ["m9", "m10"], "another channel's message keeps its place in the order"


def test_past_its_bound_a_connection_drops_with_one_log_line(gated: Any, caplog: pytest.LogCaptureFixture) -> None:
    state, pace, clock = gated
    mine = Connection("k1")
    pace.spend({"a": 3.0})
    with caplog.at_level(logging.INFO, logger=guards.__name__):
        for n in range(connection_gate.HELD + 50):
            guards.hold_or_forward(mine, shell(n), state, clock)
    gate = state.gates[mine]
    assert len(gate.held) == connection_gate.HELD and gate.dropped == 50
    assert ids([gate.held[0].message, gate.held[-1].message]) == ["m0", f"m{connection_gate.HELD - 1}"]
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2 and lines[0].startswith("Holding") and lines[1].startswith("Dropping"), lines
    clock.now = 10.0
    pace.asked("b")
    pace.spend({})
    mine.websocket_handler.ws_connection = None  # the page closed: what it held has nowhere to go
    guards.release_gates(state, clock)
    assert mine not in state.gates and mine.sent == []


def test_a_connection_holds_at_most_its_bytes_however_few_its_messages(gated: Any) -> None:
    """A page that keeps its gate shut (here: its visitor's budget spent) and sends large messages: the gate holds
    at most `HELD_BYTES` of them, drops the rest, and counts what it gives back."""
    state, pace, clock = gated
    mine = Connection("k1")
    pace.spend({"a": 3.0})
    big = connection_gate.HELD_BYTES // 4
    for n in range(10):
        message = json.dumps({"channel": "shell", "header": {"msg_id": f"m{n}", "msg_type": "comm_msg"},
                              "content": {"data": "x" * big}})
        guards.hold_or_forward(mine, message, state, clock)
    gate = state.gates[mine]
    assert len(gate.held) == 3 and gate.dropped == 7 and gate.held_bytes <= connection_gate.HELD_BYTES
    assert gate.held_bytes == sum(len(waiting.message) for waiting in gate.held)
    clock.now = 10.0
    pace.asked("b")
    pace.spend({})
    guards.release_gates(state, clock)  # the budget back: what was held goes, and its bytes with it
    assert ids(mine.sent) == ["m0", "m1", "m2"] and gate.held_bytes == 0


class BinaryConnection(Connection):
    """A stand-in connection speaking jupyter_server's v1 websocket protocol."""

    subprotocol = "v1.kernel.websocket.jupyter.org"
    session = Session()


def test_requests_are_read_in_each_framing_and_an_impossible_one_is_dropped(
        gated: Any, caplog: pytest.LogCaptureFixture) -> None:
    state, _pace, clock = gated
    binary = BinaryConnection("k1")
    header = {"msg_id": "b1", "msg_type": "comm_msg"}
    message = {"header": header, "parent_header": {}, "metadata": {}, "content": {}, "buffers": []}
    framed = serialize_msg_to_ws_v1(message, "shell", binary.session.pack)
    assert guards.read_page_message(binary, framed).request == "b1"
    assert guards.read_page_message(binary, serialize_msg_to_ws_v1(message, "control", binary.session.pack)).request \
        is None
    legacy = Connection("k1")
    assert guards.read_page_message(legacy, serialize_binary_message(
        {"channel": "shell", "header": header, "parent_header": {}, "buffers": [b"x"]})).request == "b1"
    assert guards.read_page_message(legacy, shell(7)).request == "m7"
    huge = (2 ** 40).to_bytes(8, "little") + framed[8:]

    def nested_deep(part: Any) -> bytes:  # each null packed as JSON nested past what the kernel's reader goes
        return json.dumps(part).replace("null", "[" * 3000 + "]" * 3000).encode()

    deep_content = serialize_msg_to_ws_v1({**message, "content": {"type": "select", "index": None}}, "shell",
                                          nested_deep)
    deep_metadata = serialize_msg_to_ws_v1({**message, "metadata": {"a": None}}, "control", nested_deep)
    with caplog.at_level(logging.INFO, logger=guards.__name__):
        guards.hold_or_forward(binary, huge, state, clock)
        guards.hold_or_forward(binary, b"\x01", state, clock)
        guards.hold_or_forward(legacy, "{not json", state, clock)
        guards.hold_or_forward(binary, deep_content, state, clock)
        guards.hold_or_forward(binary, deep_metadata, state, clock)
    assert binary.sent == [] and legacy.sent == []
    assert [record.getMessage()[:37] for record in caplog.records] == ["Dropped a malformed websocket message"] * 5
    guards.hold_or_forward(binary, framed, state, clock)
    assert binary.sent == [framed]


def comm_open(n: int, target: str, connection: Connection) -> str | bytes:
    """A page's comm_open number `n` of a comm to `target`, framed as `connection` speaks (a widget's state in it)."""
    message = {"header": {"msg_id": f"o{n}", "msg_type": "comm_open"}, "parent_header": {}, "metadata": {},
               "content": {"comm_id": f"c{n}", "target_name": target, "data": {"state": {"value": "x" * 1000}}},
               "buffers": []}
    if isinstance(connection, BinaryConnection):
        return serialize_msg_to_ws_v1(message, "shell", connection.session.pack)
    return json.dumps({**message, "channel": "shell"})


@pytest.mark.parametrize("framing", [Connection, BinaryConnection])
def test_a_page_opens_no_widget_in_its_kernel_and_ipywidgets_own_comm_a_few_times(
        gated: Any, framing: type, caplog: pytest.LogCaptureFixture) -> None:
    """A comm a page opens as a widget made one in its kernel, with whatever state it sent: a script filled the kernel's
    memory so (73 to 473 MiB in a minute). Only ipywidgets' control comm passes, a few times a connection; the rest
    is dropped, counted, and logged at the 1st, 10th, 100th... ."""
    state, _pace, clock = gated
    page = framing("k1")
    with caplog.at_level(logging.INFO, logger=guards.__name__):
        for n in range(150):
            guards.hold_or_forward(page, comm_open(n, "jupyter.widget", page), state, clock)
        for n in range(guards.CONTROL_OPENS + 5):
            guards.hold_or_forward(page, comm_open(n, guards.CONTROL_COMM, page), state, clock)
            guards.request_finished(page, f"o{n}", state, clock)
    assert page.sent == [comm_open(n, guards.CONTROL_COMM, page) for n in range(guards.CONTROL_OPENS)]
    assert state.refusals["a comm a page may not open"] == 155
    assert [record.getMessage()[:38] for record in caplog.records] == ["Dropped a page's opening of comm jupyt"] * 3
    guards.hold_or_forward(page, shell(1) if framing is Connection else comm_open(1, "", page), state, clock)
    assert len(page.sent) == guards.CONTROL_OPENS + (framing is Connection), "a comm_msg passes; no target, no comm"


def test_the_servers_connections_go_through_the_gate(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    monkeypatch.setattr(guards, "hold_or_forward",
                        lambda connection, message, state: seen.append((connection, message, state)))
    state = ServerState()
    probe = type("Probe", (GuardedConnection,), {"websocket_handler": SimpleNamespace(settings={SETTING: state})})
    page = probe.__new__(probe)
    page.handle_incoming_message("a message")
    assert seen == [(page, "a message", state)] and issubclass(GuardedConnection, ZMQChannelsWebsocketConnection)


def test_the_kernels_of_a_visitor_over_budget_are_lowered_in_priority_once() -> None:
    clock = Clock()
    lowered: list[int] = []
    processors = KernelProcessors(lambda pid: 0.0, lowered.append)
    pace = VisitorPace(burst=1.0, share=0.5, clock=clock)
    kernels = {"k1": ("a", 10), "k2": ("a", 11), "k3": ("b", 12)}
    pace.asked("b")
    pace.spend({"a": 0.5})
    processors.lower_over_budget(kernels, pace)
    assert lowered == [], "within budget"
    pace.spend({"a": 2.0})
    processors.lower_over_budget(kernels, pace)
    processors.lower_over_budget(kernels, pace)
    assert lowered == [10, 11], "each of a's kernels, once; b's not"
    processors.lower_over_budget({"k3": ("b", 12)}, pace)
    assert processors.lowered == set(), "processes no longer given are forgotten"
