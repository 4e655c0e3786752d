"""What the app needs to know about the place it runs in, behind one small interface.

The same app runs in a kernel on a Voilà server (one kernel per visitor, see `server/launch.py`) and, as a
static site, in the student's own browser (Voici on Pyodide). The app asks its host four things:

* `query()`: the query string of the address the visitor opened, without the "?" (a teacher's link,
  for instance "rules=1963&level=expert"); "" when there is none.
* `page_address()`: that address without its query ("" when unknown), the base of a shared link.
* `shares_processors()`: whether many visitors' kernels share this machine's processors (a Voilà
  server), so that work nobody has asked for yet (the review's background search) should wait.
* `languages()`: the languages the visitor's browser asked for, best first, as it said them
  ("es-ES", "en"): the app is drawn at once in one of them (the page says them again when it is drawn).

`current_host()` is the host in use: a `BrowserHost` under Pyodide, else a `VoilaHost`; another can be
installed with `use_host(...)` before the app is opened. Kernels preheated, capped and shut down are the
server's business (`server/`; a site has none). What the browser keeps from one visit to the next
(the learner's progress) is kept by a widget in the page, the same under every host (`widgets/storage.py`).
"""

from __future__ import annotations

import os
import sys
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

from ..protocol import MAX_LANGUAGES, accepted_languages

PAGE_URL = "LEOPARD_TUTOR_PAGE_URL"
"""The environment variable in which the static site's page gives the kernel its own address."""
BROWSER_LANGUAGES = "LEOPARD_TUTOR_BROWSER_LANGUAGES"
"""The environment variable in which the static site's page gives the kernel the browser's languages."""


class Host(Protocol):
    """Where the app runs: the address the visitor opened."""

    def query(self) -> str:
        """The query string of the visitor's address, without "?" ("" if none)."""

    def page_address(self) -> str:
        """The visitor's address without its query ("" if unknown)."""

    def shares_processors(self) -> bool:
        """Whether other visitors' kernels share this machine's processors."""

    def languages(self) -> tuple[str, ...]:
        """The languages the visitor's browser asked for, best first (none when unknown)."""


class VoilaHost:
    """A kernel started by Voilà for one visitor (standalone, or on Binder as a server extension).

    Voilà passes the visitor's request to the kernel in CGI-style environment variables. A preheated
    kernel is started before anyone visits, so the first question waits until Voilà hands the kernel
    to a visitor; outside Voilà (a notebook, a test) the variables are simply absent.
    """

    def __init__(self) -> None:
        self._asked = False

    def _request(self) -> None:
        if not self._asked and os.environ.get("VOILA_PREHEAT") == "True":
            from .kernel_request import wait_for_visitor

            wait_for_visitor()
        self._asked = True

    def query(self) -> str:
        """The QUERY_STRING Voilà gave this kernel."""
        self._request()
        return os.environ.get("QUERY_STRING", "")

    def page_address(self) -> str:
        """SCHEME://SERVER_NAME:SERVER_PORT/SCRIPT_NAME as the visitor's browser asked for it (the scheme is
        http unless a proxy in front said https in X-Forwarded-Proto)."""
        self._request()
        name, port, path = (os.environ.get(key, "") for key in ("SERVER_NAME", "SERVER_PORT", "SCRIPT_NAME"))
        if not name:
            return ""
        if ":" in name and not name.startswith("["):
            name = f"[{name}]"
        scheme = "https" if os.environ.get("HTTP_X_FORWARDED_PROTO", "").lower() == "https" else "http"
        return f"{scheme}://{name}{':' + port if port else ''}{path or '/'}"

    def languages(self) -> tuple[str, ...]:
        """The languages of the visitor's Accept-Language header (which the server passes to its kernels)."""
        self._request()
        return accepted_languages(os.environ.get("HTTP_ACCEPT_LANGUAGE", ""))

    def shares_processors(self) -> bool:
        """Whether this kernel was started by Voilà (which sets VOILA_PREHEAT for every kernel it starts): a
        server's kernels share its processors; the same code in a notebook has the machine to itself."""
        return "VOILA_PREHEAT" in os.environ


class BrowserHost:
    """Pyodide in the visitor's own browser (the static site built by website/build.py).

    The kernel runs in a web worker, whose `js.location` is the worker script's address, not the page's;
    so the page hands its address to the kernel in the environment variable PAGE_URL when it starts it.
    """

    def query(self) -> str:
        """The query string of the page's address."""
        return urlsplit(os.environ.get(PAGE_URL, "")).query

    def page_address(self) -> str:
        """The page's address without its query and fragment ("" if the page did not say)."""
        page = urlsplit(os.environ.get(PAGE_URL, ""))
        return urlunsplit((page.scheme, page.netloc, page.path, "", "")) if page.scheme and page.netloc else ""

    def languages(self) -> tuple[str, ...]:
        """The browser's languages, as the page handed them over (BROWSER_LANGUAGES)."""
        return tuple(os.environ.get(BROWSER_LANGUAGES, "")[:500].split(","))[:MAX_LANGUAGES]

    def shares_processors(self) -> bool:
        """False: the kernel runs in this visitor's own browser."""
        return False


def in_browser() -> bool:
    """Whether this Python is Pyodide, in a browser."""
    return sys.platform == "emscripten"


_HOST: list[Host] = []


def current_host() -> Host:
    """The host in use: the one installed, else a `BrowserHost` under Pyodide and a `VoilaHost` elsewhere."""
    if not _HOST:
        _HOST.append(BrowserHost() if in_browser() else VoilaHost())
    return _HOST[0]


def use_host(host: Host) -> None:
    """Install `host` for this process (a static site does this before opening the app)."""
    _HOST[:] = [host]
