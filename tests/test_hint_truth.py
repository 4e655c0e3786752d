"""Every claim a hint makes about the position is checked here against the engine, independently.

Hints record each sentence they use as a fact (its key and the values filled in) and the claims it
makes (`engine/claims.py`). For random positions in all three rule sets, the last turns of a hand
included, every legal move is explained; each fact is checked by recomputing it from the engine
(values, lines, who leads, what could mend a broken line, how many jacks are left), each claim must
hold, and what a claim says about turns to come (the opponent has another turn, you have a next turn)
is checked by playing the hand on with the real cards. Reasons for every illegal try are checked too.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from keyed import said
from positions import random_hand

from leopard_tutor.ai.hints import Hint, explain
from leopard_tutor.ai.why import why
from leopard_tutor.engine import (
    ALL_CARDS,
    LINES,
    RULE_SETS,
    Card,
    Discard,
    EndTurn,
    GoOut,
    Hand,
    Move,
    Play,
    PlayerView,
    RuleSet,
    Square,
    check_play,
    hand_score,
    scoring_lines,
    square_value,
)
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.claims import NextTurn, OpponentCanLay

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


def check_gains_many(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """"It makes {count} of their (your) lines score, so their (your) square goes from A to B": that many lines rise,
    and the square played on is worth A before and B after."""
    before, after = squares(view, move)
    rising = [spaces for spaces in LINES if points(after, view.rules, spaces) > points(before, view.rules, spaces)]
    assert v["count"] == len(rising) > 1
    values = square_value(before, view.rules), square_value(after, view.rules)
    whose = "mine" if move.square_owner == view.player else "theirs"
    assert (v[f"{whose}_before"], v[f"{whose}_after"]) == values


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


def check_spoils_lines(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """"It takes space S of their square, which their LINES needed (each one card from P points): while your CARD shows
    there, none of their cards from ace to ten can go on it": each line named has the move's space as its one open
    space, some card there would have made it pay its P, it pays less once the card lies there, and no card from ace
    to ten may go on that space now, for either player."""
    before, after = squares(view, move)
    assert not own(view, move) and v["space"] == move.space and names(v, move.card)
    assert after.showing(move.space) == move.card
    assert not any(check_play(card, after, move.space, own=mine).legal
                   for card in ALL_CARDS if card.rank <= 10 for mine in (True, False))
    named = [spaces for spaces in LINES if view.rules.line_name(spaces) in v["lines"]]
    assert len(named) == v["count"] > 0
    for spaces in named:
        worth = next(p for p in (3, 2, 1) if one_card_short(before, view.rules, spaces, p))
        assert move.space in spaces and points(after, view.rules, spaces) < worth
        assert text("hints.spoiled", line=view.rules.line_name(spaces), points=worth) in v["lines"]


def check_spoils_at_cost(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """The lines it blocks (`check_spoils_lines`), and the price: their LINE now scores, their square from A to B."""
    check_spoils_lines(view, move, v)
    before, after = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert points(after, view.rules, spaces) > points(before, view.rules, spaces) == 0
    values = square_value(before, view.rules), square_value(after, view.rules)
    assert (v["theirs_before"], v["theirs_after"]) == values
    assert not [other for other in LINES if other != spaces
                and points(after, view.rules, other) > points(before, view.rules, other)], "one line scores"


def check_spoils_at_cost_many(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    check_spoils_lines(view, move, v)
    check_gains_many(view, move, {**v, "count": v["scoring"]})


def check_spoils_to(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """"It blocks their LINE, which was one card from P points: it scores N instead" (0 < N < P)."""
    before, after = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert one_card_short(before, view.rules, spaces, v["points"])
    assert 0 < points(after, view.rules, spaces) == v["now"] < v["points"] and not after.is_open(move.space)


def check_near(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, _ = squares(view, move)
    assert one_card_short(before, view.rules, line_spaces(view.rules, v["line"]), v["points"])


def check_scores_now(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, _ = squares(view, move)
    assert points(before, view.rules, line_spaces(view.rules, v["line"])) == v["points"] > 0


def names(v: dict[str, Any], card: Card) -> bool:
    """Whether the facts `v` name `card`: by its bare name (`card`, after "your") or with its article (`the_card`)."""
    return ("card" in v or "the_card" in v) and v.get("card", card.name) == card.name and v.get(
        "the_card", card.the_name) == card.the_name


def check_values(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    me = view.player
    assert (v["mine_before"], v["theirs_before"]) == (view.value(me), view.value(1 - me))


def check_named(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    assert v["space"] == move.space and names(v, move.card)


def values_after(view: PlayerView, move: Any) -> tuple[int, int]:
    """(mine, theirs) once `move` is made."""
    me = view.player
    if not isinstance(move, Play):
        return view.value(me), view.value(1 - me)
    _, after = squares(view, move)
    if own(view, move):
        return square_value(after, view.rules), view.value(1 - me)
    return view.value(me), square_value(after, view.rules)


def check_change(side: str, goes: bool) -> Check:
    def check(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
        index = 0 if side == "mine" else 1
        before = (view.value(view.player), view.value(1 - view.player))[index]
        assert v["before"] == before and v["after"] == values_after(view, move)[index]
        assert (v["before"] != v["after"]) == goes
    return check


def check_unchanged(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    assert values_after(view, move) == (view.value(view.player), view.value(1 - view.player))


def check_drop(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, after = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert points(before, view.rules, spaces) == v["before"] > points(after, view.rules, spaces) == v["after"] > 0


def check_stops(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    check_loss(view, move, v)
    _, after = squares(view, move)
    assert points(after, view.rules, line_spaces(view.rules, v["line"])) == 0


def can_still_score(view: PlayerView, square: Square, spaces: tuple[int, int, int]) -> bool:
    """Some cards not yet in sight of the public, laid by the square's owner on the line's open spaces one
    each, would make it score (its face-up cards are of one colour)."""
    shown = [card for card in (square.showing(s) for s in spaces) if card is not None]
    open_spaces = [s for s in spaces if square.is_open(s)]
    if not open_spaces or len({card.color for card in shown}) > 1:
        return False
    pool = set(view.hand) | set(view.unseen())
    return any(all(any(card.color == colour and check_play(card, square, s, own=True).legal
                       and card.rank not in (11, 12) for card in pool) for s in open_spaces)
               for colour in ({card.color for card in shown} or {"red", "black"}))


def check_live_after(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert move.space in spaces and can_still_score(view, after, spaces)


def check_live_before(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, _ = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert move.space in spaces and can_still_score(view, before, spaces)


def check_starts(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    check_live_after(view, move, v)
    _, after = squares(view, move)
    assert all(after.is_open(s) for s in line_spaces(view.rules, v["line"]) if s != move.space)


def check_fills(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    assert own(view, move) and v["space"] == move.space
    _, after = squares(view, move)
    assert after.showing(move.space) == move.card
    assert not any(check_play(card, after, move.space, own=False).legal for card in ALL_CARDS if card.rank != 11)


def check_cover_own(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, after = squares(view, move)
    shown = before.showing(move.space)
    assert own(view, move) and shown is not None and after.is_open(move.space)
    assert v.get("card", shown.name) == shown.name and v.get("space", move.space) == move.space


def laid(by_other: bool, check: Callable[[PlayerView, Any, dict[str, Any]], None]) -> Callable[..., None]:
    """`check`, and the card on top of the move's space was laid by the square's other player (`by_other`: a card
    laid to block its owner) or by its owner."""
    def checked(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
        check(view, move, v)
        before, _ = squares(view, move)
        assert before.laid_by_other(move.space)[-1] == by_other, "whose card it hides"
    return checked


def plays_gain(view: PlayerView) -> bool:
    """Whether some play raises the player's square or lowers the other's; in Running Leopard, some plays one after
    another in this turn (every order of the cards held, walked here by the view's legal moves). A play's legality and
    effect read only the square it goes on, so the plays on each square are walked apart."""
    me = view.player
    for owner in (me, 1 - me):
        before, sign = view.value(owner), 1 if owner == me else -1
        looked: set[str] = set()
        waiting = [view]
        while waiting:
            at = waiting.pop()
            for play in at.legal_moves():
                if not isinstance(play, Play) or play.square_owner != owner:
                    continue
                after = at.squares[owner].with_card(play.card, play.space, by_other=owner != me)
                if sign * (square_value(after, at.rules) - before) > 0:
                    return True
                held = list(at.hand)
                held.remove(play.card)
                seen = f"{after}|{sorted(card.code for card in held)}"
                if at.rules.multiple_plays and seen not in looked:
                    looked.add(seen)
                    laid = (after, at.squares[1]) if owner == 0 else (at.squares[0], after)
                    sizes = (len(held), at.hand_sizes[1]) if me == 0 else (at.hand_sizes[0], len(held))
                    waiting.append(replace(at, squares=laid, hand=tuple(held), plays_made=at.plays_made + 1,
                                           hand_sizes=sizes))
    return False


def check_no_play_gains(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    assert not plays_gain(view)


def check_some_play_gains(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    assert plays_gain(view)


def jacks_left(view: PlayerView) -> int:
    known_down = sum(1 for square in view.squares for s in range(1, 10) for face, _ in square.pile(s)
                     if not isinstance(face, Card) and face.jack_only)
    return max(0, sum(1 for card in view.unseen() if card.rank == 11) - known_down)


def check_jack_count(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    assert v["count"] == jacks_left(view)


def check_jacks_to_fear(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """"Waiting would give your opponent a turn to cover one of your cards: up to N jacks ...", said for going out:
    a reason for it, so some jack is still unseen."""
    check_jack_count(view, move, v)
    assert v["count"] > 0, "no jack left to fear is no reason to go out"


def check_no_jacks(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """"Against going out: every jack is accounted for": said only of going out, with no jack unseen."""
    assert isinstance(move, GoOut) and jacks_left(view) == 0


def check_their_line(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """"If the hand goes on, ... their LINE is one card from P points, which a card still unseen could complete",
    said for going out: some unseen card the opponent may lay on that line's one open space makes it pay P."""
    assert isinstance(move, GoOut)
    theirs = view.squares[1 - view.player]
    spaces = line_spaces(view.rules, v["line"])
    open_spaces = [s for s in spaces if theirs.is_open(s)]
    assert len(open_spaces) == 1 and one_card_short(theirs, view.rules, spaces, v["points"])
    assert any(check_play(card, theirs, open_spaces[0], own=True).legal and card.rank not in (11, 12)
               and points(theirs.with_card(card, open_spaces[0]), view.rules, spaces) == v["points"]
               for card in view.unseen())


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
    restoring = [card for card in view.unseen() if card.rank in layable and any(  # of the right suit or colour
        points(after.with_card(card, move.space), view.rules, s) > 0 for s in broken)]
    assert v["count"] == len(restoring)


def check_clash(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert move.space in spaces
    colours = {card.color for card in (after.showing(s) for s in spaces) if card is not None}
    assert len(colours) == 2


def check_blocker(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """"Their LINE can be completed on space S only once your CARD there is covered": the card shows there, on a
    space of that line, and no card from ace to ten may go on it."""
    _, after = squares(view, move)
    assert after.showing(move.space) == move.card and names(v, move.card) and v["space"] == move.space
    assert move.space in line_spaces(view.rules, v["line"])
    assert not any(check_play(card, after, move.space, own=True).legal for card in ALL_CARDS if card.rank <= 10)


def check_taken(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    assert after.showing(move.space) == move.card and v["space"] == move.space


def check_still_blank(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, after = squares(view, move)
    assert before.is_open(move.space) and after.is_open(move.space) and not before.is_empty(move.space)
    assert square_value(before, view.rules) == square_value(after, view.rules) and v["space"] == move.space


def check_hidden(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    before, after = squares(view, move)
    shown = before.showing(move.space)
    assert shown is not None and names(v, shown) and after.is_open(move.space)
    if "line" in v:
        check_live_before(view, move, v)


def check_reaches_out(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    assert v["value"] == square_value(after, view.rules) >= view.rules.out_threshold > view.value(view.player)


def check_stops_out(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    assert view.value(1 - view.player) >= v["threshold"] > square_value(after, view.rules)


def check_spoilers(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    _, after = squares(view, move)
    spaces = line_spaces(view.rules, v["line"])
    assert after.is_open(v["space"]) and v["space"] in spaces
    wrong = [card for card in view.unseen() if card.rank == v["space"] and card.color != move.card.color]
    assert v["count"] == len(wrong)


def check_after_plays(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """Ending a turn of plays ("you have played what helps", "no more cards"): some card was played this turn."""
    assert isinstance(move, EndTurn) and view.plays_made > 0


def check_after_plays_no_gain(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """"No further play this turn improves your position": after a play, none raises or lowers a square."""
    check_after_plays(view, move, v)
    check_no_play_gains(view, move, v)


def check_after_plays_some_gain(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """"A play could still change a square this turn": after a play, one would."""
    check_after_plays(view, move, v)
    check_some_play_gains(view, move, v)


def check_after_plays_values(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    check_after_plays(view, move, v)
    check_values(view, move, v)


def check_pass(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """A pass: ending the turn holding no card, none played this turn (not the end of a turn of plays)."""
    assert isinstance(move, EndTurn) and not view.hand and view.plays_made == 0


def check_pass_values(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    check_pass(view, move, v)
    check_values(view, move, v)


def check_pass_only(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    check_pass(view, move, v)
    assert view.value(view.player) < view.rules.out_threshold and view.legal_moves() == [move]


def check_pass_or_out(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    check_pass(view, move, v)
    assert view.value(view.player) >= view.rules.out_threshold and GoOut() in view.legal_moves()


def no_claim(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
    """A sentence that states a rule or names the move, with no claim about the position to check."""


def holding(others: bool, check: Check) -> Check:
    """`check`, said only where the player holds (`others`) or does not hold a card besides the one the move
    throws: a discard's words speak of the cards it keeps only where there are some."""
    def checked(view: PlayerView, move: Any, v: dict[str, Any]) -> None:
        assert (len(view.hand) > 1) == others, f"{len(view.hand)} cards held"
        check(view, move, v)
    return checked


CHECKS: dict[str, Check] = {
    "effect.completes": check_gain, "reason.completes": check_gain, "nudge.complete_own": check_gain,
    "effect.helps_theirs": check_gain, "reason.helps_theirs": check_gain, "nudge.helps_theirs": no_claim,
    "reason.helps_theirs_many": check_gains_many, "reason.completes_many": check_gains_many,
    "effect.loses": check_stops, "effect.breaks": check_stops, "reason.breaks": check_total_loss,
    "effect.drops": check_drop, "effect.drops_theirs": check_drop, "nudge.break_theirs": check_scores_now,
    "effect.spoils": check_spoil, "nudge.spoil_theirs": check_near, "effect.spoils_to": check_spoils_to,
    "reason.spoils": check_spoils_lines, "reason.spoils_at_cost": check_spoils_at_cost,
    "reason.spoils_at_cost_many": check_spoils_at_cost_many,
    "move.play": check_named, "move.discard": check_values, "move.end_turn": check_after_plays_values,
    "change.mine_goes": check_change("mine", True), "change.mine_stays": check_change("mine", False),
    "change.theirs_goes": check_change("theirs", True), "change.theirs_stays": check_change("theirs", False),
    "move.go_out": check_go_out_scores, "reason.go_out_ahead": check_ahead, "reason.go_out": check_not_ahead,
    "risk.mend": check_mend, "risk.cover_first": check_blocker, "reason.clash_theirs": check_clash,
    "reason.crowd_theirs": check_taken, "reason.cover_blank_theirs": check_still_blank,
    "reason.cover_blank_own": check_still_blank, "nudge.park": check_unchanged,
    "reason.cover_theirs": laid(False, check_hidden), "nudge.cover_theirs": check_hidden,
    "reason.cover_own_blocker": laid(True, check_hidden),
    "reason.cover_own": laid(False, check_cover_own), "nudge.cover_own": check_cover_own,
    "reason.cover_blocker": laid(True, check_cover_own),
    "effect.threatens_out": check_reaches_out, "effect.reaches_last": check_reaches_out,
    "effect.stops_out": check_stops_out,
    "risk.jacks": check_jack_count, "risk.going_out": check_jacks_to_fear,
    "risk.going_out_no_jacks": check_no_jacks, "risk.their_line": check_their_line, "risk.spoilers": check_spoilers,
    "nudge.build_own": check_live_after, "reason.builds": check_live_after, "effect.builds": check_live_after,
    "reason.starts": check_starts, "nudge.start_own": check_starts, "reason.fills": check_fills,
    "nudge.crowd_theirs": check_live_before,
    "reason.discard": holding(True, check_no_play_gains), "nudge.discard": holding(True, check_no_play_gains),
    "reason.discard_keeps": holding(True, check_some_play_gains),
    "nudge.discard_keeps": holding(True, check_some_play_gains),
    "reason.discard_least": holding(True, no_claim),  # (said where the search could not tell)
    "nudge.discard_least": holding(True, no_claim),
    "reason.discard_only": holding(False, check_no_play_gains),
    "nudge.discard_only": holding(False, check_no_play_gains),
    "reason.discard_only_keeps": holding(False, check_some_play_gains),
    "nudge.discard_only_keeps": holding(False, check_some_play_gains),
    # Claims about the turns to come only (checked by playing the hand on, in check_turn_claims).
    "risk.no_turn": no_claim, "risk.stays_broken": no_claim, "risk.going_out_last": no_claim,
    # Rule statements and pointers at the move itself: nothing about the position to verify.
    "card.card": no_claim, "space.own": no_claim,
    "space.theirs": no_claim, "space.discard": no_claim, "space.go_out": no_claim,
    "nudge.go_out": no_claim, "nudge.crowd_any": no_claim, "nudge.place_own": no_claim,
    "risk.discard": no_claim,
    # Ending a turn of plays (Running Leopard): said only once a card has been played this turn.
    "nudge.end_turn": check_after_plays_no_gain, "reason.end_turn": check_after_plays_no_gain,
    "nudge.end_turn_keeps": check_after_plays_some_gain, "reason.end_turn_keeps": check_after_plays_some_gain,
    "nudge.end_turn_later": check_after_plays, "reason.end_turn_later": check_after_plays,
    # A pass (no card held, none played this turn): said only of one, never "you have played what helps".
    "nudge.pass": check_pass, "move.pass": check_pass_values,
    "reason.pass_only": check_pass_only, "reason.pass": check_pass_or_out,
}
RANDOM_POSITIONS = 400
LATE_POSITIONS = 300
"""Per rule set: 2,100 positions in all, every legal move in each explained and checked."""
TURN_SENTENCES = {"risk.jacks", "risk.no_turn", "risk.mend", "risk.stays_broken", "risk.going_out",
                  "risk.going_out_no_jacks", "risk.their_line",
                  "risk.going_out_last", "risk.spoilers", "risk.cover_first", "effect.threatens_out",
                  "effect.reaches_last", "effect.stops_out"}
"""Sentences that say what the turns to come hold: each must carry a claim about them."""


def non_going_out(hand: Hand, rng: random.Random) -> Move:
    return rng.choice([m for m in hand.legal_moves() if not isinstance(m, GoOut)])


def played_on(hand: Hand, move: Move | None, rng: random.Random) -> Hand:
    """A copy of `hand` once the player to move has made `move` (None: any move but going out) and ended
    their turn with random moves (nobody goes out)."""
    me, copy = hand.to_move, hand.copy()
    copy.apply(move if move is not None else non_going_out(copy, rng))
    while not copy.is_over and copy.to_move == me:
        copy.apply(non_going_out(copy, rng))
    return copy


def reaches_turn_of(hand: Hand, player: int, rng: random.Random) -> bool:
    """Whether, played on at random (nobody going out), the hand comes to a turn of `player`."""
    while not hand.is_over and hand.to_move != player:
        hand.apply(non_going_out(hand, rng))
    return not hand.is_over


def check_turn_claims(hand: Hand, move: Move, claims: tuple[Any, ...], tries: int = 3) -> None:
    """What the claims say of the turns to come is what happens when the hand is played on."""
    rng = random.Random(len(hand.moves))
    me = hand.to_move
    for claim in claims:
        for _ in range(tries):
            if isinstance(claim, OpponentCanLay):
                after = played_on(hand, None if claim.waiting else move, rng)
                assert (not after.is_over and bool(after.held[1 - me])) == claim.expected, claim
            if isinstance(claim, NextTurn):
                assert reaches_turn_of(played_on(hand, move, rng), me, rng) == claim.expected, claim


def random_view(rules: RuleSet, seed: int) -> PlayerView:
    hand = random_hand(rules, seed)
    return hand.view(hand.to_move)


def late_hand(rules: RuleSet, seed: int) -> Hand:
    """A seeded hand in its last turns: played at random (nobody going out) until the stock holds at most a
    few cards, then on for a random number of moves while it lasts."""
    rng = random.Random(seed)
    hand = Hand.deal(rules, seed=seed, dealer=seed % 2)
    left = rng.randrange(0, 4)
    while hand.stock_size > left:
        hand.apply(non_going_out(hand, rng))
    for _ in range(rng.randrange(0, 12)):
        move = non_going_out(hand, rng)
        hand.apply(move)
        if hand.is_over:
            hand.undo()
            break
    return hand


def check_hint(view: PlayerView, result: Hint, hand: Hand | None = None) -> None:
    """Every fact of the hint is true of `view`, every claim holds, and (given the whole `hand`) what the
    claims say of the turns to come happens."""
    assert result.facts, "a hint records the facts its sentences were built from"
    for key, values in result.facts:
        assert key in CHECKS, f"no check for the hint sentence {key!r}: add one"
        CHECKS[key](view, result.move, values)
    for key, claims in result.claims:
        assert all(claim.holds(view, result.move) for claim in claims), (key, claims)
        if key in TURN_SENTENCES:
            assert any(isinstance(claim, (OpponentCanLay, NextTurn)) for claim in claims), key
            if hand is not None:
                check_turn_claims(hand, result.move, claims)


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_every_fact_in_every_hint_is_true_in_random_positions(rules: RuleSet) -> None:
    explained = 0
    for seed in range(RANDOM_POSITIONS):
        view = random_view(rules, seed)
        for move in view.legal_moves():
            check_hint(view, explain(view, move))
            explained += 1
    assert explained > 5000


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_every_claim_holds_in_the_last_turns_of_a_hand(rules: RuleSet) -> None:
    """Hands near their end: an empty stock, one card left, the dealer's last card, counts of zero."""
    seen_ends = explained = 0
    for seed in range(LATE_POSITIONS):
        hand = late_hand(rules, seed)
        view = hand.view(hand.to_move)
        seen_ends += view.stock_size == 0
        for move in view.legal_moves():
            check_hint(view, explain(view, move), hand)
            told = why(view, move)  # the same reason told to the other player
            CHECKS[told.fact[0].removeprefix("hints.")](view, move, told.fact[1])
            explained += 1
    assert seen_ends > 100 and explained > 2000


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
    assert "king or queen" not in jack.ladder[-1] and "a 3, a 10 or a king" in jack.ladder[-1]
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


@pytest.mark.parametrize(("mine", "gains"), [("AS . . / . . . / . . .", False), ("AH 2H . / . . . / . . .", True)])
def test_a_discard_of_the_only_card_held_speaks_of_no_other_card(keyed: None, mine: str, gains: bool) -> None:
    """With one card in hand, the hint for its discard and the review's Why neither ask which card is needed least
    nor speak of the cards kept: the QA's case, the hand's last card. The 3 of hearts completes the hearts row where
    the ace and 2 lie (a play gains), or no play of it raises a square."""
    c = Card.parse
    hand = Hand(RULE_SETS["REVISED_2008"], (Square.parse(mine), Square()), ([c("3H")], [c("3D")]), [c("8C")], [],
                0, 1)
    view = hand.view(0)
    told = explain(view, Discard(c("3H")))
    key = "discard_only_keeps" if gains else "discard_only"
    assert said(told.reason, f"hints.reason.{key}") and said(told.ladder[0], f"hints.nudge.{key}")
    check_hint(view, told)
    assert said(why(view, Discard(c("3H"))).sentence, f"review.why.reason.{key}")
    assert "least" not in told.reason + told.ladder[0] and "other" not in told.reason


def test_in_running_leopard_no_play_gains_only_where_no_plays_one_after_another_do(keyed: None) -> None:
    """Running Leopard, seed 1: no one play raises the square, but the 7 of hearts on space 7, the 4 on space 4 and the
    king on space 1 make column 1-4-7 score 3. Neither a discard nor an end of turn after the first of them says that
    no play would help (the QA's case, in both the hint and Why)."""
    hand = Hand.deal(RULE_SETS["RUNNING_LEOPARD"], seed=1, dealer=1)
    view = hand.view(0)
    c = Card.parse
    assert not any(values_after(view, play)[0] > 0 for play in view.legal_moves() if isinstance(play, Play))
    discard = next(move for move in view.legal_moves() if isinstance(move, Discard))
    told = explain(view, discard)
    assert said(told.reason, "hints.reason.discard_keeps") and said(told.ladder[0], "hints.nudge.discard_keeps")
    check_hint(view, told)
    assert said(why(view, discard).sentence, "review.why.reason.discard_keeps")
    hand.apply(Play(c("7H"), 0, 7))
    view = hand.view(0)
    told = explain(view, EndTurn())
    assert said(told.reason, "hints.reason.end_turn_keeps") and said(told.ladder[0], "hints.nudge.end_turn_keeps")
    check_hint(view, told)
    for card, space in (("4H", 4), ("KH", 1)):
        hand.apply(Play(c(card), 0, space))
    assert hand.value(0) == 3
