"""Hints: a legal move, a reason in words, and a ladder (four rungs for a card, fewer where there is none) whose
facts agree with the engine."""

from __future__ import annotations

import pytest
from keyed import keys_in, mark, said
from positions import blocking_eight, c, prepared, random_hand

from leopard_tutor.ai import AIError, Hint, hint
from leopard_tutor.ai.hints import explain
from leopard_tutor.ai.why import why
from leopard_tutor.engine import (
    LINES,
    REVISED_2008,
    RULE_SETS,
    RUNNING_LEOPARD,
    Card,
    Discard,
    EndTurn,
    GoOut,
    Hand,
    Play,
    PlayerView,
    RuleSet,
    Square,
    hand_score,
    scoring_lines,
)
from leopard_tutor.engine.claims import mending_cards, square_after
from leopard_tutor.engine.legality import allowed_spaces


def test_king_hint_from_example_c3_names_card_space_and_values(keyed: None) -> None:
    hand = prepared("AS . 3C / 4S 5C . / 7H 8S 9S", ". . . / . . . / . . .", "KS 2D 6H 9H 4D 8H 3H 10D", "5D")
    view = hand.view(0)
    result = explain(view, Play(c("KS"), 0, 7))
    assert isinstance(result, Hint) and len(result.ladder) == 4
    nudge, card, space, move = result.ladder
    row, column = REVISED_2008.line_name((7, 8, 9)), REVISED_2008.line_name((1, 4, 7))
    assert nudge == mark("hints.nudge.complete_own", line=row, points=3)
    assert card == mark("hints.card.card", card=c("KS").name)  # (no suit symbol: a screen reader reads it out)
    assert space == mark("hints.space.own", space=7)
    assert said(move, "hints.move.play", the_card=c("KS").the_name, space=7, whose=mark("hints.whose.own"),
                mine=mark("hints.change.mine_goes", before=1, after=8),
                theirs=mark("hints.change.theirs_stays", before=0, after=0))
    assert said(move, "hints.effect.completes", line=row, points=3)
    assert said(move, "hints.effect.completes", line=column, points=3)
    assert said(move, "hints.risk.jacks")
    # three lines score (the row, the column and the diagonal 3-5-7 by colour): the reason says so, and the value they
    # make together (it said the row's 3 points alone)
    assert said(result.reason, "hints.reason.completes_many", count=3, mine_before=1, mine_after=8)


def test_jack_hint_from_example_c4_says_what_it_breaks_and_what_could_mend_it(keyed: None) -> None:
    hand = prepared("4S . . / . . . / . . .", "AH 2H 3H / . . 6H / . . 9H", "JC 2S 6C 8D 4D 5C 7S 8S", "5D 7D")
    result = hint(hand.view(0), level="intermediate")
    assert result.move == Play(c("JC"), 1, 3)
    nudge, card, space, move = result.ladder
    row, column = REVISED_2008.line_name((1, 2, 3)), REVISED_2008.line_name((3, 6, 9))
    assert nudge == mark("hints.nudge.break_theirs", line=row, points=3)
    assert said(card, "hints.card.card", card=c("JC").name)
    assert space == mark("hints.space.theirs", space=3)
    assert said(move, "hints.move.play", theirs=mark("hints.change.theirs_goes", before=6, after=0))
    assert said(move, "hints.effect.breaks", line=row) and said(move, "hints.effect.breaks", line=column)
    ranks = mark("words.a_rank.3") + mark("words.list_separator") + mark("words.a_rank.10")
    assert said(move, "hints.risk.mend", space=3,
                ranks=mark("words.or_list", first=ranks, last=mark("words.a_rank.13")))
    assert said(result.reason, "hints.reason.breaks", points=6)


def test_a_broken_suit_line_is_said_mendable_by_a_card_of_its_colour_too(keyed: None) -> None:
    """A jack breaks their hearts row: a 3, 10 or king of diamonds laid over it makes the row score again as a colour
    line, and the count of cards that could mend it says so (it counted only hearts, which give the suit line back
    whole, under words that promise "of the right suit or colour"; a player saw a hint say every such card was seen,
    and the row mended by the other suit of its colour the next turn)."""
    hand = prepared("4S . . / . . . / . . .", "AH 2H 3H / . . 6H / . . 9H", "JC 2S 6C 8D 4D 5C 7S 8S", "5D 7D")
    view = hand.view(0)
    after = square_after(view, Play(c("JC"), 1, 3), 1)
    mending = mending_cards(view, after, 3, [((1, 2, 3), 3), ((3, 6, 9), 3)])
    assert {card.suit for card in mending} == {"H", "D"}
    assert {card.rank for card in mending} == {3, 10, 13}


def test_going_out_hint_gives_both_scores(keyed: None) -> None:
    hand = prepared("AS 2S 3S / 4S 5S 6S / 7H 8D 9D", "AD 2D . / 4D 5D . / . . .", "2C 6C 8H 9S 10C 3C 4C 5C",
                    "JD JH", stock_size=60)
    result = explain(hand.view(0), GoOut())
    mine, theirs = hand_score(7, True, REVISED_2008), hand_score(0, False, REVISED_2008)
    assert said(result.reason, "hints.reason.go_out_ahead", my_score=mine, their_score=theirs)
    # no card to name: the nudge, when to declare it, the whole move
    assert result.ladder[:2] == [mark("hints.nudge.go_out", value=7), mark("hints.space.go_out")]
    assert said(result.ladder[2], "hints.move.go_out", my_score=mine, their_score=theirs)
    assert said(result.ladder[2], "hints.risk.going_out") and len(result.ladder) == 3


def test_discard_and_end_turn_hints(keyed: None) -> None:
    hand = prepared("AS 2S 3S / 4S 5S 6S / 7H 8D 9D", "AD 2D 3D / 4D 5D 6D / 7D 8D 9D", "2C", "JD JH")
    discard = explain(hand.view(0), Discard(c("2C")))
    assert said(discard.ladder[1], "hints.card.card", card=c("2C").name)
    assert discard.ladder[2] == mark("hints.space.discard")
    assert said(discard.ladder[3], "hints.move.discard", the_card=c("2C").the_name, mine_before=7)
    empty = prepared(". . . / . . . / . . .", "AH . . / . . . / . . .", "", "5S", stock_size=0)
    end = explain(empty.view(0), EndTurn())
    assert end.move == EndTurn() and len(end.ladder) == 2  # neither a card nor a place to name: the nudge, the move
    assert said(end.ladder[1], "hints.move.pass", mine_before=0)


def test_explaining_an_illegal_move_or_a_bad_view_is_refused() -> None:
    hand = prepared(". . . / . . . / . . .", ". . . / . . . / . . .", "5S 6S", "5D")
    with pytest.raises(AIError, match="not a legal move"):
        explain(hand.view(0), Play(c("5S"), 0, 6))
    with pytest.raises(AIError, match="PlayerView"):
        hint(hand)  # type: ignore[arg-type]
    with pytest.raises(AIError, match="not waiting"):
        hint(hand.view(1), level="beginner")


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_hints_in_random_positions_agree_with_the_engine(rules: RuleSet, keyed: None) -> None:
    for seed in range(25):
        hand = random_hand(rules, seed, most_moves=90)
        me = hand.to_move
        view = hand.view(me)
        level = ("beginner", "intermediate", "expert", "master")[seed % 4]
        result = hint(view, level=level, time_budget=None if level == "master" else 0.05)
        assert result.move in view.legal_moves() and result.level == level
        rungs = 4 if isinstance(result.move, (Play, Discard)) else 3 if isinstance(result.move, GoOut) else 2
        assert len(result.ladder) == rungs and all(isinstance(step, str) and step for step in result.ladder)
        assert len(set(result.ladder)) == rungs  # (no rung says another's words again)
        assert keys_in(result.reason)[0].startswith("hints.reason.")
        before = (hand.value(me), hand.value(1 - me))
        hand.apply(result.move)
        after = (hand.value(me), hand.value(1 - me))
        hand.undo()
        move = result.move
        if isinstance(move, Play):
            assert said(result.ladder[1], "hints.card.card", card=move.card.name)
            assert result.ladder[2] == mark("hints.space.own" if move.square_owner == me else "hints.space.theirs",
                                            space=move.space)
            mine = (mark("hints.change.mine_goes", before=before[0], after=after[0]) if before[0] != after[0]
                    else mark("hints.change.mine_stays", before=before[0], after=before[0]))
            theirs = (mark("hints.change.theirs_goes", before=before[1], after=after[1]) if before[1] != after[1]
                      else mark("hints.change.theirs_stays", before=before[1], after=before[1]))
            assert said(result.ladder[3], "hints.move.play", mine=mine, theirs=theirs)
        elif isinstance(move, Discard):
            assert said(result.ladder[1], "hints.card.card", card=move.card.name)
            assert said(result.ladder[3], "hints.move.discard", the_card=move.card.the_name, mine_before=before[0])


def test_jack_on_a_card_that_scores_nothing_yet_says_which_card_it_hides(keyed: None) -> None:
    hand = prepared("4S . . / . . . / . . .", ". . . / 4D 5D . / . . .", "JC 2S 6C 8D 4D 5C 7S 8S", "5S 7D")
    result = explain(hand.view(0), Play(c("JC"), 1, 5))
    assert result.reason == mark("hints.reason.cover_theirs", card=c("5D").name, space=5)
    assert result.ladder[0] == mark("hints.nudge.cover_theirs", line=REVISED_2008.line_name((4, 5, 6)),
                                    the_card=c("5D").the_name, space=5)
    assert said(result.ladder[3], "hints.move.play", theirs=mark("hints.change.theirs_stays", before=0, after=0))


def test_hints_say_when_a_play_threatens_or_stops_going_out(keyed: None) -> None:
    hand = prepared("AH 2H . / 4C 5C 6C / 7S 8S 9S", "AD 2D 3D / 4D 5D 6D / 7H . .", "3H JC 9C 2S 6D 7C 8C 8D",
                    "4S 5D")
    view = hand.view(0)
    reach = explain(view, Play(c("3H"), 0, 3))
    assert said(reach.ladder[3], "hints.move.play", mine=mark("hints.change.mine_goes", before=6, after=9))
    assert said(reach.ladder[3], "hints.effect.threatens_out", value=9)
    stop = explain(view, Play(c("JC"), 1, 5))
    assert hand.value(1) == 8
    assert said(stop.ladder[3], "hints.move.play", theirs=mark("hints.change.theirs_goes", before=8, after=4))
    assert said(stop.ladder[3], "hints.effect.stops_out", threshold=7)


def test_one_ladder_serves_play_and_the_lessons() -> None:
    from leopard_tutor.ai import make_player
    from leopard_tutor.hint_ladder import HintLadder
    from leopard_tutor.lessons import LESSONS
    from leopard_tutor.table import against_computer

    calls: list[int] = []

    def source() -> tuple[Discard, list[str]]:
        calls.append(1)
        return Discard(c("2C")), ["think", "the card", "the place", "the move"]

    ladder = HintLadder(source)
    climbed = [ladder.climb("position A") for _ in range(5)]
    assert [(rung.level, rung.text, new) for rung, new in climbed] == [
        (1, "think", True), (2, "the card", True), (3, "the place", True), (4, "the move", True),
        (4, "the move", False)]
    assert climbed[0][0].move is None and climbed[1][0].move == Discard(c("2C"))
    assert ladder.climb("position B")[0].level == 1 and len(calls) == 2
    attempt = LESSONS[0].new_attempt()
    assert isinstance(attempt._ladder, HintLadder)
    assert isinstance(against_computer(make_player("beginner", seed=1), seed=1)._ladder, HintLadder)


def test_ending_a_turn_of_plays_is_not_said_to_leave_nothing_better_when_a_play_would_score(keyed: None) -> None:
    """Running Leopard, a card played this turn, the 3 of hearts held beside the ace and two of hearts: ending the
    turn keeps the card; it is not "no further play improves your position"."""
    hand = Hand(RUNNING_LEOPARD, [Square.parse("AH 2H . / . . . / . . ."), Square.parse("9S . . / . . . / . . .")],
                [[Card.parse("3H")], [Card.parse("5S")]], [Card.parse("KD")], [], to_move=0, dealer=1, plays_made=1)
    found = explain(hand.view(0), EndTurn())
    assert said(found.reason, "hints.reason.end_turn_keeps") and said(found.ladder[0], "hints.nudge.end_turn_keeps")


def test_a_play_that_makes_two_of_their_lines_score_says_both(keyed: None) -> None:
    """The 2 of hearts on their space 2 finishes their row 1-2-3 and their column 2-5-8: the reason counts both
    lines for the whole change of value (one line named alone would not account for it). It also takes the space
    their column (the 5 and 8 of diamonds) needed to be one suit, so the reason says that first, the lines it
    makes score as its price."""
    hand = Hand(REVISED_2008, [Square(), Square.parse("AH . 3H / . 5D . / . 8D .")],
                [[Card.parse("2H"), Card.parse("9C")], [Card.parse("5S")]], [Card.parse("KD")], [], to_move=0,
                dealer=1)
    found = explain(hand.view(0), Play(Card.parse("2H"), 1, 2))
    assert said(found.reason, "hints.reason.spoils_at_cost_many", scoring=2, theirs_before=hand.value(1))
    assert said(found.reason, "hints.spoiled", line=REVISED_2008.line_name((2, 5, 8)), points=3)
    assert not said(found.reason, "hints.reason.spoils_at_cost")


def test_a_card_that_blocks_their_lines_is_explained_by_what_it_blocks_not_only_by_what_it_gives(
        keyed: None) -> None:
    """The reason of the 8 of hearts on their space 8 named only the point it gives their column ("It makes their
    column 2-5-8 score 1 point"), which reads as nonsense: it also takes the space both of their lines one card from
    3 points needed, and that is said, with what each could have scored, and the point it gives as its price."""
    view = blocking_eight().view(0)
    row, column = REVISED_2008.line_name((7, 8, 9)), REVISED_2008.line_name((2, 5, 8))
    result = explain(view, Play(c("8H"), 1, 8))
    assert said(result.reason, "hints.reason.spoils_at_cost", count=2, space=8, card=c("8H").name, line=column,
                theirs_before=0, theirs_after=1)
    assert said(result.reason, "hints.spoiled", line=row, points=3)
    assert said(result.reason, "hints.spoiled", line=column, points=3)
    assert said(result.ladder[0], "hints.nudge.spoil_theirs", points=3)
    move = result.ladder[3]
    assert said(move, "hints.effect.spoils", line=row, points=3)
    assert said(move, "hints.effect.spoils_to", line=column, points=3, now=1)
    assert not said(move, "hints.effect.helps_theirs", line=column)
    told = why(view, Play(c("8H"), 1, 8))  # told to the player whose lines it blocks
    assert told.fact[0] == "hints.reason.spoils_at_cost"
    assert said(told.sentence, "review.why.reason.spoils_at_cost", count=2, line=column, theirs_after=1)


def test_a_card_that_only_blocks_says_every_line_it_blocks_and_what_each_could_have_scored(keyed: None) -> None:
    """The 8 of clubs on their space 8, between the 2 and 5 of diamonds and the 10 and 9 of hearts, clashes in
    colour with both lines and scores nothing there: it blocks both, and that is all the reason says."""
    hand = prepared("AS . . / 4C . . / . . .", ". 2D . / . 5D . / 10H . 9H", "8C 3C 6C 7D 4D KC 2C 6H", "5C")
    result = explain(hand.view(0), Play(c("8C"), 1, 8))
    assert said(result.reason, "hints.reason.spoils", count=2, space=8, card=c("8C").name)
    for spaces in ((7, 8, 9), (2, 5, 8)):
        assert said(result.reason, "hints.spoiled", line=REVISED_2008.line_name(spaces), points=3)


def _spoiled_lines(view: PlayerView, move: Play) -> list[tuple[int, int, int]]:
    """The lines through the move's space of the opponent's square that some card not yet in sight of the public
    could have completed there, each to more than it pays once the move's card lies there (recomputed here)."""
    before = view.squares[move.square_owner]
    after = before.with_card(move.card, move.space, by_other=True)

    def pays(square: Square, spaces: tuple[int, int, int]) -> int:
        return next(line.points for line in scoring_lines(square, view.rules) if line.spaces == spaces)

    found = []
    for spaces in LINES:
        if move.space not in spaces or [s for s in spaces if before.is_open(s)] != [move.space]:
            continue
        best = max((pays(before.with_card(card, move.space), spaces) for card in {*view.unseen(), *view.hand}
                    if card.rank not in (11, 12) and allowed_spaces(card.rank, before, True) >> (move.space - 1) & 1),
                   default=0)
        if best and pays(after, spaces) < best:
            found.append(spaces)
    return found


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_every_card_laid_face_up_on_their_square_that_blocks_a_line_says_so_in_its_reason(
        rules: RuleSet, keyed: None) -> None:
    blocking = 0
    for seed in range(60):
        hand = random_hand(rules, seed, most_moves=60)
        view = hand.view(hand.to_move)
        for move in view.legal_moves():
            if not isinstance(move, Play) or move.square_owner == view.player or move.card.rank == 11:
                continue
            spoiled = _spoiled_lines(view, move)
            reason = explain(view, move).reason
            assert bool(spoiled) == (keys_in(reason)[0] in ("hints.reason.spoils", "hints.reason.spoils_at_cost",
                                                              "hints.reason.spoils_at_cost_many")), (move, reason)
            for spaces in spoiled:
                assert said(reason, "hints.spoiled", line=rules.line_name(spaces)), (move, spaces, reason)
            blocking += bool(spoiled)
    assert blocking > 5


def test_going_out_is_not_given_a_reason_that_argues_for_waiting(keyed: None) -> None:
    """The reported hint, in the last turns with an empty stock: "Go out: ... you score 16 ... Every jack is accounted
    for, so waiting cannot cost you a card to a jack." That fact argues for waiting (the tester waited and scored 17),
    so it is said only as what speaks against going out; what speaks for it is said as such: their row 1-2-3 is one
    card from 3 points, and they have a turn with a card to lay if the hand goes on."""
    hand = prepared("AS 2S 3S / 4S 5S 6S / 7S 8D 9D", "AD 2D . / . . . / . . .", "6H", "3D", stock_size=0)
    view = hand.view(0)
    assert view.stock_size == 0 and view.value(0) == 12 and GoOut() in view.legal_moves()
    result = explain(view, GoOut())
    rung = result.ladder[-1]
    assert said(rung, "hints.move.go_out", my_score=16)
    assert not said(rung, "hints.risk.going_out"), "no jack left is no reason to go out"
    assert said(rung, "hints.risk.their_line", line=REVISED_2008.line_name((1, 2, 3)), points=3)
    assert said(rung, "hints.risk.going_out_no_jacks")
    assert keys_in(rung).index("hints.risk.their_line") < keys_in(rung).index("hints.risk.going_out_no_jacks")


def test_going_out_with_jacks_unseen_says_what_waiting_risks(keyed: None) -> None:
    """With jacks unseen and the stock not empty, waiting gives the opponent a turn that could cover one of your
    cards: a reason for going out, said as one; nothing against it is said."""
    hand = prepared("AS 2S 3S / 4S 5S 6S / 7S 8D 9D", ". . . / . . . / . . .", "6H 2C", "3D 5C", stock_size=80)
    rung = explain(hand.view(0), GoOut()).ladder[-1]
    assert said(rung, "hints.risk.going_out") and not said(rung, "hints.risk.going_out_no_jacks")
    assert not said(rung, "hints.risk.their_line"), "their square is empty: no line of theirs is one card from scoring"


def test_the_way_back_for_a_blocked_line_is_said_of_the_space_the_card_takes(keyed: None) -> None:
    """"To mend their row 7-8-9 they must first cover your 8 of hearts" was not so: kings of hearts of theirs on
    spaces 7 and 9 would make the row one suit around the 8 of hearts. What holds is said: the row can be completed
    on space 8 only once the 8 of hearts there is covered, and how."""
    view = blocking_eight().view(0)
    row = REVISED_2008.line_name((7, 8, 9))
    blocked = view.squares[1].with_card(c("8H"), 8, by_other=True)
    around = blocked.with_card(c("KH"), 7).with_card(c("KH"), 9)
    assert next(line.points for line in scoring_lines(around, REVISED_2008) if line.spaces == (7, 8, 9)) == 3
    rung = explain(view, Play(c("8H"), 1, 8)).ladder[3]
    assert said(rung, "hints.risk.cover_first", line=row, space=8, card=c("8H").name)
    assert not said(rung, "hints.risk.mend_blocker")


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=lambda rules: rules.key)
def test_the_last_rung_of_a_play_says_what_it_does_or_why(rules: RuleSet, keyed: None) -> None:
    """The whole move, then its effect on the lines or, where it changes none (a card hidden, a space of theirs
    taken), the reason it is played: the last rung was the move alone, "your square stays at 0" and no why."""
    seen = set()
    for seed in range(60):
        hand = random_hand(rules, seed)
        if hand.is_over:
            continue
        view = hand.view(hand.to_move)
        for move in view.legal_moves():
            if not isinstance(move, Play):
                continue
            found = explain(view, move)
            keys = keys_in(found.ladder[3])
            said_why = [key for key in keys if key.startswith(("hints.effect.", "hints.reason."))]
            assert keys[0] == "hints.move.play" and said_why, found.ladder[3]
            seen.update(key for key in said_why if key.startswith("hints.reason."))
    assert seen, "no play here changed no line: the test showed nothing"
