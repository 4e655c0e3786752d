"""The host seam of the static site (`leopard_tutor.client.host.BrowserHost`) without a browser: the page's
address comes in an environment variable."""

from __future__ import annotations

import sys

import pytest

from leopard_tutor import app
from leopard_tutor.client import host


def test_the_browser_host_reads_the_page_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(host.PAGE_URL, "https://school.example/leopard/voici/render/leopard_tutor.html"
                                      "?rules=1963&level=expert#top")
    browser = host.BrowserHost()
    assert browser.query() == "rules=1963&level=expert"
    assert browser.page_address() == "https://school.example/leopard/voici/render/leopard_tutor.html"
    monkeypatch.delenv(host.PAGE_URL)
    assert browser.query() == "" and browser.page_address() == ""


def test_pyodide_gets_the_browser_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host, "_HOST", [])
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert isinstance(host.current_host(), host.BrowserHost)
    monkeypatch.setattr(host, "_HOST", [])
    monkeypatch.setattr(sys, "platform", "linux")
    assert isinstance(host.current_host(), host.VoilaHost)


def test_only_a_voila_servers_kernels_share_the_processors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    assert not host.VoilaHost().shares_processors()  # the same code in a notebook
    monkeypatch.setenv("VOILA_PREHEAT", "False")  # Voilà sets it for every kernel it starts
    assert host.VoilaHost().shares_processors()
    assert not host.BrowserHost().shares_processors()


def test_on_a_shared_server_the_review_searches_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host, "_HOST", [])
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    assert app.play_section().controller.background is None
    monkeypatch.delenv("VOILA_PREHEAT")
    monkeypatch.setattr(host, "_HOST", [])
    assert app.play_section().controller.background is not None
