"""What of a kernel's messages may travel to a visitor's page: no tracebacks, no error output.

The app shows no kernel output; its widgets say what went wrong in words. A kernel can still emit a
traceback with the server's file paths: ipywidgets answers a malformed widget update with one (an
iopub "error" message), `logging` and warnings write to stderr (forwarded as an iopub "stream"), and
a request that fails gets a reply whose content carries the traceback. `screen` decides, message by
message, before the server writes it to the websocket (`guards.py`); the server's own log keeps all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

KEEP, DROP = True, False
"""`screen`'s answers for a message that goes to the page as it is, and for one the page must not get."""
ERROR_REPLY = {"status": "error", "ename": "Error", "evalue": "", "traceback": []}
"""What is left of a failed request's reply: that it failed, nothing of why or where."""


def screen(msg_type: str, content: Callable[[], dict[str, Any]]) -> bool | dict[str, Any]:
    """DROP, KEEP, or the content to send instead, for a kernel message of `msg_type`.

    `content()` unpacks the message's content; it is called only for the kinds that need a look."""
    if msg_type == "error":
        return DROP
    if msg_type == "stream":
        return DROP if content().get("name") == "stderr" else KEEP
    if msg_type.endswith("_reply"):
        body = content()
        if body.get("status") == "error" or "traceback" in body:
            return dict(ERROR_REPLY)
    return KEEP
