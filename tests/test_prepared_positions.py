"""Every prepared position (lessons and every position a lesson reaches, worked-example squares, practice
questions) could arise in a real game under its rules: piles, card counts, whose turn, the dealer rule."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from leopard_tutor.engine import (
    ORIGINAL_1963,
    REVISED_2008,
    RULE_SETS,
    RUNNING_LEOPARD,
    Card,
    GoOut,
    Hand,
    LeopardError,
    RuleSet,
    Square,
    full_deck,
)
from leopard_tutor.engine.reachable import DECK_SIZE, complete_position, holdings, why_unreachable
from leopard_tutor.engine.square import Hidden
from leopard_tutor.examples import WORKED_EXAMPLES, WorkedExample
from leopard_tutor.lessons import LESSONS, BestPlayQuestion, Lesson, LessonFormatError, Practice
from leopard_tutor.lessons.model import STAGES_DIR, parse_lesson

SCRIPTED = [lesson for lesson in LESSONS if not lesson.free]


def playouts(rules: RuleSet, games: int) -> list[Hand]:
    """Every position of `games` seeded hands played out by random legal moves (going out aside)."""
    seen = []
    for seed in range(games):
        rng = random.Random(seed)
        hand = Hand.deal(rules, seed=seed, dealer=seed % 2)
        while True:
            seen.append(hand.copy())
            moves = [m for m in hand.legal_moves() if not isinstance(m, GoOut)]
            if hand.is_over or not moves:
                break
            hand.apply(rng.choice(moves))
    return seen


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=lambda rules: rules.key)
def test_every_position_of_real_hands_is_reachable(rules: RuleSet) -> None:
    positions = playouts(rules, 12)
    assert len(positions) > 12 * 40
    assert [why_unreachable(hand) for hand in positions if why_unreachable(hand)] == []


@pytest.mark.parametrize("rules", [REVISED_2008, ORIGINAL_1963], ids=lambda rules: rules.key)
def test_one_draw_a_turn_fixes_every_count(rules: RuleSet) -> None:
    """With T cards played or discarded: turn T + 1, the non-dealer's when T is even; 87 − T cards in the
    stock while it lasts; 9 and 8 cards in hand, the 9 with the player to move; then the dealer holds
    the larger half and plays the last card."""
    for hand in playouts(rules, 6):
        if hand.is_over:
            continue
        done = sum(len(square.cards()) for square in hand.squares) + len(hand.discards)
        assert hand.to_move == (1 - hand.dealer if done % 2 == 0 else hand.dealer)
        assert hand.stock_size == max(0, 87 - done)
        held = [len(cards) for cards in hand.held]
        assert held == list(holdings(rules, hand.dealer, done))
        if hand.stock_size:
            assert held[hand.to_move] == 9 and held[1 - hand.to_move] == 8
        else:
            assert held[hand.dealer] == (DECK_SIZE - done + 1) // 2 and held[1 - hand.dealer] == (DECK_SIZE - done) // 2


def _stock(hand: Hand) -> list[Card]:
    """The stock's cards in the order they will be drawn."""
    return list(reversed(hand._stock))


def _mutations(hand: Hand) -> dict[str, Hand]:
    """The same position with one count made wrong."""
    rules, squares, hands, stock, discards = hand.rules, hand.squares, hand.held, _stock(hand), hand.discards
    mover, dealer = hand.to_move, hand.dealer
    found = {
        "the other player to move": Hand(rules, squares, hands, stock, discards, 1 - mover, dealer),
        "the other dealer": Hand(rules, squares, hands, stock, discards, mover, 1 - dealer),
        "a card missing": Hand(rules, squares, hands, stock[1:], discards, mover, dealer) if stock
        else Hand(rules, squares, hands, stock, discards[1:], mover, dealer),
    }
    if stock:
        more = [list(hands[0]), list(hands[1])]
        more[mover].append(stock[0])
        found["a card more in hand"] = Hand(rules, squares, more, stock[1:], discards, mover, dealer)
        found["a card more discarded"] = Hand(rules, squares, hands, stock[1:], [*discards, stock[0]], mover, dealer)
    return found


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=lambda rules: rules.key)
def test_a_wrong_count_is_caught(rules: RuleSet) -> None:
    checked = 0
    for hand in playouts(rules, 3)[::7]:
        if hand.is_over or hand.plays_made or (rules.multiple_plays and not hand.stock_size):
            continue
        for what, wrong in _mutations(hand).items():
            assert why_unreachable(wrong) is not None, what
            checked += 1
    assert checked > 50


def test_a_player_cannot_have_laid_more_cards_than_turns() -> None:
    """Three cards down means turn 4, the dealer's: the non-dealer had two turns, so laid at most two."""
    square = Square.parse("AH 2H 3H / . . . / . . .")
    rest = list((Counter(full_deck()) - Counter(square.cards())).elements())
    hand = Hand(REVISED_2008, (square, Square()), (rest[:8], rest[8:17]), rest[17:], [], 1, 1)
    assert "player 0 laid 3 cards but had only 2 turns" in str(why_unreachable(hand))
    fair = Hand(REVISED_2008, (Square.parse("AH 2H 3H! / . . . / . . ."), Square()), (rest[:8], rest[8:17]),
                rest[17:], [], 1, 1)
    assert why_unreachable(fair) is None


def test_the_last_card_belongs_to_the_dealer() -> None:
    """Issue 8 case 10: with the stock empty the non-dealer empties their hand first."""
    ten = next(lesson for lesson in LESSONS if lesson.key == "scoring").start()
    assert why_unreachable(ten) is None and ten.dealer == 0 and [len(cards) for cards in ten.held] == [1, 0]
    swapped = Hand(ten.rules, ten.squares, ten.held, [], ten.discards, 0, 1)
    assert "empties their hand first and the dealer plays the last card" in str(why_unreachable(swapped))


def test_running_leopard_counts() -> None:
    """Two draws a turn: an even stock while it lasts, fixed by the turn; hand sizes vary."""
    hand = Hand.deal(RUNNING_LEOPARD, seed=3, dealer=1)
    assert why_unreachable(hand) is None and hand.stock_size == 86 and len(hand.held[0]) == 10
    stock = _stock(hand)
    odd = Hand(RUNNING_LEOPARD, hand.squares, hand.held, stock[1:], stock[:1], 0, 1)
    assert "cannot hold 85" in str(why_unreachable(odd))
    with pytest.raises(LeopardError, match="must be given"):
        complete_position(RUNNING_LEOPARD, (Square(), Square()), (None, None), [], [], 0, 1, seed=1)


OLD_LESSON_FIVE = {
    "stage": 5, "key": "kings", "title": "Kings", "intro": ["A king covers anything."],
    "goal": "Make your square worth at least 8.",
    "position": {"your square": "AS . 3C / 4S 5C . / 7H 8S 9S", "their square": ". . . / 4D . . / . . .",
                 "your hand": ["KS", "KH", "7S"], "their hand": ["2C", "QC"], "stock": ["6H", "10D"]},
    "solution": ["play KS on your 7"], "goals": [{"your value at least": 8}], "hints": ["Look at the red 7."],
    "success": "Well done.",
}


def test_the_old_lesson_five_position_is_refused() -> None:
    """Three cards in hand with a stock left cannot happen: at a decision the player to move holds 9."""
    with pytest.raises(LessonFormatError, match=r"\(to move\) must hold 9 cards after 8 turns, not 3"):
        parse_lesson(json.dumps(OLD_LESSON_FIVE))
    squares = (Square.parse("AS . 3C / 4S 5C . / 7H 8S 9S"), Square.parse(". . . / 4D . . / . . ."))
    old = Hand(REVISED_2008, squares, ([Card.parse(c) for c in ("KS", "KH", "7S")], [Card.parse("2C")]),
               [Card.parse("6H")], [], 0, 1)
    assert why_unreachable(old) is not None


def test_each_lesson_file_names_both_hands_in_full() -> None:
    for path in sorted(STAGES_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if "position" in data:
            position = data["position"]
            start = next(lesson for lesson in LESSONS if lesson.key == data["key"]).start()
            assert [len(position["your hand"]), len(position.get("their hand", []))] == \
                [len(cards) for cards in start.held], path.name


def _positions_reached(lesson: Lesson) -> list[Hand]:
    """The start, every position along the solution (the opponent's replies too), and the position after
    every legal move at every step (before it is taken back)."""
    reached = []
    attempt = lesson.new_attempt()
    for move in [*lesson.solution, None]:
        hand = attempt.hand
        reached.append(hand)
        for other in hand.legal_moves():
            after = hand.copy()
            after.apply(other)
            reached.append(after)
        if move is None or attempt.finished:
            break
        attempt.try_move(move)
    return reached


@pytest.mark.parametrize("lesson", SCRIPTED, ids=lambda lesson: lesson.key)
def test_every_position_a_lesson_reaches_is_reachable(lesson: Lesson) -> None:
    positions = _positions_reached(lesson)
    assert len(positions) > 10
    for hand in positions:
        assert why_unreachable(hand) is None, (lesson.key, hand.moves, why_unreachable(hand))


def test_the_free_lesson_is_a_real_deal() -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.free)
    assert why_unreachable(lesson.start()) is None


def _embedded(square: Square, rules: RuleSet, owner: int = 0) -> Hand:
    """`square` in `owner`'s seat of a whole position a game reaches (the rest completed as lessons are)."""
    squares = (square, Square()) if owner == 0 else (Square(), square)
    return complete_position(rules, squares, (None, None), [], [], to_move=0, dealer=1, seed=str(square))


@pytest.mark.parametrize("example", [*WORKED_EXAMPLES, *(e.mirrored for e in WORKED_EXAMPLES if e.mirrored)],
                         ids=lambda example: f"{example.key}-{example.rules.key}")
def test_each_worked_example_step_shows_a_square_a_game_could_build(example: WorkedExample) -> None:
    for number, step in enumerate(example.steps):
        position = _embedded(step.square, example.rules, owner=0 if example.own else 1)
        assert why_unreachable(position) is None, f"step {number}"


def test_worked_examples_record_who_laid_each_card() -> None:
    """The opponent's cards carry their mark, so a face-down card shows as what its viewer knows."""
    c5 = next(example for example in WORKED_EXAMPLES if example.key == "C5")
    spoiled = next(step for step in c5.steps if step.by == "opponent")
    assert "7H+QD*+7D! " in str(spoiled.square)
    c4 = next(example for example in WORKED_EXAMPLES if example.key == "C4")
    assert "JC*!" in str(c4.steps[-1].square)


def _named(square: Square) -> Square:
    """`square` with each face-down card its viewer cannot name (a practice question's, as the learner knows it)
    given a name with a copy left in the two decks: a jack where it must be one, first; then a queen, or a jack."""
    faces: list[list[Card | Hidden]] = [[face for face, _ in square.pile(space)] for space in range(1, 10)]
    used = Counter(face for pile in faces for face in pile if isinstance(face, Card))
    for ranks in (("J",), ("Q", "J")):
        for pile in faces:
            for at, face in enumerate(pile):
                if isinstance(face, Hidden) and face.jack_only == (ranks == ("J",)):
                    card = next(card for rank in ranks for suit in "SHDC" if used[card := Card.parse(rank + suit)] < 2)
                    used[card] += 1
                    pile[at] = card
    return Square([[(face, up, by_other) for face, (_, up), by_other in zip(
        faces[space - 1], square.pile(space), square.laid_by_other(space), strict=True)] for space in range(1, 10)])


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=lambda rules: rules.key)
def test_practice_questions_come_from_positions_a_game_could_reach(rules: RuleSet) -> None:
    """Each question's position is one a game reaches (a lone square's face-down cards, unnamed as the learner knows
    them, named for the check)."""
    practice = Practice(seed=11, rules=rules)
    one_draw = REVISED_2008 if rules.multiple_plays else rules  # a lone square: its piles do not depend on draws
    for _ in range(150):
        question = practice.next()
        if isinstance(question, BestPlayQuestion):
            assert why_unreachable(question.hand) is None
        else:
            assert why_unreachable(_embedded(_named(question.square), one_draw)) is None


def test_the_checks_catch_an_impossible_square() -> None:
    with pytest.raises(LeopardError, match="whatever was discarded"):
        _embedded(Square.parse("9S . . / . . . / . . ."), REVISED_2008)
    with pytest.raises(LeopardError):
        _embedded(Square.parse("5H+QS*! . . / . . . / . 8C 9C"), REVISED_2008)
