"""The one turn runner: a chooser's moves are checked, made, and stop when the turn is over."""

from __future__ import annotations

import random

import pytest

from leopard_tutor.engine import ORIGINAL_1963, REVISED_2008, RUNNING_LEOPARD, EndTurn, Hand, Move, RuleSet
from leopard_tutor.engine.turns import TurnError, cards_drawn, play_turn, turn_began


def test_a_turn_ends_when_the_player_has_moved() -> None:
    hand = Hand.deal(seed=3)
    player = hand.to_move
    made = play_turn(hand, player, lambda: hand.legal_moves()[-1])
    assert len(made) == 1 and hand.to_move != player
    assert play_turn(hand, player, lambda: pytest.fail("not this player's turn")) == []


def test_a_running_leopard_turn_may_hold_several_moves_until_it_is_ended() -> None:
    hand = Hand.deal(RUNNING_LEOPARD, seed=5)
    player = hand.to_move

    def choose() -> Move:
        plays = [m for m in hand.legal_moves() if not isinstance(m, EndTurn) and str(m).startswith("play")]
        return plays[0] if hand.plays_made < 2 and plays else EndTurn()
    made = play_turn(hand, player, choose)
    assert made[-1] == EndTurn() and hand.to_move != player


def test_an_illegal_choice_or_a_turn_that_never_ends_is_a_fault() -> None:
    hand = Hand.deal(seed=3)
    with pytest.raises(TurnError, match="do not allow"):
        play_turn(hand, hand.to_move, EndTurn)
    before = hand.copy()
    assert hand == before
    running = Hand.deal(RUNNING_LEOPARD, seed=5)
    told: list[Move] = []
    with pytest.raises(TurnError, match="without ending the turn"):
        play_turn(running, running.to_move, lambda: running.legal_moves()[0], told.append)


def test_a_player_whose_move_comes_later_leaves_the_turn_waiting() -> None:
    """`choose` answering None (a person, a classmate elsewhere) stops the runner mid-turn, changing nothing more."""
    running = Hand.deal(RUNNING_LEOPARD, seed=5)
    player = running.to_move
    plays = [m for m in running.legal_moves() if str(m).startswith("play")]
    answers: list[Move | None] = [plays[0], None]
    made = play_turn(running, player, lambda: answers.pop(0))
    assert made == [plays[0]] and running.to_move == player and list(running.moves) == [plays[0]]
    assert play_turn(running, player, lambda: None) == [] and list(running.moves) == [plays[0]]


@pytest.mark.parametrize("rules", [REVISED_2008, ORIGINAL_1963, RUNNING_LEOPARD])
def test_the_cards_drawn_are_the_ones_the_turn_took_from_the_stock(rules: RuleSet) -> None:
    """`cards_drawn` names the cards the player to move drew as their turn began (the ones new in their hand), and
    none once they have played in the turn."""
    rng = random.Random(7)
    for seed in range(6):
        hand = Hand.deal(rules, seed=seed)
        player = hand.to_move
        assert cards_drawn(hand) == tuple(hand.held[player][-rules.draws_per_turn:]), "the first turn's draw"
        while not hand.is_over:
            mover, held_before = hand.to_move, list(hand.held[1 - hand.to_move])
            hand.apply(rng.choice(hand.legal_moves()))
            began = turn_began(hand)
            if began is None or hand.to_move == mover:
                if hand.plays_made:
                    assert cards_drawn(hand) == ()
                continue
            new = list(hand.held[hand.to_move])
            for card in held_before:
                new.remove(card)  # what is left is what the turn drew
            assert sorted(map(str, cards_drawn(hand))) == sorted(map(str, new)) and len(new) == began.drew
