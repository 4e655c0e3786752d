"""The host seam of the static site (`leopard_tutor.host.BrowserHost`) and the progress it keeps, without a
browser: the page's address and storage come in environment variables, kept texts go out on a
BroadcastChannel (a fake `js` module stands in for Pyodide's)."""

from __future__ import annotations

import json
import sys
import types
from typing import Any

import pytest

from leopard_tutor import app, host
from leopard_tutor.lessons import LESSONS, Progress


@pytest.fixture
def posted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """What the kernel sends the page: (channel, message) pairs, through a fake `js.BroadcastChannel`."""
    sent: list[tuple[str, str]] = []

    class Channel:
        def __init__(self, name: str) -> None:
            self.name = name

        @classmethod
        def new(cls, name: str) -> Channel:
            return cls(name)

        def postMessage(self, message: str) -> None:  # the browser API spells it so
            sent.append((self.name, message))

        def close(self) -> None:
            pass

    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(BroadcastChannel=Channel))
    return sent


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


@pytest.mark.parametrize("given", ["", "not json", "[1, 2]", '{"progress": 5}', json.dumps({"progress": "x" * 5000})])
def test_storage_the_page_could_not_read_well_is_nothing(monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    monkeypatch.setenv(host.SAVED, given)
    assert host.BrowserHost().saved("progress") is None


def test_a_kept_text_goes_to_the_page_and_is_read_back(monkeypatch: pytest.MonkeyPatch,
                                                      posted: list[tuple[str, str]]) -> None:
    monkeypatch.setenv(host.SAVED, json.dumps({"progress": "LT2-abc", "other": "kept"}))
    browser = host.BrowserHost()
    assert browser.saved("progress") == "LT2-abc" and browser.saved("missing") is None
    browser.save("progress", "LT2-new")
    assert posted == [(host.CHANNEL, json.dumps({"key": "progress", "value": "LT2-new"}))]
    assert browser.saved("progress") == "LT2-new"
    browser.save("progress", "x" * (host.MAX_SAVED + 1))  # too long to keep: nothing sent, nothing changed
    assert len(posted) == 1 and browser.saved("progress") == "LT2-new"


class Kept:
    """A host that keeps texts in a dict."""

    def __init__(self, **texts: str) -> None:
        self.texts = dict(texts)

    def query(self) -> str:
        return ""

    def page_address(self) -> str:
        return ""

    def saved(self, key: str) -> str | None:
        return self.texts.get(key)

    def save(self, key: str, value: str) -> None:
        self.texts[key] = value


def test_progress_is_loaded_from_the_host_and_every_change_kept() -> None:
    earlier = Progress()
    earlier.record_lesson(LESSONS[0].key, 2)
    kept = Kept(progress=earlier.to_code())
    progress = Progress()
    app.keep_progress(progress, kept)
    assert progress.stars == {LESSONS[0].key: 2}
    progress.record_lesson(LESSONS[1].key, 3)
    progress.record_practice("lines", right=False)
    assert Progress.from_code(kept.texts["progress"]).stars == {LESSONS[0].key: 2, LESSONS[1].key: 3}
    assert Progress.from_code(kept.texts["progress"]).practice == {"lines": (0, 1)}
    other = Kept()
    app.keep_progress(progress, other)  # the app opened again: only the new host keeps what follows
    progress.record_practice("lines", right=True)
    assert Progress.from_code(other.texts["progress"]).practice == {"lines": (1, 1)}
    assert Progress.from_code(kept.texts["progress"]).practice == {"lines": (0, 1)}


def test_a_damaged_kept_code_is_left_aside(caplog: Any) -> None:
    progress = Progress()
    app.keep_progress(progress, Kept(progress="LT2-damaged!"))
    assert progress.stars == {} and "could not be read" in caplog.text
