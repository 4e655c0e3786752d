"""A lint on fixed words a learner reads (lesson files, the worked examples): no value or point count
written as a number or in words, no line or place on the square named, no count of cards or lines, since
those are facts of a position and come from the engine as `{placeholders}`. A sentence that states a
rule with a number or a line in it passes only when the caller's whitelist names it."""

from __future__ import annotations

import re
from collections.abc import Mapping

LINE_NAME = re.compile(r"\b\d-\d-\d\b|\b(?:top|middle|bottom|left|right|first|second|third|centre|center)\s+"
                       r"(?:row|column)s?\b|\bdiagonals?\b", re.IGNORECASE)
"""A line named: by its spaces, by where it lies, or a diagonal."""
PLACE_NAME = re.compile(r"\b(?:top|bottom|upper|lower)[\s-]+(?:left|right)\b|\bcorners?\b|\bcent(?:re|er)\b"
                        r"|\b(?:rows?|columns?)\s+(?:below|above|to\s+the\s+(?:left|right))\b"
                        r"|\bto\s+its\s+(?:left|right)\b", re.IGNORECASE)
"""A space placed on the drawn square (which the 1963 keypad layout turns upside down)."""
NUMBER_ALLOWED = re.compile(
    r"\b\d{4}\b"  # a year: the 1963 and 2008 rules
    r"|\bC\d\b"  # a worked example's key
    r"|\bspaces? \d\b"  # a space's label
    r"|\b(?:ace|[2-9]|10) of (?:hearts|diamonds|spades|clubs)\b"  # a card by name
    # a card by rank
    r"|\b(?:a|an|another|the|your|their|opponent's|red|black|any) (?:[1-9]|10)\b(?! points?| or more| or less)"
    r"|\b\d, \d, \d\b|\bnumbers \d to \d\b",  # the labels in reading order
    re.IGNORECASE)
"""Where a digit names a card, a space, a label, a year or an example rather than a value."""
_NUMBER_WORD = r"(?:no|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+)"
COUNT_WORDS = re.compile(
    rf"\b(?:hold|holds|held|holding)\s+{_NUMBER_WORD}\s+cards?\b"
    rf"|\b{_NUMBER_WORD}\s+(?:bonus\s+)?points?\b"
    rf"|\b(?:worth|scores?|scored)\s+{_NUMBER_WORD}\b|\bworth\s+nothing\b"
    rf"|\b(?:{_NUMBER_WORD}|both)\s+(?:\w+\s+)?lines?\b|\bnothing\s+scores\b"
    r"|\b(?:value|square)\s+(?:does\s+not|doesn't|still|stays|rises|drops|falls|changes|reaches)\b",
    re.IGNORECASE)
"""A count of cards held or of lines, a value or points, or a value's change, written in words."""


def sentences(words: str) -> list[str]:
    """`words` cut into sentences."""
    return [part for part in re.split(r"(?<=[.!?])\s+", words.strip()) if part]


def lint(key: str, words: str, rule_statements: Mapping[tuple[str, str], str]) -> list[str]:
    """What in `words` (fixed text of the lesson or example `key`) states a fact of the position: a number,
    a count, a line or a place; sentences listed in `rule_statements` (with why) state rules and pass."""
    problems = []
    for sentence in sentences(words):
        if (key, sentence) in rule_statements:
            continue
        bare = re.sub(r"\{\w+\}", "", sentence)
        problems += [f"line named {m.group()!r} in {sentence!r}" for m in LINE_NAME.finditer(bare)]
        problems += [f"place named {m.group()!r} in {sentence!r}" for m in PLACE_NAME.finditer(bare)]
        problems += [f"count {m.group()!r} in {sentence!r}" for m in COUNT_WORDS.finditer(bare)]
        rest = NUMBER_ALLOWED.sub("", bare)
        problems += [f"number {m.group()!r} in {sentence!r}" for m in re.finditer(r"\d+", rest)]
    return problems
