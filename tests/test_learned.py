"""The master's learned value: its features, the shipped weights' file, and the script that makes it."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from project_scripts import load_script

from leopard_tutor.ai.evaluation import hand_tuned
from leopard_tutor.ai.learned import (
    FEATURES,
    LearnedValues,
    ValuesError,
    features,
    learned_value,
    load_values,
    shipped_values,
)
from leopard_tutor.ai.position import Position
from leopard_tutor.engine import REVISED_2008, RULE_SETS, RUNNING_LEOPARD, GoOut, Hand

ROOT = Path(__file__).resolve().parent.parent


def script() -> ModuleType:
    """scripts/train_values.py, imported."""
    return load_script("train_values")


def test_the_shipped_weights_cover_every_rule_set_and_say_how_they_were_made() -> None:
    values = load_values()
    assert set(values.weights) == set(RULE_SETS)
    assert all(len(weights) == len(FEATURES) and all(math.isfinite(w) for w in weights)
               for weights in values.weights.values())
    assert values.made_by == {"script": "scripts/train_values.py", **script().SETTINGS}
    assert LearnedValues.from_json(values.to_json()) == values


@pytest.mark.parametrize("text", [
    "not json",
    "[]",
    json.dumps({"features": ["bias"], "made_by": {}, "weights": {}}),
    json.dumps({"features": list(FEATURES), "made_by": {}, "weights": {"REVISED_2008": [1.0]}}),
    json.dumps({"features": list(FEATURES), "made_by": {}, "weights": {"MADE_UP": [0.0] * len(FEATURES)}}),
    json.dumps({"features": list(FEATURES), "made_by": {}, "weights": {"REVISED_2008": [True] * len(FEATURES)}}),
    json.dumps({"features": list(FEATURES), "made_by": {}, "weights": []}),
    '{"features": ' + json.dumps(list(FEATURES)) + ', "made_by": {}, "weights": {"REVISED_2008": ['
    + ", ".join(["NaN"] * len(FEATURES)) + "]}}",
])
def test_a_malformed_weights_file_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ValuesError):
        LearnedValues.from_json(text)


def test_the_value_is_the_weighted_features_and_exact_once_the_hand_is_over() -> None:
    hand = Hand.deal(REVISED_2008, seed=11)
    for _ in range(30):
        hand.apply(sorted(hand.legal_moves(), key=str)[0])
    pos = Position.from_hand(hand, hand.to_move)
    row = features(pos)
    assert len(row) == len(FEATURES) and row[0] == 1.0
    weights = shipped_values().weights[REVISED_2008.key]
    assert learned_value(pos) == pytest.approx(sum(w * x for w, x in zip(weights, row)))
    doubled = LearnedValues({REVISED_2008.key: tuple(2 * w for w in weights)}, {})
    assert learned_value(pos, values=doubled) == pytest.approx(2 * learned_value(pos))
    # a custom rule set (one read from a saved game) has no learned weights: the hand-tuned evaluation judges it
    custom = replace(REVISED_2008, out_threshold=9)
    other = Position.from_hand(Hand(custom, hand.squares, hand.held, [], hand.discards, hand.to_move, 0), 0)
    assert learned_value(other) == hand_tuned(other)
    ended = Hand.deal(REVISED_2008, seed=3)
    while GoOut() not in ended.legal_moves() and not ended.is_over:
        ended.apply(sorted(ended.legal_moves(), key=str)[-1])
    if not ended.is_over:
        ended.apply(GoOut())
    scores = ended.scores()
    assert learned_value(Position.from_hand(ended, 0)) == scores[0] - scores[1]


def test_the_training_script_makes_the_same_weights_from_the_same_seed_on_any_number_of_workers(
        tmp_path: Path) -> None:
    trainer = script()
    settings = {**trainer.SETTINGS, "hands": 6, "rounds": 2}
    said: list[str] = []
    one = trainer.train(settings, [RUNNING_LEOPARD.key], 1, said.append)
    assert len(said) == 2 and set(one.weights) == {RUNNING_LEOPARD.key}
    assert one.made_by == {"script": "scripts/train_values.py", **settings}
    assert trainer.train({**settings, "seed": 2}, [RUNNING_LEOPARD.key], 1, said.append).weights != one.weights
    out = tmp_path / "values.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "train_values.py"), "--hands", "6", "--rounds", "2",
                           "--rules", RUNNING_LEOPARD.key, "--workers", "2", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert load_values(out) == one
    check = [sys.executable, str(ROOT / "scripts" / "train_values.py"), "--hands", "6", "--rounds", "2", "--rules",
             RUNNING_LEOPARD.key, "--workers", "1", "--out", str(out), "--check"]
    same = subprocess.run(check, capture_output=True, text=True, timeout=300, check=False)
    assert same.returncode == 0 and "holds exactly these weights" in same.stdout
    other = subprocess.run([*check[:3], "3", *check[4:]], capture_output=True, text=True, timeout=300, check=False)
    assert other.returncode == 1 and f"differs: {RUNNING_LEOPARD.key}, made_by" in other.stdout
    both = trainer.train(settings, [REVISED_2008.key, RUNNING_LEOPARD.key], 1, said.append)
    assert both.weights[RUNNING_LEOPARD.key] == one.weights[RUNNING_LEOPARD.key]  # whatever is trained beside it
    bad = subprocess.run([sys.executable, str(ROOT / "scripts" / "train_values.py"), "--hands", "0",
                          "--out", str(out)], capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "at least 1" in bad.stderr


def test_the_fit_recovers_weights_that_explain_the_rows_exactly() -> None:
    trainer = script()
    truth = [0.5 * (i % 5) - 1.0 for i in range(len(FEATURES))]
    rows = []
    for n in range(200):
        row = [1.0] + [math.sin(n * (k + 1) * 0.37) for k in range(len(FEATURES) - 1)]
        rows.append((row, sum(w * x for w, x in zip(truth, row))))
    assert trainer.fit(rows, 1e-9) == pytest.approx(truth, abs=1e-6)
