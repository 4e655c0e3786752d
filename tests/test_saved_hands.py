"""Saved hands: corrupt or tampered JSON is refused with a clear SavedGameError, whatever it holds."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from keyed import mark, said

from leopard_tutor.engine import (
    ORIGINAL_1963,
    PLACEMENT,
    REVISED_2008,
    RUNNING_LEOPARD,
    Card,
    Hand,
    Match,
    RuleSet,
    SavedGameError,
    Square,
)


def saved(seed: int = 4, moves: int = 10) -> dict[str, Any]:
    hand = Hand.deal(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        hand.apply(rng.choice(hand.legal_moves()))
    data: dict[str, Any] = json.loads(hand.to_json())
    return data


@pytest.mark.parametrize(("change", "complaint"), [
    (lambda d: d.update(format="chess"), "not a saved Leopard hand"),
    (lambda d: d.update(version=9), "version"),
    (lambda d: d.update(rules="1999"), "unknown rule set"),
    (lambda d: d.pop("moves"), "no 'moves'"),
    (lambda d: d["start"].update(to_move=5), "player 0 or 1"),
    (lambda d: d["start"]["hands"][0].append("AS") or d["start"]["hands"][0].append("AS")
     or d["start"]["hands"][0].append("AS"), "more often"),
    (lambda d: d["start"]["squares"].__setitem__(0, "7H* . . . . . . . ."), "only jacks and queens"),
    (lambda d: d["moves"].append({"play": "ZZ", "square": 0, "space": 1}), "cannot be read: 'ZZ' is not a card"),
    (lambda d: d["moves"].append({"fly": "AS"}), "is not a move"),
    (lambda d: d["moves"].insert(0, {"go out": True}), "move 1 \\(go out\\) is not legal"),
    (lambda d: d["moves"].insert(0, {"play": "AS", "square": 0, "space": 3}), "is not legal"),
])
def test_tampered_saves_are_refused(change: Any, complaint: str) -> None:
    data = saved()
    change(data)
    with pytest.raises(SavedGameError, match=complaint):
        Hand.from_json(json.dumps(data))


@pytest.mark.parametrize("text", ["", "{", "null", "[1, 2]", '"hand"', "{}", b"\xff\xfe"])
def test_not_a_saved_hand(text: str | bytes) -> None:
    with pytest.raises(SavedGameError):
        Hand.from_json(text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 110) | st.sampled_from(["AS", "7H", "QD*", ".", "REVISED_2008"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["format", "version", "rules", "dealer", "start", "moves", "squares", "hands", "stock", "discards",
         "to_move", "play", "square", "space", "discard"]), inner, max_size=5),
    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_fuzzed_json_only_raises_saved_game_errors(value: Any) -> None:
    with pytest.raises(SavedGameError):
        Hand.from_json(json.dumps(value))


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_fuzzed_edits_of_a_real_save_are_refused_or_replay(data: st.DataObject) -> None:
    base = saved(seed=data.draw(st.integers(0, 50)), moves=data.draw(st.integers(0, 30)))
    key = data.draw(st.sampled_from(["rules", "dealer", "moves", "start"]))
    base[key] = data.draw(json_values)
    try:
        hand = Hand.from_json(json.dumps(base))
    except SavedGameError as error:
        assert str(error)
    else:
        assert Hand.from_json(hand.to_json()) == hand


@pytest.mark.parametrize("base", [REVISED_2008, ORIGINAL_1963, RUNNING_LEOPARD])
def test_a_saved_game_keeps_every_setting_of_its_rules(base: RuleSet) -> None:
    custom = dataclasses.replace(base, out_penalty=0, hands_per_match=2)
    assert Hand.from_json(Hand.deal(custom, seed=1).to_json()).rules == custom
    assert Hand.from_json(Hand.deal(base, seed=1).to_json()).rules is base
    match = Match(custom, seed=3)
    assert Match.from_json(match.to_json()).rules == custom


def test_older_saves_that_name_their_rules_by_key_still_load() -> None:
    data = saved()
    data["rules"] = "ORIGINAL_1963"
    assert Hand.from_data(data).rules is ORIGINAL_1963


@pytest.mark.parametrize(("setting", "value"), [
    ("out_penalty", 1.0), ("out_penalty", True), ("suit_points", 10**40), ("draws_per_turn", 0),
    ("multiple_plays", 1), ("title", ""), ("extra", 1),
])
def test_bad_rule_settings_in_a_save_are_refused(setting: str, value: Any) -> None:
    data = saved()
    data["rules"] = dict(REVISED_2008.to_data(), **{setting: value})
    with pytest.raises(SavedGameError, match="rule"):
        Hand.from_data(data)


@pytest.mark.parametrize(("field", "value"), [
    ("to_move", 1.0), ("to_move", True), ("plays_made", 10**9), ("plays_made", 1.0),
])
def test_start_numbers_of_the_wrong_type_or_size_are_refused(field: str, value: Any) -> None:
    data = saved(moves=0)
    data["start"][field] = value
    with pytest.raises(SavedGameError):
        Hand.from_data(data)


def test_a_dealer_given_as_a_float_is_refused() -> None:
    data = saved(moves=0)
    data["dealer"] = 1.0
    with pytest.raises(SavedGameError):
        Hand.from_data(data)


@pytest.mark.parametrize(("square", "card", "space"), [(". . . / . . . / 9S . .", "9S", 7),
                                                     (". 2S+2H . / . . . / . . .", "2H", 2)])
def test_impossible_placements_in_a_saved_start_are_refused(square: str, card: str, space: int, keyed: None) -> None:
    five, six, seven = ([Card.parse(code)] for code in ("5C", "6C", "7C"))
    text = Hand(REVISED_2008, (Square.parse(square), Square()), (five, six), seven, [], 0, 1).to_json()
    with pytest.raises(SavedGameError, match="impossible") as error:
        Hand.from_json(text)
    assert said(str(error.value), "engine.impossible_pile", the_what=Card.parse(card).the_name, space=space,
                rule=mark(f"engine.rule.{PLACEMENT[Card.parse(card).rank].rule_key}")), \
        "the card, its space and the rule it breaks are given"
    assert Hand.from_json(Hand(REVISED_2008, (Square.parse(". 2S+JD*+2H . / . . . / . . ."), Square()),
                               (five, six), seven, [], 0, 1).to_json())


@pytest.mark.parametrize(("space", "card"), [(8, "QS"), (1, "JD")])
def test_a_saved_start_with_a_face_down_card_on_an_empty_space_is_refused(space: int, card: str) -> None:
    piles: list[list[tuple[Card, bool]]] = [[] for _ in range(9)]
    piles[space - 1].append((Card.parse(card), False))
    five, six, seven = ([Card.parse(code)] for code in ("5C", "6C", "7C"))
    text = Hand(REVISED_2008, (Square(piles), Square()), (five, six), seven, [], 0, 1).to_json()
    with pytest.raises(SavedGameError, match=f"not valid: .* space {space}: a face-down card .* never on an empty"):
        Hand.from_json(text)


def test_a_move_with_a_float_for_a_number_is_a_clear_error() -> None:
    data = saved(moves=0)
    data["moves"] = [{"play": "5S", "square": 0.0, "space": 5}]
    with pytest.raises(SavedGameError):
        Hand.from_data(data)


def test_error_messages_quote_at_most_about_80_characters() -> None:
    with pytest.raises(SavedGameError) as error:
        Hand.from_data(dict(saved(moves=0), moves=[{"discard": "x" * 5000}]))
    assert len(str(error.value)) < 300


def test_texts_too_long_to_be_a_saved_hand_or_match_are_refused_before_parsing() -> None:
    padded = Hand.deal(seed=1).to_json()[:-1] + ', "x": "' + "x" * 600_000 + '"}'
    for parse in (Hand.from_json, Match.from_json):
        with pytest.raises(SavedGameError, match="too long") as error:
            parse(padded)
        assert len(str(error.value)) < 120


def test_messages_quote_deeply_nested_or_huge_values_briefly() -> None:
    nested: Any = "AS"
    for _ in range(5_000):
        nested = [nested]
    for move in (nested, {"discard": nested}, {"play": "AS", "square": 10**300, "space": 1}):
        with pytest.raises(SavedGameError) as error:
            Hand.from_data(dict(saved(moves=0), moves=[move]))
        assert len(str(error.value)) < 200
