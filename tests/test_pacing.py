"""One pace per kernel for every click: the boards' intents and every control beside them (buttons and
pickers of Play, Learn, Practice, Examples), sent the way the page sends them (comm messages), with the
processor time the clicks cost held to a share of one processor (pacing.py)."""

from __future__ import annotations

import math
from typing import Any

from keyed import mark

from leopard_tutor import pacing
from leopard_tutor.app import TutorApp, build_app
from leopard_tutor.engine import Move, PlayerView
from leopard_tutor.pacing import INTENT_BURST, INTENT_RATE, WORK_BURST, WORK_FREE, WORK_SHARE, IntentPace
from leopard_tutor.table import against_computer
from leopard_tutor.widgets import LeopardBoard

TOO_FAST = mark("board.too_fast")
"""The note a click beyond the pace gets (under `keyed`)."""


class Clock:
    """A clock the test moves (the wall clock, or the processor time used)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def click(button: Any) -> None:
    """What a click on an ipywidgets button sends the kernel: a custom comm message to the button."""
    button._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "click"}}}, "buffers": []})


def pick(dropdown: Any, index: int) -> None:
    """What choosing option `index` of an ipywidgets dropdown sends: an update of its index."""
    dropdown._handle_msg({"content": {"data": {"method": "update", "state": {"index": index}, "buffer_paths": []}},
                          "buffers": []})


def intent(board: LeopardBoard, content: dict[str, Any]) -> None:
    """What a click on the board sends: the intent as a custom comm message."""
    board._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def app_with_every_tab(pace: IntentPace) -> TutorApp:
    """The app with all its sections built, in a kernel whose pace is `pace`."""
    pacing._kernel_pace = pace
    tutor = build_app()
    for index in range(len(tutor.sections)):
        tutor.open_tab(index)
    return tutor


def test_every_board_and_control_of_a_kernel_shares_one_pace() -> None:
    tutor = app_with_every_tab(IntentPace())
    boards = [section.board for section in tutor.built.values()]
    assert len(boards) == 4 and all(board.pace is pacing.kernel_pace() for board in boards)


def test_a_flood_of_new_match_and_other_controls_makes_a_bounded_number_of_changes(keyed: None) -> None:
    clock = Clock()
    tutor = app_with_every_tab(IntentPace(clock=clock))
    play, learn = tutor.built[0], tutor.built[1]
    made: list[object] = []
    new_match = play.controller.new_match
    play.controller.new_match = lambda *args, **kwargs: made.append(new_match(*args, **kwargs))
    said: set[str] = set()
    for _ in range(2000):  # 2 s of clicks on New match, one every millisecond
        click(play.new_button)
        said.add(play.board.state["message"])
        clock.now += 0.001
    assert INTENT_BURST <= len(made) <= INTENT_BURST + 2 * INTENT_RATE + 1, len(made)
    assert TOO_FAST in said
    rules = play.rules_pick.value
    shown = play.controller.match
    for index in range(200):  # the rules picker, flooded at once: every change refused and put back
        pick(play.rules_pick, index % 2)
    assert play.controller.match is shown and play.rules_pick.value == rules == play.controller.rules.key
    stage = learn.controller.index
    click(learn.stage_buttons[stage])  # Learn shares the pace: nothing left for it either
    assert learn.board.state["message"] == TOO_FAST
    clock.now += 1  # a second later, 10 more clicks are taken, from any control
    pick(play.rules_pick, 1 - play.rules_pick.index)
    assert play.controller.match is not shown and play.controller.rules.key == play.rules_pick.value != rules


class CostlyExpert:
    """An opponent that thinks as long as the expert (0.9 s of processor a move, on a processor clock the test
    moves) and plays the first legal move."""

    time_budget = 0.9

    def __init__(self, processor: Clock) -> None:
        self.processor = processor
        self.moves = 0

    def choose(self, view: PlayerView) -> Move:
        self.processor.now += self.time_budget
        self.moves += 1
        return view.legal_moves()[0]


def test_a_new_match_loop_against_the_expert_gets_a_share_of_one_processor() -> None:
    clock, processor = Clock(), Clock(0.0)
    expert = CostlyExpert(processor)
    board = LeopardBoard(against_computer(expert, seed=1, background=False))
    board.pace = IntentPace(clock=clock, processor=processor)
    expert.moves = 0
    started = clock.now
    for _ in range(1000):  # 10 s of New match, 100 clicks a second
        intent(board, {"type": "action", "id": "new_match"})
        clock.now += 0.01
    seconds = clock.now - started
    thought = expert.moves * expert.time_budget
    charged = (expert.time_budget - WORK_FREE) / expert.time_budget  # (each click's first WORK_FREE s is free)
    assert thought * charged <= WORK_BURST + WORK_SHARE * seconds + 2 * expert.time_budget, (expert.moves, seconds)
    assert expert.moves >= 5, "the expert still starts the matches it is dealt the first move of"
    spent = expert.moves
    for _ in range(300):  # then steadily: the expert's first move at most once per 0.9 / WORK_SHARE = 3 s
        intent(board, {"type": "action", "id": "new_match"})
        clock.now += 0.01
    assert expert.moves - spent <= 2


def test_a_click_beyond_the_pace_is_answered_and_changes_nothing(keyed: None) -> None:
    clock = Clock()
    tutor = app_with_every_tab(IntentPace(rate=1, burst=1, clock=clock))
    practice = tutor.built[3]
    sent: list[object] = []
    practice.board.send = sent.append  # type: ignore[method-assign]
    question = practice.controller.question
    kind = practice.kind_pick.value
    pick(practice.kind_pick, 1)  # the one click of the burst
    assert practice.controller.question is not question and practice.kind_pick.value != kind
    question, kind = practice.controller.question, practice.kind_pick.value
    pick(practice.kind_pick, 2)
    assert practice.controller.question is question and practice.kind_pick.value == kind, "put back"
    intent(practice.board, {"type": "action", "id": "next"})
    assert practice.controller.question is question and sent == [{"type": "done"}], "answered, not handled"
    assert practice.board.state["message"] == TOO_FAST


def test_a_click_refused_for_the_work_just_done_says_so_and_when_to_click_again(keyed: None) -> None:
    """After a turn of the computer's that took longer than the burst (the expert's turn of plays in Running
    Leopard), the next click is refused as the server's work, not as too many clicks (there was one), and the words
    say in how many seconds a click is taken again, which holds: not a moment sooner."""
    clock, processor = Clock(), Clock(0.0)
    expert = CostlyExpert(processor)
    board = LeopardBoard(against_computer(expert, seed=1, background=False))
    board.pace = IntentPace(clock=clock, processor=processor)
    board.pace.run(lambda: setattr(processor, "now", processor.now + WORK_BURST + 3.0))  # one long turn of replies
    clock.now += 1.0
    moves = expert.moves
    intent(board, {"type": "action", "id": "new_match"})
    assert expert.moves == moves and board.pace.short == "work"
    seconds = board.pace.wait_seconds()
    assert board.state["message"] == mark("board.too_busy", seconds=seconds) != TOO_FAST
    assert seconds == math.ceil((3.0 - WORK_FREE - 1.0 * WORK_SHARE) / WORK_SHARE), "3 s overdrawn, 1 s after"
    clock.now += seconds - 0.5
    assert not board.pace.take(), "not sooner than it says"
    clock.now += 0.5
    assert board.pace.take()


def test_only_a_kernel_that_shares_a_servers_processors_paces_their_time(monkeypatch: Any) -> None:
    """The static site's kernel is the visitor's own browser, and a notebook's the person's own: their clicks are
    held to the click rate only, however long the computer thinks; a Voilà kernel paces the processor time too."""
    for shares in (False, True):
        monkeypatch.setattr(pacing, "_kernel_pace", None)
        monkeypatch.setattr(pacing, "current_host", lambda shares=shares: type("Host", (), {
            "shares_processors": lambda self: shares})())
        assert pacing.kernel_pace().paces_work is shares
        processor = Clock(0.0)
        pace = IntentPace(clock=Clock(), processor=processor, paces_work=shares)
        taken = [pace.run(lambda clock=processor: setattr(clock, "now", clock.now + 8.6))  # the expert's turn of plays
                 for _ in range(INTENT_BURST)]
        assert taken == ([True] * INTENT_BURST if not shares else [True, True] + [False] * (INTENT_BURST - 2))
        assert pace.short == ("work" if shares else "")
