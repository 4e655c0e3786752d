"""A student's name on a class server, in Chromium: the first visit's box in the header with a made-up two-word
name, a bad name answered without change, the name kept, shown with Change, put in the classmate name box, and
back by itself after a reload (the browser keeps it). It holds whether or not the server takes the reports: a
page never waits for them."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

TIMEOUT = 30_000


def test_a_first_visit_names_itself_and_the_name_comes_back(open_board: Any, page: Any, base_url: str) -> None:
    open_board(base_url)
    header = page.locator(".lt-student")
    box = header.get_by_role("textbox", name="Your name")
    expect(box).to_be_visible(timeout=TIMEOUT)
    expect(box).to_have_value(re.compile(r"^[A-Z][a-z]+ [A-Z][a-z]+$"))
    box.fill("x" * 25)
    header.get_by_role("button", name="Keep").click()
    expect(header.locator(".lt-student-note")).to_contain_text("at most 24 characters", timeout=TIMEOUT)
    expect(box).to_be_visible()
    box.fill("<img src=x onerror=alert(1)>"[:24])
    header.get_by_role("button", name="Keep").click()
    expect(header.locator(".lt-student-name")).to_have_text("<img src=x onerror=alert", timeout=TIMEOUT)
    expect(box).to_be_hidden()
    expect(header.get_by_role("button", name="Change")).to_be_visible()
    page.get_by_role("combobox", name="Opponent").select_option(label="A classmate")
    classmate = page.locator(".lt-class-panel").get_by_role("textbox", name="Your name")
    expect(classmate).to_have_value("<img src=x onerror=alert", timeout=TIMEOUT)
    open_board(base_url)
    expect(page.locator(".lt-student-name")).to_have_text("<img src=x onerror=alert", timeout=TIMEOUT)
    expect(page.locator(".lt-student").get_by_role("textbox", name="Your name")).to_be_hidden()
