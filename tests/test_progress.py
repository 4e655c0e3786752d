"""Progress: stars and unlocking, what is earned here told apart from what a code brings, and the export/import
code (a damaged code changes nothing)."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from leopard_tutor.engine import LeopardError
from leopard_tutor.lessons import CONCEPTS, LESSONS, Progress, ProgressCodeError
from leopard_tutor.lessons.progress import CODE_PREFIX

KEYS = [lesson.key for lesson in LESSONS]


def test_only_the_first_stage_is_open_at_first_and_solving_unlocks_the_next() -> None:
    progress = Progress()
    assert progress.unlocked == KEYS[:1]
    assert not progress.is_unlocked(KEYS[1])
    attempt = LESSONS[0].new_attempt()
    attempt.try_move(LESSONS[0].solution[0])
    progress.record_lesson(LESSONS[0].key, attempt.stars)
    assert progress.unlocked == KEYS[:2]
    progress.record_lesson(KEYS[1], 1)
    progress.record_lesson(KEYS[1], 3)
    progress.record_lesson(KEYS[1], 2)
    assert progress.stars[KEYS[1]] == 3, "the best result is kept"
    assert progress.unlocked == KEYS[:3]


def test_bad_records_are_refused() -> None:
    progress = Progress()
    with pytest.raises(LeopardError):
        progress.record_lesson("no-such-lesson", 3)
    with pytest.raises(LeopardError):
        progress.record_lesson(KEYS[0], 4)
    with pytest.raises(LeopardError):
        progress.record_practice("juggling", True)
    assert progress.stars == {} and progress.practice == {}


def filled() -> Progress:
    progress = Progress()
    for key, stars in zip(KEYS[:5], (3, 2, 1, 3, 2)):
        progress.record_lesson(key, stars)
    for n, concept in enumerate(CONCEPTS):
        for i in range(n + 3):
            progress.record_practice(concept, i % 3 != 0)
    return progress


def test_only_what_is_earned_here_is_told_to_the_earned_listeners() -> None:
    """A stage solved and each practice answer are told as they happen; progress loaded or merged from a code (which
    a browser may bring, edited) changes the stars and the record but is never told as earned."""
    progress, earned = Progress(), []
    progress.earned_listeners.append(lambda stars, practice: earned.append((stars, practice)))
    brought = Progress()
    brought.stars = dict.fromkeys(KEYS, 3)
    brought.practice = dict.fromkeys(CONCEPTS[:-1], (1_000_000, 0))
    progress.load_code(brought.to_code())
    assert not progress.merge_code(brought.to_code())
    other = Progress()
    other.record_practice(CONCEPTS[-1], False)
    assert progress.merge_code(other.to_code()) and progress.stars == brought.stars
    assert earned == []
    progress.record_lesson(KEYS[0], 2)
    progress.record_practice("jacks", True)
    progress.record_practice("jacks", False)
    assert earned == [({KEYS[0]: 2}, {}), ({}, {"jacks": (1, 0)}), ({}, {"jacks": (0, 1)})]
    assert progress.stars[KEYS[0]] == 3, "the best stars stay the page's own"


def test_code_round_trips_and_is_short() -> None:
    progress = filled()
    code = progress.to_code()
    assert code.startswith(CODE_PREFIX) and len(code) < 300
    assert code.isascii() and " " not in code
    again = Progress.from_code(code)
    assert again.stars == progress.stars and again.practice == progress.practice
    assert again.unlocked == progress.unlocked == KEYS[:6]
    assert Progress.from_code(Progress().to_code()).stars == {}


def test_code_survives_whitespace_from_copy_and_paste() -> None:
    code = filled().to_code()
    spaced = f"  {code[:20]}\n{code[20:]}  "
    assert Progress.from_code(spaced).stars == filled().stars


@pytest.mark.parametrize("damage", [
    lambda c: c[:-6],
    lambda c: c[:10] + ("A" if c[10] != "A" else "B") + c[11:],
    lambda c: c.replace(CODE_PREFIX, "XX1-"),
    lambda c: "",
    lambda c: CODE_PREFIX + "!!!!",
    lambda c: CODE_PREFIX,
])
def test_a_damaged_code_is_a_clear_error_and_changes_nothing(damage) -> None:
    progress = filled()
    before = (dict(progress.stars), dict(progress.practice))
    with pytest.raises(ProgressCodeError) as error:
        progress.load_code(damage(progress.to_code()))
    assert "code" in str(error.value)
    assert (progress.stars, progress.practice) == before


def test_a_code_survives_lessons_added_or_reordered() -> None:
    fewer = Progress(LESSONS[:3])
    fewer.record_lesson(KEYS[2], 3)
    assert Progress().load_code(fewer.to_code()) is None
    assert Progress.from_code(fewer.to_code()).stars == {KEYS[2]: 3}
    reordered = Progress(tuple(reversed(LESSONS)))
    reordered.record_lesson(KEYS[1], 2)
    assert Progress.from_code(reordered.to_code()).stars == {KEYS[1]: 2}


def test_codes_of_the_first_format_still_load() -> None:
    """A code made by the LT1 format (stars by position) before codes were keyed by lesson."""
    progress = Progress.from_code("LT1-eNqrVipWslIyNjIwMDSAACUdpQIlq-hoAx2DWB0oaahjCCYRIggythYAFoMQLQ")
    assert progress.stars == {"the-square": 3, "aces-to-nines": 2, "kings": 1}
    assert progress.practice == {"tens": (1, 1), "jacks": (1, 0)}


def packed(data: object, prefix: str = CODE_PREFIX) -> str:
    return prefix + base64.urlsafe_b64encode(zlib.compress(json.dumps(data).encode())).decode()


@pytest.mark.parametrize("code", [
    CODE_PREFIX + "A" * 300_000,
    packed({"s": {}, "p": {}, "pad": "x" * 100_000}),
    "LT2-" + base64.urlsafe_b64encode(zlib.compress(b"[" * 10_000_000, 9)).decode(),
])
def test_a_code_too_long_to_be_ours_is_refused_before_it_costs_memory(code: str) -> None:
    progress = filled()
    before = (dict(progress.stars), dict(progress.practice))
    with pytest.raises(ProgressCodeError) as refused:
        progress.load_code(code)
    assert refused.value.key == "sections.progress.too_long"
    assert (progress.stars, progress.practice) == before


@pytest.mark.parametrize("data", [
    {"s": {KEYS[0]: True}, "p": {}}, {"s": {KEYS[0]: 4}, "p": {}}, {"s": {KEYS[0]: 2.0}, "p": {}},
    {"s": {}, "p": {"tens": [10**40, 0]}}, {"s": {}, "p": {"tens": [True, 0]}}, {"s": {}, "p": {"juggling": [1, 0]}},
    {"s": [], "p": {}}, [], "text", {"s": {}, "p": {"tens": [1]}},
])
def test_codes_of_the_wrong_shape_are_refused(data: object) -> None:
    with pytest.raises(ProgressCodeError):
        Progress().load_code(packed(data))


def test_deeply_nested_codes_are_refused_cleanly() -> None:
    with pytest.raises(ProgressCodeError):
        Progress().load_code(packed(None).replace(packed(None), CODE_PREFIX + base64.urlsafe_b64encode(
            zlib.compress(b"[" * 3000 + b"]" * 3000)).decode()))


def test_not_text_is_refused() -> None:
    with pytest.raises(ProgressCodeError) as refused:
        Progress().load_code(12345)  # type: ignore[arg-type]
    assert refused.value.key == "sections.progress.not_text"
