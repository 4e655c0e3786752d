"""The class server's own pages speak each visitor's language, not the server's: a link's ?lang=, else the
learner's choice the page keeps in a cookie, else the browser's Accept-Language, else the server's. One
visitor's language never leaks into another's answer (each request answers in a context of its own).
Checked on the handlers' language choice in-process and on the real session server (the class page, its
API and CSV, the page that asks for the token, /logout)."""

from __future__ import annotations

import asyncio
import contextvars
import csv
import html
import io
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from kernel_client import run
from spoken import group_in, in_language
from tornado.web import Finish

from leopard_tutor.engine import catalogue
from leopard_tutor.engine.catalogue import text
from leopard_tutor.protocol import LANGUAGE_COOKIE
from leopard_tutor.server import guards, visits
from leopard_tutor.server.state import SETTING, ServerState
from leopard_tutor.server.students import COLUMNS
from leopard_tutor.server.teacher import CSV_MARK, TOKEN_FILE
from leopard_tutor.server.waiting_line import ClassLine


class Request:
    """The part of a tornado request the guards read."""

    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers
        self.method, self.uri, self.remote_ip = "GET", "/", "127.0.0.1"


class Handler:
    """A stand-in for a tornado handler: its query, cookies and headers, and what it answered."""

    def __init__(self, query: dict[str, str] | None = None, cookies: dict[str, str] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.query, self.cookies = query or {}, cookies or {}
        self.request = Request(headers or {})
        self.current_user, self.settings = "visitor-1", {"base_url": "/", SETTING: ServerState()}
        self.status, self.answer, self.sent_headers = 200, "", {}  # type: tuple[int, str, dict[str, str]]

    def get_query_argument(self, name: str, default: str | None = None) -> str | None:
        return self.query.get(name, default)

    def get_cookie(self, name: str) -> str | None:
        return self.cookies.get(name)

    def set_status(self, status: int) -> None:
        self.status = status

    def set_header(self, name: str, value: str) -> None:
        self.sent_headers[name] = value

    def finish(self, answer: str) -> None:
        self.answer = answer


def chosen(handler: Handler) -> str:
    return contextvars.copy_context().run(guards.answer_in_visitors_language, handler)


def test_a_visitors_language_is_the_link_then_the_choice_then_the_browser_then_the_servers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEOPARD_TUTOR_LANGUAGE", raising=False)
    assert chosen(Handler()) == "en"
    assert chosen(Handler(headers={"Accept-Language": "fr-FR,es;q=0.8,en;q=0.5"})) == "es"
    assert chosen(Handler(cookies={LANGUAGE_COOKIE: "en"}, headers={"Accept-Language": "es"})) == "en"
    assert chosen(Handler(query={"lang": "es"}, cookies={LANGUAGE_COOKIE: "en"})) == "es"
    assert chosen(Handler(query={"lang": "xx"}, cookies={LANGUAGE_COOKIE: "es"})) == "es"  # unknown: passed over
    hostile = {LANGUAGE_COOKIE: "<script>" * 50}
    assert chosen(Handler(cookies=hostile, headers={"Accept-Language": "x" * 10_000})) == "en"
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    assert chosen(Handler()) == "es"
    assert chosen(Handler(headers={"Accept-Language": "en-GB"})) == "en"
    assert catalogue.language() == "es", "the choice lasted only as long as its own context"


def test_two_visitors_answered_at_once_each_get_their_own_language() -> None:
    """Two requests interleaved on one event loop, as tornado runs them: each reads its own language after the
    other has chosen."""

    async def answer(handler: Handler, other_chose: asyncio.Event, chose: asyncio.Event) -> str:
        guards.answer_in_visitors_language(handler)
        chose.set()
        await other_chose.wait()
        return text("app.no_logout")

    async def both() -> list[str]:
        first, second = asyncio.Event(), asyncio.Event()
        return list(await asyncio.gather(
            answer(Handler(query={"lang": "es"}), second, first),
            answer(Handler(headers={"Accept-Language": "en"}), first, second)))

    spanish, english = run(both())  # in a thread of its own: an earlier test may have left a loop running
    assert spanish == in_language("es", "app.no_logout") != english == in_language("en", "app.no_logout")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_full_class_page_speaks_the_visitors_language(lang: str) -> None:
    handler = Handler(headers={"Accept-Language": lang})

    def visit() -> None:
        guards.answer_in_visitors_language(handler)
        visits.visit_refusal(handler, ServerState(limit=0))

    with pytest.raises(Finish):
        contextvars.copy_context().run(visit)
    assert handler.status == 503
    assert handler.answer.startswith(f'<!doctype html><html lang="{lang}">')
    assert in_language(lang, "app.class_full", sessions=0) in handler.answer


def test_the_waiting_line_speaks_the_language_its_page_names() -> None:
    """The waiting page asks for its place with its own language in the link; the answer's words are in it."""
    line = ClassLine()
    ticket = line.line.join("visitor-1")
    handler = Handler(query={"lang": "es"})

    def page() -> tuple[str, dict[str, Any]]:
        guards.answer_in_visitors_language(handler)
        visits.waiting_page(handler, line)
        return handler.answer, line.place(ticket, None)

    line.free = lambda manager: 0  # type: ignore[method-assign]  # no place free: everybody waits
    answer, place = contextvars.copy_context().run(page)
    assert '<html lang="es">' in answer and '&lang=es"' in answer
    assert place["text"] == in_language("es", "app.preparing", ahead=place["ahead"])


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """(HTTP status, body) of a GET."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


@pytest.fixture(scope="module")
def teacher(app_server: Any) -> tuple[str, str]:
    """The session server's address and its teacher's token (kept in its data folder)."""
    return app_server.url, (Path(app_server.log).parent / "data" / TOKEN_FILE).read_text().strip()


def test_the_class_page_speaks_the_teachers_language(teacher: tuple[str, str]) -> None:
    url, token = teacher
    for lang, how in (("es", {"Accept-Language": "es-ES,es;q=0.9"}), ("es", {"Cookie": f"{LANGUAGE_COOKIE}=es"}),
                      ("en", {"Accept-Language": "en-GB"}), ("en", {})):
        code, page = fetch(f"{url}teacher?token={token}", how)
        assert code == 200 and f'<html lang="{lang}" data-theme="auto">' in page, how
        assert json.dumps(group_in(lang, "teacher.page")).replace("<", "\\u003c") in page
    code, page = fetch(f"{url}teacher?token={token}&lang=es", {"Accept-Language": "en"})
    assert f'<title>{in_language("es", "teacher.page.title")}</title>' in page


def test_the_class_pages_answers_and_csv_speak_the_language_the_page_names(teacher: tuple[str, str]) -> None:
    url, token = teacher
    for lang in ("es", "en"):
        code, body = fetch(f"{url}teacher/api/class?token={token}&lang={lang}", {"Accept-Language": "fr"})
        assert code == 200
        assert json.loads(body)["columns"] == [in_language(lang, f"teacher.columns.{column}") for column in COLUMNS]
        code, body = fetch(f"{url}teacher/api/class.csv?token={token}&lang={lang}")
        assert next(csv.reader(io.StringIO(body.removeprefix(CSV_MARK)))) == [
            in_language(lang, f"teacher.columns.{c}") for c in COLUMNS]
        code, body = fetch(f"{url}teacher/api/watch?table=KRTQ&token={token}&lang={lang}")
        assert json.loads(body)["gone"] == in_language(lang, "teacher.watch.gone", code="KRTQ")


def test_the_page_that_asks_for_the_token_and_logout_speak_the_visitors_language(teacher: tuple[str, str]) -> None:
    url, _ = teacher
    for lang in ("es", "en"):
        code, page = fetch(f"{url}teacher", {"Accept-Language": lang})
        assert code == 403 and f'<html lang="{lang}">' in page
        assert html.escape(in_language(lang, "teacher.needs_token")) in page
        code, words = fetch(f"{url}logout", {"Accept-Language": lang})
        assert code == 404 and words == in_language(lang, "app.no_logout") + "\n"
