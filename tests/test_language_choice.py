"""Choosing the tutor's language in the app, without a browser: a link's ?lang=, the learner's choice kept in the
browser, the browser's languages and the server's, in that order; the picker; the app drawn again in place (the
page itself: tests/browser/test_language.py)."""

from __future__ import annotations

import html
from typing import Any

import pytest

from leopard_tutor import app
from leopard_tutor.client import host
from leopard_tutor.engine import catalogue
from leopard_tutor.lessons.model import lessons_in
from leopard_tutor.links import link_language
from leopard_tutor.protocol import accepted_languages
from leopard_tutor.table import BadIntent
from leopard_tutor.widgets.language import PageLanguage
from leopard_tutor.widgets.learn import LearnSection, build_learn, group_progress


def words(lang: str, key: str, /, **facts: object) -> str:
    """The catalogue's text at `key` in language `lang`, whatever language is in use (which language the app
    speaks is the point of these tests, so they compare the catalogue's own words in each language)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(catalogue, "language", lambda: lang)
        return catalogue.text(key, **facts)


def titles(lang: str) -> tuple[str, ...]:
    """The tab titles in `lang`."""
    return tuple(words(lang, f"app.tabs.{name}") for name in ("play", "learn", "examples", "practice"))


@pytest.fixture(autouse=True)
def no_server_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEOPARD_TUTOR_LANGUAGE", raising=False)


def page_says(page: PageLanguage, kept: object = "", browser: object = ("en-US",)) -> None:
    """What the page sends once it has read the browser's storage and languages."""
    page._on_page_msg(page, {"type": "restore", "value": kept,
                             "browser": list(browser) if isinstance(browser, tuple) else browser}, [])


def shown_in(tutor: app.TutorApp) -> str:
    """The language the app's words are in, read from its tab titles and its header."""
    shown = tuple(tutor.tabs.titles)
    assert titles("en") != titles("es")
    lang = "es" if shown == titles("es") else "en"
    assert shown == titles(lang) and tutor.language_pick.description == words(lang, "app.language.label")
    assert html.escape(words(lang, "app.help_button")) in tutor.header.value
    return lang


def test_nothing_said_is_english_and_the_picker_lists_each_language_in_its_own_words() -> None:
    tutor = app.build_app()
    page_says(tutor.page_language, "", ())
    assert shown_in(tutor) == "en" and catalogue.language() == "en" and tutor.page_language.lang == "en"
    assert tutor.language_pick.options == (("English", "en"), ("Español", "es"))
    assert tutor.language_pick.value == "en"


def test_a_teachers_link_chooses_spanish_over_the_browser_and_the_learner() -> None:
    tutor = app.build_app()
    tutor.follow_link("lang=es")
    assert shown_in(tutor) == "es" and tutor.link_note.value == ""
    page_says(tutor.page_language, "en", ("en-US",))
    assert shown_in(tutor) == "es" and tutor.page_language.lang == "es" and tutor.language_pick.value == "es"
    assert link_language("rules=1963&lang=ES-mx") == "es" and link_language("lang=xx") is None


def test_an_unknown_language_in_a_link_is_reported_in_the_language_in_use() -> None:
    tutor = app.build_app()
    page_says(tutor.page_language, "es")
    tutor.follow_link("lang=xx")
    assert shown_in(tutor) == "es"
    assert html.escape(words("es", "app.link.lang", value="'xx'", known="en, es")) in tutor.link_note.value
    english = app.build_app()
    english.follow_link("lang=<script>")
    assert shown_in(english) == "en"
    assert html.escape(words("en", "app.link.lang", value="'<script>'", known="en, es")) in english.link_note.value
    assert "<script>" not in english.link_note.value


def test_the_learners_kept_choice_comes_before_the_browsers_language() -> None:
    tutor = app.build_app()
    page_says(tutor.page_language, "es", ("en-GB", "en"))
    assert shown_in(tutor) == "es"


@pytest.mark.parametrize("browser", [("es-ES",), ("fr-FR", "es-MX", "en"), ("es",)])
def test_the_browsers_language_when_nothing_else_chose(browser: tuple[str, ...]) -> None:
    tutor = app.build_app()
    page_says(tutor.page_language, "", browser)
    assert shown_in(tutor) == "es"


def test_the_servers_language_when_the_browser_speaks_none_of_the_tutors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    tutor = app.build_app()
    assert shown_in(tutor) == "es"  # drawn in the server's language before the page has said anything
    page_says(tutor.page_language, "", ("fr-FR", "de"))
    assert shown_in(tutor) == "es"
    english_browser = app.build_app()
    page_says(english_browser.page_language, "", ("en-US",))
    assert shown_in(english_browser) == "en"


@pytest.mark.parametrize("hostile", ["x" * 10_000, "../es", 7, None, [None, 5, "es-" + "x" * 60], {"lang": "es"}])
def test_what_a_page_sends_is_read_like_any_input(hostile: object) -> None:
    tutor = app.build_app()
    page_says(tutor.page_language, hostile, hostile)
    assert shown_in(tutor) == "en"


def test_the_picker_redraws_the_app_in_place_and_keeps_the_choice_in_the_browser() -> None:
    tutor = app.build_app()
    tutor.follow_link("lang=es&tab=learn&lesson=3")
    page_says(tutor.page_language, "", ("en-US",))
    play = tutor.built[0]
    play.board.dispatch({"type": "select", "index": 0})
    play.board.dispatch({"type": "discard"})
    match = play.controller.match.to_json()
    assert play.controller.hand.discards, "a move made"
    assert shown_in(tutor) == "es" and tutor.tabs.selected_index == 1
    tutor.language_pick.value = "en"
    assert shown_in(tutor) == "en" and catalogue.language() == "en" and tutor.page_language.lang == "en"
    assert tutor.page_language.saved == "en", "kept in the browser"
    assert tutor.tabs.selected_index == 1 and tutor.built[1].controller.lesson.stage == 3, "the same place"
    assert tutor.built[0] is not play and tutor.built[0].controller.match.to_json() == match, "the same match"
    said = tutor.built[0].board.state["message"]  # what happened: the match carried over, not resumed by the learner
    carried = words("en", "play.saved_game.carried", number=1, hands=4, rules=words("en", "rules.REVISED_2008"),
                    level=words("en", f"levels.in_sentence.{tutor.built[0].opponent_level()}"))
    assert said.startswith(carried)
    assert tutor.built[1].board.state["turn"] == stage_shown("en", tutor.built[1], 3)
    tutor.language_pick.value = "es"
    assert shown_in(tutor) == "es" and tutor.page_language.saved == "es"
    assert tutor.built[1].board.state["turn"] == stage_shown("es", tutor.built[1], 3)


def stage_shown(lang: str, learn: Any, stage: int) -> str:
    """The line over Learn's board at `stage`, in `lang` (the lesson's title as the section has it now)."""
    lesson = learn.controller.lesson
    assert lesson.stage == stage
    return words(lang, "sections.learn.turn", stage=stage, stages=len(learn.controller.lessons), title=lesson.title,
                 rules=words(lang, f"rules.{lesson.rules.key}"))


def test_the_browsers_request_draws_the_app_at_once_in_its_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Voilà kernel reads the visitor's Accept-Language (the server passes it on), a site's kernel the languages
    its page handed over: the app is drawn in Spanish before the page has said anything."""
    for name in ("QUERY_STRING", "VOILA_PREHEAT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_ACCEPT_LANGUAGE", "fr-CH, fr;q=0.9, es-MX;q=0.8, en;q=0.7, *;q=0.5")
    assert host.VoilaHost().languages() == ("fr-CH", "fr", "es-MX", "en")
    assert accepted_languages("en;q=0, es;q=bad, de;q=0.3,*") == ("de",)
    monkeypatch.setattr(host, "_HOST", [host.VoilaHost()])
    tutor = app.open_app()
    assert shown_in(tutor) == "es"
    page_says(tutor.page_language, "", ("en-US",))  # the page's navigator.languages have the last word
    assert shown_in(tutor) == "en"
    monkeypatch.setenv(host.BROWSER_LANGUAGES, "es-AR,en")
    assert host.BrowserHost().languages() == ("es-AR", "en")


def test_a_server_chooses_its_language_on_the_command_line(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from leopard_tutor.cli import main
    from leopard_tutor.server import launch

    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "en")  # put back after the test: the command line sets it
    served: list[str] = []
    monkeypatch.setattr(launch, "serve", lambda *a, **k: served.append(catalogue.language()))
    main(["--language", "es-ES", "--no-browser"])
    assert served == ["es"] and catalogue.server_language() == "es"
    options = launch.voila_argv(launch.Path("nb.ipynb"), 1, False)
    assert "--VoilaConfiguration.resources=leopard_language=es" in options
    assert "--VoilaConfiguration.http_header_envs=Accept-Language" in options
    with pytest.raises(SystemExit):
        main(["--language", "klingon"])
    assert "--language is one of en, es, not 'klingon'" in capsys.readouterr().err


def test_a_students_name_stays_in_the_header_in_the_other_language() -> None:
    """On a class server the student's bar is drawn again in the new language, once, with their name."""
    from test_student_client import FakeLink, bar_of, joined, page_restores

    link = FakeLink({"name": "Ana", "progress": None, "unlock_all": False, "defaults": {"rules": None, "level": None}})
    tutor = joined(link)
    page_restores(bar_of(tutor), "Ana")
    tutor.language_pick.value = "es"
    bar = bar_of(tutor)  # one bar, the new one
    assert "Ana" in bar.shown.value and bar.change_button.description == words("es", "students.change")
    assert shown_in(tutor) == "es"
    page_restores(bar, "Ana")
    assert "Ana" in bar.shown.value and bar.change_button.layout.display == ""


def test_a_lesson_notebooks_group_is_drawn_again_at_its_stage_with_its_stars() -> None:
    """open_lessons(6, 8) as a Spanish browser opens it: the page's language redraws the group of stages at the
    stage the learner was on (its number in the course, 7, not its place in the group), stars kept."""
    progress = group_progress(6, 8)
    tutor = app.build_app([("learn", lambda: build_learn(6, 8, progress))])
    learn = tutor.built[0]
    learn.controller.progress.record_lesson(learn.controller.lessons[0].key, 3)
    learn.open_stage(7)
    page_says(tutor.page_language, "", ("es-ES",))
    again = tutor.built[0]
    assert again is not learn and tutor.page_language.lang == "es" and tuple(tutor.tabs.titles) == ("Aprender",)
    assert again.controller.lesson.stage == 7
    assert again.controller.progress.stars == {learn.controller.lessons[0].key: 3}
    assert again.controller.lesson.title == lessons_in("es")[6].title


def test_a_place_that_cannot_be_taken_up_again_leaves_the_rest_drawn(monkeypatch: pytest.MonkeyPatch,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    """Should Learn's stage not open again in the other language, the app is still drawn whole in it and the
    page's language follows; the log says what was lost."""
    tutor = app.build_app([("learn", build_learn)])

    def refuse(section: object, stage: int, inputs: object = ()) -> None:
        raise BadIntent(f"there is no stage {stage}")

    monkeypatch.setattr(LearnSection, "open_stage", refuse)
    page_says(tutor.page_language, "", ("es-ES",))
    assert tuple(tutor.tabs.titles) == ("Aprender",) and tutor.page_language.lang == "es"
    assert tutor.language_pick.value == "es"
    assert "the stage could not be carried into another language" in caplog.text
