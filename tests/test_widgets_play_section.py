"""The Play section's ordinary controls and panels, in plain pytest (no kernel)."""

from __future__ import annotations

import html
import json
from typing import Any

from board_states import cards_shown
from keyed import mark, said

from leopard_tutor.ai.players import how_it_plays
from leopard_tutor.engine import RULE_SETS, Discard, Match, Move, PlayerView
from leopard_tutor.engine.game_code import game_code, read_game_code
from leopard_tutor.engine.turns import apply_move
from leopard_tutor.protocol import LEVELS
from leopard_tutor.table import PassingDevice, Playing, Table, sentences
from leopard_tutor.widgets import PlaySection, build_play
from leopard_tutor.widgets.board import FOCUS_TABLE


class Discarder:
    """Always discards its first card (or does the only thing left)."""

    def __init__(self, name: str = "beginner", seed: int | None = None) -> None:
        self.name = self.level = name  # (the level it stands for, as the players of `ai.players` say theirs)
        self.seed = seed

    def choose(self, view: PlayerView) -> Move:
        moves = view.legal_moves()
        return next((m for m in moves if isinstance(m, Discard)), moves[0])


def section(**kwargs: object) -> PlaySection:
    return build_play(Discarder(), opponent_factory=Discarder, seed=11, **kwargs)  # type: ignore[arg-type]


def panels(play: PlaySection) -> dict[str, dict[str, Any]]:
    """The board's side column, by kind of panel."""
    return {panel["kind"]: panel for panel in play.board.state["aside"]}


def people_with_a_move(play: PlaySection) -> Any:
    """Two people at this device chosen, and the first of them has moved: their table."""
    play.level_pick.value = "people"
    people = play.controller
    people.handle({"type": "action", "id": "show_hand"})
    people.make(people.view().legal_moves()[0])
    return people


def under_way(play: PlaySection) -> None:
    """The learner discards until the match on the board is under way."""
    while not play.controller.begun:
        play.board.dispatch({"type": "select", "index": 0})
        play.board.dispatch({"type": "discard"})


def test_section_parts_and_panels_follow_the_game() -> None:
    play = section()
    controller = play.controller
    assert play.board in play.children
    log, sheet = panels(play)["list"], panels(play)["table"]
    assert [item["text"] for item in log["items"]] == [entry.text(0) for entry in reversed(controller.log)]
    assert sheet["head"] == ["Hand", "You", "Opponent"] and sheet["foot"] == ["Total", 0, 0] and sheet["rows"] == []
    if controller.hand.to_move == 0:
        play.board.dispatch({"type": "select", "index": 0})
        play.board.dispatch({"type": "discard"})
    assert controller.log
    log = panels(play)["list"]
    assert [item["text"] for item in log["items"]] == [entry.text(0) for entry in reversed(controller.log)]
    assert log["reversed"] and log["ordered"], "latest first, numbered"
    assert [item["class"] for item in log["items"]] == [
        "lt-by-you" if entry.mover == 0 else "lt-by-them" for entry in reversed(controller.log)]
    assert "pairs" not in panels(play), "no breakdown while the hand is in play"


def test_the_end_of_hand_breakdown_and_the_score_sheet_agree_with_the_engine() -> None:
    play = section()
    controller = play.controller
    while not controller.hand.is_over:
        if controller.hand.to_move == 0:
            play.board.dispatch({"type": "select", "index": 0})
            play.board.dispatch({"type": "discard"})
    breakdown = panels(play)["pairs"]
    mine, theirs = controller.hand.scores()
    totals = [group["rows"][-1] for group in breakdown["groups"]]
    assert totals == [["Total", mine, True], ["Total", theirs, True]]
    assert panels(play)["table"]["rows"] == [["Hand 1", mine, theirs]]
    assert any(a["id"] == "next_hand" and a["enabled"] for a in play.board.state["actions"])
    sent: list[object] = []
    play.board.send = sent.append  # type: ignore[method-assign]
    play.board.dispatch({"type": "action", "id": "next_hand"})
    assert not controller.hand.is_over and sent == [FOCUS_TABLE], "the next hand dealt: the keyboard goes to it"


def test_rules_choice_starts_a_new_match_under_those_rules(keyed: None) -> None:
    play = section()
    play.rules_pick.value = "ORIGINAL_1963"
    assert play.controller.rules.key == "ORIGINAL_1963"
    assert said(play.board.state["message"], "play.new_match", rules=mark("rules.ORIGINAL_1963")) or \
        play.controller.hand.moves
    assert [c["space"] for c in play.board.state["squares"][0]["cells"][:3]] == [7, 8, 9]
    play.rules_pick.value = "RUNNING_LEOPARD"
    assert any(a["id"] == "end_turn" for a in play.board.state["actions"])


def test_level_picker_swaps_the_opponent(keyed: None) -> None:
    play = section()
    play.level_pick.value = "expert"
    assert isinstance(play.controller.opponent, Discarder) and play.controller.opponent.name == "expert"
    changed = mark("play.opponent_changed", name=mark("levels.in_sentence.expert"))
    standing = sentences.as_it_stands(play.controller)  # what to do now, said again: the words took its place
    assert standing and play.board.state["message"] == f"{changed} {how_it_plays('expert')} {standing}"


def test_buttons_report_into_the_board() -> None:
    play = section()
    actions = {a["id"]: a for a in play.board.state["actions"]}
    assert not actions["hint"]["enabled"], "no hinter given"
    play.board.dispatch({"type": "action", "id": "hint"})
    assert play.board.state["tone"] == "warn"  # says so, in the page
    play.board.dispatch({"type": "action", "id": "undo"})
    assert play.board.state["message"]
    play.new_button.click()
    assert play.controller.match.hand_number == 1
    assert play.board.state["error"] == ""


def test_the_level_menu_lists_every_registered_level() -> None:
    from leopard_tutor.ai import make_player
    from leopard_tutor.ai.players import PLAYERS

    section = build_play(make_player("beginner", seed=1), opponent_factory=make_player, seed=1)
    assert [value for _, value in section.level_pick.options] == [*PLAYERS, "adaptive", "people"]


def test_someone_at_this_device_seats_two_people_with_their_names(keyed: None) -> None:
    play = section()
    assert play.names_row.layout.display == "none"
    play.level_pick.value = "people"
    table = play.controller
    assert play.board.controller is table and table.both_here and play.names_row.layout.display == ""
    state = play.board.state
    first = table.name(table.hand.to_move)
    assert "hand" not in state and said(state["message"], "play.people.pass", name=first)
    assert said(state["message"], "play.people.started", first=mark("play.people.default", number=1),
                second=mark("play.people.default", number=2), rules=mark(f"rules.{table.rules.key}"))
    play.names[0].value = "Ann"
    assert table.name(0) == "Ann"
    first = table.name(table.hand.to_move)
    assert said(play.board.state["message"], "play.people.renamed", number=1, name="Ann")
    assert said(play.board.state["message"], "play.people.pass", name=first)
    play.names[1].value = "B" * 25  # too long: said on the board, put back, nothing changes
    assert play.names[1].value == "" and table.name(1) == mark("play.people.default", number=2)
    assert play.board.state["message"] == mark("classmates.refused.name_too_long", most=24, length=25)
    play.names[1].value = "Bea"  # a name taken after one refused: said (the refusal is not left on the board)
    assert table.name(1) == "Bea" and said(play.board.state["message"], "play.people.renamed", number=2, name="Bea")
    play.names[1].value = "ann"  # the other's name: put back, nothing changes
    assert play.names[1].value == "Bea" and table.name(1) == "Bea"
    assert play.board.state["message"] == mark("play.people.name_taken", name="Ann")
    assert play.saver.save_button.disabled and play.saver.save_button.tooltip == mark("play.people.no_save")
    play.board.act(play.saver.show_code)  # greyed, and said on the board if sent all the same
    assert play.board.state["message"] == mark("play.people.no_save") and play.saver.shown.value == ""


def test_back_to_the_computer_from_two_people() -> None:
    play = section()
    play.level_pick.value = "people"
    play.level_pick.value = "casual"
    assert play.controller.opponent is not None and play.controller.opponent.name == "casual"  # type: ignore[attr-defined]
    assert play.names_row.layout.display == "none" and "hand" in play.board.state


def test_the_share_link_between_two_people_names_no_opponent(keyed: None) -> None:
    play = section(address=lambda: "http://example.org/")
    play.level_pick.value = "people"
    table = play.controller
    while not table.match.is_over:  # shared once their match is over
        if table.mode.kind == "passing_device":
            table.show_hand()
        elif table.hand.is_over:
            table.next_hand()
        else:
            table.make(table.view().legal_moves()[0])
    play.board.dispatch({"type": "action", "id": "pass"})  # a click after the match's end
    assert not play.share_button.disabled
    play.show_share_link()
    assert "level=" not in play.share.value and "deal=" in play.share.value
    assert said(play.share.value, "play.people.share") and not said(play.share.value, "play.share.explain")


def test_a_match_under_way_is_kept_while_two_people_play_and_taken_up_again(keyed: None) -> None:
    play = section()
    computer_table = play.controller
    while not computer_table.begun:  # the learner has moved: the match is under way
        play.board.dispatch({"type": "select", "index": 0})
        play.board.dispatch({"type": "discard"})
    moves = computer_table.hand.moves
    play.level_pick.value = "people"
    message = play.board.state["message"]
    assert play.controller is not computer_table
    assert said(message, "play.set_aside.kept", rules=mark("rules.REVISED_2008")), "its rules named: they bring it back"
    assert said(message, "play.people.started") and not said(message, "play.welcome"), "one opening, said once"
    play.level_pick.value = "casual"
    assert play.controller is computer_table and computer_table.hand.moves == moves
    assert said(play.board.state["message"], "play.set_aside.back", level=mark("levels.in_sentence.casual"))
    assert computer_table.opponent is not None and computer_table.opponent.name == "casual"  # type: ignore[attr-defined]


def test_a_match_taken_up_at_the_level_it_was_left_at_is_not_said_to_change_opponent(keyed: None) -> None:
    """A match against the beginner kept aside (two people play, or other rules are chosen) and taken up with the
    beginner chosen again: the board says it is back as it was left, and nothing of an opponent "from now on" (it had
    said that the beginner is played "from now on", as if the level had changed). Taken up with the adaptive choice,
    which starts from the beginner and says so, it does not say either."""
    for away, again in ((("level_pick", "people"), ("level_pick", "beginner")),
                        (("rules_pick", "ORIGINAL_1963"), ("rules_pick", "REVISED_2008")),
                        (("level_pick", "people"), ("level_pick", "adaptive"))):
        play = section()
        computer_table = play.controller
        under_way(play)
        assert play.level_pick.value == "beginner"
        getattr(play, away[0]).value = away[1]
        assert play.controller is not computer_table
        getattr(play, again[0]).value = again[1]
        message = play.board.state["message"]
        assert play.controller is computer_table, (away, again)
        assert said(message, "play.set_aside.back_as_left") and not said(message, "play.set_aside.back"), message
    assert said(message, "levels.adaptive.start_bottom", level=mark("levels.in_sentence.beginner"))


def test_a_match_taken_up_tells_again_the_turn_its_words_gave_way_to(keyed: None) -> None:
    """Two people chosen right after the computer's reply, then the computer again (at its level, or another): the
    board says the match is back, then that reply and what the learner drew and may do, as the turn began (the words
    telling the reply had given way to the match between people before anyone read them)."""
    for again in ("beginner", "casual"):
        play = section()
        computer_table = play.controller
        under_way(play)
        reply = computer_table.log[-1]
        assert reply.mover != computer_table.viewer
        play.level_pick.value = "people"
        assert reply.text(computer_table.viewer) not in play.board.state["message"]
        play.level_pick.value = again
        message = play.board.state["message"]
        assert play.controller is computer_table
        assert reply.text(computer_table.viewer) in message, message
        assert message.endswith(sentences.prompt(computer_table)), message


def test_other_rules_keep_a_match_under_way_and_choosing_them_again_takes_it_up(keyed: None) -> None:
    """Rules chosen in the middle of a match against the computer: it is kept (said, naming its rules) and a new match
    begins under the new rules; the first rules chosen again take it up as it was, against the level chosen now. A
    game between two people is kept the same way, and its kind and rules both bring it back."""
    play = section()
    computer_table = play.controller
    while not computer_table.begun:
        play.board.dispatch({"type": "select", "index": 0})
        play.board.dispatch({"type": "discard"})
    moves = computer_table.hand.moves
    play.rules_pick.value = "ORIGINAL_1963"
    assert play.controller is not computer_table and play.controller.rules.key == "ORIGINAL_1963"
    assert said(play.board.state["message"], "play.set_aside.kept_rules", rules=mark("rules.REVISED_2008"))
    # the new match is said with its rules, as a new match under other rules always is (it said "A new match has
    # begun." alone)
    assert said(play.board.state["message"], "play.new_match", rules=mark("rules.ORIGINAL_1963"))
    play.level_pick.value = "casual"
    play.rules_pick.value = "REVISED_2008"
    assert play.controller is computer_table and computer_table.hand.moves == moves
    assert said(play.board.state["message"], "play.set_aside.back", level=mark("levels.in_sentence.casual"))
    assert computer_table.opponent is not None and computer_table.opponent.name == "casual"  # type: ignore[attr-defined]
    play.rules_pick.value = "ORIGINAL_1963"  # the 1963 match had no move: nothing kept, a new one
    assert not said(play.board.state["message"], "play.set_aside.kept_rules", rules=mark("rules.ORIGINAL_1963"))
    assert said(play.board.state["message"], "play.set_aside.kept_rules", rules=mark("rules.REVISED_2008"))
    people = people_with_a_move(play)
    play.rules_pick.value = "RUNNING_LEOPARD"
    assert play.controller is not people and play.controller.both_here
    assert said(play.board.state["message"], "play.set_aside.kept_rules", rules=mark("rules.ORIGINAL_1963"))
    play.level_pick.value = "casual"
    play.rules_pick.value = "ORIGINAL_1963"
    assert play.controller is not people, "a computer match under 1963 rules: none kept, a new one"
    play.level_pick.value = "people"
    assert play.controller is people and said(play.board.state["message"], "play.set_aside.back_people")


def test_a_kept_match_that_gives_way_to_a_resumed_one_is_said_and_the_shared_deal_goes_with_its_table(
        keyed: None) -> None:
    """A match kept under the 2008 rules, then a saved 2008 game resumed and put aside in its place: the board says
    the first is no longer kept. A deal shared from a table is no longer shown once another table is on the board."""
    play = section()
    under_way(play)
    play.show_share_link()
    assert play.share.layout.display != "none"
    play.rules_pick.value = "ORIGINAL_1963"
    assert play.share.layout.display == "none" and play.share.value == "", "the link was the kept match's deal"
    saved = Match(seed=5)
    apply_move(saved.current, saved.current.legal_moves()[0], saved)
    play.resume(read_game_code(game_code(saved, "beginner"), LEVELS))
    resumed = play.controller
    assert resumed.rules.key == "REVISED_2008" and not said(play.board.state["message"], "play.set_aside.replaced")
    play.rules_pick.value = "ORIGINAL_1963"  # the rules of the match replaced are named: the board shows others now
    assert said(play.board.state["message"], "play.set_aside.replaced", rules=mark("rules.REVISED_2008"))
    play.rules_pick.value = "REVISED_2008"
    assert play.controller is resumed


def test_a_classmate_chosen_keeps_the_level_of_the_match_on_the_board_across_rules(keyed: None) -> None:
    """With "A classmate" in the menu (no table yet), other rules keep the board's match at its own level, and the
    rules chosen again take it up at that level; "adaptive" after a game kept says both."""
    play = build_play(Discarder("expert"), opponent_factory=Discarder, seed=11, level="expert")  # type: ignore[arg-type]
    under_way(play)
    own = play.controller
    play._opening = True  # "A classmate" without a class server: the menu only (as a class page's panel does)
    play.level_pick.options = (*play.level_pick.options, ("A classmate", "classmate"))
    play._opening = False
    play.adaptive = None
    play.level_pick.value = "classmate"
    play.rules_pick.value = "ORIGINAL_1963"
    assert play.controller.opponent.name == "expert"  # type: ignore[union-attr]
    play.rules_pick.value = "REVISED_2008"
    assert play.controller is own and own.opponent.name == "expert"  # type: ignore[union-attr]
    assert said(play.board.state["message"], "play.set_aside.back_as_left"), "at the level it was left at"
    people = people_with_a_move(play)
    play.level_pick.value = "adaptive"
    assert people in play.set_aside.values()
    message = play.board.state["message"]
    assert said(message, "play.set_aside.kept_people", choice=mark("play.people.choice"))
    assert said(message, "levels.adaptive.start_bottom", level=mark("levels.in_sentence.beginner"))


def test_another_language_carries_the_match_on_the_board_and_the_matches_kept_aside(keyed: None) -> None:
    """The app drawn again in another language builds Play anew (`place`, then `take_place`): the match begun on the
    board goes on, and a match kept under other rules is still brought back by them."""
    play = section()
    under_way(play)
    kept = play.controller
    play.rules_pick.value = "ORIGINAL_1963"
    under_way(play)
    moves = play.controller.hand.moves
    again = section()
    again.take_place(play.place())
    # the board shows it at once (the static site's page, whose browser gives back nothing kept, showed the new
    # section's fresh match: the board was never drawn again)
    shown = dict(again.board.state, seq=None)
    assert said(shown["message"], "play.saved_game.carried") and not said(shown["message"], "play.saved_game.resumed")
    assert shown == dict(again.controller.board_state().as_dict(), seq=None)
    # and it says again what the opponent did since the learner's move, and what the learner drew (a screen reader's
    # user heard only that the match went on: the last turn was in the move log alone)
    replies = [entry for entry in again.controller.log if entry.mover == 1]
    assert again.controller.log[-1].mover == 1 and replies[-1].told[0] in shown["message"]
    assert said(shown["message"], "play.turn_words.drew")
    again.keeper.storage.restore(play.keeper.storage.saved)  # the new section's keeper is given back the same
    assert again.controller.rules.key == "ORIGINAL_1963" and again.controller.hand.moves == moves
    assert list(again.set_aside) == [("computer", "REVISED_2008")], "no second copy of the match on the board"
    again.rules_pick.value = "REVISED_2008"
    assert again.controller is kept and said(again.board.state["message"], "play.set_aside.back_as_left")
    assert not said(again.board.state["message"], "play.set_aside.replaced")


def test_another_language_after_the_matchs_end_shows_it_as_it_ended(keyed: None) -> None:
    """The static site's family finished a match, then chose Spanish: the board said a new match had begun and
    retold every move of the last hand. A match played to its end is carried as it ended: its end and result."""
    play = section()
    table = play.controller
    while not table.match.is_over:
        if table.hand.is_over:
            table.next_hand()
        else:
            table.make(table.view().legal_moves()[0])
    again = section()
    again.take_place(play.place())
    message = again.board.state["message"]
    match = again.controller.match
    assert match.is_over and match.current.moves == table.match.current.moves
    assert said(message, "play.saved_game.carried_over", hands=match.hands)
    assert said(message, "play.hand_end")
    assert any(said(message, f"play.match_{end}") for end in ("won", "lost", "drawn"))
    for untrue in ("play.new_match", "play.saved_game.carried", "narration.play", "narration.discard"):
        assert not said(message, untrue), untrue


def test_another_language_before_the_first_move_keeps_the_links_deal_rules_and_opponent(keyed: None) -> None:
    """A learner who picks their language before moving (as a Spanish speaker does first) keeps the match on the
    board, the teacher's link's deal, rules and opponent with it: it was dealt anew, under the 2008 rules."""
    play = section()
    play.open_deal(rules="ORIGINAL_1963", level="casual", deal="SITE7")
    dealt = play.controller.match
    assert not play.controller.begun
    again = section()
    again.take_place(play.place())
    match = again.controller.match
    assert (match.seed, match.rules.key, again.opponent_level()) == (dealt.seed, "ORIGINAL_1963", "casual")
    assert match.current.moves == dealt.current.moves and dict(again.board.state, seq=None) == dict(
        again.controller.board_state().as_dict(), seq=None)
    # a match not begun was not left anywhere to go on from: it has begun (what a page opening in the browser's
    # language, after the server's, says: not that the match goes on where it was)
    assert said(again.board.state["message"], "play.new_match", rules=mark("rules.ORIGINAL_1963"))
    assert not said(again.board.state["message"], "play.saved_game.carried")


def test_another_language_before_the_first_move_says_who_starts_the_computers_move_and_the_card_drawn(
        keyed: None) -> None:
    """A page drawn first in the server's language (a kernel made ready before its visitor came) and then in the
    visitor's says what the first said after "a new match has begun": who moves first, the computer's opening move
    where it moved first, and the card the learner drew (it said only what to do next)."""
    starts = set()
    for seed in range(11, 40):
        play = build_play(Discarder(), opponent_factory=Discarder, seed=seed)  # type: ignore[arg-type]
        first = play.board.state["message"]
        they_start = bool(play.controller.match.current.moves)
        assert said(first, "play.they_start" if they_start else "play.you_start")
        again = section()
        again.take_place(play.place())
        opening = mark("play.new_match", rules=mark("rules.REVISED_2008"))
        assert again.board.state["message"] == first.replace(mark("play.welcome"), opening, 1)
        starts.add(they_start)
        if starts == {True, False}:
            break
    assert starts == {True, False}, "both who starts first were tried"


def test_another_language_before_the_first_move_says_again_which_matches_are_kept_aside(keyed: None) -> None:
    """Other rules chosen with a match under way: the new match's message ends by saying the old one is kept and how
    to go back to it. The page drawn in another language before the first move of the new match says all of it
    again, the kept match's note included (it was dropped), and keeps that match aside."""
    play = section()
    under_way(play)
    play.rules_pick.value = "RUNNING_LEOPARD"
    first = play.board.state["message"]
    note = mark("play.set_aside.kept_rules", rules=mark("rules.REVISED_2008"))
    assert first.endswith(note) and not play.controller.begun
    again = section()
    again.take_place(play.place())
    opening = mark("play.new_match", rules=mark("rules.RUNNING_LEOPARD"))
    assert again.board.state["message"] == first.replace(mark("play.welcome"), opening, 1)
    assert set(again.set_aside) == {("computer", "REVISED_2008")}


def test_the_sections_own_buttons_are_greyed_with_their_reason_where_the_table_does_not_offer_them(
        keyed: None) -> None:
    play = section()
    assert not play.saver.save_button.disabled and not play.share_button.disabled and not play.new_button.disabled
    play.level_pick.value = "people"
    assert play.saver.save_button.disabled and play.saver.save_button.tooltip == mark("play.people.no_save")
    assert f"<p>{mark('play.people.no_save')}</p>" in play.saver.why.value  # on the screen too, under the button
    assert play.share_button.disabled and play.share_button.tooltip == mark("play.people.share_after")
    play.board.act(play.show_share_link)  # sent all the same: said on the board, no link (it shows the other's cards)
    assert play.board.state["message"] == mark("play.people.share_after") and play.share.value == ""


def test_a_game_between_two_people_is_kept_too_while_the_computer_plays(keyed: None) -> None:
    play = section()
    people = people_with_a_move(play)
    moves = people.hand.moves
    play.level_pick.value = "casual"
    assert play.controller is not people
    assert said(play.board.state["message"], "play.set_aside.kept_people", choice=mark("play.people.choice"))
    play.level_pick.value = "people"
    assert play.controller is people and people.hand.moves == moves
    assert said(play.board.state["message"], "play.set_aside.back_people")
    play.board.dispatch({"type": "action", "id": "show_hand"})  # the next player's hand shown, mid-turn
    player = people.hand.to_move
    assert isinstance(people.mode, Playing) and "hand" in play.board.state
    play.level_pick.value = "casual"  # and the device may change hands before the match is taken up again
    play.level_pick.value = "people"
    assert play.controller is people and people.mode == PassingDevice(player), "behind the hand-over screen"
    assert "hand" not in play.board.state and people.hand.moves == moves
    assert said(play.board.state["message"], "play.people.pass", name=people.name(player))


def test_another_language_carries_the_game_between_two_people_on_the_board(keyed: None) -> None:
    """No code holds two people's hands: the table itself goes into the section built anew, names and all."""
    play = section()
    under_way(play)
    computer = play.controller
    people = people_with_a_move(play)
    play.names[0].value = "Ann"
    moves = people.hand.moves
    again = section()
    again.take_place(play.place())
    assert again.controller is people and people.hand.moves == moves
    assert again.level_pick.value == "people" and again.names_row.layout.display == ""
    assert again.names[0].value == "Ann" and "hand" not in again.board.state  # the pass screen: no hand shown
    assert said(again.board.state["message"], "play.set_aside.back_people", first="Ann")
    again.level_pick.value = "casual"
    assert again.controller is computer and said(again.board.state["message"], "play.set_aside.kept_people")


def test_another_language_carries_the_game_between_two_people_with_a_hand_shown(keyed: None) -> None:
    """A hand shown (its player pressed to see it) when the language changes: the same table goes on in the section
    built anew, the hand still shown to the one who holds the device (it became a match against the computer: an
    assertion expected every such table behind the hand-over screen)."""
    play = section()
    play.level_pick.value = "people"
    people = play.controller
    play.board.dispatch({"type": "action", "id": "show_hand"})
    shown = play.board.state["hand"]
    again = section()
    again.take_place(play.place())
    assert again.controller is people and again.controller.both_here and again.level_pick.value == "people"
    assert again.board.state["hand"]["cards"] == shown["cards"]
    assert said(again.board.state["message"], "play.set_aside.back_people")
    assert not said(again.board.state["message"], "play.people.pass")


def test_resume_is_greyed_saying_why_on_the_screen_until_its_box_holds_a_code(keyed: None) -> None:
    play = section()
    button = play.saver.resume_button
    assert button.disabled and button.tooltip == mark("play.saved_game.empty")
    assert play.saver.why.value == f"<p>{mark('play.saved_game.empty')}</p>" and play.saver.why.layout.display == ""
    play.board.act(play.saver.resume)  # sent all the same (a page behind): said on the board, nothing changes
    assert play.board.state["message"] == mark("play.saved_game.empty")
    play.saver.code.value = " LG1-"
    assert not button.disabled and button.tooltip == mark("play.saved_game.resume_tooltip")
    assert play.saver.why.value == "" and play.saver.why.layout.display == "none"  # nothing greyed: nothing said
    play.saver.code.value = "  "
    assert button.disabled and play.saver.why.layout.display == ""


def test_a_resumed_game_keeps_the_game_between_two_people_aside(keyed: None) -> None:
    play = section()
    people = people_with_a_move(play)
    play.saver.code.value = game_code(Match(seed=5), "casual")
    play.saver.resume_button.click()
    assert play.controller is not people and play.level_pick.value == "casual"
    assert play.names_row.layout.display == "none"
    assert said(play.board.state["message"], "play.saved_game.resumed")
    assert said(play.board.state["message"], "play.set_aside.kept_people", choice=mark("play.people.choice"))
    play.level_pick.value = "people"
    assert play.controller is people


def test_a_resumed_game_keeps_a_computer_match_under_other_rules_and_says_one_under_the_same_rules_ends(
        keyed: None) -> None:
    """One match against the computer is kept per rules: a resumed game under other rules leaves the match under way
    kept aside, and says so; one under the same rules takes its place, and says the match under way ends there."""
    play = section()
    under_way(play)
    first, moves = play.controller, list(play.controller.hand.moves)

    def resume(match: Match) -> str:
        play.saver.code.value = game_code(match, "casual")
        play.saver.resume_button.click()
        message: str = play.board.state["message"]
        assert said(message, "play.saved_game.resumed")
        return message

    message = resume(Match(seed=5, rules=RULE_SETS["ORIGINAL_1963"]))
    assert said(message, "play.set_aside.kept", rules=mark("rules.REVISED_2008"))
    assert not said(message, "play.set_aside.ends")
    assert play.controller is not first and list(first.hand.moves) == moves, "the match kept aside is as it was"
    under_way(play)
    message = resume(Match(seed=6, rules=RULE_SETS["ORIGINAL_1963"]))
    assert said(message, "play.set_aside.ends", rules=mark("rules.ORIGINAL_1963"))
    assert not said(message, "play.set_aside.kept")
    fresh = play.controller
    message = resume(Match(seed=7))
    assert fresh not in play.set_aside.values(), "a match with no move of the learner's is not kept"
    assert not said(message, "play.set_aside.ends") and not said(message, "play.set_aside.kept")
    play.rules_pick.value = "ORIGINAL_1963"
    play.rules_pick.value = "REVISED_2008"
    assert play.controller is first and said(play.board.state["message"], "play.set_aside.back")


def test_resuming_the_code_of_the_match_on_the_board_as_it_stands_changes_nothing(keyed: None) -> None:
    """QA: the code of the match on the board, pasted back and resumed, said that match "ends here: this one takes its
    place", of the same match. It is said to go on as it is, and nothing changes; a code of it from before its last
    move takes its place, as any other code of its rules does, and says so."""
    play = section()
    under_way(play)
    table, level = play.controller, play.opponent_level()
    play.saver.save_button.click()
    shown = play.saver.shown.value
    play.saver.code.value = play.code_of(table.match, level)
    play.saver.resume_button.click()
    assert play.board.state["message"] == mark("play.saved_game.same")
    match = table.match
    assert play.controller is table and play.controller.match is match
    assert play.saver.shown.value == shown, "nothing changed: the code shown stays"
    earlier = play.code_of(table.match, level)
    play.board.dispatch({"type": "select", "index": 0})
    play.board.dispatch({"type": "discard"})
    assert play.code_of(table.match, level) != earlier, "the match has moved on"
    play.saver.code.value = earlier
    play.saver.resume_button.click()
    assert play.controller.match is not match and play.code_of(play.controller.match, level) == earlier
    assert said(play.board.state["message"], "play.set_aside.ends", rules=mark("rules.REVISED_2008"))


def test_a_match_where_only_the_computer_has_moved_is_not_kept(keyed: None) -> None:
    """A fresh page whose computer opened the hand (a reload, say): nothing of the learner's is under way, so
    nothing is kept or said to be."""
    play = next(play for play in (build_play(Discarder(), opponent_factory=Discarder, seed=seed)  # type: ignore[arg-type]
                                  for seed in range(1, 40)) if play.controller.hand.moves)
    assert play.controller.hand.movers == (1,) * len(play.controller.hand.moves)
    play.level_pick.value = "people"
    assert not play.set_aside and not said(play.board.state["message"], "play.set_aside.kept")


def reloaded(play: PlaySection) -> PlaySection:
    """A new page of the same browser: a new section, given back what `play`'s keeper had the browser keep."""
    again = section()
    again.keeper.storage.restore(play.keeper.storage.saved)
    return again


def test_a_reload_takes_up_the_match_on_the_board_and_those_kept_aside(keyed: None) -> None:
    play = section()
    assert play.keeper.storage.saved == "", "nothing begun: nothing kept"
    under_way(play)
    kept = play.controller
    kept_moves = kept.hand.moves
    play.rules_pick.value = "ORIGINAL_1963"
    under_way(play)
    moves = play.controller.hand.moves
    again = reloaded(play)
    assert again.controller.rules.key == "ORIGINAL_1963" and again.controller.hand.moves == moves
    assert again.rules_pick.value == "ORIGINAL_1963" and said(again.board.state["message"], "play.saved_game.resumed")
    again.rules_pick.value = "REVISED_2008"
    assert again.controller.hand.moves == kept_moves
    assert said(again.board.state["message"], "play.set_aside.back_as_left"), "at the level it was kept at"


def test_a_reload_tells_again_what_the_computer_did_since_the_learners_last_move(keyed: None) -> None:
    """QA: after a reload the board said only "Game resumed", no longer what the computer had just done or which card
    the learner drew. It tells them again, as when the learner's turn began."""
    play = section()
    under_way(play)
    table = play.controller
    assert table.viewer_to_move and table.hand.movers[-1] != table.viewer, "the computer moved since"
    last = table.log[-1].text(table.viewer)
    again = section()
    again.keeper.storage.restore(play.keeper.storage.saved, this_tab=True)  # a reload of this tab
    message = again.board.state["message"]
    assert said(message, "play.saved_game.resumed") and last in message
    assert message.index(last) > message.index(mark("play.saved_game.resumed", number=1, hands=4,
                                                     rules=mark("rules.REVISED_2008"),
                                                     level=mark("levels.in_sentence.beginner")))
    assert "⟦play.turn_words.drew|" in message


def people_under_way(play: PlaySection, names: tuple[str, str] = ("Ana", "Ben")) -> Table:
    """Two named people at this device chosen, and each has moved through the board (the browser keeps it): their
    table, behind the hand-over screen again."""
    for field, name in zip(play.names, names):
        field.value = name
    play.level_pick.value = "people"
    table = play.controller
    for _ in range(2):
        play.board.dispatch({"type": "action", "id": "show_hand"})
        play.board.dispatch({"type": "select", "index": 0})
        play.board.dispatch({"type": "discard"})
    assert isinstance(table.mode, PassingDevice) and len(table.hand.movers) >= 2
    return table


def test_a_reload_takes_up_a_game_between_two_people_behind_the_hand_over_screen(keyed: None) -> None:
    """A game between two people under way comes back from a reload where it was, with its names, and shows no hand
    until its player asks (it was lost: only matches against the computer were kept)."""
    play = section()
    people = people_under_way(play)
    again = reloaded(play)
    table = again.controller
    assert table.both_here and table.hand.moves == people.hand.moves and again.level_pick.value == "people"
    assert [table.name(0), table.name(1)] == ["Ana", "Ben"] and [field.value for field in again.names] == ["Ana", "Ben"]
    assert table.mode == PassingDevice(people.hand.to_move)
    message = again.board.state["message"]
    assert cards_shown(table.board_state()) == ()
    assert said(message, "play.set_aside.back_people", first="Ana", second="Ben")
    assert said(message, "play.people.pass", name=table.name(people.hand.to_move))
    again.board.dispatch({"type": "action", "id": "show_hand"})
    assert cards_shown(table.board_state()) == tuple(str(card) for card in table.hand.held[people.hand.to_move])


def test_a_reload_before_the_first_move_keeps_two_people_and_their_names(keyed: None) -> None:
    """Two people chose to play each other and typed their names, and reload before anyone moves: the same deal comes
    back between them behind the hand-over screen (the QA's case: a match against the computer was dealt instead,
    the Opponent menu back on the first level)."""
    play = section()
    for field, name in zip(play.names, ("Ana", "Ben")):
        field.value = name
    play.level_pick.value = "people"
    people = play.controller
    assert people.both_here and not people.begun
    again = reloaded(play)
    table = again.controller
    assert table.both_here and again.level_pick.value == "people" and not table.hand.moves
    assert table.match.seed == people.match.seed and [table.name(0), table.name(1)] == ["Ana", "Ben"]
    assert table.mode == PassingDevice(people.hand.to_move) and cards_shown(table.board_state()) == ()
    assert said(again.board.state["message"], "play.set_aside.back_people", first="Ana", second="Ben")


def test_a_game_between_two_people_kept_aside_comes_back_aside(keyed: None) -> None:
    """Set aside for a match against the computer, the game between two people is kept aside by a reload too, and
    choosing "Someone here" takes it up behind the hand-over screen; where the page was opened by a link asking for an
    opponent, the game on the board waits aside likewise, and the board says how to take it up."""
    play = section()
    people = people_under_way(play)
    play.level_pick.value = "casual"
    under_way(play)
    again = reloaded(play)
    assert not again.controller.both_here and again.controller.hand.moves == play.controller.hand.moves
    again.level_pick.value = "people"
    assert again.controller.hand.moves == people.hand.moves and isinstance(again.controller.mode, PassingDevice)
    linked = section()
    people = people_under_way(linked)
    again = section()
    again.open_deal(level="expert")  # (a link's ?level=expert)
    again.keeper.storage.restore(linked.keeper.storage.saved)
    assert not again.controller.both_here
    assert again.set_aside[("people", "REVISED_2008")].hand.moves == people.hand.moves
    assert said(again.board.state["message"], "play.set_aside.kept_people", rules=mark("rules.REVISED_2008"))


def test_a_game_between_two_people_that_cannot_be_read_changes_nothing(keyed: None) -> None:
    """A kept game between two people whose code or names a page cannot take (a name refused, two names alike, a
    code of another kind) is logged and changes nothing."""
    play = section()
    people_under_way(play)
    kept = json.loads(play.keeper.storage.saved)
    game = kept["people"]["board"]
    for bad in ({**game, "names": ["Ana", "ana"]}, {**game, "names": ["x" * 200, ""]}, {**game, "names": "Ana"},
                {**game, "code": "LG1-xyz"}, {**game, "code": play.code_of(play.controller.match, "beginner")}, 5):
        again = section()
        table, message = again.controller, again.board.state["message"]
        again.keeper.storage.restore(json.dumps({**kept, "people": {"board": bad, "aside": {}}}))
        assert again.controller is table and again.board.state["message"] == message and not again.set_aside


def test_a_new_tab_leaves_the_matches_another_open_tab_holds_and_says_so(keyed: None) -> None:
    """Two tabs going on with two copies of one match answered one move two ways: a new tab whose page says another
    open tab holds what the browser kept (`held`) takes up nothing, says so over its own fresh deal, and keeps nothing
    of the other's; a kept level alone, with no match, is not said to be a match."""
    play = section()
    under_way(play)
    again = section()
    table, hand = again.controller, again.controller.hand.moves
    again.keeper.storage.restore(play.keeper.storage.saved, held=True)
    assert again.controller is table and again.controller.hand.moves == hand and not again.set_aside
    assert said(again.board.state["message"], "play.saved_game.held_elsewhere")
    assert again.keeper.storage.saved == "", "the other tab's matches are not written back as this one's"
    level_only = section()
    message = level_only.board.state["message"]
    level_only.keeper.storage.restore('{"board":null,"aside":{}}', held=True)  # (read: no match in it)
    assert level_only.board.state["message"] == message
    reload = section()  # a reload of the tab that holds them is never told another holds them: they are its own
    reload.keeper.storage.restore(play.keeper.storage.saved, this_tab=True, held=True)
    assert reload.controller.hand.moves == play.controller.hand.moves


def test_what_a_browser_gives_back_that_is_not_kept_matches_changes_nothing(keyed: None) -> None:
    for bad in ("{", "[]", '{"board": 5, "aside": {}}', '{"board": null, "aside": {"x": "LT1-xyz"}}', "x" * 30,
                "[" * 19_000):  # nested past the JSON reader's depth (the storage takes 20,000 characters)
        again = section()
        table, message = again.controller, again.board.state["message"]
        again.keeper.storage.restore(bad)
        assert again.controller is table and again.board.state["message"] == message and not again.set_aside


def test_a_kept_match_waits_aside_when_another_is_begun_or_two_people_play(keyed: None) -> None:
    play = section()
    under_way(play)
    moves = play.controller.hand.moves
    again = section()
    people = people_with_a_move(again)
    again.keeper.storage.restore(play.keeper.storage.saved)
    assert again.controller is people and again.set_aside[("computer", "REVISED_2008")].hand.moves == moves
    again.level_pick.value = "casual"
    assert again.controller.hand.moves == moves and said(again.board.state["message"], "play.set_aside.back")


def test_a_shared_deals_page_reloaded_goes_on_where_the_deal_was(keyed: None) -> None:
    """A student who reloads the page of a teacher's deal link mid-hand finds their hand as it was, whether the
    browser gives the match back after the link's deal is dealt or before (the new deal dealt afresh used to stay,
    and the hand played was lost)."""
    play = section()
    play.open_deal(rules="ORIGINAL_1963", level="expert", deal="ABC123")
    under_way(play)
    moves = play.controller.hand.moves
    kept = play.keeper.storage.saved
    for browser_first in (False, True):
        again = section()
        if browser_first:
            again.keeper.storage.restore(kept, this_tab=True)
        again.open_deal(rules="ORIGINAL_1963", level="expert", deal="ABC123")
        if not browser_first:
            again.keeper.storage.restore(kept, this_tab=True)
        assert again.controller.hand.moves == moves and again.controller.match.seed == "ABC123"
        assert said(again.board.state["message"], "play.saved_game.resumed") and again.set_aside == {}
    for browser_first in (False, True):  # the same link in a new tab (given what the browser's tabs kept last):
        fresh = section()  # the deal from the start, and the match played on kept aside
        if browser_first:
            fresh.keeper.storage.restore(kept)
        fresh.open_deal(rules="ORIGINAL_1963", level="expert", deal="ABC123")
        if not browser_first:
            fresh.keeper.storage.restore(kept)
        assert fresh.controller.match.seed == "ABC123" and 0 not in fresh.controller.hand.movers, browser_first
        assert fresh.set_aside[("computer", "ORIGINAL_1963")].hand.moves == moves
    other = section()  # another deal's link: the match kept is kept aside, and the link's deal is on the board
    other.open_deal(rules="ORIGINAL_1963", level="expert", deal="XYZ789")
    other.keeper.storage.restore(kept)
    assert other.controller.match.seed == "XYZ789" and 0 not in other.controller.hand.movers
    assert other.set_aside[("computer", "ORIGINAL_1963")].hand.moves == moves


def test_a_links_rules_and_opponent_win_over_a_match_the_browser_kept(keyed: None) -> None:
    """A teacher's link that asks for rules and an opponent (no deal), opened in a browser that kept a match under
    other ones: the link's match is on the board and the kept one waits aside, whether the browser gives it back
    after the link is followed (it took the board, the link's choice dropped in silence) or before; the link's own
    page reloaded goes on with its match, either way."""
    play = section()
    under_way(play)
    moves, kept = play.controller.hand.moves, play.keeper.storage.saved
    for browser_first in (False, True):
        again = section()
        if browser_first:
            again.keeper.storage.restore(kept)
        again.open_deal(rules="ORIGINAL_1963", level="casual")
        if not browser_first:
            again.keeper.storage.restore(kept)
        assert again.controller.rules.key == "ORIGINAL_1963" and not again.controller.begun, browser_first
        assert again.level_pick.value == "casual"
        assert again.set_aside[("computer", "REVISED_2008")].hand.moves == moves
    linked = section()
    linked.open_deal(rules="ORIGINAL_1963", level="casual")
    under_way(linked)
    moves, kept = linked.controller.hand.moves, linked.keeper.storage.saved
    for browser_first in (False, True):
        again = section()
        if browser_first:
            again.keeper.storage.restore(kept, this_tab=True)
        again.open_deal(rules="ORIGINAL_1963", level="casual")
        if not browser_first:
            again.keeper.storage.restore(kept, this_tab=True)
        assert again.controller.hand.moves == moves and again.set_aside == {}, browser_first


def test_new_match_asks_first_where_it_would_end_a_match_under_way(keyed: None) -> None:
    """Before the learner's first move New match deals at once; once the match is under way it asks first: Keep
    playing changes nothing, Start a new match deals one; the question goes once nothing under way would end."""
    play = section()
    first = play.controller.match
    play.new_button.click()
    assert play.controller.match is not first and not play.new_question.asked, "nothing under way: at once"
    under_way(play)
    match, moves = play.controller.match, len(play.controller.hand.moves)
    play.new_button.click()
    assert play.new_question.asked and play.controller.match is match
    assert play.new_question.words.value == mark("play.new_match_question.asked")
    play.new_question.keep_button.click()
    assert not play.new_question.asked
    assert play.controller.match is match and len(play.controller.hand.moves) == moves, "kept as it was"
    play.new_button.click()
    sent: list[object] = []
    play.board.send = sent.append  # type: ignore[method-assign]
    play.new_question.start_button.click()
    assert not play.new_question.asked and play.controller.match is not match
    assert FOCUS_TABLE in sent, "the keyboard goes to the new match's table (its button went with the question)"
    assert play.controller.match.hand_number == 1 and not play.controller.begun
    under_way(play)
    play.new_button.click()
    assert play.new_question.asked
    play.rules_pick.value = "ORIGINAL_1963"  # other rules: the match is kept aside, a new one is not under way
    assert not play.new_question.asked, "the question no longer holds"


def test_a_links_deal_is_dealt_again_for_the_opponent_chosen_before_anyone_moves(keyed: None) -> None:
    """A shared deal's link gives the deal, and its opener chooses the opponent: two people here chosen before the
    first move play that deal (not a fresh one), and so does the computer chosen again; once someone has moved, the
    next match of the other kind is a fresh deal."""
    play = section()
    play.open_deal(rules="ORIGINAL_1963", deal="SITE7")
    dealt = Match(play.controller.rules, "SITE7").current  # (as dealt: the computer may have moved first)
    play.level_pick.value = "people"
    people = play.controller
    assert people.both_here and (people.match.seed, people.rules.key) == ("SITE7", "ORIGINAL_1963")
    hand = people.hand
    assert (hand.held, hand.squares, hand.stock_size) == (dealt.held, dealt.squares, dealt.stock_size)
    play.level_pick.value = "casual"
    again = play.controller
    assert again.opponent is not None and (again.match.seed, again.rules.key) == ("SITE7", "ORIGINAL_1963")
    assert set(dealt.held[0]) <= set(again.hand.held[0]) and again.hand.dealer == dealt.dealer  # (+ the card drawn)
    under_way(play)
    play.level_pick.value = "people"  # the link's match is under way: kept aside, and two people get a fresh deal
    assert play.controller.both_here and play.controller.match.seed != "SITE7"
    play.level_pick.value = "casual"  # the link's match taken up again where it was
    assert play.controller is again


def test_a_fresh_deal_is_not_dealt_again_for_another_kind_of_opponent() -> None:
    play = section()
    dealt = play.controller.match
    play.level_pick.value = "people"
    assert play.controller.match.seed != dealt.seed


def test_the_shared_link_has_a_copy_button_while_it_is_shown(keyed: None) -> None:
    """Share this deal shows the link with a button that copies it (its value on the page before the press, as a
    browser allows copying only in the click); the board says whether the browser let it; the button goes with the
    link."""
    play = section(address=lambda: "http://example.org/")
    assert play.share_copy.layout.display == "none"
    play.show_share_link()
    assert play.share_copy.layout.display == "" and play.share_copy.value.startswith("http://example.org/?deal=")
    assert html.escape(play.share_copy.value) in play.share.value
    play.share_copy.on_copied(True)
    assert play.board.state["message"] == mark("play.share.copied")
    play.share_copy.on_copied(False)
    assert play.board.state["message"] == mark("play.share.not_copied")
    play.new_match()
    assert play.share_copy.layout.display == "none"
