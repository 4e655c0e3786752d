"""The handlers the server puts in the place of Voilà's and Jupyter server's own in its route table, each a subclass
adding the server's guards (`guards.py`) on the server's state (`state.ServerState`, from the application's
settings): the class server's routes (`launch.class_server`, `in_route_table`) and, for Voilà as a Jupyter
server extension, the Jupyter server's (`extension.py`, `replace_in_application`). What they replace is a route's
handler class, never a method of Voilà's or Jupyter server's classes.

* `PageHandler` (Voilà's page, `TornadoVoilaHandler`): refuses a visit past the caps, sends the waiting page when
  the class arrives at once, makes pages a few at a time (`visits.visit`); the kernel a page gets is its
  visitor's (`visits.PageKernels`); a link may ask for the light or dark page as ?voila-theme= as well as ?theme=.
* `ShutdownHandler` (Voilà's shutdown beacon): for the session's own browser only, and a same-origin beacon needs
  no XSRF header (a closing tab's beacon cannot carry one); a kernel the server does not have (a page from before a
  restart, closing) is `guards.refuse_gone_kernel`'s 404.
* `QuerySocket` (Voilà's query socket, where a preheated kernel learns its visitor's request): answers only the
  kernel itself, proved by an HMAC under its connection key; one waiter per kernel, which one page's socket
  closing no longer drops.
* `OwnedKernelSocket` (a kernel's websocket): its own browser only, at most `guards.WEBSOCKETS_PER_SESSION` at
  once. A subclass of the handler, not the connection class (`connection.GuardedConnection`), because the count
  must be taken back when the websocket's opening fails after the check (a bad upgrade request: tornado
  answers it after `pre_get`, the connection's `prepare`, has run), which only the handler hears (`on_finish`).
* `OwnKernelModel` (Jupyter server's `GET /api/kernels/<id>`, which a page asks before it reconnects its
  websocket) and `OwnedKernelSocket`: a kernel this server does not have (a page from before a restart) is a
  plain 404 logged once a kernel (`guards.refuse_gone_kernel`), not three warnings for every retry.
* `NoLogout` (given as `IdentityProvider.logout_handler_class`): /logout has nothing to do here, a plain 404.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from jupyter_core.utils import ensure_async
from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels.handlers import KernelHandler
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
from tornado.web import Application, HTTPError, authenticated
from voila.request_info_handler import RequestInfoSocketHandler
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from ..engine.catalogue import text
from ..protocol import PROOF_HEADER, THEME_ARGUMENTS, proof_holds, theme_of
from . import guards
from .state import state_of
from .visits import PageKernels, visit


def same_origin(headers: Mapping[str, str], host: str) -> bool:
    """Whether a request comes from a page of this server: its Origin, or else its Referer, names `host`."""
    source = headers.get("Origin") or headers.get("Referer") or ""
    parts = urlsplit(source)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host


def theme_asked(arguments: dict[str, list[bytes]]) -> None:
    """Read a link's ?voila-theme= as well as Voilà's ?theme= (in `arguments`, a request's): light or dark only;
    any other value, or a theme asked for twice, is left out (Voilà would otherwise look for a theme of that
    name)."""
    asked = theme_of(arguments)
    for name in THEME_ARGUMENTS:
        arguments.pop(name, None)
    if asked is not None:
        arguments["theme"] = [asked.encode()]


class PageHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """Voilà's page, made for a visit within the server's limits (`visits.visit`)."""

    page: guards.PageRequest | None = None

    @authenticated
    async def get(self, path: str | None = None) -> None:
        """A visit: refused, sent the waiting page, or sent its page (Voilà's own) once a place is free."""
        async def make_page(request: guards.PageRequest) -> None:
            self.page = request
            await super(PageHandler, self).get(path)

        await visit(self, state_of(self), make_page)

    def get_generator(self, path: str | None = None) -> Any:
        """Voilà's page, for a link's theme by either name (`theme_asked`)."""
        theme_asked(self.request.arguments)
        return super().get_generator(path)

    @property
    def kernel_manager(self) -> Any:
        """The server's kernel manager as this page request sees it (`visits.PageKernels`)."""
        manager = self.settings["kernel_manager"]
        return manager if self.page is None else PageKernels(manager, state_of(self), self.page)


class ShutdownHandler(VoilaShutdownKernelHandler):  # type: ignore[misc]
    """Voilà's shutdown beacon, for the session's own browser and its own page only."""

    async def prepare(self) -> None:
        """Voilà's authentication, then refuse strangers (this handler does not ask the authorizer)."""
        await ensure_async(super().prepare())
        if not self._finished:
            guards.refuse_strangers(self)
            kernel_id = guards.kernel_in_path(self)
            if kernel_id not in self.kernel_manager:  # a page from before a restart, closing
                guards.refuse_gone_kernel(self, kernel_id)

    def check_xsrf_cookie(self) -> None:
        """A beacon whose Origin (or, lacking one, Referer) is this very server passes: what a browser's beacon
        from the app's own page carries, and what no other website can forge; one from another origin is
        refused; one naming no origin at all gets the stock XSRF check."""
        headers = self.request.headers
        if same_origin(headers, self.request.host):
            return
        if headers.get("Origin") or headers.get("Referer"):
            guards.refuse(self, 403, "a session can only be ended from its own page")
        try:
            super().check_xsrf_cookie()
        except HTTPError:
            guards.refuse(self, 403, "a session can only be ended from its own page")


class QuerySocket(RequestInfoSocketHandler):  # type: ignore[misc]
    """Voilà's query socket, for the kernel it names only; it keeps nothing once it has answered (its waiters
    and cache are Voilà's, which `send_updates` reads)."""

    def prepare(self) -> None:
        """Refuse (403) unless the request proves it comes from the kernel it names."""
        kernel_id = guards.kernel_in_path(self)
        try:
            key = self.settings["kernel_manager"].get_kernel(kernel_id).session.key
        except Exception:  # no such kernel
            key = None
        if not proof_holds(key, kernel_id, self.request.headers.get(PROOF_HEADER)):
            guards.refuse(self, 403, "only a kernel may ask for its own request")

    def open(self, kernel_id: str) -> None:
        """The kernel waits here for its visitor's request (sent at once if it came first)."""
        RequestInfoSocketHandler._waiters[kernel_id] = self
        payload = RequestInfoSocketHandler._cache.pop(kernel_id, None)
        if payload is not None:
            self.write_message(payload)

    def on_close(self) -> None:
        """This socket no longer waits (for whichever kernel it waited)."""
        for kernel_id, waiter in list(RequestInfoSocketHandler._waiters.items()):
            if waiter is self:
                del RequestInfoSocketHandler._waiters[kernel_id]


class OwnedKernelSocket(KernelWebsocketHandler):
    """A kernel's websocket, for its own browser only and at most `guards.WEBSOCKETS_PER_SESSION` at once."""

    counted: str | None = None
    """The kernel this websocket is counted on (None: not counted)."""

    async def pre_get(self) -> None:
        """Refuse strangers (403) and a session's websocket past the limit (429), before the upgrade."""
        guards.refuse_strangers(self)
        book = state_of(self).book
        kernel_id = guards.kernel_in_path(self)
        if kernel_id not in self.kernel_manager:
            guards.refuse_gone_kernel(self, kernel_id)
        counted = kernel_id in book.sessions
        if not book.socket_opened(kernel_id, guards.WEBSOCKETS_PER_SESSION):
            guards.refuse(self, 429, f"a session has at most {guards.WEBSOCKETS_PER_SESSION} connections",
                          retry_after=60)
        if counted:
            self.counted = kernel_id
        await super().pre_get()  # type: ignore[no-untyped-call]

    def release(self) -> None:
        """Count this websocket off its session (once)."""
        kernel_id, self.counted = self.counted, None
        if kernel_id is not None:
            state_of(self).book.socket_closed(kernel_id)

    def on_close(self) -> None:
        """A closed websocket is counted off its session."""
        self.release()
        super().on_close()  # type: ignore[no-untyped-call]

    def on_finish(self) -> None:
        """A websocket that never opened is counted off its session (no websocket will close)."""
        if self.get_status() != 101:
            self.release()
        super().on_finish()


class VoilaOwnedKernelSocket(OwnedKernelSocket, VoilaKernelWebsocketHandler):  # type: ignore[misc]
    """Voilà's kernel websocket (it sends no echo of executed code), owned as `OwnedKernelSocket`."""


class OwnKernelModel(KernelHandler):
    """Jupyter server's kernel handler: its model (GET), where a kernel the server does not have is
    `guards.refuse_gone_kernel`'s 404; its shutdown (DELETE) as Jupyter server has it."""

    @authenticated
    @authorized
    async def get(self, kernel_id: str) -> None:
        """The kernel's model, or the refusal of a kernel gone."""
        if kernel_id not in self.kernel_manager:
            guards.refuse_gone_kernel(self, kernel_id)
        await ensure_async(super().get(kernel_id))


class NoLogout(JupyterHandler):
    """/logout: a plain 404 in the visitor's language (there is no logging in or out here)."""

    def get(self) -> None:
        """Refuse."""
        guards.answer_in_visitors_language(self)
        guards.refuse(self, 404, "there is no logging in or out here", words=text("app.no_logout"))


LOGOUT_HANDLER_CLASS = f"{__name__}.{NoLogout.__qualname__}"
SUBCLASSES: dict[type, type] = {
    TornadoVoilaHandler: PageHandler,
    VoilaShutdownKernelHandler: ShutdownHandler,
    RequestInfoSocketHandler: QuerySocket,
    VoilaKernelWebsocketHandler: VoilaOwnedKernelSocket,
    KernelWebsocketHandler: OwnedKernelSocket,
    KernelHandler: OwnKernelModel,
}
"""Each handler class of Voilà and Jupyter server the server replaces in its route table, and by which subclass."""


def in_route_table(handlers: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """A route table (Voilà's `init_handlers`) with each handler of `SUBCLASSES` replaced by its subclass."""
    return [(route[0], SUBCLASSES.get(route[1], route[1]), *route[2:]) for route in handlers]


def replace_in_application(application: Application) -> int:
    """Replace each handler of `SUBCLASSES` by its subclass in a running tornado application's routes (a Jupyter
    server's, with Voilà's routes added by its extension); how many routes were replaced."""
    replaced = 0
    routers: list[Any] = [application.default_router]
    seen: set[int] = set()
    while routers:
        router = routers.pop()
        if id(router) in seen:
            continue
        seen.add(id(router))
        for rule in getattr(router, "rules", []):
            if isinstance(rule.target, type):
                replaced += rule.target in SUBCLASSES
                rule.target = SUBCLASSES.get(rule.target, rule.target)
            else:
                routers.append(rule.target)
    return replaced


