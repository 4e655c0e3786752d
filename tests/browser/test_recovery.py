"""Recovery in a real Chromium: the learner's progress and match come back by themselves after a reload (kept in the
browser's storage), a damaged kept text is explained, a game resumes from its saved-game code, and the
one-page rules summary opens from the app and prints on one A4 page, that of every rule set."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from rendered import opening, pattern
from test_learn import TIMEOUT, click, open_tab, play_solution, square_on_page, stage_line, stage_tab

from leopard_tutor.engine import RULE_SETS, square_value
from leopard_tutor.engine.catalogue import text
from leopard_tutor.server.launch import MAX_MESSAGE_BYTES
from leopard_tutor.widgets.input_limits import INPUT_MOST
from leopard_tutor.widgets.rules_sheet import rules_sheet_html

KEY = "leopard-tutor/progress"
LINES_RECORD = text("sections.practice.record_row", concept=text("lessons.practice.concepts.lines"), right=1, wrong=0)
"""The Practice record's row after one right answer on a square's value (the server's language: English)."""
YOUR_TURN = pattern("play.turn.yours", number=r"\d+", hands=r"\d+", rules=".+")


def test_progress_and_the_stage_come_back_by_themselves_after_a_reload(page: Any, base_url: str,
                                                                       open_board: Any) -> None:
    board = open_board(base_url)
    root = open_tab(board, "Learn", "lt-learn")
    assert opening("lessons.feedback.stars", "stars") in play_solution(root, 1)
    learn = page.locator(".lt-learn")
    expect(learn.locator(".lt-stage").first).to_have_text(re.compile(r"^1 · ★+$"))
    stars = learn.locator(".lt-stage").first.inner_text().count("★")
    click(root, root.get_by_role("button", name=text("sections.learn.next_button")))
    expect(root.locator(".lt-turn")).to_contain_text(stage_line(2))

    root = open_tab(board, "Practice", "lt-practice")
    practice = page.locator(".lt-practice")
    worth = text("sections.practice.kinds.value")
    seq = root.get_attribute("data-seq")  # the question shown may already be of this kind: wait for the new one
    practice.locator("select").first.select_option(label=worth)
    expect(root).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(root.locator(".lt-turn")).to_have_text(text("sections.practice.turn", kind=worth,
                                                        rules=text("rules.REVISED_2008")), timeout=TIMEOUT)
    practice.locator(".lt-answer input").fill(str(square_value(square_on_page(root))))
    practice.locator(".lt-answer input").press("Tab")
    click(root, practice.get_by_role("button", name="Check"))
    expect(practice.locator(".lt-record")).to_contain_text(LINES_RECORD)
    assert page.evaluate(f"localStorage.getItem('{KEY}')").startswith("LT2-")

    page.reload(wait_until="commit")  # a new kernel, nothing in it: the page gives the progress back, on its tab
    again = page.locator(".lt-practice .lt-board")
    again.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
    expect(practice.locator(".lt-record")).to_contain_text(LINES_RECORD)
    learn_again = open_tab(again, "Learn", "lt-learn")
    expect(stage_tab(learn, 1, stars=stars)).to_be_visible(timeout=TIMEOUT)
    expect(stage_tab(learn, 2)).to_be_enabled()
    expect(learn_again.locator(".lt-turn")).to_contain_text(stage_line(2), timeout=TIMEOUT)  # where it was (it was 1)


def test_a_damaged_kept_progress_is_explained_and_the_app_works_on(page: Any, base_url: str, open_board: Any) -> None:
    open_board(base_url)
    note = page.get_by_role("region", name=text("app.storage_note_label"), exact=True)
    expect(note).to_have_count(0)  # a note that says nothing is no landmark
    page.evaluate(f"localStorage.setItem('{KEY}', 'LT2-damaged!')")
    page.reload(wait_until="commit")
    board = page.locator(".lt-board").first
    board.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
    expect(note).to_have_text(  # a named region: no words of the page outside a landmark
        text("app.storage.unreadable", reason=text("sections.progress.damaged")), timeout=TIMEOUT)
    seq = board.get_attribute("data-seq")
    board.locator(".lt-hand-card").first.click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
    expect(board.locator(".lt-message")).to_contain_text(opening("play.picked", "the_card", where=""))


def hand_names(board: Any) -> list[str]:
    names: list[str] = board.locator(".lt-hand-card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))")
    return names


TABS_MATCHES = ("localStorage.getItem('leopard-tutor/matches#set:'"  # the matches this tab keeps, under its id
                " + sessionStorage.getItem('leopard-tutor/matches#tab'))")


def discard_twice(board: Any) -> None:
    """Two discards, and the computer's replies: a match under way, kept by the browser (which keeps it a moment
    after the board shows it: a tab closed before then comes back to what it kept last, as in test_classmates.py)."""
    expect(board.locator(".lt-turn")).to_have_text(YOUR_TURN, timeout=TIMEOUT)
    for _ in range(2):
        was = board.page.evaluate(TABS_MATCHES)
        for target in (".lt-hand-card", ".lt-discard"):
            seq = board.get_attribute("data-seq")
            board.locator(target).first.click()
            expect(board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
        expect(board.locator(".lt-turn")).to_have_text(YOUR_TURN, timeout=TIMEOUT)
        board.page.wait_for_function(f"(was) => {TABS_MATCHES} !== was", arg=was, timeout=TIMEOUT)


def test_a_new_tab_leaves_the_match_to_the_open_tab_that_plays_it(page: Any, base_url: str,
                                                                 open_board: Any) -> None:
    """A second tab opened while the first plays its match against the computer took that match up too, and the
    computer answered one move two ways: it now says the match goes on in the other tab and deals its own. The browser
    keeps each tab's matches: it kept only those saved last, and the first tab's were lost once a new tab took up the
    second's. With both closed, a new tab takes up the matches of the one that saved last, and the next new tab the
    others'."""
    first = page.context.new_page()
    discard_twice(open_board(base_url, first))
    played = [(hand_names(first.locator(".lt-board").first), spaces_of(first.locator(".lt-board").first))]
    second = page.context.new_page()
    board = open_board(base_url, second)
    expect(board.locator(".lt-message")).to_contain_text(text("play.saved_game.held_elsewhere"), timeout=TIMEOUT)
    assert hand_names(board) != played[0][0], "the second tab took up the first one's match"
    discard_twice(board)
    played.append((hand_names(board), spaces_of(board)))
    second.close()
    first.close()
    fourth = page.context.new_page()
    for tab, (hand, squares) in ((page, played[1]), (fourth, played[0])):  # the newest first: the second tab's
        board = open_board(base_url, tab)
        expect(board.locator(".lt-message")).to_contain_text(
            opening("play.saved_game.resumed", "level", number=1, hands=4, rules=text("rules.REVISED_2008")),
            timeout=TIMEOUT)
        assert (hand_names(board), spaces_of(board)) == (hand, squares)
        assert text("play.saved_game.held_elsewhere") not in str(board.locator(".lt-message").text_content())


def test_a_game_between_two_people_comes_back_after_a_reload_behind_the_hand_over_screen(page: Any, base_url: str,
                                                                                         open_board: Any) -> None:
    """Two people at one device, each having moved: a reload takes their game up where it was, with their names,
    showing no hand until its player asks (it was lost: the browser kept only matches against the computer)."""
    board = open_board(base_url)
    expect(board.locator(".lt-turn")).to_have_text(YOUR_TURN, timeout=TIMEOUT)
    page.get_by_role("combobox", name=text("play.controls.opponent")).select_option(label=text("play.people.choice"))
    for number, name in ((1, "Ana"), (2, "Ben")):
        box = page.get_by_role("textbox", name=text("play.people.name_label", number=number))
        box.fill(name)
        box.press("Tab")
        expect(board.locator(".lt-message")).to_contain_text(text("play.people.renamed", number=number, name=name),
                                                              timeout=TIMEOUT)
    show = page.get_by_role("button", name=re.compile("^(Ana|Ben), show my hand$"))
    for _ in range(2):
        was = page.evaluate(TABS_MATCHES)
        show.click()  # each step waits for its own answer: a press while the last is unanswered is not taken
        board.locator(".lt-hand-card").first.click()  # (there is no hand card until the hand is shown)
        expect(board.locator(".lt-hand-card.lt-selected")).to_have_count(1, timeout=TIMEOUT)
        seq = board.get_attribute("data-seq")
        board.locator(".lt-discard").first.click()
        expect(board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
        page.wait_for_function(f"(was) => {TABS_MATCHES} !== was", arg=was, timeout=TIMEOUT)  # kept by the browser
    squares, name = spaces_of(board), str(show.text_content()).split(",")[0]
    page.reload(wait_until="commit")
    board = page.locator(".lt-board").first
    back = text("play.set_aside.back_people", first="Ana", second="Ben")
    expect(board.locator(".lt-message")).to_contain_text(back, timeout=60_000)
    expect(board.locator(".lt-message")).to_contain_text(text("play.people.pass", name=name))
    expect(board.locator(".lt-hand-card")).to_have_count(0)
    assert spaces_of(board) == squares
    page.get_by_role("button", name=text("play.people.show_hand", name=name)).click()
    expect(board.locator(".lt-hand-card")).not_to_have_count(0, timeout=TIMEOUT)


def spaces_of(board: Any) -> list[str]:
    found: list[str] = board.locator(".lt-space").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    return found


def test_a_match_comes_back_after_a_reload_and_from_its_saved_game_code(page: Any, base_url: str,
                                                                       open_board: Any) -> None:
    board = open_board(base_url)
    expect(board.locator(".lt-turn")).to_have_text(YOUR_TURN, timeout=TIMEOUT)
    for _ in range(2):  # two discards, and the computer's replies
        seq = board.get_attribute("data-seq")
        board.locator(".lt-hand-card").first.click()
        expect(board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
        seq = board.get_attribute("data-seq")
        board.locator(".lt-discard").click()
        expect(board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
        expect(board.locator(".lt-turn")).to_have_text(YOUR_TURN, timeout=TIMEOUT)
    hand = hand_names(board)
    spaces = board.locator(".lt-space").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    other = page.context.new_page()  # another tab of the same browser plays a match of its own, saved after ours
    try:
        other_board = open_board(base_url, other)
        expect(other_board.locator(".lt-turn")).to_have_text(YOUR_TURN, timeout=TIMEOUT)
        for target in (".lt-hand-card", ".lt-discard"):
            seq = other_board.get_attribute("data-seq")
            other_board.locator(target).first.click()
            expect(other_board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
        assert hand_names(other_board) != hand
        expect(other_board.locator(".lt-turn")).to_have_text(YOUR_TURN, timeout=TIMEOUT)
    finally:
        other.close()
    page.get_by_role("button", name="Save game").click()
    code = page.get_by_role("textbox", name=text("play.saved_game.label"), exact=True)
    expect(code).to_have_value(re.compile(r"^LG2-"), timeout=TIMEOUT)  # sealed by this class server
    # the board's message (the one a screen reader is told) says where the code is
    expect(page.locator(".lt-play .lt-message")).to_have_text(text("play.saved_game.ready"))
    paste = page.get_by_role("textbox", name=text("play.saved_game.code_label"))
    expect(paste).to_have_count(1)  # the paste box
    saved = code.input_value()
    # under Save game, as the message says, with its Copy button, and above the paste box and Resume (a phone's
    # learner took the first box under the board for the code)
    copy = page.get_by_role("button", name=text("play.saved_game.copy"), exact=True)
    top = {name: box["y"] for name, box in (("save", page.get_by_role("button", name="Save game").bounding_box()),
                                            ("code", code.bounding_box()), ("copy", copy.bounding_box()),
                                            ("paste", paste.bounding_box())) if box}
    assert top["save"] < top["code"] < top["copy"] < top["paste"], top
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    copy.click()
    expect(page.locator(".lt-play .lt-message")).to_have_text(text("play.saved_game.copied"), timeout=TIMEOUT)
    assert page.evaluate("navigator.clipboard.readText()") == saved

    page.reload(wait_until="commit")  # the browser kept the match: it comes back by itself
    board = page.locator(".lt-board").first
    board.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
    resumed = opening("play.saved_game.resumed", "level", number=1, hands=4, rules=text("rules.REVISED_2008"))
    expect(board.locator(".lt-message")).to_contain_text(resumed, timeout=TIMEOUT)
    assert hand_names(board) == hand
    assert board.locator(".lt-space").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") == spaces

    seq = board.get_attribute("data-seq")
    page.get_by_role("button", name=text("play.controls.new_match")).click()  # the match is under way: it asks
    keep = page.get_by_role("button", name=text("play.new_match_question.keep"))
    expect(keep).to_be_focused(timeout=TIMEOUT)  # the answer that loses nothing
    expect(page.get_by_text(text("play.new_match_question.asked"))).to_be_visible()
    page.get_by_role("button", name=text("play.new_match_question.start")).click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)
    expect(keep).to_be_hidden()
    assert hand_names(board) != hand
    page.locator(".lt-game-code input").fill(saved)
    page.locator(".lt-game-code input").press("Tab")
    page.get_by_role("button", name="Resume").click()
    expect(board.locator(".lt-message")).to_contain_text(resumed, timeout=TIMEOUT)
    assert hand_names(board) == hand
    assert board.locator(".lt-space").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") == spaces

    page.locator(".lt-game-code input").fill(saved[:-12])
    page.locator(".lt-game-code input").press("Tab")
    page.get_by_role("button", name="Resume").click()
    expect(board.locator(".lt-message")).to_have_text(text("play.saved_game.damaged"), timeout=TIMEOUT)
    assert hand_names(board) == hand

    # a paste of megabytes is cut to the box's most length, and refused as too long; the page stays connected (a
    # value over the server's message limit would close its connection)
    box = page.locator(".lt-game-code input")
    box.fill("")
    box.focus()
    page.keyboard.insert_text("LG1-" + "x" * (MAX_MESSAGE_BYTES + MAX_MESSAGE_BYTES // 2))
    assert len(box.input_value()) == INPUT_MOST
    box.press("Tab")
    page.get_by_role("button", name="Resume").click()
    expect(board.locator(".lt-message")).to_have_text(text("play.saved_game.too_long"), timeout=TIMEOUT)
    seq = board.get_attribute("data-seq")
    page.get_by_role("button", name=text("play.controls.new_match")).click()
    page.get_by_role("button", name=text("play.new_match_question.start")).click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT)


def test_the_rules_summary_opens_from_the_app_and_prints_on_one_a4_page(page: Any, base_url: str,
                                                                        open_board: Any) -> None:
    open_board(base_url)
    with page.context.expect_page() as opened:
        page.get_by_role("link", name=text("rules_sheet.link")).click()
    sheet = opened.value
    sheet.wait_for_load_state()
    assert sheet.url.startswith("blob:http://127.0.0.1")
    expect(sheet.get_by_role("heading", level=1)).to_have_text(text("rules_sheet.title"))
    expect(sheet.get_by_role("button", name=text("rules_sheet.print"))).to_be_visible()
    sheet.emulate_media(media="print")
    expect(sheet.get_by_role("button", name=text("rules_sheet.print"))).to_be_hidden()
    pdf = sheet.pdf(format="A4", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1, "the summary fills exactly one A4 page"


def test_the_sheet_of_every_rule_set_prints_on_one_a4_page(page: Any) -> None:
    page.emulate_media(media="print")
    for rules in RULE_SETS.values():
        page.set_content(rules_sheet_html(rules))
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1, f"the sheet of {rules} fills exactly one A4 page"
