"""A student's name on a class server, in Chromium: the first visit offered a made-up two-word name ("You are ..."
and Change), the box holding it, a bad name answered without change, a name typed kept at Enter, shown with
Change, put in the classmate name box, and back by itself after a reload (the browser keeps it); a named student's
lesson reaching the teacher's class page within 5 s, and her name asked again after the teacher forgot the class; and
a visit that did nothing leaving no row while one that
solved a stage is there under its offered name."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from rendered import opening
from test_learn import open_tab, play_solution

from leopard_tutor.engine.catalogue import text
from leopard_tutor.lessons import LESSONS

TIMEOUT = 30_000
WIDTHS = (1366, 1280, 1100, 1000, 901, 800)
"""Window widths at which the header must leave the tabs alone."""


def header_clear_of_the_tabs(page: Any) -> list[str]:
    """At each of `WIDTHS`, whether the header (the student's name, the rules link, About) lies beside or above
    the tabs, never over one: the widths where it does not."""
    overlaps = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        head = page.locator(".lt-head").bounding_box()
        tab = page.get_by_role("tab", name="Practice", exact=True).bounding_box()
        beside = tab["x"] + tab["width"] <= head["x"]
        above = head["y"] + head["height"] <= tab["y"]
        if not (beside or above):
            overlaps.append(f"{width} px: header {head}, last tab {tab}")
    page.set_viewport_size({"width": 1100, "height": 1000})
    return overlaps


def test_a_first_visit_names_itself_and_the_name_comes_back(open_board: Any, page: Any, base_url: str) -> None:
    open_board(base_url)
    header = page.locator(".lt-student")
    expect(header.locator(".lt-student-lead")).to_have_text(text("students.you_are"), timeout=TIMEOUT)
    offered = header.locator(".lt-student-name")
    expect(offered).to_have_text(re.compile(r"^[A-Z][a-z]+ [A-Z][a-z]+$"))
    about = header.locator(".lt-student-about")  # what the name is for, read out, not only a mouse's tooltip
    expect(about).to_have_text(text("students.offered_tooltip", name=offered.inner_text()))
    # its words come a moment before it is shown (the bar sets them, then shows its parts): wait until it is
    expect(about).not_to_have_css("display", "none")
    width, display = about.evaluate(  # (asked of the element as it is then: the header may just have been redrawn)
        "(e) => [e.getBoundingClientRect().width, getComputedStyle(e).display]")
    assert width <= 1 and display != "none", "read out, not shown: the header has no room for it"
    assert not header_clear_of_the_tabs(page), "the offered name must not cover a tab"
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the offer lies over the header's top row
    language = page.get_by_role("combobox", name=text("app.language.label"))
    language.focus()
    assert language.evaluate(ON_TOP), "the language the keyboard is on must be seen, not lie under the offer"
    page.set_viewport_size({"width": 1100, "height": 1000})
    # a reload before anything worth a record offers the same name again (the browser keeps it as only offered)
    name = offered.inner_text()
    page.reload(wait_until="commit")
    header = page.locator(".lt-student")
    offered = header.locator(".lt-student-name")
    expect(header.locator(".lt-student-lead")).to_have_text(text("students.you_are"), timeout=TIMEOUT)
    expect(offered).to_have_text(name, timeout=TIMEOUT)
    about = header.locator(".lt-student-about")
    header.get_by_role("button", name=text("students.change")).click()
    box = header.get_by_role("textbox", name=text("students.label"))
    expect(box).to_be_visible(timeout=TIMEOUT)
    expect(box).to_have_value(offered.inner_text())
    expect(box).to_be_focused()  # Change is gone: the keyboard goes into the box it showed
    assert not header_clear_of_the_tabs(page), "the name box must not cover a tab"
    box.fill("x" * 25)
    header.get_by_role("button", name=text("students.keep")).click()
    expect(header.locator(".lt-student-note p")).to_have_text(text("classmates.refused.name_too_long", most=24,
                                                                   length=25), timeout=TIMEOUT)
    expect(box).to_be_visible()
    box.fill("<img src=x onerror=alert(1)>"[:24])
    box.press("Enter")  # keeps the name typed, as Keep does
    expect(header.locator(".lt-student-name")).to_have_text("<img src=x onerror=alert", timeout=TIMEOUT)
    expect(header.locator(".lt-student-lead")).to_be_hidden()
    expect(box).to_be_hidden()
    expect(header.get_by_role("button", name=text("students.change"))).to_be_focused()  # not lost with the box
    assert not header_clear_of_the_tabs(page), "the kept name must not cover a tab"
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the name has less room than it needs
    assert page.locator(".lt-student-name").evaluate(CUT_WITH_AN_ELLIPSIS), "a cut name ends with '…'"
    page.set_viewport_size({"width": 1100, "height": 1000})
    page.get_by_role("combobox", name=text("play.controls.opponent")).select_option(label=text("classmates.choice"))
    classmate = page.locator(".lt-class-panel").get_by_role("textbox", name=text("classmates.name_label"))
    expect(classmate).to_have_value("<img src=x onerror=alert", timeout=TIMEOUT)
    open_board(base_url)
    expect(page.locator(".lt-student-name")).to_have_text("<img src=x onerror=alert", timeout=TIMEOUT)
    expect(page.locator(".lt-student").get_by_role("textbox", name=text("students.label"))).to_be_hidden()


def test_escape_drops_a_name_edit_and_a_name_kept_at_tab_is_said(open_board: Any, page: Any, base_url: str) -> None:
    """Escape in the name box puts back the name as it was (offered, then kept), the box closed and the keyboard on
    Change; a name kept by leaving the box with Tab is said in the bar's polite live region, and so is one kept by
    Enter as it was (the box tells no change then); the box is described by what the two keys do."""
    open_board(base_url)
    header = page.locator(".lt-student")
    shown = header.locator(".lt-student-name")
    expect(header.locator(".lt-student-lead")).to_have_text(text("students.you_are"), timeout=TIMEOUT)
    expect(shown).not_to_have_text("", timeout=TIMEOUT)  # (the name offered may come a moment after its lead)
    offered = shown.inner_text()
    change = header.get_by_role("button", name=text("students.change"))
    box = header.get_by_role("textbox", name=text("students.label"))
    change.press("Enter")
    expect(box).to_be_focused(timeout=TIMEOUT)
    box.fill("Not This One")
    box.press("Escape")
    expect(change).to_be_focused(timeout=TIMEOUT)
    expect(box).to_be_hidden()
    expect(shown).to_have_text(offered)
    expect(header.locator(".lt-student-lead")).to_be_visible()  # still only offered: nothing was kept
    change.press("Enter")
    expect(box).to_have_value(offered, timeout=TIMEOUT)
    box.fill("Escaping Emu")
    box.press("Tab")  # leaving the box keeps the name typed
    expect(shown).to_have_text("Escaping Emu", timeout=TIMEOUT)
    expect(change).to_be_focused()
    expect(header.get_by_role("status")).to_have_text(text("students.kept_said", name="Escaping Emu"))
    change.press("Enter")
    expect(box).to_be_focused(timeout=TIMEOUT)
    box.fill("Not This One")
    box.press("Escape")
    expect(change).to_be_focused(timeout=TIMEOUT)
    expect(shown).to_have_text("Escaping Emu")
    expect(header.locator(".lt-student-lead")).to_be_hidden()
    change.press("Enter")
    expect(box).to_have_value("Escaping Emu", timeout=TIMEOUT)
    expect(box).to_have_accessible_description(text("students.box_how"))
    box.press("Enter")  # the name as it was, kept again: the box tells no change, the bar is told all the same
    expect(change).to_be_focused(timeout=TIMEOUT)
    expect(box).to_be_hidden()
    expect(header.get_by_role("status")).to_have_text(text("students.kept_said", name="Escaping Emu"))


ON_TOP = """(el) => {
  const box = el.getBoundingClientRect();
  const found = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return found !== null && (found === el || el.contains(found));
}"""
"""Whether an element is what the page shows at its centre (not covered by another)."""


CUT_WITH_AN_ELLIPSIS = """(name) => {
  const box = name.querySelector('span').parentElement, style = getComputedStyle(box);
  return box.scrollWidth > box.clientWidth && style.overflowX === 'hidden' && style.textOverflow === 'ellipsis';
}"""
"""Whether the box holding a shown name's text is narrower than the name and ends it with "…"."""


COVERS = """(note) => {
  const box = note.getBoundingClientRect();
  const meets = (r) => r.width > 0 && r.height > 0 && r.left < box.right && box.left < r.right && r.top < box.bottom
    && box.top < r.bottom;
  return [...document.querySelectorAll('button, select, input, [role=tab], summary, a')]
    .filter((el) => !note.contains(el) && el.checkVisibility() && meets(el.getBoundingClientRect()))
    .map((el) => `${el.tagName} ${el.textContent || el.getAttribute('aria-label') || ''}`.trim());
}"""
"""The controls of the page (not its own Close) that the element lies over, or beside which it lies in their box."""


def name_student(page: Any, name: str) -> None:
    """Keep `name` in the header's name box (opened by Change: the offered name is shown first)."""
    header = page.locator(".lt-student")
    header.get_by_role("button", name=text("students.change")).click()
    header.get_by_role("textbox", name=text("students.label")).fill(name)
    header.get_by_role("button", name=text("students.keep")).click()
    expect(header.locator(".lt-student-name")).to_have_text(name, timeout=TIMEOUT)
    expect(header.get_by_role("button", name=text("students.change"))).to_be_focused()  # Keep is gone: on to Change


def test_two_students_are_seen_on_the_class_page_within_5_s(browser: Any, open_board: Any, page: Any,
                                                            start_own_server: Any, tmp_path: Path) -> None:
    """Two students (two browser contexts) and their teacher (a third), the class page open before they start: Ben
    is refused Ana's name (in capitals) while her page is open; each name appears as text, Ana's stage 1 solved by
    clicks shows as "1 of N" and Ben's Practice tab as what he is doing, each within 5 s of the student's click.
    Then the teacher forgets the class, and Ana's page, opened again, asks for her name (her browser kept it under
    the class's old id), holding it, and says why."""
    token = "browser-teacher-token-0123456789"
    server = start_own_server("--data-dir", str(tmp_path / "data"), "--teacher-token", token)
    teacher = browser.new_context().new_page()
    other = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        teacher.goto(f"{server.url}teacher?token={token}")
        expect(teacher.locator("h1")).to_be_visible(timeout=TIMEOUT)
        board = open_board(server.url)
        ben = other.new_page()
        ben.goto(server.url, wait_until="commit", timeout=60_000)
        ben.locator(".lt-board .lt-space").first.wait_for(state="visible", timeout=60_000)
        name_student(page, "Ana")
        marked = "<img src=x onerror=f()>"
        header = ben.locator(".lt-student")  # Ben types Ana's name first: refused while her page is open
        header.get_by_role("button", name=text("students.change")).click()
        box = header.get_by_role("textbox", name=text("students.label"))
        box.fill("ANA")
        header.get_by_role("button", name=text("students.keep")).click()
        expect(header.locator(".lt-student-note p")).to_have_text(text("classmates.refused.name_taken", name="Ana"),
                                                                   timeout=TIMEOUT)
        expect(box).to_have_value("ANA")
        box.fill(marked)
        header.get_by_role("button", name=text("students.keep")).click()
        expect(header.locator(".lt-student-name")).to_have_text(marked, timeout=TIMEOUT)
        expect(header.locator(".lt-student-note")).to_be_hidden()
        rows = {"Ana": teacher.locator("#lt-rows tr", has_text="Ana"),
                "Ben": teacher.locator("#lt-rows tr", has_text=marked)}
        for row in rows.values():
            expect(row).to_be_visible(timeout=5_000)
        assert teacher.locator("#lt-rows img").count() == 0, "a name is text, never markup"
        root = open_tab(board, "Learn", "lt-learn")
        assert opening("lessons.feedback.stars", "stars") in play_solution(root, 1)
        expect(rows["Ana"]).to_contain_text(opening("teacher.lessons", "stars", done=1, total=len(LESSONS)),
                                            timeout=5_000)
        expect(rows["Ana"]).to_contain_text(text("teacher.now.learn_stage", stage=1), timeout=5_000)
        ben.get_by_role("tab", name=text("app.tabs.practice"), exact=True).click()
        expect(rows["Ben"]).to_contain_text(text("teacher.now.practice"), timeout=5_000)
        expect(rows["Ben"]).to_contain_text(text("teacher.lessons", done=0, total=len(LESSONS), stars=0))
        teacher.once("dialog", lambda dialog: dialog.accept())
        teacher.locator("#lt-forget").click()
        expect(teacher.locator("#lt-rows tr")).to_have_count(0, timeout=5_000)
        open_board(server.url)
        header = page.locator(".lt-student")
        expect(header.locator(".lt-student-note p")).to_have_text(text("students.forgotten"), timeout=TIMEOUT)
        expect(header.get_by_role("textbox", name=text("students.label"))).to_have_value("Ana")
        expect(header.locator(".lt-student-lead")).to_be_hidden()
        close = header.get_by_role("button", name=text("students.close"))
        assert close.evaluate("(b) => b.scrollWidth <= b.clientWidth"), "the Close button's word is cut"
        note = header.locator(".lt-student-note")
        for width, height in ((1366, 768), (1280, 720), (1100, 900), (901, 900), (800, 900), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            assert note.evaluate(COVERS) == [], f"at {width} px the note lies over these controls"
        page.set_viewport_size({"width": 1366, "height": 768})
        close.click()
        expect(header.locator(".lt-student-note")).to_be_hidden(timeout=TIMEOUT)
        expect(header.get_by_role("textbox", name=text("students.label"))).to_be_visible()
        page.get_by_role("combobox", name=text("play.controls.rules")).click(trial=True, timeout=5_000)
    finally:
        teacher.context.close()
        other.close()


def test_an_offered_name_is_a_row_once_a_stage_is_solved_and_a_visit_doing_nothing_is_none(
        browser: Any, open_board: Any, page: Any, start_own_server: Any, tmp_path: Path) -> None:
    token = "browser-teacher-token-0123456789"
    server = start_own_server("--data-dir", str(tmp_path / "data"), "--teacher-token", token)
    teacher = browser.new_context().new_page()
    other = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        teacher.goto(f"{server.url}teacher?token={token}")
        expect(teacher.locator("h1")).to_be_visible(timeout=TIMEOUT)
        idle = other.new_page()
        idle.goto(server.url, wait_until="commit", timeout=60_000)
        expect(idle.locator(".lt-student-lead")).to_be_visible(timeout=60_000)
        idle.get_by_role("tab", name=text("app.tabs.practice"), exact=True).click()
        board = open_board(server.url)
        offered = page.locator(".lt-student-name")
        expect(offered).to_have_text(re.compile(r"^[A-Z][a-z]+ [A-Z][a-z]+$"), timeout=TIMEOUT)
        name = offered.inner_text()
        root = open_tab(board, "Learn", "lt-learn")
        assert opening("lessons.feedback.stars", "stars") in play_solution(root, 1)
        row = teacher.locator("#lt-rows tr", has_text=name)
        expect(row).to_contain_text(opening("teacher.lessons", "stars", done=1, total=len(LESSONS)), timeout=5_000)
        expect(page.locator(".lt-student-lead")).to_be_hidden()
        assert teacher.locator("#lt-rows tr").count() == 1, "the visit that did nothing is no row"
    finally:
        teacher.context.close()
        other.close()


HIT_AT_CENTRE = """(head) => [...head.querySelectorAll('button, select, input, summary, a')]
  .filter((el) => el.checkVisibility())
  .filter((el) => {
    const box = el.getBoundingClientRect();
    const found = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return !(found !== null && (found === el || el.contains(found)));
  })
  .map((el) => `${el.tagName} ${el.textContent || el.getAttribute('aria-label') || ''}`.trim())"""
"""The header's shown controls that a tap at their centre would not reach (another element lies there)."""


def test_on_a_phone_the_offered_name_leaves_every_header_control_to_a_tap(open_board: Any, page: Any,
                                                                          base_url: str) -> None:
    """A first visit on a phone: the offer ("You are ... · Change · Keep") takes a row of its own, so every control
    of the header (the rules link, About, the language, Change, Keep) is what a tap at its centre reaches, and
    About opens at once."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_board(base_url)
    header = page.locator(".lt-student")
    expect(header.locator(".lt-student-lead")).to_have_text(text("students.you_are"), timeout=TIMEOUT)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.locator(".lt-head").evaluate(HIT_AT_CENTRE) == [], "the offer lies over these header controls"
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), "sideways scrolling"
    page.locator(".lt-help > summary").click(timeout=5_000)
    expect(page.locator(".lt-help-text")).to_be_visible(timeout=TIMEOUT)
