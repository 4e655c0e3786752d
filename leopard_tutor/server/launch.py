"""Serve the app with Voilà: a preheated kernel, a cap on sessions, guarded sessions (`guards.py`:
each kernel answers only the browser that opened it, sessions whose page has gone are ended, no
tracebacks reach a page), idle kernels culled, and two fixes (see ../shared/stack.md §6):

* TCP_NODELAY on the kernel websocket (`connection.GuardedConnection`, Voilà's
  `kernel_websocket_connection_class`): without it every widget round trip waits ~40 ms (Nagle's
  algorithm meeting delayed ACKs); benchmarks/app_speed.py measures both ways.
* The shutdown beacon Voilà sends when a tab closes cannot carry the XSRF header, so stock Voilà
  answers 403 and the kernel lives on. The shutdown handler here (`handlers.ShutdownHandler`) accepts a
  request whose Origin (or, lacking one, Referer) is this very server: what a browser's beacon from the app's
  own page carries, and what no other website can forge. One from another origin is refused; one naming no
  origin at all gets the stock XSRF check. Either way the session must be the requesting browser's own.

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

The server's state (`state.ServerState`) is made once at start (`serve`) and reaches the handlers through the
application's settings. What Voilà and Jupyter server offer an extension point for goes through it (command-line
options, route-table subclasses: `handlers.py`); the one method replaced is listed in `patches.py`. Voilà as a
Jupyter server extension (Binder's `/voila/render/...`) gets the same through `extension.py`, enabled by
binder/jupyter_server_config.py.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import ipaddress
import json
import os
import resource
import signal
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.catalogue import server_language, text
from ..protocol import CLASS_TABLES_ENV, CODE_KEY_ENV, code_key
from . import guards
from .authorizer import AUTHORIZER_CLASS
from .connection import CONNECTION_CLASS, STOCK_DELAY_CLASS
from .data_folder import COOKIE_SECRET_FILE, DataFolderError, make_private, read_private, write_private
from .handlers import LOGOUT_HANDLER_CLASS, in_route_table
from .kernel_pool import CLASS_POOL, CLASS_POOL_GROWS_TO, PoolFiller, end_preheated
from .kernels import KERNEL_MANAGER_CLASS
from .log_mask import mask_secrets, quiet_noise
from .patches import version_warning
from .sessions import PAGE_GONE_SECONDS, SESSIONS_PER_VISITOR, SessionBook
from .state import SETTING, ServerState
from .visits import LINE_PATH, LineHandler

NOTEBOOK_NAME = "leopard_tutor.ipynb"
LOOPBACK = "127.0.0.1"
DATA_DIR = Path(__file__).resolve().parents[1] / "share"  # holds voila/templates/leopard: the lab template, no CDN
TEMPLATE = "leopard"
REPO_NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / NOTEBOOK_NAME
CULL_IDLE_SECONDS = 600
CULL_INTERVAL_SECONDS = 60
IOPUB_SECONDS = 120
"""How long Voilà's executor waits, after a cell's reply, for the cell's output to arrive (nbclient's 4 s default is
too short on a busy machine: past it the cell is left without its output, and the page is made without the app).
It ends as soon as the kernel says it is idle."""


THEMES = ("auto", "light", "dark")
"""The server's theme option: "auto" follows each visitor's browser (light or dark), the others fix it."""
MEMORY_PER_SESSION = 60 * 2**20
"""Bytes a session costs: measured (benchmarks/classroom_load.py; benchmarks/HISTORY.md, "A class on one
server"), a kernel with every tab of the app opened takes 54 MiB of proportional memory (PSS: its own pages and
its share of the libraries all kernels map) and the server about 1 MiB more per session; 60 MiB leaves some room."""
MEMORY_SHARE = 0.6
"""The share of the machine's memory the sessions may take."""
FILES_PER_SESSION = 24
"""Open files (descriptors) of the server process per session: measured (benchmarks/session_descriptors.py),
14 for a connected session (its websocket, the sockets to its kernel and those of the preheated kernel that
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
PING_EVERY_MS = 10_000
"""How often the server pings each page's kernel connection (Jupyter server's own keep-alive, `ws_ping_interval`;
its default is 30 s)."""
PONG_WITHIN_MS = 30_000
"""How long a page's kernel connection may go without answering a ping before the server closes it
(`ws_ping_timeout`; its default is 90 s). A page whose Wi-Fi dropped, or whose laptop went to sleep, sends nothing
and closes nothing: its connection stood open, so its student counted as present at their table, until this closed
it (measured through a proxy that drops every packet: closed 91 s after the drop with the defaults, 30 s with
these). A classmate's two minutes of "gone" (`protocol.GONE_SECONDS`) count from then."""
MAX_MESSAGE_BYTES = 2**20
"""The largest websocket message a page may send its kernel (tornado closes a connection whose message is larger;
its default is 10 MiB): the largest a page sends is a pasted saved-game code of up to 200,000 characters."""


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


def notebook_path(folder: Path) -> Path:
    """The app notebook: the repository's own, or (installed without it) the same notebook written into
    `folder`."""
    if REPO_NOTEBOOK.is_file():
        return REPO_NOTEBOOK
    path = folder / NOTEBOOK_NAME
    path.write_text(json.dumps(app_notebook(), indent=1), encoding="utf-8")
    return path


def voila_argv(notebook: Path, port: int, open_browser: bool, preheat: bool = True, ip: str = LOOPBACK,
               theme: str = "auto", nodelay: bool = True) -> list[str]:
    """Voilà's command-line arguments for the app (`theme`: one of THEMES; without `nodelay`, the websockets
    keep Nagle's algorithm, as stock servers do)."""
    argv = [
        str(notebook), f"--port={port}", "--Voila.port_retries=0",  # never another port: the kernels ask this one
        f"--Voila.ip={ip}", "--show_tracebacks=False",
        f"--template={TEMPLATE}",
        f"--Voila.kernel_websocket_connection_class={CONNECTION_CLASS if nodelay else STOCK_DELAY_CLASS}",
        f"--Voila.authorizer_class={AUTHORIZER_CLASS}",
        f"--VoilaConfiguration.multi_kernel_manager_class={KERNEL_MANAGER_CLASS}",
        f"--IdentityProvider.logout_handler_class={LOGOUT_HANDLER_CLASS}",
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_SECONDS}",
        f"--MappingKernelManager.cull_interval={CULL_INTERVAL_SECONDS}",
        f"--VoilaExecutor.iopub_timeout={IOPUB_SECONDS}",
        "--MappingKernelManager.cull_connected=False",
        "--KernelManager.transport=ipc",  # kernels on files in the server's own connection folder, not TCP ports
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
    """Voilà's options for the page: its theme (`theme_options`) and, for the template, the server's language
    (the page's <html lang> until the app has chosen its own)."""
    resources = {**(AUTO_THEME if theme == "auto" else {}), "leopard_language": server_language()}
    # one key=value a time (traitlets 5 deprecates a dict written as JSON on the command line)
    return [*theme_options(theme),
            *(f"--VoilaConfiguration.resources={key}={value}" for key, value in resources.items())]


def theme_options(theme: str) -> list[str]:
    """Voilà's options for a theme of THEMES: a fixed theme's, or none (the template follows the browser: the
    resources of `page_options` name AUTO_THEME)."""
    if theme not in THEMES:
        raise ValueError(f"the theme is one of {', '.join(THEMES)}, not {theme!r}")
    return [] if theme == "auto" else [f"--VoilaConfiguration.theme={theme}"]


AUTO_THEME = {"leopard_theme": "auto"}
"""What the template is given to follow the visitor's browser (light, or dark if it prefers dark)."""


def configured_theme(configuration: Any) -> str:
    """The server's theme as Voilà's `configuration` (a `VoilaConfiguration`) holds it for the app's page
    (`page_options`): "auto" where the template follows the browser (`AUTO_THEME`), else the fixed "light" or
    "dark" Voilà renders; the class page takes it from here (`teacher.ClassPage.theme`)."""
    if configuration.resources.get("leopard_theme") == "auto":
        return "auto"
    return configuration.theme if configuration.theme in ("light", "dark") else "auto"


def class_server(zmq_sockets: int, class_size: int = 0, cap: int | None = None, data_dir: Path | None = None,
                 grows_to: int | None = None, state: ServerState | None = None) -> Any:
    """Voilà's application class for a class server, on the server's `state` (a new one if none is given; in the
    application's settings as `state.SETTING`): its ZMQ context allows `zmq_sockets` sockets, each refusal is one
    log line (`guards.log_request` as tornado's `log_function`), a path no page asks for that Voilà would answer
    with a traceback is refused first (`bad_paths`), no log line shows the teacher's token (`log_mask`), an HTTP
    connection idle (or sending its request's headers) for `IDLE_CONNECTION_SECONDS` is closed and a request
    body past `MAX_BODY_BYTES` is refused unread (tornado's `idle_connection_timeout`, `body_timeout` and
    `max_body_size`, options of the HTTP server Voilà starts). Voilà's page, shutdown, query and kernel
    websocket handlers are replaced in its route table by the server's (`handlers.in_route_table`), error pages
    are plain (`guards.plain_errors`, the one patch: `patches.PATCHES`), and the sessions whose page has gone
    are ended and the visitors paced from the start on (`guards.watch_pages`, `guards.watch_processors`); a
    closed terminal (SIGHUP, unless ignored as under nohup) stops it cleanly, as SIGTERM does. A
    waiting page asks for its place at `LINE_PATH`; with a `class_size`, up to that many kernels are kept
    preheated (`kernel_pool.PoolFiller`), one more for each student who waited in line up to `grows_to`
    (default: `class_size`), within what `cap` leaves room for. With a `data_dir`, the class tables
    (`referee.py`, at most `cap`) are served from its database, and the visitors' cookies are signed with a
    secret kept there, so a browser keeps its identity (and its seat at a table) when the server restarts."""
    import zmq
    from voila.app import Voila

    served = ServerState() if state is None else state

    class ClassServer(Voila):  # type: ignore[misc]
        """Voilà with the limits of a class server."""

        def init_settings(self) -> Any:
            if data_dir is not None:
                self.cookie_secret = kept_secret(data_dir / COOKIE_SECRET_FILE)
            settings = super().init_settings()
            settings[SETTING] = served
            self.kernel_manager.book = served.book  # what `kernels.ForgettingKernels` forgets
            self.kernel_manager.context.set(zmq.MAX_SOCKETS, zmq_sockets)  # before its first socket
            settings["log_function"] = guards.log_request
            settings["websocket_max_message_size"] = MAX_MESSAGE_BYTES
            settings["ws_ping_interval"], settings["ws_ping_timeout"] = PING_EVERY_MS, PONG_WITHIN_MS
            guards.plain_errors()
            from .teacher import kept_token

            mask_secrets(None if data_dir is None else kept_token(data_dir), [self.log, guards.log])
            quiet_noise([self.log])
            if class_size > 0 and hasattr(self.kernel_manager, "_pools"):
                line = served.line.line
                room = (lambda: class_size) if cap is None else (lambda: cap - served.book.in_use())
                served.filler = PoolFiller(self.kernel_manager, class_size, room, lambda: line.waiting() > 0,
                                           most=grows_to or class_size, waited=lambda: line.claimed)
                served.filler.install()
            return settings

        def init_handlers(self) -> Any:
            from . import bad_paths

            base = self.base_url if self.base_url.endswith("/") else self.base_url + "/"
            served.line.answered = True
            handlers: list[Any] = [*bad_paths.rules(base), (f"{base}{LINE_PATH}", LineHandler),
                                   *in_route_table(super().init_handlers())]
            if data_dir is None:
                return handlers
            from .class_handlers import Waiters, class_routes
            from .class_store import ClassStore
            from .referee import Referee

            waiters = Waiters()
            tables = Referee(ClassStore.in_folder(data_dir), limit=cap or 1000, changed=waiters.changed,
                             here=served.book.connected_visitors)
            served.book.arrival_listeners.append(tables.arrived)
            from .teacher import routes as class_page_routes  # the students' records and the teacher's page
            listening = None if is_loopback(self.ip) else classroom_url(self.ip, self.port)
            return [*class_routes(self.server_url, tables, waiters),
                    *class_page_routes(self.server_url, data_dir, tables, cap or 1000, served.book, listening,
                                       configured_theme(self.voila_configuration)),
                    *handlers]

        def stop(self) -> None:
            """Voilà's stop, once the pool's filling has stopped and the preheated kernels no visitor has had are
            ended at once (`kernel_pool.end_preheated`)."""
            from jupyter_core.utils import run_sync

            try:
                run_sync(end_preheated)(self.kernel_manager, served.filler)
            finally:
                super().stop()

        def listen(self) -> None:
            if signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:  # (under nohup, a closed terminal stops nothing)
                signal.signal(signal.SIGHUP, self._handle_signal_stop)  # a closed terminal stops as SIGTERM does
            guards.watch_pages(self.kernel_manager, served.book)
            guards.watch_processors(self.kernel_manager, served)
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
    state = ServerState(SessionBook(gone_after=page_gone_after), limit=cap, per_visitor=sessions_per_visitor)
    use_own_template()
    if ip not in ("0.0.0.0", "::", ""):
        os.environ["VOILA_APP_IP"] = f"[{ip}]" if ":" in ip else ip  # where a preheated kernel finds the server
    os.environ[CLASS_TABLES_ENV] = "1"
    os.environ[CODE_KEY_ENV] = code_key(kept_secret(folder / COOKIE_SECRET_FILE))  # the same across restarts
    with tempfile.TemporaryDirectory(prefix="leopard-tutor-") as scratch:  # the notebook's, if written: removed
        argv = voila_argv(notebook_path(Path(scratch)), port, open_browser, preheat, ip, theme, nodelay)
        class_server(limits.zmq_sockets, pool, cap, folder, grows_to, state).launch_instance(argv)


LOOPBACK_NAMES = ("localhost",)


def port_taken(ip: str, port: int) -> bool:
    """Whether another program already listens on `ip`:`port` (bound as the server's own socket will be, with
    SO_REUSEADDR, so a port a stopped server left in TIME_WAIT counts as free). Only "address in use" counts: an
    address this machine does not have, or a port it may not use, is Voilà's to report."""
    try:
        infos = socket.getaddrinfo(ip or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror:
        return False  # a name this machine cannot resolve: Voilà says so itself
    for family, kind, proto, _name, address in infos:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    return True  # (any other refusal, such as an address this machine lacks, Voilà reports itself)
    return False


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


ROUTE_PROBE = ("192.0.2.1", 9)
"""An address on no network (TEST-NET-1, RFC 5737) that `network_address` asks the way to; nothing is sent to it."""


def network_address() -> str:
    """This machine's address on its network: the one a packet to another network would leave from (a UDP socket's
    connect picks the route and sends nothing); this machine's name where it has no such route. A phone on a
    school's network reaches an address where it may not know a computer's name."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(ROUTE_PROBE)
        address = str(probe.getsockname()[0])
        if not ipaddress.ip_address(address).is_loopback and not ipaddress.ip_address(address).is_unspecified:
            return address
    return socket.gethostname()


def classroom_url(ip: str, port: int) -> str:
    """The address students type to reach a server listening on `ip` (all interfaces: `network_address`)."""
    host = network_address() if ip in ("0.0.0.0", "::", "") else ip
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def classroom_banner(url: str) -> str:
    """What the terminal shows a teacher: the address to type, and the same address as a QR code."""
    import segno

    code = io.StringIO()
    segno.make(url, micro=False).terminal(out=code, compact=True)
    return text("teacher.banner", url=url, code=code.getvalue())
