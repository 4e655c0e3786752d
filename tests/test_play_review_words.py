"""What the Play section says while a hand is reviewed: the message speaks of the move the turn line names, whatever
else is said meanwhile (an opponent chosen, the adaptive choice, a match taken up), and Next inaccuracy or worse
lands only on a move whose judgement shown is an inaccuracy or worse."""

from __future__ import annotations

import html
from dataclasses import replace

from keyed import mark, said
from test_review_play import small_review
from test_widgets_play_section import Discarder

from leopard_tutor.ai.players import IntermediatePlayer
from leopard_tutor.ai.review import HandReview, Review
from leopard_tutor.table import Reviewing, Table, against_computer
from leopard_tutor.table.drawing import mark_words, review_panels
from leopard_tutor.widgets import PlaySection

ME = 0


def reviewing(level: str = "beginner", moves: int = 4) -> PlaySection:
    """A Play section whose learner made `moves` moves, then opened the review of the hand and stepped to its second
    move."""
    table = against_computer(Discarder(level), seed=11, reviewer=small_review, background=False)
    play = PlaySection(table, Discarder, level)  # type: ignore[arg-type]
    me = IntermediatePlayer(3)
    for _ in range(moves):
        move = me.choose(play.controller.view())
        play.board.act(lambda move=move: play.controller.make(move))
    play.board.dispatch({"type": "action", "id": "review"})
    play.board.dispatch({"type": "action", "id": "review_next"})
    assert isinstance(play.controller.mode, Reviewing) and play.controller.mode.step == 1
    return play


def agree(play: PlaySection) -> str:
    """The board's turn line and message speak of the same move of the review: its judgement is said. The message."""
    session = play.controller.mode
    assert isinstance(session, Reviewing)
    state = play.board.state
    steps = len(session.review.judgements)
    assert state["turn"] == mark("review.turn", number=session.number, step=session.step + 1, steps=steps)
    judgement = session.judgement
    assert said(state["message"], "review.step", number=session.step + 1, steps=steps, mark=mark_words(judgement)), \
        state["message"]
    return str(state["message"])


def test_an_opponent_chosen_during_a_review_is_said_and_the_review_shown_still_said(keyed: None) -> None:
    play = reviewing()
    play.level_pick.value = "casual"
    message = agree(play)
    assert said(message, "play.opponent_changed", name=mark("levels.in_sentence.casual"))
    assert play.controller.opponent.level == "casual"  # type: ignore[union-attr]


def test_the_adaptive_choice_during_a_review_is_said_beside_the_review(keyed: None) -> None:
    play = reviewing("casual")
    play.level_pick.value = "adaptive"
    message = agree(play)
    assert said(message, "levels.adaptive.start", level=mark("levels.in_sentence.casual"))
    assert said(message, "levels.adaptive.begun")


def test_a_match_left_in_review_and_taken_up_again_says_so_beside_the_review(keyed: None) -> None:
    """Other rules chosen during a review keep the match aside as it was, in its review; the first rules chosen
    again take it up so, and the message says so and still speaks of the move the turn line names."""
    play = reviewing()
    reviewed = play.controller
    play.rules_pick.value = "ORIGINAL_1963"
    assert play.controller is not reviewed
    play.rules_pick.value = "REVISED_2008"
    assert play.controller is reviewed
    assert said(agree(play), "play.set_aside.back_as_left")
    play.level_pick.value = "people"
    play.level_pick.value = "casual"
    assert play.controller is reviewed
    assert said(agree(play), "play.set_aside.back", level=mark("levels.in_sentence.casual"))


def test_a_classmate_chosen_during_a_review_is_said_beside_the_review(keyed: None) -> None:
    """(On a class server: "A classmate" without one, the menu only, as a class page's panel gives it.)"""
    play = reviewing()
    play._opening = True
    play.level_pick.options = (*play.level_pick.options, ("A classmate", "classmate"))
    play._opening = False
    play.level_pick.value = "classmate"
    assert said(agree(play), "classmates.choose_kept")


def test_a_code_or_link_shown_during_a_review_is_said_beside_the_review(keyed: None) -> None:
    play = reviewing()
    play.share_button.click()
    assert said(agree(play), "play.share.ready")
    play.saver.save_button.click()
    assert said(agree(play), "play.saved_game.ready")


def test_the_table_says_what_is_not_about_the_position_beside_the_review(keyed: None) -> None:
    """`Table.tell` outside a review is `say`; in a review, the words, then the judgement shown."""
    table: Table = against_computer(Discarder(), seed=11, reviewer=small_review, background=False)
    table.tell("words")
    assert table.message == "words"
    while ME not in table.hand.movers:
        table.make(IntermediatePlayer(3).choose(table.view()))
    table.review_this_hand()
    table.tell("words")
    assert table.message.startswith("words ") and said(table.message, "review.step", number=1) and table.tone == "info"


class Scripted(HandReview):
    """A review whose marks are set by hand: move number n (from 0) is marked `provisional[n]` points lost, not final,
    until its search is taken further (`refine_move`), then `refined[n]`, final; each such search takes `seconds` of
    its own clock. Every other move is good, final."""

    def __init__(self, provisional: dict[int, float], refined: dict[int, float], seconds: float = 0.1) -> None:
        self.now = 0.0
        super().__init__(ME, deals=1, candidates=2, clock=lambda: self.now)
        self.provisional, self.refined, self.seconds = provisional, refined, seconds
        self.searched: list[int] = []

    def refine_move(self, number: int, seconds: float) -> None:
        self.searched.append(number)
        self.now += self.seconds

    def review(self) -> Review:
        judgements = list(super().review().judgements)
        for number, judgement in enumerate(judgements):
            if number in self.searched:
                judgements[number] = replace(judgement, cost=self.refined.get(number, judgement.cost), final=True)
            elif number in self.provisional:
                judgements[number] = replace(judgement, cost=self.provisional[number], final=False)
            else:
                judgements[number] = replace(judgement, cost=0.0, final=True)
        return Review(tuple(judgements), complete=False)


def scripted(review: Scripted) -> Table:
    """A table whose learner made six moves (each judged good, unless `review` marks it otherwise), reviewed from its
    first move."""
    table = against_computer(Discarder(), seed=11, reviewer=lambda _player=ME: review, background=False)
    me = IntermediatePlayer(3)
    while table.hand.movers.count(ME) < 6:
        table.make(me.choose(table.view()))
    table.review_this_hand()
    session = table.mode
    assert isinstance(session, Reviewing) and session.step == 0 and session.searching is review
    return table


def marks(table: Table) -> list[str]:
    """The review list's marks (its items' classes), in order."""
    session = table.mode
    assert isinstance(session, Reviewing)
    return [item["class"].split()[0] for item in review_panels(session)[1]["items"]]


def test_next_inaccuracy_or_worse_passes_a_move_that_is_good_searched_further(keyed: None) -> None:
    """Moves 2 and 4 (of the list) are marked inaccuracies, not final; searched further, move 2 is good and move 4 a
    mistake: the button lands on move 4, a mistake, and the list marks move 2 good (it landed on move 2, judged
    good there: "Your move 2 of 6 ...: Good")."""
    review = Scripted({1: 1.5, 3: 1.5}, {1: 0.2, 3: 3.0})
    table = scripted(review)
    assert marks(table)[1] == marks(table)[3] == "lt-review-inaccuracy"
    table.handle({"type": "action", "id": "review_mistake"})
    session = table.mode
    assert isinstance(session, Reviewing) and session.step == 3, session.step
    assert review.searched == [1, 3]
    assert session.judgement.verdict == "mistake" and session.judgement.final
    assert said(table.message, "review.step", number=4, mark=mark_words(session.judgement))
    assert marks(table)[1] == "lt-review-good" and marks(table)[3] == "lt-review-mistake"
    assert table.offers()["review_mistake"] == mark("review.no_more_mistakes")


def test_where_every_later_move_so_marked_is_good_searched_further_the_review_stays_and_says_so(
        keyed: None) -> None:
    review = Scripted({2: 1.5, 4: 2.6}, {2: 0.0, 4: 0.9})
    table = scripted(review)
    table.handle({"type": "action", "id": "review_mistake"})
    session = table.mode
    assert isinstance(session, Reviewing) and session.step == 0, "stays on the move it showed"
    assert said(table.message, "review.none_left", count=2)
    assert said(table.message, "review.step", number=1, mark=mark_words(session.judgement))
    assert all(mark_class == "lt-review-good" for mark_class in marks(table))
    assert table.offers()["review_mistake"] == mark("review.no_more_mistakes")


def test_next_inaccuracy_or_worse_searches_for_a_bounded_time_then_lands_on_a_move_marked_so_as_it_stands(
        keyed: None) -> None:
    """Each search the button makes takes a second here: it searches moves 2, 3 and 4 (its 2.5 s spent), each good,
    and lands on move 5 as it stands, marked an inaccuracy that is not final, as the list marks it."""
    review = Scripted({1: 1.5, 2: 1.5, 3: 1.5, 4: 1.5}, {1: 0.1, 2: 0.1, 3: 0.1, 4: 0.1}, seconds=1.0)
    table = scripted(review)
    table.handle({"type": "action", "id": "review_mistake"})
    session = table.mode
    assert isinstance(session, Reviewing) and session.step == 4, session.step
    assert review.searched == [1, 2, 3]
    assert session.judgement.verdict == "inaccuracy" and not session.judgement.final
    assert said(table.message, "review.step", number=5, mark=mark_words(session.judgement))
    assert marks(table)[:5] == ["lt-review-good"] * 4 + ["lt-review-inaccuracy"]


def test_a_refusal_during_a_review_is_said_beside_the_review(keyed: None) -> None:
    """A step the review does not offer (back before its first move), a card clicked on the reviewed board: each is
    refused with its reason, and the message still speaks of the move the turn line names."""
    play = reviewing()
    play.board.dispatch({"type": "action", "id": "review_prev"})
    play.board.dispatch({"type": "action", "id": "review_prev"})  # already at the first move
    message = agree(play)
    assert said(message, "review.at_first") and play.board.state["tone"] == "warn"
    play.board.dispatch({"type": "select", "index": 0})
    assert said(agree(play), "review.in_review")


def test_why_is_not_offered_during_a_review_and_asked_for_is_refused_beside_it(keyed: None) -> None:
    """The review's side column holds the review, so Why is not shown there: the table does not offer it, and a
    page that asks for it all the same is told so beside the review's words, nothing else changed."""
    play = reviewing()
    table = play.controller
    assert [panel for panel in play.board.state["aside"] if panel["kind"] == "actions"] == []
    assert table.offers()["why"] == mark("review.in_review")
    session = table.mode
    assert isinstance(session, Reviewing)
    step = session.step
    play.board.dispatch({"type": "action", "id": "why"})
    assert said(agree(play), "review.in_review") and play.board.state["tone"] == "warn"
    assert table.mode is session and session.step == step


def test_a_saved_games_code_goes_once_the_match_on_the_board_changes(keyed: None) -> None:
    """QA: Save game pressed during a review, then "Someone here" chosen: under the greyed Save game, the old
    match's code stayed, with its promise that pasting it back resumes "the match where it stands". The code and its
    sentence go once the board holds another match, or the match has moved on since (or has another opponent)."""
    play = reviewing()
    play.saver.save_button.click()
    assert "lt-saved-game-code" in play.saver.shown.value and said(play.saver.shown.value, "play.saved_game.explain")
    code = play.code_of(play.controller.match, play.opponent_level())
    assert play.saver.copy.value == code and play.saver.copy.layout.display == ""  # its Copy button, with it
    assert html.escape(code) in play.saver.shown.value
    for ok, words in ((True, "play.saved_game.copied"), (False, "play.saved_game.not_copied")):
        play.saver.copy._on_page_msg(play.saver.copy, {"type": "copied", "ok": ok}, [])  # as the page tells it
        assert said(play.board.state["message"], words)
    play.board.dispatch({"type": "action", "id": "review_next"})  # a step of the review changes nothing of the match
    assert "lt-saved-game-code" in play.saver.shown.value
    play.level_pick.value = "people"
    assert play.saver.shown.value == "" and play.saver.copy.value == "" and play.saver.copy.layout.display == "none"
    play.level_pick.value = "beginner"  # the match taken up again: its code is asked for again
    assert play.saver.shown.value == ""
    play.saver.save_button.click()
    play.level_pick.value = "casual"  # another opponent: the code named the one before
    assert play.saver.shown.value == ""
    play.board.dispatch({"type": "action", "id": "review_close"})
    play.saver.save_button.click()
    move = play.controller.view().legal_moves()[0]
    play.board.act(lambda: play.controller.make(move))
    assert play.saver.shown.value == "", "the match has moved on from where the code holds it"


def test_save_game_is_greyed_while_a_position_is_tried_again(keyed: None) -> None:
    """QA: Save game during "Try this position again" saved the real match, not the position on the screen, and said
    only that the code "resumes the match where it stands". While a position is tried again, Save game is greyed
    saying that a code keeps the match, not the try; back at the match, it works."""
    play = reviewing()
    play.board.dispatch({"type": "action", "id": "try_again"})
    assert play.controller.mode.kind == "retrying"
    assert play.controller.offers()["save"] == mark("play.saved_game.in_retry")
    assert play.saver.save_button.disabled and play.saver.save_button.tooltip == mark("play.saved_game.in_retry")
    assert f"<p>{mark('play.saved_game.in_retry')}</p>" in play.saver.why.value
    play.saver.save_button.click()  # sent all the same: said on the board, no code
    assert play.board.state["message"] == mark("play.saved_game.in_retry") and play.saver.shown.value == ""
    play.board.dispatch({"type": "action", "id": "retry_close"})
    assert not play.saver.save_button.disabled
    play.saver.save_button.click()
    assert "lt-saved-game-code" in play.saver.shown.value
