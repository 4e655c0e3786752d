"""The per-visitor processor pace, with a fake clock and fake processor readings: the budget
(`VisitorPace`), what each visitor's kernels took (`KernelProcessors`), and the server's hold on an over-budget
visitor's messages (`guards.hold_busy_visitors`, `guards.release_held`) on stand-in connections."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

from leopard_tutor import guards
from leopard_tutor.sessions import SessionBook
from leopard_tutor.visitor_pace import KernelProcessors, VisitorPace


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_visitor_may_spend_the_burst_then_waits_until_the_share_refills_it() -> None:
    clock = Clock()
    pace = VisitorPace(burst=2.0, share=0.5, clock=clock)
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
    pace.spend({})
    assert pace.over("a"), "0.0: not above zero yet"
    clock.now = 5.0
    pace.spend({})
    assert not pace.over("a")
    clock.now = 100.0
    pace.spend({})
    assert pace.levels == {}, "a full budget is not kept"


def test_the_share_bounds_a_flooding_visitor_over_time() -> None:
    clock = Clock()
    pace = VisitorPace(burst=5.0, share=0.4, clock=clock)
    taken = 0.0
    for _ in range(1200):  # 10 minutes of readings every 0.5 s; the kernels take a whole processor when let
        clock.now += 0.5
        use = 0.0 if pace.over("flood") else 0.5
        taken += use
        pace.spend({"flood": use})
    assert taken <= 5.0 + 0.5 + 0.4 * clock.now


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
    """A stand-in for jupyter_server's kernel websocket connection: what it forwards to its kernel."""

    def __init__(self, kernel_id: str) -> None:
        self.kernel_id = kernel_id
        self.channels = {"shell": object()}
        self.websocket_handler = SimpleNamespace(ws_connection=object())
        self.sent: list[str] = []

    def _leopard_forward(self, message: str) -> None:
        self.sent.append(message)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> tuple[SessionBook, VisitorPace, Clock]:
    """A book with kernels k1 (visitor a) and k2 (visitor b), a pace with a budget of 1 s refilled at a whole
    processor, its clock, and no connection holding anything."""
    clock = Clock()
    book, pace = SessionBook(clock=clock), VisitorPace(burst=1.0, share=1.0, clock=clock)
    book.hand_out("k1", "a")
    book.hand_out("k2", "b")
    monkeypatch.setattr(guards, "HELD", {})
    return book, pace, clock


def test_an_over_budget_visitors_messages_wait_in_order_while_anothers_pass(held: Any) -> None:
    book, pace, clock = held
    mine, theirs = Connection("k1"), Connection("k2")
    pace.spend({"a": 3.0})  # a is 2 s below zero
    for n in range(12):
        guards.hold_or_forward(mine, f"m{n}", book, pace)
    guards.hold_or_forward(theirs, "t0", book, pace)
    assert mine.sent == [] and theirs.sent == ["t0"]
    guards.release_held(book, pace)
    assert mine.sent == [], "still over budget"
    clock.now = 2.5
    pace.spend({})
    guards.release_held(book, pace)
    assert mine.sent == [f"m{n}" for n in range(guards.RELEASED_PER_SAMPLE)]
    guards.hold_or_forward(mine, "m12", book, pace)  # behind the held ones, though the visitor is within budget
    guards.release_held(book, pace)
    guards.release_held(book, pace)
    assert mine.sent == [f"m{n}" for n in range(13)]
    assert mine not in guards.HELD
    guards.hold_or_forward(mine, "m13", book, pace)
    assert mine.sent[-1] == "m13", "nothing held: straight through"


def test_past_its_bound_a_connection_drops_with_one_log_line(held: Any, caplog: pytest.LogCaptureFixture) -> None:
    book, pace, clock = held
    mine = Connection("k1")
    pace.spend({"a": 3.0})
    with caplog.at_level(logging.INFO, logger=guards.__name__):
        for n in range(guards.HELD_PER_CONNECTION + 50):
            guards.hold_or_forward(mine, f"m{n}", book, pace)
    held_now = guards.HELD[mine]
    assert len(held_now.messages) == guards.HELD_PER_CONNECTION and held_now.dropped == 50
    assert held_now.messages[0] == "m0" and held_now.messages[-1] == f"m{guards.HELD_PER_CONNECTION - 1}"
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2 and lines[0].startswith("Holding") and lines[1].startswith("Dropping"), lines
    clock.now = 10.0
    pace.spend({})
    mine.websocket_handler.ws_connection = None  # the page closed: what it held has nowhere to go
    guards.release_held(book, pace)
    assert mine not in guards.HELD and mine.sent == []


def test_the_servers_connections_go_through_the_hold() -> None:
    guards.install()
    assert ZMQChannelsWebsocketConnection.__dict__.get("_leopard_forward") is not None

