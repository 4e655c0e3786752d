"""The teacher's class page in a real browser: refused without the token; the students stored on the server
listed, a name that is markup shown as text, sortable by a column's header (aria-sort), updated within 5 s of a
change without a reload, the CSV holding the same rows; the class's defaults saved, a class table watched,
unlocking for the class, and forgetting the class behind a confirmation; with more students than a refresh shows,
how many of how many are shown; what the server could not store (its disk full) said on the page, and the teacher's
refused save said in words."""

from __future__ import annotations

import contextvars
import csv
import io
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from class_players import play_face_down_first
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from rendered import opening
from test_classmates import TIMEOUT, two_at_a_table

from leopard_tutor.engine import Card
from leopard_tutor.engine.catalogue import answer_in, text
from leopard_tutor.lessons import LESSONS
from leopard_tutor.server.class_store import ClassStore, StudentRow
from leopard_tutor.server.referee import Referee
from leopard_tutor.server.students import PAGE_ROWS, Students
from leopard_tutor.server.teacher import CSV_MARK

TOKEN = "browser-teacher-token-0123456789"
MARKUP = "<img src=x onerror=f()>"
"""A name that would run a script if the page put it in as markup (24 characters at most: a name's limit)."""
PROBES = Path(__file__).with_name("probes.js")


def record(data: Path, visitor: str, name: str, stars: dict[str, int], games: int = 0, days_ago: int = 0) -> None:
    """Store a student as their kernel's reports would (the server reads the same file), with `games` matches lost
    and won against each of two computer levels, `days_ago` days ago."""
    store = ClassStore.in_folder(data)
    try:
        students = Students(store, clock=lambda: time.time() - days_ago * 86400)
        students.name(visitor, name)
        if stars:
            students.progress(visitor, stars, None)
        for number in range(games):
            for level, result in (("beginner", "lost"), ("expert", "won")):
                match = f"{abs(hash((visitor, number, level))):016x}"[:16]
                students.game(visitor, f"computer:{level}", result, match)
                students.game(visitor, f"computer:{level}", None, match, hand=1)
    finally:
        store.close()


def shown_rows(page: Any) -> list[list[str]]:
    """The table's rows as shown: the six columns' texts of each row, in order."""
    rows: list[list[str]] = page.locator("#lt-rows tr").evaluate_all(  # a cell's own text, not its stage cells
        "rows => rows.map(row => [...row.cells].slice(0, 6).map(cell => [...cell.childNodes]"
        "  .filter(node => node.nodeType === Node.TEXT_NODE || node.classList.contains('lt-cp-nowrap'))"
        "  .map(node => node.textContent).join('')))")
    return rows


def test_the_class_page_lists_sorts_refreshes_exports_and_forgets(page: Any, start_own_server: Any,
                                                                  tmp_path: Path, artifacts: Path) -> None:
    data = tmp_path / "data"
    first, second, third = (lesson.key for lesson in LESSONS[:3])
    record(data, "v-markup", MARKUP, {first: 1})
    record(data, "v-ana", "Ana", {first: 3, second: 2, third: 1})
    store = ClassStore.in_folder(data)  # a table Ana and a markup name play at (the server rebuilds it at start)
    tables = Referee(store)
    code = tables.open("v-ana", "Ana")
    tables.join("v-markup", MARKUP, code)
    store.close()
    server = start_own_server("--data-dir", str(data), "--teacher-token", TOKEN)

    for query in ("", "?token=", "?token=" + TOKEN[:-1]):
        assert page.request.get(server.url + "teacher" + query).status == 403

    page.goto(f"{server.url}teacher?token={TOKEN}&lang=en")
    expect(page.locator("#lt-rows tr")).to_have_count(2, timeout=10_000)
    assert page.url == f"{server.url}teacher?lang=en", "a projected page's address keeps the token to itself"
    page.reload()  # the page's own cookie brings it back; the other settings of its address stay
    expect(page.locator("#lt-rows tr")).to_have_count(2, timeout=10_000)
    assert page.url == f"{server.url}teacher?lang=en"
    # stored before this server started, and no page of theirs since: the server cannot know they are away
    assert [row[4] for row in shown_rows(page)] == [text("teacher.now.restarted")] * 2
    expect(page.locator("#lt-counted")).to_have_text(text("teacher.page.counted"))
    expect(page.locator("#lt-shown")).to_be_hidden()  # every student is shown: nothing to say
    assert page.locator("#lt-rows img").count() == 0
    expect(page.locator("#lt-rows th", has_text=MARKUP)).to_have_count(1)
    # no match between classmates has ended: a sentence says so, not an empty table
    expect(page.locator("#lt-standings-none")).to_have_text(text("teacher.page.no_standings_today"))
    expect(page.locator("#lt-standings-table")).to_be_hidden()
    page.locator("#lt-standings-all").click()
    expect(page.locator("#lt-standings-none")).to_have_text(text("teacher.page.no_standings"))
    page.locator("#lt-standings-today").click()

    lessons = page.locator("#lt-columns th").nth(1)
    named = lessons.get_by_role("button").inner_text().strip()
    lessons.get_by_role("button").click()
    expect(lessons).to_have_attribute("aria-sort", "ascending")
    expect(lessons.get_by_role("button", name=named, exact=True)).to_have_count(1)  # its arrow is not read
    expect(page.locator("#lt-sorted")).to_have_text(text("teacher.page.sorted"))  # and the order said, unseen
    expect(page.locator("#lt-status")).to_have_text("")  # (the header keeps the words of what was done last)
    assert [row[0] for row in shown_rows(page)] == [MARKUP, "Ana"]
    lessons.get_by_role("button").click()
    expect(lessons).to_have_attribute("aria-sort", "descending")
    expect(page.locator("#lt-sorted")).to_have_text(text("teacher.page.sorted_reverse"))
    assert [row[0] for row in shown_rows(page)] == ["Ana", MARKUP]
    box = lessons.bounding_box()  # the header's whole cell takes the click, not only its words
    lessons.click(position={"x": box["width"] - 4, "y": box["height"] - 4})
    expect(lessons).to_have_attribute("aria-sort", "ascending")
    lessons.click(position={"x": box["width"] - 4, "y": box["height"] - 4})
    expect(lessons).to_have_attribute("aria-sort", "descending")
    assert page.locator("#lt-columns th").first.get_attribute("aria-sort") == "none"

    assert TOKEN not in page.locator("#lt-export").evaluate("(button) => button.outerHTML")  # hovered on a projector
    with page.expect_download() as downloading:
        page.locator("#lt-export").click()
    download = downloading.value
    assert download.suggested_filename == "class.csv" and TOKEN in download.url
    sheet = page.request.get(download.url)
    assert sheet.status == 200
    assert sheet.text().startswith(CSV_MARK), "a spreadsheet reads it as UTF-8"
    exported = list(csv.reader(io.StringIO(sheet.text().removeprefix(CSV_MARK))))
    assert exported[0] == page.locator("#lt-columns th").all_inner_texts()[:6]
    students = exported[1:exported.index([])]  # then a blank line and the standings
    shown = {row[0]: row for row in shown_rows(page)}
    assert sorted(row[:5] for row in students) == sorted(row[:5] for row in shown.values())
    # the sheet says the date a student was last seen, the page the time alone where it is today
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d " + shown[row[0]][5], row[5]) for row in students), students

    page.locator("#lt-rules").select_option("RUNNING_LEOPARD")
    page.locator("#lt-level").select_option("expert")
    page.locator("#lt-save").click()
    expect(page.locator("#lt-status")).to_have_text(text("teacher.page.saved"))
    expect(page.locator("#lt-defaults-said")).to_have_text(text("teacher.page.saved"))  # beside Save as well
    defaults = page.request.get(f"{server.url}teacher/api/class?token={TOKEN}").json()["defaults"]
    assert defaults == {"rules": "RUNNING_LEOPARD", "level": "expert"}
    expect(page.locator("#lt-pair-rules")).to_have_value("RUNNING_LEOPARD")  # the next round follows them

    page.locator("#lt-tables").get_by_role("button", name=text("teacher.page.watch")).press("Enter")
    expect(page.locator("#lt-tables").get_by_role("button", name=text("teacher.page.stop_watching"))).to_be_focused()
    watch = page.locator("#lt-watch")
    expect(watch.locator(".lt-value")).to_have_text([text("teacher.watch.square", name=name, value=0)
                                                     for name in ("Ana", MARKUP)])
    expect(watch.locator(".lt-space")).to_have_count(18)
    expect(watch.locator(".lt-stock")).to_contain_text(opening("board.captions.stock", "count"))
    assert watch.locator("img").count() == 0

    ana = page.locator("#lt-rows tr", has=page.locator("th", has_text="Ana")).get_by_role("button")
    expect(ana).to_have_accessible_name(text("teacher.labels.unlock", name="Ana"))  # whose, for a screen reader
    expect(ana).to_have_text(text("teacher.page.unlock"))
    ana.focus()
    record(data, "v-ben", "Ben", {})  # a student's change reaches the open page without a reload
    expect(page.locator("#lt-rows tr")).to_have_count(3, timeout=5_000)
    expect(ana).to_be_focused()  # the rows drawn anew: the keyboard stays on the same student's button

    ana.click()  # one student's lessons: said, and still said once another student comes (it still holds)
    expect(page.locator("#lt-status")).to_have_text(text("teacher.unlocked_one", name="Ana"), timeout=5_000)
    record(data, "v-cy", "Cy", {})
    expect(page.locator("#lt-rows tr")).to_have_count(4, timeout=5_000)
    page.wait_for_timeout(2_500)  # (a refresh after the row came)
    expect(page.locator("#lt-status")).to_have_text(text("teacher.unlocked_one", name="Ana"))

    unlock_class = page.locator("#lt-unlock-class")
    unlock_class.click()
    expect(page.locator("#lt-rows button:disabled")).to_have_count(4, timeout=5_000)
    expect(ana).to_have_accessible_name(text("teacher.labels.unlocked", name="Ana"))
    expect(page.locator("#lt-status")).to_have_text(text("teacher.unlocked_class"))  # the page says what it did
    expect(page.locator("#lt-unlock-said")).to_have_text(page.locator("#lt-status").inner_text())
    # then greyed with its reason beside it (pressed again, it only said nothing was unlocked), which a press says
    done = text("teacher.unlock_class_done")
    expect(unlock_class).to_have_attribute("aria-disabled", "true", timeout=5_000)
    expect(unlock_class).to_have_accessible_description(done)
    unlock_class.click(force=True)  # (greyed for Playwright as for a screen reader: pressed all the same)
    expect(page.locator("#lt-unlock-said")).to_have_text(done)
    expect(page.locator("#lt-defaults-said")).to_be_hidden()  # only the last answer, by its own button
    page.screenshot(path=str(artifacts / "teacher-class-page.png"), full_page=True)

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#lt-forget").click()
    expect(page.locator("#lt-rows tr")).to_have_count(0, timeout=5_000)
    expect(page.locator("#lt-empty")).to_be_visible()


def test_a_projectors_screen_shows_the_title_tools_and_six_students_or_more(page: Any, start_own_server: Any,
                                                                            tmp_path: Path) -> None:
    """At 1280x720 (a classroom projector), sixteen students who have solved stages, none seen since the server
    started: the title, its tools and at least six whole rows are in the first screen, each row two lines (the stages
    in one line under the count, "not seen since the restart" in two, not three, beside the time alone of a student
    last seen today, not its date)."""
    data = tmp_path / "data"
    for number in range(16):
        record(data, f"v{number}", f"Student {number:02d}",
               {lesson.key: 1 + (number + index) % 3 for index, lesson in enumerate(LESSONS[:number % 12])})
    server = start_own_server("--data-dir", str(data), "--teacher-token", TOKEN)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{server.url}teacher?token={TOKEN}")
    expect(page.locator("#lt-rows tr")).to_have_count(16, timeout=10_000)
    whole = page.evaluate("""() => [...document.querySelectorAll('#lt-rows tr')]
        .filter((row) => row.getBoundingClientRect().bottom <= innerHeight).length""")
    assert whole >= 6, f"{whole} whole rows in the first screen"
    assert page.locator("#lt-export").bounding_box()["y"] < page.locator("#lt-class").bounding_box()["y"]
    parts = page.get_by_role("navigation", name=text("teacher.page.parts"))
    for name, part in ((text("teacher.page.rounds"), "#lt-rounds-part"),
                       (text("teacher.page.tables"), "#lt-tables-part")):
        link = parts.get_by_role("link", name=name)  # the parts under a long class, one press away on a projector
        box = link.bounding_box()
        assert box and box["y"] + box["height"] <= 720, f"{name} is not in the first screen"
        link.click()
        expect(page.locator(part)).to_be_in_viewport()
        page.evaluate("window.scrollTo(0, 0)")
    tops = page.evaluate("""() => [...document.querySelectorAll('#lt-rows tr:first-child .lt-cp-stage')]
        .map((cell) => Math.round(cell.getBoundingClientRect().top))""")
    assert len(tops) == len(LESSONS) and len(set(tops)) == 1, f"the stages wrap: {tops}"
    seen = page.locator("#lt-columns th").all_inner_texts().index(text("teacher.columns.last_seen"))
    lines = page.evaluate("""(column) => [...document.querySelectorAll('#lt-rows tr')].map((row) => {
        const range = document.createRange();
        range.selectNodeContents(row.cells[column]);
        return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size; })""", seen)
    assert set(lines) == {1}, f"a Last seen date breaks over lines: {lines}"
    today = time.strftime("%H:%M")[:2]  # (recorded a moment ago: today, this hour or the next)
    assert all(row[seen].startswith((today, f"{(int(today) + 1) % 24:02d}")) and len(row[seen]) == 5
               for row in shown_rows(page)), "today's students are shown with the time alone"
    now = page.locator("#lt-columns th").all_inner_texts().index(text("teacher.columns.now"))
    lines = page.evaluate("""(column) => [...document.querySelectorAll('#lt-rows tr')].map((row) => {
        const range = document.createRange();
        range.selectNodeContents(row.cells[column]);
        return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size; })""", now)
    assert all(row[now] == text("teacher.now.restarted") for row in shown_rows(page))
    assert max(lines) <= 2, f"a Now cell takes {max(lines)} lines"
    for number in range(0, 16, 3):  # matches against the computer: their Games words run long, in Spanish most
        record(data, f"v{number}", f"Student {number:02d}", {}, games=1)
    for lang in ("en", "es"):  # Spanish runs longer: its headers and buttons wrap, the page does not scroll sideways
        page.goto(f"{server.url}teacher?token={TOKEN}&lang={lang}")
        expect(page.locator("#lt-rows tr")).to_have_count(16, timeout=10_000)
        wide = page.evaluate("document.scrollingElement.scrollWidth")
        assert wide <= 1280, f"in {lang} the class page is {wide} px wide on a 1280 px screen"
    page.set_viewport_size({"width": 1920, "height": 1080})  # a projector at full HD: larger words, the screen used
    for lang in ("en", "es"):
        page.goto(f"{server.url}teacher?token={TOKEN}&lang={lang}")
        expect(page.locator("#lt-rows tr")).to_have_count(16, timeout=10_000)
        size, main, wide = page.evaluate("""() => [parseFloat(getComputedStyle(document.body).fontSize),
            document.querySelector('main').getBoundingClientRect().width, document.scrollingElement.scrollWidth]""")
        assert size >= 21 and main >= 1700 and wide <= 1920, (lang, size, main, wide)


def test_the_class_page_says_how_many_of_how_many_students_it_shows(page: Any, start_own_server: Any,
                                                                     tmp_path: Path, page_errors: list[str]) -> None:
    """More students kept than a refresh shows: the page shows the ones seen last and says so, numbers and all; a
    server that stops answering is said across the top of the screen, however far down the page is scrolled."""
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
    # the server stops answering while the page is scrolled down (a projected page showing a watched table): said
    # across the top of the screen, not only in the header out of sight; gone once it answers again
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.route("**/teacher/api/class*", lambda route: route.abort())
    status = page.locator("#lt-status")
    expect(status).to_have_text(text("teacher.page.offline"), timeout=10_000)
    expect(status).to_be_in_viewport(ratio=1)
    page.unroute("**/teacher/api/class*")
    expect(status).to_have_text("", timeout=10_000)
    page_errors[:] = [error for error in page_errors if "/teacher/api/class" not in error]  # (the requests refused)


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


SUITS = set("\u2660\u2665\u2666\u2663")
"""The suit symbols the board draws (spades, hearts, diamonds, clubs)."""


def table_with_cards_face_down(data: Path, monkeypatch: pytest.MonkeyPatch, beside: bool = False, first: str = "Ana"
                               ) -> tuple[str, list[Card], list[Card]]:
    """A class table of Ana (or `first`) and Ben stored in `data` (a deal of a fixed seed), 24 moves in, jacks and
    queens played first whenever one may be (`beside` a table of Carla and Dario just begun): its code, the cards on
    top face up and those on top face down."""
    store = ClassStore.in_folder(data)
    try:
        others = (("v-carla", "Carla"), ("v-dario", "Dario")) if beside else ()
        for visitor, name in (("v-ana", first), ("v-ben", "Ben"), *others):
            Students(store).name(visitor, name)
        tables = Referee(store)
        if beside:
            tables.join("v-dario", "Dario", tables.open("v-carla", "Carla"))
        monkeypatch.setattr("leopard_tutor.server.referee.secrets.token_hex", lambda size: "5eed" * size)
        code = tables.open("v-ana", first)
        tables.join("v-ben", "Ben", code)
        hand = tables.tables[code].match.current
        play_face_down_first(tables, code, ("v-ana", "v-ben"))
        tops = [top for square in hand.squares for space in range(1, 10) if (top := square.top(space)) is not None]
    finally:
        store.close()
    up = [card for card, face_up in tops if face_up and isinstance(card, Card)]
    down = [card for card, face_up in tops if not face_up and isinstance(card, Card)]
    assert up and down, "the test needs cards face up and face down"
    return code, up, down


def in_spanish(card: Card) -> str:
    """A card's name in Spanish."""
    return contextvars.copy_context().run(lambda: answer_in("es") and card.name)


def test_watching_a_table_draws_its_cards_as_the_board_does_and_never_a_face_down_face(
        page: Any, start_own_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, artifacts: Path) -> None:
    data = tmp_path / "data"
    # a name of the most letters a name may have: its square's head wraps onto more lines than the other's
    code, up, down = table_with_cards_face_down(data, monkeypatch, beside=True, first="Maximiliana Rodríguez Pé")
    server = start_own_server("--data-dir", str(data), "--teacher-token", TOKEN)
    frames: list[str] = []
    for lang, named in (("en", lambda card: card.name), ("es", in_spanish)):
        page.set_viewport_size({"width": 1280, "height": 720})
        page.goto(f"{server.url}teacher?token={TOKEN}&lang={lang}")
        with page.expect_response(lambda answer: "teacher/api/watch" in answer.url) as answered:
            page.locator(f"#lt-tables li:has-text('{code}') button[aria-pressed]").click()  # Watch, not End
        frames.append(answered.value.text())
        watch = page.locator("#lt-watch")
        expect(watch.locator(".lt-table")).to_be_in_viewport(ratio=1)  # the row scrolled into sight, board and all
        expect(page.locator("#lt-tables > li")).to_have_count(2)  # drawn in its own row, whichever row that is
        expect(page.locator(f"#lt-tables > li:has-text('{code}') > #lt-watch")).to_be_visible()
        faces = watch.locator(".lt-square .lt-card:not(.lt-back)")
        expect(faces).to_have_count(len(up))
        expect(watch.locator(".lt-square .lt-back")).to_have_count(len(down))
        assert watch.locator(".lt-square .lt-back .lt-known").count() == 0  # a back shows nothing of its face
        drawn = faces.evaluate_all("cards => cards.map(card => [card.className, card.querySelector('.lt-rank')"
                                   ".textContent, card.querySelector('.lt-suit').textContent,"
                                   " card.querySelector('.lt-pip').textContent])")
        assert sorted((rank, suit) for _, rank, suit, _ in drawn) == sorted((card.rank_token, card.symbol[-1])
                                                                            for card in up)
        assert all(suit in SUITS and pip == suit and ("lt-red" in kind) == (suit in "\u2665\u2666")
                   for kind, _, suit, pip in drawn), drawn
        labels = " | ".join(watch.locator(".lt-space").evaluate_all("cells => cells.map(c => c.ariaLabel)"))
        assert all(named(card) in labels for card in up), labels
        assert not [card for card in down if named(card) in labels], "a face-down card named"
        expect(watch.locator(".lt-stock")).to_be_visible()
        expect(watch.locator(".lt-discard")).to_be_visible()
        if lang == "en":
            page.set_viewport_size({"width": 1280, "height": 720})
            watch.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / "teacher-watch.png"))
            for width, height, least in SCREENS:
                page.set_viewport_size({"width": width, "height": height})
                assert_the_watched_board_fills(page, code, width, height, least)
                page.screenshot(path=str(artifacts / f"teacher-watch-{width}x{height}.png"))
    assert all("squares" in frame for frame in frames)
    sent = {value for frame in frames for value in _codes(json.loads(frame))}
    assert sent >= {str(card) for card in up} and not sent & {str(card) for card in down}
    assert not any(in_spanish(card) in frame or card.name in frame for frame in frames for card in down)


SCREENS = ((1920, 1080, 140), (1280, 720, 90), (1366, 768, 100), (390, 844, 36))
"""Screens the watched table is projected or read on (a projector at full HD and at 1280x720, a laptop, a phone), and
the least width of a board's space on each: it was 72 px on every wide screen, a third of a 1920 px projector's."""


def assert_the_watched_board_fills(page: Any, code: str, width: int, height: int, least: float) -> None:
    """The watched table's board at this screen size, its row scrolled to the top: its spaces at least `least` px
    wide, the whole board in the screen (no space outside its felt, none cut off), the turn, hands and scores beside it
    on a wide screen (under it on a phone) in the screen too, at 24 px or more on a full-HD projector; the two squares
    level, whichever name wraps (a long one stood its square 20 px lower)."""
    page.evaluate("(code) => [...document.querySelectorAll('#lt-tables > li')].find((row) => row.textContent"
                  ".startsWith(code)).scrollIntoView({block: 'start'})", code)
    board, spaces, heads, lines, size = page.evaluate("""() => {
        const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        const lines = document.querySelector('#lt-watch .lt-cp-lines');
        return [box(document.querySelector('#lt-watch .lt-table')),
                [...document.querySelectorAll('#lt-watch .lt-space')].map(box),
                [...document.querySelectorAll('#lt-watch .lt-square-head')].map(box),
                box(lines), parseFloat(getComputedStyle(lines).fontSize)]; }""")
    left, top, right, bottom = board
    shown = f"{width}x{height}: board {board}, lines {lines}"
    assert min(space[2] - space[0] for space in spaces) >= least, f"spaces {spaces[0]}: {shown}"
    assert left >= 0 and top >= 0 and right <= width and bottom <= height, f"the board is not whole: {shown}"
    assert all(left <= part[0] and part[2] <= right and top <= part[1] and part[3] <= bottom
               for part in (*spaces, *heads)), f"a space or a square's name outside the board: {shown}"
    assert lines[3] <= height, f"the turn and scores are off the screen: {shown}"
    assert abs(spaces[0][1] - spaces[9][1]) <= 1, f"the squares stand at {spaces[0][1]} and {spaces[9][1]}: {shown}"
    if width >= 1000:
        assert lines[0] >= right and lines[1] < bottom, f"the turn and scores are not beside the board: {shown}"
    if width >= 1920:
        assert size >= 24, shown
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width, f"the page scrolls sideways: {shown}"


def _codes(node: Any) -> list[str]:
    """Every card code in a JSON answer."""
    if isinstance(node, dict):
        return [*([node["code"]] if isinstance(node.get("code"), str) and "rank" in node else []),
                *(code for value in node.values() for code in _codes(value))]
    if isinstance(node, list):
        return [code for value in node for code in _codes(value)]
    return []


def with_standings_and_stages(report: dict[str, Any]) -> dict[str, Any]:
    """A real report with the parts other pieces of issue 34 add: the standings, and each student's stages and
    "stuck" mark (stuck on stage 2 for a student called Ana)."""
    columns = {key: key.title() for key in ("name", "played", "won", "drawn", "lost", "for", "against")}
    report["standings"] = {
        "today": [{"name": "Ana", "played": 2, "won": 2, "drawn": 0, "lost": 0, "for": 41, "against": 17}],
        "all": [{"name": "Ana", "played": 5, "won": 3, "drawn": 1, "lost": 1, "for": 90, "against": 60},
                {"name": "Zoe", "played": 5, "won": 1, "drawn": 1, "lost": 3, "for": 60, "against": 90}],
        "counts": "Counted: whole classmate matches.", "columns": columns}
    for row in report["students"]:
        row["stages"] = [{"stage": number, "title": f"Stage title {number}", "stars": min(number - 1, 3)}
                         for number in range(1, 6)]
        row["stuck"] = {"stage": 2, "text": "Stuck on stage 2"} if row["cells"][0]["text"] == "Ana" else None
    return report


def with_the_other_parts(route: Any) -> None:
    """Answer the class page's request for its report with the real one and the parts of
    `with_standings_and_stages`; a request the server no longer answers (the page polls on while the test's server
    is being stopped) fails as it would without the stand-in."""
    try:
        report = route.fetch().json()
    except PlaywrightError:
        route.abort()
        return
    route.fulfill(json=with_standings_and_stages(report))


def test_the_class_page_draws_standings_and_stages_light_and_dark_and_large(
        page: Any, start_own_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, artifacts: Path) -> None:
    data = tmp_path / "data"
    table_with_cards_face_down(data, monkeypatch)
    record(data, "v-zoe", "zoe", {}, days_ago=2)  # (seen on another day: the date is shown, not the time alone)
    server = start_own_server("--data-dir", str(data), "--teacher-token", TOKEN)
    page.route(re.compile(r"/teacher/api/class\?"), with_the_other_parts)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.add_init_script(path=str(PROBES))
    page.goto(f"{server.url}teacher?token={TOKEN}")
    expect(page.locator("#lt-rows tr")).to_have_count(3, timeout=10_000)
    assert [row[0] for row in shown_rows(page)] == ["Ana", "Ben", "zoe"]  # by name, whatever the case

    standings = page.locator("#lt-standings")
    expect(standings).to_be_visible()
    expect(page.locator("#lt-standings-columns th")).to_have_text(
        ["Name", "Played", "Won", "Drawn", "Lost", "For", "Against"])
    expect(page.locator("#lt-standings-rows tr")).to_have_count(1)
    expect(page.locator("#lt-standings-none")).to_be_hidden()
    expect(page.locator("#lt-standings-rows tr").first.locator("th, td")).to_have_text(
        ["Ana", "2", "2", "0", "0", "41", "17"])
    expect(page.locator("#lt-standings-counts")).to_have_text("Counted: whole classmate matches.")
    today, all_time = page.locator("#lt-standings-today"), page.locator("#lt-standings-all")
    expect(today).to_have_attribute("aria-pressed", "true")
    all_time.click()
    expect(all_time).to_have_attribute("aria-pressed", "true")
    expect(today).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#lt-standings-rows th")).to_have_text(["Ana", "Zoe"])
    expect(today).to_have_text(text("teacher.page.today"))
    expect(all_time).to_have_text(text("teacher.page.all_time"))

    ana = page.locator("#lt-rows tr", has=page.locator("th", has_text="Ana"))
    cells = ana.locator(".lt-cp-stage")
    expect(cells).to_have_count(5)
    expect(cells.nth(3)).to_have_attribute("data-stars", "3")
    expect(cells.nth(3)).to_have_text("3")
    label = f"{text('teacher.page.stage')} 3: Stage title 3, 2/3 {text('teacher.page.stars')}"
    expect(cells.nth(2)).to_have_attribute("aria-label", label)
    expect(cells.nth(2)).to_have_attribute("title", label)
    expect(ana.locator(".lt-cp-stuck")).to_have_text("Stuck on stage 2")
    expect(ana.locator(".lt-cp-stuck")).to_be_visible()
    expect(page.locator("#lt-rows tr", has=page.locator("th", has_text="Ben")).locator(".lt-cp-stuck")).to_have_count(0)

    page.locator("#lt-tables").get_by_role("button", name=text("teacher.page.watch")).click()
    expect(page.locator("#lt-watch .lt-card").first).to_be_visible()
    small = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(el => [...el.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.data.trim())
                      && el.getClientRects().length && !el.closest('.lt-space, .lt-card, .lt-cp-stage, script, title'))
        .map(el => [el.tagName + '#' + el.id + '.' + el.className, parseFloat(getComputedStyle(el).fontSize)])
        .filter(([, size]) => size < 16)""")
    assert not small, small
    colours = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        expect(page.locator("body")).to_have_attribute("data-jp-theme-light", "true" if scheme == "light" else "false")
        colours[scheme] = page.evaluate("""() => [getComputedStyle(document.body).backgroundColor,
            getComputedStyle(document.body).color, getComputedStyle(document.querySelector('#lt-columns th'))
            .backgroundColor, document.body.dataset.jpThemeLight,
            getComputedStyle(document.querySelector('.lt-cp-board .lt-table')).backgroundColor]""")
        faint = page.evaluate("ltProbes.contrast('body', true)")  # the main buttons (Pair the class, Watch) too
        assert not faint, f"{scheme}: " + "\n".join(faint)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"teacher-class-page-{scheme}.png"))
    assert colours["light"][:2] == ["rgb(255, 255, 255)", "rgb(26, 26, 26)"], colours
    assert colours["dark"][:2] == ["rgb(17, 17, 17)", "rgb(242, 242, 242)"], colours
    assert colours["light"][2] != colours["dark"][2]  # the table's header
    assert colours["light"][3] != colours["dark"][3]  # board.css's felt, dark as in the app's dark theme

    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 768, "height": 1024})
    expect(page.locator("#lt-watch .lt-card").first).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 768, "the page scrolls sideways on a tablet"
    dates = page.evaluate("() => [...document.querySelectorAll('#lt-rows td')].filter((cell) => /^\\d{4}-/"
                          ".test(cell.textContent)).map((cell) => cell.querySelector('.lt-cp-nowrap')"
                          "?.getClientRects().length)")
    assert dates and set(dates) == {1}, f"a Last seen date is broken inside on a tablet: {dates}"
    page.screenshot(path=str(artifacts / "teacher-class-page-tablet.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})  # a teacher walking round the class with a phone
    expect(page.locator("#lt-watch .lt-card").first).to_be_visible()
    wide = page.evaluate("document.scrollingElement.scrollWidth")
    page.screenshot(path=str(artifacts / "teacher-class-page-phone.png"), full_page=True)
    assert wide <= 390, f"the page is {wide} px wide on a phone: a wide table scrolls within itself"
    for asked, preferred in (("theme=dark", "light"), ("voila-theme=light", "dark")):  # the address wins, as in the app
        page.emulate_media(color_scheme=preferred)
        page.goto(f"{server.url}teacher?token={TOKEN}&{asked}")
        expect(page.locator("#lt-rows tr")).to_have_count(3, timeout=10_000)
        shown = "dark" if asked.endswith("dark") else "light"
        expect(page.locator("body")).to_have_attribute("data-jp-theme-light", str(shown == "light").lower())
        assert page.evaluate("""() => [getComputedStyle(document.body).backgroundColor,
            getComputedStyle(document.body).color]""") == colours[shown][:2], asked


def test_the_teacher_ends_a_table_and_both_students_pages_leave_it(browser: Any, page: Any, page_errors: list[str],
                                                                   open_board: Any, start_own_server: Any,
                                                                   tmp_path: Path) -> None:
    """Ana and Ben sit at a table (one of them would never move); the teacher's "End this table", named for a screen
    reader by its table, asks first (declined: nothing changes), then ends it: the class page says so beside the list
    and lists it closed by the teacher, counting for nobody, and both students' boards say their teacher ended it; a
    reload of Ana's page does not say it ended while she was away."""
    server = start_own_server("--data-dir", str(tmp_path / "data"), "--teacher-token", TOKEN)
    ana_board = open_board(server.url)
    other, _, ben_board, code = two_at_a_table(browser, page, server.url, page_errors, ("Ana", "Ben"))
    teacher = browser.new_context().new_page()
    try:
        teacher.clock.install()  # its time flows, and the test may jump it forward
        teacher.goto(f"{server.url}teacher?token={TOKEN}")
        names = "Ana \u2013 Ben"
        end = teacher.locator("#lt-tables").get_by_role("button", name=text("teacher.labels.end", code=code,
                                                                              names=names), exact=True)
        expect(end).to_have_text(text("teacher.page.end_table"), timeout=TIMEOUT)
        expect(teacher.locator("#lt-tables").get_by_role("button", name=text(
            "teacher.labels.watch", code=code, names=names), exact=True)).to_have_text(text("teacher.page.watch"))
        asked: list[str] = []
        teacher.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        end.click()
        assert asked == [text("teacher.end.confirm", code=code, names=names)]
        expect(end).to_be_visible()  # declined: the table plays on
        teacher.once("dialog", lambda dialog: dialog.accept())
        end.click()
        ended = text("teacher.end.ended", code=code)
        expect(teacher.locator("#lt-tables-said")).to_have_text(ended)
        expect(teacher.locator("#lt-status")).to_have_text(ended)  # (role=status: a screen reader hears it)
        expect(teacher.locator("#lt-tables li")).to_have_text([text("teacher.page.no_tables")])
        closed = text("teacher.closed.line", how=text("teacher.closed.how.teacher"),
                      counted=text("teacher.closed.counted.nobody"))
        expect(teacher.locator("#lt-closed li")).to_have_text([f"{code}: {names} \u2014 {closed}"])
        # the notice is news for 20 s (read from the back of a projected room), then goes; the closed list keeps it
        teacher.clock.fast_forward(15_000)
        expect(teacher.locator("#lt-tables-said")).to_have_text(ended)
        teacher.clock.fast_forward(5_500)
        expect(teacher.locator("#lt-tables-said")).to_be_hidden()
        expect(teacher.locator("#lt-status")).to_have_text("")
        expect(teacher.locator("#lt-closed li")).to_have_text([f"{code}: {names} \u2014 {closed}"])
        for board in (ana_board, ben_board):
            expect(board.locator(".lt-message")).to_contain_text(text("classmates.closed_why.teacher", code=code),
                                                                 timeout=TIMEOUT)
        expect(teacher.locator("#lt-standings-none")).to_have_text(text("teacher.page.no_standings_today"))
        page.wait_for_timeout(1_000)  # (her kernel has read the ending with her page connected: she was told)
        board = open_board(server.url)  # Ana reloads: she was there when it ended, and is not told she was away
        expect(page.locator(".lt-student-name")).to_have_text("Ana", timeout=TIMEOUT)
        away = text("classmates.while_away.teacher", code=code)
        assert away not in board.locator(".lt-message").inner_text()
        assert away not in page.locator(".lt-class-status").all_inner_texts()
    finally:
        teacher.context.close()
        other.close()
