"""The teacher's class page on a real class server: every teacher path answers 403 without the token or with a
wrong one; requests proved as a page's kernel proves them (with its connection file's key) report a name,
progress, a game and what it does, and the class page lists it, the CSV holding the same rows; a forged kernel request
is refused; the token and every record outlive a restart; `leopard-tutor teacher-link` prints the link. With
`--max-sessions 3`, pages that never name themselves leave no row and take no place from a named student, a match
reported won again counts once, and after "Forget this class" an open page's report brings no row back. A report
the full disk refuses is one log line, a refusal for the kernel and a line on the class page."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
import stat
import time
import urllib.error
import urllib.request
from html import escape
from pathlib import Path
from typing import Any

import pytest
from kernel_client import Visit, run

from leopard_tutor.class_client import KERNEL_HEADER
from leopard_tutor.cli import main
from leopard_tutor.engine.catalogue import text
from leopard_tutor.kernel_proof import PROOF_HEADER, kernel_proof
from leopard_tutor.lessons import LESSONS
from leopard_tutor.lessons.progress import Progress
from leopard_tutor.server.class_store import ClassStore, TableRow
from leopard_tutor.server.teacher import TOKEN_FILE

TOKEN = "a-teacher-token-for-tests_0123456789"
MATCH = "0123456789abcdef"
"""A match's id as a kernel reports it."""
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
                for action, body in (("name", {"name": "Ana"}),
                                     ("progress", {"stars": {LESSONS[0].key: 3}, "practice": {"jacks": [0, 1]}}),
                                     ("game", {"against": "computer:beginner", "result": "won", "match": MATCH}),
                                     ("now", {"doing": "learn", "stage": 2, "with": None}), ("me", None),
                                     ("progress", {"stars": "LT2-damaged"})):
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
    kept = ClassStore.in_folder(data)  # a table waiting for a classmate, opened just before the restart
    kept.add_table(TableRow("KRTQ", "REVISED_2008", 4, "seed", ("cat", None), ("Cat", None), time.time()))
    kept.close()
    again = start(tmp_path / "second.log", "--data-dir", str(data))  # no --teacher-token: the kept one
    try:
        status, body = fetch(f"{again.url}teacher/api/class?token={TOKEN}")
        assert status == 200
        page = json.loads(body)
        assert [cell["text"] for cell in page["students"][0]["cells"]][:2] == ["Ana", lessons_cell(1, 3)]
        assert page["students"][0]["unlock_all"] is True
        assert page["defaults"] == {"rules": "RUNNING_LEOPARD", "level": "expert"}
        assert page["tables"] == [{"code": "KRTQ", "names": ["Cat"]}]
        assert fetch(f"{again.url}teacher/api/forget?token={TOKEN}", {"confirm": False})[0] == 400
        assert fetch(f"{again.url}teacher/api/forget?token={TOKEN}", {"confirm": True})[0] == 200
        forgotten = json.loads(fetch(f"{again.url}teacher/api/class?token={TOKEN}")[1])
        assert forgotten["students"] == [] and forgotten["tables"] == [], "the tables are forgotten too"
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


def test_visits_without_a_name_leave_no_row_and_take_no_place(tmp_path: Path, server_tools: Any) -> None:
    """`--max-sessions 3`: two pages open and never named (their kernels ask `me` at start, as every page does), and
    a third whose student keeps a name, solves a stage and wins a match, reported won five times: one row, Ana's,
    with her stage and one win. Then the teacher forgets the class: Ana's open page's next reports are refused
    "unknown_student" and no row comes back."""
    start, stop = server_tools
    server = start(tmp_path / "server.log", "--data-dir", str(tmp_path / "data"), "--teacher-token", TOKEN,
                   "--max-sessions", "3")

    def ask(visit: Visit, action: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        status, answer = fetch(f"{server.url}leopard/students/{action}", body, kernel_headers(server, visit.kernel_id))
        return status, json.loads(answer)

    def class_page() -> dict[str, Any]:
        page: dict[str, Any] = json.loads(fetch(f"{server.url}teacher/api/class?token={TOKEN}")[1])
        return page

    async def visits() -> tuple[list[tuple[int, Any]], dict[str, Any], list[tuple[int, Any]], dict[str, Any]]:
        pages = [Visit(server.url) for _ in range(3)]
        try:
            for page in pages:
                await page.open()
            *others, ana = pages
            for other in others:
                assert await asyncio.to_thread(ask, other, "me") == (200, {"name": None, "progress": None,
                                                                          "unlock_all": False,
                                                                          "defaults": {"rules": None, "level": None}})
            reports = [await asyncio.to_thread(ask, ana, action, body) for action, body in (
                ("name", {"name": "Ana"}), ("progress", {"stars": {LESSONS[0].key: 2}}),
                *[("game", {"against": "computer:expert", "result": "won", "match": MATCH})] * 5,
                ("now", {"doing": "play", "stage": None, "with": None}))]
            before = await asyncio.to_thread(class_page)
            assert fetch(f"{server.url}teacher/api/forget?token={TOKEN}", {"confirm": True})[0] == 200
            after = [await asyncio.to_thread(ask, ana, action, body) for action, body in (
                ("now", {"doing": "learn", "stage": 1, "with": None}),
                ("game", {"against": "computer:expert", "result": "won", "match": MATCH}), ("me", None))]
            return reports, before, after, await asyncio.to_thread(class_page)
        finally:
            for page in pages:
                await page.close()

    try:
        reports, before, after, forgotten = run(visits())
    finally:
        stop(server.process)
    assert reports == [(200, {})] * 8
    [ana] = before["students"]
    cells = [cell["text"] for cell in ana["cells"]]
    assert cells[:4] == ["Ana", lessons_cell(1, 2), text("teacher.nothing_yet"),
                         text("teacher.games", opponent=text("levels.names.expert"), won=1, drawn=0, lost=0)]
    assert cells[4] == text("teacher.now.play") and before["shown"] == ""
    assert after[:2] == [(400, {"refused": "unknown_student", "facts": {}})] * 2
    assert after[2] == (200, {"name": None, "progress": None, "unlock_all": False,
                              "defaults": {"rules": None, "level": None}})
    assert forgotten["students"] == []


FILE_LIMIT = 256 * 1024
"""The largest file the server of a full-disk test may write (`prlimit --fsize`, which binds root too): its store's
write-ahead log reaches it after some 60 reports, as if the disk were full."""


def test_a_full_disk_refuses_a_kernels_report_in_one_log_line_and_the_class_page_says_so(
        tmp_path: Path, server_tools: Any) -> None:
    start, stop = server_tools
    # The server under the limit, its kernels' own files (IPython's history) begun afresh in the test's folder:
    limited = ["env", f"IPYTHONDIR={tmp_path / 'ipython'}", "prlimit", f"--fsize={FILE_LIMIT}"]
    server = start(tmp_path / "server.log", "--teacher-token", TOKEN, prefix=limited)
    try:
        async def report_until_refused() -> tuple[int, dict[str, Any], dict[str, Any]]:
            visit = Visit(server.url)
            await visit.open()
            try:
                proved = kernel_headers(server, visit.kernel_id)
                named = await asyncio.to_thread(fetch, f"{server.url}leopard/students/name", {"name": "Ana"}, proved)
                assert named[0] == 200  # a student's record is made by a name; then each report writes it
                for sent in range(1, 400):
                    status, answer = await asyncio.to_thread(fetch, f"{server.url}leopard/students/now",
                                                             {"doing": "learn", "stage": 1 + sent % 5, "with": None},
                                                             proved)
                    if status != 200:
                        break
                page = json.loads(fetch(f"{server.url}teacher/api/class?token={TOKEN}")[1])
                return sent, {"status": status, **json.loads(answer)}, page
            finally:
                await visit.close()

        log = server.log_text()
        sent, refusal, page = run(report_until_refused())
        log = server.log_text()[len(log):]  # what the server logged while the kernel reported
    finally:
        stop(server.process)
    assert sent > 1 and refusal == {"status": 400, "refused": "not_stored", "facts": {}}
    assert log.count("Not stored: INSERT INTO students") == 1 and "Traceback" not in log, log
    lines = [text("teacher.not_stored", count=1, time="\0", reason=text(f"teacher.store_failures.{kind}")).split("\0")
             for kind in ("full", "io")]  # ENOSPC is SQLite's "full"; a file past its limit, an I/O error
    assert any(page["not_stored"].startswith(before) and page["not_stored"].endswith(after) for before, after in lines)
