"""Two classmates on a class server, in the same Chromium as two people (two browser contexts): one opens a table
(its code, link and QR code shown), the other joins it from the list of open tables, and they play a whole hand
by clicks, each on their own board, the other's moves appearing by themselves. Names are text, never markup. One
of them changes language in the middle of a match and keeps their seat."""

from __future__ import annotations

import re
from typing import Any

import pytest
from class_players import CODE_SHOWN
from playwright.sync_api import expect
from test_play import click, move_by_clicks, read

from leopard_tutor.engine import catalogue
from leopard_tutor.engine.rules import RULE_SETS

NAMES = ("<b>Ana</b>", "Ben")
TIMEOUT = 30_000


def sit_down(page: Any, name: str) -> Any:
    """Choose a classmate as the opponent and give a name; the board."""
    board = page.locator(".lt-board").first
    page.get_by_role("combobox", name="Opponent").select_option(label="A classmate")
    box = page.locator(".lt-class-panel").get_by_role("textbox", name="Your name")  # the header has one too
    box.fill(name)
    box.press("Enter")
    return board


def test_two_classmates_play_a_whole_hand_by_clicks(browser: Any, page: Any, open_board: Any, base_url: str,
                                                   page_errors: list[str]) -> None:
    ana_board = open_board(base_url)
    other = browser.new_context(viewport={"width": 1100, "height": 1000})
    try:
        ben_page = other.new_page()
        ben_page.on("pageerror", lambda error: page_errors.append(f"pageerror (Ben): {error}"))
        ben_page.goto(base_url, wait_until="commit", timeout=60_000)
        ben_board = ben_page.locator(".lt-board").first
        ben_board.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
        sit_down(page, NAMES[0])
        page.get_by_role("button", name="Open a table").click()
        shown = page.locator(".lt-class-code-shown")
        expect(shown).to_contain_text(CODE_SHOWN, timeout=TIMEOUT)
        code = CODE_SHOWN.search(shown.inner_text())
        assert code is not None
        expect(page.locator(".lt-class-status svg")).to_be_visible()
        expect(page.locator(f".lt-class-status a[href$='?table={code.group(1)}']")).to_be_visible()
        sit_down(ben_page, NAMES[1])
        ben_page.get_by_role("button", name="Show open tables").click()
        ben_page.get_by_role("button", name=f"Join {NAMES[0]}'s table").click()
        boards = {NAMES[0]: ana_board, NAMES[1]: ben_board}
        for board in boards.values():
            expect(board.locator(".lt-turn")).to_contain_text("'s turn", timeout=TIMEOUT)
        expect(ana_board.locator(".lt-message")).to_contain_text(f"{NAMES[0]} and {NAMES[1]} play a match at "
                                                                 f"table {code.group(1)}")
        moves = 0
        for _ in range(400):
            turn = read(ana_board)["turn"]
            if "the hand is over" in turn:
                break
            mover = NAMES[0] if f"{NAMES[0]}'s turn" in turn else NAMES[1]
            waiting = NAMES[1] if mover == NAMES[0] else NAMES[0]
            board = boards[mover]
            table = read(board)
            assert f"{mover}'s turn" in table["turn"] and 0 < len(table["hand"]) <= 9
            assert not [label for label, enabled in table["actions"] if label == "Undo" and enabled]
            before = read(boards[waiting])["seq"]
            go_out = board.page.get_by_role("button", name="Go out", exact=True)
            if go_out.is_enabled() and moves > 20:
                click(board, go_out)
            else:
                move_by_clicks(board, len(table["hand"]))
            moves += 1
            # the other board shows the move by itself, and then it is their turn (or the hand is over)
            expect(boards[waiting]).not_to_have_attribute("data-seq", before or "", timeout=TIMEOUT)
            expect(boards[waiting].locator(".lt-turn")).to_contain_text(
                re.compile(f"{re.escape(waiting)}'s turn|the hand is over"), timeout=TIMEOUT)
        else:
            pytest.fail("the hand did not end within 400 moves")
        assert moves > 10
        for name, board in boards.items():
            expect(board.locator(".lt-turn")).to_contain_text("the hand is over", timeout=TIMEOUT)
            assert re.search(r"The hand is over: you scored \d+, .+ \d+\.", read(board)["message"]), name
            assert board.locator("b").count() == 0, "a name is shown as text, never as markup"
        expect(ben_board.get_by_text(NAMES[0]).first).to_be_visible()
    finally:
        other.close()


def in_spanish(key: str, /, **facts: object) -> str:
    """The catalogue's text at `key` in Spanish (as the Spanish page words it)."""
    catalogue.set_language("es")
    try:
        return catalogue.text(key, **facts)
    finally:
        catalogue.forget_language()


def spanish_turn(english: str) -> str:
    """The class table's turn line in Spanish, from the English one ("Hand 1 of 3 · Revised rules (2008) · Ana's
    turn")."""
    found = re.fullmatch(r"Hand (\d+) of (\d+) · (.+) · (.+)'s turn", english)
    assert found is not None, english
    rules = next(key for key in RULE_SETS if catalogue.text(f"rules.{key}") == found.group(3))
    return in_spanish("play.people.turn.of", number=found.group(1), hands=found.group(2),
                      rules=in_spanish(f"rules.{rules}"), name=found.group(4))


def test_a_classmate_who_changes_language_keeps_their_seat(browser: Any, page: Any, open_board: Any, base_url: str,
                                                          page_errors: list[str]) -> None:
    """Ana switches to Spanish in the middle of a match at a class table: her app is drawn again in Spanish, she
    is at the same table, and the match goes on between her Spanish board and Ben's English one."""
    ana_board = open_board(base_url)
    other = browser.new_context(viewport={"width": 1100, "height": 1000})
    try:
        ben_page = other.new_page()
        ben_page.on("pageerror", lambda error: page_errors.append(f"pageerror (Ben): {error}"))
        ben_page.goto(base_url, wait_until="commit", timeout=60_000)
        ben_board = ben_page.locator(".lt-board").first
        ben_board.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
        sit_down(page, "Ana")
        page.get_by_role("button", name="Open a table").click()
        shown = page.locator(".lt-class-code-shown")
        expect(shown).to_contain_text(CODE_SHOWN, timeout=TIMEOUT)
        sit_down(ben_page, "Ben")
        ben_page.get_by_role("button", name="Show open tables").click()
        ben_page.get_by_role("button", name="Join Ana's table").click()
        expect(ben_board.locator(".lt-turn")).to_contain_text("'s turn", timeout=TIMEOUT)
        page.get_by_label("Language").select_option(label="Español")
        expect(page.get_by_role("tab")).to_have_text(["Jugar", "Aprender", "Ejemplos", "Práctica"], timeout=TIMEOUT)
        ana_board = page.locator(".lt-board").first  # the board drawn again
        boards = {"Ana": ana_board, "Ben": ben_board}
        for _ in range(4):
            english = read(ben_board)["turn"]
            expect(ana_board.locator(".lt-turn")).to_have_text(spanish_turn(english), timeout=TIMEOUT)
            mover = "Ben" if "Ben's turn" in english else "Ana"
            waiting = boards["Ana" if mover == "Ben" else "Ben"]
            before = read(waiting)["seq"]
            board = boards[mover]
            discard = in_spanish("board.discard_pile") if mover == "Ana" else "Discard pile"
            move_by_clicks(board, len(read(board)["hand"]), discard)
            expect(waiting).not_to_have_attribute("data-seq", before or "", timeout=TIMEOUT)
            expect(ben_board.locator(".lt-turn")).not_to_have_text(english, timeout=TIMEOUT)
        assert ben_page.get_by_role("tab").first.inner_text() == "Play", "Ben's page keeps its own language"
    finally:
        other.close()
