"""The review in the Play section: stepping through a hand, trying a position again from exactly where
it was, "Why did the computer do that?" with true facts, and the adaptive opponent."""

from __future__ import annotations

import asyncio
import html

import pytest
from keyed import mark, said
from own_thread import in_own_thread
from test_hint_truth import CHECKS

from leopard_tutor.ai.adaptive import AdaptiveLevel
from leopard_tutor.ai.background import Background
from leopard_tutor.ai.players import (
    BEGINNER_INSTINCT,
    CASUAL_INSTINCT,
    DEFAULT_TIME_BUDGET,
    EXPERT_TURNS,
    INTERMEDIATE_INSTINCT,
    MASTER_TURNS,
    AIError,
    BeginnerPlayer,
    ExpertPlayer,
    IntermediatePlayer,
    MasterPlayer,
    how_it_plays,
)
from leopard_tutor.ai.review import REVIEW_LEVEL, HandReview, view_before
from leopard_tutor.ai.why import why, why_turn
from leopard_tutor.engine import RULE_SETS, Play, RuleSet
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.game_code import read_game_code
from leopard_tutor.protocol import LEVELS
from leopard_tutor.table import Table, against_computer, sentences
from leopard_tutor.table.drawing import legend
from leopard_tutor.widgets import build_play

ME, THEM = 0, 1


def small_review(player: int = ME) -> HandReview:
    return HandReview(player, deals=1, candidates=2)


def controller(seed: int = 3, rules: RuleSet = RULE_SETS["REVISED_2008"]) -> Table:
    return against_computer(BeginnerPlayer(seed), rules=rules, seed=seed, reviewer=small_review)


def play_to(c: Table, moves: int | None = None) -> None:
    """The learner (an intermediate player) moves until the hand is over, or it has made `moves` moves."""
    me = IntermediatePlayer(7)
    made = 0
    while not c.hand.is_over and (moves is None or made < moves):
        c.make(me.choose(c.view()))
        made += 1


def test_try_again_starts_from_exactly_the_reviewed_position(keyed: None) -> None:
    c = controller()
    play_to(c)
    real, full_log = c.hand.copy(), list(c.log)
    assert len(full_log) == len(real.moves)
    c.handle({"type": "action", "id": "review"})
    session = c.reviewing
    assert session is not None and said(c.message, "review.step", number=1)
    for _ in range(4):
        c.handle({"type": "action", "id": "review_next"})
    session = c.reviewing  # each step is a new value of the mode
    assert session is not None and session.step == 4
    judgement = session.judgement
    assert said(c.board_state().turn, "review.turn", number=1)
    c.handle({"type": "action", "id": "try_again"})
    assert c.retry is not None and c.reviewing is None
    expected = real.copy()
    while len(expected.moves) > judgement.decision.index:
        expected.undo()
    assert c.hand == expected  # the same cards in both hands, the same stock, the same history
    assert c.log == full_log[:judgement.decision.index]  # the moves up to the position, as they were told
    assert c.view() == judgement.view
    assert c.hand is not c.match.current and c.match.current == real  # the match waits, untouched
    c.hint()  # no hinter here: says so, and changes nothing
    c.make(judgement.best)
    assert c.hand.moves[judgement.decision.index] == judgement.best
    c.undo()
    assert c.hand == expected
    c.undo()  # nothing of the try to take back: the moves before it stay
    assert c.hand == expected and c.message == mark("play.nothing_to_undo_in_retry")
    assert c.log == full_log[:judgement.decision.index]
    totals = c.match.totals
    play_to(c)
    assert c.hand.is_over and said(c.message, "review.retry.over") and c.match.totals == totals
    # the moves' buttons, greyed, say why: the try's hand is over (it was said why the scores do not change)
    greyed = {part["id"]: part["note"] for part in c.board_state().actions if not part["enabled"]}
    assert greyed["go_out"] == mark("review.retry.hand_over") and c.offers()["hint"] == mark("review.retry.hand_over")
    c.handle({"type": "action", "id": "retry_close"})
    assert c.retry is None and c.hand is c.match.current and c.match.current == real and c.log == full_log


def test_a_review_of_the_hand_in_progress_and_of_the_last_hand(keyed: None) -> None:
    c = controller(seed=5)
    c.review_last_hand()
    assert c.tone == "warn" and c.reviewing is None
    play_to(c, moves=6)
    c.handle({"type": "action", "id": "review"})
    assert c.reviewing is not None and len(c.reviewing.review.judgements) == 6
    c.handle({"type": "select", "index": 0})  # the table is the review's while it is open
    assert c.tone == "warn" and c.marks.selected is None
    c.handle({"type": "action", "id": "review_close"})
    # back to the game, and what to do there: the words it says took the place of the turn's (a screen reader heard
    # "Back to the match." alone)
    assert said(c.message, "review.closed") and said(c.message, "play.turn_words.pick")
    play_to(c)
    c.handle({"type": "action", "id": "next_hand"})
    c.handle({"type": "action", "id": "review_last"})
    session = c.reviewing
    assert session is not None and session.number == 1 and session.hand.is_over
    goto(c, len(session.review.judgements) - 1)
    assert c.board_state().actions[1]["enabled"] is False  # no next move after the last
    shown = c.board_state()
    for hostile in (999, -1, "2", None, True):  # a page's message naming no move of this review changes nothing
        with pytest.raises(ValueError, match=r"no move number|needs a whole number"):
            c.handle({"type": "action", "id": "review_goto", "step": hostile})
        assert c.board_state() == shown
    c.handle({"type": "action", "id": "review_close"})
    c.handle({"type": "action", "id": "review_goto", "step": 0})  # no review open: said so, nothing changes
    assert c.tone == "warn" and said(c.message, "review.not_open") and c.reviewing is None


def goto(c: Table, step: int) -> None:
    """Press move number `step` (from 0) in the review's list of moves: the board shows its judgement, and the list
    marks it as the one shown."""
    c.handle({"type": "action", "id": "review_goto", "step": step})
    session = c.reviewing
    assert session is not None and session.step == step and c.tone != "warn", c.message
    moves = next(panel for panel in c.board_state().aside if panel.get("list_class") == "lt-review-moves")
    assert [item["step"] for item in moves["items"]] == list(range(len(session.review.judgements)))
    assert [item["step"] for item in moves["items"] if item["current"]] == [step]


def test_each_step_of_a_review_marks_where_the_best_move_found_puts_its_card(keyed: None) -> None:
    """At each move judged, the space where the best move found plays its card is marked and named so (once), where
    that move is another one than the move made; nowhere else, and nowhere where the move made was that move or the
    best one was not a play."""
    c = controller(seed=5)
    play_to(c)
    c.handle({"type": "action", "id": "review"})
    session = c.reviewing
    assert session is not None
    marked = 0
    for step, judgement in enumerate(session.review.judgements):
        goto(c, step)
        state = c.board_state()
        found = [(sq["key"], cell["space"], cell["name"]) for sq in state.squares for cell in sq["cells"]
                 if cell["better"]]
        best = judgement.best
        if isinstance(best, Play) and best != judgement.move:
            marked += 1
            assert [place[:2] for place in found] == [(best.square_owner, best.space)], (step, best, found)
            assert said(found[0][2], "board.space_better")
        else:
            assert found == [], (step, best, judgement.move)
        named = [cell["name"] for sq in state.squares for cell in sq["cells"] if not cell["better"]]
        assert not [name for name in named if said(name, "board.space_better")]
    assert marked, "a hand with no better play found tests nothing"
    marks = next(panel for panel in c.board_state().aside if panel.get("title") == mark("review.panel.marks"))
    assert mark("review.panel.board_marks") in marks["items"]


def test_a_review_opened_before_its_search_ends_says_so_and_searches_on_as_it_is_stepped_through(
        monkeypatch: pytest.MonkeyPatch, keyed: None) -> None:
    monkeypatch.setattr("leopard_tutor.table.table.REVIEW_FINISH_SECONDS", 0.0)
    c = against_computer(BeginnerPlayer(5), rules=RULE_SETS["REVISED_2008"], seed=5,
                         reviewer=lambda player: HandReview(player, deals=3, candidates=2))
    play_to(c, moves=5)
    c.handle({"type": "action", "id": "review"})
    session = c.reviewing
    assert session is not None and session.review.not_final > 0
    assert said(c.message, "review.summary.not_final", count=session.review.not_final)
    panel = " ".join(str(item) for state in c.board_state().aside for item in state.get("items", []))
    assert said(panel, "review.not_final.mark")
    monkeypatch.setattr("leopard_tutor.table.table.REVIEW_STEP_SECONDS", 60.0)
    c.handle({"type": "action", "id": "review_next"})  # a step searches the judgement it shows until it is final
    session = c.reviewing
    assert session is not None and session.step == 1 and session.judgement.final
    assert not session.review.complete and session.review == c.reviewer.review()
    assert not said(c.message, "review.not_final.deals") and not said(c.message, "review.not_final.quick")
    while c.reviewer.refine(60.0):  # the background's work, done here at once
        pass
    c.handle({"type": "action", "id": "review_prev"})  # and every judgement as the search has taken it since
    session = c.reviewing
    assert session is not None and session.step == 0 and session.review.complete
    assert session.review.not_final == 0 and session.review == c.reviewer.review()


def test_the_board_shows_the_position_as_the_learner_saw_it() -> None:
    c = controller(seed=8)
    play_to(c, moves=12)
    c.review_this_hand()
    session = c.reviewing
    assert session is not None
    for step, judgement in enumerate(session.review.judgements):
        goto(c, step)
        state = c.board_state().as_dict()
        assert state["hand"]["cards"] and [card["card"]["code"] for card in state["hand"]["cards"]] == [
            str(card) for card in judgement.view.hand]
        mine, theirs = state["squares"]
        assert (mine["value"], theirs["value"]) == (judgement.view.value(ME), judgement.view.value(THEM))
        if isinstance(judgement.move, Play):
            square = mine if judgement.move.square_owner == ME else theirs
            assert [cell["space"] for cell in square["cells"] if cell["last"]] == [judgement.move.space]
        summary, moves, marks = state["aside"]
        assert summary["items"] == [session.review.summary()]
        assert summary["title"] == text("review.panel.title", number=session.number,
                                        level=text(f"levels.in_sentence.{REVIEW_LEVEL}"))
        assert text(f"levels.in_sentence.{REVIEW_LEVEL}") in summary["title"], "the judging level is named"
        assert marks["items"] == [legend(), text("review.panel.board_marks")]
        assert len(moves["items"]) == len(session.review.judgements)
        assert [n for n, item in enumerate(moves["items"]) if "lt-review-now" in item["class"]] == [step]
        assert [n for n, item in enumerate(moves["items"]) if item["current"]] == [step]
        assert f"lt-review-{judgement.verdict}" in moves["items"][step]["class"]
    goto(c, 0)
    marked = [n for n, j in enumerate(session.review.judgements) if j.verdict != "good"]
    assert marked
    for number in marked:
        c.handle({"type": "action", "id": "review_mistake"})
        assert c.reviewing is not None and c.reviewing.step == number
    c.handle({"type": "action", "id": "review_mistake"})
    assert c.tone == "warn" and c.reviewing is not None and c.reviewing.step == marked[-1]


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_why_the_computer_moved_is_true_of_what_it_could_see(rules: RuleSet) -> None:
    c = controller(seed=4, rules=rules)
    c.why()
    asked = 0
    while not c.hand.is_over:
        play_to(c, moves=1)
        movers = c.hand.movers
        if THEM not in movers:
            continue
        index = max(i for i, mover in enumerate(movers) if mover == THEM)
        view = view_before(c.hand, index, THEM)
        assert view.player == THEM and c.hand.moves[index] in view.legal_moves()
        told = why(view, c.hand.moves[index])
        key, values = told.fact
        CHECKS[key.removeprefix("hints.")](view, told.move, values)
        c.why()
        # the whole last turn, its last move told last; then what the learner may do now, the words it replaced
        assert c.message == f"{why_turn(c.hand, THEM).sentence} {sentences.prompt(c)}"
        assert told.sentence in c.message and told.sentence.startswith("Your opponent")
        asked += 1
    assert asked > 5


def side_buttons(c: Table) -> dict[str, bool]:
    """The buttons of the side column (id: enabled), as the board draws them."""
    panel = c.board_state().aside[0]
    assert panel["kind"] == "actions"
    return {item["id"]: item["enabled"] for item in panel["items"]}


def test_the_side_column_offers_why_and_the_reviews_when_they_have_something_to_show(keyed: None) -> None:
    c = controller()
    first = side_buttons(c)
    assert first == {"why": THEM in c.hand.movers, "review": False}
    play_to(c, 2)
    assert side_buttons(c) == {"why": True, "review": True}
    play_to(c)
    c.next_hand()
    assert side_buttons(c)["review_last"] is True
    # named by its number: at the end of hand 2 "Review the last hand" stood beside "Review this hand" and meant hand 1
    labels = {item["id"]: item["label"] for item in c.board_state().aside[0]["items"]}
    assert labels["review_last"] == mark("review.buttons.review_last", number=1)
    c.review_last_hand()
    assert c.reviewing is not None  # a review shows its own buttons among the actions instead
    assert c.board_state().aside[0]["kind"] != "actions"


def test_why_before_the_computer_has_moved_says_so(keyed: None) -> None:
    matches = (against_computer(BeginnerPlayer(1), seed=seed, reviewer=small_review) for seed in range(50))
    c = next(c for c in matches if THEM not in c.hand.movers)
    c.why()
    assert c.tone == "warn" and c.message == mark("review.why.none")


def test_the_adaptive_level_moves_after_two_wins_or_two_losses_in_a_row() -> None:
    level = AdaptiveLevel("casual", levels=LEVELS)
    assert level.level == "casual"
    assert level.record("won") == "" and level.level == "casual"
    assert level.record("won") == "up" and level.level == "intermediate"
    assert level.record("won") == "" and level.record("lost") == "" and level.record("won") == ""
    assert level.level == "intermediate"  # a loss between the wins starts the count again
    assert level.record("won") == "up" and level.level == "expert"
    assert level.record("won") == "" and level.record("won") == "up_top" and level.level == "master"
    assert level.record("won") == "" and level.record("won") == "top" and level.level == "master"
    assert level.record("lost") == "" and level.record("drawn") == "" and level.record("lost") == ""
    assert level.record("lost") == "down" and level.level == "expert"
    level.record("lost")
    assert level.record("lost") == "down" and level.level == "intermediate"
    assert level.record("lost") == "" and level.record("lost") == "down" and level.level == "casual"
    level.record("lost")
    assert level.record("lost") == "down_bottom" and level.level == "beginner"
    level.record("lost")
    assert level.record("lost") == "bottom" and level.level == "beginner"
    with pytest.raises(AIError):
        level.record("win")  # the words are Match.result_for's
    with pytest.raises(AIError):
        AdaptiveLevel("grandmaster")


class Named:
    """A computer opponent that discards whenever it can, and knows its level's name."""

    def __init__(self, level: str, seed: int | None = None) -> None:
        self.level = level

    def choose(self, view: object) -> object:
        moves = view.legal_moves()  # type: ignore[attr-defined]
        return next((m for m in moves if not isinstance(m, Play)), moves[0])


def test_the_adaptive_choice_in_the_level_menu_follows_match_results(keyed: None) -> None:
    play = build_play(Named("casual"), opponent_factory=Named, level="casual", seed=1)  # type: ignore[arg-type]
    assert (mark("levels.names.adaptive"), "adaptive") in play.level_pick.options
    play.level_pick.value = "adaptive"
    assert play.adaptive is not None and play.controller.opponent.level == "casual"  # type: ignore[attr-defined]
    assert said(play.board.state["message"], "levels.adaptive.start", level=mark("levels.in_sentence.casual"))
    me = IntermediatePlayer(3)
    play.controller.hands_per_match = 1
    for number in range(2):
        play.board.act(lambda number=number: play.controller.new_match(seed=10 + number))
        while not play.controller.match.is_over:
            if play.controller.hand.is_over:
                play.board.dispatch({"type": "action", "id": "next_hand"})
                continue
            move = me.choose(play.controller.view())
            play.board.act(lambda move=move: play.controller.make(move))
        assert play.controller.match.winner == ME  # a discarding opponent loses
    assert play.adaptive.level == "intermediate"
    assert play.controller.opponent.level == "intermediate"  # type: ignore[attr-defined]
    assert said(play.board.state["message"], "levels.adaptive.up", level=mark("levels.in_sentence.intermediate"))
    play.board.act(lambda: None)  # the same finished match is counted once
    assert play.adaptive.level == "intermediate"
    play.saver.show_code()  # a saved game names the level reached, which a resumed game plays at
    assert read_game_code(html.unescape(play.saver.shown.value.split("'>")[-1].split("</textarea>")[0]),
                          LEVELS).level == "intermediate"
    play.level_pick.value = "beginner"
    assert play.adaptive is None and play.controller.opponent.level == "beginner"  # type: ignore[attr-defined]


def test_choosing_a_level_says_how_it_plays(keyed: None) -> None:
    play = build_play(Named("casual"), opponent_factory=Named, level="casual", seed=1)  # type: ignore[arg-type]
    play.level_pick.value = "master"
    message = play.board.state["message"]
    assert said(message, "play.opponent_changed", name=mark("levels.in_sentence.master"))
    assert f" {how_it_plays('master')} " in message and said(message, "play.turn_words.pick")  # then what to do


def test_how_a_level_plays_is_said_with_the_figures_that_make_it_play_so(keyed: None) -> None:
    assert said(how_it_plays("beginner"), "levels.how.beginner", percent=round(100 * BEGINNER_INSTINCT))
    assert said(how_it_plays("casual"), "levels.how.casual", percent=round(100 * CASUAL_INSTINCT))
    assert INTERMEDIATE_INSTINCT == 0 and IntermediatePlayer(1).instinct == 0  # "every move one move ahead"
    assert how_it_plays("intermediate") == mark("levels.how.intermediate")
    seconds = f"{DEFAULT_TIME_BUDGET:g}".replace(".", mark("words.decimal_point"))
    assert said(how_it_plays("expert"), "levels.how.expert", turns=EXPERT_TURNS, seconds=seconds)
    assert said(how_it_plays("master"), "levels.how.master", turns=MASTER_TURNS, seconds=seconds)
    assert ExpertPlayer(1).turns == EXPERT_TURNS and MasterPlayer(1).turns == MASTER_TURNS
    assert ExpertPlayer(1).time_budget == MasterPlayer(1).time_budget == DEFAULT_TIME_BUDGET
    with pytest.raises(AIError, match="unknown level"):
        how_it_plays("grandmaster")


def test_background_slices_run_on_the_event_loop_while_idle_and_stop_when_done() -> None:
    left = [5]
    calls: list[float] = []

    def work(seconds: float) -> bool:
        calls.append(seconds)
        left[0] -= 1
        return left[0] > 0

    idle = Background(work, slice_seconds=0.01, pause=0.0, quiet=0.0)
    in_own_thread(idle.poke)
    assert not idle.scheduled and not calls  # no running loop: nothing happens until asked
    now = [0.0]

    async def run() -> None:
        background = Background(work, slice_seconds=0.01, pause=0.0, quiet=0.002, clock=lambda: now[0])
        background.poke()
        assert background.scheduled
        await asyncio.sleep(0.05)
        assert not calls and background.scheduled  # the clock has not moved: still within the quiet time
        now[0] = 1.0
        for _ in range(200):
            await asyncio.sleep(0.005)
            if not background.scheduled:
                break
        assert background.slices == 5 and not background.scheduled and left == [0]
        background.poke()
        now[0] = 2.0
        for _ in range(200):
            await asyncio.sleep(0.005)
            if not background.scheduled:
                break
        assert background.slices == 6  # poked again: one more slice, which finds nothing left

    in_own_thread(lambda: asyncio.run(run()))
    assert calls[:5] == [0.01] * 5


def test_the_play_controller_refines_its_review_in_the_background() -> None:
    async def run() -> None:
        c = controller(seed=6)
        play_to(c, moves=4)
        c.background.quiet = 0.0
        c.background.pause = 0.0
        c.background.poke()
        assert c.reviewer.pending > 0
        for _ in range(400):
            await asyncio.sleep(0.005)
            if not c.reviewer.pending:
                break
        assert c.reviewer.pending == 0 and c.reviewer.review().complete

    in_own_thread(lambda: asyncio.run(run()))


def test_a_failing_slice_is_logged_and_stops_the_background_work(caplog: pytest.LogCaptureFixture) -> None:
    def broken(_seconds: float) -> bool:
        raise RuntimeError("boom")

    async def run() -> Background:
        background = Background(broken, pause=0.0, quiet=0.0)
        background.poke()
        for _ in range(100):
            await asyncio.sleep(0.005)
            if background.slices:
                break
        await asyncio.sleep(0.02)
        return background

    background = in_own_thread(lambda: asyncio.run(run()))
    assert background.slices == 1 and not background.scheduled
    assert "background work failed" in caplog.text
