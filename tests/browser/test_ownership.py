"""A class on a school network: another website cannot end a student's session, and the page asks no
other host for anything."""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit


def shutdown_status(base: str, origin: str) -> int:
    request = urllib.request.Request(base + "voila/api/shutdown/00000000-0000-0000-0000-000000000000",
                                     data=b"", method="POST", headers={"Origin": origin})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_a_foreign_origin_cannot_end_a_session(app_server: Any) -> None:
    assert shutdown_status(app_server.url, "https://evil.example") == 403
    own = "http://" + urlsplit(app_server.url).netloc
    assert shutdown_status(app_server.url, own) != 403


def test_the_page_asks_nothing_of_any_other_host(page: Any, app_server: Any, open_board: Any) -> None:
    """School networks block or log third-party requests: every asset comes from the app itself."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    board = open_board(app_server.url)
    board.locator(".lt-hand-card").first.click()
    page.wait_for_timeout(500)
    hosts = {urlsplit(url).hostname for url in asked if url.startswith(("http:", "https:", "ws:", "wss:"))}
    assert asked and hosts <= {"127.0.0.1", "localhost"}, sorted(hosts)
