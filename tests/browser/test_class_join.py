"""How students join, on the class page in a real browser (`teacher_join.js`): a server heard beyond this machine
(`--ip 0.0.0.0`) opened on this machine's own address shows its classroom address, as the terminal prints it; the
same page opened by another name (a school's name, here routed to this machine) shows that name's address; the
button shows it large with its QR code in a dialog that Escape closes; a server on this machine's own address
says why students cannot join, and offers no code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from leopard_tutor.engine.catalogue import text
from leopard_tutor.server.join import qr_svg
from leopard_tutor.server.launch import classroom_url

TOKEN = "browser-join-token-0123456789abc"
SCHOOL = "school.example"
"""A name the browser resolves to this machine (the test routes its requests), as a school's network would."""


def shown_address(page: Any) -> str:
    """The address the header says students join at (after the page has drawn it)."""
    expect(page.locator("#lt-join-words")).to_have_text(text("teacher.page.join"))
    return page.locator("#lt-join-address").inner_text()


def test_the_class_page_shows_where_students_join_and_its_code_large(page: Any, start_own_server: Any,
                                                                     tmp_path: Path) -> None:
    server = start_own_server("--ip", "0.0.0.0", "--class-size", "0", "--data-dir", str(tmp_path / "data"),
                              "--teacher-token", TOKEN)
    port = urlsplit(server.url).port
    assert port is not None
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{server.url}teacher?token={TOKEN}")
    assert shown_address(page) == classroom_url("0.0.0.0", port)  # the banner's address: this machine's name
    expect(page.locator("#lt-join-address")).to_have_attribute("href", classroom_url("0.0.0.0", port))

    forwarded: list[str] = []

    def to_this_machine(route: Any) -> None:
        here = route.request.url.replace(f"http://{SCHOOL}:", "http://127.0.0.1:", 1)
        forwarded.append(here)
        route.fulfill(response=route.fetch(url=here))
    page.context.route(re.compile(rf"^http://{re.escape(SCHOOL)}:\d+/"), to_this_machine)
    school = f"http://{SCHOOL}:{port}/"
    page.goto(f"{school}teacher?token={TOKEN}")
    assert shown_address(page) == school
    expect(page.locator("#lt-join-dialog")).to_be_hidden()
    page.get_by_role("button", name=text("teacher.page.join_show")).click()
    dialog = page.get_by_role("dialog", name=text("teacher.page.join_title"))
    expect(dialog).to_be_visible()
    expect(dialog.locator("#lt-join-big")).to_have_text(school)
    code = dialog.get_by_role("img", name=text("teacher.page.join_code"))
    expect(code).to_be_visible()
    # (not wait_for_function: under load it polls by eval, which the class page's CSP refuses)
    expect(code).to_have_js_property("complete", True)
    assert code.evaluate("(image) => image.naturalWidth") > 0, "the code's image was drawn"
    box = code.bounding_box()
    assert box["width"] >= 300 and abs(box["width"] - box["height"]) < 2, box  # large and square on a projector
    assert box["y"] + box["height"] <= 720, box  # the whole code on the screen
    assert dialog.evaluate("(box) => box.scrollHeight <= box.clientHeight")  # and the whole dialog: title to button
    drawn = [url for url in forwarded if "/teacher/api/join.svg?" in url]
    assert len(drawn) == 1 and page.request.get(drawn[0]).text() == qr_svg(school)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_a_server_on_this_machine_only_says_why_students_cannot_join(page: Any, start_own_server: Any,
                                                                      tmp_path: Path) -> None:
    server = start_own_server("--data-dir", str(tmp_path / "data"), "--teacher-token", TOKEN)
    page.goto(f"{server.url}teacher?token={TOKEN}")
    expect(page.locator("#lt-join-words")).to_have_text(text("teacher.page.join_here_only"))
    expect(page.locator("#lt-join-address")).to_be_hidden()
    expect(page.locator("#lt-join-show")).to_be_hidden()
