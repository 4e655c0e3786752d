"""Play in a real Chromium against a real `leopard-tutor` server: what the person sees and can do.

The expected targets, reasons and values are worked out independently with the engine from what
the page shows (the accessible names of the 18 spaces), so the page is checked against the rules.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from servers import kernel_count

from leopard_tutor.engine import (
    ALL_CARDS,
    ORIGINAL_1963,
    REVISED_2008,
    Card,
    RuleSet,
    Square,
    check_play,
    scoring_lines,
    square_value,
)

NAMES = {card.name: card for card in ALL_CARDS}
SPACE_NAME = re.compile(r"^(Your square|Opponent's square), space ([1-9]), (.+)$")
READ_TABLE = """root => ({
  seq: root.getAttribute('data-seq'),
  turn: root.querySelector('.lt-turn').textContent,
  message: root.querySelector('.lt-message').textContent,
  error: root.querySelector('.lt-error').textContent,
  squares: Array.from(root.querySelectorAll('.lt-square')).map(sq => ({
    value: sq.querySelector('.lt-value').textContent,
    cells: Array.from(sq.querySelectorAll('.lt-space')).map(b => ({
      name: b.getAttribute('aria-label'), target: b.classList.contains('lt-target'),
      why: b.getAttribute('aria-description') || ''}))})),
  hand: Array.from(root.querySelectorAll('.lt-hand-card')).map(b => b.getAttribute('aria-label')),
  discard: root.querySelector('.lt-discard').classList.contains('lt-target'),
  actions: Array.from(root.querySelectorAll('.lt-actions button')).map(b => [b.textContent, !b.disabled]),
})"""


def read(board: Any) -> dict[str, Any]:
    """Everything the board shows, in one round trip."""
    table: dict[str, Any] = board.evaluate(READ_TABLE)
    return table


def square_from_names(names: list[str], owner_label: str) -> tuple[Square, list[int]]:
    """The square the page shows, rebuilt from its spaces' accessible names (and the drawing order)."""
    piles: dict[int, list[tuple[Any, bool]]] = {}
    order = []
    for name in names:
        found = SPACE_NAME.match(name)
        assert found, f"space name {name!r} breaks the contract"
        assert found.group(1) == owner_label
        space, what = int(found.group(2)), found.group(3).split(", on top of")[0]
        order.append(space)
        if what == "empty":
            piles[space] = []
        elif what.startswith("face-down card"):
            piles[space] = [(Card.parse("QS" if owner_label == "Your square" else "JS"), False)]
        else:
            piles[space] = [(NAMES[what], True)]
    return Square([piles[s] for s in range(1, 10)]), order


def rules_of(table: dict[str, Any]) -> RuleSet:
    return ORIGINAL_1963 if "1963" in table["turn"] else REVISED_2008


def squares_of(table: dict[str, Any]) -> dict[int, Square]:
    """{1: opponent's square, 0: yours} as the page shows them, checking the layout on the way."""
    rules = rules_of(table)
    result = {}
    for owner, part, label in ((1, table["squares"][0], "Opponent's square"), (0, table["squares"][1], "Your square")):
        square, order = square_from_names([c["name"] for c in part["cells"]], label)
        assert order == [s for row in rules.grid for s in row]
        assert part["value"] == f"{label} is worth {square_value(square, rules)}"
        result[owner] = square
    return result


def click(board: Any, target: Any) -> dict[str, Any]:
    """Click at a fast person's pace (under the kernel's steady 10 clicks a second, which a whole hand clicked
    back to back outruns on a loaded machine) and wait until the board has redrawn with a new message."""
    seq = board.get_attribute("data-seq")
    board.page.wait_for_timeout(150)
    target.click()
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    return read(board)


def wait_my_turn(board: Any) -> dict[str, Any]:
    expect(board.locator(".lt-turn")).to_contain_text(re.compile("your turn|the hand is over"), timeout=30_000)
    return read(board)


def test_board_renders_with_the_accessibility_contract(board: Any) -> None:
    table = wait_my_turn(board)
    page = board.page
    spaces = page.get_by_role("button", name=re.compile(r"^(Your|Opponent's) square, space [1-9], "))
    expect(spaces).to_have_count(18)
    squares_of(table)
    for name in table["hand"]:
        assert re.match(r"^(ace|[2-9]|10|jack|queen|king) of (spades|hearts|diamonds|clubs)", name)
    expect(page.get_by_role("button", name="Discard pile", exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name="Go out", exact=True)).to_have_count(1)
    live = board.locator("[aria-live=polite]")
    expect(live).to_have_count(1)
    expect(live).not_to_be_empty()
    expect(page.get_by_text(re.compile(r"^Your square is worth \d+$"))).to_have_count(1)
    expect(page.get_by_text(re.compile(r"^Opponent's square is worth \d+$"))).to_have_count(1)
    expect(page.get_by_role("button", name="Hint")).to_be_visible()
    assert table["error"] == ""


def test_selecting_a_card_lights_exactly_the_legal_targets(board: Any) -> None:
    table = wait_my_turn(board)
    for index in range(min(4, len(table["hand"]))):
        card = NAMES[table["hand"][index].removesuffix(", selected")]
        table = click(board, board.locator(".lt-hand-card").nth(index))
        assert table["hand"][index].endswith(", selected")
        squares = squares_of(table)
        for owner, part in ((1, table["squares"][0]), (0, table["squares"][1])):
            for cell in part["cells"]:
                space = int(SPACE_NAME.match(cell["name"]).group(2))  # type: ignore[union-attr]
                verdict = check_play(card, squares[owner], space, own=owner == 0)
                assert cell["target"] == verdict.legal, (card, owner, space, verdict.reason)
                assert cell["why"] == verdict.reason
        assert table["discard"] is True  # at the start of a turn any card may be discarded
        assert card.name in table["message"]
    lit = board.locator(".lt-space.lt-target, .lt-discard.lt-target")
    first = board.locator(".lt-space").first
    first.hover()
    expect(board.locator(".lt-why")).to_have_text(first.get_attribute("aria-description") or "")
    assert lit.count() >= 1


def test_a_legal_play_changes_the_board_and_the_explanation(board: Any) -> None:
    table = wait_my_turn(board)
    for index in range(len(table["hand"])):
        table = click(board, board.locator(".lt-hand-card").nth(index))
        if board.locator(".lt-space.lt-target").count():
            break
    card = NAMES[table["hand"][index].removesuffix(", selected")]
    target = board.locator(".lt-space.lt-target").first
    found = SPACE_NAME.match(target.get_attribute("aria-label") or "")
    assert found, "no card of the hand lights a space"
    owner, space = (0 if found.group(1) == "Your square" else 1), int(found.group(2))
    part = 1 if owner == 0 else 0
    before = squares_of(table)[owner]
    table = click(board, target)
    after = squares_of(table)[owner]
    assert after != before
    shown = next(c["name"] for c in table["squares"][part]["cells"] if f"space {space}," in c["name"])
    mine = ("face-down card" in shown) if card.rank in (11, 12) else (card.name in shown)
    covered = ", on top of " in shown  # the computer's reply, drawn with the play, may cover it at once (a king)
    assert mine or covered, (card.name, shown)
    assert table["message"].startswith("You ")
    assert f"space {space}" in table["message"]
    label = "Your square" if owner == 0 else "Opponent's square"
    assert table["squares"][part]["value"] == f"{label} is worth {square_value(after, rules_of(table))}"


def space_button(board: Any, owner: int, space: int) -> Any:
    label = "Your square" if owner == 0 else "Opponent's square"
    return board.page.get_by_role("button", name=re.compile(f"^{label}, space {space}, "))


def test_a_scoring_play_raises_the_value_shown(board: Any) -> None:
    """Play greedily for your own square until a play of yours makes a line score, then check the page."""
    for _ in range(60):
        table = wait_my_turn(board)
        assert "the hand is over" not in table["turn"], "no scoring play was found before the hand ended"
        rules = rules_of(table)
        mine = squares_of(table)[0]
        value = square_value(mine, rules)
        best = None
        for index, name in enumerate(table["hand"]):
            card = NAMES[name.removesuffix(", selected")]
            for space in range(1, 10):
                if check_play(card, mine, space, own=True).legal:
                    gain = square_value(mine.with_card(card, space), rules) - value
                    if best is None or gain > best[0]:
                        best = (gain, index, card, space)
        if best is None:
            click(board, board.locator(".lt-hand-card").first)
            click(board, board.get_by_role("button", name="Discard pile", exact=True))
            continue
        gain, index, card, space = best
        click(board, board.locator(".lt-hand-card").nth(index))
        table = click(board, space_button(board, 0, space))
        if gain > 0:
            assert f"your square rises from {value} to {value + gain}" in table["message"]
            shown = squares_of(table)[0]  # the value text agrees with the engine on what is shown
            assert table["squares"][1]["value"] == f"Your square is worth {square_value(shown, rules)}"
            drawn = board.locator(".lt-square").nth(1).locator(".lt-line-item:not(.lt-line-broke)")
            assert sorted(text.split(":")[0] for text in drawn.all_text_contents()) == \
                sorted(line.name for line in scoring_lines(shown, rules) if line.points)
            return
    pytest.fail("no scoring play within 60 turns")


def test_an_illegal_click_explains_and_changes_nothing(board: Any) -> None:
    table = wait_my_turn(board)
    table = click(board, board.locator(".lt-hand-card").first)
    card = NAMES[table["hand"][0].removesuffix(", selected")]
    wrong = board.locator(".lt-square").nth(1).locator(".lt-space:not(.lt-target)")
    if not wrong.count():
        wrong = board.locator(".lt-square").nth(0).locator(".lt-space:not(.lt-target)")
    name = wrong.first.get_attribute("aria-label") or ""
    found = SPACE_NAME.match(name)
    assert found
    owner = 0 if found.group(1) == "Your square" else 1
    squares = squares_of(table)
    reason = check_play(card, squares[owner], int(found.group(2)), own=owner == 0).reason
    after = click(board, wrong.first)
    assert after["message"] == reason
    assert [c["name"] for p in after["squares"] for c in p["cells"]] == \
        [c["name"] for p in table["squares"] for c in p["cells"]]
    assert after["hand"] == table["hand"]


def move_by_clicks(board: Any, cards: int, discard: str = "Discard pile") -> None:
    """One move by clicks: the first of the `cards` in hand that lights a space goes there, else a discard (the
    button named `discard`, in the page's language)."""
    for index in range(cards):
        click(board, board.locator(".lt-hand-card").nth(index))
        lit = board.locator(".lt-space.lt-target")
        if lit.count():
            click(board, lit.first)
            return
    click(board, board.get_by_role("button", name=discard, exact=True))


def test_a_whole_hand_by_clicks_alone(board: Any, artifacts: Any) -> None:
    values_seen = set()
    for _ in range(200):
        table = wait_my_turn(board)
        squares_of(table)  # every redraw keeps the contract and the values agree with the engine
        values_seen.add((table["squares"][0]["value"], table["squares"][1]["value"]))
        if "the hand is over" in table["turn"]:
            break
        go_out = board.page.get_by_role("button", name="Go out", exact=True)
        if go_out.is_enabled():
            click(board, go_out)
            continue
        move_by_clicks(board, len(table["hand"]))
    else:
        pytest.fail("the hand did not end within 200 turns")
    page = board.page
    expect(page.get_by_text(re.compile(r"^End of hand 1"))).to_be_visible()
    for word in ("Raw value", "Bonus", "Going-out penalty", "Total"):
        expect(page.locator(".lt-breakdown").get_by_text(word).first).to_be_visible()
    expect(page.locator(".lt-scores tbody tr")).to_have_count(1)
    assert re.search(r"you scored \d+, your opponent \d+", read(board)["message"])
    assert len(values_seen) > 1
    page.set_viewport_size({"width": 1100, "height": 2200})  # tall enough for the breakdown and the log
    page.locator(".lt-app").screenshot(path=str(artifacts / "play_hand_over.png"))
    click(board, page.get_by_role("button", name="Next hand"))
    expect(board.locator(".lt-turn")).to_contain_text("Hand 2 of 4")


def test_keyboard_alone_selects_and_plays(board: Any) -> None:
    table = wait_my_turn(board)
    page = board.page
    board.locator(".lt-hand-card").first.focus()
    for step in range(len(table["hand"])):
        seq = board.get_attribute("data-seq")
        page.keyboard.press("Enter")
        expect(board).not_to_have_attribute("data-seq", seq or "")
        if board.locator(".lt-space.lt-target").count():
            break
        page.keyboard.press("Enter")  # put it back, then the next card with the arrow key
        page.keyboard.press("ArrowRight")
        assert step < len(table["hand"]) - 1
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused.endswith(", selected")
    target_name = board.locator(".lt-space.lt-target").first.get_attribute("aria-label")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('aria-label')") == target_name:
            break
    else:
        pytest.fail("Tab never reached the lit space")
    seq = board.get_attribute("data-seq")
    page.keyboard.press("Enter")
    expect(board).not_to_have_attribute("data-seq", seq or "")
    assert read(board)["message"].startswith("You ")
    board.locator(".lt-square").nth(1).locator(".lt-space").first.focus()
    page.keyboard.press("ArrowRight")
    assert ", space " in page.evaluate("document.activeElement.getAttribute('aria-label')")


FOCUSED_JS = "() => [document.activeElement.getAttribute('data-k') || '', " \
    "document.activeElement.getAttribute('aria-label') || document.activeElement.textContent]"


def press_until(board: Any, key: str, wanted: Any, limit: int = 200) -> None:
    """Press `key` until the focused element satisfies `wanted(data_k, name)`."""
    page = board.page
    for _ in range(limit):
        if wanted(*page.evaluate(FOCUSED_JS)):
            return
        page.keyboard.press(key)
    pytest.fail(f"pressing {key} never reached the wanted element")


def press_and_wait(board: Any, key: str) -> None:
    """Press `key` at a fast person's pace (under the kernel's steady 10 clicks a second, which a whole hand
    pressed back to back outruns once its burst of 30 is spent) and wait for the board to redraw."""
    seq = board.get_attribute("data-seq")
    board.page.wait_for_timeout(150)
    board.page.keyboard.press(key)
    expect(board).not_to_have_attribute("data-seq", seq or "", timeout=30_000)


def test_a_whole_hand_by_keyboard_alone(board: Any) -> None:
    page = board.page
    board.locator(".lt-hand-card").first.focus()  # the one mouse-free start: focus lands in the hand
    for _ in range(200):
        table = wait_my_turn(board)
        if "the hand is over" in table["turn"]:
            break
        if dict(table["actions"]).get("Go out"):
            press_until(board, "Tab", lambda k, _n: k == "ago_out")
            press_and_wait(board, "Enter")
            continue
        press_until(board, "Tab", lambda k, _n: k.startswith("h"))
        for _ in range(len(table["hand"])):
            page.keyboard.press("ArrowLeft")
        played = False
        for _ in range(len(table["hand"])):
            press_and_wait(board, "Enter")
            lit = board.locator(".lt-space.lt-target")
            if lit.count():
                name = lit.first.get_attribute("aria-label")
                press_until(board, "Shift+Tab", lambda _k, n, name=name: n == name)
                press_and_wait(board, "Enter")
                played = True
                break
            press_and_wait(board, "Enter")  # put it back
            page.keyboard.press("ArrowRight")
        if not played:
            press_and_wait(board, "Enter")
            press_until(board, "Shift+Tab", lambda k, _n: k == "discard")
            press_and_wait(board, "Enter")
    else:
        pytest.fail("the hand did not end within 200 turns")
    assert re.search(r"you scored \d+, your opponent \d+", read(board)["message"])
    expect(page.get_by_text(re.compile(r"^End of hand 1"))).to_be_visible()


def test_rule_sets_and_running_leopard_end_turn(board: Any) -> None:
    page = board.page
    page.get_by_role("combobox", name="Rules").select_option(label="Original rules (1963)")
    expect(board.locator(".lt-turn")).to_contain_text("Original rules (1963)")
    first_row = board.locator(".lt-square").nth(1).locator(".lt-space").nth(0)
    expect(first_row).to_have_attribute("aria-label", re.compile(r"^Your square, space 7, "))
    page.get_by_role("combobox", name="Rules").select_option(label="Running Leopard")
    expect(board.locator(".lt-turn")).to_contain_text("Running Leopard")
    expect(page.get_by_role("button", name="End turn")).to_have_count(1)


def test_screenshots_light_dark_and_narrow(page: Any, base_url: str, artifacts: Any, open_board: Any) -> None:
    for name, url, width in (("light", base_url, 1100), ("dark", base_url + "?theme=dark", 1100),
                             ("narrow", base_url, 390)):
        page.set_viewport_size({"width": width, "height": 1900})  # tall enough for the whole app
        board = open_board(url)
        wait_my_turn(board)
        click(board, board.locator(".lt-hand-card").first)
        page.locator(".lt-app").screenshot(path=str(artifacts / f"play_{name}.png"))
        if name == "dark":
            assert page.evaluate("document.body.dataset.jpThemeLight") == "false"
        if name == "narrow":
            assert page.evaluate("document.documentElement.scrollWidth") <= width + 1



def test_closing_the_tab_frees_its_kernel(page: Any, app_server: Any, open_board: Any) -> None:
    open_board(app_server.url)
    deadline = time.monotonic() + 30
    while kernel_count(app_server.process.pid) < 2 and time.monotonic() < deadline:
        time.sleep(0.3)  # the page's kernel plus the refilled preheat pool
    busy = kernel_count(app_server.process.pid)
    assert busy >= 2
    page.goto("about:blank")
    deadline = time.monotonic() + 20
    while kernel_count(app_server.process.pid) >= busy and time.monotonic() < deadline:
        time.sleep(0.3)
    assert kernel_count(app_server.process.pid) < busy
    assert "403 POST /voila/api/shutdown" not in app_server.log_text()


def test_review_why_and_try_a_position_again_by_clicks(board: Any) -> None:
    page = board.page
    for _ in range(2):
        move_by_clicks(board, len(wait_my_turn(board)["hand"]))
    wait_my_turn(board)
    table = click(board, page.get_by_role("button", name="Why did the computer do that?"))
    assert table["message"] and table["error"] == ""
    table = click(board, page.get_by_role("button", name="Review this hand"))
    moves = page.locator(".lt-review-moves li")
    expect(moves).to_have_count(2)
    assert table["turn"] == "Review of hand 1 · your move 1 of 2"
    assert "Go out" not in [label for label, _ in table["actions"]]  # the review's own buttons instead
    table = click(board, page.get_by_role("button", name="Next move"))
    expect(moves.nth(1)).to_have_class(re.compile(r"\blt-review-now\b"))  # the list's second move is the one shown
    table = click(board, page.get_by_role("button", name="Try this position again"))
    assert "Trying a position again" in table["turn"]
    assert table["hand"] and table["actions"][0][0] == "Go out"
    table = click(board, page.get_by_role("button", name="Back to the match"))
    assert table["message"] == "Back to the match, where you left it."


def test_a_whole_hand_between_two_people_at_one_device_by_clicks(board: Any) -> None:
    page = board.page
    page.get_by_role("combobox", name="Opponent").select_option(label="Someone at this device")
    expect(board.locator(".lt-message")).to_contain_text("A new match between Player 1 and Player 2")
    names = {"Player 1": "Ann", "Player 2": "<b>Bo</b>"}  # a name is text, never markup
    for label, name in names.items():
        box = page.get_by_role("textbox", name=label)
        box.fill(name)
        box.press("Enter")
        expect(board.locator(".lt-message")).to_contain_text(f"{label} is now called {name}. Pass the device to ")
    hand_overs, moves = 0, 0
    for _ in range(400):
        table = read(board)
        show = board.locator(".lt-actions button", has_text="show my hand")
        if show.count():
            # the hand-over screen: no card of either hand, one button for the next player
            assert table["hand"] == [] and board.locator(".lt-opponent-hand").count() == 0
            assert len(table["actions"]) == 1 and table["message"].endswith(".")
            player = table["actions"][0][0].removesuffix(", show my hand")
            assert player in names.values() and table["message"].endswith(f"Pass the device to {player}.")
            table = click(board, show)
            hand_overs += 1
            assert table["message"].endswith(f"{player}, your turn: you have drawn. Pick a card from your hand to "
                                             "see where it can go.")
            assert f"{player}'s turn" in table["turn"] and 0 < len(table["hand"]) <= 9
            other = next(name for name in names.values() if name != player)
            assert {square["cells"][0]["name"].split(",")[0] for square in table["squares"]} == \
                {"Your square", f"{other}'s square"}
            continue
        if "the hand is over" in table["turn"]:
            break
        assert len(table["hand"]) <= 9  # one hand only
        undo = [enabled for label, enabled in table["actions"] if label == "Undo"]
        assert undo == [False]
        go_out = page.get_by_role("button", name="Go out", exact=True)
        if go_out.is_enabled():
            click(board, go_out)
        else:
            move_by_clicks(board, len(table["hand"]))
        moves += 1
    else:
        pytest.fail("the hand did not end within 400 steps")
    assert hand_overs > 5 and moves > 5
    assert board.locator("b").count() == 0 and board.get_by_text("<b>Bo</b>").count() > 0
    assert re.search(r"The hand is over: you scored \d+, (Ann|<b>Bo</b>) \d+\.", read(board)["message"])
    expect(page.locator(".lt-scores thead")).to_contain_text("Ann")
    table = click(board, page.get_by_role("button", name="Review this hand"))
    assert table["turn"].startswith("Review of hand 1") and table["error"] == ""
    assert "Try this position again" not in [label for label, _ in table["actions"]]
    click(board, page.get_by_role("button", name="Back to the game"))
    passed = click(board, board.locator(".lt-actions button", has_text="Pass the device to"))
    assert passed["hand"] == [] and len(passed["actions"]) == 1
