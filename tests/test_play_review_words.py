"""What the Play section says while a hand is reviewed: the message speaks of the move the turn line names, whatever
else is said meanwhile (an opponent chosen, the adaptive choice, a match taken up), and Next inaccuracy or worse
lands only on a move whose judgement shown is an inaccuracy or worse."""

from __future__ import annotations

from keyed import mark, said

from leopard_tutor.ai.players import IntermediatePlayer
from leopard_tutor.ai.review import HandReview
from leopard_tutor.engine import Discard, Move, PlayerView
from leopard_tutor.table import Reviewing, Table, against_computer
from leopard_tutor.table.drawing import mark_words
from leopard_tutor.widgets import PlaySection

ME = 0


class Discarder:
    """Always discards (or does the only thing left), named as a level."""

    def __init__(self, level: str = "beginner", seed: int | None = None) -> None:
        self.level = level

    def choose(self, view: PlayerView) -> Move:
        moves = view.legal_moves()
        return next((m for m in moves if isinstance(m, Discard)), moves[0])


def small_review(player: int = ME) -> HandReview:
    return HandReview(player, deals=1, candidates=2)


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
