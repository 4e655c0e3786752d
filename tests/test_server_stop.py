"""How a class server stops at the end of a lesson: closing its terminal (SIGHUP, what the teachers' guide tells the
teacher to do) stops it as cleanly as Ctrl-C or SIGTERM, so that its kernels' connection folder in /tmp goes with
it; a server started under nohup (SIGHUP ignored) keeps serving when its terminal closes."""

from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from servers import a_kernel_is_ready

pytestmark = pytest.mark.slow

CONNECTION_FOLDER = re.compile(r"Storing connection files in (\S+?)\.?$", re.MULTILINE)


def connection_folder(log: Path) -> Path:
    """The connection folder the server's log names (Voilà's "Storing connection files in ...")."""
    found = CONNECTION_FOLDER.search(log.read_text())
    assert found, log.read_text()
    return Path(found.group(1))


def stopped(process: subprocess.Popen[bytes], within: float = 20) -> bool:
    """Whether `process` has ended within `within` seconds."""
    try:
        process.wait(within)
    except subprocess.TimeoutExpired:
        return False
    return True


def test_closing_the_terminal_stops_the_server_cleanly(tmp_path: Path, server_tools: Any) -> None:
    start, stop = server_tools
    server = start(tmp_path / "server.log")
    try:
        folder = connection_folder(tmp_path / "server.log")
        a_kernel_is_ready(server)  # (a lesson's end, not its first second: no kernel is starting)
        assert folder.is_dir()
        server.process.send_signal(signal.SIGHUP)
        assert stopped(server.process), "the server stops when its terminal closes"
        assert not folder.exists(), "the kernels' connection folder goes with a clean stop"
    finally:
        stop(server.process)


def test_a_server_under_nohup_keeps_serving_when_its_terminal_closes(tmp_path: Path, server_tools: Any) -> None:
    start, stop = server_tools
    server = start(tmp_path / "server.log", prefix=["nohup"])
    try:
        a_kernel_is_ready(server)
        server.process.send_signal(signal.SIGHUP)
        time.sleep(2)
        assert server.process.poll() is None, "SIGHUP ignored, as nohup asked"
    finally:
        stop(server.process)
