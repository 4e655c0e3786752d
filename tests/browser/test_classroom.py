"""A class on a school network: another website cannot end a student's session, and the page asks no
other host for anything."""

from __future__ import annotations

import contextlib
import html
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import psutil
import pytest
from playwright.sync_api import expect
from rendered import opening
from servers import kernel_count
from test_learn import stage_tab

from leopard_tutor.engine import ALL_CARDS
from leopard_tutor.engine.catalogue import text
from leopard_tutor.pacing import INTENT_BURST, INTENT_RATE
from leopard_tutor.server.launch import PING_EVERY_MS, PONG_WITHIN_MS


def shutdown_status(base: str, origin: str) -> int:
    request = urllib.request.Request(base + "voila/api/shutdown/00000000-0000-0000-0000-000000000000",
                                     data=b"", method="POST", headers={"Origin": origin})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def refusals_logged(server: Any, start: str, count: int, timeout: float = 20) -> None:
    """Wait until the server's log has `count` lines that start with `start` (the requests it refused)."""
    deadline = time.monotonic() + timeout
    while sum(line.startswith(start) for line in server.log_text().splitlines()) < count:
        assert time.monotonic() < deadline, f"fewer than {count} lines {start!r} in the log:\n{server.log_text()}"
        time.sleep(0.1)


def test_a_foreign_origin_cannot_end_a_session(own_server: Any) -> None:
    assert shutdown_status(own_server.url, "https://evil.example") == 403
    own = "http://" + urlsplit(own_server.url).netloc
    assert shutdown_status(own_server.url, own) != 403


def test_the_page_asks_nothing_of_any_other_host(page: Any, app_server: Any, open_board: Any) -> None:
    """School networks block or log third-party requests: every asset comes from the app itself."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    board = open_board(app_server.url)
    seq = board.get_attribute("data-seq")
    board.locator(".lt-hand-card").first.click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=20_000)  # the click answered, redrawn
    hosts = {urlsplit(url).hostname for url in asked if url.startswith(("http:", "https:", "ws:", "wss:"))}
    assert asked and hosts <= {"127.0.0.1", "localhost"}, sorted(hosts)


def test_a_click_storm_leaves_the_board_in_step_with_the_engine(page: Any, base_url: str, open_board: Any) -> None:
    """The page sends one intent at a time and ignores clicks while one is in flight."""
    board = open_board(base_url)
    seq = int(board.get_attribute("data-seq") or 0)
    cards = board.locator(".lt-hand-card")
    for i in range(60):
        cards.nth(i % 2).dispatch_event("click")
    expect(board).not_to_have_class(re.compile("lt-busy"), timeout=20_000)
    handled = int(board.get_attribute("data-seq") or 0) - seq
    assert 1 <= handled < 60, handled
    third = cards.nth(2)
    name = third.get_attribute("aria-label") or ""
    # a learner's next click comes after the storm, once the pace's bucket has a click again (the storm's intents
    # went one at a time, `handled` of them: past the burst, the kernel takes INTENT_RATE a second; half a second
    # more as a margin: without it, one full run of the suite found the bucket still empty, 2026-12-03)
    time.sleep(max(0.0, (handled + 1 - INTENT_BURST) / INTENT_RATE) + 0.5)
    third.click()
    card = next(each for each in ALL_CARDS if each.name == name)  # its card, by the name it goes by, picked or not
    expect(board.locator(".lt-message")).to_contain_text(opening("play.picked", "where", the_card=card.the_name),
                                                         timeout=20_000)
    assert board.locator(".lt-error").inner_text() == ""


LOST_SAID_WITHIN_MS = 12_000
"""How soon a board says its connection is lost once its kernel died or its server stopped, with no click: the
server notices a dead kernel within its restarter's poll (3 s) and tells the page it restarted, and a closed
websocket not back within 5 s is lost (board.js, GONE_AFTER_MS); the rest is a margin for a busy machine. (The
board's question every ALIVE_EVERY_MS (board.py), unanswered for 20 s, is only the fallback.)"""


def kernel_id(page: Any) -> str:
    """The id of the page's kernel, as the page names it."""
    named = re.search(r'"kernelId": *"([0-9a-f-]+)"', page.content())
    assert named, "the page names its kernel"
    return named.group(1)


def kernel_process(page: Any, server: Any) -> psutil.Process:
    """The process of the page's kernel (not the preheated one waiting for the next visitor)."""
    [own] = [child for child in psutil.Process(server.process.pid).children(recursive=True)
             if f"kernel-{kernel_id(page)}.json" in " ".join(child.cmdline())]
    return own


BACK_QUESTION = re.compile(r"/voila\.js\?back=")
"""A page's question whether its server is back, once its kernel is lost (board.js, `reloadWhenBack`)."""


def hold_the_way_back(page: Any) -> Callable[[], None]:
    """Leave the page's questions whether its server is back unanswered, so that a page that would reload itself at
    once (its first question goes out within 3 s of its lost notice) keeps the notice until the test has read it:
    the function that sends on the questions held, and any asked after it."""
    held: list[Any] = []
    let_go = False

    def ask(question: Any) -> None:
        if let_go:
            question.continue_()
        else:
            held.append(question)

    def send_on() -> None:
        nonlocal let_go
        let_go = True
        while held:
            held.pop(0).continue_()

    page.route(BACK_QUESTION, ask)
    return send_on


def lose_the_kernel(page: Any, server: Any, board: Any) -> Any:
    """Kill the page's kernel and return the board's lost-connection notice once it shows, with no click, within
    LOST_SAID_WITHIN_MS. A page that reloads itself once its server answers is held first (`hold_the_way_back`):
    its notice could be gone before a look found it."""
    kernel_process(page, server).kill()
    notice = board.locator(".lt-lost-notice")
    expect(notice).to_be_visible(timeout=LOST_SAID_WITHIN_MS)
    return notice


def test_a_lost_connection_is_said_in_words_with_one_button_that_reloads_without_a_click(
        page: Any, own_server: Any, open_board: Any) -> None:
    """A page that reloaded itself a moment ago (it does once its server answers again, not again within two
    minutes: see the next test) says its connection was lost, with one button that reloads."""
    board = open_board(own_server.url)
    page.evaluate("sessionStorage.setItem('leopard_tutor.reloaded', String(Date.now()))")
    notice = lose_the_kernel(page, own_server, board)
    expect(notice).to_contain_text(text("board.page.lost"))
    expect(notice).not_to_contain_text(text("board.page.reloads_itself"))
    expect(notice).not_to_contain_text(text("board.page.lost_unanswered"))  # no click was waiting for its answer
    reload = notice.get_by_role("button", name=text("board.page.reload"))
    expect(reload).to_be_focused()
    # the notice says it in words: no red broken chain of ipywidgets' before each of the page's widgets (30 of them)
    chains = page.locator(".jupyter-widgets-disconnected")
    expect(chains.first).to_be_attached()
    chained = ("all => all.filter((each) => getComputedStyle(each, '::before').content !== 'none')"
               ".map((each) => each.className)")
    assert chains.evaluate_all(chained) == []
    board.locator(".lt-hand-card").first.click(force=True)  # the board no longer pretends to answer
    # nor do the controls beside it, which cannot answer either: greyed, no click taken
    expect(page.get_by_role("button", name=text("play.controls.new_match"))).to_have_css("pointer-events", "none")
    reload.click()
    again = page.locator(".lt-board").first
    again.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
    expect(again.locator(".lt-lost-notice")).to_be_hidden()


def navigations(page: Any) -> list[str]:
    """How the page was last opened ("navigate", "reload"), as the browser says it."""
    return list(page.evaluate("performance.getEntriesByType('navigation').map((entry) => entry.type)"))


def test_a_page_whose_kernel_died_reloads_itself_once(
        page: Any, page_errors: list[str], own_server: Any, open_board: Any) -> None:
    """A kernel gone with its server still there: the notice says the page reloads by itself, and it does, with no
    click, back to a live board. Its new kernel gone too within two minutes, it keeps the notice and its button."""
    board = open_board(own_server.url)
    first = kernel_id(page)
    page.evaluate("window.notReloaded = true")
    send_on = hold_the_way_back(page)
    notice = lose_the_kernel(page, own_server, board)
    expect(notice).to_contain_text(text("board.page.reloads_itself"))
    send_on()
    page.wait_for_function("!window.notReloaded", timeout=30_000)
    again = page.locator(".lt-board").first
    again.locator(".lt-hand-card").first.wait_for(state="visible", timeout=60_000)
    # The old page's connection, trying to reach its restarted kernel again (Voilà's own `reconnect`) when the page
    # reloaded, may say as it unloads that it gave up, in a promise nobody catches (seen once in CI, 2026-12-06):
    # Voilà's words about the kernel killed here, not an error of the page that came back.
    page_errors[:] = [error for error in page_errors
                      if error != "pageerror: Kernel connection disconnected" and f"/api/kernels/{first}" not in error]
    assert navigations(page) == ["reload"]
    expect(again.locator(".lt-lost-notice")).to_be_hidden()
    page.evaluate("window.notReloaded = true")
    notice = lose_the_kernel(page, own_server, again)
    expect(notice).not_to_contain_text(text("board.page.reloads_itself"))
    time.sleep(8)  # (past the first two questions a page that reloads itself asks: within 3 s, then 3 to 6 s later)
    assert page.evaluate("window.notReloaded === true"), "the page reloaded itself twice within two minutes"


def test_a_lost_connection_in_a_browser_that_keeps_no_site_data_says_nothing_was_kept(
        page: Any, own_server: Any, open_board: Any) -> None:
    """Site data blocked (localStorage refuses, as in test_play.py): the notice says the browser kept no stars or
    practice record, where it said they come back by themselves in this browser."""
    page.add_init_script("Object.defineProperty(window, 'localStorage', "
                         "{ get() { throw new DOMException('blocked', 'SecurityError'); } });")
    board = open_board(own_server.url)
    hold_the_way_back(page)
    notice = lose_the_kernel(page, own_server, board)
    expect(notice.locator("p").first).to_have_text(text("board.page.lost_unkept"))


def test_a_stopped_server_is_said_on_the_board_within_seconds_and_the_page_comes_back_with_it(
        page: Any, page_errors: list[str], start_own_server: Any, open_board: Any) -> None:
    """The whole server stopped (a class's server gone down): its websocket closes, the page tries again in vain,
    and the board says so in words within LOST_SAID_WITHIN_MS, with no click, the reload button focused. The server
    started again (the teacher restarted it), the page reloads itself and its board is live again; and so again at a
    second restart straight after (a reload once the server was away counts none against the page's two minutes)."""
    server = start_own_server()
    board = open_board(server.url)
    host = urlsplit(server.url).netloc
    try:
        for restart in range(2):
            page.evaluate("window.notReloaded = true")
            server.process.terminate()
            notice = board.locator(".lt-lost-notice")
            expect(notice).to_be_visible(timeout=LOST_SAID_WITHIN_MS)
            expect(notice).to_contain_text(text("board.page.lost"))
            expect(notice).to_contain_text(text("board.page.reloads_itself"))
            expect(notice.get_by_role("button", name=text("board.page.reload"))).to_be_focused()
            server.process.wait(timeout=30)
            server = start_own_server(port=int(host.rsplit(":", 1)[1]))
            page.wait_for_function("!window.notReloaded", timeout=30_000)
            board = page.locator(".lt-board").first
            board.locator(".lt-hand-card").first.wait_for(state="visible", timeout=60_000)
            assert navigations(page) == ["reload"], restart
            expect(board.locator(".lt-lost-notice")).to_be_hidden()
    finally:
        page.close()  # (no more tries to reach the server: the errors they logged are this test's own)
        page_errors[:] = [error for error in page_errors if not (  # (and, the server back, the old page's questions
            f"ws://{host}/api/kernels/" in error or ("ERR_CONNECTION_REFUSED" in error and f"http://{host}/" in error)
            or ("404" in error and (f"http://{host}/voila/api/shutdown/" in error  # for its kernel and the reload's
                                    or f"http://{host}/api/kernels/" in error)))]  # word that it may go: none here)


def test_a_busy_kernel_is_not_said_to_be_lost(page: Any, app_server: Any, open_board: Any) -> None:
    """A kernel that answers nothing for longer than the board gives a closed connection to come back (the
    computer thinking, a review's search: here its process stopped for 7 s, which its connection and the server
    see no more of than of a busy one) answers the click made meanwhile once it goes on, and the board never says
    its connection was lost."""
    board = open_board(app_server.url)
    seq = board.get_attribute("data-seq")
    kernel = kernel_process(page, app_server)
    kernel.suspend()
    try:
        board.locator(".lt-hand-card").first.click()
        time.sleep(7)  # past the 5 s a closed connection is given to come back
        expect(board).to_have_class(re.compile("lt-busy"))  # the click still unanswered
    finally:
        kernel.resume()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=20_000)  # answered once it went on
    expect(board).not_to_have_class(re.compile("lt-busy"))
    expect(board.locator(".lt-lost-notice")).to_be_hidden()


def test_past_the_session_cap_a_visit_is_told_the_class_is_full(page: Any, start_own_server: Any,
                                                                 open_board: Any) -> None:
    server = start_own_server("--max-sessions", "1")
    open_board(server.url)
    with pytest.raises(urllib.error.HTTPError) as full:
        urllib.request.urlopen(server.url, timeout=30)
    assert full.value.code == 503
    assert html.escape(text("app.class_full", sessions=1)) in full.value.read().decode()
    assert kernel_count(server.process.pid) == 2, "the page's kernel and the preheated one: none for the refused visit"


def serve_folder(folder: Any) -> tuple[Any, int]:
    """A plain web server of another origin on `folder`: (the server, its port); shut it down after use."""
    import http.server
    import threading

    from servers import free_port

    port = free_port()
    handler = lambda *a: http.server.SimpleHTTPRequestHandler(*a, directory=str(folder))  # noqa: E731
    site = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    return site, port


def test_images_on_another_website_start_no_session(page: Any, start_own_server: Any, tmp_path: Any) -> None:
    """A page elsewhere holding <img>, <script> and <iframe> tags that point at the app starts no kernel
    for whoever views it; each refusal is one line of the server's log, counted."""
    server = start_own_server("--max-sessions", "3")
    deadline = time.monotonic() + 60
    while kernel_count(server.process.pid) != 1 and time.monotonic() < deadline:
        time.sleep(0.3)
    tags = "".join(f'<img src="{server.url}?x={n}" alt="">' for n in range(12))
    tags += f'<script src="{server.url}?s=1"></script><iframe src="{server.url}?f=1"></iframe>'
    (tmp_path / "index.html").write_text(f"<!doctype html><title>prank</title>{tags}", encoding="utf-8")
    site, port = serve_folder(tmp_path)
    try:
        page.on("pageerror", lambda error: None)
        prank = page.context.new_page()
        prank.goto(f"http://127.0.0.1:{port}/index.html", wait_until="load")
        refusals_logged(server, "Refused 403 GET /?", 14)
        prank.close()
    finally:
        site.shutdown()
        site.server_close()
    assert kernel_count(server.process.pid) == 1, "only the preheated kernel: no session for an image, script or frame"
    refused = [line for line in server.log_text().splitlines() if line.startswith("Refused 403 GET /?")]
    assert len(refused) == 14, refused
    assert any(line.endswith("(Sec-Fetch-Mode: no-cors) (13 so far)") for line in refused), "images and the script"
    assert any("(Sec-Fetch-Dest: iframe)" in line for line in refused), "the frame"


def test_teacher_links_set_up_the_app_and_a_bad_value_is_explained(page: Any, base_url: str, open_board: Any) -> None:
    link = base_url + "?rules=1963&level=expert&deal=CLASS7"
    board = open_board(link)
    expect(board.locator(".lt-turn")).to_contain_text(text("rules.ORIGINAL_1963"))
    hand = board.locator(".lt-hand-card").evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))")
    opponent = page.get_by_role("combobox", name=text("play.controls.opponent"))
    expect(opponent).to_have_value(text("levels.names.expert"))  # ipywidgets uses labels
    page.get_by_role("button", name=text("play.share.button")).click()
    shared = page.get_by_role("textbox", name=text("play.share.label"))
    expect(shared).to_have_value(re.compile(r"deal=CLASS7&rules=1963&level=expert$"))
    assert urlsplit(shared.input_value()).netloc == urlsplit(base_url).netloc
    copy = page.get_by_role("button", name=text("play.share.copy"), exact=True)  # beside the link, on its row
    box, button = shared.bounding_box(), copy.bounding_box()
    assert box and button and abs(box["y"] + box["height"] / 2 - button["y"] - button["height"] / 2) <= 4, (box, button)
    assert box["x"] + box["width"] < button["x"] < box["x"] + box["width"] + 200, (box, button)

    again = open_board(shared.input_value())  # the link a teacher hands out: the same cards
    assert again.locator(".lt-hand-card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))") == hand

    page.goto(base_url + "?tab=learn&lesson=5&level=grandmaster", wait_until="commit")
    page.locator(".lt-learn .lt-space").first.wait_for(state="visible", timeout=60_000)
    expect(page.locator(".lt-learn h3").first).to_contain_text("5.")
    expect(page.get_by_role("region", name=text("app.link_note_label"), exact=True)).to_contain_text(
        opening("app.link.level", "known", value="'grandmaster'"))
    expect(stage_tab(page, 4)).to_be_enabled()


def kernel_of(page: Any) -> str:
    found = re.search(r'"kernelId": *"([0-9a-f-]+)"', page.content())
    assert found, "the page names its kernel"
    return found.group(1)


def test_another_browser_with_a_stolen_kernel_id_is_refused(page: Any, browser: Any, own_server: Any,
                                                            open_board: Any) -> None:
    """Another browser (its own identity cookie), knowing a student's kernel id, cannot connect to the
    kernel, read it or end it; the student plays on (a server of its own: its refusals stay in its log)."""
    base_url = own_server.url
    board = open_board(base_url)
    kernel = kernel_of(page)
    other = browser.new_context()
    try:
        intruder = other.new_page()
        intruder.goto(base_url + "voila/static/voila.js")  # the same server, another browser
        answers = intruder.evaluate("""async kernel => {
            const socket = await new Promise(resolve => {
                const ws = new WebSocket(`ws://${location.host}/api/kernels/${kernel}/channels`);
                ws.onopen = () => { ws.close(); resolve("opened"); };
                ws.onerror = () => resolve("refused");
            });
            const shutdown = await fetch(`/voila/api/shutdown/${kernel}`, {method: "POST"});
            const read = await fetch(`/api/kernels/${kernel}`);
            const remove = await fetch(`/api/kernels/${kernel}`, {method: "DELETE"});
            return [socket, shutdown.status, read.status, remove.status];
        }""", kernel)
    finally:
        other.close()
    assert answers == ["refused", 403, 403, 403]
    seq = board.get_attribute("data-seq")
    board.locator(".lt-hand-card").first.click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=20_000)
    expect(board.locator(".lt-message")).to_contain_text(opening("play.picked", "the_card"))


def test_another_website_in_the_same_browser_cannot_end_the_session(page: Any, own_server: Any, open_board: Any,
                                                                    tmp_path: Any) -> None:
    """A page of another origin, in the student's own browser (so with the student's cookies), sends the
    shutdown beacon and a credentialed POST for the student's kernel: both are refused."""
    base_url = own_server.url
    board = open_board(base_url)
    kernel = kernel_of(page)
    target = f"{base_url}voila/api/shutdown/{kernel}"
    (tmp_path / "index.html").write_text(f"""<!doctype html><script>
        navigator.sendBeacon("{target}");
        fetch("{target}", {{method: "POST", mode: "no-cors", credentials: "include"}})
          .then(() => document.title = "sent", () => document.title = "sent");
        </script>""", encoding="utf-8")
    site, port = serve_folder(tmp_path)
    try:
        evil = page.context.new_page()
        evil.goto(f"http://127.0.0.1:{port}/index.html")
        expect(evil).to_have_title("sent", timeout=20_000)
        refusals_logged(own_server, f"Refused 403 POST /voila/api/shutdown/{kernel}", 2)  # the beacon's and the POST's
        evil.close()
    finally:
        site.shutdown()
        site.server_close()
    seq = board.get_attribute("data-seq")
    board.locator(".lt-hand-card").first.click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=20_000)
    expect(board.locator(".lt-lost-notice")).to_be_hidden()


def test_a_tab_gone_without_a_word_has_its_session_ended(browser: Any, start_own_server: Any) -> None:
    """A browser that vanishes (its context closed: no unload, no beacon) leaves a kernel that is shut down
    once its page has been gone for the grace time (here 15 s instead of a minute)."""
    server = start_own_server("--page-gone-after", "15")
    gone = browser.new_context()
    tab = gone.new_page()
    tab.goto(server.url, wait_until="commit")
    tab.locator(".lt-board .lt-space").first.wait_for(state="visible", timeout=60_000)
    kernel = kernel_of(tab)

    def alive() -> bool:
        return any(f"kernel-{kernel}.json" in " ".join(child.cmdline())
                   for child in psutil.Process(server.process.pid).children(recursive=True)
                   if child.status() != psutil.STATUS_ZOMBIE)
    assert alive()
    gone.close()
    deadline = time.monotonic() + 90
    while alive() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not alive(), "the kernel of a vanished tab is still running"


def test_students_arriving_together_are_told_in_words_while_their_tables_are_prepared(
        context: Any, base_url: str) -> None:
    """Three tabs opened at once against at most one preheated kernel: the later ones get the waiting page,
    which says in its status, its title and its accessible name that the table is being prepared and, once the
    server has placed it, how many are ahead (each tab records what its waiting page showed, at first and after
    each answer, before it moves on), then every tab gets its board."""
    context.add_init_script("""document.addEventListener("DOMContentLoaded", () => {
        const status = document.getElementById("lt-line");
        if (!status) return;
        const main = document.querySelector("main");
        const record = () => {
            const seen = JSON.parse(sessionStorage.getItem("told") || "[]");
            seen.push([status.textContent, document.title, main.getAttribute("aria-label"),
                       status.getAttribute("role")]);
            sessionStorage.setItem("told", JSON.stringify(seen));
        };
        record();
        new MutationObserver(record).observe(status, {childList: true, characterData: true, subtree: true});
    });""")
    tabs = [context.new_page() for _ in range(3)]
    for tab in tabs:
        tab.goto(base_url, wait_until="commit")
    told = []
    for tab in tabs:
        expect(tab.locator(".lt-board").first).to_be_visible(timeout=120_000)
        told += tab.evaluate("JSON.parse(sessionStorage.getItem('told') || '[]')")
        tab.close()
    assert told, "at least one tab waited and was told so"
    for words, title, name, role in told:
        assert words in {text("app.preparing_place")} | {text("app.preparing", ahead=ahead) for ahead in range(10)}
        assert title == name == words and role == "status"


class DroppingProxy:
    """A TCP proxy between the browser and a server that, once `drop` is set, delivers nothing either way (what it
    reads is dropped) and closes nothing: a Wi-Fi gone, or a laptop asleep, as the server sees them."""

    def __init__(self, port: int) -> None:
        self.port, self.drop = port, threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                browser_side, _ = self.listener.accept()
            except OSError:
                return  # closed
            server_side = socket.create_connection(("127.0.0.1", self.port))
            for source, sink in ((browser_side, server_side), (server_side, browser_side)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if not self.drop.is_set():
                    sink.sendall(data)
        if not self.drop.is_set():  # (a side closed before the drop: the other is closed too)
            with contextlib.suppress(OSError):
                sink.close()

    def close(self) -> None:
        self.listener.close()


def test_a_page_whose_network_drops_is_let_go_within_the_pings_timeout(page: Any, app_server: Any,
                                                                        open_board: Any) -> None:
    """A page whose Wi-Fi drops sends nothing and closes nothing: the server's pings, unanswered, close its kernel
    connection within `PONG_WITHIN_MS` (and an interval), so its student stops counting as present at their table
    (their classmate's two minutes of "gone" count from then). With Jupyter server's defaults it took 91 s. A click
    made meanwhile, never answered, may still reach the kernel once the network is back: the board's notice of the
    lost connection says that the reloaded page shows whether it did (it said only that clicks go unanswered)."""
    proxy = DroppingProxy(int(urlsplit(app_server.url).port or 80))
    try:
        board = open_board(proxy.url)
        timeouts = app_server.log_text().count("WebSocket ping timeout")
        proxy.drop.set()
        dropped = time.monotonic()
        board.locator(".lt-hand-card").first.click()
        expect(board.locator(".lt-why")).to_have_text(text("board.page.no_answer_yet"), timeout=10_000)  # before
        notice = board.locator(".lt-lost-notice")  # the lost connection is said, 20 s after the click
        expect(notice).to_contain_text(text("board.page.lost_unanswered"), timeout=30_000)
        expect(notice).to_contain_text(text("board.page.lost"))
        deadline = dropped + (PONG_WITHIN_MS + 2 * PING_EVERY_MS) / 1000
        while app_server.log_text().count("WebSocket ping timeout") == timeouts:
            assert time.monotonic() < deadline, "the page's kernel connection still stands"
            time.sleep(0.5)
        # not before it had its time to answer (its last answer may have come an interval before the drop)
        assert time.monotonic() - dropped >= (PONG_WITHIN_MS - PING_EVERY_MS) / 1000 - 1
    finally:
        proxy.close()
