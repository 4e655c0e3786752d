"""The Learn section in plain pytest (no kernel): intents in, the lesson's feedback and progress out."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from keyed import keys_in, mark, said
from test_lesson_replies import told

from leopard_tutor.engine import Discard, EndTurn, GoOut, Move, Play
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.facts import fill
from leopard_tutor.engine.narration import move_words
from leopard_tutor.lessons import LESSONS, Progress
from leopard_tutor.lessons.attempt import MOST_INPUTS
from leopard_tutor.lessons.facts import lesson_facts
from leopard_tutor.lessons.notation import LEARNER
from leopard_tutor.lessons.questions import answer_words
from leopard_tutor.table.lesson_table import LearnController
from leopard_tutor.table.sentences import places_words
from leopard_tutor.widgets.board import FOCUS_TABLE
from leopard_tutor.widgets.learn import LearnSection, build_learn


def new_section() -> tuple[LearnSection, LearnController]:
    controller = LearnController(progress=Progress())
    return LearnSection(controller), controller


YOURS, THEIRS = mark("board.squares.yours"), mark("board.squares.theirs")
"""The squares' labels (under `keyed`)."""


def lit(state: dict[str, Any], mark: str = "target") -> set[tuple[str, int]]:
    """The spaces lit for the picked card (`mark` "target"), or lit apart as the place a hint named ("hinted")."""
    return {(sq["label"], cell["space"]) for sq in state["squares"] for cell in sq["cells"] if cell.get(mark)}


def intents_for(controller: LearnController, move: Move) -> list[dict[str, Any]]:
    """The clicks a person makes for `move`: the card, then the space (or the pile, or a button)."""
    if isinstance(move, GoOut):
        return [{"type": "action", "id": "go_out"}]
    if isinstance(move, EndTurn):
        return [{"type": "action", "id": "end_turn"}]
    assert isinstance(move, (Play, Discard))
    index = controller.attempt.view.hand.index(move.card)
    pick = {"type": "select", "index": index}
    if isinstance(move, Discard):
        return [pick, {"type": "discard"}]
    return [pick, {"type": "space", "square": move.square_owner, "space": move.space}]


def test_stage_two_by_clicks_lights_only_legal_targets_and_unlocks_stage_three(keyed: None) -> None:
    section, controller = new_section()
    board = section.board
    assert section.stage_buttons[1].disabled
    assert section.stage_buttons[1].description == f"2 · {mark('sections.learn.locked_label')}"
    board.dispatch({"type": "action", "id": "next"})
    assert controller.index == 0, "Next stays shut until the stage is solved"
    for intent in intents_for(controller, LESSONS[0].solution[0]):
        board.dispatch(intent)
    assert controller.attempt.solved and not section.stage_buttons[1].disabled
    assert section.stage_buttons[0].description == "1 · ★★★"
    board.dispatch({"type": "action", "id": "next"})
    assert controller.index == 1 and said(board.state["turn"], "sections.learn.turn", stage=2, stages=len(LESSONS))
    tabs = section.stage_tabs  # the stages' names in words and the one on the board, for a screen reader
    assert tabs.label == mark("sections.learn.stages_label") and tabs.selected == 1
    assert said(tabs.names[0], "sections.learn.stage_name", stage=1, title=LESSONS[0].title, stars=3)
    assert said(tabs.names[1], "sections.learn.stage_name", stage=2, stars=0)
    assert said(tabs.names[2], "sections.learn.stage_name_locked", stage=3, title=LESSONS[2].title)
    assert len(tabs.names) == len(LESSONS)
    seven = controller.attempt.view.hand.index(LESSONS[1].solution[0].card)  # type: ignore[union-attr]
    board.dispatch({"type": "select", "index": seven})
    assert lit(board.state) == {(THEIRS, 7)}
    board.dispatch({"type": "space", "square": 1, "space": 7})
    assert controller.attempt.solved
    assert said(board.state["message"], "lessons.feedback.stars", stars=3) and board.state["tone"] == "ok"
    assert "lessons.feedback.stars_cost" not in board.state["message"], "three stars: nothing cost them"
    assert controller.progress.stars == {"the-square": 3, "aces-to-nines": 3}
    assert controller.progress.unlocked == [lesson.key for lesson in LESSONS[:3]]
    assert board.state["error"] == ""


def next_button(state: dict[str, Any]) -> dict[str, Any]:
    """The board's Next stage button."""
    found: dict[str, Any] = next(button for button in state["actions"] if button["id"] == "next")
    return found


def test_a_finished_stage_opened_again_offers_the_next_stage_at_once(keyed: None) -> None:
    section, controller = new_section()
    board = section.board
    assert not next_button(board.state)["enabled"]
    assert next_button(board.state)["note"] == mark("sections.learn.next_locked")
    for intent in intents_for(controller, LESSONS[0].solution[0]):
        board.dispatch(intent)
    section.stage_buttons[0].click()  # the first stage, done, opened again: its play starts anew, the next stays open
    assert not controller.attempt.solved and next_button(board.state)["enabled"]
    assert next_button(board.state)["note"] == "" and not next_button(board.state).get("primary")
    board.dispatch({"type": "action", "id": "next"})
    assert controller.index == 1
    assert not next_button(board.state)["enabled"], "stage 3 is not open before stage 2 is done"


def test_a_wrong_click_is_answered_with_the_engine_reason_and_changes_nothing(keyed: None) -> None:
    section, controller = new_section()
    board = section.board
    before = controller.attempt.hand
    board.dispatch({"type": "select", "index": 0})  # the 6 of diamonds
    board.dispatch({"type": "space", "square": 0, "space": 4})
    reason = before.check(Play(before.held[0][0], 0, 4)).reason
    assert board.state["message"].startswith(reason) and board.state["tone"] == "warn"
    assert controller.attempt.hand == before and controller.attempt.slips == 1
    goal = next(panel for panel in board.state["aside"] if panel["kind"] == "goal")
    assert said(goal["note"], "sections.learn.status", slips=1)


def reasons_shown(state: dict[str, Any]) -> list[str]:
    """The sentences the board shows under the message on hover or focus: each space's and the pile's, but for a
    place whose reason the message says ("said")."""
    return [cell["why"] for sq in state["squares"] for cell in sq["cells"] if cell["why"] and not cell.get("said")] + [
        why for why in [state["discard"]["why"]] if why and not state["discard"].get("said")]


def reasons_described(state: dict[str, Any]) -> list[str]:
    """The sentences that describe each space and the pile (a screen reader's description, a tooltip)."""
    return [cell["why"] for sq in state["squares"] for cell in sq["cells"] if cell["why"]] + [
        why for why in [state["discard"]["why"]] if why]


def test_a_wrong_try_says_its_reason_once(keyed: None) -> None:
    """After a wrong try the message gives the reason, and the place tried does not say it again under the
    message (a refused play, and a legal discard the stage takes back), though it keeps it as its description; the
    card stays picked for another try, which
    the message says (a learner told to try again tapped the card once more, and so put it back), and the place
    speaks again once the message changes."""
    section, controller = new_section()
    board = section.board
    hand = controller.attempt.hand
    six = hand.held[0][0]
    board.dispatch({"type": "select", "index": 0})
    for intent, move in (({"type": "space", "square": 0, "space": 4}, Play(six, 0, 4)),
                         ({"type": "discard"}, Discard(six))):
        reason = hand.check(move).reason
        board.dispatch(intent)
        legal = hand.check(move).legal  # a legal try taken back says what it did, not the rule that allowed it
        assert board.state["message"].count(reason) == (0 if legal else 1) and board.state["tone"] == "warn"
        assert not [why for why in reasons_shown(board.state) if reason in why or why in reason]
        if not legal:  # the place keeps its reason as its description: a screen reader coming back to it hears it
            assert reason in reasons_described(board.state)
        assert board.state["hand"]["cards"][0]["selected"]  # and the message says so, last
        assert board.state["message"].endswith(mark("play.still_picked", The_card=six.the_name_first))
    assert controller.attempt.slips == 2 and controller.attempt.hand == hand
    board.dispatch({"type": "select", "index": 1})
    board.dispatch({"type": "select", "index": 0})
    assert hand.check(Play(six, 0, 4)).reason in reasons_shown(board.state)


def test_hints_walk_the_ladder_and_pick_the_card(keyed: None) -> None:
    section, controller = new_section()
    board = section.board
    controller.open(0)
    board.dispatch({"type": "action", "id": "hint"})
    assert keys_in(board.state["message"])[0] == "sections.learn.hint"
    assert said(board.state["message"], "sections.learn.hint", level=1, count=4)
    board.dispatch({"type": "action", "id": "hint"})
    assert said(board.state["message"], "sections.learn.hint", level=2, count=4)
    assert [c["selected"] for c in board.state["hand"]["cards"]] == [True] + [False] * 8
    assert lit(board.state) == {(YOURS, 6), (THEIRS, 6)} and lit(board.state, "hinted") == set()
    where = places_words({0: {6}, 1: {6}}, LEARNER, bool(board.state["discard"]["target"]))
    assert said(board.state["message"], "sections.learn.hint_picked", where=where), (
        "said, or a tap on it would seem to undo it; and where it may go, named as the board lights it")
    board.dispatch({"type": "action", "id": "hint"})  # the card is picked already: the hint did not pick it now
    assert said(board.state["message"], "sections.learn.hint", level=3, count=4)
    assert said(board.state["message"], "sections.learn.hint_places", where=where)
    assert "sections.learn.hint_picked" not in board.state["message"]
    # the rung names the place: of the two lit, the one it names is lit apart (a stage 15 learner saw every place lit
    # alike beside a hint that named one)
    move = controller.attempt.next_move()
    assert isinstance(move, Play) and lit(board.state, "hinted") == {((YOURS, THEIRS)[move.square_owner], move.space)}
    board.dispatch({"type": "action", "id": "hint"})
    assert keys_in(board.state["message"])[0] == "sections.learn.hint"
    board.dispatch({"type": "action", "id": "hint"})  # at the ladder's top: its last rung again, said to be so
    assert keys_in(board.state["message"])[0] == "sections.learn.hint_again"
    assert said(board.state["message"], "sections.learn.hint_again", level=4, count=4)


def test_a_stage_answered_with_buttons_takes_no_card_and_says_why(keyed: None) -> None:
    section, controller = new_section()
    board = section.board
    stage = next(index for index, lesson in enumerate(controller.lessons) if lesson.questions)
    controller.progress.open_through(controller.lessons[stage].key)
    controller.open(stage)
    board.refresh()
    assert board.state["inert"] == mark("lessons.feedback.not_now")
    board.dispatch({"type": "select", "index": 0})
    assert board.state["message"] == mark("lessons.feedback.not_now") and lit(board.state) == set()
    assert not any(card["selected"] for card in board.state["hand"]["cards"])


def test_a_reload_opens_the_stage_the_learner_was_at_else_the_first_not_yet_solved(keyed: None) -> None:
    """The stage on the board is kept in the browser; a new page opens it again once the browser says so (it opened
    stage 1), if it is open (or once the progress said after it opens it); with none kept (or one locked or not a
    stage), the first open stage not yet solved; and never once the learner has used the board."""
    section, controller = new_section()
    progress = controller.progress
    progress.open_through(LESSONS[6].key)
    section.stage_keeper.restore("")
    section.stage_buttons[6].click()
    assert controller.lesson.stage == 7 and json.loads(section.stage_keeper.saved) == {"stage": 7, "inputs": []}
    again = LearnSection(LearnController(progress=progress))
    assert again.controller.lesson.stage == 1
    again.stage_keeper.restore(section.stage_keeper.saved)
    assert again.controller.lesson.stage == 7 and again.board.state["turn"] == controller.board_state().turn
    for key in (LESSONS[0].key, LESSONS[1].key):
        progress.record_lesson(key, 3)
    for kept in ("", "9", "x" * 50, "7 "):  # none, locked, not a stage
        fresh = LearnSection(LearnController(progress=progress))
        fresh.stage_keeper.restore(kept)
        assert fresh.controller.lesson.stage == 3, kept
    used = LearnSection(LearnController(progress=progress))
    used.board.dispatch({"type": "action", "id": "hint"})
    used.stage_keeper.restore("7")
    assert used.controller.lesson.stage == 1, "the board was used first: it stays"
    later = Progress()  # the browser's progress said after the stage (its storage lies after the sections)
    early = LearnSection(LearnController(progress=later))
    early.stage_keeper.restore("7")
    assert early.controller.lesson.stage == 1, "stage 7 is not open yet"
    solved = Progress()
    for lesson in LESSONS[:6]:
        solved.record_lesson(lesson.key, 3)
    later.load_code(solved.to_code())  # stages 1 to 6 solved: 7 is open
    early.update_panels()  # as the app does once the progress is restored
    assert early.controller.lesson.stage == 7


def test_a_reload_or_another_language_takes_up_a_stage_where_the_learner_left_it(keyed: None) -> None:
    """What the learner did in a stage (moves, slips, hints) is kept with it: a reload, or the stage carried into
    another language, makes it again; what is not a stage's inputs opens the stage from its start."""
    index = next(i for i, lesson in enumerate(LESSONS) if len(lesson.solution) >= 2 and not lesson.questions)
    lesson = LESSONS[index]
    section, controller = new_section()
    progress = controller.progress
    progress.open_through(lesson.key)
    section.stage_keeper.restore("")
    section.stage_buttons[index].click()
    board = section.board
    board.dispatch({"type": "action", "id": "hint"})
    hand = controller.attempt.hand
    wrong = next(Play(card, owner, space) for card in hand.held[LEARNER] for owner in (0, 1) for space in range(1, 10)
                 if not hand.check(Play(card, owner, space)).legal)
    board.act(lambda: controller.try_move(wrong))
    for intent in intents_for(controller, lesson.solution[0]):
        board.dispatch(intent)
    attempt = controller.attempt
    assert attempt.slips == 1 and attempt.hints_used == 1 and len(attempt.hand.moves) > 0
    kept = json.loads(section.stage_keeper.saved)
    assert kept["stage"] == lesson.stage and len(kept["inputs"]) == 3

    def same(other: LearnSection) -> None:
        again = other.controller.attempt
        assert other.controller.index == index and again.inputs == attempt.inputs
        assert again.hand.moves == attempt.hand.moves and again.view.hand == attempt.view.hand
        assert (again.slips, again.hints_used, again.solved) == (attempt.slips, attempt.hints_used, attempt.solved)
        assert other.board.state["message"].startswith(mark("sections.learn.resumed", stage=lesson.stage,
                                                            title=lesson.title))

    reloaded = LearnSection(LearnController(progress=progress))
    reloaded.stage_keeper.restore(section.stage_keeper.saved)
    same(reloaded)
    carried = LearnSection(LearnController(progress=progress))  # (the app builds the section anew in the language)
    carried.take_place(section.place())
    same(carried)
    for bad in ([f"play {'Z' * 3} on your 1"], ["hint"] * (MOST_INPUTS + 1), [5], "hint"):
        fresh = LearnSection(LearnController(progress=progress))
        fresh.stage_keeper.restore(json.dumps({"stage": lesson.stage, "inputs": bad}))
        assert fresh.controller.index == index and fresh.controller.attempt.inputs == [], bad
        assert fresh.controller.attempt.hand.moves == lesson.new_attempt().hand.moves
    for text_kept in ('{"stage": 7, "inputs": ["hint"', '{"inputs": ' + "[" * 5000 + "]" * 5000 + "}"):
        broken = LearnSection(LearnController(progress=progress))
        broken.stage_keeper.restore(text_kept)  # not JSON, or nested deeper than Python reads
        assert broken.controller.attempt.inputs == [] and broken.board.state["error"] == "", text_kept[:40]


def test_locked_stage_says_which_stage_opens_it(keyed: None) -> None:
    section, controller = new_section()
    section.stage_buttons[4].click()  # disabled in the page, but a click must still be safe
    assert controller.index == 0
    assert section.board.state["message"] == mark("sections.learn.locked", stage=5, previous=4)


def turn_buttons_offered(state: dict[str, Any], controller: LearnController) -> set[str]:
    """Go out and End turn as the board shows them: each offered only when the engine allows it now, else greyed
    with the engine's reason (as in Play; a press used to be refused and counted as a slip); the ones offered."""
    offered = set()
    for button in state["actions"]:
        if button["id"] in ("go_out", "end_turn"):
            verdict = controller.attempt.hand.check(GoOut() if button["id"] == "go_out" else EndTurn())
            assert button["enabled"] == verdict.legal and button["note"] == ("" if verdict.legal else verdict.reason)
            if verdict.legal:
                offered.add(button["id"])
    return offered


@pytest.mark.parametrize("lesson", [lesson for lesson in LESSONS if not lesson.rules.multiple_plays
                                    and not lesson.questions], ids=lambda lesson: lesson.key)
def test_a_stage_under_one_play_a_turn_shows_no_end_turn_it_cannot_use(lesson, keyed: None) -> None:
    """Under one play a turn nobody passes, even once the stock is out (stages 10 and 11): End turn is not shown at
    any step of such a stage, where it had stood greyed with the stock out and could never be pressed."""
    section, controller = new_section()
    controller.progress.open_through(lesson.key)
    controller.open(LESSONS.index(lesson))
    for move in lesson.solution:
        assert not controller.attempt.hand.check(EndTurn()).legal
        assert "end_turn" not in [button["id"] for button in controller.board_state().actions], lesson.key
        for intent in intents_for(controller, move):
            section.board.dispatch(intent)
    assert controller.attempt.solved


def test_whole_course_by_clicks(keyed: None) -> None:
    section, controller = new_section()
    board = section.board
    offered: set[str] = set()
    for index, lesson in enumerate(LESSONS):
        section.stage_buttons[index].click()
        assert controller.index == index, lesson.key
        while (question := controller.attempt.question) is not None:
            board.dispatch({"type": "action", "id": f"answer_{question.truth(controller.attempt.view).answer}"})
        for move in lesson.solution:
            offered |= turn_buttons_offered(board.state, controller)
            for intent in intents_for(controller, move):
                board.dispatch(intent)
        assert controller.attempt.solved, (lesson.key, board.state["message"])
        assert board.state["error"] == ""
        greyed = [button for button in board.state["actions"] if button["id"] not in ("restart", "next")]
        assert greyed and all(not button["enabled"] and button["note"] == mark("lessons.feedback.finished")
                              for button in greyed), "a solved stage's buttons are greyed, with why"
    assert controller.progress.stars == {lesson.key: 3 for lesson in LESSONS}
    assert offered == {"go_out", "end_turn"}, "each is offered where a stage's solution uses it"
    assert "next" not in [button["id"] for button in board.state["actions"]], "the last stage has no next one"
    assert board.state["message"].endswith(mark("sections.learn.all_done", practice=mark("app.tabs.practice"),
                                                play=mark("app.tabs.play"))), "what comes after the course"


def test_every_solved_stage_says_it_is_finished_under_the_message(keyed: None) -> None:
    """The note "This stage is finished: start it again to replay it." stood under the message after stages solved
    by a click on the table (the explanation of the place pointed at) and not after those solved by a button (Go out
    in stages 9 and 13, an answer in 12 and 14, whose cards said they are answered with buttons): every solved stage
    gives it as the line under the message, and as what its cards and spaces say."""
    section, _ = new_section()
    board = section.board
    finished = mark("lessons.feedback.finished")
    for index, lesson in enumerate(LESSONS):
        solve_by_clicks(section, index, before=lambda: "note" not in board.state)
        assert board.state["note"] == finished and board.state["inert"] == finished, lesson.key
        board.dispatch({"type": "select", "index": 0})
        assert board.state["message"] == finished, lesson.key


def test_a_stage_whose_hand_ended_short_of_its_goal_says_so_not_that_it_is_solved(keyed: None) -> None:
    """QA: the full hand lost, the panel said "Not finished yet" while the line under the message said "This stage is
    finished: start it again to replay it". A stage whose hand ended without reaching its goal says so, under the
    message and to a click on its table, and never that it is solved."""
    section, controller = new_section()
    board = section.board
    controller.progress.open_through(LESSONS[-1].key)
    section.open_stage(LESSONS[-1].stage)
    assert controller.attempt.lesson.free
    for _ in range(200):  # a learner who only ever discards: their square stays empty, so the hand cannot be won
        if controller.attempt.finished:
            break
        board.dispatch({"type": "select", "index": 0})
        board.dispatch({"type": "discard"})
    assert controller.attempt.finished and not controller.attempt.solved
    assert said(board.state["message"], "lessons.feedback.failed")
    ended = mark("lessons.feedback.ended")
    assert board.state["note"] == ended and board.state["inert"] == ended
    board.dispatch({"type": "select", "index": 0})
    assert board.state["message"] == ended


def test_a_turn_ended_is_told_without_the_reason_it_might_end_said_before(keyed: None) -> None:
    """QA: in the Running Leopard stage, End turn pressed with no card left said "...so all that is left is to end it.
    You ended the turn.": why the turn might end, said before the press, no longer held. A turn ended is told by what
    happened alone, in every stage whose solution ends a turn."""
    section, controller = new_section()
    board = section.board
    controller.progress.open_through(LESSONS[-1].key)
    ended = 0
    for lesson in LESSONS:
        section.open_stage(lesson.stage)
        for move in lesson.solution:
            why = controller.attempt.hand.check(move).reason if isinstance(move, EndTurn) else ""
            for intent in intents_for(controller, move):
                board.dispatch(intent)
            if why:
                ended += 1
                assert why not in board.state["message"], (lesson.key, board.state["message"])
    assert ended, "a stage's solution ends a turn"


def solve_by_clicks(section: LearnSection, index: int, before: Callable[[], bool] = lambda: True,
                    watch: list[Any] | None = None) -> None:
    """Open stage `index` (where `before` must hold) and solve it as a learner would: each question answered
    truly, then the solution's moves by clicks (each with the hand before it put in `watch`, if given)."""
    controller, board = section.controller, section.board
    section.stage_buttons[index].click()
    lesson = controller.attempt.lesson
    assert before(), lesson.key
    while (question := controller.attempt.question) is not None:
        board.dispatch({"type": "action", "id": f"answer_{question.truth(controller.attempt.view).answer}"})
    for move in lesson.solution:
        if watch is not None:
            watch.append((controller.attempt.hand, move))
        for intent in intents_for(controller, move):
            board.dispatch(intent)
    assert controller.attempt.solved, lesson.key


def test_a_stage_whose_hand_runs_out_says_why_it_ended(keyed: None) -> None:
    """A stage's hand that ends with the stock and both hands empty (nobody went out) says so when it is solved
    (stage 10 ended with its score and no word of why), and only such a hand."""
    section, controller = new_section()
    ran_out = []
    for index, lesson in enumerate(LESSONS):
        solve_by_clicks(section, index)
        assert said(section.board.state["message"], "narration.ran_out") == controller.attempt.hand.ran_out, lesson.key
        ran_out += [lesson.key] if controller.attempt.hand.ran_out else []
    assert ran_out, "a stage whose hand runs out"


def successes(section: LearnSection) -> list[tuple[str, str]]:
    """Each stage solved by clicks, as the Learn section shows it: (what the stage says then, what it taught
    filled with the facts of the hand as it ends); what the last move did, the opponent's replies to it and the words
    of a hand that ran out, said first, are left out (test_a_stage_whose_hand_runs_out_says_why_it_ended,
    test_lesson_replies.py), and so is a question stage's last answer, right and why."""
    controller, board = section.controller, section.board
    shown = []
    for index, lesson in enumerate(controller.lessons):
        before: list[Any] = []
        solve_by_clicks(section, index, watch=before)
        message = board.state["message"]
        if before:  # what the last move did, where the opponent answered it or it ended the hand
            hand, move = before[-1]
            answered = len(controller.attempt.hand.moves) > len(hand.moves) + 1 or controller.attempt.hand.is_over
            if answered:
                narration = told(hand, move)
                assert message.startswith(f"{narration} "), (message, narration)
                message = message.removeprefix(f"{narration} ")
        if index + 1 == len(controller.lessons):  # the course's end is said after the last stage's own words
            after = text("sections.learn.all_done", practice=text("app.tabs.practice"), play=text("app.tabs.play"))
            assert message.endswith(f" {after}")
            message = message.removesuffix(f" {after}")
        hand = controller.attempt.hand
        last = max((at for at, mover in enumerate(hand.movers) if mover == LEARNER), default=-1)
        for reply in hand.moves[last + 1:]:
            report = f"{move_words(reply, 'report', LEARNER)} "
            assert message.startswith(report), (message, report)
            message = message.removeprefix(report)
        message = message.removeprefix(f"{text('narration.ran_out')} ")
        if lesson.questions:  # the last answer explained (test_lesson_questions.py)
            truth = lesson.questions[-1].truth(controller.attempt.view)
            right = f"{text('lessons.questions.right', answer=answer_words(truth.answer))} {truth.reason} "
            assert message.startswith(right), (message, right)
            message = message.removeprefix(right)
        shown.append((message, fill(lesson.success, lesson_facts(controller.attempt.hand, lesson))))
    return shown


def test_a_solved_stage_says_what_it_taught_and_the_stars_only(keyed: None) -> None:
    """Nothing of the last move's verdict: the lesson's success, then the stars (after what the move did, where the
    opponent answered it or it ended the hand, the opponent's replies and why the hand ended, where it ran out, or the
    last answer's reason: `successes` checks each leads). QA: stage 11 told the opponent's reply to the winning move,
    not the move."""
    for message, taught in successes(new_section()[0]):
        assert message == f"{taught} {mark('lessons.feedback.stars', stars=3)}"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_stages_success_is_at_most_three_short_sentences(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", lang)
    for message, _ in successes(new_section()[0]):
        sentences = re.split(r"(?<=[.!?])\s+", message)
        assert len(sentences) <= 3 and all(len(sentence.split()) <= 30 for sentence in sentences), message


def test_progress_code_export_and_import_and_a_bad_code(keyed: None) -> None:
    section, controller = new_section()
    before = section.copy.value
    for intent in intents_for(controller, LESSONS[0].solution[0]):
        section.board.dispatch(intent)
    code = section.copy.value
    assert code != before and code == controller.progress.to_code(), "the page holds the code to copy, kept up to date"
    section.copy._on_page_msg(section.copy, {"type": "copied", "ok": "yes"}, [])  # a page's message of another shape
    assert section.code.value == "" and section.code_note.value == ""
    section.copy._on_page_msg(section.copy, {"type": "copied", "ok": False}, [])
    assert section.code.value == code and mark("sections.progress.not_copied") in section.code_note.value
    section.code.value = ""
    section.copy._on_page_msg(section.copy, {"type": "copied", "ok": True}, [])
    assert code.startswith("LT2-") and section.code.value == code
    assert mark("sections.progress.copied") in section.code_note.value  # said beside the box, not only far above it
    other, other_controller = new_section()
    # Load a code is greyed while its box is empty, saying why under it (the QA's case: an empty box was said to hold
    # a code that does not start with LT2-); pressed on a page behind, it says the same and changes nothing
    empty = mark("sections.progress.empty")
    assert other.load.disabled and other.load.tooltip == empty and empty in other.load_why.value
    other.board.act(other.load_code)
    assert other.board.state["message"] == empty and empty in other.code_note.value
    assert other_controller.progress.stars == {}
    other.code.value = code
    assert not other.load.disabled and other.load.tooltip == "" and other.load_why.value == ""
    other.board.act(other.load_code)
    assert other_controller.progress.stars == {"the-square": 3}
    assert not other.stage_buttons[1].disabled
    loaded = mark("sections.progress.merged", raised=1)
    assert other.board.state["message"] == loaded and loaded in other.code_note.value
    other.code.value = code[:-5]
    other.board.act(other.load_code)
    assert other.board.state["message"] == mark("sections.progress.damaged")
    assert mark("sections.progress.damaged") in other.code_note.value and "lt-tone-warn" in other.code_note.value
    assert other.board.state["error"] == ""
    assert other_controller.progress.stars == {"the-square": 3}


def test_a_code_loaded_adds_to_the_progress_and_never_takes_better_stars_away(keyed: None) -> None:
    """Browser A solved stage 1 with 1 star, browser B with 3: A's code loaded in B leaves B's 3 stars (as the class
    server merges its record, `merge_code`) and says that nothing changed; a code that raises stars says how many."""
    worse = Progress()
    worse.record_lesson(LESSONS[0].key, 1)
    worse.record_practice("lines", True)
    section, controller = new_section()
    controller.progress.record_lesson(LESSONS[0].key, 3)
    for lines in (True, False, True):
        controller.progress.record_practice("lines", lines)
    section.code.value = worse.to_code()
    section.board.act(section.load_code)
    assert controller.progress.stars == {LESSONS[0].key: 3} and controller.progress.practice == {"lines": (2, 1)}
    assert section.stage_buttons[0].description == "1 · ★★★"
    nothing = mark("sections.progress.nothing_new")
    assert section.board.state["message"] == nothing and nothing in section.code_note.value
    better = Progress()
    better.record_lesson(LESSONS[0].key, 2)
    better.record_lesson(LESSONS[1].key, 3)
    for _ in range(4):
        better.record_practice("tens", False)
    section.code.value = better.to_code()
    section.board.act(section.load_code)
    assert controller.progress.stars == {LESSONS[0].key: 3, LESSONS[1].key: 3}
    assert controller.progress.practice == {"lines": (2, 1), "tens": (0, 4)}
    assert section.board.state["message"] == " ".join((mark("sections.progress.merged", raised=1),
                                                       mark("sections.progress.merged_practice", concepts=1)))


def test_bad_intents_become_messages_not_errors(keyed: None) -> None:
    section, _ = new_section()
    board = section.board
    for intent in ({"type": "action", "id": "fly"}, {"type": "select", "index": 9}, {"type": "jump"},
                   {"type": "space", "square": 3, "space": 1}, "nonsense"):
        board.dispatch(intent)
        assert board.state["tone"] == "warn" and board.state["message"]
        assert board.state["error"] == ""


def test_a_group_of_stages_opens_at_its_first_stage(keyed: None) -> None:
    section = build_learn(6, 8)
    controller = section.controller
    assert [lesson.stage for lesson in controller.lessons] == [6, 7, 8]
    assert not section.stage_buttons[0].disabled and section.stage_buttons[1].disabled
    assert "Jacks" in lesson_text(section)["title"]


def lesson_text(section: LearnSection) -> dict[str, Any]:
    """The side column's panel holding the lesson's title, paragraphs and figures."""
    return next(panel for panel in section.board.state["aside"] if panel["kind"] == "text")


def test_the_goal_and_the_lesson_text_stand_beside_the_board(keyed: None) -> None:
    section, controller = new_section()
    goal, text = section.board.state["aside"]
    lesson = controller.lesson
    assert goal["kind"] == "goal" and goal["text"] == lesson.goal and goal["items"] == controller.attempt.goal_status()
    assert text["title"] == f"1. {lesson.title}" and text["paragraphs"] == list(lesson.intro)


def test_intro_shows_both_numberings_in_stage_one(keyed: None) -> None:
    section, _ = new_section()
    figures = lesson_text(section)["figures"]
    assert [figure["grid"] for figure in figures] == [[[1, 2, 3], [4, 5, 6], [7, 8, 9]],
                                                      [[7, 8, 9], [4, 5, 6], [1, 2, 3]]]


def test_a_group_of_stages_counts_its_stage_in_the_whole_course(keyed: None) -> None:
    """Stage 6 of a lesson notebook's stages 6 to 8 is stage 6 of the course's 15, never "6 of 3"."""
    section = build_learn(6, 8)
    assert said(section.board.state["turn"], "sections.learn.turn", stage=6, stages=len(LESSONS))


def test_a_picked_card_is_offered_the_discard_pile_only_where_the_rules_allow_it(keyed: None) -> None:
    """Running Leopard: after a play this turn no card may be discarded, and the words on picking a card say so
    (the lit spaces only); a card that can go nowhere is neither played nor discarded."""
    progress = Progress()
    stage = next(lesson for lesson in LESSONS if lesson.key == "running-leopard")
    progress.open_through(stage.key)
    controller = LearnController(progress=progress)
    section = LearnSection(controller)
    controller.open(LESSONS.index(stage))
    board = section.board
    seven = controller.attempt.view.hand.index(stage.solution[1].card)  # type: ignore[union-attr]
    board.dispatch({"type": "select", "index": seven})
    assert said(board.state["message"], "sections.learn.picked")
    board.dispatch({"type": "select", "index": seven})  # put back
    for intent in intents_for(controller, stage.solution[0]):  # the queen, face down on the 7: a play this turn
        board.dispatch(intent)
    seven = controller.attempt.view.hand.index(stage.solution[1].card)  # type: ignore[union-attr]
    board.dispatch({"type": "select", "index": seven})
    assert said(board.state["message"], "sections.learn.picked")
    assert not said(board.state["message"], "play.places.discard"), "the discard pile is not said to take it"
    assert not controller.attempt.can_discard(stage.solution[1].card)  # type: ignore[union-attr]


def test_a_press_of_a_greyed_go_out_is_answered_with_its_reason_and_costs_no_slip(keyed: None) -> None:
    section, controller = new_section()
    stage = next(lesson.stage for lesson in LESSONS if lesson.key == "going-out")
    controller.progress.open_through(LESSONS[stage - 1].key)
    section.open_stage(stage)
    why = controller.attempt.refusal(GoOut())
    assert why, "going out is not allowed at the going-out stage's start"
    assert [item for item in section.board.state["actions"] if item["id"] == "go_out"] == [
        {"id": "go_out", "label": mark("sections.learn.go_out_button"), "enabled": False, "note": why,
         "primary": False}]
    section.board.dispatch({"type": "action", "id": "go_out"})
    assert section.board.state["message"] == why and controller.attempt.slips == 0


def test_go_out_is_offered_from_the_stage_that_teaches_it(keyed: None) -> None:
    """Stage 1 showed a greyed Go out ("Going out needs a square worth at least 7; yours is worth 0") eight stages
    before going out is taught: before the going-out stage there is no Go out where it is not allowed; from it on,
    Go out stands in every stage of moves (greyed with its reason where it is not allowed)."""
    section, controller = new_section()
    taught = next(lesson.stage for lesson in LESSONS if lesson.key == "going-out")
    controller.progress.open_through(LESSONS[-1].key)
    for lesson in LESSONS:
        section.open_stage(lesson.stage)
        shown = "go_out" in [item["id"] for item in section.board.state["actions"]]
        allowed = not controller.attempt.refusal(GoOut())
        assert shown == (not lesson.questions and (lesson.stage >= taught or allowed)), lesson.key
    assert taught == 9


def test_a_picked_card_is_told_where_it_can_go_as_the_board_lights_it() -> None:
    """Each card of the first stage's hand and of the discarding stage's, picked: the message names the places the
    board lights (a learner who cannot see the board hears them), in the words Play uses, and says "that place" where
    it lights one (it said "those places" of the discard pile alone)."""
    counts = set()
    for key in ("the-square", "discarding"):
        progress = Progress()
        stage = next(lesson for lesson in LESSONS if lesson.key == key)
        progress.open_through(stage.key)
        controller = LearnController(progress=progress)
        section = LearnSection(controller)
        controller.open(LESSONS.index(stage))
        board = section.board
        for index, card in enumerate(controller.attempt.view.hand):
            board.dispatch({"type": "select", "index": index})
            state = board.state
            lit = {square["key"]: {cell["space"] for cell in square["cells"] if cell["target"]}
                   for square in state["squares"]}
            count = sum(map(len, lit.values())) + bool(state["discard"]["target"])
            where = places_words(lit, LEARNER, bool(state["discard"]["target"]))
            assert state["message"] == text("sections.learn.picked", the_card=card.the_name, where=where, count=count)
            assert count
            counts.add(min(count, 2))
            board.dispatch({"type": "select", "index": index})  # put back
    assert counts == {1, 2}, "no card lit one place, or none lit more: the test proves less than it says"
    assert text("sections.learn.picked", the_card="x", where="y", count=1).endswith("lights that place.")


def test_next_stage_says_the_stage_opened_and_puts_the_keyboard_on_its_table(keyed: None) -> None:
    """Next stage, pressed once a stage is solved: the message names the stage that opened, and the page is told to
    put the keyboard on its table (the button stays greyed until that stage is solved); a stage opened from the row of
    stages keeps the keyboard there, and Next stage on a stage not yet solved opens nothing and moves nothing."""
    section, controller = new_section()
    board = section.board
    sent: list[object] = []
    board.send = sent.append  # type: ignore[method-assign]
    board.dispatch({"type": "action", "id": "next"})
    assert controller.index == 0 and sent == [], "the second stage is still locked"
    solve_by_clicks(section, 0)
    assert sent == [], "a stage opened from the row of stages"
    board.dispatch({"type": "action", "id": "next"})
    second = LESSONS[1]
    assert controller.index == 1 and sent == [FOCUS_TABLE]
    assert board.state["message"] == " ".join((mark("sections.learn.opened", stage=second.stage, title=second.title),
                                               mark("sections.learn.start")))


def test_a_try_taken_back_says_once_that_the_card_is_in_the_hand_and_still_picked() -> None:
    """Stage 2's 7 discarded (allowed, not the task: taken back): the goal's line that the card is still in the hand
    says it is still picked too, where two sentences named the card one after the other. (In English: the goal names
    its card only where the stage's words do, which keyed texts would not.)"""
    section, controller = new_section()
    board = section.board
    section.open_stage(2)
    seven = LESSONS[1].solution[0].card  # type: ignore[union-attr]
    board.dispatch({"type": "select", "index": controller.attempt.view.hand.index(seven)})
    board.dispatch({"type": "discard"})
    message = board.state["message"]
    assert message.endswith(text("sections.learn.held_and_picked", The_card=seven.the_name_first))
    assert text("lessons.goals.played.held", The_card=seven.the_name_first) not in message
    assert text("play.still_picked", The_card=seven.the_name_first) not in message
    assert board.state["hand"]["cards"][controller.attempt.view.hand.index(seven)]["selected"]


def test_ending_a_turn_with_nothing_played_is_offered_as_a_pass(keyed: None) -> None:
    """Stage 13 (Running Leopard): after its three plays the button ends the turn ("End turn"); at the next turn,
    with no card and nothing played, it passes, and says so ("Pass", as the lesson and the rules name it: the button
    said "End turn" where the words said "you can only pass or go out")."""
    section, controller = new_section()
    lesson = next(lesson for lesson in LESSONS if lesson.key == "running-leopard")
    controller.progress.open_through(lesson.key)
    section.open_stage(lesson.stage)

    def label() -> str:
        [found] = [item["label"] for item in section.board.state["actions"] if item["id"] == "end_turn"]
        return str(found)

    assert label() == mark("sections.learn.end_turn_button")  # (greyed: cards are held, nothing played)
    for move in lesson.solution[:3]:
        for intent in intents_for(controller, move):
            section.board.dispatch(intent)
    assert label() == mark("sections.learn.end_turn_button")
    section.board.dispatch({"type": "action", "id": "end_turn"})
    assert not controller.attempt.hand.held[0] and controller.attempt.hand.plays_made == 0
    assert label() == mark("sections.learn.pass_button")
