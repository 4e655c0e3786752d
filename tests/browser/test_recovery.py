"""Recovery in a real Chromium: the learner's progress comes back by itself after a reload (kept in the
browser's storage), a damaged kept text is explained, a game resumes from its saved-game code, and the
one-page rules summary opens from the app and prints on one A4 page, that of every rule set."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from test_learn import TIMEOUT, click, open_tab, play_solution, square_on_page

from leopard_tutor.engine import RULE_SETS, square_value
from leopard_tutor.widgets.rules_sheet import rules_sheet_html

KEY = "leopard-tutor/progress"


def test_progress_comes_back_by_itself_after_a_reload(page: Any, base_url: str, open_board: Any) -> None:
    board = open_board(base_url)
    root = open_tab(board, "Learn", "lt-learn")
    assert "Lesson complete" in play_solution(root, 1)
    learn = page.locator(".lt-learn")
    expect(learn.get_by_role("button", name=re.compile(r"^1 ★+$"))).to_be_visible()
    stars = learn.get_by_role("button", name=re.compile(r"^1 ★+$")).inner_text()

    root = open_tab(board, "Practice", "lt-practice")
    practice = page.locator(".lt-practice")
    practice.locator("select").first.select_option(label="What is it worth?")
    expect(root.locator(".lt-turn")).to_have_text("What is it worth? · Revised rules (2008)", timeout=TIMEOUT)
    practice.locator(".lt-answer input").fill(str(square_value(square_on_page(root))))
    practice.locator(".lt-answer input").press("Tab")
    click(root, practice.get_by_role("button", name="Check"))
    expect(practice.locator(".lt-record")).to_contain_text("Scoring lines: 1 right, 0 wrong")
    assert page.evaluate(f"localStorage.getItem('{KEY}')").startswith("LT2-")

    page.reload(wait_until="commit")  # a new kernel, nothing in it: the page gives the progress back
    again = page.locator(".lt-board").first
    again.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
    open_tab(again, "Learn", "lt-learn")
    expect(learn.get_by_role("button", name=stars.strip(), exact=True)).to_be_visible(timeout=TIMEOUT)
    expect(learn.get_by_role("button", name="2", exact=True)).to_be_enabled()
    open_tab(again, "Practice", "lt-practice")
    expect(practice.locator(".lt-record")).to_contain_text("Scoring lines: 1 right, 0 wrong")


def test_a_damaged_kept_progress_is_explained_and_the_app_works_on(page: Any, base_url: str, open_board: Any) -> None:
    open_board(base_url)
    page.evaluate(f"localStorage.setItem('{KEY}', 'LT2-damaged!')")
    page.reload(wait_until="commit")
    board = page.locator(".lt-board").first
    board.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
    expect(page.locator(".lt-storage-note")).to_contain_text(
        "Your progress kept in this browser could not be read, so the tutor starts afresh.", timeout=TIMEOUT)
    seq = board.get_attribute("data-seq")
    board.locator(".lt-hand-card").first.click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
    expect(board.locator(".lt-message")).to_contain_text("You picked the ")


def hand_names(board: Any) -> list[str]:
    names: list[str] = board.locator(".lt-hand-card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))")
    return names


def test_a_game_resumes_from_its_saved_game_code_after_a_reload(page: Any, base_url: str, open_board: Any) -> None:
    board = open_board(base_url)
    expect(board.locator(".lt-turn")).to_contain_text("your turn", timeout=TIMEOUT)
    for _ in range(2):  # two discards, and the computer's replies
        seq = board.get_attribute("data-seq")
        board.locator(".lt-hand-card").first.click()
        expect(board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
        seq = board.get_attribute("data-seq")
        board.locator(".lt-discard").click()
        expect(board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
        expect(board.locator(".lt-turn")).to_contain_text("your turn", timeout=TIMEOUT)
    hand = hand_names(board)
    spaces = board.locator(".lt-space").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    page.get_by_role("button", name="Save game").click()
    code = page.get_by_role("textbox", name="Saved-game code")
    expect(code).to_have_value(re.compile(r"^LG1-"), timeout=TIMEOUT)
    saved = code.input_value()

    page.reload(wait_until="commit")
    board = page.locator(".lt-board").first
    board.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
    assert hand_names(board) != hand
    page.locator(".lt-game-code input").fill(saved)
    page.locator(".lt-game-code input").press("Tab")
    page.get_by_role("button", name="Resume").click()
    expect(board.locator(".lt-message")).to_contain_text("Game resumed: hand 1 of 4, Revised rules (2008)",
                                                         timeout=TIMEOUT)
    assert hand_names(board) == hand
    assert board.locator(".lt-space").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") == spaces

    page.locator(".lt-game-code input").fill(saved[:-12])
    page.locator(".lt-game-code input").press("Tab")
    page.get_by_role("button", name="Resume").click()
    expect(board.locator(".lt-message")).to_have_text(
        "This saved-game code is damaged or incomplete: copy the whole code again.", timeout=TIMEOUT)
    assert hand_names(board) == hand


def test_the_rules_summary_opens_from_the_app_and_prints_on_one_a4_page(page: Any, base_url: str,
                                                                        open_board: Any) -> None:
    open_board(base_url)
    with page.context.expect_page() as opened:
        page.get_by_role("link", name="Rules on one page (to print)").click()
    sheet = opened.value
    sheet.wait_for_load_state()
    assert sheet.url.startswith("blob:http://127.0.0.1")
    expect(sheet.get_by_role("heading", level=1)).to_have_text("Leopard: the rules on one page")
    expect(sheet.get_by_role("button", name="Print this page")).to_be_visible()
    sheet.emulate_media(media="print")
    expect(sheet.get_by_role("button", name="Print this page")).to_be_hidden()
    pdf = sheet.pdf(format="A4", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1, "the summary fills exactly one A4 page"


def test_the_sheet_of_every_rule_set_prints_on_one_a4_page(page: Any) -> None:
    page.emulate_media(media="print")
    for rules in RULE_SETS.values():
        page.set_content(rules_sheet_html(rules))
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1, f"the sheet of {rules} fills exactly one A4 page"
