"""The worked examples C1-C8: every value the sources state, and every value rules.md worked out,
is recomputed by the engine from the start square and the moves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from keyed import mark, said

from leopard_tutor.engine import ORIGINAL_1963, REVISED_2008, Card, Square, check_play, square_value
from leopard_tutor.examples import NOT_RECONSTRUCTED, WORKED_EXAMPLES, ExampleFormatError, load_examples
from leopard_tutor.examples.model import EXAMPLES_FILE

ALL = [v for e in WORKED_EXAMPLES for v in (e, e.mirrored) if v is not None]
BY_KEY = {e.key: e for e in WORKED_EXAMPLES}


def values(key: str, mirrored: bool = False) -> list[int]:
    example = BY_KEY[key].mirrored if mirrored else BY_KEY[key]
    assert example is not None
    return [step.value for step in example.steps]


def test_keys_in_source_order_and_c7_marked_as_lost() -> None:
    assert [e.key for e in WORKED_EXAMPLES] == ["C1", "C2", "C3", "C4", "C5", "C6", "C8"]
    assert [m.key for m in NOT_RECONSTRUCTED] == ["C7"]
    assert "cannot be rebuilt" in NOT_RECONSTRUCTED[0].why
    for example in WORKED_EXAMPLES:
        assert example.title and example.intro and example.steps
        assert example.mirrored is not None and example.mirrored.rules is not example.rules


@pytest.mark.parametrize("example", ALL, ids=lambda e: f"{e.key}-{e.rules.year}")
def test_every_stated_and_worked_out_value_is_the_engines(example) -> None:
    checked = 0
    for step in example.steps:
        assert step.value == square_value(step.square, example.rules)
        assert step.caption
        for claim in (step.stated, step.expected):
            if claim is not None:
                assert step.value == claim, (example.key, step.caption)
                checked += 1
        for claim in (step.stated_with_bonus, step.expected_with_bonus):
            if claim is not None:
                assert step.with_bonus == claim
        assert sum(line.points for line in step.scoring) == step.value
    assert checked == len(example.steps), "every step carries a value to check"


def test_the_headline_numbers() -> None:
    assert values("C3") == [1, 8]
    assert values("C3", mirrored=True) == [1, 6]
    assert values("C4")[0] == 6 and values("C4")[-1] == 0
    assert values("C6") == [3, 9, 3]
    assert values("C2")[-1] == 4
    assert values("C5")[:3] == [1, 1, 8]
    c8 = BY_KEY["C8"]
    assert c8.rules is ORIGINAL_1963 and c8.steps[-1].value == 8 and c8.steps[-1].with_bonus == 11
    assert c8.steps[-1].stated_with_bonus == 11
    assert c8.mirrored is not None and c8.mirrored.rules is REVISED_2008
    assert (c8.mirrored.steps[-1].value, c8.mirrored.steps[-1].with_bonus) == (10, 13)


def test_c3_lines_after_the_king() -> None:
    step = BY_KEY["C3"].steps[1]
    assert sorted((line.name, line.kind, line.points) for line in step.scoring) == [
        ("column 1-4-7", "suit", 3), ("diagonal 1-5-9", "color", 1), ("diagonal 3-5-7", "color", 1),
        ("row 7-8-9", "suit", 3)]


def test_each_play_adds_one_card_where_it_says_and_refusals_come_from_the_engine() -> None:
    codes = []
    for example in ALL:
        for step in example.steps:
            if step.card is None:
                continue
            assert step.space is not None
            pile = step.square.pile(step.space)
            if step.refused is not None:
                assert not step.refused.legal and step.refused.reason
                codes.append((example.key, step.refused.code))
            else:
                assert pile[-1][0] is step.card
                assert pile[-1][1] is (step.card.rank not in (11, 12))
    assert sorted(set(codes)) == [("C1", "covered"), ("C2", "covered"), ("C4", "own-square-only"), ("C5", "covered")]


def test_c1_opponent_six_blocks_either_six() -> None:
    square = BY_KEY["C1"].steps[4].square
    for six in ("6H", "6S", "6D", "6C"):
        assert not check_play(Card.parse(six), square, 6, own=True)


def test_mirror_is_the_picture_flipped_top_to_bottom() -> None:
    c3 = BY_KEY["C3"]
    assert c3.mirrored is not None
    assert [str(s.square) for s in c3.steps] == [str(s.square) for s in c3.mirrored.steps]
    assert REVISED_2008.cell(7) == (2, 0) and ORIGINAL_1963.cell(7) == (0, 0)
    assert "top left" in c3.mirrored.steps[1].caption and "bottom row" in c3.steps[1].caption


def test_a_bad_examples_file_is_a_clear_error(tmp_path: Path, keyed: None) -> None:
    data = json.loads(EXAMPLES_FILE.read_text())
    data["examples"][2]["steps"][1]["play"] = "7S"  # a 7 cannot cover the face-up 7 of hearts
    path = tmp_path / "examples.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ExampleFormatError) as refused:
        load_examples(path)
    assert said(str(refused.value), "engine.illegal.numbered_covered", The_card=Card.parse("7S").the_name_first,
                the_shown=Card.parse("7H").the_name, where=mark("engine.place.own", space=7))
    path.write_text("{}")
    with pytest.raises(ExampleFormatError, match=r"examples\.json"):
        load_examples(path)


def test_start_squares_parse_and_round_trip() -> None:
    data = json.loads(EXAMPLES_FILE.read_text())
    for item in data["examples"]:
        assert str(Square.parse(item["start"])) == item["start"]


def test_package_docstring_example_runs() -> None:
    import doctest

    import leopard_tutor.examples
    assert doctest.testmod(leopard_tutor.examples).failed == 0
