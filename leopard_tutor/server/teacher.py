"""The teacher's class page on a class server, behind a token, and what it reads and does.

The token is 32 url-safe random characters made at the first start and kept in the data folder
(`TOKEN_FILE`, readable by this user only; `leopard-tutor --teacher-token` sets it). Every path below answers
HTTP 403 without it (compared in constant time); it travels as `?token=` and the page sends no Referer.

* GET  `teacher`: the page (`static/teacher.html`, with its words from the catalogue's "teacher.page");
  GET `teacher/static/teacher.js` and `teacher.css`: its script and style;
* GET  `teacher/api/class`: the students' rows (`students.Students.rows`), the class tables, the defaults and
  the choices for them; GET `teacher/api/class.csv`: the same rows as CSV;
* POST `teacher/api/defaults` {"rules", "level"}; `teacher/api/unlock` {"visitor": id | "all"};
  `teacher/api/forget` {"confirm": true};
* GET  `teacher/api/watch?table=CODE`: what a spectator may see of a class table (both squares with face-down
  cards unnamed, the discard pile, the counts), never a hand.

`routes` also gives the kernels' routes of the students (`student_handlers.py`): the class page and the
records it reads come together.
"""

from __future__ import annotations

import hmac
import html
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tornado.web import RequestHandler

from ..engine import RULE_SETS
from ..engine.catalogue import language, text, texts
from ..engine.scoring import square_value
from ..engine.view import public_square
from .class_tables import ClassTables
from .guards import BOOK, answer_in_visitors_language, refuse
from .kernel_handler import json_object
from .student_handlers import student_routes
from .students import COLUMNS, LEVEL_CHOICES, Students

TOKEN_FILE = "teacher_token"
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")
"""What a teacher's token may be: url-safe characters, 16 to 128 of them (a made one has 32)."""
STATIC = Path(__file__).resolve().parent / "static"
PAGE_FILES = {"teacher.js": "text/javascript", "teacher.css": "text/css"}
"""The page's own files, and their content types."""
MAX_BODY = 1024
"""The largest request body the page sends."""
TOKEN_PAGE = """<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{text}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"></head>
<body style="font: 1.25rem/1.5 system-ui, sans-serif; margin: 3rem auto; max-width: 36rem; padding: 0 1rem">
<main><p>{text}</p></main></body></html>"""
"""What a person who opens the class page without the teacher's token reads (in the visitor's language)."""


def kept_token(folder: Path, given: str | None = None) -> str:
    """The teacher's token kept in `folder` (mode 0600): `given` if set (it replaces the kept one), else the
    kept one, else a new one. A `given` token that is not `TOKEN` is a ValueError."""
    path = folder / TOKEN_FILE
    if given is None and path.is_file():
        return path.read_text(encoding="utf-8").strip()
    token = secrets.token_urlsafe(24) if given is None else given
    if not TOKEN.fullmatch(token):
        raise ValueError("a teacher's token is 16 to 128 letters, digits, '-' or '_'")
    folder.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(token + "\n")
    os.chmod(path, 0o600)
    return token


def teacher_link(url: str, token: str) -> str:
    """The class page's address on the server at `url` (ending in "/")."""
    return f"{url}teacher?token={quote(token)}"


@dataclass
class ClassPage:
    """What the class page's handlers share: the students, the class tables and the token."""

    students: Students
    tables: ClassTables
    token: str

    def report(self) -> dict[str, Any]:
        """What the page shows: the columns' titles, the students' rows, the open tables, the defaults and the
        choices for them."""
        self.tables.close_unjoined()
        return {
            "columns": [text(f"teacher.columns.{column}") for column in COLUMNS],
            "students": self.students.rows(BOOK.connected_visitors().__contains__),
            "tables": [{"code": code, "names": [name for name in live.row.names if name is not None]}
                       for code, live in self.tables.tables.items()],
            "defaults": self.students.defaults(),
            "choices": {"rules": [[key, text(f"rules.{key}")] for key in RULE_SETS],
                        "levels": [[level, text(f"levels.names.{level}")] for level in LEVEL_CHOICES]},
        }

    def watch(self, code: str) -> dict[str, Any]:
        """What a spectator may see of table `code`: both squares (face-down cards unnamed), the discard pile
        and the counts, as words and cells; {"gone": words} if it is not open."""
        live = self.tables.tables.get(code)
        if live is None:
            return {"code": code, "gone": text("teacher.watch.gone", code=code)}
        names = [name or "" for name in live.row.names]
        if live.row.visitors[1] is None:
            return {"code": code, "names": names, "waiting": text("teacher.watch.waiting", code=code)}
        match = live.match
        hand = match.current
        squares = []
        for owner in (0, 1):
            square = public_square(hand, owner)
            spaces = []
            for space in (label for row in hand.rules.grid for label in row):  # as the rule set draws them
                top = square.top(space)
                face = None if top is None else str(top[0]) if top[1] else text("teacher.watch.face_down")
                spaces.append({"space": space, "top": face, "pile": len(square.pile(space))})
            value = square_value(square, hand.rules)
            squares.append({"title": text("teacher.watch.square", name=names[owner], value=value), "spaces": spaces})
        discards = [str(card) for card in hand.discards]
        totals = match.totals
        return {
            "code": code, "names": names, "squares": squares,
            "lines": [
                text("teacher.watch.discards", cards=" ".join(discards)) if discards
                else text("teacher.watch.no_discards"),
                text("teacher.watch.stock", count=hand.stock_size),
                *(text("teacher.watch.hand", name=names[seat], count=len(hand.hands[seat])) for seat in (0, 1)),
                text("teacher.watch.totals", first=names[0], first_total=totals[0], second=names[1],
                     second_total=totals[1], hand=match.hand_number, hands=match.hands),
            ],
        }


class TeacherHandler(RequestHandler):
    """A handler of the class page: it answers only a request with the teacher's token (else HTTP 403)."""

    page: ClassPage

    def initialize(self, page: ClassPage) -> None:
        """Given by the route: the class page."""
        self.page = page

    def check_xsrf_cookie(self) -> None:
        """No XSRF cookie: the token, which no other site knows, proves the request is the teacher's."""

    def prepare(self) -> None:
        """Refuse (403) a request without the teacher's token; no answer is cached, framed or sends a Referer.
        Every answer is in the teacher's language (`guards.answer_in_visitors_language`: the page's script names
        the page's language in each request it makes)."""
        answer_in_visitors_language(self)
        shown = self.get_query_argument("token", "")
        if not hmac.compare_digest(shown.encode(), self.page.token.encode()):
            refuse(self, 403, "the class page needs the teacher's token",
                   page=TOKEN_PAGE.format(lang=language(), text=html.escape(text("teacher.needs_token"))))
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("X-Frame-Options", "DENY")


class PageHandler(TeacherHandler):
    """The class page: its HTML with the catalogue's words and the token for its script."""

    def get(self) -> None:
        """The page."""
        page = (STATIC / "teacher.html").read_text(encoding="utf-8")
        words = json.dumps(texts("teacher.page")).replace("<", "\\u003c")
        page = page.replace("__TEXTS__", words).replace("__TOKEN__", quote(self.page.token))
        page = page.replace("__TITLE__", html.escape(text("teacher.page.title"))).replace("__LANG__", language())
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; "
                        "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'")
        self.finish(page)


class FileHandler(TeacherHandler):
    """The page's script and style."""

    def get(self, name: str) -> None:
        """teacher.js or teacher.css."""
        self.set_header("Content-Type", f"{PAGE_FILES[name]}; charset=utf-8")
        self.finish((STATIC / name).read_text(encoding="utf-8"))


class ApiHandler(TeacherHandler):
    """What the page reads and does (`action` is the last part of the path)."""

    def _answer(self, data: Any) -> None:
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(data))

    def get(self, action: str) -> None:
        """class, class.csv, watch."""
        if action == "class":
            self._answer(self.page.report())
        elif action == "class.csv":
            self.set_header("Content-Type", "text/csv; charset=utf-8")
            self.set_header("Content-Disposition", 'attachment; filename="class.csv"')
            self.finish(self.page.students.csv(BOOK.connected_visitors().__contains__))
        elif action == "watch":
            self._answer(self.page.watch(self.get_query_argument("table", "").strip().upper()[:8]))
        else:
            refuse(self, 404, "no such class page request")

    def post(self, action: str) -> None:
        """defaults, unlock, forget."""
        body = json_object(self, "a class page request", MAX_BODY)
        if body is None:
            refuse(self, 400, "a class page request that is not a JSON object")
        students = self.page.students
        if action == "defaults":
            rules, level = body.get("rules"), body.get("level")
            if not all(choice is None or isinstance(choice, str) for choice in (rules, level)):
                refuse(self, 400, "rules and level are names (or null)")
            try:
                students.set_defaults(rules or None, level or None)
            except ValueError:
                refuse(self, 400, "unknown rules or level")
            self._answer(students.defaults())
        elif action == "unlock":
            who = body.get("visitor")
            if not isinstance(who, str):
                refuse(self, 400, "unlock whom?")
            self._answer({"unlocked": students.unlock(who)})
        elif action == "forget":
            if body.get("confirm") is not True:
                refuse(self, 400, "forgetting the class needs a confirmation")
            self._answer({"forgotten": students.forget()})
        else:
            refuse(self, 404, "no such class page request")


def routes(base_url: str, data_dir: Path, tables: ClassTables, limit: int) -> list[tuple[str, Any, dict[str, Any]]]:
    """The routes of the class page and of the students' kernels under the server's `base_url`: the students are
    kept beside `tables` (at most `limit` live), the token in `data_dir`."""
    students = Students(tables.store, limit=limit)
    page = {"page": ClassPage(students, tables, kept_token(data_dir))}
    base = f"{base_url.rstrip('/')}/teacher"
    return [*student_routes(base_url, students),
            (base, PageHandler, page),
            (rf"{base}/static/(teacher\.js|teacher\.css)", FileHandler, page),
            (rf"{base}/api/(class|class\.csv|watch|defaults|unlock|forget)", ApiHandler, page)]
