"""The teacher's class page on a real class server: every teacher path answers 403 without the token or with a
wrong one; requests proved as a page's kernel proves them (with its connection file's key) report a name,
progress, a game and what it does, and the class page lists it, the CSV holding the same rows; a forged kernel request
is refused; the token and every record outlive a restart; `leopard-tutor teacher-link` prints the link."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import re
import socket
import stat
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psutil
import pytest
from kernel_client import Visit, run

from leopard_tutor.class_client import KERNEL_HEADER
from leopard_tutor.cli import main
from leopard_tutor.engine.catalogue import text
from leopard_tutor.kernel_proof import PROOF_HEADER, kernel_proof
from leopard_tutor.lessons import LESSONS
from leopard_tutor.lessons.progress import Progress
from leopard_tutor.server.teacher import TOKEN_FILE

TOKEN = "a-teacher-token-for-tests_0123456789"
TEACHER_PATHS = ("teacher", "teacher/static/teacher.js", "teacher/static/teacher.css", "teacher/api/class",
                 "teacher/api/class.csv", "teacher/api/watch?table=KRTQ")
POSTS = {"teacher/api/defaults": {"rules": "RUNNING_LEOPARD", "level": None},
         "teacher/api/unlock": {"visitor": "all"}, "teacher/api/forget": {"confirm": True}}
CONNECTION_FILES = re.compile(r"Storing connection files in (\S+?)\.?$", re.MULTILINE)


def kernel_headers(server: Any, kernel_id: str) -> dict[str, str]:
    """The headers a page's kernel proves itself with (`class_client.ClassLink`): its proof is made here with the
    key of its connection file, which the server wrote to the folder its log names (a browser never sees it)."""
    folder = CONNECTION_FILES.search(server.log_text())
    assert folder is not None, "the server names the folder of its kernels' connection files"
    key = json.loads((Path(folder.group(1)) / f"kernel-{kernel_id}.json").read_text())["key"].encode()
    return {KERNEL_HEADER: kernel_id, PROOF_HEADER: kernel_proof(key, kernel_id), "Content-Type": "application/json"}


def lessons_cell(done: int, stars: int) -> str:
    """The Lessons cell of a student with `done` lessons and `stars` stars, in the server's words (English)."""
    return text("teacher.lessons", done=done, total=len(LESSONS), stars=stars)


def fetch(url: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """(HTTP status, body) of a GET, or of a POST of `body` as JSON."""
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def test_the_class_page_needs_its_token_and_lists_what_a_kernel_reports(tmp_path: Path, server_tools: Any) -> None:
    start, stop = server_tools
    data = tmp_path / "data"
    server = start(tmp_path / "first.log", "--data-dir", str(data), "--teacher-token", TOKEN)
    progress = Progress()
    progress.record_lesson(LESSONS[0].key, 3)
    progress.record_practice("jacks", False)
    try:
        assert text("teacher.link", url=f"{server.url}teacher?token={TOKEN}") in server.log_text()
        for path in TEACHER_PATHS:
            for query in ("", "?token=wrong", f"?token={TOKEN[:-1]}"):
                joined = path + (query if "?" not in path else query.replace("?", "&"))
                assert fetch(server.url + joined)[0] == 403, joined
        status, page = fetch(server.url + "teacher")
        assert status == 403 and escape(text("teacher.needs_token")) in page  # a page the teacher can read
        for path, body in POSTS.items():
            assert fetch(server.url + path, body)[0] == 403
            assert fetch(f"{server.url}{path}?token=x{TOKEN}", body)[0] == 403

        async def report() -> tuple[list[tuple[int, Any]], dict[str, Any]]:
            visit = Visit(server.url)
            await visit.open()
            try:
                proved = kernel_headers(server, visit.kernel_id)
                answers = []
                for action, body in (("name", {"name": "Ana"}), ("progress", {"code": progress.to_code()}),
                                     ("game", {"against": "computer:beginner", "result": "won"}),
                                     ("now", {"doing": "learn", "stage": 2, "with": None}), ("me", None),
                                     ("progress", {"code": "LT2-damaged"})):
                    status, answer = await asyncio.to_thread(fetch, f"{server.url}leopard/students/{action}", body,
                                                             proved)
                    answers.append((status, json.loads(answer)))
                forged = {**proved, PROOF_HEADER: "0" * 64}
                assert fetch(f"{server.url}leopard/students/name", {"name": "Mallory"}, forged)[0] == 403
                assert fetch(f"{server.url}leopard/students/me")[0] == 403
                page = json.loads(fetch(f"{server.url}teacher/api/class?token={TOKEN}")[1])
                return answers, page
            finally:
                await visit.close()

        answers, page = run(report())
        assert answers[:4] == [(200, {})] * 4
        assert answers[5][0] == 400 and answers[5][1]["refused"] == "bad_progress"
        me = answers[4][1]
        assert me["name"] == "Ana" and me["unlock_all"] is False and me["defaults"] == {"rules": None, "level": None}
        assert Progress.from_code(me["progress"]).stars == {LESSONS[0].key: 3}
        [ana] = page["students"]
        cells = [cell["text"] for cell in ana["cells"]]
        assert cells[:5] == ["Ana", lessons_cell(1, 3),
                             text("teacher.practice", concept=text("lessons.practice.concepts.jacks"), share=0,
                                  answers=1),
                             text("teacher.games", opponent=text("levels.names.beginner"), won=1, drawn=0, lost=0),
                             text("teacher.now.learn_stage", stage=2)]
        status, sheet = fetch(f"{server.url}teacher/api/class.csv?token={TOKEN}")
        rows = list(csv.reader(io.StringIO(sheet)))
        assert status == 200 and rows[0] == page["columns"] and rows[1][:4] == cells[:4]
        status, html = fetch(f"{server.url}teacher?token={TOKEN}")
        assert status == 200 and "teacher/static/teacher.js" in html and "<html lang=\"en\">" in html
        assert fetch(f"{server.url}teacher/api/unlock?token={TOKEN}", {"visitor": ana["id"]}) == (
            200, json.dumps({"unlocked": 1}))
        assert fetch(f"{server.url}teacher/api/defaults?token={TOKEN}", {"rules": "RUNNING_LEOPARD",
                                                                       "level": "expert"})[0] == 200
    finally:
        stop(server.process)

    token_file = data / TOKEN_FILE
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    again = start(tmp_path / "second.log", "--data-dir", str(data))  # no --teacher-token: the kept one
    try:
        status, body = fetch(f"{again.url}teacher/api/class?token={TOKEN}")
        assert status == 200
        page = json.loads(body)
        assert [cell["text"] for cell in page["students"][0]["cells"]][:2] == ["Ana", lessons_cell(1, 3)]
        assert page["students"][0]["unlock_all"] is True
        assert page["defaults"] == {"rules": "RUNNING_LEOPARD", "level": "expert"}
        assert fetch(f"{again.url}teacher/api/forget?token={TOKEN}", {"confirm": False})[0] == 400
        assert fetch(f"{again.url}teacher/api/forget?token={TOKEN}", {"confirm": True})[0] == 200
        assert json.loads(fetch(f"{again.url}teacher/api/class?token={TOKEN}")[1])["students"] == []
    finally:
        stop(again.process)


def test_teacher_link_prints_the_kept_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["teacher-link", "--data-dir", str(tmp_path), "--port", "9000"])
    first = capsys.readouterr().out.strip()
    token = (tmp_path / TOKEN_FILE).read_text().strip()
    assert first == text("teacher.link", url=f"http://127.0.0.1:9000/teacher?token={token}") and len(token) == 32
    main(["teacher-link", "--data-dir", str(tmp_path), "--port", "9000"])
    assert capsys.readouterr().out.strip() == first


@pytest.mark.parametrize("token", ["short", "x" * 129, "has spaces in it, sixteen+", "ünïcödé-token-0123456789"])
def test_a_teacher_token_that_is_not_one_stops_the_start(token: str, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--no-browser", "--data-dir", str(tmp_path), "--teacher-token", token])
    assert stopped.value.code == 2 and not (tmp_path / TOKEN_FILE).exists()


@pytest.fixture(scope="module")
def token_server(tmp_path_factory: pytest.TempPathFactory, server_tools: Any) -> Iterator[Any]:
    """A class server of this module's own, with the teacher's token `TOKEN`."""
    start, stop = server_tools
    folder = tmp_path_factory.mktemp("token")
    server = start(folder / "server.log", "--data-dir", str(folder / "data"), "--teacher-token", TOKEN)
    try:
        yield server
    finally:
        stop(server.process)


def post(url: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """(HTTP status, body) of a POST of `body` as it is."""
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=20) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def test_the_teachers_token_is_never_in_the_log_after_the_start_banner(token_server: Any) -> None:
    url = token_server.url
    near = TOKEN[:-1]  # a token one character short: what is logged of it must not give the token away either
    for path in (f"teacher?token={near}", f"teacher?token={TOKEN}x", f"teacher?token={TOKEN}",
                 f"teacher/api/class?token={TOKEN}", f"teacher/api/nothing?token={TOKEN}", f"nothing?token={TOKEN}",
                 TOKEN, f"teacher/{TOKEN}", f"voila/templates/x?token={TOKEN}", f"%00?token={TOKEN}"):
        fetch(url + path)
    post(f"{url}api/kernels?token={TOKEN}", b"{}")  # a Jupyter route: tornado warns of the missing XSRF argument
    post(f"{url}teacher/api/unlock?token={TOKEN}", b"[" * 1000)
    fetch(f"{url}%00?last")
    deadline = time.monotonic() + 10
    while "%00?last" not in token_server.log_text() and time.monotonic() < deadline:
        time.sleep(0.2)  # the line of the last request is written a moment after its answer
    banner = text("teacher.link", url=f"{url}teacher?token={TOKEN}")
    before, _, after = token_server.log_text().partition(banner)
    assert before and "%00?last" in after and "Refused 403 GET /teacher?token=[secret]" in after, after
    assert near not in after, [line for line in after.splitlines() if near in line]


@pytest.mark.parametrize(("action", "body"), [
    ("defaults", {"rules": ["a"]}), ("defaults", {"level": {}}), ("defaults", {"rules": 5, "level": None}),
    ("unlock", {"visitor": 5}), ("unlock", {"visitor": ["all"]}), ("forget", {"confirm": "yes"}),
    ("defaults", ["rules"]), ("unlock", "all")])
def test_the_class_pages_requests_of_the_wrong_types_are_refused(token_server: Any, action: str,
                                                                 body: Any) -> None:
    status, answer = post(f"{token_server.url}teacher/api/{action}?token={TOKEN}", json.dumps(body).encode())
    assert status == 400 and 0 < len(answer) < 100, answer


NESTED = [b"[" * 1000, b"[" * 1023 + b"]", b'{"a":' * 204, b"[" * 500 + b"]" * 500]
"""Bodies nested deeper than Python's JSON reader goes, within 1,024 bytes."""


def test_json_nested_too_deep_is_refused_on_every_json_endpoint(token_server: Any) -> None:
    url = token_server.url
    assert all(len(body) <= 1024 for body in NESTED)
    for action in ("defaults", "unlock", "forget"):
        for body in NESTED:
            assert post(f"{url}teacher/api/{action}?token={TOKEN}", body)[0] == 400, (action, body[:10])

    async def kernels() -> list[tuple[str, bytes, int, str]]:
        visit = Visit(url)
        await visit.open()
        try:
            proved = kernel_headers(token_server, visit.kernel_id)
            answers = []
            for path in ("students/name", "students/progress", "students/game", "students/now", "class/open",
                         "class/join", "class/move", "class/end"):
                for body in [*NESTED, json.dumps({"name": {}, "rules": ["a"], "code": [], "against": 5,
                                                  "doing": [], "number": "x", "move": [], "ending": {}}).encode()]:
                    status, answer = await asyncio.to_thread(post, f"{url}leopard/{path}", body, proved)
                    answers.append((path, body[:10], status, answer))
            return answers
        finally:
            await visit.close()

    for path, body, status, answer in run(kernels()):
        assert status == 400 and json.loads(answer)["refused"].startswith("bad_"), (path, body, status, answer)
    assert "Traceback" not in token_server.log_text()


def test_a_huge_body_is_refused_before_it_is_read(token_server: Any) -> None:
    """An anonymous POST of 90 MiB to a teacher's route: tornado read all of it (up to its 100 MiB default) before
    the handler refused it for want of the token; now the server answers once the length is known."""
    server = psutil.Process(token_server.process.pid)
    before = server.memory_info().rss
    size = 90 * 2**20
    parts = urlsplit(token_server.url)
    sent, answer = 0, b""
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as connection:
        connection.sendall(f"POST /teacher/api/defaults HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: "
                           f"application/json\r\nContent-Length: {size}\r\n\r\n".encode())
        chunk = b"[" * 2**20
        try:
            while sent < size:
                connection.sendall(chunk)
                sent += len(chunk)
        except OSError:  # the server closed the connection: it reads no more
            pass
        with contextlib.suppress(OSError):
            answer = connection.recv(1024)
    grown = server.memory_info().rss - before
    assert answer.startswith(b"HTTP/1.1 4"), answer
    assert sent < size and grown < 20 * 2**20, (sent, grown)
    assert fetch(f"{token_server.url}teacher/api/class?token={TOKEN}")[0] == 200, "the server answers on"
