"""The server's guards on visitors' sessions, called by the handlers the server puts in Voilà's and Jupyter
server's place (`handlers.py`), its kernel manager (`kernels.py`) and its kernel connection (`connection.py`),
on the server's state (`state.ServerState`, in the application's settings).

* Ownership: the kernel a page gets belongs to the browser that asked for the page (its Jupyter
  identity, a signed HttpOnly cookie). The kernel's websocket, its REST handler (GET/DELETE
  /api/kernels/<id>, interrupt, restart) and Voilà's shutdown beacon answer that browser only: another
  browser, or a script holding a stolen kernel id, gets HTTP 403.
* Voilà's query socket (/voila/query/<id>, where a preheated kernel learns its visitor's request)
  answers only the kernel itself, which proves it with an HMAC under its connection key
  (`protocol.kernel_proof`); one page's socket closing no longer drops another kernel's waiter.
* The page-gone watch: every few seconds, each visitor's kernel with no websocket for
  `SessionBook.gone_after` seconds is shut down.
* Clean-up: whatever is kept per kernel (the owner, Voilà's query cache and waiter, its progressive
  rendering data) goes when the kernel goes.
* The screen on kernel output and the gate on what a page sends are the connection class's
  (`connection.GuardedConnection`), which calls `hold_or_forward` and `request_finished` here.
* Limits: a session takes at most `WEBSOCKETS_PER_SESSION` websockets (a page needs one; a second
  covers a reconnection while the old one is still closing).
* The visitor's pace: every `visitor_pace.SAMPLE_SECONDS` the processor time of each visitor's kernels is
  spent from that visitor's budget (`visitor_pace.VisitorPace`, binding while others want the processors).
  What a page sends its kernel passes its connection's gate (`connection_gate.Gate`): at most a few shell
  requests unfinished in the kernel at once, and nothing while the visitor's budget is spent; the rest is
  held in order and let through as the kernel finishes requests or the budget comes back
  (`hold_or_forward`, `request_finished`, `pace_visitors`). Past `connection_gate.HELD` held messages (or
  `HELD_BYTES` of them), more are dropped; a message whose framing is impossible is dropped before
  jupyter_server reads it.
* Refusals: every refusal (`refuse`) is a short plain page and one log line with the count of such
  refusals so far (`log_request`, tornado's `log_function` setting), never a traceback, its address shown
  with any token blanked and control characters escaped (`log_mask`); error pages
  of Jupyter's handlers are plain text too (`plain_errors`: their templates cannot render in Voilà, which has
  no `static_path`), and /logout, which has nothing to do here, is a plain 404 (`handlers.NoLogout`).
  A page from before a restart asks for its kernel again and again until it gives up (it tells its
  visitor to reload): that refusal is logged once a kernel (`refuse_gone_kernel`).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from jupyter_core.utils import ensure_async
from tornado.ioloop import PeriodicCallback
from tornado.web import Finish, RequestHandler

from ..engine.catalogue import answer_in, choose_language, server_language
from ..protocol import LANGUAGE_COOKIE, accepted_languages
from .connection_gate import Gate
from .log_mask import masked, printable
from .sessions import SessionBook
from .state import GONE_KERNELS_KEPT, ServerState, state_of
from .visitor_pace import SAMPLE_SECONDS, KernelProcessors

if TYPE_CHECKING:
    from jupyter_server.base.handlers import JupyterHandler
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    from .connection import GuardedConnection

log = logging.getLogger(__name__)

WEBSOCKETS_PER_SESSION = 2
"""Websockets one session may have at once: a page needs one, and a reconnection may overlap the old one."""
LOGGED_URI = 100
"""The longest part of a request's address a log line shows."""
MESSAGE_PARTS = 64
"""The most parts a page's websocket message may say it has (a Jupyter message has about six)."""
Clock = Callable[[], float]


@dataclass
class PageRequest:
    """A visitor's request for the page being served, and the kernel it was given (once it has one)."""

    visitor: str | None
    kernel: str | None = None


def visitor_of(handler: RequestHandler) -> str | None:
    """The identity of the browser behind a request (None if it has none)."""
    user = handler.current_user
    if user is None:
        return None
    return str(getattr(user, "username", user))


async def brought_identity(handler: JupyterHandler) -> bool:
    """Whether a request brought a valid identity cookie of this server (False: the browser's identity is
    made for this very request, as for every request of a script that keeps no cookies)."""
    provider = handler.identity_provider
    if handler.get_cookie(provider.get_cookie_name(handler)) is None:
        return False
    return await ensure_async(provider.get_user_cookie(handler)) is not None


def answer_in_visitors_language(handler: RequestHandler) -> str:
    """Read texts, for the rest of this request (`catalogue.answer_in`), in its visitor's language: a link's
    ?lang=, else the learner's choice kept by the page (`protocol.LANGUAGE_COOKIE`), else the browser's languages
    (Accept-Language), else the server's. The language chosen."""
    said = handler.request.headers.get("Accept-Language", "")
    return answer_in(choose_language(handler.get_query_argument("lang", None), handler.get_cookie(LANGUAGE_COOKIE),
                                     *accepted_languages(said), server_language()))


def kernel_in_path(handler: RequestHandler) -> str:
    """The kernel id a request's URL names ("" if none)."""
    named = handler.path_kwargs.get("kernel_id")
    if named:
        return str(named)
    return str(handler.path_args[0]) if handler.path_args else ""


async def serve_page(handler: RequestHandler, book: SessionBook,
                     make_page: Callable[[PageRequest], Awaitable[None]]) -> None:
    """Serve a page request (`await make_page(request)`), the kernel it gets being its visitor's (`claim`); the
    page-gone clock of that kernel starts once the page has been sent. Until it has its kernel the page counts
    as a session being made (`SessionBook.in_use`)."""
    request = PageRequest(visitor_of(handler))
    book.page_begun(request.visitor)
    try:
        await make_page(request)
    finally:
        if request.kernel is not None:
            book.served(request.kernel)
        else:
            book.page_ended(request.visitor)


def claim(book: SessionBook, request: PageRequest, kernel_id: str) -> None:
    """Record the first kernel handed out or started for a page request as its visitor's (a second kernel
    started in the same request is nobody's)."""
    if request.visitor is not None and request.kernel is None:
        book.hand_out(kernel_id, request.visitor)
        book.page_ended(request.visitor)  # the page's session is now a handed-out one
        request.kernel = kernel_id


def refuse(handler: RequestHandler, status: int, kind: str, page: str | None = None, retry_after: int | None = None,
           words: str | None = None) -> NoReturn:
    """Answer a request with a refusal and stop handling it (raises tornado's `Finish`): HTTP `status`,
    `page` (HTML), else `words` (a person may read them) or else `kind` (for a script and the log) as plain
    text; `log_request` writes its one log line, and the server's state counts it."""
    state_of(handler).refusals[kind] += 1
    handler._leopard_refusal = kind  # type: ignore[attr-defined]
    handler.set_status(status)
    if retry_after is not None:
        handler.set_header("Retry-After", str(retry_after))
    handler.set_header("Content-Type", f"text/{'html' if page else 'plain'}; charset=utf-8")
    handler.set_header("Cache-Control", "no-store")
    handler.finish(page if page is not None else f"{words or kind}\n")
    raise Finish()


def refuse_gone_kernel(handler: RequestHandler, kernel_id: str) -> NoReturn:
    """Refuse (404) a request for `kernel_id`, which this server does not have; only the first such request of
    a kernel is logged (a page retries several times, a class's pages all at once after a restart)."""
    gone = state_of(handler).gone_kernels
    if kernel_id in gone:
        handler._leopard_unlogged = True  # type: ignore[attr-defined]
    else:
        gone[kernel_id] = None
        while len(gone) > GONE_KERNELS_KEPT:
            del gone[next(iter(gone))]
    refuse(handler, 404, "no such kernel (ended, or from before a restart; logged once a kernel)")


def log_request(handler: RequestHandler) -> None:
    """Tornado's `log_function`: a refusal is one short line (status, request, why, how many such
    refusals so far; the request's address with any token blanked and control characters escaped), except a
    repeated request for a kernel gone (`refuse_gone_kernel`); every other request is logged as Jupyter server
    logs it."""
    from jupyter_server.log import log_request as jupyter_log_request

    if getattr(handler, "_leopard_unlogged", False):
        return
    kind = getattr(handler, "_leopard_refusal", None)
    if kind is None:
        jupyter_log_request(handler)  # type: ignore[no-untyped-call]
        return
    request = handler.request
    uri = printable(masked(request.uri or ""))
    uri = uri if len(uri) <= LOGGED_URI else uri[:LOGGED_URI] + "..."
    log.warning("Refused %d %s %s (%s): %s (%d so far)", handler.get_status(), request.method, uri,
                request.remote_ip, kind, state_of(handler).refusals[kind])


def refuse_strangers(handler: RequestHandler) -> None:
    """HTTP 403 unless the request's browser owns the kernel its URL names (or the kernel is nobody's)."""
    if not state_of(handler).book.allows(kernel_in_path(handler), visitor_of(handler)):
        refuse(handler, 403, "this session belongs to another browser")


NAVIGATION_DESTINATIONS = ("document",)
"""What a request for the page may say it is for (Sec-Fetch-Dest): a page in a tab of its own."""
SAME_SITE_FRAMES = ("iframe", "frame")
"""Destinations allowed from the server's own pages only: JupyterLab's Voilà preview shows the page in a frame."""


def not_a_visit(headers: Mapping[str, str]) -> str | None:
    """Why a request for the page is not a visit to start a session for (None if it is one).

    A browser says what a request is for (Fetch Metadata): a visit is a top-level navigation
    (`Sec-Fetch-Mode: navigate`, `Sec-Fetch-Dest: document`); an image, script, style, frame or fetch
    of another website's page is not. A request without these headers (an older browser, a script)
    is taken as a visit."""
    mode = headers.get("Sec-Fetch-Mode")
    dest = headers.get("Sec-Fetch-Dest")
    if dest in SAME_SITE_FRAMES and headers.get("Sec-Fetch-Site") == "same-origin" and mode == "navigate":
        return None
    if mode is not None and mode != "navigate":
        return f"a request for the page that is no visit (Sec-Fetch-Mode: {_named(mode, FETCH_MODES)})"
    if dest is not None and dest not in NAVIGATION_DESTINATIONS:
        return f"a request for the page that is no visit (Sec-Fetch-Dest: {_named(dest, FETCH_DESTINATIONS)})"
    return None


FETCH_MODES = ("cors", "no-cors", "same-origin", "websocket")
"""The Sec-Fetch-Mode values browsers send besides "navigate" (a refusal names one of these, else "another")."""
FETCH_DESTINATIONS = ("audio", "audioworklet", "embed", "empty", "fencedframe", "font", "frame", "iframe", "image",
                      "manifest", "object", "paintworklet", "report", "script", "serviceworker", "sharedworker",
                      "style", "track", "video", "webidentity", "worker", "xslt")
"""The Sec-Fetch-Dest values browsers send besides "document" (likewise)."""


def _named(value: str, known: tuple[str, ...]) -> str:
    """`value` if it is one of `known`, else "another": a refusal's kind is one of a few (the server counts each
    kind, so a request's own words must not make new ones)."""
    return value if value in known else "another"


def forget_kernel(kernel_id: str, book: SessionBook) -> None:
    """Drop everything kept about a kernel that has gone: its owner and Voilà's per-kernel caches."""
    from voila.request_info_handler import RequestInfoSocketHandler
    from voila.tornado.execution_request_handler import ExecutionRequestHandler

    book.forget(kernel_id)
    RequestInfoSocketHandler._cache.pop(kernel_id, None)
    RequestInfoSocketHandler._waiters.pop(kernel_id, None)
    ExecutionRequestHandler._execution_data.pop(kernel_id, None)


def connections(kernel_manager: AsyncMappingKernelManager, kernel_id: str) -> int | None:
    """How many websockets a kernel has now (None if the kernel no longer exists)."""
    if kernel_id not in kernel_manager.list_kernel_ids():
        return None
    return int(kernel_manager.kernel_model(kernel_id).get("connections", 0))  # type: ignore[no-untyped-call]


async def end_gone_sessions(kernel_manager: AsyncMappingKernelManager, book: SessionBook) -> list[str]:
    """Shut down the kernels whose page has been gone too long; forget those that vanished. Returns the ended."""
    gone, vanished = book.sweep(lambda kernel_id: connections(kernel_manager, kernel_id))
    for kernel_id in vanished:
        forget_kernel(kernel_id, book)
    for kernel_id in gone:
        log.info("Shutting down kernel %s: its page has been gone for %.0f s", kernel_id, book.gone_after)
        try:
            await ensure_async(kernel_manager.shutdown_kernel(kernel_id))  # type: ignore[no-untyped-call]
        except Exception:  # already gone, or dying: it is forgotten either way
            log.warning("Could not shut down kernel %s", kernel_id, exc_info=True)
        forget_kernel(kernel_id, book)
    return gone


def watch_pages(kernel_manager: AsyncMappingKernelManager, book: SessionBook) -> PeriodicCallback:
    """Check the visitors' kernels every few seconds and end the abandoned ones (started at the server's start)."""
    watch = PeriodicCallback(lambda: end_gone_sessions(kernel_manager, book), book.sweep_every * 1000)
    watch.start()
    return watch


def kernel_pid(kernel_manager: AsyncMappingKernelManager, kernel_id: str) -> int | None:
    """The process id of a kernel (None if it has none, or there is no such kernel: one that died is gone from
    the manager while its page's session stays in the book)."""
    if kernel_id not in kernel_manager:
        return None
    kernel = kernel_manager.get_kernel(kernel_id)
    pid = getattr(getattr(kernel, "provisioner", None), "pid", None)
    return pid if isinstance(pid, int) else None


def is_open(connection: GuardedConnection) -> bool:
    """Whether a kernel websocket connection is still open (its websocket and its kernel channels)."""
    return bool(connection.channels) and getattr(connection.websocket_handler, "ws_connection", None) is not None


CONTROL_COMM = "jupyter.widget.control"
"""The one comm a page opens in its kernel: ipywidgets' own, through which the page asks for the widgets' states.
Every widget is the kernel's to open; a comm the page opened as a widget ("jupyter.widget") made one in the kernel,
with whatever state it sent (a script filled a kernel's memory at 7 MiB a second so)."""
CONTROL_OPENS = 16
"""How often one connection may open `CONTROL_COMM`: a page opens it once as it loads (again after a reconnection);
each one opened stays in the kernel."""


@dataclass(frozen=True)
class PageMessage:
    """What the server reads of a message a page sent its kernel: the id of its shell request (None for another
    channel's message), and for a shell message that opens a comm, the comm's target ("" for any other message; a
    comm_open with no target reads as "?")."""

    request: str | None
    opens: str = ""


def read_page_message(connection: GuardedConnection, message: str | bytes) -> PageMessage:
    """What a page's websocket `message` asks (`PageMessage`). Raises an exception for a message it cannot read:
    ValueError for one whose framing is impossible (more parts than `MESSAGE_PARTS`, or parts past its end:
    jupyter_server would read such a header's part count as it stands, whatever its size), and whatever parsing raises
    for another, such as RecursionError for JSON nested past what Python's reader goes, in any of its parts (the caller
    refuses the message on any)."""
    channel: Any
    header: Any
    content: Any = None
    if isinstance(message, str):
        parsed = json.loads(message)
        channel, header, content = parsed.get("channel"), parsed.get("header"), parsed.get("content")
    elif connection.subprotocol == "v1.kernel.websocket.jupyter.org":
        count = int.from_bytes(message[:8], "little")
        if not 3 <= count <= min(MESSAGE_PARTS, len(message) // 8 - 1):
            raise ValueError(f"a message of {len(message)} bytes said it had {count} parts")
        offsets = [int.from_bytes(message[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
        channel = bytes(message[offsets[0]:offsets[1]]).decode("utf-8")
        # header, parent header, metadata and content, read as the kernel will read them (one nested deeper than
        # its JSON reader goes raises here, where it would log a traceback there)
        unpacked = [connection.session.unpack(bytes(message[offsets[part]:offsets[part + 1]]))
                    for part in range(1, min(5, count - 1))]
        header = unpacked[0] if channel == "shell" else None
        content = unpacked[3] if len(unpacked) > 3 else None
    else:
        count = int.from_bytes(message[:4], "big")
        if not 1 <= count <= min(MESSAGE_PARTS, len(message) // 4 - 1):
            raise ValueError(f"a message of {len(message)} bytes said it had {count} parts")
        start = int.from_bytes(message[4:8], "big")
        end = int.from_bytes(message[8:12], "big") if count > 1 else len(message)
        parsed = json.loads(bytes(message[start:end]))
        channel, header, content = parsed.get("channel"), parsed.get("header"), parsed.get("content")
    if channel not in (None, "shell") or not isinstance(header, dict):
        return PageMessage(None)
    opens = ""
    if header.get("msg_type") == "comm_open":
        target = content.get("target_name") if isinstance(content, dict) else None
        opens = target if isinstance(target, str) and target else "?"
    return PageMessage(str(header.get("msg_id", "")), opens)


def paused(connection: GuardedConnection, gate: Gate, state: ServerState) -> bool:
    """Whether a connection's visitor is over budget now (one log line when its gate goes from passing to
    holding)."""
    owner = state.book.owner(connection.kernel_id)
    over = owner is not None and state.pace.over(owner)
    if over and not gate.paused:
        log.warning("Holding what a page sends kernel %s: its visitor's kernels have used their processor budget",
                    connection.kernel_id)
    return over


def forward(connection: GuardedConnection, messages: list[Any]) -> None:
    """Send `messages` from a page on to its kernel, in order (jupyter_server's own handling)."""
    for message in messages:
        connection.forward_to_kernel(message)


def release_gates(state: ServerState, clock: Clock = time.monotonic) -> None:
    """Forward what each connection's gate may let through now (its visitor back within budget, a request
    counted finished by time); forget the gates of closed connections (what they held has nowhere to go, and
    a closed websocket no longer knows how to read it) and the empty ones."""
    gates = state.gates
    for connection, gate in list(gates.items()):
        owner = state.book.owner(connection.kernel_id)
        if owner is None or not is_open(connection):
            del gates[connection]
            continue
        forward(connection, gate.release(paused(connection, gate, state), clock()))
        if not gate.held and not gate.unfinished:
            del gates[connection]


def pace_visitors(kernel_manager: AsyncMappingKernelManager, processors: KernelProcessors,
                  state: ServerState) -> None:
    """Spend what each visitor's kernels took since the last reading from their budget, lower the priority of
    the kernels of those over it, then release what those back within budget hold (`release_gates`)."""
    kernels = {}
    for kernel_id, session in list(state.book.sessions.items()):
        pid = kernel_pid(kernel_manager, kernel_id)
        if pid is not None:
            kernels[kernel_id] = (session.owner, pid)
    state.pace.spend(processors.used(kernels))
    processors.lower_over_budget(kernels, state.pace)
    release_gates(state)


def watch_processors(kernel_manager: AsyncMappingKernelManager, state: ServerState) -> PeriodicCallback:
    """Read the visitors' kernels' processor time every `SAMPLE_SECONDS` (`pace_visitors`; started at the
    server's start)."""
    processors = KernelProcessors()
    watch = PeriodicCallback(lambda: pace_visitors(kernel_manager, processors, state), SAMPLE_SECONDS * 1000)
    watch.start()
    return watch


def hold_or_forward(connection: GuardedConnection, message: str | bytes, state: ServerState,
                    clock: Clock = time.monotonic) -> None:
    """Pass what a page sent its kernel through the connection's gate (`connection_gate.Gate`): forward what it
    lets through; a message with an impossible framing, or one past the gate's held ones, is dropped (one log
    line per connection)."""
    gate = state.gates.setdefault(connection, Gate())
    owner = state.book.owner(connection.kernel_id)
    try:
        read = read_page_message(connection, message)
    except Exception:  # whatever a hostile page sends: its framing, JSON, or packed header
        state.refusals["a malformed websocket message"] += 1
        log.warning("Dropped a malformed websocket message to kernel %s (%d so far)", connection.kernel_id,
                    state.refusals["a malformed websocket message"])
        return
    if read.opens == CONTROL_COMM:
        gate.comms_opened += 1
    if read.opens and (read.opens != CONTROL_COMM or gate.comms_opened > CONTROL_OPENS):
        state.refusals["a comm a page may not open"] += 1
        count = state.refusals["a comm a page may not open"]
        if str(count).rstrip("0") == "1":  # the 1st, 10th, 100th...: a flood is a few lines
            log.warning("Dropped a page's opening of comm %s in kernel %s (%d so far)", printable(read.opens[:40]),
                        connection.kernel_id, count)
        return
    if owner is not None:
        state.pace.asked(owner)
    dropped = gate.dropped
    forward(connection, gate.admit(message, read.request, paused(connection, gate, state), clock()))
    if gate.dropped > dropped:
        state.refusals["a message past its connection's held ones"] += 1
        if gate.dropped == 1:
            log.warning("Dropping what a page sends kernel %s: %d of its messages are held, %d bytes (%d dropped so "
                        "far)", connection.kernel_id, len(gate.held), gate.held_bytes,
                        state.refusals["a message past its connection's held ones"])


def request_finished(connection: GuardedConnection, request: str, state: ServerState,
                     clock: Clock = time.monotonic) -> None:
    """The kernel says it finished `request`: forward what the connection's gate lets through now."""
    gate = state.gates.get(connection)
    if gate is not None:
        forward(connection, gate.finished(request, paused(connection, gate, state), clock()))


def plain_errors() -> None:
    """Error pages of Jupyter's handlers in plain text (Voilà has no `static_path`, so their templates cannot
    render: each error would log tracebacks instead). For standalone Voilà only (a Jupyter server renders its
    error pages); installed once, at the class server's start (`patches.PATCHES`)."""
    from jupyter_server.base.handlers import JupyterHandler

    def write_error(self: JupyterHandler, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code} {self._reason}\n")

    JupyterHandler.write_error = write_error  # type: ignore[method-assign]
