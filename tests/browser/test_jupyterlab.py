"""The same board in JupyterLab: a notebook that builds the app shows the table, answers a click, and takes
its colours from JupyterLab's theme (light, then dark from the Settings menu); a lesson notebook opened by a
Spanish browser speaks Spanish, as the app on a server does."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from rendered import opening, pattern
from servers import free_port, stop_server
from spoken import in_spanish

ROOT = Path(__file__).resolve().parent.parent.parent
ARTIFACTS = ROOT / "artifacts"
LESSONS = ROOT / "notebooks" / "lessons_2_special_cards.ipynb"

NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "app", "metadata": {}, "outputs": [],
               "source": "from leopard_tutor.app import build_app\n\nbuild_app()"}],
    "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}
TIMEOUT_MS = 90_000


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[str]:
    """A JupyterLab server (no token, loopback) over a folder holding the app notebook: its URL."""
    (tmp_path / "app.ipynb").write_text(json.dumps(NOTEBOOK), encoding="utf-8")
    (tmp_path / "lessons.ipynb").write_text(LESSONS.read_text(encoding="utf-8"), encoding="utf-8")
    port = free_port()
    log = tmp_path / "lab.log"
    command = [str(Path(sys.executable).parent / "jupyter"), "lab", "--allow-root", "--no-browser", f"--port={port}",
               "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
               f"--ServerApp.root_dir={tmp_path}", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
               "--LabApp.news_url=None",
               # a Lab of its own: no theme, layout or open notebook remembered from another use of this machine
               f"--LabApp.user_settings_dir={tmp_path / 'settings'}", f"--LabApp.workspaces_dir={tmp_path / 'spaces'}"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                   env={**os.environ, "JUPYTER_PLATFORM_DIRS": "1"})
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        stop_server(process)


def open_notebook(page: Any, url: str) -> Any:
    """Open a notebook in Lab (waiting for the server to start) until its kernel is idle: its first cell."""
    for _ in range(60):  # the server takes a few seconds to start
        try:
            page.goto(url, wait_until="domcontentloaded", timeout=TIMEOUT_MS)
            break
        except Exception:
            page.wait_for_timeout(1_000)
    cell = page.locator(".jp-Notebook .jp-Cell").first
    cell.wait_for(timeout=TIMEOUT_MS)
    expect(page.get_by_text(re.compile(r"Python 3 \(ipykernel\) \| Idle"))).to_be_visible(timeout=TIMEOUT_MS)
    return cell


def run_cell(page: Any, cell: Any, board: Any, shot: str) -> None:
    """Run the notebook's cell and wait until `board` has drawn its spaces (saving the screenshot `shot` either
    way)."""
    cell.click()
    page.keyboard.press("Shift+Enter")
    try:
        board.locator(".lt-space").first.wait_for(state="visible", timeout=TIMEOUT_MS)
    finally:
        page.screenshot(path=str(ARTIFACTS / shot))


def test_the_app_runs_in_jupyterlab_and_follows_its_theme(page: Any, lab: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    cell = open_notebook(page, lab + "lab/tree/app.ipynb")
    # JupyterLab's page: the app must leave its language alone (a real tag the app never sets: Lab's file list formats
    # its dates in it, and an invalid one, such as "x-lab", made Lab itself report a RangeError now and then)
    page.evaluate("document.documentElement.lang = 'fr-CA'")
    board = page.locator(".lt-play .lt-board")
    run_cell(page, cell, board, "jupyterlab.png")
    expect(board.locator(".lt-space")).to_have_count(18)
    news = page.get_by_role("button", name="No", exact=True)  # Lab asks about its news in a corner toast
    if news.count():
        news.click()
    expect(board.locator(".lt-turn")).to_have_text(
        pattern("play.turn.yours", number=r"\d+", hands=r"\d+", rules=".+"), timeout=30_000)
    seq = board.get_attribute("data-seq")
    board.locator(".lt-hand-card").first.click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(board.locator(".lt-message")).to_contain_text(opening("play.picked", "the_card", where=""))
    expect(page.locator(".lt-app")).to_have_attribute("lang", "en")  # the app's own language, as in Voilà
    assert page.evaluate("document.documentElement.lang") == "fr-CA", "JupyterLab's page keeps its own language"

    felt = "getComputedStyle(document.querySelector('.lt-board')).getPropertyValue('--lt-felt').trim()"
    assert page.evaluate("document.body.dataset.jpThemeLight") == "true"
    light_felt = page.evaluate(felt)
    page.get_by_text("Settings", exact=True).click()
    page.get_by_text("Theme", exact=True).hover()
    page.get_by_text("JupyterLab Dark", exact=True).click()
    expect(page.locator("body")).to_have_attribute("data-jp-theme-light", "false", timeout=30_000)
    assert page.evaluate(felt) != light_felt, "the table darkens with the theme"
    message = page.evaluate("getComputedStyle(document.querySelector('.lt-play .lt-message')).backgroundColor")
    assert sum(int(part) for part in message[4:-1].split(",")[:3]) / 3 < 100, message


def test_a_lesson_notebook_speaks_the_language_of_a_spanish_browser(browser: Any, lab: str,
                                                                   page_errors: list[str]) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="es-ES")
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: page_errors.append(f"pageerror: {error}"))
        cell = open_notebook(page, lab + "lab/tree/lessons.ipynb")
        app = page.locator(".lt-app")
        run_cell(page, cell, app.locator(".lt-learn .lt-board"), "jupyterlab-lessons-es.png")
        sections = app.get_by_role("tablist", name=in_spanish("app.sections_label"), exact=True)
        expect(sections.get_by_role("tab")).to_have_text([in_spanish("app.tabs.learn")], timeout=30_000)
        expect(app.locator("[role=main], [role=banner]")).to_have_count(0)  # one output of a notebook, not the page
        expect(app).to_have_attribute("lang", "es")
        expect(app.get_by_label(in_spanish("app.language.label"))).to_have_value("Español")
        expect(app.locator(".lt-stage")).to_have_count(3)  # the notebook's stages, 6 to 8
        expect(app.locator(".lt-stage").first).to_have_text(re.compile(r"^6"))
    finally:
        context.close()
