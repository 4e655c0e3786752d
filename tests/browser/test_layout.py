"""One screen, one glance: in a real Chromium, at a laptop's, a projector's and a phone's size, in light and
dark, in English and in Spanish (which runs about a fifth longer), everything a turn needs lies inside the
window without scrolling; text meets WCAG AA contrast; a
phone's targets are at least 44 px; cards travel only for those who want motion.

Screenshots of every tab at every size and theme are saved in artifacts/layout/ for a person to look at.
"""

from __future__ import annotations

import base64
import contextvars
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from class_players import CODE_SHOWN
from playwright.sync_api import expect
from positions import c
from rendered import escaped, opening, pattern
from test_classmates import sit_down, turn_of
from test_learn import hand_card, play_solution, space
from test_play import move_by_clicks, read, wait_my_turn

from leopard_tutor.ai.players import BeginnerPlayer
from leopard_tutor.engine import RULE_SETS, Match, Play, bonus_table, scoring_lines
from leopard_tutor.engine.catalogue import answer_in, book, text
from leopard_tutor.engine.game_code import game_code, read_game_code
from leopard_tutor.engine.turns import apply_move, current_player
from leopard_tutor.examples import WorkedExample, load_examples
from leopard_tutor.lessons import LESSONS
from leopard_tutor.lessons.questions import answer_words
from leopard_tutor.protocol import LEVELS

BOARD_TIMEOUT_MS = 60_000
SIZES = {
    "laptop": (1366, 768),
    "projector": (1280, 720),
    "phone": (390, 844),
    "portrait-tablet": (768, 1024),
    # the same laptop and projector with a browser's tab strip and address bar (about 111 px) taken off
    "laptop-in-a-browser": (1366, 657),
    "projector-in-a-browser": (1280, 609),
}
SECTIONS = {"Play": "lt-play", "Learn": "lt-learn", "Examples": "lt-examples", "Practice": "lt-practice"}
TURN = [".lt-turn", ".lt-actions", ".lt-message"]
NEEDED = {
    "Play": [*TURN, ".lt-square[data-side=yours] .lt-grid", ".lt-square[data-side=theirs] .lt-grid", ".lt-hand",
             ".lt-stock", ".lt-discard", ".lt-opponent-hand"],
    "Learn": [*TURN, ".lt-square[data-side=yours] .lt-grid", ".lt-square[data-side=theirs] .lt-grid", ".lt-hand",
              ".lt-stock", ".lt-discard", ".lt-goal"],
    "Examples": [*TURN, ".lt-square .lt-grid"],
    "Practice": [*TURN, ".lt-square .lt-grid"],
}
MAYBE = [".lt-hand", ".lt-answer", ".lt-stock", ".lt-discard"]  # shown by some practice questions only

YOUR_TURN = pattern("play.turn.yours", number=r"\d+", hands=r"\d+", rules=".+")
HAND_OVER = pattern("play.turn.over", number=r"\d+", hands=r"\d+", rules=".+")
"""The turn line on the learner's turn and once the hand is over (English, the server's language)."""
PROBES = Path(__file__).with_name("probes.js")
SQUASHED = """(s) => Array.from(document.querySelectorAll(`.${s} :is(.lt-message, .lt-goal)`))
  .filter((e) => e.scrollHeight > e.clientHeight + 1).map((e) => e.className)"""
"""The classes of the messages and goals of a section whose text is taller than their box."""
CUT = """(s) => Array.from(document.querySelectorAll(`.${s} .lt-value-label`))
  .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"""
"""The squares' names a narrow board shows cut short ("Opponent's squ…") in a section."""
SCROLLERS = """(s) => Array.from(document.querySelectorAll(`.lt-app > *, .${s}, .${s} *`)).filter((e) => {
  const style = getComputedStyle(e), scrolls = (way) => ["auto", "scroll"].includes(way);
  return e.getClientRects().length && !e.matches(".lt-stages") && (
    (scrolls(style.overflowY) && e.scrollHeight > e.clientHeight) ||
    (scrolls(style.overflowX) && e.scrollWidth > e.clientWidth)); })
  .map((e) => `${e.className} (${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight})`)"""
"""The boxes of the app's header and of a section that would scroll what they hold (a browser that draws scrollbars
shows one there), but Learn's row of stages, which scrolls sideways on a phone."""


SIDEWAYS = {"iphone": (844, 390), "small-android": (740, 360), "large-iphone": (932, 430)}
"""Phones held sideways (landscape): their windows are wider than high, and at most 500 px high."""
HEADS_CUT = """() => Array.from(document.querySelectorAll('.lt-square-head, .lt-square-head *'))
  .filter((e) => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1
                 && getComputedStyle(e).clipPath !== 'inset(50%)')  // (words for a screen reader only)
  .map((e) => `${e.closest('.lt-section')?.className.match(/lt-(play|learn|examples|practice)/)?.[0]}: ` +
              `${e.textContent} (${e.scrollWidth} > ${e.clientWidth})`)"""
"""The squares' titles (of any section shown) cut short with an ellipsis: their words wider than their box (not
those hidden from the eye for a screen reader, which reads them whole)."""


BOXES = "(found) => found.map((e) => { const b = e.getBoundingClientRect(); return { y: b.top, height: b.height }; })"
"""The boxes of the elements found, as the screen shows them now (their tops, negative above it)."""


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """A function opening a fresh context's page (size, colour scheme, motion) whose errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(width: int, height: int, scheme: str = "light", motion: str = "no-preference",
                  touch: bool = False, mobile: bool = False) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                      reduced_motion=motion, has_touch=touch, is_mobile=mobile)
        contexts.append(context)
        page = context.new_page()
        page.add_init_script(path=str(PROBES))
        page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
        return page
    yield open_page
    for context in contexts:
        context.close()
    assert not errors, "the page reported errors:\n" + "\n".join(errors)


def open_app(page: Any, url: str) -> None:
    page.goto(url, wait_until="commit", timeout=BOARD_TIMEOUT_MS)
    page.locator(".lt-play .lt-space").first.wait_for(state="visible", timeout=BOARD_TIMEOUT_MS)


def tab_title(tab: str, lang: str) -> str:
    """The title of the tab `tab` (its English name, a key of SECTIONS) in `lang`."""
    title: str = book("app", lang)["tabs"][tab.lower()]
    return title


def your_turn(lang: str) -> str:
    """What the turn line of Play says, in `lang`, when the learner is to move."""
    line: str = book("play", lang)["turn"]["yours"]
    return line.rsplit("· ", 1)[-1]


def open_tab(page: Any, tab: str, lang: str = "en") -> Any:
    """Show a tab and wait until its board has been fitted to the window; its board's root."""
    page.get_by_role("tab", name=tab_title(tab, lang), exact=True).click()
    board = page.locator(f".{SECTIONS[tab]} .lt-board")
    board.locator(".lt-space").first.wait_for(state="visible", timeout=BOARD_TIMEOUT_MS)
    page.evaluate("(section) => ltProbes.settled(section)", SECTIONS[tab])
    return board


def make_a_move(board: Any, lang: str = "en") -> None:
    """Pick a card of the hand and play it on a lit space (else discard it); wait for the answer."""
    expect(board.locator(".lt-turn")).to_contain_text(your_turn(lang), timeout=30_000)
    for target in (board.locator(".lt-hand-card").first,
                   board.locator(".lt-space.lt-target, .lt-discard.lt-target").first):
        seq = board.get_attribute("data-seq")
        target.click()
        expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)


def outside(boxes: list[tuple[str, list[list[float]]]], width: int, height: int) -> list[str]:
    """The needed parts that are missing or stick out of a width x height window."""
    problems = []
    for selector, found in boxes:
        if not found:
            problems.append(f"{selector} is not shown")
        for left, top, right, bottom in found:
            if left < -0.5 or top < -0.5 or right > width + 0.5 or bottom > height + 0.5:
                problems.append(f"{selector} at ({left:.0f}, {top:.0f})–({right:.0f}, {bottom:.0f})")
    return problems


@pytest.mark.parametrize(("scheme", "lang"), [("light", "en"), ("dark", "es")])
def test_every_tab_fits_one_screen_at_every_size(new_page: Any, base_url: str, artifacts: Path, scheme: str,
                                                 lang: str) -> None:
    """Both squares (or an example's one), the hand, stock and discard, the buttons, the message about the
    last move and, in Learn, the goal: all inside the window, no scrolling, in both languages; screenshots for
    a person. No box of the page would scroll (Play's row of menus, 29 px of content in a box of 28, showed a
    scrollbar's arrows at its end in a browser that draws scrollbars)."""
    shots = artifacts / "layout"
    shots.mkdir(exist_ok=True)
    first = next(iter(SIZES.values()))
    page = new_page(*first, scheme=scheme)
    open_app(page, f"{base_url}?lang={lang}")
    assert page.evaluate("document.body.dataset.jpThemeLight") == ("false" if scheme == "dark" else "true")
    assert page.evaluate("document.documentElement.lang") == lang
    # the name offered to a first visit is kept first: on a phone it takes a row of its own until then (where Learn's
    # message stands 21 px lower; test_student_names checks the header while it is offered)
    keep_offered_name(page, lang)
    make_a_move(page.locator(".lt-play .lt-board"), lang)
    page.wait_for_function("!document.querySelector('.lt-flight, .lt-arriving')")  # the cards have landed
    problems = []
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        for tab, section in SECTIONS.items():
            open_tab(page, tab, lang)
            needed = NEEDED[tab] + ([m for m in MAYBE if page.locator(f".{section} {m}").count()]
                                    if tab == "Practice" else [])
            assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
            boxes = page.evaluate("([s, n]) => ltProbes.boxes(s, n)", [section, needed])
            problems += [f"{tab} ({lang}) at {name} {width}x{height}: {p}" for p in outside(boxes, width, height)]
            squashed = page.evaluate(SQUASHED, section)
            problems += [f"{tab} at {name} {width}x{height}: a text is taller than its box ({c})" for c in squashed]
            problems += [f"{tab} at {name} {width}x{height}: a square's name is cut short ({label!r})"
                         for label in page.evaluate(CUT, section)]
            problems += [f"{tab} at {name} {width}x{height}: a box would scroll, {box}"
                         for box in page.evaluate(SCROLLERS, section)]
            scroll_width = page.evaluate("document.documentElement.scrollWidth")
            if scroll_width > width:
                problems.append(f"{tab} at {name} {width}x{height}: the page scrolls sideways ({scroll_width} px)")
            page.screenshot(path=str(shots / f"{tab.lower()}-{width}x{height}-{scheme}-{lang}.png"))
    assert not problems, "\n".join(problems)


PAGE_GREYED = '.lt-app .jupyter-button[aria-disabled="true"]:not(.lt-board *)'
"""The page's own greyed controls that say why (aria-disabled: reached by the keyboard), outside the board."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_meets_wcag_aa_contrast_in_every_tab(new_page: Any, base_url: str, scheme: str) -> None:
    """Every text against its background, in every tab and About; and each tab's headings go down one level at a
    time (the page's title, the section's, its panels')."""
    page = new_page(1366, 768, scheme=scheme)
    open_app(page, base_url)
    expect(page.locator(".lt-play .lt-aside .lt-note").first).to_be_visible()  # before a move: greyed, with why
    failures = [f"Play before a move: {failure}" for failure in page.evaluate("ltProbes.contrast()")]
    # the board's greyed buttons look greyed beside the page's own buttons: never lighter than one offered (in the
    # dark theme a faded light button was, and looked the more active), their words still readable (4.5:1)
    look = page.evaluate("ltProbes.greyedLook()")
    assert look["greyed"], "before a move, some of the board's buttons are greyed"
    failures += [f"a greyed button looks lighter than an offered one: {button} > {look['offered']:.3f}"
                 for button in look["greyed"] if scheme == "dark" and button["luminance"] > look["offered"]]
    failures += [f"a greyed button's words are {button['contrast']:.2f}:1 on it: {button}" for button in look["greyed"]
                 if scheme == "dark" and button["contrast"] < 4.5]
    make_a_move(page.locator(".lt-play .lt-board"))
    page.locator(".lt-play .lt-hand-card").first.click()  # a picked card lights its targets
    seen_greyed = 0
    for tab in SECTIONS:
        open_tab(page, tab)
        failures += [f"{tab}: {failure}" for failure in page.evaluate("ltProbes.contrast()")]
        # the page's greyed controls that say why (Learn's locked stages, a saved game's Resume): reached and read as
        # live ones are, their words 4.5:1 (faded by the widgets' 0.6 they were 4.0)
        greyed = page.evaluate(f"ltProbes.greyedLook({PAGE_GREYED!r})")["greyed"]
        failures += [f"{tab}: a greyed control's words are {button['contrast']:.2f}:1 on it: {button}"
                     for button in greyed if button["contrast"] < 4.5]
        seen_greyed += len(greyed)
        failures += [f"{tab}: a heading skips a level: {jump}" for jump in page.evaluate("ltProbes.headingJumps()")]
    page.get_by_text("About", exact=True).click()
    failures += [f"About: {failure}" for failure in page.evaluate("ltProbes.contrast()")]
    assert not failures, "\n".join(failures)
    assert seen_greyed, "some tab has a greyed control of the page's (Learn's locked stages)"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_on_a_phone_every_target_is_at_least_44_px_and_none_has_its_words_cut(new_page: Any, base_url: str,
                                                                              lang: str) -> None:
    """Every tab as a newcomer first sees it (Play's pointer to Learn among them), and a Learn stage answered with
    buttons (Yes and No were 33 px wide; Spanish cut "Empezar por Aprender"); the piles' words too ("Opponent's" ran
    11 px over the stock's card)."""
    page = new_page(*SIZES["phone"])
    open_app(page, f"{base_url}?lang={lang}")
    small, cut = [], []
    for tab in SECTIONS:
        open_tab(page, tab, lang)
        small += [f"{tab}: {target}" for target in page.evaluate("ltProbes.smallTargets()")]
        cut += [f"{tab}: {target}" for target in page.evaluate("ltProbes.cutTargets()")]
    stage = next(lesson.stage for lesson in LESSONS if lesson.questions)
    page.goto(f"{base_url}?lang={lang}&tab=learn&lesson={stage}", wait_until="commit", timeout=BOARD_TIMEOUT_MS)
    page.locator(".lt-learn .lt-space").first.wait_for(state="visible", timeout=BOARD_TIMEOUT_MS)
    page.evaluate("(section) => ltProbes.settled(section)", SECTIONS["Learn"])
    expect(page.locator(".lt-learn .lt-turn")).to_contain_text(f"{stage}", timeout=30_000)
    small += [f"stage {stage}: {target}" for target in page.evaluate("ltProbes.smallTargets()")]
    cut += [f"stage {stage}: {target}" for target in page.evaluate("ltProbes.cutTargets()")]
    assert not small, "\n".join(small)
    assert not cut, "\n".join(cut)


@pytest.mark.parametrize(("link", "scheme", "dark"), [
    ("?voila-theme=dark", "light", True),
    ("?theme=dark", "light", True),
    ("", "dark", True),
    ("?voila-theme=light", "dark", False),
    ("", "light", False),
])
def test_the_theme_follows_the_link_else_the_browser(new_page: Any, base_url: str, link: str, scheme: str,
                                                     dark: bool) -> None:
    page = new_page(1366, 768, scheme=scheme)
    open_app(page, base_url + link)
    assert page.evaluate("document.body.dataset.jpThemeLight") == ("false" if dark else "true")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    level = sum(int(part) for part in re.findall(r"\d+", background)[:3]) / 3
    assert (level < 80) if dark else (level > 200), background
    assert "voila-theme" not in (page.locator(".lt-link-note").text_content() or "")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_placed_cards_travel_quickly_the_computers_after_the_learners_unless_motion_is_reduced(
        new_page: Any, base_url: str, motion: str) -> None:
    page = new_page(1366, 768, motion=motion)
    open_app(page, base_url)
    board = page.locator(".lt-play .lt-board")
    page.evaluate("ltProbes.watchFlights()")
    make_a_move(board)
    flights = page.evaluate("window.ltFlights")
    if motion == "reduce":
        assert flights == []
        return
    mine = [f for f in flights if f["by"] == "you"]
    theirs = [f for f in flights if f["by"] == "them"]
    assert mine and all(f["duration"] <= 200 for f in flights)
    assert mine[0]["delay"] == 0
    starts = {id(f): f["at"] + f["delay"] for f in flights}  # (the learner's flies while the computer chooses)
    assert all(starts[id(f)] >= starts[id(mine[0])] + mine[0]["duration"] + 200 for f in theirs), \
        "the computer's move comes after"
    expect(page.locator(".lt-flight")).to_have_count(0, timeout=5_000)  # every card has landed


FORCED_MARKS = """board => {
  const probe = document.createElement("span");  // the system's colour for greyed words, as this browser paints it
  probe.style.color = "GrayText";
  document.body.append(probe);
  const grey = getComputedStyle(probe).color;
  probe.remove();
  const greyed = board.querySelector('.lt-button[aria-disabled="true"]:not(.lt-wait)');
  const live = [...board.querySelectorAll(".lt-button")].find((b) => b.getAttribute("aria-disabled") !== "true");
  const space = board.querySelector(".lt-space");
  const ring = (...classes) => {  // a space marked as the board marks a hint's place, or a review's better move
    space.classList.add(...classes);
    const style = getComputedStyle(space);
    const found = [style.outlineStyle, style.outlineWidth];
    space.classList.remove(...classes);
    return found;
  };
  return { grey, greyed: getComputedStyle(greyed).color, live: getComputedStyle(live).color,
           hinted: ring("lt-target", "lt-hinted"), better: ring("lt-better"), plain: ring() };
}"""
"""In forced colours: the words of a greyed button and of a live one, and the outline of a marked space."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_in_a_high_contrast_theme_greyed_buttons_and_the_rings_of_a_hint_and_a_better_move_still_show(
        new_page: Any, base_url: str, scheme: str) -> None:
    """A high-contrast theme paints with the system's few colours and drops box shadows: a greyed button looked live
    in a dark one (white words, as a live one's), and the rings of a hint's place and of a review's better move (box
    shadows) were gone. Greyed words are the system's grey, and the rings a double outline."""
    page = new_page(1366, 768, scheme=scheme)
    page.emulate_media(forced_colors="active")
    open_app(page, base_url)
    found = page.locator(".lt-play .lt-board").evaluate(FORCED_MARKS)
    assert found["greyed"] == found["grey"] != found["live"], found
    assert found["hinted"] == found["better"] == ["double", "4px"], found
    assert found["plain"][0] != "double", found


def test_a_whole_hand_and_a_lesson_stage_without_scrolling_once(new_page: Any, base_url: str) -> None:
    """A newcomer on a projector: every click lands on something in view, and the page never scrolls."""
    width, height = SIZES["projector-in-a-browser"]
    page = new_page(width, height, motion="reduce")
    open_app(page, base_url)
    board = page.locator(".lt-play .lt-board")
    for _ in range(70):
        expect(board.locator(".lt-turn")).to_have_text(re.compile(f"{YOUR_TURN.pattern}|{HAND_OVER.pattern}"),
                                                       timeout=30_000)
        if HAND_OVER.fullmatch(board.locator(".lt-turn").text_content() or ""):
            break
        for click in (board.locator(".lt-hand-card").first,
                      board.locator(".lt-space.lt-target, .lt-discard.lt-target").first):
            box = click.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, "a target below the fold"
            seq = board.get_attribute("data-seq")
            click.click()
            expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
            assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
    expect(board.locator(".lt-turn")).to_have_text(HAND_OVER)
    assert text("play.panels.total") in (board.locator(".lt-breakdown").text_content() or "")

    learn = open_tab(page, "Learn")
    (move,) = LESSONS[0].solution
    assert isinstance(move, Play) and move.square_owner == 0
    for target in (learn.locator(f'.lt-hand-card[aria-label="{move.card.name}"]'),
                   learn.get_by_role("button", name=re.compile("^" + escaped(opening(
                       "board.space_name", "what", label=text("board.squares.yours"), space=move.space))))):
        box = target.bounding_box()
        assert box and box["y"] + box["height"] <= height
        seq = learn.get_attribute("data-seq")
        target.click()
        expect(learn).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(learn.locator(".lt-message")).to_contain_text(opening("lessons.feedback.stars", "stars"))
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]


def test_two_people_at_one_device_fit_one_screen(new_page: Any, base_url: str, artifacts: Path) -> None:
    """Between two people here, with the names row shown: the hand-over screen and the table of the player
    who shows their hand lie inside a laptop's and a projector's window, in a browser or not; screenshots."""
    shots = artifacts / "layout"
    shots.mkdir(exist_ok=True)
    sizes = {name: SIZES[name] for name in ("laptop", "projector", "laptop-in-a-browser", "projector-in-a-browser")}
    page = new_page(*SIZES["laptop"])
    open_app(page, base_url)
    page.get_by_role("combobox", name=text("play.controls.opponent")).select_option(label=text("play.people.choice"))
    for number, name in ((1, "Gentle Panda of the Hill"), (2, "Curious Beaver the Third")):  # 24 characters each
        box = page.get_by_role("textbox", name=text("play.people.name_label", number=number))
        box.fill(name)
        box.press("Enter")
    board = page.locator(".lt-play .lt-board")
    expect(board.locator(".lt-scores")).to_contain_text("Curious Beaver the Third", timeout=30_000)
    show = board.locator(".lt-actions button", has_text=text("play.people.show_hand", name="").strip(", "))
    show.wait_for(state="visible", timeout=30_000)
    squares = [".lt-square[data-side=yours] .lt-grid", ".lt-square[data-side=theirs] .lt-grid"]
    screens = {"the hand-over screen": [*TURN, *squares, ".lt-stock", ".lt-discard"], "a player's turn": NEEDED["Play"]}
    problems = []
    for screen, needed in screens.items():
        if screen == "a player's turn":
            page.set_viewport_size({"width": SIZES["laptop"][0], "height": SIZES["laptop"][1]})
            seq = board.get_attribute("data-seq")
            show.click()
            expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
        problems += fits(page, needed, sizes, shots, f"two at one device, {screen}")
        for name, (width, height) in sizes.items():  # two long names: the score sheet stays in its column
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("(section) => ltProbes.settled(section)", "lt-play")
            sheet = page.evaluate(SHEET_AND_COLUMN)
            if not sheet or sheet[0] > sheet[1] + 0.5:
                problems.append(f"two at one device, {screen} at {name}: the score sheet sticks out {sheet}")
    assert not problems, "\n".join(problems)


def test_two_classmates_fit_one_screen(new_page: Any, base_url: str, artifacts: Path) -> None:
    """At a class table, with the table's panel shown (its code, link and QR code while it waits, the names and
    the status once both sit): the whole turn of the player to move, and the board of the one who waits, lie
    inside a laptop's and a projector's window, in a browser or not; screenshots for a person."""
    shots = artifacts / "layout"
    shots.mkdir(exist_ok=True)
    sizes = {name: SIZES[name] for name in ("laptop", "projector", "laptop-in-a-browser", "projector-in-a-browser")}
    pages = {name: new_page(*SIZES["laptop"]) for name in ("ana", "ben")}
    for page in pages.values():
        open_app(page, base_url)
    sit_down(pages["ana"], "Ana")
    pages["ana"].get_by_role("button", name=text("classmates.open")).click()
    expect(pages["ana"].locator(".lt-class-code-shown")).to_contain_text(CODE_SHOWN, timeout=30_000)
    # waiting for a classmate the board offers no game: the turn line, the message and both (empty) squares fit
    waiting = [selector for selector in NEEDED["Play"] if selector not in (".lt-hand", ".lt-stock", ".lt-discard",
                                                                            ".lt-opponent-hand", ".lt-actions")]
    problems = fits(pages["ana"], waiting, sizes, shots, "ana waiting for a classmate")
    assert pages["ana"].locator(".lt-play .lt-hand-card").count() == 0
    pages["ana"].set_viewport_size({"width": SIZES["laptop"][0], "height": SIZES["laptop"][1]})
    sit_down(pages["ben"], "Ben")
    pages["ben"].get_by_role("button", name=text("classmates.refresh")).click()
    found = CODE_SHOWN.search(pages["ana"].locator(".lt-class-code-shown").inner_text())
    assert found is not None
    join = pages["ben"].get_by_role("button", name=text("classmates.join_named", name="Ana", code=found.group(1)))
    assert join.evaluate("button => button.scrollWidth <= button.clientWidth"), "the whole name and code are read"
    join.click()
    for page in pages.values():
        expect(page.locator(".lt-play .lt-turn")).to_have_text(
            re.compile(f"{YOUR_TURN.pattern}|{turn_of('Ana').pattern}|{turn_of('Ben').pattern}"), timeout=30_000)
    for name, page in pages.items():
        turn = page.locator(".lt-play .lt-turn").text_content() or ""
        screen = f"{name} at a class table, " + ("to move" if YOUR_TURN.fullmatch(turn) else "waiting")
        problems += fits(page, NEEDED["Play"], sizes, shots, screen)
    assert not problems, "\n".join(problems)


SHEET_AND_COLUMN = """() => {
    const table = document.querySelector('.lt-play .lt-scores');
    const column = table && table.closest('.lt-board').querySelector('.lt-message');
    return table && [table.getBoundingClientRect().right, column.getBoundingClientRect().right];
}"""
"""The right edge of Play's score sheet and of the side column it stands in (the message's)."""


def fits(page: Any, needed: list[str], sizes: dict[str, tuple[int, int]], shots: Path, screen: str) -> list[str]:
    """What of `needed` sticks out of Play's window at each of `sizes`; a screenshot of each."""
    problems = []
    for name, (width, height) in sizes.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("(section) => ltProbes.settled(section)", "lt-play")
        assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
        boxes = page.evaluate("([s, n]) => ltProbes.boxes(s, n)", ["lt-play", needed])
        problems += [f"{screen} at {name} {width}x{height}: {p}" for p in outside(boxes, width, height)]
        page.screenshot(path=str(shots / f"play-{re.sub(r'[^a-z0-9]+', '-', screen.lower())}-{width}x{height}.png"))
    return problems


def keep_offered_name(page: Any, lang: str) -> None:
    """On a class server the header offers a first visit a name (on a phone in a row of its own), once the page's
    kernel has it from the server: keep it, so the header shows it in its row, and wait for the keyboard to land on
    Change, the bar's last answer (a key pressed before then could go to Change instead of where the test put it)."""
    words = book("students", lang)
    keep = page.locator(".lt-student.lt-offered button", has_text=words["keep"])
    expect(keep).to_be_visible(timeout=30_000)
    keep.click()
    expect(page.locator(".lt-student.lt-offered")).to_have_count(0, timeout=30_000)
    expect(page.locator(".lt-student").get_by_role("button", name=words["change"])).to_be_focused(timeout=30_000)


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_first_visits_name_and_pointer_to_learn_never_move_the_board(new_page: Any, base_url: str,
                                                                       size: str) -> None:
    """On a first visit the header offers a name (on a phone in a row of its own) and Play points to Learn, once the
    page's kernel has heard what the browser keeps: the board, from the moment it is shown, stays where it is (it was
    pushed 42 px down, on a phone 107 px, a second or more after it was drawn: a card tapped then was another)."""
    page = new_page(*SIZES[size])
    page.add_init_script(script="ltProbes.watchPlace('.lt-play .lt-space')")
    open_app(page, base_url)
    expect(page.locator(".lt-student.lt-offered")).to_have_count(1, timeout=30_000)
    expect(page.locator(".lt-play .lt-newcomer")).to_be_visible()
    page.evaluate("(section) => ltProbes.settled(section)", "lt-play")
    places = page.evaluate("window.ltPlaces")
    first = places[0]
    moved = [place for place in places if any(abs(now - then) > 1 for now, then in zip(place, first, strict=True))]
    assert not moved, f"the board's first space, first drawn at {first} (x, y, width, height), moved to {moved}"


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_name_given_at_a_stages_end_moves_no_board(new_page: Any, base_url: str, size: str) -> None:
    """The name offered on a first visit is given to the class at the first report worth a record (a stage solved,
    a hand ended): the name then shows as kept, but where it stood in a row of its own (a phone) it keeps the row, so
    that the board, under a finger going for Next, stays where it is (it moved 50 px up)."""
    page = new_page(*SIZES[size])
    open_app(page, base_url)
    expect(page.locator(".lt-student.lt-offered")).to_have_count(1, timeout=30_000)
    board = open_tab(page, "Learn")
    page.evaluate("ltProbes.watchPlace('.lt-learn .lt-space')")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert opening("lessons.feedback.stars", "stars") in play_solution(board, 1)
    expect(page.locator(".lt-student-lead")).to_be_hidden(timeout=30_000)  # given: shown as the name kept
    expect(page.get_by_role("button", name=text("students.change"))).to_be_visible()
    page.evaluate("() => new Promise((done) => setTimeout(done, 500))")  # (a refit would come within a frame or two)
    places = page.evaluate("window.ltPlaces")
    moved = [place for place in places if any(abs(now - then) > 1 for now, then in zip(place, places[0], strict=True))]
    assert not moved, f"the board's first space, at {places[0]} (x, y, width, height), moved to {moved}"


@pytest.mark.parametrize(("scheme", "lang"), [("light", "en"), ("dark", "es")])
def test_on_a_phone_the_header_is_one_row_and_plays_controls_stand_above_the_board(
        new_page: Any, base_url: str, scheme: str, lang: str) -> None:
    """A phone user finds the rules and the opponent first, above the board, in one compact row; the header
    (a student's name, the rules link, About, the language) takes one row of 44 px targets. A finger has no hover:
    a tap on a greyed button shows why it is greyed beside it, within the screen, until the next tap."""
    page = new_page(*SIZES["phone"], scheme=scheme, touch=True)
    open_app(page, f"{base_url}?lang={lang}")
    offer = page.locator(".lt-student.lt-offered")
    expect(offer).to_have_count(1, timeout=30_000)  # a first visit: the name offered, in a row under the header
    seen = page.evaluate(OFFER_BESIDE_LANGUAGE)
    assert seen["language_free"], f"the name offered covers the language picker: {seen}"
    assert seen["height"] <= 56 and not seen["cut"], f"the offer takes one compact row: {seen}"
    longest = page.evaluate(LONGEST_OFFERED, longest_name(lang))
    assert longest["whole"] and longest["right"] <= SIZES["phone"][0] and longest["height"] <= 64, \
        f"the longest name the tutor offers in {lang} is shown whole, within the screen: {longest}"
    keep_offered_name(page, lang)
    open_tab(page, "Play", lang)
    head = page.locator(".lt-app > .lt-head").bounding_box()
    assert head and head["height"] <= 52, f"the header is {head} tall"
    controls = page.locator(".lt-play > .lt-controls").first.bounding_box()
    board = page.locator(".lt-play .lt-board").bounding_box()
    assert controls and board and controls["y"] + controls["height"] <= board["y"], (controls, board)
    assert controls["height"] <= 44 + 16, f"Play's controls take {controls['height']:.0f} px: more than one row"
    arrows = page.evaluate(MENU_ARROWS)  # a menu whose words are cut still shows it is a menu
    assert len(arrows) == 2 and all(room >= 16 for room in arrows), f"room for each menu's arrow: {arrows} px"
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"][0]
    heads = page.evaluate(SQUARE_HEADS)
    assert len(heads) == 2 and all(head["lines"] == 1 and head["number"] is not None
                                   and head["sentence"].endswith(f" {head['number']}") for head in heads), heads
    for head, drawn in zip(page.locator(".lt-play .lt-square-head").all(), heads, strict=True):  # heard whole
        expect(head).to_match_aria_snapshot(f"- text: {drawn['sentence']}")
    words = book("play", lang)["saved_game"]
    resume = page.locator(".lt-game-saver button", has_text=words["resume"])
    expect(resume).to_be_disabled()  # its box is empty
    resume.scroll_into_view_if_needed()
    note = page.locator(".lt-game-saver .lt-saver-why")  # why, on the screen under it, as beside the board's buttons
    expect(note).to_have_text(words["empty"])
    said, row = note.bounding_box(), resume.bounding_box()
    assert said and row and said["y"] >= row["y"] + row["height"] and said["x"] + said["width"] <= SIZES["phone"][0]
    resume.tap(force=True)
    why = page.locator(".lt-why-bubble")
    expect(why).to_have_text(words["empty"])
    shown, pressed = why.bounding_box(), resume.bounding_box()
    assert shown and pressed and shown["x"] >= 0 and shown["x"] + shown["width"] <= SIZES["phone"][0], shown
    assert shown["y"] >= 0 and shown["y"] + shown["height"] <= SIZES["phone"][1], shown
    assert shown["y"] >= pressed["y"] + pressed["height"] or shown["y"] + shown["height"] <= pressed["y"], (
        f"the reason {shown} hides the button tapped {pressed}")
    page.locator(".lt-game-saver").tap(position={"x": 2, "y": 2})  # the next tap, elsewhere
    expect(why).to_have_count(0)
    page.locator(".lt-game-saver button", has_text=words["save"]).click()
    code = page.locator(".lt-saved-game-code")
    expect(code).to_be_visible(timeout=30_000)
    right = code.evaluate("(e) => e.getBoundingClientRect().right")
    assert right <= SIZES["phone"][0], f"a saved game's code ends at {right} px, off a phone's screen"
    open_tab(page, "Examples", lang)
    wide = page.evaluate("() => document.querySelector('.lt-examples').scrollWidth")
    assert wide <= SIZES["phone"][0], f"the Examples section is {wide} px wide: its words run off the screen"


CHOICES_CUT = """() => { const measure = document.createElement('canvas').getContext('2d');
  const row = document.querySelector('.lt-play > .lt-controls').getBoundingClientRect();
  return Array.from(document.querySelectorAll('.lt-play > .lt-controls select')).flatMap((select) => {
    const style = getComputedStyle(select); measure.font = style.font;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return Array.from(select.options).map((option) => [option.text, measure.measureText(option.text).width, room])
      .filter(([, wide]) => wide > room + 0.5)
      .map(([words, wide]) => `${words} (${wide.toFixed(0)} > ${room.toFixed(0)} px)`);
  }).concat(Array.from(document.querySelectorAll('.lt-play > .lt-controls > *'))
    .filter((part) => part.getClientRects().length && part.getBoundingClientRect().right > row.right + 0.5)
    .map((part) => `${part.textContent.trim().slice(0, 20)} ends past the row: ${part.getBoundingClientRect().right}`));
}"""
"""The choices of Play's menus that their menu shows cut short (their words wider than the room it gives them, its
arrow's apart), whichever is chosen; and the parts of Play's row of controls that stand past its end (cut off)."""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_on_an_upright_phone_plays_menus_show_each_choice_whole(new_page: Any, base_url: str, lang: str) -> None:
    """Play's Rules menu showed "Revised rules (" on a phone: in its one row above the board, each of Play's menus shows
    any of its choices whole, beside the whole of New match and Share."""
    problems = []
    for width, height in (SIZES["phone"], (360, 740)):
        page = new_page(width, height, touch=True, mobile=True)
        open_app(page, f"{base_url}?lang={lang}")
        expect(page.locator(".lt-student.lt-offered")).to_have_count(1, timeout=30_000)  # (the header settled)
        problems += [f"at {width}x{height}: {cut}" for cut in page.evaluate(CHOICES_CUT)]
        problems += [f"at {width}x{height}, a button's words are cut: {cut}"
                     for cut in page.evaluate("ltProbes.cutTargets()")]
        controls = page.locator(".lt-play > .lt-controls").first.bounding_box()
        assert controls and controls["height"] <= 44 + 16, f"Play's controls take {controls} px: more than one row"
    assert not problems, "\n".join(problems)


EXAMPLE_CHOICES_CUT = """() => { const measure = document.createElement('canvas').getContext('2d');
  const select = document.querySelector('.lt-examples .lt-controls select'); const style = getComputedStyle(select);
  measure.font = style.font;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return Array.from(select.options).map((option) => [option.text, measure.measureText(option.text).width])
    .filter(([, wide]) => wide > room + 0.5)
    .map(([words, wide]) => `${words} (${wide.toFixed(0)} > ${room.toFixed(0)} px)`);
}"""
"""The choices of the Examples menu that it shows cut short, whichever is chosen: their words wider than the room the
menu gives them (its arrow's apart)."""
EXAMPLE_TITLE = """() => { const title = document.querySelector('.lt-examples .lt-example-text .lt-panel-title');
  const box = title.getBoundingClientRect();
  const table = document.querySelector('.lt-examples .lt-table').getBoundingClientRect();
  return {words: title.textContent, left: box.left, top: box.top, right: box.right, bottom: box.bottom,
          cut: title.scrollWidth > title.clientWidth + 1 || title.scrollHeight > title.clientHeight + 1,
          table: table.top};
}"""
"""Where the chosen example's title is drawn, whether its words are cut, and where the table (its square) begins."""


def examples_shown_in(lang: str) -> tuple[WorkedExample, ...]:
    """The worked examples as a page in `lang` shows them: their words, and the facts in them, in `lang`."""
    def load() -> tuple[WorkedExample, ...]:
        answer_in(lang)  # (in this context only)
        return load_examples(lang=lang)[0]
    return contextvars.copy_context().run(load)


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_stepping_through_an_example_leaves_its_buttons_where_they_were(new_page: Any, base_url: str,
                                                                        size: str) -> None:
    """Every example stepped through at 1366x768: the card played at a step stands beside the square, and a step with
    no card keeps that room, so "Show it under the … rules" stays where it was at every step (the board grew 192 px at
    the second step, and a second click where Next had been showed the example under the other rules, back at its first
    step). So does Next, from the first step to the last, and the table keeps its width: the first step's note (why
    Back is greyed) ends the row instead of standing between Back and Next (Next was 120 px further right there), and
    the played card's title ("No card played at this step" is longer than "The card you play (1)") no longer widens
    its column (the table went 759, 716, 805, 690 px wide from step to step). On a phone, where the note stands under
    the buttons, the message under the board keeps the room of the example's longest, so the cards fitted above it keep
    their size (they shrank as a step's words grew, and Next rose by up to 60 px under a finger); and the card's title
    is in sight there too (a phone hid it, as it hides the title of a hand of one's own, leaving a card, or room for
    one, with nothing to say whose it is)."""
    phone = size == "phone"
    page = new_page(*SIZES[size], touch=phone, mobile=phone)
    open_app(page, base_url)
    board = open_tab(page, "Examples")
    menu = page.locator(".lt-examples .lt-controls select")
    moved = []
    for index in range(menu.locator("option").count()):
        menu.select_option(index=index)
        expect(board.locator(".lt-turn")).to_contain_text(pattern("sections.examples.turn", key=r"\S+", step=1,
                                                                  steps=r"\d+", rules=".+"))
        expect(board).not_to_have_attribute("aria-busy", "true")  # (the board takes no click until the kernel answers)
        mirror, nexts, tables = [], [], []
        while True:
            page.evaluate("(section) => ltProbes.settled(section)", SECTIONS["Examples"])
            title = board.locator(".lt-hand-title")  # what the card beside (or under) the square is, in sight
            if (box := title.bounding_box()) is None or box["height"] < 10 or box["width"] < 100:
                moved.append(f"example {index + 1}: the card's title {title.inner_text()!r} is not in sight: {box}")
            mirror.append(board.get_by_role("button", name=re.compile(r"^Show it under")).bounding_box())
            table = board.locator(".lt-table").bounding_box()  # (on a phone the note under the buttons adds a row)
            tables.append(table and (table["x"], table["y"], table["width"]))
            step_next = board.get_by_role("button", name=text("sections.examples.next"), exact=True)
            nexts.append(step_next.bounding_box())
            if step_next.get_attribute("aria-disabled") == "true":
                break
            seq = board.get_attribute("data-seq")
            step_next.click()
            expect(board).not_to_have_attribute("data-seq", seq or "")
        if any(box != mirror[0] for box in mirror) or any(box != nexts[0] for box in nexts) or any(
                box != tables[0] for box in tables):
            moved.append(f"example {index + 1}: the other rules' button at {mirror}, Next at {nexts}, the table at "
                         f"{tables}")
    assert not moved, "\n".join(moved)


NOTES_BEFORE_BUTTONS = """(section) => Array.from(
  document.querySelectorAll(`.${section} :is(.lt-actions, .lt-side-actions)`))
  .flatMap((row) => { const buttons = Array.from(row.querySelectorAll("button")), last = buttons[buttons.length - 1];
    if (!last) return [];
    const end = last.getBoundingClientRect();
    return Array.from(row.querySelectorAll(".lt-note")).filter((note) => { const box = note.getBoundingClientRect();
      return box.top < end.bottom && box.left < end.right; }).map((note) => note.textContent); })"""
"""The notes of a section's rows of buttons that stand before the row's last button (beside or above it)."""


def test_plays_buttons_keep_their_places_from_one_turn_to_the_next(new_page: Any, base_url: str) -> None:
    """At 1366x768, Play's buttons under the board and beside it stand where they stood once a move is made: Go out's
    note stood between Go out and Hint while Undo was greyed too, then went to the row's end once Undo was offered,
    taking Hint and Undo 340 px to the left under the learner's pointer; and a note never stands before a button of
    its row (beside the table, greyed Why's note stood before Review, as if it were Review's reason)."""
    page = new_page(*SIZES["laptop"])
    open_app(page, base_url)
    board = open_tab(page, "Play")
    section = page.locator(".lt-play")
    names = [text("play.buttons.go_out"), text("play.controls.hint"), text("play.controls.undo"),
             text("review.buttons.why"), text("review.buttons.review")]

    def places() -> dict[str, Any]:
        """The buttons' boxes: under the board as they stand; beside it from the first one's, since the message above
        them grows and shrinks with what it tells."""
        page.evaluate("(section) => ltProbes.settled(section)", SECTIONS["Play"])
        boxes = {name: section.get_by_role("button", name=name, exact=True).bounding_box() for name in names}
        why = boxes[names[3]]
        for name in names[3:]:
            boxes[name] = {**boxes[name], "y": boxes[name]["y"] - why["y"]}
        return boxes

    before = places()
    assert page.evaluate(NOTES_BEFORE_BUTTONS, SECTIONS["Play"]) == []
    make_a_move(board)
    expect(board.locator(".lt-turn")).to_contain_text(your_turn("en"), timeout=30_000)  # the computer has answered
    expect(section.get_by_role("button", name=text("play.controls.undo"), exact=True)).not_to_have_attribute(
        "aria-disabled", "true")
    assert places() == before
    assert page.evaluate(NOTES_BEFORE_BUTTONS, SECTIONS["Play"]) == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_on_an_upright_phone_the_examples_menu_shows_each_choice_whole_and_the_title_stands_over_the_board(
        new_page: Any, base_url: str, lang: str) -> None:
    """The Examples menu cut its long titles on a phone ("C1 · Cards from ace to nine: a 4, an 8, a 3 and your
    opponent's 6": 374 px of words in a 248 px menu): it names each example short, whole, and the chosen example's
    whole title stands over its square, within the screen."""
    examples = examples_shown_in(lang)
    problems = []
    for width, height in (SIZES["phone"], SMALL_PHONE):
        page = new_page(width, height, touch=True, mobile=True)
        open_app(page, f"{base_url}?lang={lang}")
        keep_offered_name(page, lang)
        board = open_tab(page, "Examples", lang)
        problems += [f"at {width}x{height}, the menu cuts {cut}" for cut in page.evaluate(EXAMPLE_CHOICES_CUT)]
        for index, example in enumerate(examples):
            page.locator(".lt-examples .lt-controls select").select_option(index=index)
            expect(board.locator(".lt-turn")).to_contain_text(f"{example.key} ·", timeout=30_000)
            page.evaluate("(section) => ltProbes.settled(section)", SECTIONS["Examples"])
            title = page.evaluate(EXAMPLE_TITLE)
            if (title["words"] != f"{example.key} · {example.title}" or title["cut"] or title["left"] < -0.5
                    or title["right"] > width + 0.5 or title["top"] < -0.5 or title["bottom"] > title["table"] + 0.5):
                problems.append(f"at {width}x{height}, {example.key}'s title is not whole over the board: {title}")
    assert not problems, "\n".join(problems)


SMALL_PHONE = (360, 740)
"""A small phone held upright (a 360 px Android): its header and its hand take two rows each."""
LONGEST_OPENINGS = {"en": "2SBD78UC", "es": "9NVNQ7QS"}
"""In each language, the deal whose opening message is the longest of 3,000 deals measured: the computer moves first,
its move is told (263 characters in English, 255 in Spanish, five lines on a 390 px phone)."""
LONGEST_AFTER_A_MOVE = "EAVFAMX8"
"""The deal whose message after the learner's first move is the longest of 250 deals measured, every first move tried:
its first card, a jack, can only cover the computer's opening king face down, and the computer covers the jack (325
characters in English, 312 in Spanish, six lines on a 390 px phone)."""
LONG_MESSAGE = 250
"""Fewer characters than these deals' messages: a shorter message is not the one measured (the deals have changed)."""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_on_an_upright_phone_plays_longest_first_messages_fit(new_page: Any, base_url: str, artifacts: Path,
                                                               lang: str) -> None:
    """The longest messages measured, the opening one of a deal where the computer moves first and the one after the
    learner's first move (the learner's move and the computer's reply told in full): on a 390 x 844 phone each ends
    inside the window (they ended 10 to 23 px below it; a fresh random deal's made the one-screen test fail now and
    then); on a 360 x 740 phone, where the header and the hand take two rows each and the buttons stand under the fold,
    one scroll shows from the turn line to the message's end."""
    problems = []
    for deal, move in ((LONGEST_OPENINGS[lang], False), (LONGEST_AFTER_A_MOVE, True)):
        for width, height in (SIZES["phone"], SMALL_PHONE):
            page = new_page(width, height, touch=True, mobile=True)
            open_app(page, f"{base_url}?lang={lang}&deal={deal}")
            keep_offered_name(page, lang)
            if move:
                make_a_move(page.locator(".lt-play .lt-board"), lang)
            page.evaluate("(section) => ltProbes.settled(section)", "lt-play")
            said = page.locator(".lt-play .lt-message").text_content() or ""
            assert len(said) >= LONG_MESSAGE, f"deal {deal} no longer gives a long message: {said!r}"
            boxes = dict(page.evaluate("([s, n]) => ltProbes.boxes(s, n)", ["lt-play", [".lt-turn", ".lt-message"]]))
            (_, turn_top, _, _), (left, top, right, bottom) = boxes[".lt-turn"][0], boxes[".lt-message"][0]
            screen = f"deal {deal}{' after a move' if move else ''} at {width}x{height}"
            if (width, height) == SIZES["phone"]:
                problems += [f"{screen}: {p}" for p in outside([(".lt-message", [[left, top, right, bottom]])],
                                                               width, height)]
            elif bottom - turn_top > height + 0.5:
                problems.append(f"{screen}: the turn line to the message's end takes {bottom - turn_top:.0f} px")
            page.screenshot(path=str(artifacts / f"longest-{lang}-{deal}-{width}x{height}.png"))
    assert not problems, "\n".join(problems)


MENU_WORDS_UNDER_ARROW = """() => Array.from(document.querySelectorAll('.lt-play > .lt-controls select'))
 .flatMap((menu) => {
  const style = getComputedStyle(menu);
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = style.font;
  const arrow = parseFloat(style.backgroundSize) || 0;  // the widgets' arrow: a picture at the menu's right edge
  const room = menu.clientWidth - parseFloat(style.paddingLeft) - arrow - 2;
  return Array.from(menu.options).map((option) => [option.text, measure.measureText(option.text).width])
    .filter(([, wide]) => wide > room).map(([words, wide]) => `${words} (${wide.toFixed(1)} > ${room.toFixed(1)} px)`);
})"""
"""The choices of Play's menus whose words, shown in the menu, would reach within 2 px of its arrow's picture."""
REFITTED = """async (section) => {
  const board = document.querySelector(`.${section} .lt-board`);
  const before = board.getAttribute('data-cell');
  window.dispatchEvent(new Event('resize'));
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  await ltProbes.settled(section);
  return [before, board.getAttribute('data-cell')];
}"""
"""A section's card size before and after the board is made to fit itself afresh (a window's resize)."""


@pytest.mark.parametrize(("scheme", "lang"), [("light", "en"), ("dark", "es")])
def test_on_an_upright_phone_a_first_visits_whole_turn_fits_under_the_name_offered(
        new_page: Any, base_url: str, artifacts: Path, scheme: str, lang: str) -> None:
    """A student's very first screen on a 390 x 844 phone, at a class server: the header offers a name in a row of its
    own and Play points to Learn, and the longest opening message stands under the board: both squares, the hand and
    the message's whole text lie within the screen (the message began at 808 px and ended 30 px below it, or 50 px
    with a long one: the cards kept the size fitted before the name's row came). The cards are those a fresh fit
    gives. Play's menus keep their words clear of their arrow ("Someone here" ran to its edge). Once the name is kept,
    a 360 x 740 phone's header takes one row (its language picker stood on a second one)."""
    page = new_page(*SIZES["phone"], scheme=scheme, touch=True, mobile=True)
    open_app(page, f"{base_url}?lang={lang}&deal={LONGEST_OPENINGS[lang]}")
    expect(page.locator(".lt-student.lt-offered")).to_have_count(1, timeout=30_000)
    expect(page.locator(".lt-play .lt-newcomer")).to_be_visible()
    page.evaluate("(section) => ltProbes.settled(section)", "lt-play")
    said = page.locator(".lt-play .lt-message").text_content() or ""
    assert len(said) >= LONG_MESSAGE, f"the deal no longer gives a long message: {said!r}"
    needed = [".lt-square[data-side=yours] .lt-grid", ".lt-square[data-side=theirs] .lt-grid", ".lt-hand",
              ".lt-actions", ".lt-message"]
    boxes = page.evaluate("([s, n]) => ltProbes.boxes(s, n)", ["lt-play", needed])
    page.screenshot(path=str(artifacts / f"first-visit-{lang}-{scheme}-390x844.png"))
    problems = outside(boxes, *SIZES["phone"])
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
    cells = page.evaluate(REFITTED, "lt-play")
    if cells[0] != cells[1]:
        problems.append(f"the cards were {cells[0]} px, a fresh fit makes them {cells[1]} px")
    problems += [f"a menu's words reach its arrow: {cut}" for cut in page.evaluate(MENU_WORDS_UNDER_ARROW)]
    keep_offered_name(page, lang)
    page.set_viewport_size({"width": SMALL_PHONE[0], "height": SMALL_PHONE[1]})
    page.evaluate("(section) => ltProbes.settled(section)", "lt-play")
    head = page.locator(".lt-app > .lt-head").bounding_box()
    if not head or head["height"] > 52:
        problems.append(f"at {SMALL_PHONE[0]}x{SMALL_PHONE[1]} the header with a kept name is {head} (two rows)")
    page.screenshot(path=str(artifacts / f"first-visit-kept-{lang}-{scheme}-360x740.png"))
    assert not problems, "\n".join(problems)


OFFER_BESIDE_LANGUAGE = """() => {
  const offer = document.querySelector('.lt-student.lt-offered');
  const picker = document.querySelector('.lt-language select');
  const box = picker.getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  const parts = Array.from(offer.querySelectorAll('.lt-student-name .widget-html-content, button'));
  return {language_free: picker.contains(hit), height: offer.getBoundingClientRect().height,
          cut: parts.filter((part) => part.tagName === 'BUTTON' && part.scrollWidth > part.clientWidth + 1)
                    .map((part) => part.textContent)};
}"""
"""Whether a first visit's name offer leaves the language picker free to tap, its height, and any button whose
words it cuts (the name itself may end in an ellipsis)."""


LONGEST_OFFERED = """(name) => {
  const offer = document.querySelector('.lt-student.lt-offered');
  const shown = offer.querySelector('.lt-student-name .widget-html-content span');
  const was = shown.textContent;
  shown.textContent = name;
  const box = shown.parentElement;
  const found = {whole: box.scrollWidth <= box.clientWidth + 1 && box.scrollHeight <= box.clientHeight + 1,
                 right: offer.getBoundingClientRect().right, height: offer.getBoundingClientRect().height};
  shown.textContent = was;
  return found;
}"""
"""Whether the name offered, its words put in place of those shown, is drawn whole (not cut short with an ellipsis),
where the offer's row ends and how tall it is then (px); the words shown are put back."""


def longest_name(lang: str) -> str:
    """The longest of the names the tutor offers a first visit in `lang` (an adjective and an animal)."""
    words = book("students", lang)
    return max((words["generated"].format(adjective=adjective, animal=animal)
                for adjective in words["adjectives"].values() for animal in words["animals"].values()), key=len)


MENU_ARROWS = """() => Array.from(document.querySelectorAll('.lt-play > .lt-controls select'))
  .map((menu) => parseFloat(getComputedStyle(menu).paddingRight))"""
"""The room each of Play's menus keeps at its right for its arrow, clear of its words (px)."""


SQUARE_HEADS = """() => Array.from(document.querySelectorAll('.lt-play .lt-square-head')).map((head) => {
  const number = head.querySelector('.lt-value-number');
  return { lines: Math.round(head.getBoundingClientRect().height / parseFloat(getComputedStyle(head).lineHeight)),
           sentence: head.querySelector('.lt-value-full').textContent,
           number: number && number.getClientRects().length ? number.textContent : null };
})"""
"""Each of Play's square titles as drawn: how many lines it takes, the whole sentence (for comparison) and the value
shown beside the label (null if not drawn)."""


CORNERS_HIDDEN = """() => {
  const hit = document.head.appendChild(document.createElement('style'));  // the drawing answers the probe
  hit.textContent = '.lt-lines * { pointer-events: visiblePainted !important; }';
  const found = Array.from(document.querySelectorAll('.lt-play .lt-square :is(.lt-corner, .lt-known)'))
    .flatMap((corner) => {
      const b = corner.getBoundingClientRect();
      const at = [0.2, 0.5, 0.8];
      return at.flatMap((fx) => at.map((fy) => [b.left + fx * b.width, b.top + fy * b.height]))
        .filter(([x, y]) => !corner.contains(document.elementFromPoint(x, y)))
        .map(([x, y]) => `${corner.textContent} at (${x.toFixed(0)}, ${y.toFixed(0)}) under ` +
                         String(document.elementFromPoint(x, y)?.getAttribute('class')));
    });
  hit.remove();
  return found;
}"""
"""Where a point of a card's rank-and-suit corner (on either square) is covered by something else: a scoring line,
a line's badge (the drawing lets clicks through; the probe lets it answer), or another part of the card."""
BADGES_TOUCH = """() => Array.from(document.querySelectorAll('.lt-play .lt-space'))
  .filter((space) => space.querySelector('.lt-depth'))
  .map((space) => [space.getAttribute('aria-label'), space.querySelector('.lt-depth').getBoundingClientRect(),
                   space.querySelector('.lt-label').getBoundingClientRect()])
  .filter(([, a, b]) => Math.max(b.left - a.right, a.left - b.right, b.top - a.bottom, a.top - b.bottom) < 2)
  .map(([name]) => name)"""
"""The spaces whose pile's depth ("×2") and number touch or overlap."""
TAGS_TOUCH = """() => {
  const tags = Array.from(document.querySelectorAll('.lt-play .lt-line-tag')).map((tag) => tag.getBoundingClientRect());
  return tags.flatMap((a, i) => tags.slice(i + 1)
    .filter((b) => Math.max(b.left - a.right, a.left - b.right, b.top - a.bottom, a.top - b.bottom) < 1)
    .map((b) => [a.left, a.top, b.left, b.top]));
}"""
"""The pairs of lines' badges ("+3") that touch or overlap, of one square or of both."""
TAGS_OUT = """() => {
  const box = document.querySelector('.lt-play .lt-table').getBoundingClientRect();
  const [left, right] = [box.left + 2, box.right - 2];
  return Array.from(document.querySelectorAll('.lt-play .lt-line-tag')).map((tag) => tag.getBoundingClientRect())
    .filter((tag) => tag.left < left || tag.right > right).map((tag) => [tag.left, tag.right, left, right]);
}"""
"""The lines' badges that stand past the green table or within 2 px of its edge (a 390 px phone's were cut)."""


def finished_hand() -> Match:
    """A match whose first hand has been played to its end (lines, piles and all: one pile 13 cards deep, a diagonal
    of each square scoring, whose badges once met between the squares on a phone)."""
    match = Match(seed=95)
    player = BeginnerPlayer(95)
    hand = match.current
    while (seat := current_player(hand)) is not None:
        apply_move(hand, player.choose(hand.view(seat)), match)
    return match


def finished_hand_code() -> str:
    """The saved-game code of `finished_hand()`."""
    return game_code(finished_hand(), "beginner")


@pytest.mark.parametrize(("size", "scheme", "lang"), [("phone", "light", "en"), ("phone", "dark", "es"),
                                                      ("laptop", "light", "es"), ("laptop", "dark", "en")])
def test_at_a_hands_end_no_line_or_badge_covers_a_cards_corner(new_page: Any, base_url: str, artifacts: Path,
                                                               size: str, scheme: str, lang: str) -> None:
    """The scoring lines and their badges of a finished hand leave every card's rank and suit in sight, no badge
    meets another or stands at the table's edge, and a pile's depth keeps clear of its space's number."""
    page = new_page(*SIZES[size], scheme=scheme)
    open_app(page, f"{base_url}?lang={lang}")
    keep_offered_name(page, lang)
    board = page.locator(".lt-play .lt-board")
    page.locator(".lt-game-code input").fill(finished_hand_code())
    page.locator(".lt-game-code input").press("Tab")
    seq = board.get_attribute("data-seq")
    page.locator(".lt-game-saver button", has_text=book("play", lang)["saved_game"]["resume"]).click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(board.locator(".lt-breakdown")).to_have_count(1, timeout=30_000)
    page.evaluate("(section) => ltProbes.settled(section)", "lt-play")
    assert board.locator(".lt-square .lt-line").count() >= 3 and board.locator(".lt-depth").count()
    board.locator(".lt-table").scroll_into_view_if_needed()
    board.locator(".lt-table").screenshot(path=str(artifacts / f"hand-over-{size}-{scheme}-{lang}.png"))
    assert page.evaluate(CORNERS_HIDDEN) == []
    assert page.evaluate(BADGES_TOUCH) == []
    assert page.evaluate(TAGS_TOUCH) == []
    assert page.evaluate(TAGS_OUT) == []
    # each diagonal's badge leans as its line does: what tells it from a row's or a column's "+3" beside it
    match = finished_hand()
    diagonals = sum(1 for square in match.current.squares for line in scoring_lines(square, match.rules)
                    if line.points and set(line.spaces) in ({1, 5, 9}, {3, 5, 7}))
    assert diagonals and board.locator(".lt-line-tag rect[transform*='skewX']").count() == diagonals


def jack_ready_code() -> tuple[str, Play]:
    """The saved-game code of a match where the learner (player 0) is to move holding a jack while a line of the
    other square scores, and the jack's play that breaks that line."""
    match = Match(seed=1)
    player = BeginnerPlayer(1)
    hand = match.current
    while (seat := current_player(hand)) is not None:
        if seat == 0 and hand.stock_size:
            view = hand.view(0)
            jacks = [card for card in view.hand if card.rank == 11]
            lines = [line for line in scoring_lines(view.squares[1], match.rules) if line.scores]
            if jacks and lines:
                return game_code(match, "beginner"), Play(jacks[0], 1, lines[0].spaces[0])
        apply_move(hand, player.choose(hand.view(seat)), match)
    raise AssertionError("the seeded hand never gave the learner a jack against a scoring line")


DRAWN_RED = """async ([png, box]) => {
  const img = new Image(); img.src = 'data:image/png;base64,' + png; await img.decode();
  const canvas = document.createElement('canvas'); canvas.width = img.width; canvas.height = img.height;
  const draw = canvas.getContext('2d'); draw.drawImage(img, 0, 0);
  const data = draw.getImageData(0, 0, img.width, img.height).data;
  const badge = document.querySelector('.lt-play .lt-line-tag-broke rect');
  const fill = getComputedStyle(badge).fill.match(/\\d+/g).map(Number);
  let tag = 0, faded = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    if (Math.abs(r - fill[0]) + Math.abs(g - fill[1]) + Math.abs(b - fill[2]) < 12) tag++;
    if (r >= 170 && r <= 240 && g >= 60 && g <= 125 && b >= 55 && b <= 120 && Math.abs(g - b) < 25) faded++;
  }
  return {tag, faded, area: box.width * box.height};
}"""
"""In a screenshot of the board: how many pixels have the broken line's badge colour, how many its colour seen
through the felt (the dashed line's, not a red card's), and the badge's own area."""


def test_a_broken_lines_badge_is_drawn_in_its_box_and_nothing_red_spills(new_page: Any, base_url: str) -> None:
    """When a play breaks a scoring line, its "−1" badge is drawn solid in its own box (and the dashed line beside
    it), not as a larger see-through red shape over the cards that stays after the flash (as Chromium painted it
    while the badge shared the line's classes)."""
    code, jack = jack_ready_code()
    page = new_page(*SIZES["laptop"])
    open_app(page, base_url)
    keep_offered_name(page, "en")
    board = page.locator(".lt-play .lt-board")
    page.locator(".lt-game-code input").fill(code)
    page.locator(".lt-game-code input").press("Tab")
    seq = board.get_attribute("data-seq")
    page.locator(".lt-game-saver button", has_text=book("play", "en")["saved_game"]["resume"]).click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    names = board.locator(".lt-hand-card").evaluate_all("els => els.map((e) => e.getAttribute('aria-label'))")
    for target in (board.locator(".lt-hand-card").nth(names.index(jack.card.name)),
                   page.get_by_role("button", name=re.compile("^" + escaped(opening(
                       "board.space_name", "what", label=text("board.squares.theirs"), space=jack.space))))):
        seq = board.get_attribute("data-seq")
        target.click()
        expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    badge = board.locator(".lt-line-tag-broke rect").first
    expect(badge).to_be_attached(timeout=30_000)
    page.wait_for_timeout(2_000)  # the flash (1.4 s) is over
    shot = base64.b64encode(board.screenshot()).decode()
    found = page.evaluate(DRAWN_RED, [shot, badge.bounding_box()])
    assert found["tag"] >= 0.4 * found["area"], f"the badge is not drawn solid in its colour: {found}"
    assert found["faded"] <= 2 * found["area"], f"faded red spills beyond the dashed line: {found}"


@pytest.mark.parametrize(("scheme", "lang"), [("light", "en"), ("dark", "es")])
def test_on_a_phone_the_stage_picker_shows_it_scrolls(new_page: Any, base_url: str, scheme: str, lang: str) -> None:
    """Learn's row of stages: every stage in the window, or a visible sign at its right edge that there is more."""
    page = new_page(*SIZES["phone"], scheme=scheme)
    open_app(page, f"{base_url}?lang={lang}")
    open_tab(page, "Learn", lang)
    stages = page.locator(".lt-learn .lt-stages")
    width = SIZES["phone"][0]
    rights = stages.locator(".lt-stage").evaluate_all("els => els.map((e) => e.getBoundingClientRect().right)")
    assert len(rights) == len(LESSONS)
    if max(rights) <= width:
        return
    cue = stages.evaluate("""(row) => { const after = getComputedStyle(row, '::after');
      return [after.content, after.display, after.opacity, row.scrollWidth > row.clientWidth,
              getComputedStyle(row).overflowX]; }""")
    content, display, opacity, scrolls, overflow = cue
    assert content not in ("none", "normal", '""') and display != "none" and float(opacity) > 0.5, cue
    assert scrolls and overflow == "auto", cue
    last = len(LESSONS)  # a stage far along the row, opened by a link: the row shows it, the page stays where it is
    page.goto(f"{base_url}?lang={lang}&tab=learn&lesson={last}", wait_until="commit", timeout=BOARD_TIMEOUT_MS)
    page.locator(".lt-learn .lt-space").first.wait_for(state="visible", timeout=BOARD_TIMEOUT_MS)
    current = stages.locator(".lt-stage[aria-selected='true']")
    expect(current).to_have_text(re.compile(rf"^{last}\b"), timeout=30_000)
    expect(current).to_be_in_viewport(ratio=1)


PLACE = """(section) => [document.querySelector(`.${section} .lt-table`),
                     ...document.querySelectorAll(`.${section} .lt-grid`)]
  .map((part) => { const b = part.getBoundingClientRect(); return [Math.round(b.left), Math.round(b.width)]; })"""
"""Where a section's table and each of its squares stand and how wide they are (px)."""


@pytest.mark.parametrize(("size", "scheme", "lang"), [("laptop", "light", "en"), ("laptop", "dark", "es"),
                                                      ("projector", "light", "es"), ("projector", "dark", "en")])
def test_the_squares_keep_their_place_when_a_hand_ends_or_a_stage_is_done(new_page: Any, base_url: str, size: str,
                                                                          scheme: str, lang: str) -> None:
    """On a wide board the table and its squares keep their width and place when the buttons change under them:
    at a hand's end in Play, and when Learn's first stage is done. (On a phone the squares are as wide as the window
    allows: there the cards may still shrink once when a long message no longer fits.)"""
    page = new_page(*SIZES[size], scheme=scheme, motion="reduce")
    open_app(page, f"{base_url}?lang={lang}")
    keep_offered_name(page, lang)
    board = open_tab(page, "Play", lang)
    before = page.evaluate(PLACE, "lt-play")
    page.locator(".lt-game-code input").fill(finished_hand_code())
    page.locator(".lt-game-code input").press("Tab")
    page.locator(".lt-game-saver button", has_text=book("play", lang)["saved_game"]["resume"]).click()
    expect(board.locator(".lt-breakdown")).to_have_count(1, timeout=30_000)
    page.evaluate("(section) => ltProbes.settled(section)", "lt-play")
    assert page.evaluate(PLACE, "lt-play") == before, "Play's squares moved at the hand's end"

    learn = open_tab(page, "Learn", lang)
    before = page.evaluate(PLACE, "lt-learn")
    (move,) = LESSONS[0].solution
    assert isinstance(move, Play) and move.square_owner == 0
    for target in (learn.locator(".lt-hand-card", has_text=re.compile("^" + re.escape(move.card.symbol))).first,
                   learn.locator(f'.lt-square[data-side=yours] [data-k$="-{move.space}"]')):
        seq = learn.get_attribute("data-seq")
        target.click()
        expect(learn).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(learn.locator(".lt-message.lt-tone-ok")).to_have_count(1)
    page.evaluate("(section) => ltProbes.settled(section)", "lt-learn")
    assert page.evaluate(PLACE, "lt-learn") == before, "Learn's squares moved when the stage was done"


CLIPPED = """(el) => {
  const box = el.getBoundingClientRect();
  const clips = [];
  for (let node = el.parentElement; node && !node.classList.contains('lt-app'); node = node.parentElement) {
    const style = getComputedStyle(node);
    const edge = node.getBoundingClientRect();
    if (style.overflowY !== 'visible' && (box.top < edge.top - 0.5 || box.bottom > edge.bottom + 0.5)) {
      clips.push(String(node.className).slice(0, 40));
    }
  }
  return clips;
}"""
"""The boxes inside the app that cut the element off (it must be scrolled inside them to be seen)."""


@pytest.mark.parametrize(("size", "scheme", "lang"), [("laptop", "light", "en"), ("laptop", "dark", "es"),
                                                      ("laptop-in-a-browser", "light", "es")])
def test_at_a_hands_end_the_log_and_save_are_reached_by_scrolling_the_page(
        new_page: Any, base_url: str, size: str, scheme: str, lang: str) -> None:
    """At a hand's end the side column (the breakdown, the score sheet, the move log of the whole hand) is not cut
    off at the table's bottom: the log's first and last moves and "Save this game" below the board are reached by
    scrolling the page, and seen."""
    page = new_page(*SIZES[size], scheme=scheme)
    open_app(page, f"{base_url}?lang={lang}")
    keep_offered_name(page, lang)
    board = open_tab(page, "Play", lang)
    page.locator(".lt-game-code input").fill(finished_hand_code())
    page.locator(".lt-game-code input").press("Tab")
    page.locator(".lt-game-saver button", has_text=book("play", lang)["saved_game"]["resume"]).click()
    expect(board.locator(".lt-breakdown")).to_have_count(1, timeout=30_000)
    page.evaluate("(section) => ltProbes.settled(section)", "lt-play")
    log = board.locator(".lt-panels > :last-child")
    expect(log.locator(".lt-panel-title")).to_have_text(book("play", lang)["panels"]["moves"].format(number=1))
    save = page.locator(".lt-game-saver button", has_text=book("play", lang)["saved_game"]["save"])
    assert log.locator("li").count() == len(read_game_code(finished_hand_code(), LEVELS).match.current.moves)
    assert log.evaluate(CLIPPED) == []  # a whole hand's log is taller than the window: the page scrolls to all of it
    for part in (log.locator(".lt-panel-title"), log.locator("li").first, log.locator("li").last, save):
        assert part.evaluate(CLIPPED) == []
        part.scroll_into_view_if_needed()
        box = part.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= SIZES[size][1] + 1  # (a fraction of a pixel)
        assert part.evaluate("(el) => { const b = el.getBoundingClientRect(); "
                             "return el.contains(document.elementFromPoint(b.left + 5, b.top + b.height / 2)); }")


def test_on_a_small_phone_a_refused_tap_brings_its_words_into_sight(new_page: Any, base_url: str) -> None:
    """On a small phone Learn's message stands below the screen. A card tapped, then a space it may not go on: the
    table looks as it did, so the refusal's words (why, and where the card can go) are brought into sight; a tap
    that is not refused (a card picked) leaves the page where the learner has it; the move that solves the stage
    brings its words and Next stage into sight."""
    page = new_page(360, 640, touch=True)
    open_app(page, base_url)
    keep_offered_name(page, "en")
    learn = open_tab(page, "Learn")
    message = learn.locator(".lt-message")
    page.evaluate("for (const node of document.querySelectorAll('*')) node.scrollTop = 0")
    assert message.bounding_box()["y"] > 640, "the message starts below a small phone's screen"  # type: ignore[index]
    seq = learn.get_attribute("data-seq")
    hand_card(learn, c("6D")).tap()
    expect(learn).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    assert message.bounding_box()["y"] > 640, "a card picked moves nothing"  # type: ignore[index]
    seq = learn.get_attribute("data-seq")
    space(learn, 0, 3).tap()
    expect(learn).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(message).to_contain_text(text("engine.illegal.wrong_space.open", number=6))
    box = message.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 640 + 1, f"the refusal is said out of sight: {box}"
    # the learner scrolls back up to the table and solves the stage (the card is still picked): its success, and Next
    # stage just above it, are brought into sight too
    page.evaluate("for (const node of document.querySelectorAll('*')) node.scrollTop = 0")
    seq = learn.get_attribute("data-seq")
    space(learn, 0, 6).tap()
    expect(learn).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(message).to_contain_text(opening("lessons.feedback.stars", "stars"))
    next_stage = learn.get_by_role("button", name=text("sections.learn.next_button"))
    box, step = message.bounding_box(), next_stage.bounding_box()
    assert box and step and box["y"] + box["height"] <= 640 + 1 and step["y"] >= 0, f"out of sight: {box} {step}"


def test_on_a_phone_a_review_opens_with_the_squares_in_sight(new_page: Any, base_url: str) -> None:
    """On a phone the review's button stands below the table: tapped there, the review shows the table's top (the
    page had stayed scrolled down to the buttons, the squares above the screen), the focus on Next move. Each step
    then shows its judgement, which stands under the buttons (it was cut off at the screen's foot)."""
    page = new_page(*SIZES["phone"], touch=True)
    open_app(page, base_url)
    keep_offered_name(page, "en")
    board = open_tab(page, "Play")
    for _ in range(2):  # two moves: the review's Next move is offered at the first
        move_by_clicks(board, len(wait_my_turn(board)["hand"]))
    review = board.get_by_role("button", name=text("review.buttons.review"), exact=True)
    expect(review).to_be_enabled(timeout=30_000)
    review.evaluate("(button) => button.scrollIntoView({ block: 'start' })")  # where a finger finds it
    squares = board.locator(".lt-square")
    assert all(box["y"] < 0 for box in squares.evaluate_all(BOXES)), "the squares are above the screen first"
    seq = board.get_attribute("data-seq")
    review.tap()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(board.get_by_role("button", name=text("review.buttons.next"), exact=True)).to_be_focused()
    assert read(board)["turn"].startswith(opening("review.turn", "step", number=1))
    boxes = squares.evaluate_all(BOXES)
    assert len(boxes) == 2 and all(box["y"] >= 0 and box["y"] + box["height"] <= SIZES["phone"][1] for box in boxes), \
        boxes
    # The learner scrolls back up to the header, then steps on: each step's judgement, under the buttons, is brought
    # into sight, the table's top still on the screen.
    page.evaluate("for (const node of document.querySelectorAll('*')) node.scrollTop = 0")
    for name in ("next", "prev"):
        step = board.get_by_role("button", name=text(f"review.buttons.{name}"), exact=True)
        seq = board.get_attribute("data-seq")
        step.tap()
        expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
        message = board.locator(".lt-message").bounding_box()
        top = board.locator(".lt-turn").bounding_box()
        assert message and top and message["y"] + message["height"] <= SIZES["phone"][1] + 1 and top["y"] >= 0, \
            (message, top)


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_about_lies_within_the_screen_and_closes_at_escape_or_when_the_keyboard_leaves(
        new_page: Any, base_url: str, size: str) -> None:
    """The About box lies over the page: it shows whole on the screen, and closes at Escape (the keyboard back on its
    button), when the keyboard moves on, and at a click elsewhere, so it never hides what the keyboard is on."""
    width, height = SIZES[size]
    page = new_page(width, height)
    open_app(page, base_url)
    expect(page.locator(".lt-student.lt-offered")).to_have_count(1, timeout=30_000)  # (on a phone in a row of its own)
    keep_offered_name(page, "en")
    about = page.locator(".lt-help")
    summary = about.locator("summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(about).to_have_attribute("open", "")
    box = page.locator(".lt-help-text").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, f"About's text at {box} on a {width} px screen"
    page.keyboard.press("Escape")
    expect(about).not_to_have_attribute("open", "")
    expect(summary).to_be_focused()
    page.keyboard.press("Enter")
    expect(about).to_have_attribute("open", "")
    page.keyboard.press("Tab")  # on to the next control, which the open box may cover
    expect(about).not_to_have_attribute("open", "")
    summary.click()
    expect(about).to_have_attribute("open", "")
    page.mouse.click(2, height - 2)  # the page itself, near its corner
    expect(about).not_to_have_attribute("open", "")


SCORE_TABLES = """() => {
  const tables = [...document.querySelectorAll('.lt-examples .lt-example-scores table')]
    .filter((table) => table.checkVisibility());
  const shown = (table) => [...table.rows[0].cells].slice(1).map((cell) => cell.textContent);
  return {width: window.innerWidth, page: document.documentElement.scrollWidth,
          boxes: [...document.querySelectorAll('.lt-examples .lt-example-scores')]
            .map((box) => [box.scrollWidth, box.clientWidth]),
          tables: tables.map((table) => ({right: table.getBoundingClientRect().right, values: shown(table)}))};
}"""
"""The Examples section's shown bonus tables: where each ends and the values it shows, and the boxes' widths."""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_on_a_phone_the_score_tables_fit_the_screen_every_value_shown(new_page: Any, base_url: str,
                                                                      lang: str) -> None:
    """Under Examples on a phone, the bonus tables (up to 20 values wide) wrap into rows of whole tables that fit the
    screen: nothing scrolls sideways or is cut, and every value of each table is shown once."""
    page = new_page(*SIZES["phone"])
    open_app(page, f"{base_url}?lang={lang}")
    keep_offered_name(page, lang)
    open_tab(page, "Examples", lang)
    seen = page.evaluate(SCORE_TABLES)
    assert seen["page"] <= seen["width"], f"the page scrolls sideways: {seen['page']} px"
    assert all(scroll <= client for scroll, client in seen["boxes"]), f"a box hides part of a table: {seen['boxes']}"
    assert all(table["right"] <= seen["width"] for table in seen["tables"]), f"a table runs off: {seen['tables']}"
    values = [value for table in seen["tables"] for value in table["values"]]
    tables = list(dict.fromkeys(bonus_table(rules) for rules in RULE_SETS.values()))  # one per way of scoring
    assert values == [str(row.raw) for table in tables for row in table], f"the values shown: {values}"


TURN_ON_THE_TABLE = [".lt-turn", ".lt-square[data-side=yours]", ".lt-square[data-side=theirs]", ".lt-hand", ".lt-stock",
                     ".lt-discard", ".lt-actions"]
"""What a turn needs on the table: the turn line, both squares with their titles, the hand, the piles, the buttons."""
SMALL_ON_THE_BOARD = """(section) => Array.from(document.querySelectorAll(`.${section} .lt-board button`))
  .filter((el) => el.getClientRects().length)
  .map((el) => [el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30), el.getBoundingClientRect()])
  .filter(([, b]) => b.width < 43.5 || b.height < 43.5).map(([name, b]) => `${name}: ${b.width}x${b.height}`)"""
"""The board's buttons (cards, spaces, piles, its own buttons) smaller than a finger's 44 x 44 px."""


@pytest.mark.parametrize("size", list(SIDEWAYS))
def test_on_a_phone_held_sideways_one_scroll_shows_a_whole_turn(new_page: Any, base_url: str, artifacts: Path,
                                                                size: str) -> None:
    """A phone turned sideways is under 400 px high: the header, tabs and menus may stand above the board, but the
    board's turn (both squares with their titles, the hand, the stock and the discard pile, the turn line and the
    buttons) lies within one window's height, in Play and in Learn (a stage of cards, a stage of questions), so one
    scroll shows it all and no move needs another; every target on the board stays 44 px and no title is cut."""
    width, height = SIDEWAYS[size]
    page = new_page(width, height, touch=True, mobile=True)
    question_stage = next(lesson.stage for lesson in LESSONS if lesson.questions)
    problems = []
    for link, section in (("", "lt-play"), ("?tab=learn&lesson=1", "lt-learn"),
                          (f"?tab=learn&lesson={question_stage}", "lt-learn")):
        page.goto(base_url + link, wait_until="commit", timeout=BOARD_TIMEOUT_MS)
        page.locator(f".{section} .lt-space").first.wait_for(state="visible", timeout=BOARD_TIMEOUT_MS)
        page.evaluate("(section) => ltProbes.settled(section)", section)
        screen = f"{section.removeprefix('lt-')}{link} at {width}x{height}"
        boxes = page.evaluate("([s, n]) => ltProbes.boxes(s, n)", [section, TURN_ON_THE_TABLE])
        problems += [f"{screen}: {selector} is not shown" for selector, found in boxes if not found]
        tops = [top for _, found in boxes for _, top, _, _ in found]
        bottoms = [bottom for _, found in boxes for _, _, _, bottom in found]
        if tops and max(bottoms) - min(tops) > height + 0.5:
            problems.append(f"{screen}: the turn takes {max(bottoms) - min(tops):.0f} px of a {height} px window")
        problems += [f"{screen}: {p}" for p in outside(boxes, width, 10_000)]  # (only sideways)
        problems += [f"{screen}: a title is cut: {cut}" for cut in page.evaluate(HEADS_CUT)]
        problems += [f"{screen}: a small target: {small}" for small in page.evaluate(SMALL_ON_THE_BOARD, section)]
        if page.evaluate("document.documentElement.scrollWidth") > width:
            problems.append(f"{screen}: the page scrolls sideways")
        page.locator(f".{section} .lt-board").evaluate("(board) => board.scrollIntoView()")
        page.screenshot(path=str(artifacts / f"sideways-{section.removeprefix('lt-')}-{width}x{height}.png"))
    assert not problems, "\n".join(problems)



@pytest.mark.parametrize("size", list(SIDEWAYS))
def test_on_a_phone_held_sideways_one_scroll_shows_the_question_asked_with_its_answers(
        new_page: Any, base_url: str, size: str) -> None:
    """In a Learn stage of questions on a phone held sideways, the one scroll that shows the whole turn (the board's top
    at the window's top) shows the question asked too, with its answers' buttons (it stood under the message, below
    the window, while Yes and No were in sight): at the stage's start, and after an answer, for the next question."""
    width, height = SIDEWAYS[size]
    page = new_page(width, height, touch=True, mobile=True)
    lesson = next(lesson for lesson in LESSONS if lesson.questions)
    page.goto(f"{base_url}?tab=learn&lesson={lesson.stage}", wait_until="commit", timeout=BOARD_TIMEOUT_MS)
    board = page.locator(".lt-learn .lt-board")
    board.locator(".lt-space").first.wait_for(state="visible", timeout=BOARD_TIMEOUT_MS)
    problems = []
    for number in (1, 2):
        question = board.locator(".lt-goals li", has_text=re.compile("^" + escaped(opening(
            "lessons.questions.asked", "prompt", number=number, count=len(lesson.questions)))))
        expect(question).to_have_count(1, timeout=30_000)
        page.evaluate("(section) => ltProbes.settled(section)", "lt-learn")
        board.evaluate("(board) => board.scrollIntoView()")
        answers = [board.get_by_role("button", name=answer_words(answer), exact=True)
                   for answer in lesson.questions[number - 1].answers]
        for part, name in ((question, f"question {number}"), *((a, f"its answer {i}") for i, a in enumerate(answers))):
            box = part.bounding_box()
            if not box or box["y"] < -0.5 or box["y"] + box["height"] > height + 0.5:
                problems.append(f"at {width}x{height}, {name} is out of sight: {box}")
        seq = board.get_attribute("data-seq")
        answers[0].tap()
        expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    assert not problems, "\n".join(problems)


def test_a_long_name_keeps_the_squares_level_and_the_score_sheet_whole(new_page: Any, base_url: str) -> None:
    """A player's name of the most letters allowed (24): the other square's title wrapped to two lines, so its spaces
    stood 18 px lower than the player's own, and the score sheet broke its short heads ("You" as "Yo" over "u") to
    give the name room. Now both squares' spaces are level, and the sheet's short heads stand whole on one line (the
    long name may wrap)."""
    page = new_page(*SIZES["laptop"])
    open_app(page, base_url)
    board = open_tab(page, "Play")
    page.get_by_role("combobox", name=text("play.controls.opponent")).select_option(label=text("play.people.choice"))
    long = "Maximiliana von Wolkenst"
    for number, name in ((1, long), (2, "Bo")):
        box = page.get_by_role("textbox", name=text("play.people.name_label", number=number))
        box.fill(name)
        box.press("Enter")
        expect(board.locator(".lt-message")).to_contain_text(text("play.people.renamed", number=number, name=name))
    board.locator(".lt-actions button").first.click()  # the first player shows their hand
    expect(board.locator(".lt-hand-card").first).to_be_visible()
    page.evaluate("(section) => ltProbes.settled(section)", SECTIONS["Play"])
    heads = board.locator(".lt-square-head")
    assert any(head.evaluate("(el) => el.getClientRects().length > 0 && el.innerText.includes(name)", long)
               for head in heads.all()), "the long name stands in a square's title"
    tops = [square.locator(".lt-space").first.bounding_box()["y"] for square in board.locator(".lt-square").all()]
    assert len(tops) == 2 and abs(tops[0] - tops[1]) < 1, tops
    sheet = board.locator(".lt-scores thead th")
    expect(sheet).to_have_count(3)
    lines = sheet.evaluate_all("""(cells) => cells.map((cell) => [cell.textContent,
        Array.from(cell.getClientRects()).length && document.createRange && (() => {
          const range = document.createRange(); range.selectNodeContents(cell);
          return new Set(Array.from(range.getClientRects()).map((box) => Math.round(box.top))).size; })(),
        cell.scrollWidth > cell.clientWidth])""")
    assert all(rows == 1 and not cut for name, rows, cut in lines if name != long), lines
