"""The adaptive choice in the Play section: which matches it counts, and what it says when chosen (true at the
weakest and the strongest level)."""

from __future__ import annotations

import json

from keyed import mark, said
from test_widgets_play_section import Discarder

from leopard_tutor.ai.players import IntermediatePlayer
from leopard_tutor.protocol import LEVELS
from leopard_tutor.widgets import PlaySection, build_play

ME = 0


class Looker(IntermediatePlayer):
    """An opponent that looks one move ahead, named as a level: a discarding learner loses to it."""

    def __init__(self, level: str = "beginner", seed: int | None = None) -> None:
        super().__init__(seed)
        self.level = level


def section(level: str = "beginner", opponent: type = Discarder) -> PlaySection:
    play = build_play(opponent(level), opponent_factory=opponent, seed=11, level=level)
    play.controller.hands_per_match = 1  # (one hand a match: quick)
    return play


def play_out(play: PlaySection, learner: object | None = None, moves: int | None = None) -> None:
    """The learner moves through the board (an intermediate player, else a discarder) until the match is over, or
    they have made `moves` moves."""
    me = learner or IntermediatePlayer(3)
    made = 0
    while not play.controller.match.is_over and (moves is None or made < moves):
        if play.controller.hand.is_over:
            play.board.dispatch({"type": "action", "id": "next_hand"})
            continue
        move = me.choose(play.controller.view())  # type: ignore[attr-defined]
        play.board.act(lambda move=move: play.controller.make(move))
        made += 1


def new_match(play: PlaySection, seed: int) -> None:
    play.board.act(lambda: play.new_match(str(seed)))


def test_a_match_not_begun_when_adaptive_is_chosen_counts(keyed: None) -> None:
    """Adaptive chosen on a fresh page before the learner's first move (the computer may have opened): that match is
    played wholly against it and counts, so two wins, it and the next, move the opponent up, as the sentence said."""
    play = section()
    assert not play.controller.begun
    play.level_pick.value = "adaptive"
    assert not said(play.board.state["message"], "levels.adaptive.begun")
    play_out(play)
    assert play.controller.match.result_for(ME) == "won"
    assert play.adaptive is not None and play.adaptive.wins == 1
    new_match(play, 21)
    play_out(play)
    assert play.controller.match.result_for(ME) == "won"
    assert play.adaptive.level == "casual"
    assert said(play.board.state["message"], "levels.adaptive.up", level=mark("levels.in_sentence.casual"))
    assert play.controller.opponent.level == "casual"  # type: ignore[union-attr]


def test_a_match_begun_before_adaptive_is_chosen_does_not_count_and_is_said_not_to(keyed: None) -> None:
    """A match the learner had begun against the beginner when Adaptive is chosen is not an adaptive win: the sentence
    says its result does not count, and two more wins after it move the opponent up (not this one and the next)."""
    play = section()
    play_out(play, moves=2)
    assert play.controller.begun and not play.controller.match.is_over
    play.level_pick.value = "adaptive"
    assert said(play.board.state["message"], "levels.adaptive.begun")
    play_out(play)
    assert play.controller.match.result_for(ME) == "won"
    assert play.adaptive is not None and play.adaptive.wins == 0
    for seed in (21, 22):
        new_match(play, seed)
        play_out(play)
        assert play.controller.match.result_for(ME) == "won"
    assert play.adaptive.level == "casual"
    assert said(play.board.state["message"], "levels.adaptive.up", level=mark("levels.in_sentence.casual"))


def test_a_match_over_when_adaptive_is_chosen_is_not_counted(keyed: None) -> None:
    play = section()
    play_out(play)
    assert play.controller.match.result_for(ME) == "won"
    play.level_pick.value = "adaptive"
    play.board.act(lambda: None)
    assert play.adaptive is not None and play.adaptive.wins == 0
    assert not said(play.board.state["message"], "levels.adaptive.begun"), "nothing is under way to count"


def test_losses_count_the_same_way(keyed: None) -> None:
    """Two losses in a row, the first in the match on the board when Adaptive was chosen before a move, move the
    opponent down a level."""
    play = section("intermediate", Looker)
    play.level_pick.value = "adaptive"
    assert play.adaptive is not None and play.adaptive.level == "intermediate"
    for seed in (None, 31):
        if seed is not None:
            new_match(play, seed)
        play_out(play, Discarder())
        assert play.controller.match.result_for(ME) == "lost"
    assert play.adaptive.level == "casual"
    assert said(play.board.state["message"], "levels.adaptive.down", level=mark("levels.in_sentence.casual"))


def test_the_sentence_said_when_adaptive_is_chosen_is_true_at_the_weakest_and_the_strongest_level(keyed: None) -> None:
    """Chosen from the master it cannot move up, from the beginner it cannot move down: the sentence says where it
    starts is the strongest (or the gentlest) there is and which way it moves from there; in between, both ways."""
    for level, key in ((LEVELS[-1], "levels.adaptive.start_top"), (LEVELS[0], "levels.adaptive.start_bottom"),
                       (LEVELS[1], "levels.adaptive.start")):
        play = section(level)
        play.level_pick.value = "adaptive"
        message = play.board.state["message"]
        assert said(message, key, level=mark(f"levels.in_sentence.{level}")), (level, message)
        others = {"levels.adaptive.start", "levels.adaptive.start_top", "levels.adaptive.start_bottom"} - {key}
        assert not any(said(message, other) for other in others), (level, message)


def test_reaching_the_strongest_level_says_it_is_the_strongest(keyed: None) -> None:
    """Two wins that move the opponent up to the master say that it is the strongest there is (no level above)."""
    play = section(LEVELS[-2])
    play.level_pick.value = "adaptive"
    for seed in (None, 21):
        if seed is not None:
            new_match(play, seed)
        play_out(play)
        assert play.controller.match.result_for(ME) == "won"
    assert play.adaptive is not None and play.adaptive.level == LEVELS[-1]
    assert said(play.board.state["message"], "levels.adaptive.up_top", level=mark(f"levels.in_sentence.{LEVELS[-1]}"))


def test_reaching_the_weakest_level_says_it_is_the_gentlest(keyed: None) -> None:
    play = section(LEVELS[1], Looker)
    play.level_pick.value = "adaptive"
    for seed in (None, 31):
        if seed is not None:
            new_match(play, seed)
        play_out(play, Discarder())
        assert play.controller.match.result_for(ME) == "lost"
    assert play.adaptive is not None and play.adaptive.level == LEVELS[0]
    assert said(play.board.state["message"], "levels.adaptive.down_bottom",
                level=mark(f"levels.in_sentence.{LEVELS[0]}"))


def reloaded(play: PlaySection, level: str = "beginner") -> PlaySection:
    """A new page of the same tab (a reload): a new section, given back what `play`'s keeper had the browser keep."""
    again = section(level)
    again.keeper.storage.restore(play.keeper.storage.saved, this_tab=True)
    return again


def test_a_reload_keeps_the_adaptive_choice_its_level_and_its_streak(keyed: None) -> None:
    """Adaptive chosen, one match won, the next begun: a reload takes the match up against the level reached with
    Adaptive still chosen, and a win of it is the second in a row (the menu had shown the level alone, and the
    streak was lost)."""
    play = section("casual")
    play.level_pick.value = "adaptive"
    play_out(play)
    new_match(play, 21)
    play_out(play, moves=2)
    assert play.adaptive is not None and play.adaptive.wins == 1
    again = reloaded(play)
    assert again.level_pick.value == "adaptive" and again.adaptive is not None
    assert (again.adaptive.level, again.adaptive.wins) == ("casual", 1)
    assert again.controller.opponent.level == "casual"  # type: ignore[union-attr]
    assert said(again.board.state["message"], "levels.adaptive.kept", level=mark("levels.in_sentence.casual"))
    play_out(again)
    assert again.controller.match.result_for(ME) == "won"
    assert again.adaptive.level == "intermediate"
    assert said(again.board.state["message"], "levels.adaptive.up", level=mark("levels.in_sentence.intermediate"))


def test_a_reload_keeps_that_a_match_begun_before_the_choice_does_not_count(keyed: None) -> None:
    play = section()
    play_out(play, moves=2)
    play.level_pick.value = "adaptive"
    again = reloaded(play)
    assert again.adaptive is not None
    play_out(again)
    assert again.controller.match.result_for(ME) == "won" and again.adaptive.wins == 0


def test_a_reload_after_a_match_against_adaptive_ended_deals_the_next_against_it(keyed: None) -> None:
    play = section("casual")
    play.level_pick.value = "adaptive"
    play_out(play)
    again = reloaded(play)
    assert again.level_pick.value == "adaptive" and again.adaptive is not None and again.adaptive.wins == 1
    assert not again.controller.begun
    play_out(again)
    assert again.adaptive.level == "intermediate"


def test_an_adaptive_choice_kept_that_cannot_be_read_changes_nothing(keyed: None) -> None:
    for bad in ({"level": "grandmaster", "wins": 0, "losses": 0}, {"level": "casual", "wins": 2, "losses": 0},
                {"level": "casual", "wins": 1, "losses": 1}, {"level": "casual", "wins": True, "losses": 0},
                ["casual"], "casual"):
        again = section()
        again.keeper.storage.restore(json.dumps({"board": None, "aside": {}, "adaptive": bad}), this_tab=True)
        assert again.adaptive is None and again.level_pick.value == "beginner", bad


def test_another_language_keeps_the_adaptive_choice(keyed: None) -> None:
    play = section("casual")
    play.level_pick.value = "adaptive"
    play_out(play)
    new_match(play, 21)
    play_out(play, moves=2)
    again = section()
    again.take_place(play.place())
    assert again.level_pick.value == "adaptive" and again.adaptive is not None
    assert (again.adaptive.level, again.adaptive.wins) == ("casual", 1)
    play_out(again)
    assert again.adaptive.level == "intermediate"


def test_a_reload_keeps_the_level_the_menu_held_for_its_fresh_deal_and_the_match_kept_aside(keyed: None) -> None:
    """The expert chosen, a match begun under the 1963 rules and kept aside when the 2008 rules are chosen, whose
    fresh deal nobody begins: a reload deals that fresh match against the expert, the menu says so, and the match kept
    aside, taken up by choosing its rules, goes on against the expert (it went on against the first level, the menu
    having forgotten the choice). A level kept that is not one changes nothing."""
    play = section()
    play.level_pick.value = "expert"
    play.rules_pick.value = "ORIGINAL_1963"
    play_out(play, moves=2)
    play.rules_pick.value = "REVISED_2008"  # the 1963 match kept aside; a fresh 2008 deal nobody begins
    assert not play.controller.begun and play.keeper.kept_text()
    again = reloaded(play)
    assert again.level_pick.value == "expert" and not again.controller.begun
    assert again.controller.opponent.level == "expert"  # type: ignore[union-attr]
    again.rules_pick.value = "ORIGINAL_1963"
    assert again.controller.match.rules.key == "ORIGINAL_1963" and again.controller.begun
    assert again.controller.opponent.level == "expert"  # type: ignore[union-attr]
    for bad in ("grandmaster", "adaptive", 3, None):
        fresh = section()
        fresh.keeper.storage.restore(json.dumps({"board": None, "aside": {}, "level": bad}), this_tab=True)
        assert fresh.level_pick.value == "beginner" and fresh.controller.opponent.level == "beginner", bad  # type: ignore[union-attr]


def test_the_adaptive_choice_just_after_the_computers_turn_keeps_its_words(keyed: None) -> None:
    """Adaptive chosen while the computer chose its turn (its words not read yet): they stay, before the choice's."""
    play = section(opponent=Looker)
    play_out(play, moves=1)
    table = play.controller
    assert table.hand.movers[-1] == 1 and not table.hand.is_over
    told = [entry.text(ME) for entry in table.log if entry.mover == 1][-1]
    play.level_pick.value = "adaptive"
    message = play.board.state["message"]
    assert message.startswith(told)
    assert said(message, "levels.adaptive.start_bottom", level=mark("levels.in_sentence.beginner"))
