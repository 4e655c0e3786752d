"""Two classmates on a class server, in the same Chromium as two people (two browser contexts): one opens a table
(its code, link and QR code shown), the other joins it from the list of open tables, and they play a whole hand
by clicks, each on their own board, the other's moves appearing by themselves. Names are text, never markup. One
of them changes language in the middle of a match and keeps their seat."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from class_players import CODE_SHOWN
from playwright.sync_api import expect
from rendered import escaped, opening, pattern
from spoken import in_spanish
from test_play import click, focused_as_read, move_by_clicks, read, towards_lines_by_clicks

from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.rules import RULE_SETS

NAMES = ("<b>Ana</b>", "Ben")
TIMEOUT = 30_000
HAND_OVER = pattern("play.turn.over", number=r"\d+", hands=r"\d+", rules=".+")
"""The turn line once the hand is over, not the match (the server's language: English)."""
MATCH_OVER = pattern("play.turn.match_over", number=r"\d+", hands=r"\d+", rules=".+")
"""The turn line once the match's last hand is over."""
HAND_ENDED = re.compile(f"{HAND_OVER.pattern}|{MATCH_OVER.pattern}")
"""The turn line once a hand is over, the match's last or not."""


ENGLISH_TURN = pattern("play.people.turn.of", number=r"\d+", hands=r"\d+", rules=".+", name=".+")
"""The turn line at a class table while it is the classmate's turn, its facts as groups."""
YOUR_TURN = pattern("play.turn.yours", number=r"\d+", hands=r"\d+", rules=".+")
"""The turn line at a class table while it is the page's own player's turn, its facts as groups."""


def turn_of(name: str) -> re.Pattern[str]:
    """The turn line while it is `name`'s turn."""
    return pattern("play.people.turn.of", number=r"\d+", hands=r"\d+", rules=".+", name=escaped(name))


def sit_down(page: Any, name: str) -> Any:
    """Choose a classmate as the opponent and give a name; the board."""
    board = page.locator(".lt-board").first
    page.get_by_role("combobox", name=text("play.controls.opponent")).select_option(label=text("classmates.choice"))
    box = page.locator(".lt-class-panel").get_by_role("textbox", name=text("classmates.name_label"))  # the header too
    box.fill(name)
    box.press("Enter")
    return board


def two_at_a_table(browser: Any, page: Any, base_url: str, page_errors: list[str], names: tuple[str, str],
                   hands: int | None = None, by_link: bool = False, typed: bool = False) -> Any:
    """The first person (`page`, its board drawn) opens a table (for a match of `hands`, if given: else the rules'
    length; its code, QR code and link shown) and the second, in a browser context of their own, joins it from the
    list of open tables (`by_link`: by opening the table's link, once they have a name, and pressing Join table;
    `typed`: by typing its code and pressing Enter): (the second's context, their page, their board, the table's
    code)."""
    other = browser.new_context(viewport={"width": 1100, "height": 1000})
    try:
        ben_page = other.new_page()
        ben_page.on("pageerror", lambda error: page_errors.append(f"pageerror ({names[1]}): {error}"))
        ben_page.goto(base_url, wait_until="commit", timeout=60_000)
        ben_board = ben_page.locator(".lt-board").first
        ben_board.locator(".lt-space").first.wait_for(state="visible", timeout=60_000)
        sit_down(page, names[0])
        if hands is not None:
            page.get_by_role("combobox", name=text("classmates.length_label")).select_option(
                label=text("classmates.length", hands=hands))
        page.get_by_role("button", name=text("classmates.open")).click()
        shown = page.locator(".lt-class-code-shown")
        expect(shown).to_contain_text(CODE_SHOWN, timeout=TIMEOUT)
        code = CODE_SHOWN.search(shown.inner_text())
        assert code is not None
        expect(page.locator(".lt-class-status svg")).to_be_visible()  # its QR code and link
        expect(page.locator(f".lt-class-status a[href$='?table={code.group(1)}']")).to_be_visible()
        # while it waits for a classmate the board offers no game: no hand, no button, the table's own turn line
        board = page.locator(".lt-board").first
        expect(board.locator(".lt-turn")).to_have_text(
            text("classmates.seating.turn", code=code.group(1), rules=text("rules.REVISED_2008")), timeout=TIMEOUT)
        assert board.locator(".lt-hand-card").count() == 0 and board.locator(".lt-actions button").count() == 0
        if by_link:  # Ben keeps his name; the link offers the table (it joined at once), then the page's address
            header = ben_page.locator(".lt-student")  # forgets it (no reload follows it again); Join table seats him
            header.get_by_role("button", name=text("students.change")).click()
            box = header.get_by_role("textbox", name=text("students.label"))
            box.fill(names[1])
            box.press("Enter")
            expect(header.locator(".lt-student-name")).to_have_text(names[1], timeout=TIMEOUT)
            link = page.locator(f".lt-class-status a[href$='?table={code.group(1)}']").get_attribute("href")
            ben_page.goto(link, wait_until="commit", timeout=60_000)
            ben_board = ben_page.locator(".lt-board").first
            expect(ben_page).not_to_have_url(re.compile("table="), timeout=TIMEOUT)
            offered = text("classmates.link_offered", code=code.group(1), join=text("classmates.join"))
            expect(ben_board.locator(".lt-message")).to_have_text(offered, timeout=TIMEOUT)
            expect(ben_page.locator(".lt-class-offer")).to_have_text(offered)  # under Join table, as on a phone
            expect(ben_page.get_by_role("textbox", name=text("classmates.code_label"))).to_have_value(code.group(1))
            ben_page.get_by_role("button", name=text("classmates.join"), exact=True).click()
        elif typed:
            sit_down(ben_page, names[1])
            box = ben_page.get_by_role("textbox", name=text("classmates.code_label"))
            box.fill(code.group(1))
            box.press("Enter")  # Enter in the code box joins, as Join does (it did nothing)
        else:
            sit_down(ben_page, names[1])
            ben_page.get_by_role("button", name=text("classmates.refresh")).click()
            ben_page.get_by_role("button", name=text("classmates.join_named", name=names[0],
                                                     code=code.group(1))).click()
    except BaseException:
        other.close()
        raise
    return other, ben_page, ben_board, code.group(1)


def play_the_hand_by_clicks(boards: dict[str, Any], out_after: int = 20,
                            move: Callable[[Any, int], None] = move_by_clicks) -> int:
    """The two players of a class table ({name: their board}) play its hand to the end by clicks, each on their own
    board when the turn line says it is theirs (going out once they may after `out_after` moves, else a `move` of
    the board and the cards in hand), the other board showing each move by itself: how many moves were made."""
    first, second = boards
    for moves in range(400):  # the moves made so far
        turn = read(boards[first])["turn"]
        if HAND_ENDED.fullmatch(turn):
            return moves
        mover = first if YOUR_TURN.fullmatch(turn) else second
        waiting = second if mover == first else first
        board = boards[mover]
        table = read(board)
        assert YOUR_TURN.fullmatch(table["turn"]) and 0 < len(table["hand"]) <= 9
        assert turn_of(mover).fullmatch(read(boards[waiting])["turn"]), "the other page names whose turn it is"
        assert not [label for label, enabled in table["actions"] if label == text("play.controls.undo") and enabled]
        before = read(boards[waiting])["seq"]
        go_out = board.page.get_by_role("button", name=text("play.buttons.go_out"), exact=True)
        if go_out.is_enabled() and moves > out_after:
            click(board, go_out)
        else:
            move(board, len(table["hand"]))
        # the other board shows the move by itself, and then it is their turn (or the hand is over)
        expect(boards[waiting]).not_to_have_attribute("data-seq", before or "", timeout=TIMEOUT)
        expect(boards[waiting].locator(".lt-turn")).to_have_text(
            re.compile(f"{YOUR_TURN.pattern}|{HAND_ENDED.pattern}"), timeout=TIMEOUT)
    pytest.fail("the hand did not end within 400 moves")


def test_two_classmates_play_a_whole_hand_by_clicks(browser: Any, page: Any, open_board: Any, base_url: str,
                                                   page_errors: list[str]) -> None:
    ana_board = open_board(base_url)
    other, _, ben_board, code = two_at_a_table(browser, page, base_url, page_errors, NAMES, typed=True)
    try:
        expect(ben_board.locator(".lt-hand-card:focus")).to_have_count(1, timeout=TIMEOUT)  # joined: on to the match
        # Ben sat down: the keyboard Ana had on Leave the table (one Enter from leaving) goes to the match too
        expect(ana_board.locator(".lt-hand-card:focus")).to_have_count(1, timeout=TIMEOUT)
        boards = {NAMES[0]: ana_board, NAMES[1]: ben_board}
        for board in boards.values():
            expect(board.locator(".lt-turn")).to_have_text(
                re.compile(f"{YOUR_TURN.pattern}|{turn_of(NAMES[0]).pattern}|{turn_of(NAMES[1]).pattern}"),
                timeout=TIMEOUT)
        expect(ana_board.locator(".lt-message")).to_contain_text(
            opening("classmates.started", "rules", name=NAMES[1], code=code, hands=4))
        rules = page.get_by_role("combobox", name=text("play.controls.rules"))
        expect(rules).to_be_disabled()  # greyed, and why is read out after the menus (not shown: no room)
        expect(page.locator(".lt-picks-note")).to_contain_text(text("classmates.menus_greyed"))
        assert page.locator(".lt-picks-note").evaluate("el => el.getBoundingClientRect().height") <= 1
        moves = play_the_hand_by_clicks(boards, out_after=10, move=towards_lines_by_clicks)
        assert moves > 10
        for name, board in boards.items():
            expect(board.locator(".lt-turn")).to_have_text(HAND_OVER, timeout=TIMEOUT)
            them = NAMES[1] if name == NAMES[0] else NAMES[0]
            ended = pattern("play.people.hand_end", mine=r"\d+", other=escaped(them), theirs=r"\d+")
            assert ended.search(read(board)["message"]), name
            assert board.locator("b").count() == 0, "a name is shown as text, never as markup"
        expect(ben_board.get_by_text(NAMES[0]).first).to_be_visible()
        # Ana leaves: both boards close at once; Ben is told who left and may finish against the computer
        page.get_by_role("button", name=text("classmates.leave")).click()
        page.get_by_role("button", name=text("classmates.leave_question.start")).click()  # it asks first
        closed = pattern("classmates.closed_turn", number=r"\d+", hands=r"\d+", rules=".+")
        for board in boards.values():
            expect(board.locator(".lt-turn")).to_have_text(closed, timeout=TIMEOUT)
            assert not [label for label, enabled in read(board)["actions"] if enabled]
        expect(ben_board.locator(".lt-message")).to_contain_text(
            text("classmates.other_left_won", name=NAMES[0], code=code), timeout=TIMEOUT)
        # Ben finishes against the computer, which deals the next hand; a reload brings that match back where it was
        # (the server stores none of its moves: his browser keeps it), and says so
        ben_page = ben_board.page
        ben_page.get_by_role("button", name=text("classmates.finish")).click()
        expect(ben_board.locator(".lt-message")).to_contain_text(opening("classmates.computer_seated", "level"),
                                                                 timeout=TIMEOUT)
        kept = ("localStorage.getItem('leopard-tutor/matches#set:'"  # this tab's, under its id
                " + sessionStorage.getItem('leopard-tutor/matches#tab'))")
        was = ben_page.evaluate(kept)
        click(ben_board, ben_board.get_by_role("button", name=text("play.buttons.next_hand"), exact=True))
        # the browser keeps it a moment after the board shows it: a reload before then (CI on c8f9ef3, a busy
        # machine) comes back to what it kept last
        ben_page.wait_for_function(f"(was) => {kept} !== was", arg=was, timeout=TIMEOUT)
        before = read(ben_board)
        assert before["hand"] and re.search(r"\b2\b", before["turn"]), before["turn"]
        ben_board = open_board(base_url, ben_page)
        expect(ben_board.locator(".lt-message")).to_contain_text(
            opening("classmates.computer_back", "level", code=code), timeout=TIMEOUT)
        level = ben_page.get_by_role("combobox", name=text("play.controls.opponent")).evaluate(
            "menu => menu.options[menu.selectedIndex].text")  # the computer's level, named by the menu
        after = read(ben_board)
        assert text("classmates.computer_back", code=code, level=level, name=NAMES[0]) in after["message"]
        assert (after["turn"], after["hand"], after["squares"]) == (before["turn"], before["hand"], before["squares"])
    finally:
        other.close()


def spanish_turn(english: str, here: str, there: str) -> str:
    """The class table's turn line in Spanish on the page of `here`, from the English one the page of `there` shows
    ("your turn" there is `there`'s turn here; `here`'s turn there is "your turn" here)."""
    theirs, yours = ENGLISH_TURN.fullmatch(english), YOUR_TURN.fullmatch(english)
    found = theirs or yours
    assert found is not None, english
    number, hands, rules = found.groups()[:3]
    key = next(key for key in RULE_SETS if text(f"rules.{key}") == rules)
    facts = {"number": number, "hands": hands, "rules": in_spanish(f"rules.{key}")}
    if theirs is not None:
        assert theirs.group(4) == here, english
        return in_spanish("play.turn.yours", **facts)
    return in_spanish("play.people.turn.of", name=there, **facts)


def test_a_classmate_who_changes_language_keeps_their_seat(browser: Any, page: Any, open_board: Any, base_url: str,
                                                          page_errors: list[str]) -> None:
    """Ana switches to Spanish in the middle of a match of two hands (her choice) at a class table: her app is drawn
    again in Spanish, she is at the same table, and the match goes on between her Spanish board and Ben's English
    one."""
    open_board(base_url)
    other, ben_page, ben_board, code = two_at_a_table(browser, page, base_url, page_errors, ("Ana", "Ben"), hands=2,
                                                      by_link=True)
    try:
        # Ben joined the match of two hands Ana chose (his match against the computer, of four, said "your turn" too)
        of_two = re.compile("|".join(
            (pattern("play.people.turn.of", number=r"\d+", hands="2", rules=".+", name=".+").pattern,
             pattern("play.turn.yours", number=r"\d+", hands="2", rules=".+").pattern)))
        expect(ben_board.locator(".lt-turn")).to_have_text(of_two, timeout=TIMEOUT)
        page.get_by_label(text("app.language.label")).select_option(label="Español")
        spanish_tabs = [in_spanish(f"app.tabs.{tab}") for tab in ("play", "learn", "examples", "practice")]
        sections = page.get_by_role("tablist", name=in_spanish("app.sections_label"), exact=True)  # its name too
        expect(sections.get_by_role("tab")).to_have_text(spanish_tabs, timeout=TIMEOUT)
        ana_board = page.locator(".lt-board").first  # the board drawn again: the same page, not a return to it
        expect(ana_board.locator(".lt-message")).to_contain_text(in_spanish("classmates.redrawn", code=code),
                                                                 timeout=TIMEOUT)
        boards = {"Ana": ana_board, "Ben": ben_board}
        for _ in range(4):
            english = read(ben_board)["turn"]
            expect(ana_board.locator(".lt-turn")).to_have_text(spanish_turn(english, "Ana", "Ben"), timeout=TIMEOUT)
            mover = "Ben" if YOUR_TURN.fullmatch(english) else "Ana"
            waiting = boards["Ana" if mover == "Ben" else "Ben"]
            before = read(waiting)["seq"]
            board = boards[mover]
            discard = in_spanish("board.discard_pile") if mover == "Ana" else text("board.discard_pile")
            move_by_clicks(board, len(read(board)["hand"]), discard)
            expect(waiting).not_to_have_attribute("data-seq", before or "", timeout=TIMEOUT)
            expect(ben_board.locator(".lt-turn")).not_to_have_text(english, timeout=TIMEOUT)
        assert ben_page.get_by_role("tab").first.inner_text() == text("app.tabs.play"), "Ben's page keeps English"
    finally:
        other.close()


PHONE = (390, 844)
"""A phone's screen (test_layout.py's)."""


def test_a_table_nobody_joins_can_be_left_on_a_phone(page: Any, open_board: Any, base_url: str) -> None:
    """On a phone, Ana opens a table and nobody joins: "Leave the table" is shown inside the screen, the page not
    scrolling sideways, and again after a reload; leaving brings back the name and code entry."""
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    board = open_board(base_url)
    sit_down(page, "Ana")
    page.get_by_role("button", name=text("classmates.open")).press("Enter")  # by the keyboard
    shown = page.locator(".lt-class-code-shown")
    expect(shown).to_contain_text(CODE_SHOWN, timeout=TIMEOUT)
    found = CODE_SHOWN.search(shown.inner_text())
    assert found is not None
    code = found.group(1)
    leave = page.get_by_role("button", name=text("classmates.leave"))
    expect(leave).to_be_focused(timeout=TIMEOUT)  # not lost with the button pressed, which is gone
    note = page.locator(".lt-play > .lt-controls > .lt-picks-note")  # why the row's menus and buttons are greyed
    expect(note).to_contain_text(text("classmates.no_new_match"))
    assert note.evaluate("(e) => e.getBoundingClientRect().height") > 10, "shown while the keyboard is in the row"
    assert note.bounding_box()["y"] >= leave.bounding_box()["y"] + leave.bounding_box()["height"] - 1, \
        "under the row: over it, it hid the Leave button the keyboard was on"
    top = "() => document.querySelector('.lt-play .lt-board').getBoundingClientRect().top"
    shown_at = page.evaluate(top)
    page.evaluate("document.activeElement.blur()")  # the keyboard leaves the row (a tap on the board)
    expect(note).to_have_css("clip-path", "inset(50%)")
    assert page.evaluate(top) == shown_at, "the note takes no room: the board stays under the finger"
    menus_why = text("classmates.menus_greyed")  # (the note says the row's greyed buttons' reasons after it)
    page.locator(".lt-play > .lt-controls select").first.click(force=True)  # a press on a greyed menu says why
    expect(page.locator(".lt-why-bubble")).to_have_text(menus_why)
    page.keyboard.press("Escape")
    expect(page.locator(".lt-why-bubble")).to_have_count(0)
    rules = page.get_by_role("combobox", name=text("play.controls.rules"))  # greyed, yet the keyboard reaches it,
    chosen = rules.input_value()  # hears why (the menus' sentence of the note), and its keys choose nothing
    rules.focus()
    expect(rules).to_be_focused()
    assert focused_as_read(page) == {"role": "combobox", "name": text("play.controls.rules"),
                                     "description": menus_why, "disabled": True}
    for key in ("ArrowDown", "End", "Enter"):
        page.keyboard.press(key)
    assert rules.input_value() == chosen
    expect(page.locator(".lt-why-bubble")).to_have_text(menus_why)  # Enter there says why, as a press does
    page.keyboard.press("Tab")  # and the keyboard moving on takes it away: it would seem the next control's reason
    expect(page.locator(".lt-why-bubble")).to_have_count(0)
    leave.focus()
    for reloaded in (False, True):
        if reloaded:
            board = open_board(base_url)  # a reload: the same browser, its table still waiting
            expect(page.locator(".lt-class-code-shown")).to_contain_text(code, timeout=TIMEOUT)
        expect(leave).to_be_visible(timeout=TIMEOUT)
        expect(board.locator(".lt-turn")).to_have_text(
            text("classmates.seating.turn", code=code, rules=text("rules.REVISED_2008")), timeout=TIMEOUT)
        leave.scroll_into_view_if_needed()
        box = leave.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0], box
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0], "no scrolling sideways"
        assert page.get_by_role("button", name=text("classmates.open")).is_hidden()
    leave.press("Enter")
    expect(board.locator(".lt-message")).to_contain_text(text("classmates.left", code=code), timeout=TIMEOUT)
    expect(page.get_by_role("button", name=text("classmates.open"))).to_be_focused(timeout=TIMEOUT)
    expect(page.locator(".lt-class-panel").get_by_role("textbox", name=text("classmates.code_label"))).to_be_visible()
    listed = f"{re.escape(text('classmates.open_tables'))}|{re.escape(text('classmates.no_open_tables'))}"
    expect(page.locator(".lt-class-tables")).to_contain_text(re.compile(listed))  # the open tables, listed again
    expect(leave).to_be_hidden()


def test_a_match_the_classmate_left_comes_back_after_a_reload_and_is_finished_in_one_page_only(
        browser: Any, page: Any, open_board: Any, base_url: str, page_errors: list[str]) -> None:
    """Ana has two tabs at the table; Ben leaves mid-match: both her tabs say so and offer Finish against the computer.
    She reloads one: it shows the match where it stood, says again that Ben left, and still offers Finish (it said
    nothing, and the match was gone); pressed there, the computer takes Ben's seat, and her other tab says the match
    goes on in another page, Finish gone (each tab played a copy of its own). A reload of that other tab does not take
    the match up again from what the browser keeps (it did, and the two tabs then played two copies)."""
    ana_board = open_board(base_url)
    other, ben_page, ben_board, code = two_at_a_table(browser, page, base_url, page_errors, NAMES)
    second = page.context.new_page()  # Ana's second tab, at the same table
    try:
        second.on("pageerror", lambda error: page_errors.append(f"pageerror ({NAMES[0]}, second tab): {error}"))
        second_board = open_board(base_url, second)
        seated = re.compile(f"{YOUR_TURN.pattern}|{turn_of(NAMES[0]).pattern}|{turn_of(NAMES[1]).pattern}")
        for board in (ana_board, ben_board, second_board):
            expect(board.locator(".lt-turn")).to_have_text(seated, timeout=TIMEOUT)
        ben_page.get_by_role("button", name=text("classmates.leave")).click()
        ben_page.get_by_role("button", name=text("classmates.leave_question.start")).click()  # it asks first
        left = text("classmates.other_left_won", name=NAMES[1], code=code)
        closed = pattern("classmates.closed_turn", number=r"\d+", hands=r"\d+", rules=".+")
        for tab, board in ((page, ana_board), (second, second_board)):
            expect(board.locator(".lt-message")).to_contain_text(left, timeout=TIMEOUT)
            expect(board.locator(".lt-turn")).to_have_text(closed, timeout=TIMEOUT)
            expect(tab.get_by_role("button", name=text("classmates.finish"))).to_be_visible(timeout=TIMEOUT)
        before = read(ana_board)
        ana_board = open_board(base_url, page)  # a reload of her first tab, before pressing Finish
        expect(ana_board.locator(".lt-message")).to_have_text(left, timeout=TIMEOUT)
        expect(ana_board.locator(".lt-turn")).to_have_text(closed, timeout=TIMEOUT)
        after = read(ana_board)
        assert (after["turn"], after["hand"], after["squares"]) == (before["turn"], before["hand"], before["squares"])
        page.get_by_role("button", name=text("classmates.finish")).click()
        expect(ana_board.locator(".lt-message")).to_contain_text(opening("classmates.computer_seated", "level"),
                                                                 timeout=TIMEOUT)
        expect(ana_board.locator(".lt-turn")).not_to_have_text(closed, timeout=TIMEOUT)
        expect(second_board.locator(".lt-message")).to_contain_text(text("classmates.taken_elsewhere", code=code),
                                                                    timeout=TIMEOUT)
        expect(second.get_by_role("button", name=text("classmates.finish"))).to_be_hidden(timeout=TIMEOUT)
        assert opening("classmates.computer_seated", "level") not in read(second_board)["message"], "no second copy"
        taken = read(ana_board)
        second_board = open_board(base_url, second)  # a reload of the other tab
        expect(second_board.locator(".lt-turn")).to_have_text(YOUR_TURN, timeout=TIMEOUT)  # a match of its own
        expect(second.get_by_role("button", name=text("classmates.finish"))).to_be_hidden()
        again = read(second_board)
        assert (again["hand"], again["squares"]) != (taken["hand"], taken["squares"]), "no second copy after a reload"
        assert opening("classmates.computer_seated", "level") not in again["message"], again["message"]
    finally:
        second.close()
        other.close()
