"""The limits of a class server at the protocol level, on small servers of their own: sessions at once
and per visitor (the extra page says so, and gets no kernel), only a top-level visit starts a session,
websockets per session, the open-file limit raised and taken into the cap, idle connections closed, and
every refusal one short line in the log."""

from __future__ import annotations

import asyncio
import html
import socket
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psutil
import pytest
from kernel_client import Visit, VisitError, http_get, pack, run
from servers import kernel_count
from websockets.asyncio.client import connect

from leopard_tutor.class_codes import MAX_NAME
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.game_code import MAX_GAME_CODE
from leopard_tutor.lessons.progress import MAX_CODE_LENGTH
from leopard_tutor.server.launch import FILES_PER_SESSION, FILES_RESERVED, IDLE_CONNECTION_SECONDS, MAX_MESSAGE_BYTES
from leopard_tutor.widgets.input_limits import INPUT_MOST

CAP, PER_VISITOR = 3, 2
HARD_FILES = 300
FILES_CAP = (HARD_FILES - FILES_RESERVED) // FILES_PER_SESSION
FREED = text("app.place_freed", minutes=1)
"""Within how long a gone page frees its place: a minute, at --page-gone-after 4 (the server below)."""
TOO_MANY = html.escape(text("app.too_many_pages", sessions=PER_VISITOR))
"""The page a browser with PER_VISITOR pages open gets instead of another (the server's language: English)."""
ONE_CLOSED = html.escape(f"{text('app.too_many_closed', closed=1)} {FREED}")
"""The page it gets where one of them was closed a moment ago (it was told to close one of them)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, server_tools: Any) -> Iterator[Any]:
    start, stop = server_tools
    started = start(tmp_path_factory.mktemp("limits") / "server.log", "--max-sessions", str(CAP),
                    "--sessions-per-visitor", str(PER_VISITOR), "--page-gone-after", "4")
    try:
        yield started
    finally:
        stop(started.process)


def kernels(server: Any) -> int:
    """The server's kernels now (the preheated one included)."""
    return kernel_count(server.process.pid)


def status(url: str, headers: dict[str, str], method: str = "GET") -> int:
    """The HTTP status of one request."""
    data = b"" if method == "POST" else None
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data, headers, method=method), timeout=60) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


async def end(visits: list[Visit]) -> None:
    """End these visits' sessions as their pages' unload beacons do, and wait until they are gone."""
    for visit in visits:
        await visit.close()
        if visit.kernel_id:
            base = visit.base_url
            own = "http://" + urlsplit(base).netloc
            cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in visit.cookies.items()), "Origin": own}
            await asyncio.to_thread(status, f"{base}voila/api/shutdown/{visit.kernel_id}", cookie, "POST")
    deadline = time.monotonic() + 30
    for visit in visits:
        while visit.kernel_id and time.monotonic() < deadline:
            code, _, _ = await asyncio.to_thread(http_get, f"{visit.base_url}api/kernels/{visit.kernel_id}",
                                                 visit.cookies)
            if code == 404:
                break
            await asyncio.sleep(0.3)


async def connect_once_a_place_is_free(visit: Visit, timeout: float = 20) -> Visit:
    """Connect `visit`'s websocket as soon as the server has seen a closed one go (until then: 429)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            await visit.connect()
            return visit
        except VisitError as error:
            if "429" not in str(error) or time.monotonic() > deadline:
                raise
        await asyncio.sleep(0.05)


def wait_for_kernels(server: Any, count: int, timeout: float = 60) -> int:
    """Wait until the server has `count` kernels (its pool refilled); the count at the end."""
    deadline = time.monotonic() + timeout
    while kernels(server) != count and time.monotonic() < deadline:
        time.sleep(0.3)
    return kernels(server)


def test_back_to_back_visits_never_get_one_session_more_than_the_cap(server: Any) -> None:
    wait_for_kernels(server, 1)

    async def scenario() -> list[int]:
        visits = [Visit(server.url) for _ in range(CAP + 3)]
        statuses = list(await asyncio.gather(*(visit.load() for visit in visits)))
        sessions = kernels(server)
        await end(visits)
        return [*statuses, sessions]

    *statuses, sessions = run(scenario())
    assert sorted(statuses) == [200] * CAP + [503] * 3, statuses
    assert sessions <= CAP + 1, "the sessions and at most the preheated kernel"


def test_one_browser_gets_at_most_its_share_of_sessions_and_the_next_page_says_why(server: Any) -> None:
    wait_for_kernels(server, 1)

    async def scenario() -> tuple[int, str, int, int, int, int, str]:
        first = Visit(server.url)
        await first.open()  # connected, its websocket kept open as a script would
        second = Visit(server.url, cookies=dict(first.cookies))
        await second.open()
        await asyncio.to_thread(wait_for_kernels, server, PER_VISITOR + 1)  # the pool refills
        before = kernels(server)
        code, body, _ = await asyncio.to_thread(http_get, server.url, first.cookies)
        after = kernels(server)
        await second.close()  # its tab closed (no unload beacon): its place is held a moment
        for _ in range(10):  # (until the server has seen the websocket close: well within the 4 s it holds the place)
            closed_code, closed_body, _ = await asyncio.to_thread(http_get, server.url, first.cookies)
            if ONE_CLOSED in closed_body:
                break
            await asyncio.sleep(0.2)
        other = Visit(server.url)  # another student still gets in
        other_status = await other.load()
        await end([first, second, other])
        return code, body, before, after, other_status, closed_code, closed_body

    code, body, before, after, other_status, closed_code, closed_body = run(scenario())
    assert code == 429 and TOO_MANY in body and body.startswith("<!doctype html><html lang=\"en\">")
    assert closed_code == 429 and ONE_CLOSED in closed_body, closed_body
    assert after == before, "no kernel for the refused page"
    assert other_status == 200


def test_a_page_is_made_only_for_a_top_level_visit(server: Any) -> None:
    wait_for_kernels(server, 1)
    before = kernels(server)
    not_visits = [{"Sec-Fetch-Dest": "image", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Site": "cross-site"},
                  {"Sec-Fetch-Dest": "script", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Site": "cross-site"},
                  {"Sec-Fetch-Dest": "iframe", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "cross-site"},
                  {"Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "cross-site"},
                  {"Sec-Fetch-Dest": "style", "Sec-Fetch-Mode": "no-cors"}]
    assert [status(f"{server.url}?x={i}", headers) for i, headers in enumerate(not_visits)] == [403] * 5
    time.sleep(2)
    assert kernels(server) == before, "no kernel for a request that is no visit"

    async def visit() -> int:
        page = Visit(server.url)
        code = await page.load()
        await end([page])
        return code

    script = {"Sec-Fetch-Dest": "script", "Sec-Fetch-Mode": "no-cors"}
    assert status(f"{server.url}voila/static/voila.js", script) == 200, "the page's own files are served"
    assert run(visit()) == 200, "an ordinary visit (a script, an older browser) still gets its page"


def test_a_session_has_at_most_two_websockets(server: Any) -> None:
    wait_for_kernels(server, 1)

    async def scenario() -> tuple[str, bool, bool]:
        page = Visit(server.url)
        await page.open()
        second = Visit(server.url, cookies=dict(page.cookies), kernel_id=page.kernel_id)
        await second.connect()
        await second.ready()
        third = Visit(server.url, cookies=dict(page.cookies), kernel_id=page.kernel_id)
        try:
            await third.connect()
            refused = "opened"
        except VisitError as error:
            refused = str(error)
        await second.close()
        again = await connect_once_a_place_is_free(Visit(server.url, cookies=dict(page.cookies),
                                                         kernel_id=page.kernel_id))
        await again.ready()
        table, _ = await page.click({"type": "select", "index": 0})
        await again.close()
        await end([page])
        return refused, again.socket is not None, table is not None

    refused, reconnected, answered = run(scenario())
    assert "429" in refused
    assert reconnected and answered, "a closed websocket frees its place; the page plays on"


def test_a_frame_claiming_countless_parts_is_dropped_and_the_page_plays_on(server: Any) -> None:
    """jupyter_server reads a v1 frame's part count as it stands (a loop over 2**40 offsets); the server's gate
    drops such a frame before that, in one log line, and the page's next click is answered at once."""
    wait_for_kernels(server, 1)
    log_before = len(server.log_text().splitlines())

    async def scenario() -> float:
        page = Visit(server.url)
        await page.open()
        assert page.socket is not None
        framed = pack("shell", {"msg_id": "x", "msg_type": "kernel_info_request"}, {})
        await page.socket.send((2 ** 40).to_bytes(8, "little") + framed[8:])
        table, seconds = await page.click({"type": "select", "index": 0}, timeout=10)
        assert table is not None
        await end([page])
        return seconds

    assert run(scenario()) < 2.0
    added = server.log_text().splitlines()[log_before:]
    assert len([line for line in added if "malformed websocket message" in line]) == 1


def test_a_message_larger_than_any_a_page_sends_closes_its_connection(server: Any) -> None:
    """tornado's default lets a websocket message be 10 MiB (and the gate may hold many): a page's message past
    `MAX_MESSAGE_BYTES` closes its connection ("message too big"), and the next visit plays on."""
    wait_for_kernels(server, 1)

    async def scenario() -> tuple[int | None, bool]:
        page = Visit(server.url)
        await page.open()
        assert page.socket is not None
        await page.socket.send(pack("shell", {"msg_id": "big", "msg_type": "comm_msg"},
                                    {"data": "x" * (MAX_MESSAGE_BYTES + 1)}))
        await asyncio.wait_for(page.socket.wait_closed(), 30)
        code = page.socket.close_code
        await end([page])
        other = Visit(server.url)
        await other.open()
        table, _ = await other.click({"type": "select", "index": 0}, timeout=30)
        await end([other])
        return code, table is not None

    assert run(scenario()) == (1009, True)


def test_no_text_box_takes_a_value_past_the_message_limit_and_every_reader_still_says_too_long() -> None:
    """The app's text boxes take at most `INPUT_MOST` characters (the page cuts a longer paste: test_recovery): at
    three bytes a character that still fits a message with room to spare, and it is longer than what any box's reader
    reads, so the reader says "too long" rather than misreading a cut text."""
    assert 3 * INPUT_MOST + 64 * 2**10 < MAX_MESSAGE_BYTES
    assert max(2 * MAX_GAME_CODE, 2 * MAX_CODE_LENGTH, MAX_NAME) < INPUT_MOST
    guide = (Path(__file__).parents[1] / "docs" / "guides" / "server.md").read_text(encoding="utf-8")
    assert f"at most {INPUT_MOST:,} characters" in guide and f"{MAX_MESSAGE_BYTES // 2**20} MiB" in guide


def refused_lines(lines: list[str]) -> list[str]:
    """The refusals' lines among `lines`, but for `end`'s own asking for kernels it has ended (a 404)."""
    return [line for line in lines
            if line.startswith("Refused ") and not line.startswith("Refused 404 GET /api/kernels/")]


def test_every_refusal_is_one_short_line_in_the_log(server: Any) -> None:
    wait_for_kernels(server, 1)
    log_before = server.log_text().splitlines()

    async def scenario() -> int:
        base = server.url
        owner = Visit(base)
        await owner.open()
        stranger = Visit(base)
        await stranger.load()
        refusals = 0
        for _ in range(5):  # another browser's websocket, a logout, a request that is no visit, a query socket
            with pytest.raises(VisitError):
                await stranger.connect(owner.kernel_id)
            await asyncio.to_thread(status, f"{base}logout", {})
            await asyncio.to_thread(status, f"{base}?img", {"Sec-Fetch-Dest": "image", "Sec-Fetch-Mode": "no-cors"})
            with pytest.raises(Exception, match="403"):
                async with connect(f"ws://{urlsplit(base).netloc}/voila/query/{owner.kernel_id}"):
                    pass
            refusals += 4
        await end([owner, stranger])
        return refusals

    refusals = run(scenario())
    deadline = time.monotonic() + 20  # the line of the last refusal is written a moment after its answer
    while len(refused_lines(server.log_text().splitlines()[len(log_before):])) < refusals \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    added = server.log_text().splitlines()[len(log_before):]
    refused = refused_lines(added)
    assert len(refused) == refusals, added
    assert all(len(line) < 300 for line in refused), refused
    assert "Traceback" not in "\n".join(added) and "static_path" not in "\n".join(added)
    logouts = [line for line in refused if "GET /logout" in line]
    assert len(logouts) == 5 and logouts[-1].endswith("(5 so far)"), "each line counts its kind of refusal"


def test_a_page_from_before_a_restart_asking_for_its_kernel_is_one_line_a_kernel(server: Any) -> None:
    """After a restart each page asks for its old kernel (its model, then its websocket) several times before it
    tells its visitor to reload, and its shutdown beacon names it as the page closes; each request was three warnings
    ("Kernel does not exist", "wrote error", the access line), a class's worth of them a flood. Now each is a plain
    404, and only a kernel's first is logged."""
    wait_for_kernels(server, 1)
    before = len(server.log_text().splitlines())
    gone = [str(uuid.uuid4()) for _ in range(3)]

    async def scenario() -> list[int]:
        page = Visit(server.url)
        await page.load()
        cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in page.cookies.items()),
                  "Origin": "http://" + urlsplit(server.url).netloc}
        statuses = []
        for _ in range(3):
            for kernel in gone[:2]:
                code, _, _ = await asyncio.to_thread(http_get, f"{server.url}api/kernels/{kernel}", page.cookies)
                statuses.append(code)
                with pytest.raises(VisitError, match="404"):
                    await page.connect(kernel)
            # the page closing: its shutdown beacon
            statuses.append(await asyncio.to_thread(status, f"{server.url}voila/api/shutdown/{gone[2]}", cookie,
                                                    "POST"))
        await end([page])
        return statuses

    statuses = run(scenario())
    assert statuses == [404] * 9
    wanted = [f"Refused 404 GET /api/kernels/{kernel} " for kernel in gone[:2]]
    wanted.append(f"Refused 404 POST /voila/api/shutdown/{gone[2]} ")
    added = added_lines(server, before, lambda line: any(line.startswith(start) for start in wanted), 3)
    joined = "\n".join(added)
    assert [sum(line.startswith(start) for line in added) for start in wanted] == [1, 1, 1], joined
    assert not [line for line in added if any(kernel in line and not line.startswith(start)
                                              for kernel, start in zip(gone, wanted, strict=True))], joined
    assert "Kernel does not exist" not in joined and "Traceback" not in joined


def added_lines(server: Any, before: int, wanted: Any, count: int, timeout: float = 10) -> list[str]:
    """The server's log lines after the first `before`, once `count` of them are `wanted` (or `timeout` passed):
    a line is written as its request finishes, a moment after its answer has left."""
    deadline = time.monotonic() + timeout
    while True:
        added = server.log_text().splitlines()[before:]
        if sum(1 for line in added if wanted(line)) >= count or time.monotonic() > deadline:
            return added


def test_a_path_no_page_asks_for_is_one_line_in_the_log_and_never_a_traceback(server: Any) -> None:
    """A path holding NUL or CR LF made Voilà redirect to a Location tornado cannot write (HTTP 500 and a
    traceback of 30 lines each); a templates path not of the form <template>/static/<file> failed an assert."""
    before = len(server.log_text().splitlines())
    odd = ["voila/%0d%0a", "api/kernels/%00", "%c0", "voila/templates/x", "voila/templates/a/static/%2e%2e/b"]
    codes = [status(f"{server.url}%00", {}) for _ in range(50)] + [status(server.url + path, {}) for path in odd]
    assert codes == [400] * 53 + [404] * 2
    added = added_lines(server, before, lambda line: line.startswith("Refused "), len(codes))
    refused = [line for line in added if line.startswith("Refused ")]
    assert len(refused) == len(codes) and len([line for line in added if "%00" in line]) == 51, added
    assert "Traceback" not in "\n".join(added) and "ERROR" not in "\n".join(added)
    assert status(f"{server.url}voila/templates/lab/static/voila.js", {}) == 200, "the templates' files are served"


@pytest.fixture(scope="module")
def low_files_server(tmp_path_factory: pytest.TempPathFactory, server_tools: Any) -> Iterator[Any]:
    """A server started with a soft open-file limit of 250 under a hard one of 300 (as `prlimit` sets them)."""
    start, stop = server_tools
    started = start(tmp_path_factory.mktemp("files") / "server.log", prefix=["prlimit", f"--nofile=250:{HARD_FILES}"])
    try:
        yield started
    finally:
        stop(started.process)


def test_the_open_file_limit_is_raised_and_sets_the_cap(low_files_server: Any) -> None:
    soft, hard = psutil.Process(low_files_server.process.pid).rlimit(psutil.RLIMIT_NOFILE)
    assert (soft, hard) == (HARD_FILES, HARD_FILES)
    first = low_files_server.log_text().splitlines()[0]
    assert first.startswith(f"Sessions: at most {FILES_CAP} at once (set by open files;"), first
    assert f"Open-file limit raised from 250 to {HARD_FILES}" in first


def test_a_script_holding_websockets_cannot_use_up_the_open_files(low_files_server: Any) -> None:
    """One script opens 30 websockets to its session (10 descriptors each); the class then fills the cap
    the open files set, and the next student is told the class is full: nobody gets an error."""
    wait_for_kernels(low_files_server, 1)

    async def scenario() -> tuple[int, list[int], int, list[bool]]:
        base = low_files_server.url
        script = Visit(base)
        await script.open()
        held, opened = [], 0
        for _ in range(30):
            extra = Visit(base, cookies=dict(script.cookies), kernel_id=script.kernel_id)
            try:
                await extra.connect()
                opened += 1
                held.append(extra)
            except VisitError:
                continue
        students = [Visit(base) for _ in range(FILES_CAP)]
        statuses = [await student.load() for student in students]
        joined = [student for student, code in zip(students, statuses) if code == 200]
        for student in joined:
            await student.connect()
            await student.ready()
            await student.fetch_states()
            student.find_board()
        answered = [(await student.click({"type": "select", "index": 0}))[0] is not None
                    for student in [script, *joined]]
        for extra in held:
            await extra.close()
        await end([script, *students])
        return opened, statuses, len(joined), answered

    opened, statuses, joined, answered = run(scenario())
    assert opened == 1, "the page's websocket and one more: a session has two"
    assert statuses == [200] * (FILES_CAP - 1) + [503], statuses
    assert joined == FILES_CAP - 1 and all(answered)
    log = low_files_server.log_text()
    assert "Too many open files" not in log and "Uncaught exception" not in log


def test_a_half_sent_request_is_dropped_soon(low_files_server: Any) -> None:
    parts = urlsplit(low_files_server.url)
    with socket.create_connection((parts.hostname, parts.port), timeout=IDLE_CONNECTION_SECONDS + 15) as held:
        held.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of the headers
        start = time.monotonic()
        assert held.recv(1024) == b"", "the server closes the connection"
        assert time.monotonic() - start < IDLE_CONNECTION_SECONDS + 5


@pytest.mark.parametrize("limit", [1200, 100])
def test_the_kernel_managers_zmq_context_takes_the_socket_limit_set_at_start(limit: int, tmp_path: Path) -> None:
    """The class server sets ZMQ's socket limit on the context its kernel manager shares with every kernel
    and websocket, before its first socket (ZMQ's default is 1023: about 170 connected sessions)."""
    import zmq

    from leopard_tutor.server.launch import class_server, notebook_path

    app = class_server(limit)()
    app.initialize([str(notebook_path(tmp_path)), "--no-browser", "--preheat_kernel=False"])
    app.init_settings()
    context = app.kernel_manager.context
    sockets = []
    try:
        with pytest.raises(zmq.ZMQError) if limit < 1100 else nullcontext():
            for _ in range(1100):
                sockets.append(context.socket(zmq.DEALER))
        assert len(sockets) == min(limit, 1100)
    finally:
        for held in sockets:
            held.close(0)
        context.term()


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory: pytest.TempPathFactory, server_tools: Any) -> Iterator[Any]:
    start, stop = server_tools
    started = start(tmp_path_factory.mktemp("paced") / "server.log", "--max-sessions", "4",
                    "--sessions-per-visitor", "2")
    try:
        yield started
    finally:
        stop(started.process)


def new_match_button(visit: Visit) -> str:
    """The model id of a page's New match button."""
    new_match = text("play.controls.new_match")  # the server's language: English
    return next(model_id for model_id, model in visit.states.items()
                if model.get("model_name") == "ButtonModel" and model["state"].get("description") == new_match)


@pytest.mark.slow
def test_a_visitor_whose_kernels_are_busy_waits_while_another_visitors_clicks_pass(paced_server: Any) -> None:
    """A visitor looping New match against the expert in two tabs while another plays spends their processor
    budget: the server holds what their pages send (one log line a hold), lets it through later (held, not
    dropped), and the other visitor's clicks meanwhile pass."""
    log_before = len(paced_server.log_text().splitlines())

    def holding(kernel_ids: list[str]) -> list[str]:
        added = paced_server.log_text().splitlines()[log_before:]
        return [line for line in added if line.startswith("Holding") and any(k in line for k in kernel_ids)]

    async def scenario() -> tuple[list[str], list[float], float, list[str]]:
        cookies: dict[str, str] = {}
        flooders = [Visit(paced_server.url, cookies=cookies) for _ in range(2)]
        for visit in flooders:
            await visit.open("?level=expert")
        bystander = Visit(paced_server.url)
        await bystander.open()
        bad = [visit.kernel_id or "" for visit in flooders]
        stop = time.monotonic() + 90
        clicks: list[float] = []

        async def flood(visit: Visit) -> None:
            button = new_match_button(visit)
            while time.monotonic() < stop and not holding(bad):
                await visit.send("shell", "comm_msg", {"comm_id": button,
                                                       "data": {"method": "custom", "content": {"event": "click"}}})
                await asyncio.sleep(0.2)

        async def play() -> None:
            while time.monotonic() < stop and not holding(bad):
                clicks.append((await bystander.click({"type": "select", "index": len(clicks) % 2}))[1])
                await asyncio.sleep(0.2)

        await asyncio.gather(play(), *(flood(visit) for visit in flooders))
        held = holding(bad)
        reply = flooders[0].expect(lambda m: m["header"].get("msg_type") == "kernel_info_reply")
        asked = time.monotonic()
        await flooders[0].send("shell", "kernel_info_request", {})
        await asyncio.wait_for(reply, 120)
        waited = time.monotonic() - asked
        await end([*flooders, bystander])
        return held, clicks, waited, holding([bystander.kernel_id or ""])

    held, clicks, waited, bystander_held = run(scenario())
    assert held, "the flooding visitor's messages were never held"
    assert all(len(line) < 300 for line in held)
    assert bystander_held == [], "the other visitor's messages are never held"
    assert sorted(clicks)[int(0.9 * len(clicks))] < 2.0, clicks
    assert waited < 120, "held, then let through"
