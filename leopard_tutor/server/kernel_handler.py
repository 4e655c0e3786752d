"""What every handler for the pages' kernels shares (`class_handlers.py`, `student_handlers.py`): a request names
its kernel (`KERNEL_HEADER`) and proves it is that kernel (`PROOF_HEADER`, an HMAC under the kernel's connection
key, which no browser ever holds); the visitor it acts for is the one the kernel was handed to (the server
state's `book`).
A request without a valid proof is HTTP 403 and changes nothing; JSON in, JSON out; a refusal is HTTP 400 with
{"refused": key, "facts": {...}} (the key of a text under "classmates.refused")."""

from __future__ import annotations

import json
from typing import Any

from tornado.web import RequestHandler

from ..class_codes import ClassTableError
from ..protocol import KERNEL_HEADER, PROOF_HEADER, proof_holds
from .class_store import StoreWriteError
from .guards import refuse
from .state import state_of

MAX_BODY = 4096
"""The largest request body a kernel sends (a move is under 100 bytes, a progress code about 100)."""


class KernelHandler(RequestHandler):
    """A handler that answers a visitor's kernel only: `visitor` and `kernel_id` are known once `prepare` passed."""

    visitor: str
    kernel_id: str

    def check_xsrf_cookie(self) -> None:
        """No XSRF cookie: a request is a kernel's, proven by its HMAC, never a browser's."""

    def prepare(self) -> None:
        """Refuse (403) a request that does not prove it comes from a visitor's kernel."""
        kernel_id = self.request.headers.get(KERNEL_HEADER, "")
        try:
            key = self.settings["kernel_manager"].get_kernel(kernel_id).session.key
        except Exception:  # no such kernel
            key = None
        visitor = state_of(self).book.owner(kernel_id)
        if visitor is None or not proof_holds(key, kernel_id, self.request.headers.get(PROOF_HEADER)):
            refuse(self, 403, "only a visitor's kernel may ask this server")
        self.visitor, self.kernel_id = str(visitor), kernel_id

    def answer(self, data: Any) -> None:
        """Answer `data` as JSON, never cached."""
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(data))

    def refused(self, error: ClassTableError) -> None:
        """Answer a refusal (HTTP 400)."""
        self.set_status(400)
        self.answer({"refused": error.key, "facts": error.facts})

    def log_exception(self, kind: Any, value: Any, trace: Any) -> None:
        """No traceback for a change the store could not keep, wherever it was made: the store logged one line."""
        if not isinstance(value, StoreWriteError):
            super().log_exception(kind, value, trace)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """A change the store could not keep is refused "not_stored", wherever it was made (HTTP 400)."""
        error = kwargs.get("exc_info", (None, None))[1]
        if isinstance(error, StoreWriteError):
            self.refused(ClassTableError(error.KEY))
        else:
            super().write_error(status_code, **kwargs)

    def body(self) -> dict[str, Any]:
        """The request's JSON object (HTTP 413 past `MAX_BODY` bytes; a `ClassTableError` "bad_request" if it is
        not a JSON object)."""
        found = json_object(self, "a kernel's request")
        if found is None:
            raise ClassTableError("bad_request")
        return found


def json_object(handler: RequestHandler, kind: str, limit: int = MAX_BODY) -> dict[str, Any] | None:
    """The JSON object a request's body holds, or None if it holds none (not JSON, not UTF-8, or nested deeper
    than Python's JSON reader goes: `[[[[...` within the limit); past `limit` bytes the request is refused
    (HTTP 413, `kind` named in the log line)."""
    if len(handler.request.body) > limit:
        refuse(handler, 413, f"{kind} too large")
    try:
        found = json.loads(handler.request.body or b"{}")
    except (ValueError, RecursionError):
        return None
    return found if isinstance(found, dict) else None
