"""A class arriving at once, on real servers: the waiting line says in words where each student is and lets
everyone in, its places count toward the limits, and `--class-size` has kernels ready for a whole class."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from kernel_client import Visit, http_get, run
from servers import kernel_count

from leopard_tutor.engine.catalogue import text

pytestmark = pytest.mark.slow

TOLD = {text("app.preparing", ahead=ahead): ahead for ahead in range(500)}
"""What the waiting line tells a student with so many ahead of them (the server's language: English)."""


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
    time.sleep(3)  # the preheated kernel is ready

    async def scenario() -> list[tuple[list[str], float]]:
        async def one(number: int) -> tuple[list[str], float]:
            await asyncio.sleep(0.2 * number)
            visit = Visit(one_preheated.url)
            await visit.open(timeout=180)
            table, _ = await visit.click({"type": "select", "index": 0})
            assert table is not None
            await visit.close()
            return visit.told, time.monotonic()

        return await asyncio.gather(*(one(number) for number in range(5)))

    results = run(scenario())
    told = [words for words, _ in results]
    assert told[0] == [], "the first takes the preheated kernel at once"
    assert all(told[1:]), "the others wait in line, told so in words"
    for words in told[1:]:
        counts = [ahead(line) for line in words]
        assert counts == sorted(counts, reverse=True), f"the count ahead only goes down: {words}"
    assert ahead(told[4][0]) >= 2, told[4]


def test_the_waiting_page_says_it_in_its_title_its_accessible_name_and_a_live_status(one_preheated: Any) -> None:
    cookies: dict[str, str] = {}
    bodies = [http_get(one_preheated.url, dict(cookies))[1] for _ in range(2)]
    waiting = next(body for body in bodies if 'id="lt-line"' in body)
    title = re.search(r"<title>([^<]*)</title>", waiting)
    label = re.search(r'<main aria-label="([^"]*)"><p role="status" aria-live="polite" id="lt-line">([^<]*)</p>',
                      waiting)
    assert title and label and title.group(1) == label.group(1) == label.group(2)
    assert title.group(1) in TOLD


def test_places_in_line_count_toward_a_visitors_pages(one_preheated: Any) -> None:
    time.sleep(3)
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
        time.sleep(0.5)
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
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and kernel_count(class_of_four.process.pid) < 8:
        time.sleep(0.5)
    assert kernel_count(class_of_four.process.pid) == 8, "the four taken are replaced, one at a time"
