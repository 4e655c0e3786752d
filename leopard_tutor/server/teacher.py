"""The teacher's class page on a class server, behind a token, and what it reads and does.

The token is 32 url-safe random characters made at the first start and kept in the data folder
(`TOKEN_FILE`, readable by this user only; `leopard-tutor --teacher-token` sets it). Every path below answers
HTTP 403 without it (compared in constant time); it travels as `?token=` and the page sends no Referer. The page
then takes it out of its own address, since a class page is projected: a cookie (`PAGE_COOKIE`: HttpOnly,
SameSite=Strict, for the page's own path) brings a reload of the page back, and only the page itself (a GET of
`teacher`: nothing it answers changes anything) accepts it; its script, styles and every request of the api still
need `?token=`, which the page carries in its scripts' addresses.

* GET  `teacher`: the page (`static/teacher.html`, with its words from the catalogue's "teacher.page");
  GET `teacher/static/teacher.js`, `teacher_join.js` and `teacher.css`: its scripts and style;
* GET  `teacher/api/class`: the rows of the students seen last (`students.Students.rows`) and how many of how
  many they are, the class tables, the defaults and the choices for them, the standings (`standings.py`); GET
  `teacher/api/class.csv`: every student's row as CSV, then the standings of all time;
* POST `teacher/api/defaults` {"rules", "level"}; `teacher/api/unlock` {"visitor": id | "all"};
  `teacher/api/forget` {"confirm": true}; `teacher/api/pair` {"rules", "hands"}: pair the next round of every
  student present (`ClassPage.pair`); `teacher/api/end` {"table": CODE}: end that class table (`ClassPage.end_table`);
  `teacher/api/end_round` {"round": NUMBER}: end the tables of that round still in play (`ClassPage.end_round`); these
  three answered {"said": what was done, in words} (HTTP 400 {"said": why not} if nothing was done);
* GET  `teacher/api/watch?table=CODE`: what a spectator may see of a class table (both squares with face-down
  cards unnamed, the stock, the discard pile, whose turn it is, the counts and scores, as the board's state), never
  a hand;
  GET `teacher/static/cards.js` and `board.css`: the board's own drawing of a card and its style, with which
  the page draws it;
* GET  `teacher/api/join.svg?address=URL`: the QR code of the address students join by (`join.py`; the page
  decides which address, `teacher_join.js`).

`routes` also gives the kernels' routes of the students (`student_handlers.py`): the class page and the
records it reads come together.
"""

from __future__ import annotations

import contextlib
import csv
import hmac
import html
import io
import json
import re
import secrets
import time
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tornado.iostream import StreamClosedError
from tornado.web import RequestHandler

from ..board_parts import discard_part, square_part, stock_part
from ..class_codes import ClassTableError
from ..engine import RULE_SETS
from ..engine.catalogue import language, text, texts
from ..engine.turns import current_player
from ..engine.view import public_square
from ..protocol import COMPUTER, FINISHED, LEFT, LEVEL_CHOICES, MATCH_LENGTHS, theme_of
from .class_store import (
    ABANDONED,
    DAMAGED,
    TEACHER,
    RoundMatch,
    StoreWriteError,
    TableRow,
    WriteFailures,
)
from .data_folder import TOKEN_FILE as TOKEN_FILE  # where the token is kept
from .data_folder import make_private, read_private, write_private
from .guards import answer_in_visitors_language, refuse
from .join import JoinError, qr_svg
from .kernel_handler import json_object
from .referee import QUIET_SECONDS, LiveTable, Referee
from .sessions import SessionBook
from .standings import STANDING_COLUMNS, gone_seat, local_midnight, points, results, scored
from .student_handlers import student_routes
from .students import COLUMNS, Presence, Students, not_a_formula

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")
"""What a teacher's token may be: url-safe characters, 16 to 128 of them (a made one has 32)."""
STATIC = Path(__file__).resolve().parent / "static"
BOARD_STATIC = Path(__file__).resolve().parent.parent / "widgets" / "static"
PAGE_FILES = {"teacher.js": (STATIC, "text/javascript"), "teacher_join.js": (STATIC, "text/javascript"),
              "teacher.css": (STATIC, "text/css"),
              "cards.js": (BOARD_STATIC, "text/javascript"), "board.css": (BOARD_STATIC, "text/css")}
"""The page's files, where they are and their content types: its own, and the board's drawing of a card and
the board's style, with which its watch view draws a table as the board does."""
MAX_BODY = 1024
"""The largest request body the page sends."""
TOKEN_PAGE = """<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{text}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"></head>
<body style="font: 1.25rem/1.5 system-ui, sans-serif; margin: 3rem auto; max-width: 36rem; padding: 0 1rem">
<main><p>{text}</p></main></body></html>"""
"""What a person who opens the class page without the teacher's token reads (in the visitor's language)."""


def kept_token(folder: Path, given: str | None = None) -> str:
    """The teacher's token kept in `folder` (mode 0600, in a private folder: `data_folder.py`): `given` if set (it
    replaces the kept one), else the kept one, else a new one (also in place of a kept one that is not `TOKEN`, such
    as the empty file a failed write leaves, which would let anyone in). A `given` token that is not `TOKEN` is a
    ValueError; a token that cannot be kept, a `DataFolderError`."""
    if given is not None and not TOKEN.fullmatch(given):
        raise ValueError("a teacher's token is 16 to 128 letters, digits, '-' or '_'")
    path = folder / TOKEN_FILE
    kept = read_private(path) if given is None else None
    if kept is not None and TOKEN.fullmatch(found := kept.decode("utf-8", "replace").strip()):
        return found
    token = secrets.token_urlsafe(24) if given is None else given
    make_private(folder)
    write_private(path, (token + "\n").encode())
    return token


def not_stored(failures: WriteFailures) -> str | None:
    """The class page's line about the changes the store could not keep since the server started (`failures`):
    how many, the last one's time and why; None if there were none."""
    if not failures.count or failures.kind is None or failures.at is None:
        return None
    return text("teacher.not_stored", count=failures.count, time=time.strftime("%H:%M", time.localtime(failures.at)),
                reason=text(f"teacher.store_failures.{failures.kind}"))


def teacher_link(url: str, token: str) -> str:
    """The class page's address on the server at `url` (ending in "/")."""
    return f"{url}teacher?token={quote(token)}"


@dataclass
class ClassPage:
    """What the class page's handlers share: the students, the class tables, the token and the server's sessions
    (whose pages are connected)."""

    students: Students
    tables: Referee
    token: str
    book: SessionBook = field(default_factory=SessionBook)
    listening: str | None = None
    """The address students type to reach the server (`launch.classroom_url`), when it listens beyond this
    machine; the page shows it when it was itself opened on this machine's own name (`teacher_join.js`)."""
    theme: str = "auto"
    """The server's theme (`leopard-tutor --theme`, as the app's page has it: `launch.configured_theme`): "light" or
    "dark", the page's where its address asks for none; "auto" follows the browser."""

    def report(self) -> dict[str, Any]:
        """What the page shows: the columns' titles and keys (`students.COLUMNS`, in the same order), the students'
        rows (those here now, and the `students.PAGE_ROWS` seen last, each with "labels": its button's names for a
        screen reader), how many of how many are shown (a sentence, empty when every one is), the open tables
        (`table_line`), those closed lately, the defaults and the choices for them, the round (`round_said`), and
        the standings:
        {"today" (the matches ended since the server's local midnight), "all": rows of {"name", "played", "won",
        "drawn", "lost", "for", "against"} (`standings.standings`), "counts": the sentence saying what they count,
        "columns": {key: title}, in the rows' order}."""
        with contextlib.suppress(StoreWriteError):  # logged and counted by the store; the page says so below
            self.tables.sweep()
        here = self.book.connected_visitors()
        rows = self.students.rows(self.presence(here), here=here)
        for row in rows:  # what a screen reader names the row's button: whose it is
            name = row["cells"][0]["text"]
            row["labels"] = {key: text(f"teacher.labels.{key}", name=name) for key in ("unlock", "unlocked")}
        total = self.students.count()
        return {
            "columns": [text(f"teacher.columns.{column}") for column in COLUMNS],
            "column_keys": list(COLUMNS),
            "students": rows,
            "shown": text("teacher.shown", shown=len(rows), total=total) if len(rows) < total else "",
            "tables": [self.table_line(code, live) for code, live in self.tables.tables.items()],
            "closed": self.closed_lately(),
            "defaults": self.students.defaults(),
            "unlocked_class": text("teacher.unlock_class_done") if self.students.class_unlocked() else "",
            "not_stored": not_stored(self.tables.store.failures),
            "choices": {"rules": [[key, text(f"rules.{key}")] for key in RULE_SETS],
                        "levels": [[level, text(f"levels.names.{level}")] for level in LEVEL_CHOICES]},
            "round": self.round_said(),
            "standings": {
                "today": self.tables.standings(since=local_midnight(self.tables.clock())),
                "all": self.tables.standings(),
                "counts": text("teacher.standings.counts"),
                "columns": {column: text(f"teacher.standings.columns.{column}") for column in STANDING_COLUMNS},
            },
        }

    def table_line(self, code: str, live: LiveTable) -> dict[str, Any]:
        """A live table as the page lists it: {"code", "names", "note" (its players gone, if any), "labels" (what a
        screen reader names its buttons: "watch", "stop_watching", "end"), "end_confirm" (asked before ending it)}."""
        names = [name for name in live.row.names if name is not None]
        both = " \u2013 ".join(names)
        return {"code": code, "names": names, "note": " ".join(self.gone_words(live)),
                "labels": {key: text(f"teacher.labels.{key}", code=code, names=both)
                           for key in ("watch", "stop_watching", "end")},
                "end_confirm": text("teacher.end.confirm", code=code, names=both)}

    def round_said(self) -> dict[str, Any]:
        """The round paired last: {"number" (0 before the first), "said": when, under which rules and length,
        "rules", "hands" (its own, once there is one)}, the lengths a round's matches may have, as [[hands, words]],
        and "refused": why the next round cannot be paired now, in words ("" if it can)."""
        row = self.tables.round
        lengths = [[hands, text("teacher.rounds.hands", hands=hands)] for hands in MATCH_LENGTHS]
        refusal = self.tables.pair_refusal(self.connected_named(), set(self.still_playing(self.tables.round_matches())))
        refused = "" if refusal is None else refusal.words
        if row is None:
            return {"number": 0, "said": "", "lengths": lengths, "in_play": 0, "end_confirm": "", "refused": refused}
        in_play = len(self.tables.round_tables())
        return {"number": row.number, "lengths": lengths, "rules": row.rules, "hands": row.hands, "refused": refused,
                "said": text("teacher.rounds.last", number=row.number, rules=text(f"rules.{row.rules}"),
                             when=self.paired_when(row.started), hands=row.hands),
                "in_play": in_play,
                "end_confirm": text("teacher.end.round_confirm", number=row.number, tables=in_play) if in_play else ""}

    def paired_when(self, started: float) -> str:
        """When a round paired at `started` was paired, in words: its time, and its date too if that was before
        today (the server's local day)."""
        paired = time.localtime(started)
        hour = time.strftime("%H:%M", paired)
        if started >= local_midnight(self.tables.clock()):
            return text("teacher.rounds.when.today", time=hour)
        return text("teacher.rounds.when.earlier", time=hour, date=time.strftime("%Y-%m-%d", paired))

    def end_table(self, code: object) -> str:
        """End the class table `code` for both its players (`Referee.end_by_teacher`): what was done, in words. A
        `ClassTableError` if there is no such table in play."""
        row = self.tables.end_by_teacher(code)
        if row.visitors[1] is None:
            return text("teacher.end.ended_waiting", code=row.code, name=row.names[0] or "")
        return text("teacher.end.ended", code=row.code)

    def end_round(self, number: object) -> str:
        """End every table of round `number` (the round paired last) still in play (`Referee.end_round`): what was
        done, in words. A `ClassTableError` if `number` is not that round or none of its tables is in play."""
        ended = self.tables.end_round(number)
        return text("teacher.end.round_ended", number=number, tables=len(ended))

    def pair(self, rules: object, hands: object) -> str:
        """Pair the next round (`Referee.pair`) of the named students whose page is connected now, under `rules`
        (None: the class's default rules, else the revised rules) for matches of `hands`; the one left over plays the
        computer at the class's default level (else the beginner). What was done, in words; a `ClassTableError` if
        nothing could be."""
        defaults = self.students.defaults()
        level = defaults["level"] or LEVEL_CHOICES[0]
        rules = rules or defaults["rules"] or "REVISED_2008"
        named = self.connected_named()
        before, last = self.tables.round_matches(), self.tables.round
        done = self.tables.pair(named, rules, hands, level, playing=set(self.still_playing(before)))
        said = [text("teacher.rounds.paired", number=done["round"], tables=len(done["tables"]))]
        if done["computer"] is not None:
            said.append(text("teacher.rounds.computer", name=done["computer"], level=text(f"levels.names.{level}")))
        if done["busy"]:
            said.append(text("teacher.rounds.busy", count=done["busy"]))
        said += self.interrupted(before, None if last is None else last.rules)
        return " ".join(said)

    def connected_named(self) -> dict[str, str]:
        """The named students whose page is connected now, by visitor: their names (those a round pairs)."""
        return self.tables.store.names_of(self.book.connected_visitors())

    def waiting_for(self) -> dict[str, str]:
        """The students at a table between classmates whose classmate is to move, by visitor: that classmate's name
        (a student who waits for a move sends no news, and is not idle for it)."""
        found = {}
        for live in self.tables.tables.values():
            player, visitors = current_player(live.match.current), live.row.visitors
            if player is not None and visitors[1] is not None and visitors[1 - player] is not None:
                found[str(visitors[1 - player])] = live.row.names[player] or ""
        return found

    def still_playing(self, given: dict[str, RoundMatch]) -> dict[str, str]:
        """Of the students the last round gave a match against the computer (`given`), those whose page said last that
        they play it (of their pages connected now, if one has said: `SessionBook.doings`), by visitor: their names."""
        doings = self.book.doings()
        return {student.visitor: student.name for student in self.students.store.students_of(list(given))
                if (doings.get(student.visitor) or student.doing or {}).get("match") == given[student.visitor].match}

    def interrupted(self, before: dict[str, RoundMatch], rules: str | None) -> list[str]:
        """A sentence for each student the round just paired whose page said last that they play the match against
        the computer the round before gave them (`before`, under `rules`; a page says so from the moment the round
        dealt it, until it is over): their page keeps it aside (they sit at a table now, or play the computer under
        other rules), or it ends (they play the computer again under the same rules)."""
        row, words = self.tables.round, []
        for visitor, name in self.still_playing(before).items():
            seat = self.tables.round_seats.get(visitor)
            if row is None or seat is None:
                continue  # not paired this round (still at a table, or away)
            ends = seat.opponent is None and row.rules == rules
            words.append(text(f"teacher.rounds.{'replaced' if ends else 'set_aside'}", name=name,
                              number=before[visitor].number))
        return words

    def presence(self, here: Collection[str]) -> Presence:
        """What the server knows of the students now, the visitors `here` connected (`Students.rows` reads it)."""
        return Presence(here.__contains__, self.tables.tally(), self.tables.computer_matches(), self.book.left,
                        self.book.started, self.book.doings(), self.waiting_for())

    def csv_parts(self) -> Iterator[str]:
        """The class as CSV, in parts: every student's row (`Students.csv_parts`), then a blank line and the
        standings of all time, under a line that says so and their columns' titles."""
        yield from self.students.csv_parts(self.presence(self.book.connected_visitors()))
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([])
        writer.writerow([text("teacher.standings.csv_title")])
        writer.writerow([text(f"teacher.standings.columns.{column}") for column in STANDING_COLUMNS])
        for row in self.tables.standings():
            writer.writerow([not_a_formula(str(row[column])) for column in STANDING_COLUMNS])
        yield out.getvalue()

    def watch(self, code: str) -> dict[str, Any]:
        """What a spectator may see of table `code`, in the board's own terms (`board_parts`) so that the page
        draws it as the board does: both squares ("squares": `square_part`, each with a "title" saying whose and
        its value; a face-down card is only "face_down", never its rank or suit), the stock and the discard pile
        ("stock", "discard") and, as "lines", whose turn it is (the turn runner's `current_player`; once a hand is
        over, that the next is to be dealt), how many cards each hand holds and the match's scores; never a card
        of a hand. Every word is in the language of the request. {"gone": words} if it is not open, {"waiting":
        words} before its second player."""
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
            part = square_part(square, hand.rules, key=owner, label=text("play.people.square", name=names[owner]),
                               side=("yours", "theirs")[owner])
            part["title"] = text("teacher.watch.square", name=names[owner], value=part["value"])
            squares.append(part)
        totals = match.totals
        player = current_player(hand)
        turn = (text("teacher.watch.hand_over", hand=match.hand_number) if player is None
                else text("teacher.watch.turn", name=names[player]))
        return {
            "code": code, "names": names, "squares": squares,
            "stock": stock_part(hand.stock_size), "discard": discard_part(hand.discards),
            "lines": [
                turn,
                *(text("teacher.watch.hand", name=names[seat], count=len(hand.held[seat])) for seat in (0, 1)),
                text("teacher.watch.totals", first=names[0], first_total=totals[0], second=names[1],
                     second_total=totals[1], hand=match.hand_number, hands=match.hands),
                *self.gone_words(live),
            ],
        }

    def closed_lately(self) -> dict[str, Any]:
        """The tables two classmates sat at that closed while they rest (`QUIET_SECONDS`), the latest first, each with
        how it closed and how it counts: {"title", "none" (said when there is none), "tables": [{"code", "names",
        "said"}]}. Its players are named as the standings name them: by the name each goes by now (one renamed since
        is not named by a name another student may have taken), or the one played under where no record keeps one."""
        minutes = round(QUIET_SECONDS / 60)
        closed = [table.row for table in self.tables.closed_lately()]
        now_named = self.tables.store.names_of({visitor for row in closed for visitor in row.visitors if visitor})
        rows = [replace(row, names=(now_named.get(row.visitors[0], row.names[0]),
                                    None if row.visitors[1] is None or row.names[1] is None
                                    else now_named.get(row.visitors[1], row.names[1])))
                for row in closed]
        return {"title": text("teacher.closed.title", minutes=minutes),
                "none": text("teacher.closed.none", minutes=minutes),
                "tables": [{"code": row.code, "names": [name or "" for name in row.names], "said": closed_words(row)}
                           for row in rows]}

    def gone_words(self, live: LiveTable) -> list[str]:
        """A sentence for each player at `live` gone (not heard from for `GONE_SECONDS`): the one left may finish
        against the computer, and Next round does not seat them meanwhile."""
        now = self.tables.clock()
        return [text("teacher.watch.player_gone", name=live.row.names[seat] or "") for seat in live.seated
                if live.row.visitors[1] is not None and live.gone(seat, now)]


def closed_words(row: TableRow) -> str:
    """How the closed table of `row` ended, and how its match counts in the standings (`standings.results`), with
    the points it counts (`standings.points`), or that it counts none where no hand of it finished."""
    names, ending, gone = [name or "" for name in row.names], str(row.ending), gone_seat(row)
    if ending == LEFT and gone is not None:
        how = text("teacher.closed.how.left", name=names[gone])
    elif ending.startswith(COMPUTER) and gone is not None:
        how = text("teacher.closed.how.computer", name=names[gone], other=names[1 - gone],
                   level=text(f"levels.in_sentence.{ending.removeprefix(COMPUTER)}"))
    elif ending in (FINISHED, ABANDONED, DAMAGED, TEACHER):
        how = text(f"teacher.closed.how.{ending}")
    else:
        how = text("teacher.closed.how.other")
    counted, scores = results(row), points(row)
    if counted is None:
        count = text("teacher.closed.counted.nobody")
    elif counted[0] == "drawn":
        count = text("teacher.closed.counted.drawn", points=scores[0])
    else:
        winner = 0 if counted[0] == "won" else 1
        sides = {"winner": names[winner], "loser": names[1 - winner]}
        if not scored(row):
            count = text("teacher.closed.counted.won_unplayed", **sides)
        else:
            count = text("teacher.closed.counted.won", **sides, winner_points=scores[winner],
                         loser_points=scores[1 - winner])
    return text("teacher.closed.line", how=how, counted=count)


CSV_MARK = "\ufeff"
"""The byte-order mark the class's CSV begins with: without it, a spreadsheet may read its UTF-8 (names such as
"José") as another encoding."""


PAGE_COOKIE = "lt_teacher"
"""The cookie that holds the teacher's token for a reload of the class page, whose address no longer shows it."""


class TeacherHandler(RequestHandler):
    """A handler of the class page: it answers only a request with the teacher's token (else HTTP 403)."""

    page: ClassPage
    by_cookie = False
    """Whether the token may come in `PAGE_COOKIE` instead of `?token=` (the page's own GET only)."""

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
        if not shown and self.by_cookie:
            shown = self.get_cookie(PAGE_COOKIE, "") or ""
        if not hmac.compare_digest(shown.encode(), self.page.token.encode()):
            refuse(self, 403, "the class page needs the teacher's token",
                   page=TOKEN_PAGE.format(lang=language(), text=html.escape(text("teacher.needs_token"))))
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("X-Frame-Options", "DENY")

    def log_exception(self, kind: Any, value: Any, trace: Any) -> None:
        """No traceback for a change the store could not keep: the store has logged it in one line."""
        if not isinstance(value, StoreWriteError):
            super().log_exception(kind, value, trace)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """A change the store could not keep is HTTP 503, said in words (the page shows why on its next refresh)."""
        if not isinstance(kwargs.get("exc_info", (None, None))[1], StoreWriteError):
            super().write_error(status_code, **kwargs)
            return
        self.set_status(503)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(text("teacher.not_stored_now") + "\n")


class PageHandler(TeacherHandler):
    """The class page: its HTML with the catalogue's words and the token for its script; the token kept in
    `PAGE_COOKIE` for a reload, once the page has taken it out of its address. Light or dark as its address asks,
    as a link to the app may (?theme= or ?voila-theme=: `protocol.theme_of`), else as the server's theme option
    says (`ClassPage.theme`), else as the browser prefers: the app's page's order."""

    by_cookie = True

    def get(self) -> None:
        """The page."""
        self.set_cookie(PAGE_COOKIE, self.page.token, path=self.request.path, httponly=True, samesite="Strict",
                        secure=self.request.protocol == "https")
        page = (STATIC / "teacher.html").read_text(encoding="utf-8")
        words = json.dumps(texts("teacher.page")).replace("<", "\\u003c")
        page = page.replace("__TEXTS__", words).replace("__TOKEN__", quote(self.page.token))
        page = page.replace("__TITLE__", html.escape(text("teacher.page.title"))).replace("__LANG__", language())
        page = page.replace("__LISTENING__", html.escape(self.page.listening or ""))
        page = page.replace("__THEME__", theme_of(self.request.query_arguments) or self.page.theme)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; "
                        "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'")
        self.finish(page)


class FileHandler(TeacherHandler):
    """The page's scripts and styles (`PAGE_FILES`)."""

    def get(self, name: str) -> None:
        """One of `PAGE_FILES`."""
        folder, kind = PAGE_FILES[name]
        self.set_header("Content-Type", f"{kind}; charset=utf-8")
        self.finish((folder / name).read_text(encoding="utf-8"))


class ApiHandler(TeacherHandler):
    """What the page reads and does (`action` is the last part of the path)."""

    def _answer(self, data: Any) -> None:
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(data))

    async def get(self, action: str) -> None:
        """class, class.csv (every student, sent in parts so that the server answers others in between), watch,
        join.svg (the QR code of the `address` students join by)."""
        if action == "class":
            self._answer(self.page.report())
        elif action == "class.csv":
            self.set_header("Content-Type", "text/csv; charset=utf-8")
            self.set_header("Content-Disposition", 'attachment; filename="class.csv"')
            self.write(CSV_MARK)
            try:
                for part in self.page.csv_parts():
                    self.write(part)
                    await self.flush()
            except StreamClosedError:  # the teacher's download went away: nothing more to send
                return
            self.finish()
        elif action == "watch":
            self._answer(self.page.watch(self.get_query_argument("table", "").strip().upper()[:8]))
        elif action == "join.svg":
            try:
                drawn = qr_svg(self.get_query_argument("address", ""))
            except JoinError as error:
                refuse(self, 400, str(error))
            self.set_header("Content-Type", "image/svg+xml")
            self.set_header("Content-Security-Policy", "default-src 'none'")
            self.finish(drawn)
        else:
            refuse(self, 404, "no such class page request")

    def post(self, action: str) -> None:
        """defaults, unlock, forget, pair, end, end_round."""
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
            try:
                count = students.unlock(who)
            except LookupError:
                refuse(self, 400, "no such student")
            said = (text("teacher.unlocked_class") if who == "all"  # one student is named (it said "for 1 student")
                    else text("teacher.unlocked_one", name=students.name_for(who)) if count
                    else text("teacher.unlocked_none"))
            self._answer({"unlocked": count, "said": said})
        elif action == "forget":
            if body.get("confirm") is not True:
                refuse(self, 400, "forgetting the class needs a confirmation")
            self.page.tables.forget()
            self._answer({"forgotten": students.forget()})
        elif action in ("pair", "end", "end_round"):
            try:
                if action == "pair":
                    said = self.page.pair(body.get("rules"), body.get("hands", 1))
                elif action == "end":
                    said = self.page.end_table(body.get("table"))
                else:
                    said = self.page.end_round(body.get("round"))
            except ClassTableError as error:
                self.set_status(400)
                self._answer({"said": error.words})
                return
            self._answer({"said": said})
        else:
            refuse(self, 404, "no such class page request")


def routes(base_url: str, data_dir: Path, tables: Referee, limit: int, book: SessionBook,
           listening: str | None = None, theme: str = "auto") -> list[tuple[str, Any, dict[str, Any]]]:
    """The routes of the class page and of the students' kernels under the server's `base_url`: the students are
    kept beside `tables` (at most `limit` live), the token in `data_dir`; `book` holds the server's sessions;
    `listening` is the address students type, if the server listens beyond this machine; `theme` is the server's
    (`ClassPage.theme`)."""
    students = Students(tables.store, limit=limit, renamed=tables.rename)
    page = {"page": ClassPage(students, tables, kept_token(data_dir), book, listening, theme)}
    base = f"{base_url.rstrip('/')}/teacher"
    return [*student_routes(base_url, students),
            (base, PageHandler, page),
            (rf"{base}/static/(teacher\.js|teacher_join\.js|teacher\.css|cards\.js|board\.css)", FileHandler, page),
            (rf"{base}/api/(class|class\.csv|watch|join\.svg|defaults|unlock|forget|pair|end|end_round)", ApiHandler,
             page)]
