"""Every claim a hint makes about the position is checked here against the engine, independently.

Hints record each sentence they use as a fact (its key and the values filled in). For random positions
in all three rule sets, every legal move is explained and each fact is checked by recomputing it from
the engine: values, lines, who leads, what could mend a broken line. A fixed string picked by a branch
that says something untrue of the position fails here. Reasons for every illegal try are checked too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from positions import random_hand

from leopard_tutor.ai.hints import Hint, explain
from leopard_tutor.engine import (
    ALL_CARDS,
    LINES,
    RULE_SETS,
    Card,
    Hand,
    Play,
    PlayerView,
    RuleSet,
    Square,
    check_play,
    hand_score,
    scoring_lines,
    square_value,
)

Check = Callable[[PlayerView, Any, dict[str, Any]], None]


def line_spaces(rules: RuleSet, name: str) -> tuple[int, int, int]:
    return next(spaces for spaces in LINES if rules.line_name(spaces) == name)


def points(square: Square, rules: RuleSet, spaces: tuple[int, int, int]) -> int:
    return next(line.points for line in scoring_lines(square, rules) if line.spaces == spaces)


def squares(view: PlayerView, move: Play) -> tuple[Square, Square]:
    before = view.squares[move.square_owner]
    return before, before.with_card(move.card, move.space)


def own(view: PlayerView, move: Any) -> bool:
    return isinstance(move, Play) and move.square_owner == view.player


def check_gain(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, after = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert points(after, view.rules, spaces) == v["points"] > points(before, view.rules, spaces)


def check_loss(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, after = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert points(before, view.rules, spaces) == v["points"] > points(after, view.rules, spaces)


def check_total_loss(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, after = squares(view, move)
    assert square_value(before, view.rules) - square_value(after, view.rules) == v["points"]


def one_card_short(square: Square, rules: RuleSet, spaces: tuple[int, int, int], wanted: int | None) -> bool:
    """Some card laid on the line's one open space would make it pay `wanted` (or anything, if None)."""
    open_spaces = [s for s in spaces if square.is_open(s)]
    return len(open_spaces) == 1 and any(
        (paid := points(square.with_card(card, open_spaces[0]), rules, spaces)) == wanted or (wanted is None and paid)
        for card in ALL_CARDS if card.rank <= 10 or card.rank == 13)


def check_spoil(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, after = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert one_card_short(before, view.rules, spaces, v.get("points"))
    assert points(after, view.rules, spaces) == 0 and not after.is_open(move.space)


def check_near(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, _ = squares(view, move)
    assert one_card_short(before, view.rules, line_spaces(view.rules, v["line"]), v["points"])


def check_scores_now(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, _ = squares(view, move)
    assert points(before, view.rules, line_spaces(view.rules, v["line"])) == v["points"] > 0


def check_values(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    me = view.player
    assert (v["mine_before"], v["theirs_before"]) == (view.value(me), view.value(1 - me))
    if isinstance(move, Play):
        _, after = squares(view, move)
        mine = square_value(after, view.rules) if own(view, move) else view.value(me)
        theirs = view.value(1 - me) if own(view, move) else square_value(after, view.rules)
        assert (v["mine_after"], v["theirs_after"]) == (mine, theirs)
        assert v["space"] == move.space and v["card"] == move.card.name


def check_go_out_scores(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    rules, me = view.rules, view.player
    assert v["my_score"] == hand_score(view.value(me), True, rules)
    assert v["their_score"] == hand_score(view.value(1 - me), False, rules)


def check_ahead(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    check_go_out_scores(view, move, v)
    assert v["my_score"] > v["their_score"]


def check_not_ahead(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    check_go_out_scores(view, move, v)
    assert v["my_score"] <= v["their_score"]


def check_mend(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, after = squares(view, move)
    assert after.is_open(move.space) and v["space"] == move.space
    broken = [spaces for spaces in LINES if points(after, view.rules, spaces) < points(before, view.rules, spaces)]
    layable = {card.rank for card in ALL_CARDS if check_play(card, after, move.space, own=True).legal
               and card.rank not in (11, 12)}
    for word, rank in (("ace", 1), ("10", 10), ("king", 13), *((str(r), r) for r in range(2, 10))):
        assert (rank in layable) == (word in v["ranks"].replace(",", " ").split()), (word, v["ranks"])
    restoring = [card for card in view.unseen() if card.rank in layable and any(
        points(after.with_card(card, move.space), view.rules, s) >= points(before, view.rules, s) for s in broken)]
    assert v["count"] == len(restoring)


def check_clash(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert move.space in spaces
    colours = {card.color for card in (after.showing(s) for s in spaces) if card is not None}
    assert len(colours) == 2


def check_blocker(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    assert after.showing(move.space) == move.card and v["card"] == move.card.name


def check_taken(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    assert after.showing(move.space) == move.card and v["space"] == move.space


def check_still_blank(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, after = squares(view, move)
    assert before.is_open(move.space) and after.is_open(move.space) and not before.is_empty(move.space)
    assert square_value(before, view.rules) == square_value(after, view.rules)


def check_hidden(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, after = squares(view, move)
    shown = before.showing(move.space)
    assert shown is not None and shown.name == v["card"] and after.is_open(move.space)
    assert move.space in line_spaces(view.rules, v["line"])


def check_threatens_out(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    assert v["value"] == square_value(after, view.rules) >= view.rules.out_threshold > view.value(view.player)


def check_stops_out(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    assert view.value(1 - view.player) >= v["threshold"] > square_value(after, view.rules)


def check_jacks(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    assert 0 < v["count"] <= sum(1 for card in view.unseen() if card.rank == 11)


def check_no_jacks(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    known_down = sum(1 for square in view.squares for s in range(1, 10) for face, _ in square.pile(s)
                     if not isinstance(face, Card) and face.jack_only)
    assert sum(1 for card in view.unseen() if card.rank == 11) <= known_down


def check_spoilers(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert after.is_open(v["space"]) and v["space"] in spaces
    wrong = [card for card in view.unseen() if card.rank == v["space"] and card.color != move.card.color]
    assert f"({len(wrong)} unseen)" in v["cards"] and wrong


def no_claim(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """A sentence that states a rule or names the move, with no claim about the position to check."""


CHECKS: dict[str, Check] = {
    "effect.completes": check_gain, "reason.completes": check_gain, "nudge.complete_own": check_gain,
    "effect.helps_theirs": check_gain, "reason.helps_theirs": check_gain, "nudge.helps_theirs": no_claim,
    "effect.loses": check_loss, "effect.breaks": check_loss, "reason.breaks": check_total_loss,
    "nudge.break_theirs": check_scores_now,
    "effect.spoils": check_spoil, "reason.spoils": check_spoil, "nudge.spoil_theirs": check_near,
    "move.play": check_values, "move.discard": check_values, "move.end_turn": check_values,
    "move.go_out": check_go_out_scores, "reason.go_out_ahead": check_ahead, "reason.go_out": check_not_ahead,
    "risk.mend": check_mend, "risk.mend_blocker": check_blocker, "reason.clash_theirs": check_clash,
    "reason.crowd_theirs": check_taken, "reason.cover_blank_theirs": check_still_blank,
    "reason.cover_theirs": check_hidden, "nudge.cover_theirs": check_hidden,
    "effect.threatens_out": check_threatens_out, "effect.stops_out": check_stops_out,
    "risk.jacks": check_jacks, "risk.no_jacks": check_no_jacks, "risk.going_out": no_claim,
    "risk.spoilers": check_spoilers,
    # Rule statements and pointers at the move itself: nothing about the position to verify.
    "card.card": no_claim, "card.go_out": no_claim, "card.end_turn": no_claim, "space.own": no_claim,
    "space.theirs": no_claim, "space.discard": no_claim, "space.go_out": no_claim, "space.end_turn": no_claim,
    "nudge.go_out": no_claim, "nudge.end_turn": no_claim, "nudge.discard": no_claim, "nudge.cover_own": no_claim,
    "nudge.build_own": no_claim, "nudge.crowd_theirs": no_claim, "reason.builds": no_claim,
    "effect.builds": no_claim, "reason.cover_own": no_claim, "reason.discard": no_claim,
    "reason.end_turn": no_claim, "reason.play": no_claim, "risk.discard": no_claim,
}


def random_view(rules: RuleSet, seed: int) -> PlayerView:
    hand = random_hand(rules, seed)
    return hand.view(hand.to_move)


def check_hint(view: PlayerView, result: Hint) -> None:
    assert result.facts, "a hint records the facts its sentences were built from"
    for key, values in result.facts:
        assert key in CHECKS, f"no check for the hint sentence {key!r}: add one"
        CHECKS[key](view, result.move, values)


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_every_fact_in_every_hint_is_true_in_random_positions(rules: RuleSet) -> None:
    explained = 0
    for seed in range(60):
        view = random_view(rules, seed)
        for move in view.legal_moves():
            check_hint(view, explain(view, move))
            explained += 1
    assert explained > 500


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_every_reason_for_a_try_names_the_card_and_place_and_agrees_with_legality(rules: RuleSet) -> None:
    for seed in range(15):
        view = random_view(rules, seed)
        legal = set(view.legal_moves())
        for card in set(view.hand):
            for owner in (0, 1):
                for space in range(1, 10):
                    verdict = check_play(card, view.squares[owner], space, own=owner == view.player)
                    assert verdict.legal == (Play(card, owner, space) in legal or view.to_move != view.player)
                    assert card.name in verdict.reason and f"space {space} of" in verdict.reason
                    if card.rank == 10 and not verdict.legal:
                        assert "only a king can cover" not in verdict.reason


def test_the_hint_cases_found_wrong_are_true_now() -> None:
    """Issue 8, cases 1, 2 and 9, in position P."""
    c = Card.parse
    hand = Hand(RULE_SETS["REVISED_2008"], (Square(), Square.parse("AH 2H 3H / . . 6H / . . 9H")),
                ([c("JC"), c("5D")], [c("3D")]), [c("8C")], [], 0, 1)
    view = hand.view(0)
    jack = explain(view, Play(c("JC"), 1, 3))
    assert "king or queen" not in jack.ladder[-1] and "3, 10 or king" in jack.ladder[-1]
    check_hint(view, jack)
    five = explain(view, Play(c("5D"), 1, 5))
    assert "cannot help" not in five.reason and "from 6 to 7" in five.reason
    check_hint(view, five)
    behind = Hand(RULE_SETS["REVISED_2008"], (Square.parse("AS 2S 3S / 4C 5C 6C / 7D 8D 9D"),
                                               Square.parse("AH 2H 3H / 4H 5H 6H / 7H 8H 9H")),
                  ([c("4C")], [c("3D")]), [c("8C"), c("9C")], [], 0, 1)
    out = explain(behind.view(0), next(m for m in behind.view(0).legal_moves() if str(m) == "go out"))
    assert "lead" not in out.reason and "ahead" not in out.reason
    check_hint(behind.view(0), out)
