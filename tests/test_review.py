"""The review of a hand: judged from what the learner could see, thresholds and summary that agree with
the judgements, true sentences, and a review that keeps up with moves taken back."""

from __future__ import annotations

import contextvars
import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from keyed import mark, said
from positions import blocking_eight, prepared
from test_hint_truth import CHECKS

from leopard_tutor.ai.hints import explain
from leopard_tutor.ai.players import BeginnerPlayer, IntermediatePlayer
from leopard_tutor.ai.review import (
    THRESHOLDS,
    VERDICTS,
    Decision,
    HandReview,
    Judgement,
    Review,
    _sentence,
    decisions,
    figure_words,
    shown,
    verdict_for,
    view_before,
)
from leopard_tutor.engine import REVISED_2008, RULE_SETS, Card, Discard, Hand, Move, Play, RuleSet, square_value
from leopard_tutor.engine.catalogue import and_list, answer_in
from leopard_tutor.engine.claims import square_after
from leopard_tutor.engine.narration import move_words
from leopard_tutor.table.drawing import legend, mark_words
from leopard_tutor.table.modes import Reviewing

SMALL = {"deals": 1, "candidates": 2}  # enough search to exercise every part, small enough to stay fast


def played_hand(rules: RuleSet, seed: int, most: int | None = None) -> Hand:
    """A seeded hand between a beginner (player 0, so it slips) and an intermediate, to its end or `most` moves."""
    hand = Hand.deal(rules, seed=seed, dealer=seed % 2)
    seats = [BeginnerPlayer(seed), IntermediatePlayer(seed + 1)]
    while not hand.is_over and (most is None or len(hand.moves) < most):
        hand.apply(seats[hand.to_move].choose(hand.view(hand.to_move)))
    return hand


def full_review(hand: Hand, **search: int) -> Review:
    reviewer = HandReview(0, **(search or SMALL))
    reviewer.follow(hand)
    while reviewer.refine(60.0):
        pass
    return reviewer.review()


def judged(judgement: Judgement) -> tuple[object, ...]:
    return (judgement.decision.index, judgement.move, judgement.best, round(judgement.cost, 9), judgement.verdict,
            judgement.sentence, judgement.deals)


def test_each_decision_has_the_view_the_player_had_when_making_it() -> None:
    hand = Hand.deal(REVISED_2008, seed=4)
    seats = [BeginnerPlayer(1), IntermediatePlayer(2)]
    seen = []
    while not hand.is_over:
        mover = hand.to_move
        move = seats[mover].choose(hand.view(mover))
        if mover == 0:
            seen.append((len(hand.moves), hand.view(0), move))
        hand.apply(move)
    found = decisions(hand, 0)
    assert [(d.index, d.view, d.move) for d in found] == seen
    assert decisions(hand, 0, start=seen[5][0]) == found[5:]
    index = seen[7][0]
    assert view_before(hand, index, 0) == seen[7][1]
    assert view_before(hand, index, 1) != seen[7][1]


def redealt(hand: Hand, player: int, upto: int, seed: int, most: int) -> Hand:
    """`hand`'s first `upto` moves again, with the cards `player` had not seen by then (the other hand and the
    stock) dealt again at random, then played on to `most` moves: before move `upto`, `player` sees the same."""
    data = json.loads(hand.to_json())
    start = data["start"]
    other = 1 - player
    stock = [Card.parse(code) for code in start["stock"]]
    held = [[Card.parse(code) for code in cards] for cards in start["hands"]]
    replay = Hand.from_data({**data, "moves": []})
    received: list[tuple[str, int]] = [("hand", i) for i in range(len(held[other]))]  # where other's cards came from
    drawn = 0
    for move in hand.moves[:upto]:
        before = replay.stock_size
        replay.apply(move)
        taken = before - replay.stock_size
        if replay.to_move == other:
            received += [("stock", drawn + i) for i in range(taken)]
        drawn += taken
    slots = {("stock", i) for i in range(drawn, len(stock))}
    left = Counter(replay.held[other])
    for slot in received:
        card = held[other][slot[1]] if slot[0] == "hand" else stock[slot[1]]
        if left[card]:
            left[card] -= 1
            slots.add(slot)
    ordered = sorted(slots)
    cards = [held[other][i] if kind == "hand" else stock[i] for kind, i in ordered]
    random.Random(seed).shuffle(cards)
    for (kind, i), card in zip(ordered, cards):
        if kind == "hand":
            held[other][i] = card
        else:
            stock[i] = card
    variant = Hand.from_data({**data, "start": {**start, "hands": [[str(c) for c in h] for h in held],
                                                "stock": [str(c) for c in stock]},
                              "moves": []})
    for move in hand.moves[:upto]:
        variant.apply(move)
    seats = [BeginnerPlayer(seed), IntermediatePlayer(seed + 1)]
    while not variant.is_over and len(variant.moves) < most:
        variant.apply(seats[variant.to_move].choose(variant.view(variant.to_move)))
    return variant


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_redealing_the_unseen_cards_changes_no_judgement_made_before_they_were_seen(rules: RuleSet) -> None:
    hand = played_hand(rules, 21, most=30)
    upto = 18
    variant = redealt(hand, 0, upto, seed=5, most=30)
    assert json.loads(variant.to_json())["start"] != json.loads(hand.to_json())["start"]
    early = [d for d in decisions(hand, 0) if d.index < upto]
    assert early and [(d.index, d.view) for d in early] == [(d.index, d.view) for d in decisions(variant, 0)
                                                            if d.index < upto]
    first, second = full_review(hand), full_review(variant)
    compared = [(a, b) for a, b in zip(first.judgements, second.judgements) if a.decision.index < upto]
    assert len(compared) == len(early)
    for a, b in compared:
        assert judged(a) == judged(b)


def test_marks_follow_the_thresholds_at_their_edges() -> None:
    limits = dict(THRESHOLDS)
    assert verdict_for(0.0) == "good"
    assert verdict_for(limits["inaccuracy"] - 0.06) == "good"
    assert verdict_for(limits["inaccuracy"]) == "inaccuracy"
    assert verdict_for(limits["mistake"] - 0.06) == "inaccuracy"
    assert verdict_for(limits["mistake"]) == "mistake"
    assert verdict_for(limits["blunder"] - 0.06) == "mistake"
    assert verdict_for(limits["blunder"]) == verdict_for(40.0) == "blunder"
    assert limits["inaccuracy"] < limits["mistake"] < limits["blunder"]
    assert set(VERDICTS) == {"good", *limits}


EDGES = (-0.1, -0.06, -0.051, -0.05, -0.049, -0.04, -0.001, 0.0, 0.001, 0.04, 0.049, 0.05, 0.051, 0.1)
"""Costs around each threshold: below it, onto it once written to one decimal, at it and above it."""


def facts_of(marker: str, key: str) -> dict[str, str]:
    """The facts of the outermost marker of `key` in `marker` (its nested markers kept whole)."""
    body, depth, parts, start = marker[marker.index(f"⟦{key}|") + len(key) + 2:], 0, [], 0
    for at, char in enumerate(body):
        depth += {"⟦": 1, "⟧": -1}.get(char, 0)
        if depth < 0 or (depth == 0 and char == "|"):
            parts.append(body[start:at])
            start = at + 1
        if depth < 0:
            break
    return dict(part.split("=", 1) for part in parts)


def number(figure: str) -> float:
    """A figure as written (under `keyed`, its decimal point is a marker)."""
    return float(figure.replace(mark("words.decimal_point"), "."))


@pytest.mark.parametrize(("verdict", "least"), THRESHOLDS)
def test_every_mark_is_what_the_legend_says_of_its_written_figure(verdict: str, least: float, keyed: None) -> None:
    """The legend's figures, and each mark's figure as the learner reads it (rounding onto a threshold
    included): the legend's mark for that figure is the mark given (a good move, whose figure is not written,
    would be written under the lowest threshold)."""
    written = {name: number(figure) for name, figure in facts_of(legend(), "review.panel.legend").items()}
    assert written == dict(THRESHOLDS)
    reviewer = HandReview(0, **SMALL)
    reviewer.follow(played_hand(REVISED_2008, 3, most=4))
    some = reviewer.review().judgements[0]
    for cost in (least + edge for edge in EDGES):
        judgement = Judgement(some.decision, some.best, cost, some.deals, some.sentence, some.facts)
        words = mark_words(judgement)
        figure = number(facts_of(words, "review.cost")["figure"]) if "⟦review.cost|" in words else shown(cost)
        by_legend = next((name for name, limit in written.items() if figure >= limit), "good")
        assert words.count(mark(f"review.verdict.{by_legend}")) == 1, (cost, figure, words)
        assert judgement.verdict == by_legend


@pytest.mark.parametrize(("lang", "marked", "legend_says"),
                         [("en", "about 2.5 points lost", ("under 1 is good", "2.5 or more a mistake")),
                          ("es", "2,5 puntos", ("menos de 1 es buena", "2,5 o más, un error;"))])
def test_a_mark_and_the_legend_write_figures_as_the_language_does(lang: str, marked: str,
                                                                  legend_says: tuple[str, ...]) -> None:
    """Decimals as the language writes them; whole figures without a decimal."""
    reviewer = HandReview(0, **SMALL)
    reviewer.follow(played_hand(REVISED_2008, 3, most=4))
    some = reviewer.review().judgements[0]
    judgement = Judgement(some.decision, some.best, 2.46, some.deals, some.sentence, some.facts)

    def read() -> tuple[str, str]:
        answer_in(lang)
        return mark_words(judgement), legend()

    said, meaning = contextvars.copy_context().run(read)
    assert marked in said and all(part in meaning for part in legend_says), (said, meaning)


@pytest.mark.parametrize("seed", [3, 8])
def test_the_summary_and_every_mark_agree_with_the_judgements(seed: int, keyed: None) -> None:
    review = full_review(played_hand(REVISED_2008, seed, most=50))
    assert review.complete and review.judgements
    counts = Counter(j.verdict for j in review.judgements)
    # the figures the marks write, added up: a reader adding them gets the summary's total (it added the costs
    # unrounded: "about 9.8 points given up in all" beside 2.9, 1.8, 1.4 and 3.8)
    lost = round(sum(shown(j.cost) for j in review.judgements if j.verdict != "good"), 1)
    for judgement in review.judgements:
        assert judgement.cost >= 0 and judgement.verdict == verdict_for(judgement.cost)
        assert judgement.best in judgement.view.legal_moves() and judgement.move in judgement.view.legal_moves()
        if judgement.best == judgement.move:
            assert judgement.cost == 0 and judgement.verdict == "good"
        assert review.count(judgement.verdict) == counts[judgement.verdict]
    assert review.points_lost == pytest.approx(lost)
    summary = review.summary()
    parts = [mark(f"review.count.{verdict}", count=counts[verdict])
             for verdict in ("inaccuracy", "mistake", "blunder") if counts[verdict]]
    if parts:
        assert summary == mark("review.summary.line", counts=and_list(parts), points=lost, figure=figure_words(lost))
    else:
        assert summary == mark("review.summary.clean", moves=len(review.judgements))


def test_the_summary_counts_the_marks_and_says_what_its_points_are_measured_against() -> None:
    """Its points are each move's gap to the best move at its turn, added up (more than a hand is worth, at times:
    a card player read "points lost in all" as what the hand could have gained), and it says so."""
    reviewer = HandReview(0, **SMALL)
    reviewer.follow(played_hand(REVISED_2008, 3, most=12))
    review = reviewer.review()
    fake = [Judgement(j.decision, j.best, cost, j.deals, j.sentence, j.facts)
            for j, cost in zip(review.judgements, [3.0, 3.0, 2.5, 5.5, 0.2])]
    assert Review(tuple(fake), True).summary() == \
        "3 mistakes and 1 blunder: each against the best move at its turn, about 14 points given up in all"


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_every_claim_of_a_review_sentence_is_true_of_the_position_the_learner_saw(rules: RuleSet) -> None:
    checked = made = 0
    for seed in (1, 2):
        for judgement in full_review(played_hand(rules, seed, most=40)).judgements:
            for key, values in judgement.facts:
                if key.startswith("hints."):
                    CHECKS[key.removeprefix("hints.")](judgement.view, judgement.best, values)
                    checked += 1
                elif key.startswith("review.made."):  # what the learner's own move did, before the better one
                    assert judgement.verdict != "good"
                    CHECKS[key.replace("review.made.", "change.")](judgement.view, judgement.move, values)
                    made += 1
                elif key in ("review.sentence.better", "review.sentence.close", "review.sentence.equal"):
                    assert judgement.best != judgement.move and values["points"] == round(judgement.cost, 1)
                    assert (key == "review.sentence.equal") == (values["points"] == 0), "no better move to a tenth"
                    assert (key != "review.sentence.better") == (judgement.verdict == "good")
                else:
                    assert key in ("review.sentence.best", "review.sentence.forced")
                    assert judgement.best == judgement.move and judgement.cost == 0
    assert checked > 5 and made > 0, (checked, made)


def test_a_better_card_laid_is_said_with_what_it_would_have_made_of_each_square(keyed: None) -> None:
    said_for = 0
    for rules in RULE_SETS.values():
        for judgement in full_review(played_hand(rules, 3, most=40)).judgements:
            view, best = judgement.view, judgement.best
            if best == judgement.move or not isinstance(best, Play):
                assert "review.change.sentence" not in judgement.sentence
                continue
            me = view.player
            after = square_value(square_after(view, best, best.square_owner), rules)
            mine = (view.value(me), after if best.square_owner == me else view.value(me))
            theirs = (view.value(1 - me), after if best.square_owner != me else view.value(1 - me))
            if mine[0] == mine[1] and theirs[0] == theirs[1]:
                assert "review.change.sentence" not in judgement.sentence, "a card laid that changes no value"
                continue
            words = [mark(f"review.change.{side}_{'goes' if old != new else 'stays'}", before=old, after=new)
                     for side, (old, new) in (("mine", mine), ("theirs", theirs))]
            assert judgement.sentence.endswith(mark("review.change.sentence", mine=words[0], theirs=words[1]))
            said_for += 1
    assert said_for > 3


def test_a_review_follows_moves_taken_back_and_made_again() -> None:
    hand = played_hand(REVISED_2008, 6, most=30)
    reviewer = HandReview(0, **SMALL)
    reviewer.follow(hand)
    before = [j.decision.index for j in reviewer.review().judgements]
    assert reviewer.pending > 0 and not reviewer.review().complete
    taken: list[Move] = []
    while 0 not in hand.movers[-1:]:
        taken.append(hand.undo())
    taken.append(hand.undo())
    reviewer.follow(hand)
    assert [j.decision.index for j in reviewer.review().judgements] == before[:-1]
    for move in reversed(taken):
        hand.apply(move)
    reviewer.follow(hand)
    assert [j.decision.index for j in reviewer.review().judgements] == before


def test_refining_is_cut_by_its_time_and_the_cheap_pass_comes_first() -> None:
    hand = played_hand(REVISED_2008, 1, most=20)  # its first decision has three moves to follow on each deal
    ticks = [0]

    def clock() -> float:
        ticks[0] += 1
        return float(ticks[0])

    reviewer = HandReview(0, deals=3, candidates=2, clock=clock)
    reviewer.follow(hand)
    cheap = reviewer.review()
    assert all(j.deals == 0 for j in cheap.judgements) and not cheap.complete  # the one-move evaluation, at once
    pending = reviewer.pending
    ticks[0] = 0
    assert reviewer.refine(3.5)  # the clock ticks once a playout: after the fourth, time is up
    assert ticks[0] == 5  # read once for the deadline, then once after each of four playouts
    assert pending - reviewer.pending == 1  # the first decision's first deal finished, the next one begun
    assert [j.deals for j in reviewer.review().judgements if j.deals] == [1]
    while reviewer.refine(100.0):
        pass
    done = reviewer.review()
    assert done.complete and reviewer.pending == 0
    assert all(j.deals == 3 or len(j.view.legal_moves()) == 1 for j in done.judgements)


def test_a_judgement_says_it_is_not_final_until_its_search_has_followed_every_deal(keyed: None) -> None:
    reviewer = HandReview(0, deals=2, candidates=2)
    reviewer.follow(played_hand(REVISED_2008, 1, most=20))
    chosen = [j for j in reviewer.review().judgements if j.deals == 0 and len(j.view.legal_moves()) > 1]
    assert chosen and not any(j.final for j in chosen)
    assert all(j.sentence.endswith(mark("review.not_final.quick")) for j in chosen)
    assert all(mark_words(j) == mark("review.not_final.mark", mark=mark_words(replace(j, final=True))) for j in chosen)
    while reviewer.pending > 1:  # one deal short: the last decision searched has followed one deal of two
        reviewer.refine(0.0)
    review = reviewer.review()
    half = [j for j in review.judgements if not j.final]
    assert [j.deals for j in half] == [1]
    assert half[0].facts[-1] == ("review.not_final.deals", {"deals": 1, "target": 2})
    assert half[0].sentence.endswith(mark("review.not_final.deals", deals=1, target=2))
    assert review.not_final == 1 and said(review.summary(), "review.summary.not_final", count=1)
    while reviewer.refine(60.0):
        pass
    done = reviewer.review()
    assert done.not_final == 0 and all(j.final for j in done.judgements)
    assert not any("not_final" in key for j in done.judgements for key, _ in j.facts)


def test_an_open_review_follows_its_makers_search_only_while_it_judges_the_same_moves() -> None:
    hand = played_hand(REVISED_2008, 6, most=30)
    reviewer = HandReview(0, deals=2, candidates=2)
    reviewer.follow(hand)
    shown = Reviewing(reviewer.review(), hand.copy(), 1, 0, reviewer=reviewer)
    assert shown.searching is reviewer
    assert Reviewing(shown.review, hand.copy(), 1, 0).searching is None  # no maker: a review as it was shown
    while 0 not in hand.movers[-1:]:
        hand.undo()
    hand.undo()  # the last move judged is taken back: the maker judges other moves now
    reviewer.follow(hand)
    assert shown.searching is None
    while reviewer.refine(60.0):
        pass
    done = Reviewing(reviewer.review(), hand.copy(), 1, 0, reviewer=reviewer)
    assert done.review.complete and done.searching is None  # nothing left to search


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_a_hinted_move_that_is_made_is_reviewed_as_the_best_move(rules: RuleSet, keyed: None) -> None:
    # the hint and the review judge by one search (ai/judging.py): a learner who follows every hint is never told
    # of a better move, nor of one "just as good"
    from leopard_tutor.ai import hint, judging
    judging._finished.clear()
    hand = Hand.deal(rules, seed=31, dealer=1)
    other = IntermediatePlayer(5)
    hinted = 0
    while not hand.is_over and len(hand.moves) < 40:
        view = hand.view(hand.to_move)
        if hand.to_move == 0:
            move = hint(view).move
            hinted += len(view.legal_moves()) > 1
        else:
            move = other.choose(view)
        hand.apply(move)
    assert hinted >= 5
    taken = HandReview(0)  # takes up each hint's finished search: nothing left to search
    taken.follow(hand)
    assert taken.pending == 0
    judging._finished.clear()  # searched again from nothing, each decision ends as the hint's search did
    searched = full_review(hand, deals=16, candidates=4)
    assert searched.complete and len(searched.judgements) == len(decisions(hand, 0))
    assert [judged(j) for j in taken.review().judgements] == [judged(j) for j in searched.judgements]
    for judgement in searched.judgements:
        assert judgement.best == judgement.move and judgement.cost == 0, judged(judgement)
        assert judgement.facts[0][0] in ("review.sentence.best", "review.sentence.forced")


def test_only_the_hinted_move_takes_up_a_hints_search() -> None:
    from leopard_tutor.ai import hint, judging
    hand = Hand.deal(REVISED_2008, seed=8)
    view = hand.view(hand.to_move)
    hinted = hint(view).move
    other = next(move for move in view.legal_moves() if move != hinted)
    assert judging.taken_up(view, other) is None
    taken = judging.taken_up(view, hinted)
    assert taken is not None and taken.deals == judging.JUDGE_DEALS and taken.moves[taken.made] == hinted
    fresh = judging.JudgedSearch(view, hinted).run()
    assert (fresh.moves, fresh.values(), fresh.active) == (taken.moves, taken.values(), taken.active)


def test_a_better_card_that_blocks_their_lines_is_said_with_what_it_blocks(keyed: None) -> None:
    """The reported review (2008): a move was judged worse than the 8 of hearts on their space 8, said only as "It
    makes their column 2-5-8 score 1 point, so their square goes from 0 to 1". That card takes the space their
    column (2 and 5 of diamonds) and their row (10 and 9 of spades) each needed to be a line of one suit: the review
    says so, with what each line could have scored, and the point it gives as its price."""
    view = blocking_eight().view(0)
    best = Play(Card.parse("8H"), 1, 8)
    judged = Decision(0, view, Discard(Card.parse("2C")))
    sentence, facts = _sentence(judged, best, 2.0)
    row, column = REVISED_2008.line_name((7, 8, 9)), REVISED_2008.line_name((2, 5, 8))
    assert said(sentence, "review.sentence.better", reason=explain(view, best).reason)
    assert said(sentence, "hints.reason.spoils_at_cost", count=2, line=column, theirs_before=0, theirs_after=1)
    for line in (row, column):
        assert said(sentence, "hints.spoiled", line=line, points=3)
    for key, values in facts:
        if key.startswith("hints."):
            CHECKS[key.removeprefix("hints.")](view, best, values)


def test_a_move_that_lost_points_is_said_with_what_it_did_to_the_squares(keyed: None) -> None:
    """The reported review: a jack laid on one's own square took it from 7 to 1, and the review said only what the
    better move would have done. It now says first what the move made did to both squares, then the better one."""
    view = prepared("AS 2S 3S / 4H 5H 6H / . . .", ". . . / . . . / . . .", "JC 9D 4C", "5D").view(0)
    jack, better = Play(Card.parse("JC"), 0, 2), Discard(Card.parse("4C"))
    before, after = square_value(view.squares[0], REVISED_2008), square_value(square_after(view, jack, 0),
                                                                               REVISED_2008)
    assert after < before
    sentence, facts = _sentence(Decision(0, view, jack), better, 3.0)
    assert ("review.made.mine_goes", {"before": before, "after": after}) in facts
    assert sentence.startswith(mark("review.made.sentence", mine=mark("review.made.mine_goes", before=before,
                                                                      after=after),
                                    theirs=mark("review.made.theirs_stays", before=0, after=0)))
    assert said(sentence, "review.sentence.better", better=move_words(better, "advice", 0))
    # a good move that was not the best says nothing of its own change: only the better one's
    close, _ = _sentence(Decision(0, view, jack), better, 0.5)
    assert "review.made" not in close
