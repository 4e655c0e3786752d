"""Starting and stopping the servers the browser tests drive, and whether their browser is there (shared by the
fixtures and the tests)."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PORTS_FOR_WORKERS = (12000, 32000)
"""The ports pytest-xdist's workers share out for their servers (the system hands out 32768 and up itself)."""


def need_chromium() -> None:
    """Skip the test when Debian's Chromium is missing at CHROMIUM; under CI=true, fail it instead."""
    if not Path(CHROMIUM).exists():
        message = f"Chromium is missing at {CHROMIUM}: install it with 'apt-get install chromium'"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)


def free_port() -> int:
    """A TCP port nobody listens on right now; under pytest-xdist one from a range of this worker's own, below the
    ports the system hands out itself, so that two workers starting servers at once never pick the same."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    span = PORTS_FOR_WORKERS[1] - PORTS_FOR_WORKERS[0]
    low = PORTS_FOR_WORKERS[0] + worker * span // workers
    for _ in range(1000):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", random.randrange(low, low + span // workers) if workers > 1 else 0))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise RuntimeError("no free port")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stop our own server process (and only it)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def kernel_count(server_pid: int) -> int:
    """How many kernels the server `server_pid` has now (the preheated one included)."""
    count = 0
    for child in psutil.Process(server_pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(child.cmdline()) and child.status() != psutil.STATUS_ZOMBIE:
                count += 1
        except psutil.Error:
            continue
    return count


def kernels_waiting_for_a_visitor(server_pid: int, port: int) -> int:
    """How many preheated kernels of the server `server_pid` (listening on `port`) have built the app and wait for
    their visitor: each holds its connection to the server's query socket open until one comes."""
    count = 0
    for child in psutil.Process(server_pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(child.cmdline()) and any(
                    c.raddr and c.raddr.port == port and c.status == psutil.CONN_ESTABLISHED
                    for c in child.net_connections("tcp")):
                count += 1
        except psutil.Error:
            continue
    return count


def a_kernel_is_ready(server: Any, timeout: float = 60) -> None:
    """Wait until `server` (an AppServer of conftest.py) has a preheated kernel ready for the next visitor."""
    port = int(server.url.rstrip("/").rsplit(":", 1)[1])
    deadline = time.monotonic() + timeout
    while not kernels_waiting_for_a_visitor(server.process.pid, port):
        assert time.monotonic() < deadline, "no preheated kernel got ready"
        time.sleep(0.1)
