"""website/serve.py's server: a visitor who leaves while a file is still downloading costs the server no
traceback; any other error while answering is still printed."""

from __future__ import annotations

import functools
import socket
import struct
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from project_scripts import load_site_tool

serve = load_site_tool("serve")


def leave_mid_download(server_class: type[ThreadingHTTPServer], folder: Path) -> None:
    """Ask `server_class`, serving `folder`, for its big file and drop the connection (a reset) after the first
    bytes; return once the server has finished with the request."""
    done = threading.Event()

    class Watched(server_class):  # type: ignore[valid-type, misc]
        def shutdown_request(self, request: socket.socket) -> None:  # called last, whatever happened
            super().shutdown_request(request)
            done.set()

    server = Watched(("127.0.0.1", 0), functools.partial(serve.SiteHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with socket.create_connection(server.server_address[:2], timeout=10) as client:
            client.sendall(b"GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert client.recv(100).startswith(b"HTTP/1.0 200")
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close = reset
        assert done.wait(20), "the server did not finish the request"
    finally:
        server.shutdown()
        server.server_close()


def test_a_visitor_leaving_mid_download_prints_no_traceback(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "big.bin").write_bytes(bytes(64 * 2**20))
    leave_mid_download(ThreadingHTTPServer, tmp_path)
    assert "Exception occurred during processing of request" in capsys.readouterr().err  # what it used to print
    leave_mid_download(serve.SiteServer, tmp_path)
    said = capsys.readouterr().err
    assert "GET /big.bin" in said and "Exception occurred" not in said


def test_any_other_error_while_answering_is_still_printed(capsys: pytest.CaptureFixture[str]) -> None:
    server = serve.SiteServer(("127.0.0.1", 0), serve.SiteHandler, bind_and_activate=False)
    try:
        raise ValueError("a fault in the handler")
    except ValueError:
        server.handle_error(None, ("127.0.0.1", 1))
    said = capsys.readouterr().err
    assert "Exception occurred during processing of request" in said and "a fault in the handler" in said
