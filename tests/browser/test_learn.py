"""Learn, Examples and Practice in a real Chromium against a real `leopard-tutor` server, by clicks.

What the page should show is worked out with the engine from what the page shows (the spaces'
accessible names), and the lessons' own data says which clicks solve them."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from rendered import opening, pattern

from leopard_tutor.engine import ALL_CARDS, Card, Play, Square, check_play, square_value
from leopard_tutor.engine.catalogue import text
from leopard_tutor.lessons import LESSONS, Progress

NAMES = {card.name: card for card in ALL_CARDS}
SPACE = pattern("board.space_name", label=".+", space="[1-9]", what=".+")
"""A space's accessible name: its square's label, its number, what lies there (the catalogue's words)."""
TIMEOUT = 30_000
YOURS, THEIRS = text("board.squares.yours"), text("board.squares.theirs")
"""The squares' labels, as the page (in the server's language, English) names them."""


def stage_line(stage: int) -> str:
    """How Learn's turn line begins at `stage`."""
    return opening("sections.learn.turn", "title", stage=stage, stages=len(LESSONS))


def stars(count: int) -> str:
    """What a solved lesson says of its stars."""
    return text("lessons.feedback.stars", stars=count)


def worth(label: str, value: object) -> str:
    """A square's value line."""
    return text("board.worth", label=label, value=value)


def record(right: int, wrong: int) -> str:
    """The Practice record's row of questions on a square's value."""
    return text("sections.practice.record_row", concept=text("lessons.practice.concepts.lines"), right=right,
                wrong=wrong)


def stage_tab(within: Any, stage: int, stars: int = 0, locked: bool = False) -> Any:
    """Learn's tab of the course's stage `stage`, found by its name in words (its button shows "3 · ★★")."""
    title = LESSONS[stage - 1].title
    name = (text("sections.learn.stage_name_locked", stage=stage, title=title) if locked
            else text("sections.learn.stage_name", stage=stage, title=title, stars=stars))
    return within.get_by_role("tab", name=name, exact=True)


def open_tab(board: Any, title: str, section: str) -> Any:
    """Open a tab of the app and return its section's board root once drawn."""
    page = board.page
    page.get_by_role("tab", name=title, exact=True).click()
    root = page.locator(f".{section} .lt-board")
    root.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
    return root


def click(root: Any, target: Any) -> str:
    """Click, wait for the board to redraw, and return the live message."""
    seq = root.get_attribute("data-seq")
    target.click()
    expect(root).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
    return str(root.locator(".lt-message").text_content())


def hand_card(root: Any, card: Card) -> Any:
    """The hand's button for `card`, named by its card alone, picked or not (pressed says which)."""
    return root.locator(f'.lt-hand-card[aria-label="{card.name}"]')


def space(root: Any, owner: int, number: int) -> Any:
    label = YOURS if owner == 0 else THEIRS
    return root.get_by_role("button", name=re.compile(f"^{label}, space {number}, "))


def lit(root: Any) -> set[str]:
    names = root.locator(".lt-space.lt-target").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    return {SPACE.match(name).group(1) + " " + SPACE.match(name).group(2) for name in names}  # type: ignore[union-attr]


def play_solution(root: Any, stage: int) -> str:
    """Click through a one-move lesson: its card, then its space."""
    (move,) = LESSONS[stage - 1].solution
    assert isinstance(move, Play)
    click(root, hand_card(root, move.card))
    return click(root, space(root, move.square_owner, move.space))


def test_complete_stage_2_and_stage_6_by_clicks(board: Any) -> None:
    root = open_tab(board, "Learn", "lt-learn")
    section = board.page.locator(".lt-learn")
    expect(root.locator(".lt-turn")).to_contain_text(stage_line(1))
    locked = f"2 · {text('sections.learn.locked_label')}"
    expect(stage_tab(section, 2, locked=True)).to_be_disabled()
    expect(stage_tab(section, 2, locked=True)).to_have_text(locked)
    assert opening("lessons.feedback.stars", "stars") in play_solution(root, 1)
    # the stage is finished: said under its greyed buttons, and not again beside the table with the pointer resting on
    # the space just played, nor on another (it stood in both places, one line above the other)
    (played,) = LESSONS[0].solution
    assert isinstance(played, Play)
    expect(root.locator(".lt-actions .lt-note")).to_have_text(text("lessons.feedback.finished"))
    for spot in (space(root, played.square_owner, played.space), space(root, 1, 5)):
        spot.hover()
        expect(root.locator(".lt-why")).to_have_text("")
    goal = root.locator(".lt-goal")
    goal_node = goal.element_handle()
    root.get_by_role("button", name=text("sections.learn.next_button")).focus()
    seq = root.get_attribute("data-seq")
    board.page.keyboard.press("Enter")
    expect(root).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
    expect(root.locator(".lt-turn")).to_contain_text(stage_line(2))
    # the stage that opened is said, and the keyboard is on its table (Next stage is greyed until it is solved)
    expect(root.locator(".lt-message")).to_contain_text(
        text("sections.learn.opened", stage=2, title=LESSONS[1].title))
    expect(root.locator(".lt-hand-card:focus")).to_have_count(1)
    # the new stage's goal is read out: a live region, the same node as before with new words in it
    expect(goal).to_contain_text(LESSONS[1].goal)
    assert goal.get_attribute("aria-live") == "polite" and goal.evaluate("(el, old) => el === old", goal_node)

    seven = Card.parse("7S")
    click(root, hand_card(root, seven))
    assert lit(root) == {f"{THEIRS} 7"}, "only the legal target is lit"
    message = click(root, space(root, 0, 7))
    reason = LESSONS[1].start().check(Play(seven, 0, 7)).reason
    assert message.startswith(reason), "the engine's reason"
    expect(root.locator(".lt-why")).to_have_text("")  # said once: the space tried does not repeat it under the message
    expect(space(root, 0, 7)).to_have_accessible_description(reason)  # but still describes it, coming back to it
    assert "lt-tone-warn" in (root.locator(".lt-message").get_attribute("class") or "")
    expect(hand_card(root, seven)).to_have_attribute("aria-pressed", "true")  # still picked: try another space
    message = click(root, space(root, 1, 7))
    assert stars(2) in message
    expect(stage_tab(section, 2, stars=2)).to_have_text("2 · ★★")

    progress = Progress()
    for lesson in LESSONS[:5]:
        progress.record_lesson(lesson.key, 3)
    # Load a code, greyed while its box is empty, is in the Tab order and says why (read out as its description)
    load = section.get_by_role("button", name=text("sections.progress.load"))
    section.locator(".lt-code input").focus()
    board.page.keyboard.press("Tab")
    board.page.keyboard.press("Tab")  # (past Copy my code)
    expect(load).to_be_focused()
    expect(load).to_have_attribute("aria-disabled", "true")
    expect(load).to_have_accessible_description(text("sections.progress.empty"))
    expect(section.locator(".lt-load-why")).to_have_text(text("sections.progress.empty"))
    section.locator(".lt-code input").fill(progress.to_code())
    click(root, section.get_by_role("button", name=text("sections.progress.load")))
    expect(root.locator(".lt-message")).to_have_text(text("sections.progress.merged", raised=4))  # (1 had 3 stars)
    # Copy my code copies it during the click (this page is on this machine, so the browser's clipboard allows it)
    board.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    section.get_by_role("button", name=text("sections.progress.copy")).click()
    expect(section.locator(".lt-code-note")).to_have_text(text("sections.progress.copied"), timeout=TIMEOUT)
    copied = board.page.evaluate("navigator.clipboard.readText()")
    assert Progress.from_code(copied).stars == {lesson.key: 3 for lesson in LESSONS[:5]}, copied
    expect(section.locator(".lt-code input")).to_have_value(copied)
    # a class's server on its network address is plain HTTP, no secure context: the older copy command copies it
    board.page.evaluate("""() => { Object.defineProperty(window, "isSecureContext", {value: false});
                                   return navigator.clipboard.writeText("not the code"); }""")
    section.locator(".lt-code input").fill("")
    section.get_by_role("button", name=text("sections.progress.copy")).click()
    expect(section.locator(".lt-code input")).to_have_value(copied, timeout=TIMEOUT)
    expect(section.locator(".lt-code-note")).to_have_text(text("sections.progress.copied"))
    assert board.page.evaluate("navigator.clipboard.readText()") == copied
    click(root, stage_tab(section, 6))
    expect(root.locator(".lt-turn")).to_contain_text(stage_line(6))
    expect(root.get_by_text(worth(THEIRS, 6), exact=True)).to_be_visible()
    click(root, hand_card(root, Card.parse("JC")))
    # a jack may cover any card, in either square: every space holding a card is lit, and no other
    assert lit(root) == {f"{YOURS} 1", f"{YOURS} 5", f"{YOURS} 9", *(f"{THEIRS} {n}" for n in (1, 2, 3, 6, 9))}
    message = click(root, space(root, 1, 3))
    assert stars(3) in message
    expect(root.get_by_text(worth(THEIRS, 0), exact=True)).to_be_visible()
    expect(root.locator(".lt-error")).to_be_hidden()


def test_a_reload_in_the_middle_of_a_lesson_comes_back_to_learn(board: Any) -> None:
    """The tab in view stands in the page's address, so that a reload comes back to it (a learner who reloaded in
    the middle of a stage came back on Play); back on the first tab, the address says no tab. Each tab chosen is an
    entry of the browser's history: Back shows the tab before (it left the app), Forward the one after, and neither
    makes an entry of its own."""
    page = board.page
    learn, play, practice = (text(f"app.tabs.{name}") for name in ("learn", "play", "practice"))
    root = open_tab(board, learn, "lt-learn")
    expect(page).to_have_url(re.compile(r"[?&]tab=learn(&|$)"))
    page.reload(wait_until="commit")
    root = page.locator(".lt-learn .lt-board")
    root.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
    expect(page.get_by_role("tab", name=learn, exact=True)).to_have_attribute("aria-selected", "true")
    page.get_by_role("tab", name=play, exact=True).click()
    expect(page).not_to_have_url(re.compile(r"[?&]tab="))
    page.get_by_role("tab", name=practice, exact=True).click()
    expect(page).to_have_url(re.compile(r"[?&]tab=practice(&|$)"))
    length = page.evaluate("history.length")
    steps = ((page.go_back, r"[?&]tab=", play), (page.go_back, r"[?&]tab=learn(&|$)", learn),
             (page.go_forward, r"[?&]tab=", play), (page.go_forward, r"[?&]tab=practice(&|$)", practice))
    for go, name, shown in steps:
        go(wait_until="commit")
        expect(page.get_by_role("tab", name=shown, exact=True)).to_have_attribute("aria-selected", "true")
        if shown == play:
            expect(page).not_to_have_url(re.compile(name))
        else:
            expect(page).to_have_url(re.compile(name))
    assert page.evaluate("history.length") == length, "a tab brought back made an entry of its own"
    expect(page.locator(".lt-practice")).to_be_visible()


def test_the_stage_picker_is_a_row_of_tabs_over_the_board(page: Any, base_url: str) -> None:
    """Learn's row of stages is a named tablist whose panel is the board: each stage a tab named in words, the stage
    on the board the selected one (and the board's name), a locked stage a disabled tab described by why, one tab in
    the Tab order. The arrow keys (round the row), Home and End move the focus along the stages, locked ones too, and
    open none; Enter opens the stage in focus, or on a locked one shows why it is locked; once the focus has left the
    row, Shift+Tab comes back to the stage on the board, at once."""
    page.goto(f"{base_url}?tab=learn&lesson=3", wait_until="commit")  # a teacher's link: stages 1 to 3 open
    root = page.locator(".lt-learn .lt-board")
    root.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
    expect(root.locator(".lt-turn")).to_contain_text(stage_line(3))
    stages = page.get_by_role("tablist", name=text("sections.learn.stages_label"), exact=True)
    expect(stages.get_by_role("tab")).to_have_count(len(LESSONS))
    first, second, third = (stage_tab(stages, stage) for stage in (1, 2, 3))
    expect(stages.get_by_role("tab", selected=True)).to_have_count(1)
    expect(third).to_have_attribute("aria-selected", "true")
    expect(third).to_have_text("3")
    fourth = stage_tab(stages, 4, locked=True)
    expect(fourth).to_be_disabled()
    board_panel = page.get_by_role("tabpanel", name=third.get_attribute("aria-label") or "", exact=True)
    expect(board_panel.locator(".lt-board")).to_have_count(1, timeout=TIMEOUT)
    assert {third.get_attribute("aria-controls"), fourth.get_attribute("aria-controls")} == {
        board_panel.get_attribute("id")}
    read = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    named = set(stages.get_by_role("tab").evaluate_all("tabs => tabs.map((tab) => tab.getAttribute('aria-label'))"))
    tabs = [node for node in read if node.get("role", {}).get("value") == "tab"
            and node.get("name", {}).get("value") in named]
    described = {tab["name"]["value"]: tab.get("description", {}).get("value", "") for tab in tabs}
    assert len(tabs) == len(LESSONS), tabs
    for lesson in LESSONS:  # a stage's title is read once, in its name, not again; a locked one's reason is read
        locked = text("sections.learn.stage_name_locked", stage=lesson.stage, title=lesson.title)
        assert described.get(locked, described.get(text("sections.learn.stage_name", stage=lesson.stage,
                                                         title=lesson.title, stars=0))) == (
            text("sections.learn.locked", stage=lesson.stage, previous=lesson.stage - 1) if lesson.stage > 3 else ""
        ), (lesson.stage, described)
    assert third.get_attribute("title") and third.get_attribute("title") in (third.get_attribute("aria-label") or "")
    in_tab_order = stages.get_by_role("tab").evaluate_all("tabs => tabs.map((tab) => tab.tabIndex)")
    assert in_tab_order == [-1, -1, 0] + [-1] * (len(LESSONS) - 3)
    last = stage_tab(stages, len(LESSONS), locked=True)
    third.focus()
    page.keyboard.press("ArrowRight")
    expect(fourth).to_be_focused()  # locked, yet reached: pressed, it says why and opens nothing
    seq = root.get_attribute("data-seq")
    page.keyboard.press("Enter")
    expect(page.locator(".lt-why-bubble")).to_have_text(text("sections.learn.locked", stage=4, previous=3))
    assert root.get_attribute("data-seq") == seq
    for key, focused in (("ArrowLeft", third), ("Home", first), ("ArrowLeft", last), ("ArrowRight", first),
                         ("End", last), ("Home", first), ("ArrowRight", second)):
        page.keyboard.press(key)
        expect(focused).to_be_focused()
    expect(page.locator(".lt-why-bubble")).to_have_count(0)  # (the keyboard moved on: the reason goes)
    expect(third).to_have_attribute("aria-selected", "true")
    expect(root.locator(".lt-turn")).to_contain_text(stage_line(3))
    seq = root.get_attribute("data-seq")
    page.keyboard.press("Enter")
    expect(root).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
    expect(root.locator(".lt-turn")).to_contain_text(stage_line(2))
    expect(second).to_have_attribute("aria-selected", "true")
    expect(third).to_have_attribute("aria-selected", "false")
    expect(page.get_by_role("tabpanel", name=second.get_attribute("aria-label") or "", exact=True)).to_have_count(1)
    expect(second).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(first).to_be_focused()
    page.keyboard.press("Tab")  # out of the row, onto the board
    expect(root.locator(":focus")).to_have_count(1)
    page.keyboard.press("Shift+Tab")
    expect(second).to_be_focused()
    ring = second.evaluate("(el) => [getComputedStyle(el).outlineColor, getComputedStyle(el).backgroundColor]")
    assert ring == ["rgb(255, 255, 255)", "rgb(13, 71, 161)"], f"the current stage's focus shows plainly: {ring}"
    page.keyboard.press("ArrowLeft")
    expect(first).to_be_focused()
    order = stages.evaluate("""(row) => {
        document.querySelector(".lt-learn .lt-board button:not([disabled])").focus();
        return [...row.querySelectorAll("[role=tab]")].map((tab) => tab.tabIndex);
    }""")  # read in the same task as the focus left: a Shift+Tab already queued must find the stage on the board
    assert order == [-1, 0] + [-1] * (len(LESSONS) - 2), order
    page.keyboard.press("Shift+Tab")
    expect(second).to_be_focused()
    fourth.click(force=True)  # a mouse's click says why, as the keyboard's Enter did; the mouse moved off, it goes
    expect(page.locator(".lt-why-bubble")).to_have_text(text("sections.learn.locked", stage=4, previous=3))
    box = fourth.bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] + 60)  # over what the reason lay on
    expect(page.locator(".lt-why-bubble")).to_have_count(0)


def test_step_through_example_c3_and_read_its_values(board: Any) -> None:
    root = open_tab(board, "Examples", "lt-examples")
    board.page.locator(".lt-examples select").select_option(label="C3 · The king")  # its short name: the title shows
    revised, original = text("rules.REVISED_2008"), text("rules.ORIGINAL_1963")
    expect(root.locator(".lt-turn")).to_have_text(text("sections.examples.turn", key="C3", step=1, steps=2,
                                                       rules=revised), timeout=TIMEOUT)
    expect(root.locator(".lt-example-text .lt-panel-title")).to_have_text("C3 · The king: from 1 point to 8")
    expect(root.locator(".lt-value")).to_have_text(worth(YOURS, 1))
    expect(root.get_by_role("button", name="Back")).to_be_disabled()
    root.get_by_role("button", name="Next").focus()
    seq = root.get_attribute("data-seq")
    board.page.keyboard.press("Enter")  # to the last step: Next is greyed and keeps the keyboard (handed to Back, a
    expect(root).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)  # learner pressing Enter went back)
    following = root.get_by_role("button", name="Next")
    expect(following).to_be_focused()
    expect(following).to_be_disabled()
    seq = root.get_attribute("data-seq")
    board.page.keyboard.press("Enter")  # pressed again: it says why, and the example stays at its last step
    expect(root.locator(".lt-why")).to_have_text(text("sections.examples.last"))
    assert root.get_attribute("data-seq") == seq
    message = str(root.locator(".lt-message").text_content())
    assert f"{text('sections.examples.value', value=8)} {text('sections.examples.stated', stated=8)}" in message
    expect(root.locator(".lt-value")).to_have_text(worth(YOURS, 8))
    items = root.locator(".lt-line-item").all_text_contents()
    assert sorted(items) == sorted(
        text("board.line_scores", name=text(f"words.line.{orientation}", labels=labels),
             kind=text(f"narration.kind_{kind}"), points=points)
        for orientation, labels, kind, points in (("column", "1-4-7", "suit", 3), ("diagonal", "1-5-9", "color", 1),
                                                   ("diagonal", "3-5-7", "color", 1), ("row", "7-8-9", "suit", 3)))
    expect(root.get_by_role("list", name=text("board.line_list", label=YOURS), exact=True)).to_have_count(1)
    said = click(root, root.get_by_role("button", name=text("sections.examples.other_rules", rules=original)))
    assert said.startswith(text("sections.examples.shown_under", rules=original)), said
    click(root, root.get_by_role("button", name="Next"))
    expect(root.locator(".lt-value")).to_have_text(worth(YOURS, 6))
    expect(root.locator(".lt-turn")).to_have_text(text("sections.examples.turn", key="C3", step=2, steps=2,
                                                       rules=original))


def test_a_greyed_button_is_reached_by_tab_and_pressed_says_why(board: Any) -> None:
    """A greyed button of the board (Examples' Back, at an example's first step) is in the Tab order, described by
    its reason; pressed (Enter, Space, a click) it sends nothing to the kernel and changes nothing, and its reason
    shows beside the table, where a space's shows on hover and focus."""
    root = open_tab(board, "Examples", "lt-examples")
    page = board.page
    page.locator(".lt-examples select").select_option(label="C3 · The king")
    first = text("sections.examples.turn", key="C3", step=1, steps=2, rules=text("rules.REVISED_2008"))
    expect(root.locator(".lt-turn")).to_have_text(first, timeout=TIMEOUT)
    back, reason = root.get_by_role("button", name=text("sections.examples.back")), text("sections.examples.first")
    root.get_by_role("button", name=text("sections.examples.next")).focus()
    page.keyboard.press("Shift+Tab")
    expect(back).to_be_focused()
    expect(back).to_be_disabled()  # (aria-disabled: greyed for Playwright and for a screen reader alike)
    expect(back).to_have_accessible_description(reason)
    expect(root.locator(".lt-why")).not_to_have_text(reason)
    seq = root.get_attribute("data-seq")
    # whether the board waits for the kernel's answer, read just after each press reached the button (a listener on
    # the board hears the click after the button's own): a press that sent something would find it busy
    root.evaluate("""(board) => {
        window.ltBusy = [];
        board.addEventListener("click", () => window.ltBusy.push(board.getAttribute("aria-busy")));
    }""")
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    back.evaluate("(button) => button.click()")
    assert page.evaluate("window.ltBusy") == [None, None, None], "a greyed button sent its action to the kernel"
    expect(root.locator(".lt-why")).to_have_text(reason)
    expect(back).to_be_focused()
    assert root.get_attribute("data-seq") == seq
    expect(root.locator(".lt-turn")).to_have_text(first)
    # the board drawn anew (the example under the other rules, asked for here by a script) leaves the keyboard on
    # the greyed button it went to; only a button greyed while it had the focus hands it on
    original = text("rules.ORIGINAL_1963")
    root.get_by_role("button", name=text("sections.examples.other_rules", rules=original)).evaluate("(b) => b.click()")
    expect(root.locator(".lt-turn")).to_have_text(text("sections.examples.turn", key="C3", step=1, steps=2,
                                                       rules=original), timeout=TIMEOUT)
    expect(back).to_be_focused()


def square_on_page(root: Any) -> Square:
    """The square the page shows, rebuilt from its spaces' accessible names."""
    piles: dict[int, list[tuple[Card, bool]]] = {}
    for name in root.locator(".lt-space").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"):
        found = SPACE.match(name)
        assert found, name
        what = found.group(3).split(opening("board.on_top_of", "count", what=""))[0]
        if what == text("board.empty"):
            piles[int(found.group(2))] = []
        elif what.startswith(text("board.face_down_card")):
            piles[int(found.group(2))] = [(Card.parse("QS"), False)]
        else:
            piles[int(found.group(2))] = [(NAMES[what], True)]
    return Square([piles[s] for s in range(1, 10)])


def focused_key(board: Any) -> str:
    """The board's name (`data-k`) of the element that has the focus ("" if it is not one of the board's)."""
    return str(board.page.evaluate("document.activeElement.getAttribute('data-k') || ''"))


def test_answer_a_practice_question_right_and_wrong(board: Any) -> None:
    root = open_tab(board, "Practice", "lt-practice")
    section = board.page.locator(".lt-practice")
    seq = root.get_attribute("data-seq")  # the question shown may already be of this kind: wait for the new one
    revised = text("rules.REVISED_2008")
    value_kind, placement_kind = text("sections.practice.kinds.value"), text("sections.practice.kinds.placement")
    section.locator("select").first.select_option(label=value_kind)
    expect(root).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(root.locator(".lt-turn")).to_have_text(text("sections.practice.turn", kind=value_kind, rules=revised),
                                                  timeout=TIMEOUT)
    expect(root.locator(".lt-value")).to_have_text(text("sections.practice.hidden_value"))
    value = square_value(square_on_page(root))
    seq = root.get_attribute("data-seq")
    section.locator(".lt-answer input").fill("-5")  # out of the box's range: the app's words say what to type
    section.locator(".lt-answer input").press("Enter")
    expect(root).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
    expect(root.locator(".lt-message")).to_have_text(text("lessons.practice.value.bad"))
    section.locator(".lt-answer input").fill(str(value))
    section.locator(".lt-answer input").press("Tab")
    message = click(root, section.get_by_role("button", name="Check"))
    assert message.startswith(text("lessons.practice.value.right", value=value))
    for control in (section.locator(".lt-answer input"), section.get_by_role("button", name="Check")):
        expect(control).to_be_disabled()  # answered: greyed, and says why to the keyboard that reaches it
        expect(control).to_have_accessible_description(text("sections.practice.answered"))
    expect(root.locator(".lt-value")).to_have_text(worth(text("sections.practice.this_square"), value))
    expect(section.locator(".lt-record")).to_contain_text(record(1, 0))

    click(root, root.get_by_role("button", name="Next question"))
    value = square_value(square_on_page(root))
    section.locator(".lt-answer input").fill(str(value + 2))
    seq = root.get_attribute("data-seq")
    section.locator(".lt-answer input").press("Enter")  # a keyboard's way to send the answer
    expect(root).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
    message = str(root.locator(".lt-message").text_content())
    assert message.startswith(text("lessons.practice.value.wrong", given=value + 2, value=value))
    assert focused_key(board) == "anext", "the answer given, the focus goes on to the next question, not the page"
    expect(section.locator(".lt-record")).to_contain_text(record(1, 1))
    seq = root.get_attribute("data-seq")
    board.page.keyboard.press("Enter")  # the next question, from the keyboard: it goes on to the new answer box
    expect(root).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
    expect(section.locator(".lt-answer input")).to_be_focused()

    section.locator("select").first.select_option(label=placement_kind)
    expect(root.locator(".lt-turn")).to_have_text(text("sections.practice.turn", kind=placement_kind, rules=revised),
                                                  timeout=TIMEOUT)
    prompt = str(root.locator(".lt-message").text_content())
    mine, theirs = text("lessons.goals.where.your"), text("lessons.goals.where.their")
    found = pattern("lessons.practice.placement.prompt", card=".+", space="[1-9]",
                    where=f"{re.escape(mine)}|{re.escape(theirs)}").fullmatch(prompt)
    assert found, prompt
    skip = board.page.get_by_role("link", name=text("app.skip_label"), exact=True)
    skip.focus()
    board.page.keyboard.press("Enter")  # to the question's answers: it went to the card shown, which says to use them
    expect(root.get_by_role("button", name=text("sections.practice.yes"))).to_be_focused()
    card, number, whose = NAMES[found.group(1)], int(found.group(2)), found.group(3)
    verdict = check_play(card, square_on_page(root), number, own=whose == mine)
    answer = text("sections.practice.no") if verdict.legal else text("sections.practice.yes")
    message = click(root, root.get_by_role("button", name=answer))
    assert message == f"{text('lessons.practice.placement.wrong')} {verdict.reason}"
    assert focused_key(board) == "anext", "the answer buttons greyed, the focus is on the next question's"
    expect(root.locator(".lt-error")).to_be_hidden()
    yes, no = (root.get_by_role("button", name=text(f"sections.practice.{word}")) for word in ("yes", "no"))
    note = root.locator(".lt-actions .lt-note", has_text=text("sections.practice.answered"))
    expect(note).to_have_count(1)  # one note for both, read as each one's description, after the two
    for control in (yes, no):
        expect(control).to_have_accessible_description(text("sections.practice.answered"))
    first, second, words = yes.bounding_box(), no.bounding_box(), note.bounding_box()
    assert first and second and words
    assert 0 <= second["x"] - (first["x"] + first["width"]) <= 16, f"No stands away from Yes: {first}, {second}"
    assert words["x"] >= second["x"] + second["width"] or words["y"] >= second["y"] + second["height"], (
        f"the note {words} stands before No {second}")


def test_answer_the_questions_of_the_stage_on_what_you_can_see(board: Any) -> None:
    """A stage whose task is questions: the answer buttons, the question under the goal, the list of what is
    in sight; the answers are the engine's, worked out here from the lesson's position."""
    root = open_tab(board, "Learn", "lt-learn")
    section = board.page.locator(".lt-learn")
    lesson = next(lesson for lesson in LESSONS if lesson.questions)
    progress = Progress()
    for solved in LESSONS[:lesson.stage - 1]:
        progress.record_lesson(solved.key, 3)
    section.locator(".lt-code input").fill(progress.to_code())
    click(root, section.get_by_role("button", name=text("sections.progress.load")))
    click(root, stage_tab(section, lesson.stage))
    expect(root.locator(".lt-turn")).to_contain_text(stage_line(lesson.stage))
    expect(root.get_by_role("button", name=text("sections.learn.go_out_button"))).to_have_count(0)
    expect(root.get_by_text(text("sections.learn.in_sight.title"), exact=True)).to_be_visible()  # (the list's head)
    view = lesson.start().view(0)
    for number, question in enumerate(lesson.questions, start=1):
        asked = text("lessons.questions.asked", number=number, count=len(lesson.questions), prompt=question.prompt())
        expect(root.get_by_text(asked, exact=True)).to_be_visible()
        words = text(f"lessons.questions.answers.{question.truth(view).answer}")
        message = click(root, root.get_by_role("button", name=words, exact=True))
        last = number == len(lesson.questions)  # the last right answer is explained too, then solves the stage
        assert message.startswith(text("lessons.questions.right", answer=words)), message
        assert (lesson.success in message) == last, message
    assert stars(3) in message
    # solved by a button, not a click on the table: the board says it is finished all the same, once (under the
    # greyed buttons as their reason, or else in the line under the message: the static site's family saw it twice)
    expect(root.get_by_text(text("lessons.feedback.finished"), exact=True)).to_have_count(1)
    expect(root.locator(".lt-error")).to_be_hidden()
