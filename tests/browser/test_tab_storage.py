"""Play's matches kept per tab by `storage.js` (BrowserStorage per_tab), in a real Chromium but without a kernel: the
widget's module rendered on a page of its own with a stand-in model, several pages of one browser for its tabs (the
app itself in tabs: tests/browser/test_recovery.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from leopard_tutor.widgets.storage import MAX_STORED, kept_script

KEY = "leopard-tutor/matches"
ORIGIN = "http://tabs.test/"
PAGE = """<!doctype html><script type="module">
import storage from "./storage.js";
window.saves = {};
window.mount = (key, perTab) => new Promise((resolve) => {  // what the page sends back once it has read
  const state = { key, per_tab: perTab, saved: "" };
  const handlers = {};
  const model = { get: (name) => state[name], send: resolve, on: (event, f) => { handlers[event] = f; },
                  off: () => {} };
  window.saves[key] = (value) => { state.saved = value; handlers["change:saved"](); };
  storage.render({ model, el: document.createElement("div") });
});
</script>"""

Tab = Callable[..., tuple[Any, dict[str, Any]]]


@pytest.fixture
def tabs(context: Any) -> Tab:
    """A function that opens a new tab of the browser (or, `copy_of`, the duplicate of a tab, which has a copy of its
    sessionStorage), with `before` put in its localStorage first, and renders the storage there: the tab and what
    it sent back."""
    def fulfil(route: Any) -> None:
        script = route.request.url.endswith("storage.js")
        route.fulfill(status=200, content_type="text/javascript" if script else "text/html",
                      body=kept_script("storage.js") if script else PAGE)

    context.route(ORIGIN + "**", fulfil)

    def open_tab(copy_of: Any = None, before: dict[str, str] | None = None, key: str = KEY,
                 per_tab: bool = True) -> tuple[Any, dict[str, Any]]:
        tab = context.new_page()
        if copy_of is not None:  # what "Duplicate tab" does: the new tab starts with the other's sessionStorage
            # (or, given a closed tab's entries, what reopening it does)
            entries = json.dumps(copy_of if isinstance(copy_of, list) else session_of(copy_of))
            tab.add_init_script(
                f"if (!sessionStorage.length) for (const [k, v] of {entries}) sessionStorage.setItem(k, v);")
        tab.goto(ORIGIN)
        return tab, render(tab, before, key, per_tab)

    return open_tab


def render(tab: Any, before: dict[str, str] | None = None, key: str = KEY, per_tab: bool = True) -> dict[str, Any]:
    tab.wait_for_function("() => window.mount !== undefined")
    tab.evaluate("(before) => { for (const [k, v] of Object.entries(before)) localStorage.setItem(k, v); }",
                 before or {})
    told: dict[str, Any] = tab.evaluate("([key, perTab]) => mount(key, perTab)", [key, per_tab])
    return told


def told(value: str, held: bool = False, tab: bool = False) -> dict[str, Any]:
    return {"type": "restore", "value": value, "tab": tab, "held": held, "refused": False}


def save(tab: Any, value: str, key: str = KEY) -> None:
    tab.evaluate("([key, value]) => saves[key](value)", [key, value])


def kept(tab: Any) -> dict[str, str]:
    """What the browser's localStorage holds."""
    found: dict[str, str] = tab.evaluate("Object.fromEntries(Object.entries(localStorage))")
    return found


def sets(tab: Any) -> dict[str, str]:
    """The tabs' sets the browser keeps: {tab id: text}."""
    return {name.removeprefix(f"{KEY}#set:"): json.loads(value)["value"] for name, value in kept(tab).items()
            if name.startswith(f"{KEY}#set:")}


def session_of(tab: Any) -> list[list[str]]:
    """The tab's sessionStorage: [[key, value]]."""
    found: list[list[str]] = tab.evaluate("Object.entries(sessionStorage)")
    return found


def tab_id(tab: Any) -> str:
    found: str = tab.evaluate(f"sessionStorage.getItem('{KEY}#tab')")
    return found


def test_each_tab_keeps_its_own_and_new_tabs_take_up_the_closed_tabs_newest_first(tabs: Tab) -> None:
    """The QA's case: the first tab plays X; a second, told X goes on elsewhere, plays Y and saves last; both closed,
    X was lost once a new tab took up Y. Each tab's set is kept now: new tabs take up Y, then X."""
    first, said = tabs()
    assert said == told("")
    save(first, "X")
    second, said = tabs()
    assert said == told("X", held=True)
    save(second, "Y")
    assert sets(second) == {tab_id(first): "X", tab_id(second): "Y"}
    assert KEY not in kept(second) and f"{KEY}#holder" not in kept(second)
    second.close()
    first.close()
    third, said = tabs()
    assert said == told("Y")  # the newest first
    fourth, said = tabs()
    assert said == told("X")  # the third holds Y: the fourth takes up the other
    assert sets(fourth) == {tab_id(third): "Y", tab_id(fourth): "X"}  # moved: no closed tab's set is taken twice
    _, said = tabs()
    assert said == told("X", held=True)  # all held: the newest of them is said to be held elsewhere
    save(fourth, "")
    assert sets(fourth) == {tab_id(third): "Y"}
    third.reload()
    assert render(third) == told("Y", tab=True)


def test_a_duplicated_tab_leaves_the_match_to_the_tab_it_copies(tabs: Tab) -> None:
    first, _ = tabs()
    save(first, "X")
    copy, said = tabs(copy_of=first)
    assert said == told("X", held=True)
    assert tab_id(copy) != tab_id(first)
    save(copy, "Z")
    assert sets(copy) == {tab_id(first): "X", tab_id(copy): "Z"}
    first.reload()
    assert render(first) == told("X", tab=True)


def test_a_reopened_tab_leaves_its_match_to_the_tab_that_took_it_up(tabs: Tab) -> None:
    """A closed tab that the browser reopens gets its sessionStorage back: it took up its own copy of the match a new
    tab had taken up since, and the two tabs played one match apart (the QA's finding). It now does as a new tab does:
    nothing taken up while that tab is open, the match taken up again once it is closed."""
    first, _ = tabs()
    save(first, "X")
    closed = session_of(first)
    first.close()
    second, said = tabs()
    assert said == told("X")
    reopened, said = tabs(copy_of=closed)
    assert said == told("X", held=True)
    assert tab_id(reopened) == dict(closed)[f"{KEY}#tab"] and sets(reopened) == {tab_id(second): "X"}
    reopened.close()
    second.close()
    again, said = tabs(copy_of=closed)
    assert said == told("X")  # the tab that held it closed too: the reopened tab takes the match up again
    assert sets(again) == {tab_id(again): "X"}


def test_the_text_kept_for_all_tabs_before_is_taken_up_once_and_the_sets_are_bounded(tabs: Tab) -> None:
    first, said = tabs(before={KEY: "OLD", f"{KEY}#holder": "closed-tab"})
    assert said == told("OLD")
    assert kept(first) == {f"{KEY}#set:{tab_id(first)}": kept(first)[f"{KEY}#set:{tab_id(first)}"]}
    save(first, "NEW")
    assert KEY not in kept(first) and sets(first) == {tab_id(first): "NEW"}
    first.close()
    many = {f"{KEY}#set:old{at}": json.dumps({"at": at, "value": f"V{at}"}) for at in range(1, 8)}
    damaged = {f"{KEY}#set:bad": "{", f"{KEY}#set:long": json.dumps({"at": 9e15, "value": "x" * (MAX_STORED + 1)}),
               f"{KEY}#set:at": json.dumps({"at": "soon", "value": "V"}),
               f"{KEY}#set:" + "i" * 41: many[f"{KEY}#set:old7"]}  # damaged, too long, no time, not an id of ours
    second, said = tabs(before={**many, **damaged})
    assert said == told("NEW")  # the newest readable one
    save(second, "MINE")
    assert sets(second) == {tab_id(second): "MINE", "old7": "V7", "old6": "V6", "old5": "V5", "old4": "V4",
                            "old3": "V3"}
    assert render(second, key="leopard-tutor/progress", per_tab=False) == told("")  # the progress: one for all tabs
    save(second, "LT2-x", key="leopard-tutor/progress")
    assert kept(second)["leopard-tutor/progress"] == "LT2-x"
