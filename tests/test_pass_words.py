"""A pass (the player holds no card, has played none this turn, so ending the turn lays nothing) is told as a pass:
by the hint ladder and by "Why did the computer do that?", in every rule set and in English and Spanish (rules
A.1.10 and A.3.5). And `why_turn` explains a whole turn of the computer's, every play of it and its end.

The words are compared as keys and facts (tests/keyed.py), or with the catalogue's own words in each language
(tests/spoken.py), never with sentences written out here."""

from __future__ import annotations

import contextvars
import random
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import pytest
from keyed import keys_in, said
from positions import c
from spoken import in_language
from test_hint_truth import CHECKS, check_hint

from leopard_tutor.ai import AIError, make_player
from leopard_tutor.ai.hints import explain
from leopard_tutor.ai.review import view_before
from leopard_tutor.ai.why import TurnWhy, why, why_turn
from leopard_tutor.engine import (
    ORIGINAL_1963,
    REVISED_2008,
    RULE_SETS,
    RUNNING_LEOPARD,
    EndTurn,
    GoOut,
    Hand,
    Play,
    RuleSet,
    Square,
    catalogue,
    full_deck,
)

T = TypeVar("T")
LANGUAGES = ("en", "es")
PASS_HINT_KEYS = ("hints.nudge.pass", "hints.move.pass")
"""The ladder of a pass, rung by rung."""
AFTER_PLAYS_KEYS = ("hints.nudge.end_turn", "hints.reason.end_turn",
                    "review.why.reason.end_turn", "hints.nudge.end_turn_keeps", "hints.reason.end_turn_keeps",
                    "review.why.reason.end_turn_keeps")
"""The words of ending a turn after plays ("you have played what helps"), false of a pass."""


def position(mine: str, theirs: str, my_cards: str, their_cards: str, *, stock: int = 0,
             rules: RuleSet = RUNNING_LEOPARD) -> Hand:
    """Player 0 to move, player 1 the dealer; `stock` of the cards left form the stock (in a fixed order), the
    rest lie on the discard pile."""
    squares = [Square.parse(mine), Square.parse(theirs)]
    hands = [[c(t) for t in my_cards.split()], [c(t) for t in their_cards.split()]]
    used = Counter(hands[0]) + Counter(hands[1]) + Counter(squares[0].cards()) + Counter(squares[1].cards())
    rest = sorted((Counter(full_deck()) - used).elements())
    return Hand(rules, squares, hands, rest[:stock], rest[stock:], 0, 1)


EMPTY = ". . . / . . . / . . ."
WORTH_7 = "AS 2S 3S / 4S 5S 6S / 7H 8D 9D"  # two one-suit rows and a one-suit diagonal: 3 + 3 + 1 = 7


def in_lang(lang: str, make: Callable[[], T]) -> T:
    """What `make()` gives with every text in language `lang` (in a context of its own)."""

    def run() -> T:
        catalogue.answer_in(lang)
        return make()

    return contextvars.copy_context().run(run)


def forced_pass(rules: RuleSet = RUNNING_LEOPARD) -> Hand:
    """Player 0 holds no card and the stock is empty, nothing played this turn: passing is their only move."""
    hand = position(EMPTY, "AH . . / . . . / . . .", "", "5S 6C", rules=rules)
    assert hand.rules == rules and hand.legal_moves() == [EndTurn()] and hand.plays_made == 0
    return hand


# -- the hint ladder and the reason of a pass -----------------------------------------------------------------

@pytest.mark.parametrize("rules", [RUNNING_LEOPARD, REVISED_2008, ORIGINAL_1963], ids=lambda r: r.key)
def test_a_forced_pass_is_told_as_having_no_card(rules: RuleSet, keyed: None) -> None:
    """Running Leopard (A.3.5), and the standard rules' pass with an empty hand (A.1.10): no 'you have played
    what helps this turn', which is false when nothing was played."""
    view = forced_pass(rules).view(0)
    result = explain(view, EndTurn())
    assert [keys_in(rung)[0] for rung in result.ladder] == list(PASS_HINT_KEYS)
    assert said(result.ladder[1], "hints.move.pass", mine_before=0, theirs_before=0)
    assert keys_in(result.reason) == ["hints.reason.pass_only"]
    assert not any(key in AFTER_PLAYS_KEYS for step in (result.reason, *result.ladder) for key in keys_in(step))
    check_hint(view, result)
    told = why(view, EndTurn())
    assert told.fact == ("hints.reason.pass_only", {})
    assert said(told.sentence, "review.why.reason.pass_only")
    assert not any(said(told.sentence, f"review.why.reason.{key}") for key in ("end_turn", "end_turn_keeps"))
    CHECKS[told.fact[0].removeprefix("hints.")](view, EndTurn(), told.fact[1])


def test_a_pass_that_could_go_out_says_both(keyed: None) -> None:
    """With a square worth 7 and no card, going out is the other choice: the reason does not call passing the only
    move."""
    hand = position(WORTH_7, EMPTY, "", "5S 6C")
    view = hand.view(0)
    assert set(view.legal_moves()) == {EndTurn(), GoOut()}
    result = explain(view, EndTurn())
    assert keys_in(result.reason) == ["hints.reason.pass"]
    assert [keys_in(rung)[0] for rung in result.ladder] == list(PASS_HINT_KEYS)
    assert said(result.ladder[1], "hints.move.pass", mine_before=7, theirs_before=0)
    check_hint(view, result)
    assert why(view, EndTurn()).fact == ("hints.reason.pass", {})


def test_ending_a_turn_after_plays_keeps_its_words(keyed: None) -> None:
    hand = position(EMPTY, EMPTY, "4C 5C", "5S", stock=10)
    hand.apply(Play(c("4C"), 0, 4))
    view = hand.view(0)
    result = explain(view, EndTurn())
    assert keys_in(result.reason) == ["hints.reason.end_turn"]
    assert keys_in(result.ladder[0]) == ["hints.nudge.end_turn"]
    assert why(view, EndTurn()).fact == ("hints.reason.end_turn", {})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("rules", [RUNNING_LEOPARD, REVISED_2008], ids=lambda r: r.key)
def test_the_words_of_a_pass_in_english_and_spanish(rules: RuleSet, lang: str) -> None:
    """The learner reads the pass's own words in their language, and none of the words of ending a turn after
    plays."""
    view = forced_pass(rules).view(0)
    result = in_lang(lang, lambda: explain(view, EndTurn()))
    nudge, move = result.ladder
    assert nudge == in_language(lang, "hints.nudge.pass")
    assert move == in_language(lang, "hints.move.pass", mine_before=0, theirs_before=0)
    assert result.reason == in_language(lang, "hints.reason.pass_only")
    told = in_lang(lang, lambda: why(view, EndTurn())).sentence
    assert told == in_language(lang, "review.why.said", move=in_language(lang, "narration.moves.report.end_turn"),
                               reason=in_language(lang, "review.why.reason.pass_only"))
    for key in AFTER_PLAYS_KEYS:
        assert in_language(lang, key) not in " ".join([told, result.reason, *result.ladder])
    if lang != "en":
        assert told != in_language("en", "review.why.reason.pass_only")


# -- a whole turn explained -----------------------------------------------------------------------------------

def running_turns() -> Hand:
    """A Running Leopard hand: player 0 plays two cards and ends the turn, player 1 plays one and ends the turn;
    player 0 is to move, holding no card with the stock empty, so a pass is their only move."""
    hand = position(EMPTY, EMPTY, "4C 5C", "5S 6S")
    for move in (Play(c("4C"), 0, 4), Play(c("5C"), 0, 5), EndTurn(), Play(c("5S"), 1, 5), EndTurn()):
        hand.apply(move)
    return hand


def test_why_turn_explains_every_play_of_the_turn_and_its_end(keyed: None) -> None:
    hand = running_turns()
    hand.undo()  # back to the start of player 1's turn: player 0's turn of two plays is the last made
    hand.undo()
    assert hand.to_move == 1
    told = why_turn(hand, 0)
    assert isinstance(told, TurnWhy) and told.player == 0
    assert told.indices == (0, 1, 2) and [part.move for part in told.moves] == list(hand.moves[:3])
    for index, part in zip(told.indices, told.moves):
        view = view_before(hand, index, 0)
        assert part == why(view, hand.moves[index])
        CHECKS[part.fact[0].removeprefix("hints.")](view, part.move, part.fact[1])
    assert told.sentence == " ".join(part.sentence for part in told.moves)
    assert said(told.sentence, "narration.moves.report.play", space=4)
    assert said(told.sentence, "narration.moves.report.play", space=5)
    assert said(told.sentence, "review.why.reason.end_turn")
    assert told.facts == tuple(part.fact for part in told.moves)


def test_why_turn_of_a_forced_pass_says_there_was_no_card(keyed: None) -> None:
    hand = running_turns()
    assert hand.to_move == 0 and not hand.held[0] and hand.stock_size == 0
    hand.apply(EndTurn())
    told = why_turn(hand, 0)
    assert told.indices == (5,) and told.facts == (("hints.reason.pass_only", {}),)
    assert said(told.sentence, "review.why.reason.pass_only")
    assert not any(said(told.sentence, f"review.why.reason.{key}") for key in ("end_turn", "end_turn_keeps"))
    assert why_turn(hand, 1).indices == (3, 4)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_why_turn_reads_in_english_and_spanish(lang: str) -> None:
    hand = running_turns()
    hand.apply(EndTurn())
    passed = in_lang(lang, lambda: why_turn(hand, 0)).sentence
    assert passed == in_language(lang, "review.why.said", move=in_language(lang, "narration.moves.report.end_turn"),
                                 reason=in_language(lang, "review.why.reason.pass_only"))
    before = running_turns()
    before.undo()
    before.undo()
    whole = in_lang(lang, lambda: why_turn(before, 0)).sentence
    parts = [in_lang(lang, partial(why, view_before(before, i, 0), before.moves[i])).sentence for i in (0, 1, 2)]
    assert whole == " ".join(parts)
    assert in_language(lang, "review.why.reason.end_turn") in whole


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_why_turn_of_one_move_is_why(rules: RuleSet) -> None:
    """A turn of one move (every turn of the standard rules; a discard in Running Leopard) is told as `why` tells
    that move."""
    rng = random.Random(5)
    hand, single = Hand.deal(rules, seed=5), 0
    while not hand.is_over and len(hand.moves) < 60:
        mover, start = hand.to_move, len(hand.moves)
        while not hand.is_over and hand.to_move == mover:
            hand.apply(rng.choice([m for m in hand.legal_moves() if not isinstance(m, GoOut)]))
        if len(hand.moves) - start == 1:
            told = why_turn(hand, mover)
            assert told.sentence == why(view_before(hand, start, mover), hand.moves[start]).sentence
            single += 1
    assert single > 5


def test_why_turn_before_the_player_has_moved_is_refused() -> None:
    hand = position(EMPTY, EMPTY, "4C", "5S", stock=10)
    with pytest.raises(AIError):
        why_turn(hand, 0)
    with pytest.raises(AIError):
        why_turn(hand, 2)


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_why_turn_is_true_of_every_turn_of_computer_hands(rules: RuleSet, keyed: None) -> None:
    """Whole hands between two computers that never go out (so a hand runs to its end, in Running Leopard through
    its passes): after each turn, its explanation is every move of it, each the reason `why` gives from the view
    before it, each fact true; a pass is told as a pass."""
    passes = 0
    for seed in range(3):
        hand = Hand.deal(rules, seed=seed, dealer=seed % 2)
        players = [make_player("beginner", seed=seed + p) for p in (0, 1)]
        rng = random.Random(seed)
        while not hand.is_over:
            mover, start = hand.to_move, len(hand.moves)
            while not hand.is_over and hand.to_move == mover:
                moves = [m for m in hand.legal_moves() if not isinstance(m, GoOut)]
                move = players[mover].choose(hand.view(mover)) if rng.random() < 0.7 else rng.choice(moves)
                hand.apply(rng.choice(moves) if isinstance(move, GoOut) else move)
            told = why_turn(hand, mover)
            assert told.indices == tuple(range(start, len(hand.moves)))
            for index, part in zip(told.indices, told.moves):
                view = view_before(hand, index, mover)
                assert part.move == hand.moves[index]
                CHECKS[part.fact[0].removeprefix("hints.")](view, part.move, part.fact[1])
                pass_ = isinstance(part.move, EndTurn) and not view.hand and not view.plays_made
                ended = any(said(part.sentence, f"review.why.reason.{key}") for key in ("end_turn", "end_turn_keeps"))
                assert ended == (isinstance(part.move, EndTurn) and not pass_)
                passes += pass_
            assert told.sentence == " ".join(part.sentence for part in told.moves)
    if rules.multiple_plays:
        assert passes > 0, "a Running Leopard hand played to its end has passes"
