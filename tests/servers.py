"""Starting and stopping the servers the browser tests drive (shared by the fixtures and the tests)."""

from __future__ import annotations

import socket
import subprocess


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stop our own server process (and only it)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
