"""Every claim a placement reason makes about the square is true: which spaces are open for the card,
which hold a card to cover, what lies on the space. Each is recomputed from the placement masks
(`allowed_spaces`), not from the code that wrote the sentence."""

from __future__ import annotations

import pytest
from positions import random_hand

from leopard_tutor.engine import ALL_CARDS, RULE_SETS, Card, RuleSet, Square, allowed_spaces, check_play
from leopard_tutor.engine.cards import JACK, TEN
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.legality import spaces_of


def spaces_in_words(spaces: list[int]) -> str:
    if len(spaces) == 1:
        return text("engine.spaces.one", space=spaces[0]).capitalize()
    return text("engine.spaces.many", first=", ".join(map(str, spaces[:-1])), last=spaces[-1]).capitalize()


def claimed_advice(card: Card, square: Square, own: bool, code: str, other: Square) -> str | None:
    """The advice the reason must give, worked out from the placement masks alone (`other`: the other square)."""
    if code == "wrong-space":
        blocker = square.top(card.rank)
        if allowed_spaces(card.rank, square, own) >> (card.rank - 1) & 1:
            return text("engine.illegal.wrong_space.open", number=card.rank)
        assert blocker is not None and blocker[1], "a numbered card is kept off its space only by a face-up card"
        there = "open" if allowed_spaces(card.rank, other, not own) >> (card.rank - 1) & 1 else "taken"
        return text(f"engine.illegal.wrong_space.taken_other_{there}", number=card.rank,
                    the_blocker=blocker[0].the_name,
                    other=text(f"engine.illegal.numbered_covered.{'own' if own else 'other'}_other"))
    if code == "covered" and card.rank < TEN:  # the other square's space only where the card may go
        side = "own" if own else "other"
        elsewhere = allowed_spaces(card.rank, other, not own) >> (card.rank - 1) & 1
        return text(f"engine.illegal.numbered_covered.{'cover_or_other' if elsewhere else 'cover'}",
                    cover=text(f"engine.illegal.numbered_covered.{side}"), number=card.rank,
                    other=text(f"engine.illegal.numbered_covered.{side}_other"))
    if code == "covered" and card.rank == TEN:
        open_spaces = spaces_of(allowed_spaces(TEN, square, True))
        key = "none_open" if not open_spaces else "one_open" if len(open_spaces) == 1 else "open"
        return text(f"engine.illegal.ten_covered.{key}", spaces=spaces_in_words(open_spaces) if open_spaces else "")
    if code == "needs-card":
        with_card = spaces_of(allowed_spaces(JACK, square, True))  # a jack may cover any card at all
        key = "none" if not with_card else "one" if len(with_card) == 1 else "some"
        return text(f"engine.illegal.needs_card.{key}", spaces=spaces_in_words(with_card) if with_card else "")
    return None


def squares_seen(rules: RuleSet) -> list[tuple[Square, Square]]:
    """Squares of random hands, each with the other square of its hand."""
    found = []
    for seed in range(25):
        first, second = random_hand(rules, seed).squares
        found += [(first, second), (second, first)]
    return found


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_every_placement_reason_tells_the_truth_about_the_square(rules: RuleSet) -> None:
    checked = 0
    for square, other in squares_seen(rules):
        for card in ALL_CARDS:
            for own in (True, False):
                for space in range(1, 10):
                    verdict = check_play(card, square, space, own=own, other=other)
                    top = square.top(space)
                    if verdict.legal:
                        if card.rank <= TEN:
                            state = "empty" if top is None else "face_down"
                            family = "numbered" if card.rank < TEN else "ten"
                            assert text(f"engine.legal.{family}.{state}") in verdict.reason
                        continue
                    advice = claimed_advice(card, square, own, verdict.code, other)
                    if advice is not None:
                        assert advice in verdict.reason, (str(square), str(card), own, space, verdict.reason)
                        checked += 1
                    if verdict.code == "covered":
                        assert top is not None and top[1] and top[0].the_name in verdict.reason
    assert checked > 1000
