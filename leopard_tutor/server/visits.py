"""A visit to the app's page on the server (`handlers.PageHandler`): refused past the limits (`visit_refusal`: a
plain page and no kernel), sent the waiting page when the class arrives at once (`waiting_page`, which asks
`LineHandler` for its place), else its page made among `waiting_line.PAGES_AT_ONCE` at a time (`visit`); the
kernel the page is handed or started for it is its visitor's (`PageKernels`), and counts as active from then
on."""

from __future__ import annotations

import asyncio
import html
import json
import math
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from jupyter_core.utils import ensure_async
from tornado.web import RequestHandler

from ..engine.catalogue import language, text
from . import guards
from .guards import PageRequest
from .state import ServerState, state_of
from .waiting_line import POLL_SECONDS, TICKET_CHARACTERS, ClassLine

if TYPE_CHECKING:
    from jupyter_server.base.handlers import JupyterHandler

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
"""What a visit that has to wait in line gets at once: that its table is being prepared and, from its first
question on (asked at once), where it is in line, in words (title, accessible name and a live status), updated
every `waiting_line.POLL_SECONDS`; once admitted it loads the app with its ticket. A page
given no ticket (`waiting_line.WaitingLine.join`) asks after a moment, is told its ticket has gone, and loads
again (with the cookie it was given), for a ticket."""
TICKET_COOKIE = "leopard_ticket"
"""The cookie a waiting page sets, for one minute, to come back with its admitted ticket."""
LINE_PATH = "leopard/line"
"""Where a waiting page asks for its place (under the server's base URL)."""


def visit_refusal(handler: RequestHandler, state: ServerState) -> None:
    """Refuse a page request (`guards.refuse`) that would start a session past a limit of `state`: one that is
    no top-level visit (HTTP 403); past `limit` sessions in use, "the class is full" (503, a page that asks again
    by itself after `FULL_RETRY_SECONDS`); past `per_visitor` sessions of its visitor, "you have too many pages
    open", or, where some of them have gone without a word, that they hold their places a while and within how long
    they are free (429). Sessions being made and places in the waiting line count (once the line is pruned: a
    ticket whose page has gone holds no place)."""
    why = guards.not_a_visit(handler.request.headers)
    if why is not None:
        guards.refuse(handler, 403, why)
    book, line, limit, per_visitor = state.book, state.line.line, state.limit, state.per_visitor
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
        closed = own - book.open_pages(visitor) - line.held(visitor)  # gone pages, holding their places a while
        words = (f"{text('app.too_many_closed', closed=closed)} "
                 f"{text('app.place_freed', minutes=math.ceil(book.freed_within / 60))}" if closed > 0 else
                 text("app.too_many_pages", sessions=own))  # (a tab closed with a word frees its place at once)
        page = FULL_PAGE.format(lang=language(), text=html.escape(words), head="")
        guards.refuse(handler, 429, "a visitor has too many pages open", page, retry_after=60)


def waiting_page(handler: RequestHandler, line: ClassLine, address: str | None = None) -> None:
    """Answer a visit with the waiting page and a new ticket (HTTP 200); for a visitor without a cookie,
    `address` is where it comes from, and past one ticket a moment for it the page holds none
    (`waiting_line.WaitingLine.join`)."""
    ticket = line.line.join(guards.visitor_of(handler), address)
    words = html.escape(text("app.preparing_place"))  # its place is set by its first question (`ClassLine.place`)
    base = handler.settings.get("base_url", "/")
    handler.set_header("Cache-Control", "no-store")
    poll_ms = int(POLL_SECONDS * 1000)
    handler.finish(WAITING_PAGE.format(
        lang=language(), text=words, ticket=json.dumps(ticket or ""), cookie=TICKET_COOKIE, poll_ms=poll_ms,
        first_ms=0 if ticket is not None else poll_ms,
        line_url=json.dumps(f"{base}{LINE_PATH}?ticket={ticket or ''}&lang={language()}")))


class LineHandler(RequestHandler):
    """Where a waiting page asks for its place (`ClassLine.place`, as JSON); a ticket is all it needs."""

    def get(self) -> None:
        """The place of the ticket the query names."""
        ticket = self.get_query_argument("ticket", "")[:TICKET_CHARACTERS]
        guards.answer_in_visitors_language(self)  # the waiting page's language, which its link names
        self.set_header("Cache-Control", "no-store")
        self.finish(state_of(self).line.place(ticket, self.settings["kernel_manager"]))


async def visit(handler: JupyterHandler, state: ServerState,
                make_page: Callable[[PageRequest], Awaitable[None]]) -> None:
    """Answer a visit to the page: a visit that would wait for its page gets the waiting page (`ClassLine`);
    pages are made `PAGES_AT_ONCE` at a time (`state.pages`), and only for a visit within the limits
    (`visit_refusal`: a refused one gets a plain page and no kernel), by `make_page(request)`, while the page
    counts as a session (`guards.serve_page`)."""
    line = state.line
    manager = handler.settings["kernel_manager"]
    admitted = line.line.enter(handler.get_cookie(TICKET_COOKIE))
    if handler.get_cookie(TICKET_COOKIE) is not None:
        handler.clear_cookie(TICKET_COOKIE)
    guards.answer_in_visitors_language(handler)  # the full-class and waiting pages
    visit_refusal(handler, state)
    if not admitted and line.must_wait(manager):
        known = await guards.brought_identity(handler)
        waiting_page(handler, line, None if known else handler.request.remote_ip)
        return
    line.inside += 1
    line.queued += 1
    queued = True
    try:
        async with state.pages:
            line.queued -= 1
            queued = False
            visit_refusal(handler, state)  # again: the sessions may have grown meanwhile
            await guards.serve_page(handler, state.book, make_page)
    finally:
        line.inside -= 1
        line.queued -= queued

SHUTTING: set[asyncio.Future[Any]] = set()
"""Shutdowns of dropped preheated kernels under way (`PageKernels.get_pool_size`)."""


class PageKernels:
    """The server's kernel manager as one page request sees it (`handlers.PageHandler.kernel_manager`): the
    kernel it hands the page (a preheated one) or starts for it is the page's visitor's (`guards.claim`); a
    preheated kernel counts as active from the moment it is handed out (one preheated before a quiet spell looks
    idle for longer than the cull timeout, and a cull check could shut it before the page connects), and the
    preheated kernels' filler is told it has one kernel fewer. Everything else is the manager's own."""

    def __init__(self, manager: Any, state: ServerState, page: PageRequest) -> None:
        self.manager, self.state, self.page = manager, state, page

    def __getattr__(self, name: str) -> Any:
        return getattr(self.manager, name)

    def get_pool_size(self, notebook: str) -> int:
        """How many preheated kernels the page may be handed, once those that can no longer build the app (a
        kernel that died, or whose run of the notebook failed) are dropped and shut down, and the pool told
        to fill again: with none left, Voilà starts the page a kernel of its own, where it would have handed it
        a dead one (a "404 Not Found" page)."""
        pool = self.manager._pools.get(notebook, [])
        spoiled = [item for item in pool if self._spoiled(item)]
        if spoiled:
            for item in spoiled:
                pool.remove(item)
                kernel_id = None if item.cancelled() or item.exception() is not None else item.result()["kernel_id"]
                guards.log.warning("Dropped preheated kernel %s: it can no longer build the app", kernel_id)
                if kernel_id is not None and kernel_id in self.manager:
                    shutting = asyncio.ensure_future(ensure_async(self.manager.shutdown_kernel(kernel_id, now=True)))
                    SHUTTING.add(shutting)  # held until done (the loop keeps only a weak reference)
                    shutting.add_done_callback(SHUTTING.discard)
            self.manager.fill_if_needed(delay=0, notebook_name=notebook)
            if self.state.filler is not None:
                self.state.filler.wake.set()
        return len(pool)

    def _spoiled(self, item: asyncio.Future[Any]) -> bool:
        """Whether a preheated kernel (Voilà's pool item) can no longer build the app for a page."""
        if not item.done():
            return False  # still starting: a page handed it waits for it, as Voilà makes it
        if item.cancelled() or item.exception() is not None:
            return True
        started = item.result()
        run: asyncio.Future[Any] = started["task"]
        failed = run.done() and (run.cancelled() or run.exception() is not None)
        return failed or started["kernel_id"] not in self.manager

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
        """Hand the page a preheated kernel (Voilà's own), then claim it."""
        task, cache, kernel_id = await self.manager.get_rendered_notebook(*args, **kwargs)
        self.manager.get_kernel(kernel_id).last_activity = datetime.now(timezone.utc)
        guards.claim(self.state.book, self.page, kernel_id)
        if self.state.filler is not None:
            self.state.filler.wake.set()
        return task, cache, kernel_id

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        """Start a kernel for the page (the manager's own), then claim it."""
        kernel_id = str(await ensure_async(self.manager.start_kernel(*args, **kwargs)))
        guards.claim(self.state.book, self.page, kernel_id)
        return kernel_id
