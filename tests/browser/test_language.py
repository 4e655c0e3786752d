"""The tutor's language in a real page: a teacher's ?lang=es, the picker in the header (kept in the browser over a
reload, and for the server's own pages) and the browser's own language (the rules of choosing, without a
browser: tests/test_language_choice.py)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect
from spoken import in_spanish
from test_catalogue_languages import ALLOWED, ENGLISH_WORDS, _words
from test_play import click, move_by_clicks, read

from leopard_tutor.engine.catalogue import book, text
from leopard_tutor.protocol import LANGUAGE_COOKIE

TIMEOUT = 60_000
SPANISH = ["Jugar", "Aprender", "Ejemplos", "Práctica"]
ENGLISH = ["Play", "Learn", "Examples", "Practice"]


def tabs(page: Any) -> Any:
    """The app's tabs of sections (Lumino's row; Learn's stages are tabs too), in either language."""
    return page.locator(".lt-app .lm-TabBar").get_by_role("tab")


def learn_drawn(page: Any) -> None:
    page.locator(".lt-learn .lt-board .lt-space").first.wait_for(state="visible", timeout=TIMEOUT)


def test_a_link_opens_in_spanish_and_the_picker_switches_to_english_and_is_kept(page: Any, base_url: str) -> None:
    page.goto(base_url + "?lang=es&tab=learn", wait_until="commit", timeout=TIMEOUT)
    learn_drawn(page)
    expect(tabs(page)).to_have_text(SPANISH, timeout=TIMEOUT)
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator(".lt-help summary")).to_have_text("Ayuda")
    expect(page.get_by_role("tab", name="Aprender", exact=True)).to_have_attribute("aria-selected", "true")
    picker = page.get_by_label("Idioma")
    expect(picker).to_have_value("Español")
    expect(picker.locator("option", has_text="English")).to_have_attribute("lang", "en")  # said as English
    expect(picker.locator("option", has_text="Español")).to_have_attribute("lang", "es")
    picker.select_option(label="English")
    expect(tabs(page)).to_have_text(ENGLISH, timeout=TIMEOUT)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_label("Language")).to_have_value("English")
    expect(page.get_by_label("Language")).to_be_focused()  # drawn again, the keyboard is where it was
    expect(page).to_have_title(text("app.title"))  # not the notebook's file name
    # the same place
    expect(page.get_by_role("tab", name="Learn", exact=True)).to_have_attribute("aria-selected", "true")
    learn_drawn(page)
    assert "lang=" not in page.url and "tab=learn" in page.url, "the link's language gave way to the learner's"
    page.reload(wait_until="commit")
    learn_drawn(page)
    expect(tabs(page)).to_have_text(ENGLISH, timeout=TIMEOUT)
    expect(page.get_by_label("Language")).to_have_value("English")
    assert page.evaluate("localStorage.getItem('leopard-tutor/language')") == "en"


def test_a_spanish_browser_opens_the_tutor_in_spanish(browser: Any, base_url: str, page_errors: list[str]) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 1000}, locale="es-ES")
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: page_errors.append(f"pageerror: {error}"))
        page.add_init_script("document.addEventListener('DOMContentLoaded', "
                             "() => { window.titleAtLoad = document.title;"
                         " window.langAtLoad = document.documentElement.lang; });")
        page.goto(base_url, wait_until="commit", timeout=TIMEOUT)
        expect(tabs(page)).to_have_text(SPANISH, timeout=TIMEOUT)
        expect(page.locator("html")).to_have_attribute("lang", "es")
        board = page.locator(".lt-board").first
        board.locator(".lt-space").first.wait_for(state="visible", timeout=TIMEOUT)
        expect(board.locator(".lt-actions")).to_contain_text("Pista", timeout=TIMEOUT)
        expect(page.get_by_label("Idioma")).to_have_value("Español")
        begun = in_spanish("play.new_match", rules=in_spanish("rules.REVISED_2008"))
        expect(board.locator(".lt-message")).to_contain_text(begun)  # a first visit: not "goes on where it was"
        loading = page.evaluate("""() => {  // the loading line's words, as the page says them while the app loads
            document.body.insertAdjacentHTML("beforeend", '<h2 id="loading_text">Running...</h2>');
            window.voila_process(1, 1);
            const said = document.getElementById("loading_text").textContent;
            document.getElementById("loading_text").remove();
            return said;
        }""")
        assert loading == book("app", "es")["loading"], loading
        title = page.evaluate("window.titleAtLoad")  # the tab's title while the app loads (it was the notebook's name)
        assert title == book("app", "es")["title"], title
        # The learner chooses English: the page keeps it in a cookie too, and the server's own pages answer in it
        # although the browser still asks for Spanish first.
        page.get_by_label("Idioma").select_option(label="English")
        expect(tabs(page)).to_have_text(ENGLISH, timeout=TIMEOUT)
        assert {each["name"]: each["value"] for each in context.cookies()}.get(LANGUAGE_COOKIE) == "en"
        page.goto(base_url + "logout", wait_until="load", timeout=TIMEOUT)
        assert page.inner_text("body").strip() == text("app.no_logout")
    finally:
        context.close()


def test_the_loading_page_speaks_the_language_the_app_will_choose(page: Any, base_url: str) -> None:
    """An English browser: the words the page says while the app loads (the tab's title and the loading line,
    loading.json's) are those of the language the app is then drawn in: a link's ?lang=es (they were the browser's
    English until the app appeared), the learner's choice kept in this browser, and a link over that choice. The
    page's language is theirs too, so that a screen reader reads the loading line in its own voice."""
    words = {code: {key: book("app", code)[key] for key in ("title", "loading")} for code in ("en", "es")}
    page.add_init_script("document.addEventListener('DOMContentLoaded', "
                         "() => { window.titleAtLoad = document.title;"
                         " window.langAtLoad = document.documentElement.lang; });")
    for address, kept, language, drawn in (("?lang=es", None, "es", SPANISH), ("", "es", "es", SPANISH),
                                            ("?lang=en", "es", "en", ENGLISH)):
        if kept is not None:
            page.evaluate("(kept) => localStorage.setItem('leopard-tutor/language', kept)", kept)
        page.goto(base_url + address, wait_until="commit", timeout=TIMEOUT)
        expect(tabs(page)).to_have_text(drawn, timeout=TIMEOUT)
        said = page.evaluate("[window.leopardLoading, window.titleAtLoad, window.langAtLoad]")
        assert said == [words[language], words[language]["title"], language], (address, kept, said)


EVERY_WORD = """() => {
  const said = [document.title, document.body.innerText];
  for (const element of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      if (element.hasAttribute(name)) said.push(element.getAttribute(name));
    }
  }
  return said.join("\\n");
}"""
"""Every word the page shows or says to a screen reader: its visible text, titles, labels and placeholders."""


def english_on(page: Any) -> list[str]:
    """The English words among everything the page shows (the catalogue's list of words no Spanish needs)."""
    words = page.evaluate(EVERY_WORD)
    return sorted({word for word in _words(words) if word in ENGLISH_WORDS and word not in ALLOWED})


def test_a_spanish_learner_meets_no_english_word(page: Any, base_url: str) -> None:
    """A Spanish page through every section, a hint, a move, the About text, the rules sheet, a worked example's
    step and a practice answer: nothing on it, visible or said to a screen reader, is English."""
    page.goto(base_url + "?lang=es", wait_until="commit", timeout=TIMEOUT)
    board = page.locator(".lt-play .lt-board").first
    board.locator(".lt-space").first.wait_for(state="visible", timeout=TIMEOUT)
    expect(tabs(page)).to_have_text(SPANISH, timeout=TIMEOUT)
    seen = {"Jugar": english_on(page)}
    click(board, board.get_by_role("button", name=in_spanish("play.controls.hint"), exact=True))
    move_by_clicks(board, len(read(board)["hand"]), in_spanish("board.discard_pile"))
    page.locator(".lt-help summary").click()
    seen["Jugar: una pista, una jugada y el texto de Acerca de"] = english_on(page)
    page.locator(".lt-help summary").click()  # closed again: it lies over the sections
    for tab in SPANISH[1:]:
        page.get_by_role("tab", name=tab, exact=True).click()
        page.locator(".lt-section:visible .lt-board .lt-space").first.wait_for(state="visible", timeout=TIMEOUT)
        seen[tab] = english_on(page)
        if tab == "Ejemplos":
            shown = page.locator(".lt-section:visible .lt-board").first
            seq = shown.get_attribute("data-seq")
            shown.get_by_role("button", name=in_spanish("sections.examples.next"), exact=True).click()
            expect(shown).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
            seen["Ejemplos, un paso"] = english_on(page)
        if tab == "Práctica":
            section = page.locator(".lt-practice")
            shown = section.locator(".lt-board").first
            seq = shown.get_attribute("data-seq")
            section.locator("select").first.select_option(label=in_spanish("sections.practice.kinds.value"))
            expect(shown).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
            section.locator(".lt-answer input").fill("1")
            section.locator(".lt-answer input").press("Tab")
            seq = shown.get_attribute("data-seq")
            section.get_by_role("button", name=in_spanish("sections.practice.check")).click()
            expect(shown).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
            seen["Práctica, una respuesta"] = english_on(page)
    with page.context.expect_page(timeout=TIMEOUT) as opened:  # the rules sheet, in a tab of its own
        page.get_by_text(in_spanish("rules_sheet.link")).first.click()
    opened.value.wait_for_load_state()
    seen["Reglas"] = english_on(page)
    found = {where: words for where, words in seen.items() if words}
    assert not found, f"English words on the Spanish page: {found}"
