"""Another website cannot end a student's session: the shutdown beacon is only taken from the app's own page."""

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
