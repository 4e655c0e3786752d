"""The teacher's class page in a real browser: refused without the token; the students stored on the server
listed, a name that is markup shown as text, sortable by a column's header (aria-sort), updated within 5 s of a
change without a reload, the CSV holding the same rows; the class's defaults saved, a class table watched,
unlocking for the class, and forgetting the class behind a confirmation; with more students than a refresh shows,
how many of how many are shown; what the server could not store (its disk full) said on the page, and the teacher's
refused save said in words."""

from __future__ import annotations

import csv
import io
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from rendered import opening

from leopard_tutor.engine.catalogue import text
from leopard_tutor.lessons import LESSONS
from leopard_tutor.server.class_store import ClassStore, StudentRow
from leopard_tutor.server.class_tables import ClassTables
from leopard_tutor.server.students import PAGE_ROWS, Students

TOKEN = "browser-teacher-token-0123456789"
MARKUP = "<img src=x onerror=f()>"
"""A name that would run a script if the page put it in as markup (24 characters at most: a name's limit)."""


def record(data: Path, visitor: str, name: str, stars: dict[str, int]) -> None:
    """Store a student as their kernel's reports would (the server reads the same file)."""
    store = ClassStore.in_folder(data)
    try:
        students = Students(store)
        students.name(visitor, name)
        if stars:
            students.progress(visitor, stars, None)
    finally:
        store.close()


def shown_rows(page: Any) -> list[list[str]]:
    """The table's rows as shown: the six columns' texts of each row, in order."""
    rows: list[list[str]] = page.locator("#lt-rows tr").evaluate_all(
        "rows => rows.map(row => [...row.cells].slice(0, 6).map(cell => cell.textContent))")
    return rows


def test_the_class_page_lists_sorts_refreshes_exports_and_forgets(page: Any, start_own_server: Any,
                                                                  tmp_path: Path, artifacts: Path) -> None:
    data = tmp_path / "data"
    first, second, third = (lesson.key for lesson in LESSONS[:3])
    record(data, "v-markup", MARKUP, {first: 1})
    record(data, "v-ana", "Ana", {first: 3, second: 2, third: 1})
    store = ClassStore.in_folder(data)  # a table Ana and a markup name play at (the server rebuilds it at start)
    tables = ClassTables(store)
    code = tables.open("v-ana", "Ana")
    tables.join("v-markup", MARKUP, code)
    store.close()
    server = start_own_server("--data-dir", str(data), "--teacher-token", TOKEN)

    for query in ("", "?token=", "?token=" + TOKEN[:-1]):
        assert page.request.get(server.url + "teacher" + query).status == 403

    page.goto(f"{server.url}teacher?token={TOKEN}")
    expect(page.locator("#lt-rows tr")).to_have_count(2, timeout=10_000)
    expect(page.locator("#lt-counted")).to_have_text(text("teacher.page.counted"))
    expect(page.locator("#lt-shown")).to_be_hidden()  # every student is shown: nothing to say
    assert page.locator("#lt-rows img").count() == 0
    expect(page.locator("#lt-rows th", has_text=MARKUP)).to_have_count(1)

    lessons = page.locator("#lt-columns th").nth(1)
    lessons.get_by_role("button").click()
    expect(lessons).to_have_attribute("aria-sort", "ascending")
    assert [row[0] for row in shown_rows(page)] == [MARKUP, "Ana"]
    lessons.get_by_role("button").click()
    expect(lessons).to_have_attribute("aria-sort", "descending")
    assert [row[0] for row in shown_rows(page)] == ["Ana", MARKUP]
    assert page.locator("#lt-columns th").first.get_attribute("aria-sort") == "none"

    href = page.locator("#lt-export").get_attribute("href")
    sheet = page.request.get(server.url + href)
    assert sheet.status == 200
    exported = list(csv.reader(io.StringIO(sheet.text())))
    assert exported[0] == page.locator("#lt-columns th").all_inner_texts()[:6]
    assert sorted(exported[1:]) == sorted(shown_rows(page))

    page.locator("#lt-rules").select_option("RUNNING_LEOPARD")
    page.locator("#lt-level").select_option("expert")
    page.locator("#lt-save").click()
    expect(page.locator("#lt-status")).to_have_text(text("teacher.page.saved"))
    defaults = page.request.get(f"{server.url}teacher/api/class?token={TOKEN}").json()["defaults"]
    assert defaults == {"rules": "RUNNING_LEOPARD", "level": "expert"}

    page.locator("#lt-tables").get_by_role("button", name=text("teacher.page.watch")).click()
    watch = page.locator("#lt-watch")
    expect(watch.locator("figcaption")).to_have_text([text("teacher.watch.square", name=name, value=0)
                                                      for name in ("Ana", MARKUP)])
    expect(watch.locator(".lt-space")).to_have_count(18)
    expect(watch).to_contain_text(opening("teacher.watch.stock", "count"))
    assert watch.locator("img").count() == 0

    record(data, "v-ben", "Ben", {})  # a student's change reaches the open page without a reload
    expect(page.locator("#lt-rows tr")).to_have_count(3, timeout=5_000)

    page.locator("#lt-unlock-class").click()
    expect(page.locator("#lt-rows button:disabled")).to_have_count(3, timeout=5_000)
    page.screenshot(path=str(artifacts / "teacher-class-page.png"), full_page=True)

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#lt-forget").click()
    expect(page.locator("#lt-rows tr")).to_have_count(0, timeout=5_000)
    expect(page.locator("#lt-empty")).to_be_visible()


def test_the_class_page_says_how_many_of_how_many_students_it_shows(page: Any, start_own_server: Any,
                                                                     tmp_path: Path) -> None:
    """More students kept than a refresh shows: the page shows the ones seen last and says so, numbers and all."""
    data = tmp_path / "data"
    store = ClassStore.in_folder(data)
    kept = PAGE_ROWS + 3
    for number in range(kept):
        store.put_student(StudentRow(f"v{number}", f"Student {number}", time.time() - number))
    store.close()
    server = start_own_server("--data-dir", str(data), "--teacher-token", TOKEN)
    page.goto(f"{server.url}teacher?token={TOKEN}")
    expect(page.locator("#lt-rows tr")).to_have_count(PAGE_ROWS, timeout=10_000)
    expect(page.locator("#lt-shown")).to_have_text(text("teacher.shown", shown=PAGE_ROWS, total=kept))
    expect(page.locator("#lt-rows th", has_text=f"Student {kept - 1}")).to_have_count(0)  # seen longest ago


FILE_LIMIT = 256 * 1024
"""The largest file the server of the next test may write (`prlimit --fsize`, which binds root too): its store's
write-ahead log reaches it after some dozens of saves, as if the disk were full (the new store itself fits)."""


def test_the_class_page_says_what_the_server_could_not_store(page: Any, page_errors: list[str], server_tools: Any,
                                                             tmp_path: Path, artifacts: Path) -> None:
    start, stop = server_tools
    limited = ["env", f"IPYTHONDIR={tmp_path / 'ipython'}", "prlimit", f"--fsize={FILE_LIMIT}"]
    server = start(tmp_path / "server.log", "--teacher-token", TOKEN, prefix=limited)
    try:
        page.goto(f"{server.url}teacher?token={TOKEN}")
        expect(page.locator("#lt-rules option")).not_to_have_count(0)
        notice = page.locator("#lt-not-stored")
        expect(notice).to_be_hidden()
        for saved in range(400):  # each save changes both defaults, in one transaction
            rules, level = ("RUNNING_LEOPARD", "expert") if saved % 2 else ("REVISED_2008", "beginner")
            reply = page.request.post(f"{server.url}teacher/api/defaults?token={TOKEN}",
                                      data={"rules": rules, "level": level})
            if reply.status != 200:
                break
        assert reply.status == 503 and reply.text().strip() == text("teacher.not_stored_now")
        page.locator("#lt-save").click()
        expect(page.locator("#lt-status")).to_have_text(text("teacher.not_stored_now"))
        said = page.request.get(f"{server.url}teacher/api/class?token={TOKEN}").json()["not_stored"]
        assert text("teacher.store_failures.io") in said or text("teacher.store_failures.full") in said
        expect(notice).to_have_text(said, timeout=5_000)
        expect(notice).to_have_attribute("role", "alert")
        page.screenshot(path=str(artifacts / "teacher-not-stored.png"))
        refused = [error for error in page_errors if "status of 503" in error and "teacher/api/defaults" in error]
        assert len(refused) == 1  # the browser's console names the save the server refused: no error of the page
        page_errors.remove(refused[0])
    finally:
        stop(server.process)
