"""The teacher's class page on a real class server: every teacher path answers 403 without the token or with a
wrong one; requests proved as a page's kernel proves them (with its connection file's key) report a name,
progress, a game and what it does, and the class page lists it, the CSV holding the same rows; a forged kernel request
is refused; the token and every record outlive a restart; `leopard-tutor teacher-link` prints the link. With
`--max-sessions 3`, pages that never name themselves leave no row and take no place from a named student, a match
reported won again counts once, and after "Forget this class" an open page's report brings no row back. A report
the full disk refuses is one log line, a refusal for the kernel and a line on the class page. The token never
appears in the log after the banner; wrong JSON types and deep nesting are a 400; a huge body is refused unread."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
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
from dataclasses import replace
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import psutil
import pytest
from class_players import play_face_down_first
from fake_clock import Clock
from kernel_client import Visit, run
from keyed import mark

from leopard_tutor.cli import main
from leopard_tutor.engine import Card
from leopard_tutor.engine.catalogue import answer_in, text
from leopard_tutor.lessons import LESSONS
from leopard_tutor.lessons.progress import Progress
from leopard_tutor.protocol import EVERYONE_GONE_SECONDS, KERNEL_HEADER, PROOF_HEADER, kernel_proof
from leopard_tutor.server.class_store import ClassStore, TableRow
from leopard_tutor.server.join import qr_svg
from leopard_tutor.server.referee import GONE_SECONDS, QUIET_SECONDS, Referee
from leopard_tutor.server.standings import results, tally
from leopard_tutor.server.students import COLUMNS, Students
from leopard_tutor.server.teacher import CSV_MARK, PAGE_COOKIE, TOKEN_FILE, ClassPage, closed_words

TOKEN = "a-teacher-token-for-tests_0123456789"
MATCH = "0123456789abcdef"
"""A match's id as a kernel reports it."""
TEACHER_PATHS = ("teacher", "teacher/static/teacher.js", "teacher/static/teacher.css", "teacher/static/cards.js",
                 "teacher/static/board.css", "teacher/api/class", "teacher/api/class.csv",
                 "teacher/api/watch?table=KRTQ", "teacher/static/teacher_join.js",
                 "teacher/api/join.svg?address=http%3A%2F%2Fschool.example%2F")
POSTS = {"teacher/api/defaults": {"rules": "RUNNING_LEOPARD", "level": None},
         "teacher/api/unlock": {"visitor": "all"}, "teacher/api/forget": {"confirm": True}}
CONNECTION_FILES = re.compile(r"Storing connection files in (\S+?)\.?$", re.MULTILINE)


def kernel_headers(server: Any, kernel_id: str) -> dict[str, str]:
    """The headers a page's kernel proves itself with (`ClassClient`): its proof is made here with the
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


def won_one(level: str, hands: int = 0) -> str:
    """The Games cell of one match won against the computer at `level` (and `hands` hands played to their end)."""
    counts = [text("teacher.games.matches", matches=1, results=text("teacher.games.won", count=1))]
    if hands:
        counts.append(text("teacher.games.hands", hands=hands))
    return text("teacher.games.line", opponent=text(f"levels.names.{level}"),
                counts=text("teacher.games.joined").join(counts))


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
                                     ("progress", {"stars": "LT2-damaged"}),
                                     *[("tried", {"lesson": LESSONS[1].key})] * 3, ("tried", {"lesson": "nowhere"})):
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
        assert answers[6:9] == [(200, {})] * 3 and answers[9][0] == 400 and answers[9][1]["refused"] == "bad_try"
        me = answers[4][1]
        assert me["name"] == "Ana" and me["unlock_all"] is False and me["defaults"] == {"rules": None, "level": None}
        assert Progress.from_code(me["progress"]).stars == {LESSONS[0].key: 3}
        [ana] = page["students"]
        assert ana["stuck"] == {"stage": 2, "text": text("teacher.stuck", stage=2, count=3, minutes=10)}
        assert [(stage["stage"], stage["stars"]) for stage in ana["stages"][:2]] == [(1, 3), (2, 0)]
        cells = [cell["text"] for cell in ana["cells"]]
        assert cells[:5] == ["Ana", lessons_cell(1, 3),
                             text("teacher.practice", concept=text("lessons.practice.concepts.jacks"), share=0,
                                  answers=1),
                             won_one("beginner"),
                             text("teacher.now.learn_stage", stage=2)]
        status, sheet = fetch(f"{server.url}teacher/api/class.csv?token={TOKEN}")
        assert sheet.startswith(CSV_MARK), "a spreadsheet reads it as UTF-8"
        rows = list(csv.reader(io.StringIO(sheet.removeprefix(CSV_MARK))))
        assert status == 200 and rows[0] == page["columns"] and rows[1][:4] == cells[:4]
        assert page["column_keys"] == list(COLUMNS), "the page finds its columns by their keys"
        status, html = fetch(f"{server.url}teacher?token={TOKEN}")
        assert status == 200 and "teacher/static/teacher.js" in html and '<html lang="en" data-theme="auto">' in html
        assert fetch(f"{server.url}teacher/api/unlock?token={TOKEN}", {"visitor": ana["id"]}) == (
            200, json.dumps({"unlocked": 1, "said": text("teacher.unlocked_one", name="Ana")}))
        assert fetch(f"{server.url}teacher/api/unlock?token={TOKEN}", {"visitor": ana["id"]}) == (  # again: none
            200, json.dumps({"unlocked": 0, "said": text("teacher.unlocked_none")}))
        assert fetch(f"{server.url}teacher/api/defaults?token={TOKEN}", {"rules": "RUNNING_LEOPARD",
                                                                       "level": "expert"})[0] == 200
    finally:
        stop(server.process)

    token_file = data / TOKEN_FILE
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    kept = ClassStore.in_folder(data)  # a table waiting for a classmate, opened just before the restart
    kept.add_table(TableRow("KRTQ", "REVISED_2008", 4, "seed", ("cat", None), ("Cat", None), time.time()))
    yesterday = time.time() - 86400 * 2
    for code, names, scores, ended in (("MNPQ", ("Dan", "Eve"), (7, 3), yesterday),
                                       ("WXYZ", ("Eve", "=Fay"), (2, 2), time.time())):
        row = kept.add_table(TableRow(code, "REVISED_2008", 1, "seed", (names[0].lower(), names[1].lower()), names,
                                      ended - 60, ended - 50))
        kept.end_table(row.id, ended, "finished", scores, [scores])
    kept.close()
    again = start(tmp_path / "second.log", "--data-dir", str(data))  # no --teacher-token: the kept one
    try:
        status, body = fetch(f"{again.url}teacher/api/class?token={TOKEN}")
        assert status == 200
        page = json.loads(body)
        assert [cell["text"] for cell in page["students"][0]["cells"]][:2] == ["Ana", lessons_cell(1, 3)]
        assert page["students"][0]["unlock_all"] is True
        assert page["defaults"] == {"rules": "RUNNING_LEOPARD", "level": "expert"}
        assert [{key: table[key] for key in ("code", "names", "note")} for table in page["tables"]] == [
            {"code": "KRTQ", "names": ["Cat"], "note": ""}]
        standings = page["standings"]
        columns = ("name", "played", "won", "drawn", "lost", "for", "against", "byes")
        assert standings["columns"] == {column: text(f"teacher.standings.columns.{column}") for column in columns}
        assert standings["counts"] == text("teacher.standings.counts")
        assert standings["all"] == [
            {"name": "Dan", "played": 1, "won": 1, "drawn": 0, "lost": 0, "for": 7, "against": 3, "byes": 0},
            {"name": "=Fay", "played": 1, "won": 0, "drawn": 1, "lost": 0, "for": 2, "against": 2, "byes": 0},
            {"name": "Eve", "played": 2, "won": 0, "drawn": 1, "lost": 1, "for": 5, "against": 9, "byes": 0}]
        assert [row["name"] for row in standings["today"]] == ["=Fay", "Eve"], "yesterday's match is not today's"
        sheet = list(csv.reader(io.StringIO(fetch(f"{again.url}teacher/api/class.csv?token={TOKEN}")[1])))
        assert sheet[2:] == [[], [text("teacher.standings.csv_title")],
                             [standings["columns"][column] for column in columns],
                             ["Dan", "1", "1", "0", "0", "7", "3", "0"], ["'=Fay", "1", "0", "1", "0", "2", "2", "0"],
                             ["Eve", "2", "0", "1", "1", "5", "9", "0"]], "a blank line, then the standings of all time"
        assert fetch(f"{again.url}teacher/api/forget?token={TOKEN}", {"confirm": False})[0] == 400
        assert fetch(f"{again.url}teacher/api/forget?token={TOKEN}", {"confirm": True})[0] == 200
        forgotten = json.loads(fetch(f"{again.url}teacher/api/class?token={TOKEN}")[1])
        assert forgotten["students"] == [] and forgotten["tables"] == [], "the tables are forgotten too"
        assert forgotten["standings"]["all"] == forgotten["standings"]["today"] == [], "and the standings"
    finally:
        stop(again.process)


def test_the_servers_theme_is_the_class_pages_unless_its_address_asks_for_another(tmp_path: Path,
                                                                                    server_tools: Any) -> None:
    """`leopard-tutor --theme dark`: the class page is dark where its address asks for no theme, as the app's page is
    (it followed the browser's preference); a link's ?theme= or ?voila-theme= still wins, as in the app."""
    start, stop = server_tools
    server = start(tmp_path / "server.log", "--teacher-token", TOKEN, "--theme", "dark")
    try:
        for asked, shown in (("", "dark"), ("&theme=light", "light"), ("&voila-theme=light", "light"),
                             ("&theme=purple", "dark")):
            status, html = fetch(f"{server.url}teacher?token={TOKEN}{asked}")
            assert status == 200 and f'<html lang="en" data-theme="{shown}">' in html, (asked, html[:200])
    finally:
        stop(server.process)


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
    """`--max-sessions 3`: two pages open and never named (their kernels ask `me` at start, as every page does, and
    are offered two names from the same made-up ones), and
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

    classes: list[str] = []  # the class's id, as `me` said it to each page

    async def visits() -> tuple[list[tuple[int, Any]], dict[str, Any], list[tuple[int, Any]], dict[str, Any]]:
        pages = [Visit(server.url) for _ in range(3)]
        try:
            for page in pages:
                await page.open()
            *others, ana = pages
            for other in others:
                status, said = await asyncio.to_thread(ask, other, "me")
                assert status == 200 and said == {"name": None, "progress": None, "unlock_all": False,
                                                  "defaults": {"rules": None, "level": None}, "class": said["class"]}
                classes.append(said["class"])
            offers = [await asyncio.to_thread(ask, other, "offer", {"names": ["Quiet Otter", "Calm Fox"]})
                      for other in others]
            assert offers == [(200, {"name": "Quiet Otter"}), (200, {"name": "Calm Fox"})], "never one name twice"
            assert await asyncio.to_thread(ask, others[0], "offer", {"names": "Quiet Otter"}) == (
                400, {"refused": "bad_name", "facts": {}})
            reports = [await asyncio.to_thread(ask, ana, action, body) for action, body in (
                ("name", {"name": "Ana"}), ("progress", {"stars": {LESSONS[0].key: 2}}),
                *[("game", {"against": "computer:expert", "result": "won", "match": MATCH})] * 5,
                *[("game", {"against": "computer:expert", "match": MATCH, "hand": 1})] * 2,
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
    assert reports == [(200, {})] * 10
    [ana] = before["students"]
    cells = [cell["text"] for cell in ana["cells"]]
    assert cells[:4] == ["Ana", lessons_cell(1, 2), text("teacher.nothing_yet"),
                         won_one("expert", hands=1)], "the hand reported twice counts once"
    assert cells[4] == text("teacher.now.play") and before["shown"] == ""
    assert after[:2] == [(400, {"refused": "unknown_student", "facts": {}})] * 2
    assert after[2] == (200, {"name": None, "progress": None, "unlock_all": False,
                              "defaults": {"rules": None, "level": None}, "class": after[2][1]["class"]})
    assert len(set(classes)) == 1 and after[2][1]["class"] not in classes, "a forgotten class has another id"
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
    ("defaults", ["rules"]), ("unlock", "all"), ("pair", {"rules": ["a"], "hands": 1}),
    ("pair", {"rules": {"k": 1}, "hands": 1}), ("end", {"table": 5}), ("end", {"table": "KRTQ"}), ("end", {}),
    ("end_round", {"round": "1"}), ("end_round", {"round": 1}), ("end", ["KRTQ"])])
def test_the_class_pages_requests_of_the_wrong_types_are_refused(token_server: Any, action: str,
                                                                 body: Any) -> None:
    status, answer = post(f"{token_server.url}teacher/api/{action}?token={TOKEN}", json.dumps(body).encode())
    assert status == 400 and 0 < len(answer) < 100, answer


NESTED = [b"[" * 1000, b"[" * 1023 + b"]", b'{"a":' * 204, b"[" * 500 + b"]" * 500]
"""Bodies nested deeper than Python's JSON reader goes, within 1,024 bytes."""


def test_json_nested_too_deep_is_refused_on_every_json_endpoint(token_server: Any) -> None:
    url = token_server.url
    assert all(len(body) <= 1024 for body in NESTED)
    for action in ("defaults", "unlock", "forget", "pair", "end", "end_round"):
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


def watched_with_cards_face_down(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ClassPage, str, list[Card]]:
    """A class page and a class table of Ana and Ben on it (a deal of a fixed seed) whose squares hold face-down
    cards (jacks and queens, played first whenever one may be), with those cards."""
    monkeypatch.setattr("leopard_tutor.server.referee.secrets.token_hex", lambda size: "5eed" * size)
    store = ClassStore.in_folder(folder)
    tables = Referee(store, clock=Clock(1_800_000_000.0))
    page = ClassPage(Students(store, clock=Clock(1_800_000_000.0)), tables, "t" * 32)
    code = tables.open("ana", "Ana")
    tables.join("ben", "Ben", code)
    hand = tables.tables[code].match.current
    play_face_down_first(tables, code, ("ana", "ben"))
    hidden = [top[0] for square in hand.squares for space in range(1, 10)
              if (top := square.top(space)) is not None and not top[1]]
    assert hidden, "no card lies face down: the test proves nothing"
    return page, code, hidden


def test_a_watched_table_never_sends_a_face_down_cards_face(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page, code, hidden = watched_with_cards_face_down(tmp_path, monkeypatch)
    view = page.watch(code)
    sent = json.dumps(view)
    codes = set(re.findall(r'"code": "([^"]+)"', sent))
    assert not codes & {str(card) for card in hidden}, "a face-down card's code was sent"
    assert not [card.name for card in hidden if card.name in sent], "a face-down card was named"
    cells = [cell for square in view["squares"] for cell in square["cells"]]
    down = [cell for cell in cells if cell["face_down"]]
    assert len(down) == len(hidden) and all(cell["card"] is None and cell["known"] is None for cell in down)
    assert all(text("board.face_down_card") in cell["name"] for cell in down)
    assert all(cell["card"]["symbol"] in "♠♥♦♣" for cell in cells if cell["card"])


def test_the_class_page_says_which_player_of_a_table_has_gone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player not heard from for two minutes is named as gone beside their table and in its watch (the list showed
    it as any live table: the one left waiting could not be found)."""
    page, code, _ = watched_with_cards_face_down(tmp_path, monkeypatch)
    tables = page.tables
    assert [table["note"] for table in page.report()["tables"]] == [""] and not any(
        "player_gone" in line for line in page.watch(code)["lines"])
    tables.clock.now += GONE_SECONDS  # type: ignore[attr-defined]
    tables.report("ana")  # Ana's page asks: she is here; Ben's has not for two minutes
    gone = text("teacher.watch.player_gone", name="Ben")
    assert [table["note"] for table in page.report()["tables"]] == [gone]
    assert page.watch(code)["lines"][-1] == gone


def test_the_class_page_says_how_a_table_closed_lately_and_how_it_counts(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A table whose players have both gone leaves the tables in play and is said among those closed lately, with
    how it counts (it went from the page without a word), for as long as it rests."""
    page, code, _ = watched_with_cards_face_down(tmp_path, monkeypatch)
    minutes = round(QUIET_SECONDS / 60)
    assert page.report()["closed"] == {"title": text("teacher.closed.title", minutes=minutes),
                                       "none": text("teacher.closed.none", minutes=minutes), "tables": []}
    page.tables.clock.now += EVERYONE_GONE_SECONDS  # type: ignore[attr-defined]
    report = page.report()
    assert report["tables"] == [] and report["closed"]["tables"] == [
        {"code": code, "names": ["Ana", "Ben"], "said": text("teacher.closed.line", how=text(
            "teacher.closed.how.abandoned"), counted=text("teacher.closed.counted.nobody"))}]
    page.tables.clock.now += QUIET_SECONDS  # type: ignore[attr-defined]
    assert page.report()["closed"]["tables"] == []


def test_a_table_closed_lately_names_its_players_as_the_standings_do_after_a_rename(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player renamed after their table closed is named there by the name they go by now, as the standings name
    them: the name they played under may be another student's by then (the list credited "Ana" with Anna's win while
    a new Ana stood in the standings)."""
    page, code, _ = watched_with_cards_face_down(tmp_path, monkeypatch)
    page.tables.end("ben", code, "left")
    page.students.name("ana", "Anna")
    page.students.name("eve", "Ana")
    report = page.report()
    row = page.tables.last["ana"].row
    assert row.names == ("Ana", "Ben"), "the table keeps the names it was played under"
    assert report["closed"]["tables"] == [{"code": code, "names": ["Anna", "Ben"],
                                           "said": closed_words(replace(row, names=("Anna", "Ben")))}]
    assert "Anna" in report["closed"]["tables"][0]["said"]
    assert [(line["name"], line["won"]) for line in report["standings"]["all"]] == [("Anna", 1), ("Ben", 0)]


@pytest.mark.parametrize(("ending", "ended_by", "scores", "hands", "how", "counted"), [
    ("finished", None, (14, 9), None, ("finished", {}),
     ("won", {"winner": "Ana", "loser": "Ben", "winner_points": 14, "loser_points": 9})),
    ("finished", None, (9, 9), None, ("finished", {}), ("drawn", {"points": 9})),
    ("left", 0, None, ((3, 5), (2, 4)), ("left", {"name": "Ana"}),
     ("won", {"winner": "Ben", "loser": "Ana", "winner_points": 9, "loser_points": 5})),  # the hands played
    ("computer:expert", 0, None, ((3, 5),), ("computer", {"name": "Ben", "other": "Ana", "level": "expert"}),
     ("won", {"winner": "Ana", "loser": "Ben", "winner_points": 3, "loser_points": 5})),
    ("computer:expert", 0, None, None, ("computer", {"name": "Ben", "other": "Ana", "level": "expert"}),
     ("won_unplayed", {"winner": "Ana", "loser": "Ben", "winner_points": 0, "loser_points": 0})),  # no hand finished
    ("left", None, None, None, ("other", {}), ("nobody", {})),  # ended before the store kept who ended it
    ("damaged", None, None, None, ("damaged", {}), ("nobody", {})),
])
def test_how_a_closed_table_ended_and_counts_is_what_the_standings_read(
        ending: str, ended_by: int | None, scores: tuple[int, int] | None, hands: tuple[tuple[int, int], ...] | None,
        how: tuple[str, dict[str, str]], counted: tuple[str, dict[str, Any]], keyed: None) -> None:
    row = TableRow("QWJY", "REVISED_2008", 2, "s", ("ana", "ben"), ("Ana", "Ben"), 1.0, 2.0, 3.0, ending, scores,
                   hand_scores=hands, ended_by=ended_by)
    facts = {name: mark(f"levels.in_sentence.{value}") if name == "level" else value for name, value in how[1].items()}
    said = {name: value for name, value in counted[1].items() if counted[0] != "won_unplayed" or "points" not in name}
    assert closed_words(row) == mark("teacher.closed.line", how=mark(f"teacher.closed.how.{how[0]}", **facts),
                                     counted=mark(f"teacher.closed.counted.{counted[0]}", **said))
    standing = tally([row])  # the points are the standings' own
    if counted[0].startswith("won"):
        assert (standing[{"Ana": "ana", "Ben": "ben"}[counted[1]["winner"]]].row()["for"],
                standing[{"Ana": "ana", "Ben": "ben"}[counted[1]["loser"]]].row()["for"]) == (
            counted[1]["winner_points"], counted[1]["loser_points"])
    winners = [("Ana", "Ben")[seat] for seat, result in enumerate(results(row) or ()) if result == "won"]
    assert winners == ([counted[1]["winner"]] if counted[0].startswith("won") else [])  # as the standings count it


def test_a_watched_table_names_its_cards_in_the_teachers_language(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    page, code, _ = watched_with_cards_face_down(tmp_path, monkeypatch)
    view = contextvars.copy_context().run(lambda: answer_in("es") and page.watch(code))
    shown = [cell["card"] for square in view["squares"] for cell in square["cells"] if cell["card"]]
    cells = [cell for square in view["squares"] for cell in square["cells"]]
    assert shown and all(cell["name"].startswith("El cuadro de ") for cell in cells)
    assert all(card["name"].split()[1] == "de" for card in shown), [card["name"] for card in shown]
    assert view["stock"]["caption"].startswith("Mazo") and view["squares"][0]["title"].startswith("Cuadro de Ana")
    hidden_cell = next(cell for cell in cells if cell["face_down"])
    assert "boca abajo" in hidden_cell["name"], hidden_cell["name"]


def test_the_pages_cookie_brings_back_the_page_alone(token_server: Any) -> None:
    """The class page, loaded with its token, keeps it in a strict, script-proof cookie for its own path, so that a
    reload finds the page once the page has taken the token out of its address (a projector shows it); the cookie
    opens that page alone: its files, the api and every change still need the token, and a wrong cookie opens
    nothing."""
    request = urllib.request.Request(f"{token_server.url}teacher?token={TOKEN}")
    with urllib.request.urlopen(request, timeout=20) as answer:
        cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"{PAGE_COOKIE}={TOKEN};"), cookie
    assert all(part in cookie for part in ("HttpOnly", "SameSite=Strict", "Path=/teacher")), cookie
    kept = {"Cookie": f"{PAGE_COOKIE}={TOKEN}"}
    status, page = fetch(f"{token_server.url}teacher", headers=kept)
    assert status == 200 and f"teacher/static/teacher.js?token={TOKEN}" in page
    for path in TEACHER_PATHS[1:]:
        assert fetch(token_server.url + path, headers=kept)[0] == 403, path
    for path, body in POSTS.items():
        assert fetch(token_server.url + path, body, headers=kept)[0] == 403, path
    assert fetch(f"{token_server.url}teacher", headers={"Cookie": f"{PAGE_COOKIE}=x{TOKEN}"})[0] == 403


def test_the_page_loads_the_boards_drawing_of_a_card_and_its_style(token_server: Any) -> None:
    for name, kind, part in (("cards.js", "text/javascript", "function cardFace("),
                             ("board.css", "text/css", ".lt-card {")):
        with urllib.request.urlopen(f"{token_server.url}teacher/static/{name}?token={TOKEN}", timeout=10) as answer:
            assert answer.headers["Content-Type"].startswith(kind) and part in answer.read().decode()
    page = fetch(f"{token_server.url}teacher?token={TOKEN}")[1]
    assert all(f"teacher/static/{name}?token=" in page for name in ("cards.js", "board.css"))


def test_the_page_draws_the_qr_code_of_an_address_to_join_by_and_no_other(token_server: Any) -> None:
    """The QR code of the address students join by is an SVG image of the page's own server; an address that is
    not one (another scheme, no host, a space, too long) is a 400 in words, and no image."""
    address = "http://school.example:8866/"
    with urllib.request.urlopen(f"{token_server.url}teacher/api/join.svg?address={quote(address, safe='')}"
                                f"&token={TOKEN}", timeout=10) as answer:
        assert answer.headers["Content-Type"] == "image/svg+xml"
        assert answer.headers["Content-Security-Policy"] == "default-src 'none'"
        assert answer.read().decode() == qr_svg(address)
    for bad in ("javascript:alert(1)", "http://", "http://a b/", "x" * 400, "", "file:///etc/passwd"):
        status, said = fetch(f"{token_server.url}teacher/api/join.svg?address={quote(bad, safe='')}&token={TOKEN}")
        assert status == 400 and "<svg" not in said and len(said) < 300, (bad, status, said)


def test_a_server_on_this_machines_own_address_gives_the_page_no_classroom_address(token_server: Any) -> None:
    """Its page then says why students cannot join (tests/browser/test_class_join.py: a server heard beyond this
    machine gives its address)."""
    assert 'data-listening=""' in fetch(f"{token_server.url}teacher?token={TOKEN}")[1]
