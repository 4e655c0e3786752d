"""Teacher links: every setting read and checked, bad values explained, and the app set up by them."""

from __future__ import annotations

import random

import ipywidgets as W
import pytest
from keyed import keys_in, mark, said

from leopard_tutor import app
from leopard_tutor.ai import LEVELS
from leopard_tutor.client import host
from leopard_tutor.deals import DEAL_CODE, deal_link, deal_seed, new_deal_code
from leopard_tutor.engine.rules import LINK_WORDS, RULE_SETS
from leopard_tutor.lessons import LESSONS
from leopard_tutor.links import MAX_QUERY, read_link

TABS = ("play", "learn", "examples", "practice")


def read(query: str):  # type: ignore[no-untyped-def]
    return read_link(query, levels=LEVELS, tabs=TABS, lessons=len(LESSONS))


def test_good_links_are_read() -> None:
    link = read("rules=1963&level=Expert&deal=k7f3qx2m")
    assert (link.rules, link.level, link.deal, link.tab, link.lesson, link.notes) == (
        "ORIGINAL_1963", "expert", "K7F3QX2M", None, None, ())
    assert read("rules=running").rules == "RUNNING_LEOPARD" and read("rules=revised_2008").rules == "REVISED_2008"
    learn = read("tab=learn&lesson=5")
    assert (learn.tab, learn.lesson, learn.notes) == ("learn", 5, ())
    assert read("lesson=3").tab == "learn"
    assert read("").notes == ()


def test_every_rule_set_has_a_word_in_links_that_reads_back_as_it() -> None:
    assert set(LINK_WORDS) == set(RULE_SETS)
    for key, word in LINK_WORDS.items():
        link = deal_link("http://h/", deal="ABCD2345", rules=key, level=None)
        assert link.endswith(f"rules={word}") and read(link.partition("?")[2]).rules == key


@pytest.mark.parametrize(("query", "key", "facts"), [
    ("rules=1999", "rules", {"value": "'1999'"}),
    ("level=grandmaster", "level", {"value": "'grandmaster'"}),
    ("deal=no%20spaces!", "deal", {"value": "'no spaces!'"}),
    ("tab=chess", "tab", {"value": "'chess'", "known": ", ".join(TABS)}),
    ("lesson=0", "lesson", {"value": "'0'", "last": len(LESSONS)}),
    ("lesson=99", "lesson", {"value": "'99'", "last": len(LESSONS)}),
    ("lesson=%C2%B2", "lesson", {"value": "'²'"}),
    ("tab=play&lesson=2", "lesson_tab", {"tab": "play"}),
    ("colour=red", "unknown", {"name": "'colour'"}),
    ("level=expert&level=beginner", "twice", {"name": "level"}),
    ("rules=" + "9" * 200, "rules", {"value": repr("9" * 29 + "…")}),
])
def test_a_bad_value_is_left_out_with_a_note_that_says_why(query: str, key: str, facts: dict[str, object],
                                                            keyed: None) -> None:
    link = read(query)
    assert len(link.notes) == 1 and said(link.notes[0], f"app.link.{key}", **facts), link.notes
    assert keys_in(link.notes[0]) == [f"app.link.{key}"]


def test_notes_are_short() -> None:
    """However long the value a link gives, the note in words that quotes it is short."""
    for query in ("rules=" + "9" * 200, "level=" + "x" * 200, "tab=" + "x" * 200, "x" * 200 + "=1", "lesson=0"):
        notes = read(query).notes
        assert notes and all(len(note) < 300 for note in notes)


def test_a_link_that_repeats_itself_gets_each_note_once(keyed: None) -> None:
    notes = read("x=1" + "&=1" * 300 + "&level=expert" * 3).notes
    assert len(notes) == 3 and [keys_in(note) for note in notes] == [["app.link.unknown"]] * 2 + [["app.link.twice"]]


def test_a_huge_link_is_not_read_at_all(keyed: None) -> None:
    link = read("level=expert&" + "x=1&" * MAX_QUERY)
    assert link.level is None and link.notes == (mark("app.link.too_long"),)


def test_deal_codes_are_short_readable_and_seed_the_same_opponent_everywhere() -> None:
    codes = {new_deal_code(random.Random(n)) for n in range(50)}
    assert len(codes) == 50 and all(DEAL_CODE.fullmatch(code) and len(code) == 8 for code in codes)
    assert deal_seed("ABCD2345") == deal_seed("ABCD2345") != deal_seed("ABCD2346")
    assert deal_link("http://10.0.0.5:8866/", deal="ABCD2345", rules="ORIGINAL_1963", level="expert") == (
        "http://10.0.0.5:8866/?deal=ABCD2345&rules=1963&level=expert")


def test_a_link_sets_up_play_the_same_for_everyone() -> None:
    first, second = app.build_app(), app.build_app()
    for tutor in (first, second):
        tutor.follow_link("rules=1963&level=intermediate&deal=CLASS7")
    plays = [tutor.built[0] for tutor in (first, second)]
    for play in plays:
        assert play.controller.rules.key == "ORIGINAL_1963" and play.level_pick.value == "intermediate"
        assert type(play.controller.opponent).__name__ == "IntermediatePlayer"
        assert play.controller.match.seed == "CLASS7"
        assert first.link_note.value == ""
    assert plays[0].controller.hand.to_json() == plays[1].controller.hand.to_json()
    assert plays[0].board.state == plays[1].board.state


def test_a_link_opens_learn_at_a_stage_with_the_stages_before_it_open() -> None:
    tutor = app.build_app()
    tutor.follow_link("tab=learn&lesson=5")
    learn = tutor.built[1]
    assert tutor.tabs.selected_index == 1 and learn.controller.index == 4
    assert [b.disabled for b in learn.stage_buttons[:6]] == [False] * 5 + [True]
    text = next(panel for panel in learn.board.state["aside"] if panel["kind"] == "text")
    assert text["title"].startswith("5.")
    assert learn.controller.progress.to_code() == learn.controller.progress.__class__().to_code(), \
        "opening by link earns no stars"


def test_bad_links_leave_the_app_as_usual_and_say_why_in_the_page() -> None:
    tutor = app.build_app()
    before = tutor.built[0].controller.rules.key
    tutor.follow_link("rules=chess&tab=nowhere&lesson=40")
    assert tutor.built[0].controller.rules.key == before and tutor.tabs.selected_index == 0
    note = tutor.link_note.value
    assert note.count("<li>") == 3 and "role='status'" in note and "&#x27;chess&#x27;" in note


def test_a_class_tables_link_without_a_class_server_says_it_has_no_tables(keyed: None) -> None:
    """The static site and a notebook have no class tables: a table's link opens Play and the note says why (it was
    followed without a word); on a class server the link joins the table instead (tests/test_class_panel.py)."""
    tutor = app.build_app()
    tutor.follow_link("table=KRTQ")
    assert tutor.tabs.selected_index == 0 and tutor.built[0].classmates is None
    assert said(tutor.link_note.value, "app.link.no_tables", value="KRTQ")


def test_share_this_deal_shows_the_link_for_the_match_in_play(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SERVER_NAME", "10.0.0.5")
    monkeypatch.setenv("SERVER_PORT", "8866")
    monkeypatch.setenv("SCRIPT_NAME", "/")
    monkeypatch.setattr(host, "_HOST", [])
    tutor = app.build_app()
    play = tutor.built[0]
    play.share_button.click()
    code = play.controller.match.seed
    assert isinstance(code, str) and DEAL_CODE.fullmatch(code)
    assert f"value='http://10.0.0.5:8866/?deal={code}&amp;rules=2008&amp;level=beginner'" in play.share.value
    play.new_button.click()
    assert play.share.value == "" and play.controller.match.seed != code


def test_a_deal_shared_against_the_adaptive_choice_names_the_level_it_reached_and_opens_without_a_note(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The adaptive choice's link names the level the computer plays the match at ("the same level of opponent");
    a link may ask for the adaptive choice itself, which the app has, so it says nothing against it."""
    monkeypatch.setattr(host, "_HOST", [])
    tutor = app.build_app()
    play = tutor.built[0]
    play.level_pick.value = "adaptive"
    play.share_button.click()
    assert f"level={play.opponent_level()}'" in play.share.value and "level=adaptive" not in play.share.value
    friend = app.build_app()
    friend.follow_link("level=adaptive&rules=running")
    assert friend.link_note.value == "" and friend.built[0].level_pick.value == "adaptive"
    assert friend.built[0].controller.rules.key == "RUNNING_LEOPARD"


def test_the_voila_host_reads_the_request_and_outside_voila_finds_none(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("QUERY_STRING", "SERVER_NAME", "VOILA_PREHEAT", "HTTP_X_FORWARDED_PROTO"):
        monkeypatch.delenv(key, raising=False)
    plain = host.VoilaHost()
    assert plain.query() == "" and plain.page_address() == ""
    monkeypatch.setenv("QUERY_STRING", "level=expert")
    monkeypatch.setenv("SERVER_NAME", "::1")
    monkeypatch.setenv("SERVER_PORT", "9000")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/leopard_tutor.ipynb")
    assert plain.query() == "level=expert"
    assert plain.page_address() == "http://[::1]:9000/voila/render/leopard_tutor.ipynb"
    monkeypatch.setenv("HTTP_X_FORWARDED_PROTO", "https")  # behind Binder's proxy
    assert plain.page_address() == "https://[::1]:9000/voila/render/leopard_tutor.ipynb"


def test_a_site_installs_its_own_host(monkeypatch: pytest.MonkeyPatch) -> None:
    class Site:
        def query(self) -> str:
            return "tab=practice"

        def page_address(self) -> str:
            return "https://school.example/tutor/"

        def shares_processors(self) -> bool:
            return False

        def languages(self) -> tuple[str, ...]:
            return ()

    monkeypatch.setattr(host, "_HOST", [])
    host.use_host(Site())
    tutor = app.open_app()
    assert tutor.tabs.selected_index == 3 and 3 in tutor.built
    assert tutor.page_address.entries == ["tab"]  # the page is the app's own: Back shows the tab before


def test_a_notebook_page_that_is_not_the_apps_own_makes_no_entries_of_its_history(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside Voilà and the site (a notebook in JupyterLab: no page address), the page's history is the notebook
    application's: the tab in view is kept in the address in place, never as an entry of its own."""
    for key in ("QUERY_STRING", "SERVER_NAME", "VOILA_PREHEAT"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setattr(host, "_HOST", [host.VoilaHost()])
    tutor = app.open_app([("play", lambda: W.HTML("play")), ("learn", lambda: W.HTML("learn"))])
    assert tutor.page_address.entries == []
