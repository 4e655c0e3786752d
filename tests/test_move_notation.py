"""One move notation, the engine's: `str(move)` reads back with `Move.parse`, and so does the form seen
from one player ("your"/"their") that lesson files use."""

from __future__ import annotations

import pytest
from positions import random_hand

from leopard_tutor.engine import (
    RULE_SETS,
    Discard,
    EndTurn,
    GoOut,
    Move,
    NotationError,
    Play,
    RuleSet,
    move_notation,
    parse_move,
)
from leopard_tutor.engine.cards import Card
from leopard_tutor.engine.moves import spaces_for
from leopard_tutor.lessons import move_text
from leopard_tutor.lessons import parse_move as lesson_move


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_every_legal_move_reads_back_from_its_notation(rules: RuleSet) -> None:
    for seed in range(30):
        hand = random_hand(rules, seed)
        for move in hand.legal_moves():
            assert isinstance(move, Move) and Move.parse(str(move)) == move
            assert type(move).parse(str(move)) == move
            for viewer in (0, 1):
                assert Move.parse(move_notation(move, viewer), viewer=viewer) == move
            assert lesson_move(move_text(move)) == move


@pytest.mark.parametrize("text", ["play 7H on your 7", "play 7H on player 2's space 7", "play 7H on 7",
                                  "discard", "go home", "x" * 500, "play 7ſ on player 0's space 7"])
def test_what_is_not_a_move_in_notation_is_refused_with_a_short_message(text: str) -> None:
    with pytest.raises(NotationError) as error:
        Move.parse(text)
    assert len(str(error.value)) < 300


def test_move_parse_is_the_public_notation_api() -> None:
    """The names outside code uses: `Move.parse(text, viewer=None)`, a base class for type hints and
    isinstance, and `parse_move` as the same function."""
    assert Move.parse("play 7H on player 1's space 3") == Play(Card.parse("7H"), 1, 3)
    assert Move.parse("play JC on their 3", viewer=0) == Play(Card.parse("JC"), 1, 3)
    assert Move.parse("play JC on their 3", viewer=1) == Play(Card.parse("JC"), 0, 3)
    assert Move.parse("  Discard   5d ") == Discard(Card.parse("5D"))
    assert Move.parse("go out") == GoOut() and Move.parse("end turn") == EndTurn()
    assert parse_move == Move.parse
    assert all(issubclass(kind, Move) for kind in (Play, Discard, GoOut, EndTurn))
    with pytest.raises(NotationError, match="not a Play"):
        Play.parse("discard 5D")
    with pytest.raises(NotationError, match="need a player"):
        Move.parse("play 7H on your 7")


def test_spaces_for_a_card_are_its_plays_by_the_squares_owner() -> None:
    """`spaces_for`: where the moves play the card, by square; another card's plays and a discard add nothing."""
    seven, king = Card.parse("7H"), Card.parse("KS")
    moves: list[Move] = [Play(seven, 0, 7), Play(seven, 1, 7), Play(seven, 0, 3), Play(king, 0, 1), Discard(seven),
                         GoOut()]
    assert spaces_for(seven, moves) == {0: {3, 7}, 1: {7}}
    assert spaces_for(king, moves) == {0: {1}, 1: set()}
    assert spaces_for(Card.parse("2C"), moves) == {0: set(), 1: set()}
