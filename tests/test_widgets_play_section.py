"""The Play section's ordinary controls and panels, in plain pytest (no kernel)."""

from __future__ import annotations

from leopard_tutor.engine import Discard, Move, PlayerView
from leopard_tutor.widgets import PlaySection, build_play


class Discarder:
    """Always discards its first card (or does the only thing left)."""

    def __init__(self, name: str = "beginner", seed: int | None = None) -> None:
        self.name = name
        self.seed = seed

    def choose(self, view: PlayerView) -> Move:
        moves = view.legal_moves()
        return next((m for m in moves if isinstance(m, Discard)), moves[0])


def section(**kwargs: object) -> PlaySection:
    return build_play(Discarder(), opponent_factory=Discarder, seed=11, **kwargs)  # type: ignore[arg-type]


def test_section_parts_and_panels_follow_the_game() -> None:
    play = section()
    controller = play.controller
    assert play.board in play.children
    assert "No moves yet" in play.moves.value
    assert "<tfoot><tr><th>Total</th><th>0</th><th>0</th>" in play.scores.value
    if controller.hand.to_move == 0:
        play.board.dispatch({"type": "select", "index": 0})
        play.board.dispatch({"type": "discard"})
    assert controller.log
    shown = [play.moves.value.index(entry.text.replace("'", "&#x27;")) for entry in controller.log]
    assert shown == sorted(shown, reverse=True) and "reversed" in play.moves.value  # latest first
    assert play.breakdown.value == ""


def test_rules_choice_starts_a_new_match_under_those_rules() -> None:
    play = section()
    play.rules_pick.value = "ORIGINAL_1963"
    assert play.controller.rules.key == "ORIGINAL_1963"
    assert "Original rules (1963)" in play.board.state["message"] or play.controller.hand.moves
    assert [c["space"] for c in play.board.state["squares"][0]["cells"][:3]] == [7, 8, 9]
    play.rules_pick.value = "RUNNING_LEOPARD"
    assert any(a["id"] == "end_turn" for a in play.board.state["actions"])


def test_level_picker_swaps_the_opponent() -> None:
    play = section()
    play.level_pick.value = "expert"
    assert isinstance(play.controller.opponent, Discarder) and play.controller.opponent.name == "expert"
    assert play.board.state["message"] == "Your opponent is now the expert player."


def test_buttons_report_into_the_board() -> None:
    play = section()
    play.hint_button.click()
    assert play.board.state["tone"] == "warn"  # no hinter given: says so, in the page
    play.undo_button.click()
    assert play.board.state["message"]
    play.new_button.click()
    assert play.controller.match.hand_number == 1
    assert play.board.state["error"] == ""


def test_the_level_menu_lists_every_registered_level() -> None:
    from leopard_tutor.ai import make_player
    from leopard_tutor.ai.players import PLAYERS

    section = build_play(make_player("beginner", seed=1), opponent_factory=make_player, seed=1)
    assert [value for _, value in section.level_pick.options] == [*PLAYERS, "adaptive"]
