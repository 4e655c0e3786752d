"""Learn, Examples and Practice in a real Chromium against a real `leopard-tutor` server, by clicks.

What the page should show is worked out with the engine from what the page shows (the spaces'
accessible names), and the lessons' own data says which clicks solve them."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from leopard_tutor.engine import ALL_CARDS, Card, Play, Square, check_play, square_value
from leopard_tutor.lessons import LESSONS, Progress

NAMES = {card.name: card for card in ALL_CARDS}
SPACE = re.compile(r"^(.+), space ([1-9]), (.+)$")
TIMEOUT = 30_000


def open_tab(board: Any, title: str, section: str) -> Any:
    """Open a tab of the app and return its section's board root once drawn."""
    page = board.page
    page.get_by_role("tab", name=title).click()
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
    """The hand's button for `card` (picked or not)."""
    return root.locator(f'.lt-hand-card[aria-label="{card.name}"], .lt-hand-card[aria-label="{card.name}, selected"]')


def space(root: Any, owner: int, number: int) -> Any:
    label = "Your square" if owner == 0 else "Opponent's square"
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
    expect(root.locator(".lt-turn")).to_contain_text(f"Stage 1 of {len(LESSONS)}")
    expect(section.get_by_role("button", name="2 · locked", exact=True)).to_be_disabled()
    assert "Lesson complete" in play_solution(root, 1)
    click(root, root.get_by_role("button", name="Next stage"))
    expect(root.locator(".lt-turn")).to_contain_text(f"Stage 2 of {len(LESSONS)}")

    seven = Card.parse("7S")
    click(root, hand_card(root, seven))
    assert lit(root) == {"Opponent's square 7"}, "only the legal target is lit"
    message = click(root, space(root, 0, 7))
    assert message.startswith("The 7 of spades cannot go on space 7 of your square")
    assert "lt-tone-warn" in (root.locator(".lt-message").get_attribute("class") or "")
    expect(hand_card(root, seven)).to_have_attribute("aria-pressed", "true")  # still picked: try another space
    message = click(root, space(root, 1, 7))
    assert "Lesson complete: 2 stars." in message
    expect(section.get_by_role("button", name="2 ★★", exact=True)).to_be_visible()

    progress = Progress()
    for lesson in LESSONS[:5]:
        progress.record_lesson(lesson.key, 3)
    section.locator(".lt-code input").fill(progress.to_code())
    click(root, section.get_by_role("button", name="Load a code"))
    expect(root.locator(".lt-message")).to_have_text("Progress loaded: 5 stages solved.")
    click(root, section.get_by_role("button", name="6", exact=True))
    expect(root.locator(".lt-turn")).to_contain_text(f"Stage 6 of {len(LESSONS)}")
    expect(root.get_by_text("Opponent's square is worth 6", exact=True)).to_be_visible()
    click(root, hand_card(root, Card.parse("JC")))
    # a jack may cover any card, in either square: every space holding a card is lit, and no other
    assert lit(root) == {"Your square 1", "Your square 5", "Your square 9",
                         *(f"Opponent's square {n}" for n in (1, 2, 3, 6, 9))}
    message = click(root, space(root, 1, 3))
    assert "Lesson complete: 3 stars." in message
    expect(root.get_by_text("Opponent's square is worth 0", exact=True)).to_be_visible()
    expect(root.locator(".lt-error")).to_be_hidden()


def test_step_through_example_c3_and_read_its_values(board: Any) -> None:
    root = open_tab(board, "Examples", "lt-examples")
    board.page.locator(".lt-examples select").select_option(label="C3 · The king: from 1 point to 8")
    expect(root.locator(".lt-turn")).to_have_text("C3 · step 1 of 2 · Revised rules (2008)", timeout=TIMEOUT)
    expect(root.locator(".lt-value")).to_have_text("Your square is worth 1")
    expect(root.get_by_role("button", name="Back")).to_be_disabled()
    message = click(root, root.get_by_role("button", name="Next"))
    assert "The square is worth 8. The rulebook gives 8 too." in message
    expect(root.locator(".lt-value")).to_have_text("Your square is worth 8")
    items = root.locator(".lt-line-item").all_text_contents()
    assert sorted(items) == ["column 1-4-7: one suit, +3", "diagonal 1-5-9: one colour, +1",
                             "diagonal 3-5-7: one colour, +1", "row 7-8-9: one suit, +3"]
    click(root, root.get_by_role("button", name="Show it under the Original rules (1963)"))
    click(root, root.get_by_role("button", name="Next"))
    expect(root.locator(".lt-value")).to_have_text("Your square is worth 6")
    expect(root.locator(".lt-turn")).to_have_text("C3 · step 2 of 2 · Original rules (1963)")


def square_on_page(root: Any) -> Square:
    """The square the page shows, rebuilt from its spaces' accessible names."""
    piles: dict[int, list[tuple[Card, bool]]] = {}
    for name in root.locator(".lt-space").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"):
        found = SPACE.match(name)
        assert found, name
        what = found.group(3).split(", on top of")[0]
        if what == "empty":
            piles[int(found.group(2))] = []
        elif what.startswith("face-down card"):
            piles[int(found.group(2))] = [(Card.parse("QS"), False)]
        else:
            piles[int(found.group(2))] = [(NAMES[what], True)]
    return Square([piles[s] for s in range(1, 10)])


def test_answer_a_practice_question_right_and_wrong(board: Any) -> None:
    root = open_tab(board, "Practice", "lt-practice")
    section = board.page.locator(".lt-practice")
    seq = root.get_attribute("data-seq")  # the question shown may already be of this kind: wait for the new one
    section.locator("select").first.select_option(label="What is it worth?")
    expect(root).not_to_have_attribute("data-seq", seq or "", timeout=30_000)
    expect(root.locator(".lt-turn")).to_have_text("What is it worth? · Revised rules (2008)", timeout=TIMEOUT)
    expect(root.locator(".lt-value")).to_have_text("This square is worth ?")
    worth = square_value(square_on_page(root))
    section.locator(".lt-answer input").fill(str(worth))
    section.locator(".lt-answer input").press("Tab")
    message = click(root, section.get_by_role("button", name="Check"))
    assert message.startswith(f"Right: the square is worth {worth}.")
    expect(root.locator(".lt-value")).to_have_text(f"This square is worth {worth}")
    expect(section.locator(".lt-record")).to_contain_text("Scoring lines: 1 right, 0 wrong")

    click(root, root.get_by_role("button", name="Next question"))
    worth = square_value(square_on_page(root))
    section.locator(".lt-answer input").fill(str(worth + 2))
    section.locator(".lt-answer input").press("Tab")
    message = click(root, section.get_by_role("button", name="Check"))
    assert message.startswith(f"Not quite: you said {worth + 2}, but the square is worth {worth}.")
    expect(section.locator(".lt-record")).to_contain_text("Scoring lines: 1 right, 1 wrong")

    section.locator("select").first.select_option(label="Can it go there?")
    expect(root.locator(".lt-turn")).to_have_text("Can it go there? · Revised rules (2008)", timeout=TIMEOUT)
    prompt = str(root.locator(".lt-message").text_content())
    found = re.match(r"^Can your (.+) go on space ([1-9]) of (your|your opponent's) square\?$", prompt)
    assert found, prompt
    card, number, whose = NAMES[found.group(1)], int(found.group(2)), found.group(3)
    verdict = check_play(card, square_on_page(root), number, own=whose == "your")
    message = click(root, root.get_by_role("button", name="No, it cannot" if verdict.legal else "Yes, it can"))
    assert message == f"Not so. {verdict.reason}"
    expect(root.locator(".lt-error")).to_be_hidden()


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
    click(root, section.get_by_role("button", name="Load a code"))
    click(root, section.get_by_role("button", name=str(lesson.stage), exact=True))
    expect(root.locator(".lt-turn")).to_contain_text(f"Stage {lesson.stage} of {len(LESSONS)}")
    expect(root.get_by_role("button", name="Go out")).to_have_count(0)
    expect(root.get_by_text("In sight besides the top cards")).to_be_visible()
    view = lesson.start().view(0)
    for number, question in enumerate(lesson.questions, start=1):
        expect(root.get_by_text(f"Question {number} of {len(lesson.questions)}: {question.prompt()}",
                                exact=True)).to_be_visible()
        words = {"yes": "Yes", "no": "No", "unknown": "You cannot tell"}[question.truth(view).answer]
        message = click(root, root.get_by_role("button", name=words, exact=True))
        assert message.startswith(f"Right: “{words}”."), message
    assert "Lesson complete: 3 stars." in message
    expect(root.locator(".lt-error")).to_be_hidden()
