"""Serve the app with Voilà: a preheated kernel, idle kernels culled, no tracebacks for visitors,
and two fixes (see ../shared/stack.md §6):

* TCP_NODELAY on the kernel websocket: without it every widget round trip waits ~40 ms (Nagle's
  algorithm meeting delayed ACKs); benchmarks/app_speed.py measures both ways.
* The shutdown beacon Voilà sends when a tab closes cannot carry the XSRF header, so stock Voilà
  answers 403 and the kernel lives on. The shutdown handler here accepts a request whose Origin (or,
  lacking one, Referer) is this very server: what a browser's beacon from the app's own page carries,
  and what no other website can forge. One from another origin is refused; one naming no origin at
  all gets the stock XSRF check.

`apply_fixes()` is for standalone Voilà (this launcher); `apply_server_fixes()` is for Voilà as a
Jupyter server extension (Binder's `/voila/render/...`), called from binder/jupyter_server_config.py.
"""

from __future__ import annotations

import html
import io
import json
import os
import socket
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .engine.catalogue import text

NOTEBOOK_NAME = "leopard_tutor.ipynb"
LOOPBACK = "127.0.0.1"
DATA_DIR = Path(__file__).resolve().parent / "share"  # holds voila/templates/leopard: the lab template, no CDN
TEMPLATE = "leopard"
REPO_NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / NOTEBOOK_NAME
CULL_IDLE_SECONDS = 600
CULL_INTERVAL_SECONDS = 60


def _set_nodelay_on_open(handler: Any) -> None:
    if getattr(handler, "_leopard_nodelay", False):
        return
    original = handler.open

    def open_with_nodelay(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.set_nodelay(True)
        return original(self, *args, **kwargs)

    handler.open = open_with_nodelay
    handler._leopard_nodelay = True


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
            raise HTTPError(403, "a session can only be ended from its own page")
        checked(self)

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


MEMORY_PER_SESSION = 70 * 2**20  # bytes: a kernel with every tab of the app open takes about 60 MB
FULL_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Leopard Tutor</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font: 1.25rem/1.5 system-ui, sans-serif; margin: 3rem auto; max-width: 36rem; padding: 0 1rem">
<p>{text}</p></body></html>"""


def default_session_cap() -> int:
    """How many sessions fit in 60% of this machine's memory, at MEMORY_PER_SESSION each (at least 1)."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        memory = 4 * 2**30
    return max(1, int(memory * 0.6) // MEMORY_PER_SESSION)


def live_sessions(kernel_manager: Any, notebook: str) -> int:
    """Kernels handed to visitors: all running kernels but the preheated ones waiting in the pool."""
    pooled = kernel_manager.get_pool_size(notebook) if hasattr(kernel_manager, "get_pool_size") else 0
    return max(0, len(kernel_manager.list_kernel_ids()) - pooled)


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


def cap_sessions(limit: int) -> None:
    """Past `limit` live sessions, a visit gets a plain "the class is full" page (HTTP 503), no kernel."""
    from voila.tornado.handler import TornadoVoilaHandler

    original = getattr(TornadoVoilaHandler, "_leopard_get", TornadoVoilaHandler.get)

    async def get(self: Any, path: str | None = None) -> None:
        fresh_when_handed_out(self.kernel_manager)
        sessions = live_sessions(self.kernel_manager, self.notebook_path or path or "")
        if sessions >= limit:
            self.set_status(503)
            self.set_header("Retry-After", "60")
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(FULL_PAGE.format(text=html.escape(text("app.class_full", sessions=sessions))))
            return
        await original(self, path)

    TornadoVoilaHandler._leopard_get = original
    TornadoVoilaHandler.get = get


def apply_fixes(nodelay: bool = True) -> None:
    """Patch standalone Voilà: websocket TCP_NODELAY (unless `nodelay` is False) and the shutdown beacon."""
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    if nodelay:
        _set_nodelay_on_open(VoilaKernelWebsocketHandler)
    _accept_shutdown_beacon()
    read_theme_links()


def apply_server_fixes(nodelay: bool = True) -> None:
    """Patch a Jupyter server running Voilà as an extension (JupyterLab, Binder) the same way."""
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler

    if nodelay:
        _set_nodelay_on_open(KernelWebsocketHandler)
    _accept_shutdown_beacon()
    read_theme_links()


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
               theme: str = "auto") -> list[str]:
    """Voilà's command line for the app (`theme`: one of THEMES)."""
    argv = [
        "voila", str(notebook), f"--port={port}", f"--Voila.ip={ip}", "--show_tracebacks=False",
        f"--template={TEMPLATE}",
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_SECONDS}",
        f"--MappingKernelManager.cull_interval={CULL_INTERVAL_SECONDS}",
        "--MappingKernelManager.cull_connected=False",
        "--VoilaConfiguration.http_header_envs=X-Forwarded-Proto",  # behind a proxy: the scheme of shared links
        theme_option(theme),
    ]
    if preheat:
        argv += ["--preheat_kernel=True", "--pool_size=1"]
    if not open_browser:
        argv.append("--no-browser")
    return argv


def theme_option(theme: str) -> str:
    """The Voilà option for a theme of THEMES: a fixed theme, or the template's "follow the browser"."""
    if theme not in THEMES:
        raise ValueError(f"the theme is one of {', '.join(THEMES)}, not {theme!r}")
    if theme == "auto":
        return f"--VoilaConfiguration.resources={json.dumps(AUTO_THEME)}"
    return f"--VoilaConfiguration.theme={theme}"


AUTO_THEME = {"leopard_theme": "auto"}
"""What the template is given to follow the visitor's browser (light, or dark if it prefers dark)."""


def serve(port: int = 8866, open_browser: bool = True, *, preheat: bool = True, nodelay: bool = True,
          ip: str = LOOPBACK, max_sessions: int | None = None, theme: str = "auto") -> None:
    """Start Voilà on the app notebook at http://`ip`:`port` (blocks until stopped), with at most
    `max_sessions` visitors at once (default: what the machine's memory holds), in `theme`."""
    from voila.app import main

    apply_fixes(nodelay=nodelay)
    cap_sessions(max_sessions or default_session_cap())
    use_own_template()
    sys.argv = voila_argv(notebook_path(), port, open_browser, preheat, ip, theme)
    main()


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
    return f"Students can open {url}\nor scan this code:\n{code.getvalue()}"
