"""A class arriving at once, on real servers: the waiting line says in words where each student is and lets
everyone in, its places count toward the limits, and `--class-size` has kernels ready for a whole class; a server
listening beyond this machine keeps a pool of them by default, which grows as students wait."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from kernel_client import Visit, http_get, run
from servers import a_kernel_is_ready, kernel_count, stop_server

from leopard_tutor.cli import main
from leopard_tutor.engine.catalogue import text
from leopard_tutor.server import launch
from leopard_tutor.server.kernel_pool import CLASS_POOL, CLASS_POOL_GROWS_TO, PoolFiller, end_preheated
from leopard_tutor.server.waiting_line import FRESH_SECONDS

pytestmark = pytest.mark.slow

TOLD = {text("app.preparing", ahead=ahead): ahead for ahead in range(500)}
"""What the waiting line tells a student with so many ahead of them (the server's language: English)."""
PLACING = text("app.preparing_place")
"""What a waiting page says until the server has placed it (its first question)."""


def a_server(tmp_path_factory: pytest.TempPathFactory, server_tools: Any, *options: str) -> Iterator[Any]:
    """A server of this module's own, started with `options`, stopped at the end."""
    start, stop = server_tools
    started = start(tmp_path_factory.mktemp("arrival") / "server.log", *options)
    try:
        yield started
    finally:
        stop(started.process)


@pytest.fixture(scope="module")
def one_preheated(tmp_path_factory: pytest.TempPathFactory, server_tools: Any) -> Iterator[Any]:
    yield from a_server(tmp_path_factory, server_tools, "--sessions-per-visitor", "2")


def ahead(told: str) -> int:
    assert told in TOLD, told
    return TOLD[told]


def test_students_arriving_together_are_told_how_many_are_ahead_and_all_get_a_board(one_preheated: Any) -> None:
    a_kernel_is_ready(one_preheated)

    async def scenario() -> list[Visit]:
        async def one(number: int) -> Visit:
            await asyncio.sleep(0.2 * number)
            visit = Visit(one_preheated.url)
            await visit.open(timeout=180)
            table, _ = await visit.click({"type": "select", "index": 0})
            assert table is not None
            await visit.close()
            return visit

        return await asyncio.gather(*(one(number) for number in range(5)))

    visits = run(scenario())
    told = [visit.told for visit in visits]
    assert told[0] == [], "the first takes the preheated kernel at once"
    assert all(told[1:]), "the others wait in line, told so in words"
    for visit in visits[1:]:
        assert visit.lost == 0, f"nobody loses their place: {visit.told}"
        assert visit.told[0] == PLACING, "no count before the server has placed the page"
        counts = [ahead(line) for line in visit.told if line != PLACING]  # (a page given no ticket comes again)
        assert counts == sorted(counts, reverse=True), f"the count ahead only goes down: {visit.told}"
    assert ahead(next(line for line in told[4] if line != PLACING)) >= 2, told[4]


def test_the_waiting_page_says_it_in_its_title_its_accessible_name_and_a_live_status(one_preheated: Any) -> None:
    cookies: dict[str, str] = {}
    bodies = [http_get(one_preheated.url, dict(cookies))[1] for _ in range(2)]
    waiting = next(body for body in bodies if 'id="lt-line"' in body)
    title = re.search(r"<title>([^<]*)</title>", waiting)
    label = re.search(r'<main aria-label="([^"]*)"><p role="status" aria-live="polite" id="lt-line">([^<]*)</p>',
                      waiting)
    assert title and label and title.group(1) == label.group(1) == label.group(2)
    assert title.group(1) == PLACING


def test_places_in_line_count_toward_a_visitors_pages(one_preheated: Any) -> None:
    time.sleep(FRESH_SECONDS)  # this address may have a ticket again (the last test's visits without a cookie took one)
    cookies = dict(http_get(one_preheated.url + "voila/static/voila.js", {})[2])
    statuses = []
    for _ in range(4):
        status, _body, jar = http_get(one_preheated.url, cookies)
        cookies.update(jar)
        statuses.append(status)
    assert statuses.count(429) >= 2, f"two pages or places per visitor: {statuses}"


@pytest.fixture(scope="module")
def class_of_four(tmp_path_factory: pytest.TempPathFactory, server_tools: Any) -> Iterator[Any]:
    yield from a_server(tmp_path_factory, server_tools, "--class-size", "4")


def test_a_class_size_has_kernels_ready_for_a_class_arriving_at_once(class_of_four: Any) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and "Preheated kernels ready: 4 of 4" not in class_of_four.log_text():
        time.sleep(0.2)
    ready = re.findall(r"Preheated kernels ready: (\d) of 4", class_of_four.log_text())
    assert len(ready) == 3 and ready[-1] == "4", "preheated one at a time (the first by Voilà at start), four in all"

    async def scenario() -> list[list[str]]:
        async def one() -> list[str]:
            visit = Visit(class_of_four.url)
            await visit.open(timeout=180)
            table, seconds = await visit.click({"type": "select", "index": 0})
            assert table is not None and seconds < 5
            return visit.told

        visits = await asyncio.gather(*(one() for _ in range(4)))
        return visits

    assert run(scenario()) == [[]] * 4, "nobody waits: a kernel was ready for each"
    log = class_of_four.log_text()  # four pages served, four kernels connected: none of the warnings of nothing
    assert "Kernel started" in log and not [words for words in ("is not trusted", "without encryption",
                                                                "websocket_ping_timeout") if words in log]
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and kernel_count(class_of_four.process.pid) < 8:
        time.sleep(0.2)
    assert kernel_count(class_of_four.process.pid) == 8, "the four taken are replaced, one at a time"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and class_of_four.log_text().count("Preheated kernels ready: 4 of 4") < 2:
        time.sleep(0.2)
    stop_server(class_of_four.process)  # four preheated kernels wait for their visitors as the server stops
    assert class_of_four.process.returncode is not None
    assert "Traceback" not in class_of_four.log_text(), "a server stopped with kernels preheated logs no traceback"


@pytest.mark.parametrize(("ip", "class_size", "pool"), [
    ("0.0.0.0", None, (CLASS_POOL, CLASS_POOL_GROWS_TO)), ("192.168.1.20", None, (CLASS_POOL, CLASS_POOL_GROWS_TO)),
    ("::", None, (CLASS_POOL, CLASS_POOL_GROWS_TO)), ("classroom.local", None, (CLASS_POOL, CLASS_POOL_GROWS_TO)),
    ("127.0.0.1", None, (0, 0)), ("127.0.1.1", None, (0, 0)), ("::1", None, (0, 0)), ("localhost", None, (0, 0)),
    ("0.0.0.0", 0, (0, 0)), ("0.0.0.0", 25, (25, 25)), ("127.0.0.1", 5, (5, 5))])
def test_a_server_listening_for_a_class_keeps_a_warm_pool_unless_told(ip: str, class_size: int | None,
                                                                     pool: tuple[int, int]) -> None:
    assert launch.class_pool(ip, class_size, 241) == pool
    assert launch.class_pool(ip, class_size, 6) == (min(pool[0], 6), min(pool[1], 6)) if class_size is None else pool


def test_the_command_line_leaves_the_pool_to_the_server_unless_told(monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    asked: list[Any] = []
    monkeypatch.setattr(launch, "serve", lambda *args, **options: asked.append(options["class_size"]))
    for argv in (["--ip", "0.0.0.0"], [], ["--ip", "0.0.0.0", "--class-size", "0"], ["--class-size", "12"]):
        main(["--no-browser", *argv])
    assert asked == [None, None, 0, 12]
    capsys.readouterr()
    launch.announce_pool(CLASS_POOL, CLASS_POOL_GROWS_TO)
    said = capsys.readouterr().out
    assert said.startswith(f"Preheated kernels: {CLASS_POOL} kept ready") and f"up to {CLASS_POOL_GROWS_TO}" in said


def test_the_pool_grows_by_one_for_each_student_who_waited_within_its_most_and_the_room_left() -> None:
    waited, room = [0], [100]
    manager = SimpleNamespace(fill_if_needed=None)
    pool = PoolFiller(manager, 10, lambda: room[0], lambda: False, most=40, waited=lambda: waited[0])
    assert pool.wanted() == 10
    waited[0] = 7
    assert pool.wanted() == 17
    waited[0] = 100
    assert pool.wanted() == 40
    room[0] = 12
    assert pool.wanted() == 12
    assert PoolFiller(manager, 4, lambda: 100, lambda: False, waited=lambda: 50).wanted() == 4, "a size given stays"


class PoolManager:
    """Voilà's kernel manager as the pool filler and a stop see it: a pool per notebook, of tasks starting kernels
    (each ready for a visitor once started), and a shutdown that takes a kernel out of its pool, as Voilà's does."""

    notebook_path = "app.ipynb"

    def __init__(self) -> None:
        self.kernel_pools_config: dict[str, Any] = {}
        self._pools: dict[str, list[asyncio.Task[dict[str, str]]]] = {}
        self.running: set[str] = set()
        self.started = 0
        self.ended: list[tuple[str, bool]] = []

    def __contains__(self, kernel_id: object) -> bool:
        return kernel_id in self.running

    def fill_if_needed(self, delay: float = 0, notebook_name: str = "") -> None:
        pool = self._pools.setdefault(notebook_name, [])
        for _ in range(self.kernel_pools_config["default"]["pool_size"] - len(pool)):
            self.started += 1
            pool.append(asyncio.get_event_loop().create_task(self._start(f"k{self.started}")))

    async def _start(self, kernel_id: str) -> dict[str, str]:
        from voila.request_info_handler import RequestInfoSocketHandler

        await asyncio.sleep(0.01)
        self.running.add(kernel_id)
        RequestInfoSocketHandler._waiters[kernel_id] = None  # it asks for its visitor's request
        return {"kernel_id": kernel_id}

    async def shutdown_kernel(self, kernel_id: str, now: bool = False) -> None:
        for pool in self._pools.values():
            pool[:] = [task for task in pool if not (task.done() and task.result()["kernel_id"] == kernel_id)]
        await asyncio.sleep(0.05)  # a process takes a while to end
        self.running.discard(kernel_id)
        self.ended.append((kernel_id, now))


def test_a_stop_ends_the_preheated_kernels_at_once_and_the_filler_starts_none_meanwhile() -> None:
    from voila.request_info_handler import RequestInfoSocketHandler

    loop = asyncio.new_event_loop()
    manager = PoolManager()
    try:
        asyncio.set_event_loop(loop)
        filler = PoolFiller(manager, 3, lambda: 100, lambda: False)
        filler.install()
        loop.run_until_complete(asyncio.sleep(0.5))
        assert manager.started == 3 and len(manager.running) == 3, "the pool was full"
        loop.run_until_complete(end_preheated(manager, filler))
        loop.run_until_complete(asyncio.sleep(0.2))  # a filler still running would have started more by now
        assert sorted(manager.ended) == [("k1", True), ("k2", True), ("k3", True)], "each at once, none asked"
        assert manager.started == 3 and not manager.running and manager._pools[manager.notebook_path] == []
    finally:
        for kernel_id in ("k1", "k2", "k3"):
            RequestInfoSocketHandler._waiters.pop(kernel_id, None)
        loop.close()
        asyncio.set_event_loop(None)
