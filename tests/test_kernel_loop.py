"""Work from a background thread runs on the kernel's event loop, in turn with the clicks it handles: `in_turn`; the
class watch, which hands the class panel each report there (a click that opened a table once drew the computer's
match over the waiting table the watch had just put on the board); a student record's word that the server forgot
the student."""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

from leopard_tutor.client.class_client import ClassRefused
from leopard_tutor.client.student_client import StudentRecord
from leopard_tutor.kernel_loop import LoopGone, in_turn, running_loop
from leopard_tutor.lessons import Progress
from leopard_tutor.widgets.class_panel import ClassWatch

T = TypeVar("T")


def in_a_thread(work: Callable[[], T]) -> T:
    """`work()` in a thread of its own, with no event loop running there (the test's thread may run one already:
    Playwright's, in a session with browser tests)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


def run(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """`asyncio.run(main())` in a thread of its own."""
    return in_a_thread(lambda: asyncio.run(main()))


def test_in_turn_runs_the_work_on_the_loop_and_hands_back_its_result_or_error() -> None:
    async def main() -> tuple[int, int, str]:
        loop = asyncio.get_running_loop()
        here = threading.get_ident()
        value = await asyncio.to_thread(in_turn, loop, lambda: threading.get_ident())

        def refuse() -> None:
            raise ValueError("no")
        try:
            await asyncio.to_thread(in_turn, loop, refuse)
        except ValueError as error:
            said = str(error)
        return here, value, said
    here, ran_on, said = run(main)
    assert ran_on == here and said == "no"


def test_in_turn_without_a_loop_or_on_the_loop_runs_at_once() -> None:
    assert in_a_thread(lambda: (running_loop(), in_turn(None, lambda: 7))) == (None, 7)

    async def main() -> int:
        return in_turn(asyncio.get_running_loop(), lambda: 8)  # on its own thread: no wait for itself
    assert run(main) == 8


def test_in_turn_on_a_closed_loop_says_the_loop_is_gone() -> None:
    loop = asyncio.new_event_loop()
    loop.close()
    with pytest.raises(LoopGone):
        in_turn(loop, lambda: None)


class Client:
    """A class server for one visitor: `wait` hands out the reports the test puts in `reports`, and records the
    state it was asked with."""

    kernel_id = "k"

    def __init__(self) -> None:
        self.reports: queue.Queue[dict[str, Any]] = queue.Queue()
        self.asked: list[str] = []

    def wait(self, known: str) -> dict[str, Any]:
        self.asked.append(known)
        return self.reports.get()  # (a daemon thread: it waits for ever once the test is over)


class Panel:
    """A class panel that records what happened, and on which thread."""

    def __init__(self, events: list[tuple[str, Any]]) -> None:
        self.epoch = 0
        self.events = events

    def on_report(self, report: dict[str, Any]) -> None:
        self.events.append(("report", (report["state"], threading.get_ident())))


def test_the_watch_hands_each_report_to_the_panel_between_two_clicks_on_the_kernels_loop() -> None:
    """A report that comes while a click is being handled waits for the click's end; a report asked for before
    the page acted is dropped and asked for again at once."""
    client, events = Client(), list[tuple[str, Any]]()
    panel = Panel(events)

    async def main() -> tuple[str, int]:
        watch = ClassWatch(client)  # type: ignore[arg-type]
        watch.follow(panel, "s0")  # type: ignore[arg-type]

        def click() -> None:  # a click that opens a table, handled while the opened table's reports come
            events.append(("click", None))
            panel.epoch += 1
            client.reports.put({"state": "s1"})  # asked for before the click: not shown
            time.sleep(0.1)
            client.reports.put({"state": "s2"})  # asked for after it: shown once the click is done
            time.sleep(0.3)
            events.append(("click done", None))
        asyncio.get_running_loop().call_soon(click)
        for _ in range(200):
            await asyncio.sleep(0.05)
            if any(kind == "report" for kind, _ in events):
                break
        return watch.known, threading.get_ident()
    known, loop_thread = run(main)
    assert events == [("click", None), ("click done", None), ("report", ("s2", loop_thread))]
    assert client.asked[:2] == ["s0", ""] and known == "s2"  # the dropped report's state was not taken as known


class ForgettingServer:
    """A class server that keeps no record of the student: every report is refused as "unknown_student"."""

    def tell(self, action: str, body: dict[str, Any]) -> None:
        raise ClassRefused("unknown_student")


def test_a_forgotten_students_page_is_told_on_the_kernels_loop() -> None:
    """The refusal comes to the reports' thread; the page (the name bar) is told on the loop, between two clicks."""
    told: list[tuple[str, int]] = []

    async def main() -> int:
        record = StudentRecord(ForgettingServer(), Progress())  # type: ignore[arg-type]
        record.forgotten_listeners.append(lambda former, _why: told.append((former, threading.get_ident())))
        record.give_name("Ana", typed=False)  # as an offered name: told from the reports' thread
        for _ in range(200):
            await asyncio.sleep(0.05)
            if told:
                break
        return threading.get_ident()
    loop_thread = run(main)
    assert told == [("Ana", loop_thread)]


class FailingOnce(Panel):
    """A class panel whose first report raises (a bug), as showing a report might."""

    def on_report(self, report: dict[str, Any]) -> None:
        if not self.events:
            self.events.append(("failed", report["state"]))
            raise RuntimeError("a bug")
        super().on_report(report)


def test_a_report_that_could_not_be_shown_is_asked_for_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table waiting for a classmate has no next change: a report that failed to show is asked for again (with
    no known state, so the server answers at once) after a pause, and shown."""
    monkeypatch.setattr("leopard_tutor.widgets.class_panel.RETRY_SECONDS", 0.05)
    client, events = Client(), list[tuple[str, Any]]()
    panel = FailingOnce(events)

    async def main() -> None:
        watch = ClassWatch(client)  # type: ignore[arg-type]
        watch.follow(panel, "s0")  # type: ignore[arg-type]
        client.reports.put({"state": "s1"})
        client.reports.put({"state": "s1"})  # the server's answer to the second asking: the same report
        for _ in range(200):
            await asyncio.sleep(0.02)
            if len(events) == 2:
                break
    run(main)
    assert [kind for kind, _ in events] == ["failed", "report"] and events[1][1][0] == "s1"
    assert client.asked[:2] == ["s0", ""], "asked again without the state of the report that failed"
