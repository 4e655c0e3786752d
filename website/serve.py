"""Serve the built site as a school's web host should, for trying it out on one's own computer:

    python3 website/serve.py [build/site] [--port 8000]

WebAssembly as application/wasm (so the browser compiles it as it arrives, and keeps the compiled code in the
visitor's profile), the runtime and the wheels in static/ cached for a year and the pages checked on every
visit (so a later visit asks for nothing but the page; a new build's files have new addresses there, named by their
content: website/build.py, `content_named` and `write_lite_config`). `python3 -m http.server` works too: it sends no
Cache-Control, and a warm visit was no slower with it (benchmarks/HISTORY.md, "The static website").
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

CACHE_CONTROL = {"static/": "public, max-age=31536000", "": "no-cache"}
"""Cache-Control by the start of a file's path in the site (the first that matches)."""


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves the site's files with CACHE_CONTROL, and WebAssembly as application/wasm."""

    extensions_map: ClassVar[dict[str, str]] = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}
    cache_control: ClassVar[bool] = True

    def end_headers(self) -> None:
        if self.cache_control:
            path = self.path.split("?", 1)[0].lstrip("/")
            self.send_header("Cache-Control", next(v for k, v in CACHE_CONTROL.items() if path.startswith(k)))
        super().end_headers()


class SiteServer(ThreadingHTTPServer):
    """A threaded HTTP server that is silent when a visitor's browser drops a connection mid-answer (a tab closed
    or a page left while the runtime was downloading: nothing went wrong on the server); any other error while
    answering is printed as `ThreadingHTTPServer` prints it."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def main() -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, nargs="?", default=Path(__file__).resolve().parent.parent / "build" / "site")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    server = SiteServer(("", args.port), functools.partial(SiteHandler, directory=str(args.site)))
    print(f"serving {args.site} at http://127.0.0.1:{args.port}/ (Ctrl+C stops)")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


if __name__ == "__main__":
    main()
