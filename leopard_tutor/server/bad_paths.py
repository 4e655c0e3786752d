"""Paths the class server refuses before any of Voilà's handlers sees them: no page of it asks for them, and
Voilà's own handlers would answer them with HTTP 500 and a traceback in the log.

* A path holding a control character (`%00`, CR LF, ...) or bytes that are not UTF-8 (`BadPath`): Voilà's page
  handler takes any path but the notebook's for a file and redirects to it, and tornado refuses to write such a
  path into the redirect's Location header (ValueError: unsafe header value).
* A path under voila/templates/ that is not <template>/static/<file> (`TEMPLATE_FILE`): Voilà's handler of the
  templates' files splits the path in three and asserts that the middle part is "static".

Each is one refusal (`guards.refuse`, one log line): HTTP 400 (`UnreadablePath`) and 404 (`NoTemplateFile`).
`rules` gives them, to come first among the application's handlers (`launch.class_server`).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote_to_bytes

from tornado.httputil import HTTPServerRequest
from tornado.routing import Matcher, PathMatches, Rule
from tornado.web import RequestHandler

from .guards import refuse

CONTROL_BYTES = re.compile(rb"[\x00-\x1f\x7f]")
SEGMENT = r"[A-Za-z0-9_-][A-Za-z0-9_.-]*"
"""A part of a path the templates' files have: letters, digits, '_', '-' and dots, not starting with a dot."""
TEMPLATE_FILE = rf"[A-Za-z0-9_-]+/static/(?:{SEGMENT}/)*{SEGMENT}"
"""What may follow voila/templates/ (as a browser sends it, not decoded): a template's name, static, a file."""


def unreadable(path: str) -> bool:
    """Whether a request's path (as sent, percent-encoded) decodes to bytes that are not UTF-8 text or hold a
    control character."""
    decoded = unquote_to_bytes(path)
    if CONTROL_BYTES.search(decoded):
        return True
    try:
        decoded.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


class BadPath(Matcher):
    """Matches a request whose path is `unreadable`."""

    def match(self, request: HTTPServerRequest) -> dict[str, Any] | None:
        """{} (a match, with nothing to pass on) for an unreadable path, else None."""
        return {} if unreadable(request.path or "") else None


class UnreadablePath(RequestHandler):
    """Refuses (HTTP 400) every request it is given, whatever its method."""

    def prepare(self) -> None:
        """Refuse (`guards.refuse`)."""
        refuse(self, 400, "a path holding a control character or bytes not UTF-8")


class NoTemplateFile(RequestHandler):
    """Refuses (HTTP 404) every request it is given, whatever its method."""

    def prepare(self) -> None:
        """Refuse (`guards.refuse`)."""
        refuse(self, 404, "no such template file")


def rules(base_url: str) -> list[Rule]:
    """The rules of the refused paths under the server's `base_url` (ending in "/")."""
    return [Rule(BadPath(), UnreadablePath),
            Rule(PathMatches(rf"{re.escape(base_url)}voila/templates/(?!{TEMPLATE_FILE}$).*"), NoTemplateFile)]
