"""A lint on fixed words a learner reads (lesson files, the worked examples): no value or point count
written as a number or in words, no line or place on the square named, no count of cards or lines, since
those are facts of a position and come from the engine as `{placeholders}`. A sentence that states a
rule with a number or a line in it passes only when the caller's whitelist names it. A lesson's advice
names a rank, a space, a card or a square only under a condition on it (`advice_lint`)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from leopard_tutor.lessons.advice import Advice

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


_RANK = (r"(?:ace|[2-9]|10|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king)")
_RANK_VALUES = {"ace": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "jack": 11, "queen": 12, "king": 13, **{str(n): n for n in range(2, 11)}}
RANK_RUN = re.compile(rf"\b({_RANK}) to ({_RANK})\b", re.IGNORECASE)
"""A run of ranks named, such as "ace to nine"."""
CARD_NAME = re.compile(rf"\b({_RANK}) of (hearts|diamonds|spades|clubs)\b", re.IGNORECASE)
"""A card named, such as "the 7 of spades"."""
RANK_NAME = re.compile(r"\b(aces?|tens?|jacks?|queens?|kings?)\b"
                       r"|\b(?:a|an|any|another|each|every|the|your|their)\s+([2-9]|10|two|three|four|five|six"
                       r"|seven|eight|nine)\b"
                       r"|\b([2-9]|10)s\b", re.IGNORECASE)
"""A kind of card named on its own: "a king", "a 7", "tens", "the 7"."""
SPACE_NAME = re.compile(r"\bspaces? (\d)\b", re.IGNORECASE)
"""A space named by its label."""
SQUARE_NAME = re.compile(r"\b(?:your\s+(?:own\s+|opponent's\s+)?|their\s+|the\s+opponent's\s+)squares?\b",
                         re.IGNORECASE)
"""Your square or your opponent's square named."""


def _rank(word: str) -> int:
    """The rank a word or digit names, singular or plural ("kings", "7")."""
    word = word.lower()
    return _RANK_VALUES[word] if word in _RANK_VALUES else _RANK_VALUES[word[:-1]]


def named_ranks(words: str) -> list[frozenset[int]]:
    """Each kind of card `words` names, as the ranks it covers: a run ("ace to nine"), a card's rank
    ("the 7 of spades") or a single rank ("a king", "a 7", "tens")."""
    found = [frozenset(range(_rank(low), _rank(high) + 1)) for low, high in RANK_RUN.findall(words)]
    rest = RANK_RUN.sub(" ", words)
    found += [frozenset({_rank(rank)}) for rank, _ in CARD_NAME.findall(rest)]
    rest = CARD_NAME.sub(" ", rest)
    found += [frozenset({_rank(next(group for group in groups if group))}) for groups in RANK_NAME.findall(rest)]
    return found


def named_spaces(words: str) -> set[int]:
    """The spaces `words` names by label."""
    return {int(space) for space in SPACE_NAME.findall(words)}


def named_cards(words: str) -> set[str]:
    """The cards `words` names, in the engine's words ("7 of spades")."""
    return {f"{rank.lower()} of {suit.lower()}" for rank, suit in CARD_NAME.findall(words)}


def advice_lint(advice: Advice) -> list[str]:
    """What an advice entry of a lesson names without a condition that ties it to the try: a rank
    without a card or rank condition, a space without that space (or the card's own number), a card
    without that card, a square without a square condition."""
    words = advice.text
    problems = []
    if named_ranks(words) and not advice.cards_only:
        problems.append(f"a rank named without a card or rank condition in {words!r}")
    tried = {advice.card.rank} if advice.card is not None else advice.ranks
    problems += [f"space {space} named without a condition on it in {words!r}" for space in sorted(named_spaces(words))
                 if advice.spaces != {space} and tried != {space}]
    problems += [f"the {card} named without that card as the condition in {words!r}"
                 for card in sorted(named_cards(words)) if advice.card is None or advice.card.name != card]
    if SQUARE_NAME.search(words) and len(advice.squares) != 1:
        problems.append(f"a square named without a square condition in {words!r}")
    return problems
