"""Shared fixtures: a real `leopard-tutor` server (Voilà) on a free port, started once per session."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
START_TIMEOUT = 90


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class AppServer:
    """A running app server: its base URL, process and log file."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_text(self) -> str:
        """Everything the server printed so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")


def wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float = START_TIMEOUT) -> None:
    """Poll a static asset (never the notebook, which would start a kernel) until the server answers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url + "voila/static/voila.js", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within {timeout} s:\n{log.read_text(errors='replace')}")


def start_server(log: Path, *extra: str) -> AppServer:
    """Start `leopard-tutor --no-browser --port P` (plus `extra` options) and wait until it answers."""
    port = free_port()
    command = shutil.which("leopard-tutor", path=str(Path(sys.executable).parent)) or "leopard-tutor"
    env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "PYTHONUNBUFFERED": "1"}
    with log.open("wb") as out:
        process = subprocess.Popen([command, "--no-browser", "--port", str(port), *extra], stdout=out,
                                   stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_up(url, process, log)
    except RuntimeError:
        stop_server(process)
        raise
    return AppServer(url, process, log)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stop our own server process (and only it)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@pytest.fixture(scope="session")
def app_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """One real app server for the whole session."""
    server = start_server(tmp_path_factory.mktemp("server") / "server.log")
    try:
        yield server
    finally:
        stop_server(server.process)


@pytest.fixture(scope="session")
def base_url(app_server: AppServer) -> str:
    """The app's base URL, such as http://127.0.0.1:40123/."""
    return app_server.url


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go (gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
