"""Every parser keeps one promise under 100,000+ mutated inputs: it reads the input, or raises a
LeopardError (a ValueError) whose message quotes at most about 80 characters of it. Nothing else:
no TypeError, no RecursionError, no unbounded time or memory, and a progress already loaded is left as
it was; a square it reads is one a game can leave. Inputs are real cards, squares, saved hands and matches,
progress codes and lesson files, mutated: truncated, tokens swapped, piles cut, repeated or moved, unicode
look-alikes, huge numbers, floats and booleans for whole numbers, deep nesting, and valid JSON of the wrong
shape.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from leopard_tutor.engine import RULE_SETS, Card, Hand, LeopardError, Match, Square
from leopard_tutor.lessons import LESSONS, Progress
from leopard_tutor.lessons.model import STAGES_DIR, parse_lesson

LOOK_ALIKES = "ſſΑАⅠ０１⁷ꓢЅѕ𝐒Ｈɦ♤♡⒈\u200b\u00a0ǅİı"
MESSAGE_LIMIT = 300  # the quoted input (about 80 characters) plus the explanation around it
ECHO_LIMIT = 100  # characters of the input a message may repeat: one quote of about 80


def mutate_text(text: str, rng: random.Random) -> str:
    """One random edit of a text."""
    kind = rng.randrange(7)
    if not text:
        return rng.choice(LOOK_ALIKES)
    at = rng.randrange(len(text))
    if kind == 0:
        return text[:at]
    if kind == 1:
        return text[:at] + rng.choice(LOOK_ALIKES) + text[at + 1:]
    if kind == 2:
        tokens = text.split()
        if len(tokens) > 1:
            i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        return " ".join(tokens)
    if kind == 3:
        return text[:at] + text[at] * rng.choice((2, 50, 3000)) + text[at + 1:]
    if kind == 4:
        return text[:at] + rng.choice(("+", "*", "/", ".", "?", "10", "J?*", " ", "")) + text[at:]
    if kind == 5:
        return text.upper() if rng.random() < 0.5 else text.lower()
    return text[at:] + text[:at]


def mutate_layers(text: str, rng: random.Random) -> str:
    """One random edit of a square's piles: a space's bottom card taken away, a card repeated on another space,
    or a pile moved to an empty space."""
    spaces = text.replace("/", " ").split()
    at = rng.randrange(len(spaces))
    layers = [] if spaces[at] == "." else spaces[at].split("+")
    kind = rng.randrange(3)
    if kind == 0 and layers:
        spaces[at] = "+".join(layers[1:]) or "."
    elif kind == 1:
        cards = [layer for token in spaces if token != "." for layer in token.split("+")]
        spaces[at] = "+".join([*layers, rng.choice(cards)])
    else:
        to = rng.randrange(len(spaces))
        spaces[at], spaces[to] = spaces[to], spaces[at]
    return " ".join(spaces)


ODD_VALUES: tuple[Any, ...] = (0.0, 1.0, True, False, None, 10**40, -1, "", "x" * 5000, [], {}, [[[[]]]], 2.5, "1")


def mutate_data(data: Any, rng: random.Random, depth: int = 0) -> Any:
    """A copy of JSON data with one random node replaced by something of the wrong type or size."""
    if isinstance(data, dict) and data and rng.random() < 0.8:
        key = rng.choice(list(data))
        copy = dict(data)
        if rng.random() < 0.15:
            del copy[key]
        else:
            copy[key] = mutate_data(data[key], rng, depth + 1)
        return copy
    if isinstance(data, list) and data and rng.random() < 0.8:
        copy = list(data)
        at = rng.randrange(len(copy))
        if rng.random() < 0.15:
            copy[at], copy[-1] = copy[-1], copy[at]
        else:
            copy[at] = mutate_data(copy[at], rng, depth + 1)
        return copy
    if isinstance(data, str) and rng.random() < 0.5:
        return mutate_text(data, rng)
    if isinstance(data, int) and not isinstance(data, bool) and rng.random() < 0.5:
        return rng.choice((data + 0.0, data * 10**30, -data - 1, str(data), True))
    choice = rng.randrange(4)
    if choice == 0:
        return rng.choice(ODD_VALUES)
    if choice == 1:
        nested: Any = data
        for _ in range(rng.choice((10, 5000))):
            nested = [nested]
        return nested
    if choice == 2:
        return {"format": data} if rng.random() < 0.5 else [data, data]
    return rng.choice(ODD_VALUES)


def as_json(data: Any) -> str:
    try:
        return json.dumps(data)
    except (ValueError, RecursionError):
        return "[" * 5000


def echoed(message: str, text: str, window: int = 16, step: int = 8) -> int:
    """About how many characters of `message` are copied from `text` (in runs of at least `window`)."""
    return sum(step for at in range(0, len(message) - window + 1, step) if message[at:at + window] in text)


def check_message(error: LeopardError, value: Any) -> None:
    """The promise about messages: short, and quoting at most about 80 characters of the input."""
    message = str(error)
    assert len(message) <= MESSAGE_LIMIT, f"message too long: {message}"
    if isinstance(value, str):
        assert echoed(message, value) <= ECHO_LIMIT, f"message repeats too much of the input: {message}"


def check(parse: Callable[[Any], object], value: Any) -> None:
    try:
        read = parse(value)
    except LeopardError as error:
        check_message(error, value)
    else:
        if isinstance(read, Square):
            check_possible(read, value)


def check_possible(square: Square, text: str) -> None:
    """A square read from text is one a game can leave: every pile starts with a face-up card (a jack or a queen
    is laid face down on a card, never on an empty space), and no card is there more often than the two packs
    hold it (twice)."""
    for space in range(1, 10):
        pile = square.pile(space)
        assert not pile or pile[0][1], f"a face-down card on an empty space was read from {text[:100]!r}"
    counts = Counter(square.cards())
    assert max(counts.values(), default=0) <= 2, f"a card three times was read from {text[:100]!r}"


def saved_hands(rng: random.Random) -> list[str]:
    texts = []
    for seed, rules in enumerate(RULE_SETS.values()):
        hand = Hand.deal(rules, seed=seed)
        for _ in range(12):
            hand.apply(rng.choice(hand.legal_moves()))
        texts.append(hand.to_json())
    return texts


def progress_codes() -> list[str]:
    progress = Progress()
    codes = [progress.to_code()]
    for lesson in LESSONS[:4]:
        progress.record_lesson(lesson.key, 2)
        progress.record_practice("tens", True)
        codes.append(progress.to_code())
    return codes


def cases(rng: random.Random) -> Iterator[tuple[Callable[[Any], object], Any]]:
    cards = [str(card) for card in Card.parse("AS").__class__._cache.values()] + ["10♥", "Q♣", "th"]
    squares = ["AS . 3C / 4S 5C . / 7H+KS 8S 9S", ". 2D+QH*+2H . / . . . / 10C+JD* . KC",
               "2S+J?* 3H+?* . / . . . / . . .", "AS+AS 5D+JS* . / . 5D . / . . ."]
    hands = saved_hands(rng)
    match = Match(seed=3)
    match_text = match.to_json()
    codes = progress_codes()
    lessons = [path.read_text(encoding="utf-8") for path in sorted(STAGES_DIR.glob("*.json"))[:6]]
    for _ in range(30_000):
        yield Card.parse, mutate_text(rng.choice(cards), rng)
    for _ in range(30_000):
        yield Square.parse, mutate_text(rng.choice(squares), rng)
    for _ in range(8_000):
        yield Square.parse, mutate_layers(rng.choice(squares), rng)
    for _ in range(20_000):
        code = rng.choice(codes)
        yield "progress", mutate_text(code, rng) if rng.random() < 0.7 else code[:4] + mutate_text(code[4:], rng)
    for _ in range(13_000):
        text = rng.choice(hands)
        yield Hand.from_json, (mutate_text(text, rng) if rng.random() < 0.3
                               else as_json(mutate_data(json.loads(text), rng)))
    for _ in range(1_500):
        yield Match.from_json, (mutate_text(match_text, rng) if rng.random() < 0.3
                                else as_json(mutate_data(json.loads(match_text), rng)))
    for _ in range(6_000):
        text = rng.choice(lessons)
        yield parse_lesson, (mutate_text(text, rng) if rng.random() < 0.3
                             else as_json(mutate_data(json.loads(text), rng)))


def test_parsers_only_read_or_raise_a_short_leopard_error() -> None:
    rng = random.Random(20261124)
    progress = Progress()
    progress.record_lesson(LESSONS[0].key, 3)
    before = (dict(progress.stars), dict(progress.practice))
    count = 0
    for parse, value in cases(rng):
        if parse == "progress":
            try:
                progress.load_code(value)
            except LeopardError as error:
                check_message(error, value)
                assert (progress.stars, progress.practice) == before, value[:100]
            else:
                progress.stars, progress.practice = dict(before[0]), dict(before[1])
        else:
            check(parse, value)  # type: ignore[arg-type]
        count += 1
    assert count >= 100_000
