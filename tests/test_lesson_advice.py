"""A lesson's advice is tied to the card tried and the square, like the engine's reasons (issue 19).

Every card the learner holds, tried on every space of both squares at every step of every lesson (and
every discard, going out and ending the turn): the reply is the engine's reason, then exactly the advice
entries whose conditions the try meets (worked out here from the file, apart from the loader), none of them
saying again five words in a row of that reason. Every kind of card an appended text names other than the one
tried, it names as one that may go there, and the engine agrees; every space it names is the one tried or the
card's own. The same holds over every
try each entry's conditions let through on any square, not only in the lesson's positions.
"""

from __future__ import annotations

import json
import re
from itertools import product
from typing import Any

import pytest
import text_lint

from leopard_tutor.engine import Card, Discard, EndTurn, GoOut, Hand, Move, Play, Square, check_play
from leopard_tutor.engine.facts import fill
from leopard_tutor.lessons import LESSONS, Attempt, Lesson, LessonFormatError, parse_move
from leopard_tutor.lessons.facts import lesson_facts
from leopard_tutor.lessons.model import STAGES_DIR, parse_lesson

_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
TOPS = {"empty": {"empty"}, "face up": {"face up"}, "face down": {"face down"}, "open": {"empty", "face down"},
        "card": {"face up", "face down"}}
WITH_ADVICE = [lesson for lesson in LESSONS if lesson.advice]


def file_advice(lesson: Lesson) -> list[dict[str, Any]]:
    """The advice entries as the lesson file writes them."""
    path = next(STAGES_DIR.glob(f"{lesson.stage:02d}_*.json"))
    return list(json.loads(path.read_text(encoding="utf-8")).get("advice", []))


def ranks_of(condition: str | list[str]) -> set[int]:
    """The ranks a 'rank' condition names ("7", "A-9" or a list of these)."""
    ranks: set[int] = set()
    for item in condition if isinstance(condition, list) else [condition]:
        low, _, high = item.partition("-")
        ranks |= set(range(_RANKS[low], _RANKS[high or low] + 1))
    return ranks


def top_of(square: Square, space: int) -> str:
    top = square.top(space)
    return "empty" if top is None else "face up" if top[1] else "face down"


def meets(entry: dict[str, Any], move: Move, code: str, squares: tuple[Square, Square]) -> bool:
    """Whether a try refused with `code` meets every condition the entry writes."""
    if entry["code"] != code:
        return False
    card = move.card if isinstance(move, (Play, Discard)) else None
    if "card" in entry and card is not Card.parse(entry["card"]):
        return False
    if "rank" in entry and (card is None or card.rank not in ranks_of(entry["rank"])):
        return False
    if not isinstance(move, Play):
        return not {"square", "space", "top"} & set(entry)
    owner = ("your", "their")[move.square_owner]
    spaces = entry.get("space", move.space)
    top = top_of(squares[move.square_owner], move.space)
    return (entry.get("square", owner) == owner and move.space in (spaces if isinstance(spaces, list) else [spaces])
            and top in TOPS.get(entry.get("top", ""), {top}))


def claim_problems(words: str, card: Card, square: Square, space: int, own: bool) -> list[str]:
    """What `words`, said after `card` was refused on `space` of `square`, names that is not so: another
    kind of card named that may not go there, or a space that is neither the one tried nor the card's own."""
    problems = [f"{sorted(ranks)} named, but they may not go there"
                for ranks in text_lint.named_ranks(words) if card.rank not in ranks
                and not all(check_play(Card(rank, "S"), square, space, own=own) for rank in ranks)]
    problems += [f"space {named} named" for named in text_lint.named_spaces(words) - {space, card.rank}]
    return problems


def runs(words: str, length: int = 5) -> set[tuple[str, ...]]:
    """Every run of `length` words in `words`, in lower case and without punctuation."""
    said = re.findall(r"[\w'-]+", words.lower())
    return {tuple(said[start:start + length]) for start in range(len(said) - length + 1)}


def tries(hand: Hand) -> list[Move]:
    """Every try the learner can make with what they hold, legal or not."""
    held = sorted(set(hand.held[0]), key=lambda card: card.code)
    return [*(Play(card, owner, space) for card in held for owner in (0, 1) for space in range(1, 10)),
            *(Discard(card) for card in held), GoOut(), EndTurn()]


def steps(lesson: Lesson) -> list[Attempt]:
    """An attempt at each step of the lesson's solution (only the start for a free lesson)."""
    found = []
    for step in range(1 if lesson.free else len(lesson.solution)):
        attempt = lesson.new_attempt()
        for move in lesson.solution[:step]:
            assert attempt.try_move(move).ok
        found.append(attempt)
    return found


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_advice_is_said_exactly_when_its_conditions_meet_the_try_and_agrees_with_the_engine(lesson: Lesson) -> None:
    entries = file_advice(lesson)
    for attempt in steps(lesson):
        hand = attempt.hand
        facts = lesson_facts(hand, lesson)
        for move in tries(hand):
            verdict = hand.check(move)
            if verdict.legal:
                continue
            said = attempt.try_move(move).text
            advice = [fill(entry["text"], facts) for entry in entries if meets(entry, move, verdict.code, hand.squares)]
            assert said == " ".join([verdict.reason, *advice]), (move, said)
            for words in advice:  # the lesson's advice adds to the engine's reason, never says a part of it again
                assert not runs(words) & runs(verdict.reason), (move, words, runs(words) & runs(verdict.reason))
            if isinstance(move, Play):
                square = hand.squares[move.square_owner]
                for words in advice:
                    assert claim_problems(words, move.card, square, move.space, move.square_owner == 0) == [], (
                        move, words)
        assert attempt.hand == hand


def lone_square(space: int, top: str) -> Square:
    """A square with one pile, on `space`, its top as `top` says."""
    tokens = ["."] * 9
    tokens[space - 1] = {"empty": ".", "face up": "5C", "face down": "KC+JD*"}[top]
    return Square.parse(" / ".join(" ".join(tokens[row:row + 3]) for row in (0, 3, 6)))


@pytest.mark.parametrize("lesson", WITH_ADVICE, ids=lambda lesson: lesson.key)
def test_advice_is_true_of_every_play_its_conditions_let_through(lesson: Lesson) -> None:
    """Over every card, square, space and top card, not only those of the lesson's positions."""
    for entry in file_advice(lesson):
        cards = [Card.parse(entry["card"])] if "card" in entry else [Card(rank, "H") for rank in range(1, 14)]
        met = 0
        for card, owner, space, top in product(cards, (0, 1), range(1, 10), ("empty", "face up", "face down")):
            square = lone_square(space, top)
            verdict = check_play(card, square, space, own=owner == 0)
            squares = (square, Square()) if owner == 0 else (Square(), square)
            if not verdict.legal and meets(entry, Play(card, owner, space), verdict.code, squares):
                met += 1
                assert claim_problems(entry["text"], card, square, space, owner == 0) == [], (card, owner, space, top)
        assert met or entry["code"] not in ("wrong-space", "covered", "own-square-only", "needs-card"), entry


def reply(stage: int, move: str) -> tuple[str, str]:
    """The engine's reason for `move` at the start of lesson `stage`, and the whole reply to it."""
    attempt = next(lesson for lesson in LESSONS if lesson.stage == stage).new_attempt()
    return attempt.hand.check(parse_move(move)).reason, attempt.try_move(move).text


def test_report_1_a_two_on_space_1_hears_nothing_of_sevens() -> None:
    reason, said = reply(2, "play 2C on your 1")
    assert "Only a 7 can go on a space 7." not in said
    assert said == reason  # the engine's reason already says where a 2 goes
    reason, said = reply(2, "play 2C on their 7")  # their space 7 has a card face down: a 7 may go there
    assert said.startswith(reason) and said[len(reason):].strip() == (
        "Space 7 of that square is open, but of the cards from ace to nine it takes only a 7.")
    assert check_play(Card.parse("7S"), next(lesson for lesson in LESSONS if lesson.stage == 2).start().squares[1],
                      7, own=False)


def test_report_2_no_queen_is_offered_for_the_opponents_square() -> None:
    reason, said = reply(7, "play 2H on their 2")
    assert "queen" not in said[len(reason):]
    assert said == reason  # the reason names the jack, the one card that can hide it there
    reason, said = reply(7, "play 4C on your 4")
    assert "laid face down on your own square, it opens the space again" in said[len(reason):]


def test_report_3_the_king_is_offered_only_on_your_own_square_and_the_ten_is_called_a_ten() -> None:
    reason, said = reply(5, "play 4C on their 4")
    assert said == reason  # the reason names the jack, the one card that can cover it there (and no king)
    reason, said = reply(5, "play 10D on your 1")
    advice = said[len(reason):].strip()
    assert advice == "A king, though, may go on top of a face-up card of your own square."  # (no ten called
    # "a card from ace to nine"; nothing the engine's reason said before it said again)
    reason, said = reply(5, "play 4C on your 4")
    assert said[len(reason):].strip() == "A king, though, may go on top of a face-up card of your own square."


def _with_advice(advice: object) -> str:
    data = json.loads((STAGES_DIR / "05_kings.json").read_text(encoding="utf-8"))
    data["advice"] = advice
    return json.dumps(data)


@pytest.mark.parametrize(("advice", "message"), [
    ({"covered": "Advice for every covered try."}, "is a list of entries"),
    ([{"code": "covered"}], "has a 'code' and a 'text'"),
    ([{"code": "misplaced", "text": "x"}], "verdict code among"),
    ([{"code": "covered", "rank": "A-Z", "text": "x"}], "a run such as"),
    ([{"code": "covered", "rank": "9-A", "text": "x"}], "a run such as"),
    ([{"code": "covered", "square": "mine", "text": "x"}], "\"your\" or \"their\""),
    ([{"code": "covered", "space": 10, "text": "x"}], "a space from 1 to 9"),
    ([{"code": "covered", "top": "hidden", "text": "x"}], "'top' is one of"),
    ([{"code": "out-value", "rank": "7", "text": "x"}], "takes conditions among \\[\\]"),
    ([{"code": "not-in-hand", "square": "your", "text": "x"}], "takes conditions among \\['card', 'rank'\\]"),
    ([{"code": "covered", "card": "7S", "rank": "K", "text": "x"}], "ranks it is not of"),
    ([{"code": "wrong-space", "rank": "K", "text": "x"}], "no play meets the conditions"),
    ([{"code": "covered", "top": "empty", "text": "x"}], "no play meets the conditions"),
    ([{"code": "own-square-only", "square": "your", "text": "x"}], "no play meets the conditions"),
    ([{"code": "wrong-space", "rank": "7", "space": 7, "text": "x"}], "no play meets the conditions"),
])
def test_advice_no_try_could_meet_or_written_wrong_stops_the_import(advice: object, message: str) -> None:
    with pytest.raises(LessonFormatError, match=message):
        parse_lesson(_with_advice(advice))
