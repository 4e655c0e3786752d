"""The host seam of the static site (`leopard_tutor.host.BrowserHost`) without a browser: the page's
address comes in an environment variable."""

from __future__ import annotations

import sys

import pytest

from leopard_tutor import host


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
