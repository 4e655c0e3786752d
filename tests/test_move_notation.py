"""One move notation, the engine's: `str(move)` reads back with `parse_move`, and so does the form seen
from one player ("your"/"their") that lesson files use."""

from __future__ import annotations

import pytest
from positions import random_hand

from leopard_tutor.engine import RULE_SETS, NotationError, RuleSet, move_notation, parse_move
from leopard_tutor.lessons import move_text
from leopard_tutor.lessons import parse_move as lesson_move


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_every_legal_move_reads_back_from_its_notation(rules: RuleSet) -> None:
    for seed in range(30):
        hand = random_hand(rules, seed)
        for move in hand.legal_moves():
            assert parse_move(str(move)) == move
            for viewer in (0, 1):
                assert parse_move(move_notation(move, viewer), viewer=viewer) == move
            assert lesson_move(move_text(move)) == move


@pytest.mark.parametrize("text", ["play 7H on your 7", "play 7H on player 2's space 7", "play 7H on 7",
                                  "discard", "go home", "x" * 500, "play 7ſ on player 0's space 7"])
def test_what_is_not_a_move_in_notation_is_refused_with_a_short_message(text: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_move(text)
    assert len(str(error.value)) < 300
