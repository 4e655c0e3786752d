"""The server's guards on visitors' sessions, installed into Voilà and Jupyter server by `server.py`.

* Ownership: the kernel a page gets belongs to the browser that asked for the page (its Jupyter
  identity, a signed HttpOnly cookie). The kernel's websocket, its REST handler (GET/DELETE
  /api/kernels/<id>, interrupt, restart) and Voilà's shutdown beacon answer that browser only: another
  browser, or a script holding a stolen kernel id, gets HTTP 403.
* Voilà's query socket (/voila/query/<id>, where a preheated kernel learns its visitor's request)
  answers only the kernel itself, which proves it with an HMAC under its connection key
  (`sessions.kernel_proof`); one page's socket closing no longer drops another kernel's waiter.
* The page-gone watch: every few seconds, each visitor's kernel with no websocket for
  `SessionBook.gone_after` seconds is shut down.
* Clean-up: whatever is kept per kernel (the owner, Voilà's query cache and waiter, its progressive
  rendering data) goes when the kernel goes.
* The screen on kernel output: `kernel_messages.screen` on every message to a websocket.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from .kernel_messages import screen
from .sessions import PROOF_HEADER, SessionBook, proof_holds

log = logging.getLogger(__name__)

BOOK = SessionBook()
"""The sessions of this server process."""


@dataclass
class PageRequest:
    """A visitor's request for the page being served, and the kernel it was given (once it has one)."""

    visitor: str | None
    kernel: str | None = None


REQUEST: ContextVar[PageRequest | None] = ContextVar("leopard_page_request", default=None)
"""The page request being served (set by the page handler, read where its kernel is handed out)."""
DELIMITER = b"<IDS|MSG>"


def visitor_of(handler: Any) -> str | None:
    """The identity of the browser behind a request (None if it has none)."""
    user = handler.current_user
    if user is None:
        return None
    return str(getattr(user, "username", user))


def kernel_in_path(handler: Any) -> str:
    """The kernel id a request's URL names ("" if none)."""
    named = handler.path_kwargs.get("kernel_id")
    if named:
        return str(named)
    return str(handler.path_args[0]) if handler.path_args else ""


async def serve_page(handler: Any, serve: Any, book: SessionBook = BOOK) -> None:
    """Serve a page request (`await serve()`), the kernel it gets being its visitor's; the page-gone clock
    of that kernel starts once the page has been sent."""
    request = PageRequest(visitor_of(handler))
    REQUEST.set(request)
    try:
        await serve()
    finally:
        if request.kernel is not None:
            book.served(request.kernel)


def refuse_strangers(handler: Any, book: SessionBook = BOOK) -> None:
    """HTTP 403 unless the request's browser owns the kernel its URL names (or the kernel is nobody's)."""
    from tornado.web import HTTPError

    if not book.allows(kernel_in_path(handler), visitor_of(handler)):
        raise HTTPError(403, "this session belongs to another browser")


def forget_kernel(kernel_id: str, book: SessionBook = BOOK) -> None:
    """Drop everything kept about a kernel that has gone: its owner and Voilà's per-kernel caches."""
    from voila.request_info_handler import RequestInfoSocketHandler
    from voila.tornado.execution_request_handler import ExecutionRequestHandler

    book.forget(kernel_id)
    RequestInfoSocketHandler._cache.pop(kernel_id, None)
    RequestInfoSocketHandler._waiters.pop(kernel_id, None)
    ExecutionRequestHandler._execution_data.pop(kernel_id, None)


def track_kernels(kernel_manager: Any, book: SessionBook = BOOK) -> None:
    """Record each kernel handed to a page as its visitor's, and forget it when it is shut down."""
    from jupyter_core.utils import ensure_async

    if getattr(kernel_manager, "_leopard_tracked", False):
        return

    def claim(kernel_id: str) -> None:
        request = REQUEST.get()
        if request is not None and request.visitor is not None and request.kernel is None:
            book.hand_out(kernel_id, request.visitor)
            request.kernel = kernel_id  # one kernel per page request

    if hasattr(kernel_manager, "get_rendered_notebook"):
        hand_out = kernel_manager.get_rendered_notebook

        async def get_rendered_notebook(*args: Any, **kwargs: Any) -> Any:
            task, cache, kernel_id = await hand_out(*args, **kwargs)
            claim(kernel_id)
            return task, cache, kernel_id

        kernel_manager.get_rendered_notebook = get_rendered_notebook
    start = kernel_manager.start_kernel
    shutdown = kernel_manager.shutdown_kernel

    async def start_kernel(*args: Any, **kwargs: Any) -> Any:
        kernel_id = await ensure_async(start(*args, **kwargs))
        claim(kernel_id)
        return kernel_id

    async def shutdown_kernel(kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return await ensure_async(shutdown(kernel_id, *args, **kwargs))
        finally:
            forget_kernel(kernel_id, book)

    kernel_manager.start_kernel = start_kernel
    kernel_manager.shutdown_kernel = shutdown_kernel
    kernel_manager._leopard_tracked = True


def connections(kernel_manager: Any, kernel_id: str) -> int | None:
    """How many websockets a kernel has now (None if the kernel no longer exists)."""
    if kernel_id not in kernel_manager.list_kernel_ids():
        return None
    return int(kernel_manager.kernel_model(kernel_id).get("connections", 0))


async def end_gone_sessions(kernel_manager: Any, book: SessionBook = BOOK) -> list[str]:
    """Shut down the kernels whose page has been gone too long; forget those that vanished. Returns the ended."""
    from jupyter_core.utils import ensure_async

    gone, vanished = book.sweep(lambda kernel_id: connections(kernel_manager, kernel_id))
    for kernel_id in vanished:
        forget_kernel(kernel_id, book)
    for kernel_id in gone:
        log.info("Shutting down kernel %s: its page has been gone for %.0f s", kernel_id, book.gone_after)
        try:
            await ensure_async(kernel_manager.shutdown_kernel(kernel_id))
        except Exception:  # already gone, or dying: it is forgotten either way
            log.warning("Could not shut down kernel %s", kernel_id, exc_info=True)
        forget_kernel(kernel_id, book)
    return gone


def watch_pages(kernel_manager: Any, book: SessionBook = BOOK) -> None:
    """Check the visitors' kernels every few seconds (from the first visit on) and end the abandoned ones."""
    from tornado.ioloop import PeriodicCallback

    if getattr(kernel_manager, "_leopard_watch", None) is not None:
        return
    every = max(0.5, min(10.0, book.gone_after / 4))
    watch = PeriodicCallback(lambda: end_gone_sessions(kernel_manager, book), every * 1000)
    watch.start()
    kernel_manager._leopard_watch = watch


def _guard_prepare(handler_class: Any, book: SessionBook) -> None:
    """Refuse strangers in `handler_class.prepare`, after its own authentication."""
    from jupyter_core.utils import ensure_async

    if handler_class.__dict__.get("_leopard_owned"):
        return
    original = handler_class.prepare

    async def prepare(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = await ensure_async(original(self, *args, **kwargs))
        if not self._finished:
            refuse_strangers(self, book)
        return result

    handler_class.prepare = prepare
    handler_class._leopard_owned = True


def guard_kernel_handlers(book: SessionBook = BOOK) -> None:
    """A visitor's kernel answers its own browser only: on its websocket, REST handlers and shutdown."""
    from jupyter_core.utils import ensure_async
    from jupyter_server.services.kernels.handlers import KernelActionHandler, KernelHandler
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    for handler_class in (KernelHandler, KernelActionHandler, VoilaShutdownKernelHandler):
        _guard_prepare(handler_class, book)
    websocket: Any = KernelWebsocketHandler
    if websocket.__dict__.get("_leopard_owned"):
        return
    pre_get = websocket.pre_get

    async def owned_pre_get(self: Any) -> None:
        refuse_strangers(self, book)
        await ensure_async(pre_get(self))

    websocket.pre_get = owned_pre_get
    websocket._leopard_owned = True


def guard_query_socket() -> None:
    """Voilà's query socket answers the kernel it names only, and keeps nothing once it has answered."""
    from tornado.web import HTTPError
    from voila.request_info_handler import RequestInfoSocketHandler as Query

    if Query.__dict__.get("_leopard_owned"):
        return

    def prepare(self: Any) -> None:
        kernel_id = kernel_in_path(self)
        try:
            key = self.settings["kernel_manager"].get_kernel(kernel_id).session.key
        except Exception:  # no such kernel
            key = None
        if not proof_holds(key, kernel_id, self.request.headers.get(PROOF_HEADER)):
            raise HTTPError(403, "only a kernel may ask for its own request")

    def open(self: Any, kernel_id: str) -> None:
        Query._waiters[kernel_id] = self
        payload = Query._cache.pop(kernel_id, None)
        if payload is not None:
            self.write_message(payload)

    def on_close(self: Any) -> None:
        for kernel_id, waiter in list(Query._waiters.items()):
            if waiter is self:
                del Query._waiters[kernel_id]

    Query.prepare, Query.open, Query.on_close = prepare, open, on_close
    Query._leopard_owned = True


def _raw(part: Any) -> bytes:
    return bytes(part.bytes) if hasattr(part, "bytes") else bytes(part)


def screen_kernel_output() -> None:
    """No traceback, error output or stderr from a kernel reaches a page (`kernel_messages.screen`)."""
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

    Connection: Any = ZMQChannelsWebsocketConnection
    if Connection.__dict__.get("_leopard_screened"):
        return
    original = Connection.handle_outgoing_message

    def handle_outgoing_message(self: Any, stream: Any, outgoing_msg: list[Any]) -> None:
        idents, parts = self.session.feed_identities(outgoing_msg)
        header = self.session.unpack(_raw(parts[1]))
        verdict = screen(str(header.get("msg_type", "")), lambda: dict(self.session.unpack(_raw(parts[4]))))
        if verdict is False:
            return
        if verdict is not True:
            parts = [*parts[:4], self.session.pack(verdict), *parts[5:]]
            outgoing_msg = [*idents, DELIMITER, *parts]
        original(self, stream, outgoing_msg)

    Connection.handle_outgoing_message = handle_outgoing_message
    Connection._leopard_screened = True


def install(book: SessionBook = BOOK) -> None:
    """Every guard above that patches classes (the per-server ones start with the first visit)."""
    guard_kernel_handlers(book)
    guard_query_socket()
    screen_kernel_output()
