"""Random seeded hands in all three rule sets, checked at every step (OpenSpiel-style random simulation)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leopard_tutor.engine import (
    ORIGINAL_1963,
    REVISED_2008,
    RUNNING_LEOPARD,
    Card,
    Discard,
    EndTurn,
    GoOut,
    Hand,
    IllegalMove,
    Move,
    Play,
    RuleSet,
    full_deck,
    hand_score,
    square_value,
)

RULE_SETS = [REVISED_2008, ORIGINAL_1963, RUNNING_LEOPARD]
seeds = st.integers(min_value=0, max_value=2**32)
rule_sets = st.sampled_from(RULE_SETS)


def all_cards(hand: Hand) -> Counter[Card]:
    counts: Counter[Card] = Counter()
    for square in hand.squares:
        counts.update(square.cards())
    for held in hand.held:
        counts.update(held)
    counts.update(hand.discards)
    counts.update(hand._stock)
    return counts


def candidates(hand: Hand) -> list[Move]:
    """Every move worth asking about: each held card on every space of both squares, discards, the rest,
    and a card the player does not hold."""
    moves: list[Move] = [GoOut(), EndTurn()]
    held = hand.held[hand.to_move]
    for card in dict.fromkeys(held):
        moves.append(Discard(card))
        moves.extend(Play(card, owner, space) for owner in (0, 1) for space in range(1, 10))
    missing = next(card for card in full_deck() if card not in held)
    moves += [Discard(missing), Play(missing, hand.to_move, missing.rank if missing.rank <= 9 else 5)]
    return moves


def play_out(hand: Hand, rng: random.Random, *, go_out: bool = True) -> list[Move]:
    played = []
    while not hand.is_over:
        moves = hand.legal_moves()
        if not go_out and len(moves) > 1:
            moves = [m for m in moves if not isinstance(m, GoOut)]
        move = rng.choice(moves)
        hand.apply(move)
        played.append(move)
    return played


@settings(max_examples=20, deadline=None)
@given(seed=seeds, rules=rule_sets)
def test_every_step_is_consistent(seed: int, rules: RuleSet) -> None:
    hand = Hand.deal(rules, seed=seed, dealer=seed % 2)
    rng = random.Random(seed)
    assert hand.to_move == 1 - hand.dealer
    while not hand.is_over:
        counts = all_cards(hand)
        assert sum(counts.values()) == 104 and max(counts.values()) <= 2
        legal = hand.legal_moves()
        assert len(legal) == len(set(legal))
        for move in candidates(hand):
            verdict = hand.check(move)
            assert verdict.legal == (move in legal), (move, verdict.reason)
            assert verdict.reason.endswith(".")
            if not verdict.legal:
                before = hand.copy()
                with pytest.raises(IllegalMove) as refused:
                    hand.apply(move)
                assert refused.value.reason == verdict.reason
                assert hand == before
        for move in legal:
            before = hand.copy()
            hand.apply(move)
            hand.undo()
            assert hand == before
        hand.apply(rng.choice(legal))
    assert hand.legal_moves() == []
    assert hand.scores() == tuple(
        hand_score(square_value(hand.squares[p], rules), hand.went_out == p, rules) for p in (0, 1))


@settings(max_examples=30, deadline=None)
@given(seed=seeds, rules=rule_sets)
def test_json_round_trip_and_undo_to_the_deal(seed: int, rules: RuleSet) -> None:
    hand = Hand.deal(rules, seed=seed)
    fresh = hand.copy()
    rng = random.Random(seed)
    played = play_out(hand, rng)
    restored = Hand.from_json(hand.to_json())
    assert restored == hand and restored.scores() == hand.scores()
    assert json.loads(restored.to_json()) == json.loads(hand.to_json())
    for move in reversed(played):
        assert hand.undo() == move
    assert hand == fresh


@settings(max_examples=30, deadline=None)
@given(seed=seeds, rules=rule_sets)
def test_a_hand_without_going_out_lasts_104_card_actions(seed: int, rules: RuleSet) -> None:
    hand = Hand.deal(rules, seed=seed)
    played = play_out(hand, random.Random(seed), go_out=False)
    assert hand.went_out is None or rules.multiple_plays
    if hand.went_out is None:
        assert sum(isinstance(m, (Play, Discard)) for m in played) == 104
        assert hand.stock_size == 0 and hand.held == ([], [])
        if not rules.multiple_plays:
            assert len(played) == 104  # one card a turn, 52 turns each


@settings(max_examples=20, deadline=None)
@given(seed=seeds)
def test_the_deal_is_reproducible_and_shaped_right(seed: int) -> None:
    for rules in RULE_SETS:
        for dealer in (0, 1):
            hand = Hand.deal(rules, seed=seed, dealer=dealer)
            assert hand == Hand.deal(rules, seed=seed, dealer=dealer)
            first = 1 - dealer
            assert len(hand.held[first]) == 8 + rules.draws_per_turn and len(hand.held[dealer]) == 8
            assert hand.stock_size == 104 - 16 - rules.draws_per_turn
            assert hand.to_move == first and not hand.discards


@settings(max_examples=15, deadline=None)
@given(seed=seeds, rules=rule_sets)
def test_views_agree_with_the_hand_and_hide_what_they_must(seed: int, rules: RuleSet) -> None:
    hand = Hand.deal(rules, seed=seed)
    rng = random.Random(seed)
    while not hand.is_over:
        p = hand.to_move
        view = hand.view(p)
        assert view.legal_moves() == hand.legal_moves()
        assert list(view.hand) == hand.held[p] and view.other_hand_size == len(hand.held[1 - p])
        assert view.value(0) == hand.value(0) and view.value(1) == hand.value(1)
        unseen = Counter(view.unseen())
        hidden_layers = sum(1 for sq in view.squares for s in range(1, 10) for face, _ in sq.pile(s)
                            if not isinstance(face, Card))
        assert sum(unseen.values()) == view.other_hand_size + view.stock_size + hidden_layers
        assert unseen == Counter(hand.held[1 - p]) + Counter(hand._stock) + Counter(
            face for owner in (0, 1) for s in range(1, 10)
            for (face, up), placer in zip(hand.squares[owner].pile(s), hand.squares[owner].laid_by_other(s))
            if not up and (1 - owner if placer else owner) != p)
        hand.apply(rng.choice(hand.legal_moves()))


def test_what_the_engine_hands_out_cannot_change_behind_its_back() -> None:
    hand = Hand.deal(seed=8)
    for _ in range(20):
        hand.apply(hand.legal_moves()[0])
    view = hand.view(hand.to_move)
    moves = view.legal_moves()
    with pytest.raises(AttributeError):
        view.squares[0].open_mask = 0  # type: ignore[misc]
    assert view.legal_moves() == moves
    assert view == hand.view(hand.to_move)
    for mutable_value in (view, view.squares[0]):
        with pytest.raises(TypeError):
            hash(mutable_value)
    squares = hand.squares
    before = [str(square) for square in squares]
    hand.apply(hand.legal_moves()[0])
    assert [str(square) for square in squares] == before, "a snapshot does not follow later moves"


def test_hidden_cards_are_two_immutable_values() -> None:
    from leopard_tutor.engine import Hidden, LeopardError

    assert Hidden(True) is Hidden(jack_only=True) and Hidden() is Hidden(False)
    assert len({Hidden(True), Hidden(False), Hidden(True)}) == 2
    with pytest.raises(AttributeError):
        Hidden(False).jack_only = True  # type: ignore[misc]
    assert Hidden(False).ranks == (11, 12)
    with pytest.raises(LeopardError):
        Hidden(1)  # type: ignore[arg-type]


def test_a_match_hands_out_copies_of_its_finished_hands() -> None:
    from leopard_tutor.engine import Match

    match = Match(seed=4)
    while not match.current.is_over:
        match.current.apply(match.current.legal_moves()[-1])
    totals = match.totals
    finished = match.hands_played[0]
    finished.undo()
    assert match.current.is_over and match.totals == totals
