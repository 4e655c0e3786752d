"""What the app needs to know about the place it runs in, behind one small interface.

The same app runs in a kernel on a Voilà server (one kernel per visitor, see `server.py`) and, as a
static site, in the student's own browser (Voici on Pyodide). The app asks its host two things:

* `query()`: the query string of the address the visitor opened, without the "?" (a teacher's link,
  for instance "rules=1963&level=expert"); "" when there is none.
* `page_address()`: that address without its query ("" when unknown), the base of a shared link.

`current_host()` is the host in use; a site installs its own with `use_host(...)` before the app
is opened. Kernels preheated, capped and shut down are the server's business (`server.py`; a site
has none).
"""

from __future__ import annotations

import os
from typing import Protocol


class Host(Protocol):
    """Where the app runs: the address the visitor opened."""

    def query(self) -> str:
        """The query string of the visitor's address, without "?" ("" if none)."""

    def page_address(self) -> str:
        """The visitor's address without its query ("" if unknown)."""


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


_HOST: list[Host] = []


def current_host() -> Host:
    """The host in use (a `VoilaHost` unless another was installed)."""
    if not _HOST:
        _HOST.append(VoilaHost())
    return _HOST[0]


def use_host(host: Host) -> None:
    """Install `host` for this process (a static site does this before opening the app)."""
    _HOST[:] = [host]
