"""Serve the app with Voilà: a preheated kernel, a cap on sessions, guarded sessions (`guards.py`:
each kernel answers only the browser that opened it, sessions whose page has gone are ended, no
tracebacks reach a page), idle kernels culled, and two fixes (see ../shared/stack.md §6):

* TCP_NODELAY on the kernel websocket (`connection.GuardedConnection`, Voilà's
  `kernel_websocket_connection_class`): without it every widget round trip waits ~40 ms (Nagle's
  algorithm meeting delayed ACKs); benchmarks/app_speed.py measures both ways.
* The shutdown beacon Voilà sends when a tab closes cannot carry the XSRF header, so stock Voilà
  answers 403 and the kernel lives on. The shutdown handler here accepts a request whose Origin (or,
  lacking one, Referer) is this very server: what a browser's beacon from the app's own page carries,
  and what no other website can forge. One from another origin is refused; one naming no origin at
  all gets the stock XSRF check. Either way the session must be the requesting browser's own.

The limits of a class server (`serve`): sessions at once (by default what every limit of the machine
allows, `session_caps`: memory, open files, ZMQ sockets; the one that binds is printed at start),
sessions per visitor, websockets per session (`guards.WEBSOCKETS_PER_SESSION`); a page is only made
for a top-level visit (`guards.not_a_visit`); at start the soft open-file limit is raised to the hard
one and ZMQ's socket limit to match it (`ClassServer`), and idle or half-sent HTTP connections are
closed after `IDLE_CONNECTION_SECONDS`.

A class server also serves the class tables (`class_handlers.py`, for its pages' kernels), the students'
records (`student_handlers.py`) and the teacher's class page (`teacher.py`, behind a token), kept in the data
folder's database (`class_store.py`, `--data-dir`), where the cookie secret is kept too (`kept_secret`), so
that a browser's identity, and its seat at a table, outlive a restart.

Every method of Voilà or Jupyter server replaced here or in `guards.py` is listed in `patches.py`.
`apply_fixes()` is for standalone Voilà (this launcher); `apply_server_fixes()` is for Voilà as a
Jupyter server extension (Binder's `/voila/render/...`), called from binder/jupyter_server_config.py.
"""

from __future__ import annotations

import functools
import html
import io
import ipaddress
import json
import os
import resource
import socket
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..engine.catalogue import language, server_language, text
from ..protocol import CLASS_TABLES_ENV
from . import guards
from .authorizer import AUTHORIZER_CLASS
from .connection import CONNECTION_CLASS, STOCK_DELAY_CLASS
from .data_folder import COOKIE_SECRET_FILE, DataFolderError, make_private, read_private, write_private
from .kernel_pool import CLASS_POOL, CLASS_POOL_GROWS_TO, PoolFiller, ready_kernels
from .log_mask import mask_secrets
from .patches import version_warning
from .sessions import PAGE_GONE_SECONDS, SESSIONS_PER_VISITOR
from .waiting_line import POLL_SECONDS, TICKET_CHARACTERS, WaitingLine

NOTEBOOK_NAME = "leopard_tutor.ipynb"
LOOPBACK = "127.0.0.1"
DATA_DIR = Path(__file__).resolve().parents[1] / "share"  # holds voila/templates/leopard: the lab template, no CDN
TEMPLATE = "leopard"
REPO_NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / NOTEBOOK_NAME
CULL_IDLE_SECONDS = 600
CULL_INTERVAL_SECONDS = 60


def same_origin(headers: Any, host: str) -> bool:
    """Whether a request comes from a page of this server: its Origin, or else its Referer, names `host`."""
    source = headers.get("Origin") or headers.get("Referer") or ""
    parts = urlsplit(source)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host


def _accept_shutdown_beacon() -> None:
    from tornado.web import HTTPError
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    if getattr(VoilaShutdownKernelHandler, "_leopard_beacon", False):
        return
    checked = VoilaShutdownKernelHandler.check_xsrf_cookie

    def check_xsrf_or_same_origin(self: Any) -> None:
        headers = self.request.headers
        if same_origin(headers, self.request.host):
            return
        if headers.get("Origin") or headers.get("Referer"):
            guards.refuse(self, 403, "a session can only be ended from its own page")
        try:
            checked(self)
        except HTTPError:
            guards.refuse(self, 403, "a session can only be ended from its own page")

    VoilaShutdownKernelHandler.check_xsrf_cookie = check_xsrf_or_same_origin
    VoilaShutdownKernelHandler._leopard_beacon = True


THEMES = ("auto", "light", "dark")
"""The server's theme option: "auto" follows each visitor's browser (light or dark), the others fix it."""
THEME_ARGUMENTS = ("theme", "voila-theme")
"""How a link may ask for a theme: Voilà's own ?theme= and the newer ?voila-theme= (light or dark only)."""


def read_theme_links() -> None:
    """Let a link ask for the light or dark page as ?voila-theme= as well as Voilà's ?theme=; any other
    value, or a theme asked for twice, is left out (Voilà would otherwise look for a theme of that name)."""
    from voila.handler import VoilaHandler

    if getattr(VoilaHandler, "_leopard_themes", False):
        return
    original = VoilaHandler.get_generator

    def get_generator(self: Any, path: str | None = None) -> Any:
        arguments = self.request.arguments
        asked = [value for name in THEME_ARGUMENTS for value in arguments.pop(name, [])]
        if len(asked) == 1 and asked[0] in (b"light", b"dark"):
            arguments["theme"] = asked
        return original(self, path)

    VoilaHandler.get_generator = get_generator
    VoilaHandler._leopard_themes = True


MEMORY_PER_SESSION = 60 * 2**20
"""Bytes a session costs: measured (benchmarks/classroom_load.py, README "Serving a class"), a kernel with
every tab of the app opened takes 54 MiB of proportional memory (PSS: its own pages and its share of the
libraries all kernels map) and the server about 1 MiB more per session; 60 MiB leaves some room."""
MEMORY_SHARE = 0.6
"""The share of the machine's memory the sessions may take."""
FILES_PER_SESSION = 23
"""Open files (descriptors) of the server process per session: measured (benchmarks/session_descriptors.py),
13 for a connected session (its websocket, the sockets to its kernel and those of the preheated kernel that
replaces it) and 9 to 10 for each further websocket, of which a session may have
`guards.WEBSOCKETS_PER_SESSION`."""
FILES_RESERVED = 200
"""Open files kept for the server itself (36 to 38 measured with its preheated kernel) and for the
browsers' HTTP connections while their pages load."""
ZMQ_SOCKETS_PER_SESSION = 2 + 4 * guards.WEBSOCKETS_PER_SESSION
"""ZMQ sockets per session: its kernel's control socket and the preheated kernel's share (6 measured for a
connected session), and four channels for each further websocket."""
ZMQ_RESERVED = 50
"""ZMQ sockets kept for the preheated kernel and the pages being made."""
IDLE_CONNECTION_SECONDS = 10
"""How long an HTTP connection may sit idle, or take to send a request's headers, before it is closed."""
BODY_SECONDS = 30
"""How long a request's body may take to arrive."""
MAX_BODY_BYTES = 64 * 2**10
"""The largest request body the class server reads (tornado's HTTP server closes the connection with HTTP 400
once a request says, or turns out, to be longer, before reading it): the largest a page or its kernel sends is
4 KiB (`kernel_handler.MAX_BODY`); Voilà's routes take none larger (a kernel's websocket messages are no
request bodies, and Voilà serves no contents API to upload to); tornado's own default is 100 MiB."""
FULL_PAGE = """<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>Leopard Tutor</title>
<meta name="viewport" content="width=device-width, initial-scale=1">{head}</head>
<body style="font: 1.25rem/1.5 system-ui, sans-serif; margin: 3rem auto; max-width: 36rem; padding: 0 1rem">
<p>{text}</p></body></html>"""
"""What a refused visit reads (`visit_refusal`); `head` is what else its head holds (the full class's refresh)."""
FULL_RETRY_SECONDS = 60
"""How long a visit told the class is full waits before its page asks again by itself (its Retry-After, and
its refresh; the catalogue's "app.tries_again" says "every minute")."""
WAITING_PAGE = """<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{text}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"></head>
<body style="font: 1.25rem/1.5 system-ui, sans-serif; margin: 3rem auto; max-width: 36rem; padding: 0 1rem">
<main aria-label="{text}"><p role="status" aria-live="polite" id="lt-line">{text}</p></main>
<script>
(() => {{
  const status = document.getElementById("lt-line"), main = document.querySelector("main");
  const ask = async () => {{
    let answer = null;
    try {{
      const reply = await fetch({line_url}, {{cache: "no-store", credentials: "same-origin"}});
      answer = reply.ok ? await reply.json() : null;
    }} catch (error) {{ answer = null; }}
    if (answer && (answer.go || answer.gone)) {{
      document.cookie = "{cookie}=" + (answer.go ? {ticket} : "") + "; path=/; max-age=60; SameSite=Strict";
      location.reload();
      return;
    }}
    if (answer) {{
      status.textContent = answer.text;
      document.title = answer.text;
      main.setAttribute("aria-label", answer.text);
    }}
    setTimeout(ask, {poll_ms});
  }};
  setTimeout(ask, {first_ms});
}})();
</script></body></html>"""
"""What a visit that has to wait in line gets at once: where it is in words (title, accessible name and a
live status), updated every `waiting_line.POLL_SECONDS`; once admitted it loads the app with its ticket. A page
given no ticket (`waiting_line.WaitingLine.join`) asks after a moment, is told its ticket has gone, and loads
again (with the cookie it was given), for a ticket."""
TICKET_COOKIE = "leopard_ticket"
"""The cookie a waiting page sets, for one minute, to come back with its admitted ticket."""
LINE_PATH = "leopard/line"
"""Where a waiting page asks for its place (under the server's base URL)."""


@dataclass(frozen=True)
class Limits:
    """What bounds the sessions a server can hold: the machine's memory (bytes), the process's open-file
    limit and its ZMQ context's socket limit."""

    memory: int
    files: int
    zmq_sockets: int


def session_caps(limits: Limits) -> dict[str, int]:
    """How many sessions each limit allows (at least 1 each)."""
    caps = {
        "memory": int(limits.memory * MEMORY_SHARE) // MEMORY_PER_SESSION,
        "open files": (limits.files - FILES_RESERVED) // FILES_PER_SESSION,
        "ZMQ sockets": (limits.zmq_sockets - ZMQ_RESERVED) // ZMQ_SOCKETS_PER_SESSION,
    }
    return {name: max(1, cap) for name, cap in caps.items()}


def default_session_cap(limits: Limits) -> tuple[int, str]:
    """(the sessions every limit allows, the name of the limit that sets it)."""
    caps = session_caps(limits)
    binding = min(caps, key=lambda name: caps[name])
    return caps[binding], binding


def machine_memory() -> int:
    """This machine's memory in bytes (4 GiB if it cannot be read)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def raise_file_limit() -> tuple[int, int]:
    """Raise this process's soft open-file limit to its hard limit; (soft limit before, soft limit now)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # an unlimited hard limit the kernel will not grant: keep the soft one
            return soft, soft
    return soft, hard


def zmq_socket_limit(files: int) -> int:
    """The ZMQ socket limit to set: as many as the open files allow (each socket takes one), up to ZMQ's most."""
    import zmq

    context = zmq.Context()
    try:
        return min(files, int(context.get(zmq.SOCKET_LIMIT)))
    finally:
        context.term()


def limits_line(cap: int, binding: str, limits: Limits, per_visitor: int, files_before: int) -> str:
    """What the server prints at start about its limits."""
    allowed = ", ".join(f"{name} {count}" for name, count in session_caps(limits).items())
    raised = f"raised from {files_before} to {limits.files}" if files_before != limits.files else f"{limits.files}"
    return (f"Sessions: at most {cap} at once (set by {binding}; the machine allows: {allowed}), "
            f"{per_visitor} per visitor, {guards.WEBSOCKETS_PER_SESSION} connections per session. "
            f"Open-file limit {raised}; ZMQ socket limit {limits.zmq_sockets}; memory "
            f"{limits.memory / 2**30:.1f} GiB, {MEMORY_PER_SESSION // 2**20} MiB a session.")


def fresh_when_handed_out(kernel_manager: Any) -> None:
    """Make a preheated kernel count as active from the moment a visitor is given it.

    A kernel preheated before a quiet spell looks idle for longer than the cull timeout when it is
    handed out, and a cull check could shut it before the visitor's page connects to it."""
    if getattr(kernel_manager, "_leopard_fresh", False) or not hasattr(kernel_manager, "get_rendered_notebook"):
        return
    hand_out = kernel_manager.get_rendered_notebook

    async def get_rendered_notebook(*args: Any, **kwargs: Any) -> Any:
        task, cache, kernel_id = await hand_out(*args, **kwargs)
        kernel_manager.get_kernel(kernel_id).last_activity = datetime.now(timezone.utc)
        return task, cache, kernel_id

    kernel_manager.get_rendered_notebook = get_rendered_notebook
    kernel_manager._leopard_fresh = True


PAGES_AT_ONCE = max(2, os.cpu_count() or 2)
"""Pages made at once (a kernel started and the app built in it); a class that opens the link together
queues for the rest, first come first served, so that the first pages arrive in seconds and the
students already playing keep a share of the processors."""


def visit_refusal(handler: Any, limit: int | None, per_visitor: int | None, line: WaitingLine) -> None:
    """Refuse a page request (`guards.refuse`) that would start a session past a limit: one that is no
    top-level visit (HTTP 403); past `limit` sessions in use, "the class is full" (503, a page that asks again
    by itself after `FULL_RETRY_SECONDS`); past `per_visitor` sessions of its visitor, "you have too many pages
    open" (429). Sessions being made and places in `line` count (once the line is pruned: a ticket whose page
    has gone holds no place)."""
    why = guards.not_a_visit(handler.request.headers)
    if why is not None:
        guards.refuse(handler, 403, why)
    book = guards.BOOK
    line.prune()
    sessions = book.in_use() + len(line.tickets)
    if limit is not None and sessions >= limit:
        words = f"{text('app.class_full', sessions=sessions)} {text('app.tries_again')}"
        page = FULL_PAGE.format(lang=language(), text=html.escape(words),
                                head=f'<meta http-equiv="refresh" content="{FULL_RETRY_SECONDS}">')
        guards.refuse(handler, 503, "the class is full", page, retry_after=FULL_RETRY_SECONDS)
    visitor = guards.visitor_of(handler)
    own = book.in_use(visitor, anyone=False) + line.held(visitor)
    if per_visitor is not None and own >= per_visitor:
        page = FULL_PAGE.format(lang=language(), text=html.escape(text("app.too_many_pages", sessions=own)), head="")
        guards.refuse(handler, 429, "a visitor has too many pages open", page, retry_after=60)


class ClassLine:
    """The waiting line of a class server and the pages past it (`inside`: waiting for one of the
    `PAGES_AT_ONCE` places, `queued`, or being made)."""

    def __init__(self) -> None:
        self.line = WaitingLine()
        self.inside = 0
        self.queued = 0
        self.answered = False  # whether this server answers waiting pages at LINE_PATH (a class server does)

    def free(self, manager: Any) -> int:
        """Places for pages to be made now: one for each preheated kernel ready beyond those the queued pages
        will take, or else what is left of `PAGES_AT_ONCE` (a page with no kernel ready waits for one to
        start)."""
        return max(ready_kernels(manager) - self.queued, PAGES_AT_ONCE - self.inside)

    def must_wait(self, manager: Any) -> bool:
        """Whether a new visit waits in line: others already do, or no kernel is ready for it beyond those the
        pages being made take (its page would wait for one to start); never where no waiting page would be
        answered (Voilà as an extension of a Jupyter server, on Binder)."""
        if not self.answered:
            return False
        self.line.admit(self.free(manager))
        return self.line.waiting() > 0 or ready_kernels(manager) <= self.queued

    def place(self, ticket: str, manager: Any) -> dict[str, Any]:
        """What a waiting page is told: `go` (admitted), `gone` (no such ticket: come again) or how many are
        ahead of it, in words."""
        if not self.line.asked(ticket):
            return {"gone": True}
        self.line.admit(self.free(manager))
        ahead = self.line.ahead(ticket)
        if ahead is None:
            return {"gone": True}
        if self.line.tickets[ticket].admitted is not None:
            return {"go": True}
        ahead += self.inside
        return {"ahead": ahead, "text": text("app.preparing", ahead=ahead)}


LINE = ClassLine()
"""The waiting line of this server process."""


def waiting_page(handler: Any, line: ClassLine, address: str | None = None) -> None:
    """Answer a visit with the waiting page and a new ticket (HTTP 200); for a visitor without a cookie,
    `address` is where it comes from, and past one ticket a moment for it the page holds none
    (`waiting_line.WaitingLine.join`)."""
    ticket = line.line.join(guards.visitor_of(handler), address)
    ahead = (line.line.ahead(ticket) or 0) if ticket is not None else line.line.waiting()
    words = html.escape(text("app.preparing", ahead=ahead + line.inside))
    base = handler.settings.get("base_url", "/")
    handler.set_header("Cache-Control", "no-store")
    poll_ms = int(POLL_SECONDS * 1000)
    handler.finish(WAITING_PAGE.format(
        lang=language(), text=words, ticket=json.dumps(ticket or ""), cookie=TICKET_COOKIE, poll_ms=poll_ms,
        first_ms=0 if ticket is not None else poll_ms,
        line_url=json.dumps(f"{base}{LINE_PATH}?ticket={ticket or ''}&lang={language()}")))


def line_handler() -> Any:
    """The handler a waiting page asks for its place (`ClassLine.place`, as JSON); a ticket is all it needs."""
    from tornado.web import RequestHandler

    class LineHandler(RequestHandler):
        def get(self) -> None:
            ticket = self.get_query_argument("ticket", "")[:TICKET_CHARACTERS]
            guards.answer_in_visitors_language(self)  # the waiting page's language, which its link names
            self.set_header("Cache-Control", "no-store")
            self.finish(LINE.place(ticket, self.settings["kernel_manager"]))

    return LineHandler


def guard_visits(limit: int | None = None, per_visitor: int | None = None, line: ClassLine = LINE) -> None:
    """Patch Voilà's page handler: a visit that would wait for its page gets the waiting page (`ClassLine`);
    pages are made `PAGES_AT_ONCE` at a time, and only for a visit within the limits (`visit_refusal`: a
    refused one gets a plain page and no kernel); the kernel a page gets is its visitor's (`guards.py`), and
    from the first visit on, sessions whose page has gone are ended."""
    import asyncio

    from voila.tornado.handler import TornadoVoilaHandler

    original = getattr(TornadoVoilaHandler, "_leopard_get", TornadoVoilaHandler.get)
    queue: list[asyncio.Semaphore] = []

    async def get(self: Any, path: str | None = None) -> None:
        manager = self.kernel_manager
        fresh_when_handed_out(manager)
        guards.track_kernels(manager)
        guards.watch_pages(manager)
        guards.watch_processors(manager)
        admitted = line.line.enter(self.get_cookie(TICKET_COOKIE))
        if self.get_cookie(TICKET_COOKIE) is not None:
            self.clear_cookie(TICKET_COOKIE)
        guards.answer_in_visitors_language(self)  # the full-class and waiting pages
        visit_refusal(self, limit, per_visitor, line.line)
        if not admitted and line.must_wait(manager):
            known = await guards.brought_identity(self)
            waiting_page(self, line, None if known else self.request.remote_ip)
            return
        if not queue:
            queue.append(asyncio.Semaphore(PAGES_AT_ONCE))
        line.inside += 1
        line.queued += 1
        queued = True
        try:
            async with queue[0]:
                line.queued -= 1
                queued = False
                visit_refusal(self, limit, per_visitor, line.line)  # again: the sessions may have grown meanwhile
                await guards.serve_page(self, lambda: original(self, path))
        finally:
            line.inside -= 1
            line.queued -= queued

    TornadoVoilaHandler._leopard_get = original
    TornadoVoilaHandler.get = get


def apply_fixes() -> None:
    """Patch standalone Voilà: the shutdown beacon, the session guards and plain error pages."""
    _accept_shutdown_beacon()
    read_theme_links()
    guards.install()
    guards.plain_errors()


def apply_server_fixes() -> None:
    """Patch a Jupyter server running Voilà as an extension (JupyterLab, Binder) the same way (no cap)."""
    _accept_shutdown_beacon()
    read_theme_links()
    guards.install()
    guard_visits()


def app_notebook() -> dict[str, Any]:
    """The app notebook: one cell that builds the app from the package, nothing else."""
    source = "from leopard_tutor.app import open_app\n\nopen_app()"
    return {
        "cells": [{"cell_type": "code", "execution_count": None, "id": "build-app", "metadata": {},
                   "outputs": [], "source": source}],
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }


def notebook_path() -> Path:
    """The app notebook: the repository's own, or (installed without it) the same notebook written to a temp dir."""
    if REPO_NOTEBOOK.is_file():
        return REPO_NOTEBOOK
    folder = Path(tempfile.mkdtemp(prefix="leopard-tutor-"))
    path = folder / NOTEBOOK_NAME
    path.write_text(json.dumps(app_notebook(), indent=1), encoding="utf-8")
    return path


def voila_argv(notebook: Path, port: int, open_browser: bool, preheat: bool = True, ip: str = LOOPBACK,
               theme: str = "auto", nodelay: bool = True) -> list[str]:
    """Voilà's command-line arguments for the app (`theme`: one of THEMES; without `nodelay`, the websockets
    keep Nagle's algorithm, as stock servers do)."""
    argv = [
        str(notebook), f"--port={port}", f"--Voila.ip={ip}", "--show_tracebacks=False",
        f"--template={TEMPLATE}",
        f"--Voila.kernel_websocket_connection_class={CONNECTION_CLASS if nodelay else STOCK_DELAY_CLASS}",
        f"--Voila.authorizer_class={AUTHORIZER_CLASS}",
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_SECONDS}",
        f"--MappingKernelManager.cull_interval={CULL_INTERVAL_SECONDS}",
        "--MappingKernelManager.cull_connected=False",
        "--VoilaConfiguration.http_header_envs=X-Forwarded-Proto",  # behind a proxy: the scheme of shared links
        "--VoilaConfiguration.http_header_envs=Accept-Language",  # the app drawn at once in the browser's language
        *page_options(theme),
    ]
    if preheat:
        argv += ["--preheat_kernel=True", "--pool_size=1"]
    if not open_browser:
        argv.append("--no-browser")
    return argv


def page_options(theme: str) -> list[str]:
    """Voilà's options for the page: its theme (`theme_option`) and, for the template, the server's language
    (the page's <html lang> until the app has chosen its own)."""
    option = theme_option(theme)
    resources = {**(AUTO_THEME if theme == "auto" else {}), "leopard_language": server_language()}
    if theme == "auto":
        return [f"--VoilaConfiguration.resources={json.dumps(resources)}"]
    return [option, f"--VoilaConfiguration.resources={json.dumps(resources)}"]


def theme_option(theme: str) -> str:
    """The Voilà option for a theme of THEMES: a fixed theme, or the template's "follow the browser"."""
    if theme not in THEMES:
        raise ValueError(f"the theme is one of {', '.join(THEMES)}, not {theme!r}")
    if theme == "auto":
        return f"--VoilaConfiguration.resources={json.dumps(AUTO_THEME)}"
    return f"--VoilaConfiguration.theme={theme}"


AUTO_THEME = {"leopard_theme": "auto"}
"""What the template is given to follow the visitor's browser (light, or dark if it prefers dark)."""


def class_server(zmq_sockets: int, class_size: int = 0, cap: int | None = None, data_dir: Path | None = None,
                 grows_to: int | None = None) -> Any:
    """Voilà's application class for a class server: its ZMQ context allows `zmq_sockets` sockets, each
    refusal is one log line (`guards.log_request` as tornado's `log_function`), a path no page asks for that
    Voilà would answer with a traceback is refused first (`bad_paths`), no log line shows the teacher's token
    (`log_mask`), an HTTP connection idle (or sending its request's headers) for `IDLE_CONNECTION_SECONDS` is
    closed and a request body past `MAX_BODY_BYTES` is refused unread (tornado's `idle_connection_timeout`,
    `body_timeout` and `max_body_size`, options of the HTTP server Voilà starts). A waiting page asks for its
    place at `LINE_PATH`; with a `class_size`, up to that many kernels are kept preheated
    (`kernel_pool.PoolFiller`), one more for each student who waited in line up to `grows_to` (default:
    `class_size`), within what `cap` leaves room for. With a `data_dir`, the class tables (`class_tables.py`,
    at most `cap`) are served from its database, and the visitors' cookies are signed with a secret kept there,
    so a browser keeps its identity (and its seat at a table) when the server restarts."""
    import zmq
    from voila.app import Voila

    class ClassServer(Voila):  # type: ignore[misc]
        """Voilà with the limits of a class server."""

        def init_settings(self) -> Any:
            if data_dir is not None:
                self.cookie_secret = kept_secret(data_dir / COOKIE_SECRET_FILE)
            settings = super().init_settings()
            self.kernel_manager.context.set(zmq.MAX_SOCKETS, zmq_sockets)  # before its first socket
            settings["log_function"] = guards.log_request
            from .teacher import kept_token

            mask_secrets(None if data_dir is None else kept_token(data_dir), [self.log, guards.log])
            if class_size > 0 and hasattr(self.kernel_manager, "_pools"):
                room = (lambda: class_size) if cap is None else (lambda: cap - guards.BOOK.in_use())
                PoolFiller(self.kernel_manager, class_size, room, lambda: LINE.line.waiting() > 0,
                           most=grows_to or class_size, waited=lambda: LINE.line.claimed).install()
            return settings

        def init_handlers(self) -> Any:
            from . import bad_paths

            handlers = super().init_handlers()
            base = self.base_url if self.base_url.endswith("/") else self.base_url + "/"
            LINE.answered = True
            handlers = [*bad_paths.rules(base), (f"{base}{LINE_PATH}", line_handler()), *handlers]
            if data_dir is None:
                return handlers
            from .class_handlers import Waiters, class_routes
            from .class_store import ClassStore
            from .class_tables import ClassTables

            waiters = Waiters()
            tables = ClassTables(ClassStore.in_folder(data_dir), limit=cap or 1000, changed=waiters.changed)
            from .teacher import routes as class_page_routes  # the students' records and the teacher's page
            return [*class_routes(self.server_url, tables, waiters),
                    *class_page_routes(self.server_url, data_dir, tables, cap or 1000), *handlers]

        def listen(self) -> None:
            self.app.listen = functools.partial(self.app.listen, idle_connection_timeout=IDLE_CONNECTION_SECONDS,
                                                body_timeout=BODY_SECONDS, max_body_size=MAX_BODY_BYTES)
            super().listen()

    return ClassServer


SECRET_BYTES = 32


def kept_secret(path: Path) -> bytes:
    """The `SECRET_BYTES` random bytes kept in `path` (mode 0600, in a private folder: `data_folder.py`), made the
    first time, and again if fewer are kept (a write that failed); a `DataFolderError` if they cannot be kept."""
    kept = read_private(path)
    if kept is not None and len(kept) >= SECRET_BYTES:
        return kept
    make_private(path.parent)
    secret = os.urandom(SECRET_BYTES)
    write_private(path, secret)
    return secret


def serve(port: int = 8866, open_browser: bool = True, *, preheat: bool = True, nodelay: bool = True,
          ip: str = LOOPBACK, max_sessions: int | None = None, theme: str = "auto",
          page_gone_after: float = PAGE_GONE_SECONDS, sessions_per_visitor: int = SESSIONS_PER_VISITOR,
          class_size: int | None = None, data_dir: Path | None = None, teacher_token: str | None = None) -> None:
    """Start Voilà on the app notebook at http://`ip`:`port` (blocks until stopped), with at most
    `max_sessions` visitors at once (default: what every limit of the machine allows, `session_caps`),
    `sessions_per_visitor` each, in `theme`, a session ending once its page has been gone for
    `page_gone_after` seconds, kernels kept preheated as `class_pool` says for `class_size` (default: a
    class's worth on a server listening beyond this machine, else one), the class tables kept in `data_dir`
    (default: the user's data folder for the app), at most one per session, with the students' records and the
    teacher's class page behind `teacher_token` (default: the one kept there, made the first time). Prints the
    limits, the preheated kernels, the data folder and the class page's address first."""
    from .class_store import DATABASE_NAME, ClassStore, default_data_dir
    from .teacher import kept_token, teacher_link

    folder = default_data_dir() if data_dir is None else data_dir
    try:  # the folder made private, the store created, migrated and written to; a folder it cannot write stops here
        if not make_private(folder):
            print(text("teacher.open_folder", folder=folder), flush=True)
        ClassStore.in_folder(folder).close()
        token = kept_token(folder, teacher_token)
    except DataFolderError as error:
        raise SystemExit(str(error)) from None
    files_before, files = raise_file_limit()
    limits = Limits(machine_memory(), files, zmq_socket_limit(files))
    cap, binding = default_session_cap(limits)
    if max_sessions is not None:
        cap, binding = max_sessions, "--max-sessions"
    print(limits_line(cap, binding, limits, sessions_per_visitor, files_before), flush=True)
    pool, grows_to = class_pool(ip, class_size, cap) if preheat else (0, 0)
    announce_pool(pool, grows_to, preheat)
    warning = version_warning()
    if warning:
        print(warning, flush=True)
    print(f"Class tables are kept in {folder / DATABASE_NAME}", flush=True)
    print(text("teacher.link", url=teacher_link(classroom_url(ip, port), token)), flush=True)
    apply_fixes()
    guards.BOOK.gone_after = page_gone_after
    guard_visits(cap, sessions_per_visitor)
    use_own_template()
    if ip not in ("0.0.0.0", "::", ""):
        os.environ["VOILA_APP_IP"] = f"[{ip}]" if ":" in ip else ip  # where a preheated kernel finds the server
    os.environ[CLASS_TABLES_ENV] = "1"
    argv = voila_argv(notebook_path(), port, open_browser, preheat, ip, theme, nodelay)
    class_server(limits.zmq_sockets, pool, cap, folder, grows_to).launch_instance(argv)


LOOPBACK_NAMES = ("localhost",)


def is_loopback(ip: str) -> bool:
    """Whether a server listening on `ip` answers this machine only (127.0.0.1 and the like, ::1, localhost)."""
    if ip in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(ip).is_loopback
    except ValueError:  # a host name, or all interfaces ("" as well): heard beyond this machine
        return False


def class_pool(ip: str, class_size: int | None, cap: int) -> tuple[int, int]:
    """(kernels kept preheated beyond Voilà's one, the most they grow to): `class_size` as given (0: none beyond
    Voilà's one; it does not grow); else, on a server listening beyond this machine, `CLASS_POOL` growing to
    `CLASS_POOL_GROWS_TO`, both within the session cap `cap`; else none."""
    if class_size is not None:
        return class_size, class_size
    if is_loopback(ip):
        return 0, 0
    return min(CLASS_POOL, cap), min(CLASS_POOL_GROWS_TO, cap)


def announce_pool(pool: int, grows_to: int, preheat: bool = True) -> None:
    """Print, at start, the kernels the server keeps preheated (`class_pool`)."""
    if not preheat:
        print("Preheated kernels: none (--no-preheat); each page starts its own.", flush=True)
    elif pool == 0:
        print("Preheated kernels: 1 (--class-size N keeps N ready for a class arriving at once).", flush=True)
    elif grows_to > pool:
        print(f"Preheated kernels: {pool} kept ready for a class arriving at once, one more for each student who "
              f"waits, up to {grows_to} (--class-size N sets it).", flush=True)
    else:
        print(f"Preheated kernels: {pool} kept ready for a class arriving at once (--class-size N sets it).",
              flush=True)


def use_own_template() -> None:
    """Let Voilà find the app's template (`DATA_DIR` joins the Jupyter data path of this process)."""
    paths = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    if str(DATA_DIR) not in paths:
        os.environ["JUPYTER_PATH"] = os.pathsep.join([str(DATA_DIR), *paths])


def classroom_url(ip: str, port: int) -> str:
    """The address students type to reach a server listening on `ip` (all interfaces: this machine's name)."""
    host = socket.gethostname() if ip in ("0.0.0.0", "::", "") else ip
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def classroom_banner(url: str) -> str:
    """What the terminal shows a teacher: the address to type, and the same address as a QR code."""
    import segno

    code = io.StringIO()
    segno.make(url, micro=False).terminal(out=code, compact=True)
    return text("teacher.banner", url=url, code=code.getvalue())
