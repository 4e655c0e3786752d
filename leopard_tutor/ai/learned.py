"""The master's evaluation: a linear value over features of a position, its weights learned by self-play.

`features` describes a `Position` by a few numbers (the hand-tuned evaluation's estimates of both squares, their
values now, who could go out, the face cards held, how far the stock has run down). The weights, one list per rule
set, are data (`data/values.json`), made by `scripts/train_values.py` from a seed: players choosing by the
previous weights play hands against each other, and a least-squares fit to the hands' final score differences
gives the next weights. `learned_value` is that fit's estimate of (my final score − theirs).
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path

from ..engine import RULE_SETS, RuleSet, hand_score, square_value
from .evaluation import DEFAULT_WEIGHTS, JACK_CODES, Memo, evaluate, expected_raw, final_score
from .position import Position

VALUES_FILE = Path(__file__).with_name("data") / "values.json"
FULL_STOCK = 88  # cards in the stock after the deal: the stock's share left is stock_size / FULL_STOCK
FEATURES = (
    "bias", "mine_expected", "theirs_expected", "mine_now", "theirs_now",
    "mine_expected_x_stock", "theirs_expected_x_stock", "mine_now_x_stock", "theirs_now_x_stock", "stock",
    "my_move", "i_may_go_out", "they_may_go_out", "my_going_out", "their_going_out",
    "my_going_out_now", "their_going_out_now", "i_go_out_now", "they_go_out_now",
    "their_jacks_while_i_may_go_out", "my_jacks_while_they_may_go_out", "my_jacks", "my_queens", "my_kings",
    "my_tens", "their_jacks", "they_may_go_out_on_my_move", "i_may_go_out_on_their_move",
    "evaluation", "evaluation_x_stock",
)
"""The features' names, in the order of `features` and of each rule set's weights."""


class ValuesError(ValueError):
    """The learned weights' file is missing, malformed or does not fit `FEATURES`."""


def features(pos: Position, memo: Memo | None = None) -> list[float]:
    """The numbers `learned_value` weighs, as `pos.me` can know them (`FEATURES` names them)."""
    rules = pos.rules
    me, other = pos.me, 1 - pos.me
    bonus_at, out_at = rules.bonus_threshold, rules.out_threshold
    mine_expected = final_score(expected_raw(pos, me, DEFAULT_WEIGHTS, memo), bonus_at)
    theirs_expected = final_score(expected_raw(pos, other, DEFAULT_WEIGHTS, memo), bonus_at)
    mine, theirs = square_value(pos.squares[me], rules), square_value(pos.squares[other], rules)
    mine_now, theirs_now = final_score(mine, bonus_at), final_score(theirs, bonus_at)
    stock = min(1.0, pos.stock_size / FULL_STOCK)
    my_move = 1.0 if pos.to_move == me else 0.0
    i_may = 1.0 if mine >= out_at else 0.0
    they_may = 1.0 if theirs >= out_at else 0.0
    my_out = (hand_score(mine, True, rules) - hand_score(theirs, False, rules)) * i_may
    their_out = (hand_score(theirs, True, rules) - hand_score(mine, False, rules)) * they_may
    fresh = 1.0 if pos.plays_made == 0 else 0.0
    i_now = my_move * fresh * i_may
    they_now = (1.0 - my_move) * fresh * they_may
    held = {rank: 0 for rank in (10, 11, 12, 13)}
    for card in pos.hand:
        if card.rank in held:
            held[card.rank] += 1
    jacks = min(held[11], 3)
    their_jacks = sum(pos.unseen[code] for code in JACK_CODES) * pos.other_hand_size / pos.unseen_total
    judged = evaluate(pos, DEFAULT_WEIGHTS, memo)
    return [1.0, mine_expected, theirs_expected, mine_now, theirs_now,
            mine_expected * stock, theirs_expected * stock, mine_now * stock, theirs_now * stock, stock,
            my_move, i_may, they_may, my_out, their_out,
            i_now * my_out, they_now * their_out, i_now, they_now,
            i_may * their_jacks, they_may * min(jacks, 2), jacks, min(held[12], 3), min(held[13], 3),
            min(held[10], 3), their_jacks, they_may * my_move, i_may * (1.0 - my_move),
            judged, judged * stock]


@dataclass(frozen=True)
class LearnedValues:
    """Each rule set's weights for `FEATURES`, and how they were made (the training script's settings)."""

    weights: dict[str, tuple[float, ...]]
    made_by: dict[str, object]

    def for_rules(self, rules: RuleSet) -> tuple[float, ...] | None:
        """The weights learned for `rules`, or None for a rule set they were not learned for (a custom one)."""
        if RULE_SETS.get(rules.key) != rules:
            return None
        return self.weights.get(rules.key)

    def to_json(self) -> str:
        """The file's text: the settings that made the weights, and the weights by rule set."""
        return json.dumps({"features": list(FEATURES), "made_by": self.made_by,
                           "weights": {key: list(values) for key, values in self.weights.items()}}, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> LearnedValues:
        """The weights from a file's text (ValuesError if it is not what `to_json` writes)."""
        try:
            data = json.loads(text)
        except ValueError as error:
            raise ValuesError(f"the learned values are not JSON: {error}") from None
        if not isinstance(data, dict) or data.get("features") != list(FEATURES):
            raise ValuesError("the learned values do not name the features this version computes")
        weights, made_by = data.get("weights"), data.get("made_by")
        if not isinstance(weights, dict) or not isinstance(made_by, dict):
            raise ValuesError("the learned values need 'weights' by rule set and 'made_by'")
        checked: dict[str, tuple[float, ...]] = {}
        for key, values in weights.items():
            if key not in RULE_SETS or not isinstance(values, list) or len(values) != len(FEATURES) or not all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values):
                raise ValuesError(f"the learned values for {key!r} are not {len(FEATURES)} finite numbers")
            checked[key] = tuple(float(v) for v in values)
        return cls(checked, made_by)


def load_values(path: Path = VALUES_FILE) -> LearnedValues:
    """The shipped weights (`data/values.json`)."""
    return LearnedValues.from_json(path.read_text(encoding="utf-8"))


@functools.cache
def shipped_values() -> LearnedValues:
    """The shipped weights, read once."""
    return load_values()


def learned_value(pos: Position, memo: Memo | None = None, values: LearnedValues | None = None) -> float:
    """Expected (my final score − theirs) for `pos.me` by the learned weights for its rules (exact once the hand
    is over; the hand-tuned evaluation for rules no weights were learned for)."""
    weights = (values or shipped_values()).for_rules(pos.rules)
    if pos.over or weights is None:
        return evaluate(pos, DEFAULT_WEIGHTS, memo)
    return sum(w * x for w, x in zip(weights, features(pos, memo)))
