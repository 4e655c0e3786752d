"""The Binder set-up: its files agree with the project, and its steps, followed in a fresh virtual
environment, give a `jupyter server` that renders the app at /voila/render/notebooks/leopard_tutor.ipynb."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from rendered import opening, pattern

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"
RENDER = "voila/render/notebooks/leopard_tutor.ipynb"
PIP_TIMEOUT = 900


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kernel_ids(url: str) -> list[str]:
    """The kernels the Jupyter server is running (its REST API; the token is off in this test)."""
    with urllib.request.urlopen(url + "api/kernels", timeout=5) as reply:
        return [k["id"] for k in json.loads(reply.read())]


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if "==" in line:
            name, version = line.split("==")
            found[name.lower().replace("-", "_")] = version
    return found


def test_binder_files_agree_with_the_project() -> None:
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"
    assert pins(BINDER / "requirements.txt") == pins(ROOT / "requirements.txt")
    post = BINDER / "postBuild"
    assert os.access(post, os.X_OK)
    text = post.read_text()
    assert text.startswith("#!/bin/bash\n") and "set -euo pipefail" in text and "-e ." in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    badge = re.search(r"\(https://mybinder\.org/v2/gh/([^/]+)/leopard-tutor/main\?urlpath=([^)\s]+)\)", readme)
    assert badge, "the README needs a Binder badge linking to the Voilà app"
    assert badge.group(2) == "voila%2Frender%2Fnotebooks%2Fleopard_tutor.ipynb"
    assert (ROOT / RENDER.removeprefix("voila/render/")).is_file()


@pytest.fixture(scope="module")
def binder_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Binder's steps in a fresh venv: pip install -r binder/requirements.txt, run postBuild, start jupyter server."""
    venv = tmp_path_factory.mktemp("binder") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {**os.environ, "PATH": f"{venv / 'bin'}:{os.environ['PATH']}", "VIRTUAL_ENV": str(venv),
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "JUPYTER_PLATFORM_DIRS": "1"}
    env.pop("PYTHONPATH", None)
    subprocess.run([venv / "bin" / "python", "-m", "pip", "install", "-q", "-r", BINDER / "requirements.txt"],
                   check=True, timeout=PIP_TIMEOUT, env=env, cwd=ROOT)
    subprocess.run(["bash", BINDER / "postBuild"], check=True, timeout=PIP_TIMEOUT, env=env, cwd=ROOT)
    assert (venv / "etc" / "jupyter" / "jupyter_server_config.py").read_text() == \
        (BINDER / "jupyter_server_config.py").read_text()
    port = free_port()
    log = venv.parent / "jupyter-server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [venv / "bin" / "jupyter", "server", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
             "--IdentityProvider.token=", "--allow-root", f"--ServerApp.root_dir={ROOT}"],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, log.read_text(errors="replace")
            try:
                with urllib.request.urlopen(url + "api", timeout=2):
                    break
            except OSError:
                assert time.monotonic() < deadline, log.read_text(errors="replace")
                time.sleep(0.3)
        yield url, log
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.mark.slow
def test_binder_steps_render_the_app_through_jupyter_server(binder_server: tuple[str, Path], page: Any) -> None:
    url, log = binder_server
    page.goto(url + RENDER, wait_until="commit", timeout=120_000)
    board = page.locator(".lt-board").first
    spaces = board.locator(".lt-space")
    expect(spaces).to_have_count(18, timeout=120_000)
    expect(board.locator(".lt-turn")).to_have_text(
        pattern("play.turn.yours", number=r"\d+", hands=r"\d+", rules=".+"), timeout=30_000)
    seq = board.get_attribute("data-seq")
    board.locator(".lt-hand-card").first.click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(board.locator(".lt-message")).to_contain_text(opening("play.picked", "the_card", where=""))
    assert "cdn.jsdelivr.net" not in page.content(), "the app's own template, with no CDN links"
    assert len(kernel_ids(url)) == 1
    page.goto("about:blank")  # the tab-close beacon must be accepted (the config file's fix is loaded)
    deadline = time.monotonic() + 15
    while kernel_ids(url) and time.monotonic() < deadline:
        time.sleep(0.3)
    assert kernel_ids(url) == []
    text = log.read_text(errors="replace")
    assert "403 POST /voila/api/shutdown" not in text
    assert "Traceback" not in text
