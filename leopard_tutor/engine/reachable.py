"""Whether a prepared position could arise in a real game: the checks a lesson's position must pass.

The Hand constructor already refuses what no rule allows at all (a card more than twice, a face-up jack,
a face-down ten, a queen laid on the other player's square). This adds what follows from how a hand is
dealt and played out (rules A.1.3, A.1.5, A.1.10, A.3):

* every pile was built by legal plays, each card by the player its `!` mark names;
* the position holds all 104 cards: squares + hands + stock + discard pile;
* the deal gives 8 cards each and leaves 88 in the stock; the non-dealer takes turn 1, the dealer turn 2,
  and so on; each turn begins by drawing (one card, or two in Running Leopard, as long as the stock lasts).

One draw a turn (2008 and 1963): every turn puts exactly one card into a square or onto the discard
pile, so with T cards there (played and discarded) T turns are over and turn T + 1 is being played.
Hence the non-dealer is to move when T is even, the dealer when T is odd; the stock holds 87 − T cards
while it lasts (0 from T = 87 on, when the dealer has drawn the last card); while it lasts the player
to move holds 9 cards and the other 8, and once it is empty the dealer holds half the remaining 104 − T
cards rounded up and the non-dealer half rounded down (so the non-dealer empties first and the dealer
plays the last card). No player can have laid more cards, on either square, than the turns they have
had: the non-dealer has had T/2 turns rounded up, the dealer T/2 rounded down.

Running Leopard (two draws, one discard or any number of plays a turn): the hand sizes vary, so less
is fixed. The stock starts at 88 and loses two cards a turn, so while it lasts it holds an even number,
88 − 2D in turn D; D odd means the non-dealer is to move. A player has received 8 cards plus two for
each of their turns so far; what they no longer hold they laid or discarded, so each player's discards
are fixed too: received − held − laid, which must be at least 0 and at most the number of turns they
have finished. Every finished turn put at least one card down, and the player to move has just drawn.
Once the stock is empty each player has received 52 cards and at least 44 turns have passed, of which
the non-dealer finished 22 and the dealer 21 or 22 before the stock ran out.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from .cards import Card, full_deck
from .errors import LeopardError
from .hand import CARDS_DEALT, Hand
from .legality import pile_problem
from .rules import RuleSet
from .square import Square

DECK_SIZE = len(full_deck())
STOCK_AT_START = DECK_SIZE - 2 * CARDS_DEALT


def why_unreachable(hand: Hand) -> str | None:
    """Why `hand` could not occur in a real game under its rules, or None if it could."""
    for owner, square in enumerate(hand.squares):
        problem = pile_problem(square)
        if problem:
            return f"in player {owner}'s square, {problem}"
    held = (len(hand.held[0]), len(hand.held[1]))
    laid = laid_counts(hand.squares)
    total = sum(held) + sum(laid) + hand.stock_size + len(hand.discards)
    if total != DECK_SIZE:
        return (f"a real game has all {DECK_SIZE} cards in the squares, the hands, the stock and the discard pile, "
                f"but this position holds {total}")
    if hand.is_over:
        return _laid_too_many(laid, (DECK_SIZE // 2, DECK_SIZE // 2), "the hand")
    if hand.rules.multiple_plays:
        return _running_problem(hand, held, laid)
    return _one_card_problem(hand, held, laid)


def laid_counts(squares: Sequence[Square]) -> tuple[int, int]:
    """How many cards each player has laid on the two squares (player 0's first), as the `!` marks record."""
    counts = [0, 0]
    for owner, square in enumerate(squares):
        for space in range(1, 10):
            for by_other in square.laid_by_other(space):
                counts[1 - owner if by_other else owner] += 1
    return counts[0], counts[1]


def turns_begun(dealer: int, turns: int) -> tuple[int, int]:
    """How many of the first `turns` turns each player began (the non-dealer takes turns 1, 3, 5...)."""
    counts = [0, 0]
    counts[1 - dealer] = (turns + 1) // 2
    counts[dealer] = turns // 2
    return counts[0], counts[1]


def received(rules: RuleSet, dealer: int, turns: int) -> tuple[int, int]:
    """How many cards each player has received by the draw of turn `turns`: the deal and every draw."""
    counts = [CARDS_DEALT, CARDS_DEALT]
    stock = STOCK_AT_START
    for turn in range(1, turns + 1):
        taken = min(rules.draws_per_turn, stock)
        stock -= taken
        counts[1 - dealer if turn % 2 else dealer] += taken
    return counts[0], counts[1]


def holdings(rules: RuleSet, dealer: int, done: int) -> tuple[int, int]:
    """How many cards each player holds at the decision of turn `done` + 1, with one card put down a turn
    (2008 and 1963 rules): what they received less one card for each turn they finished."""
    got, finished = received(rules, dealer, done + 1), turns_begun(dealer, done)
    return got[0] - finished[0], got[1] - finished[1]


def _one_card_problem(hand: Hand, held: tuple[int, int], laid: tuple[int, int]) -> str | None:
    """What breaks the card counts of one draw and one card a turn (2008 and 1963 rules)."""
    # Turns over: each put exactly one card down. With all 104 cards there and the hands right, the stock
    # holds the rest: 87 − done while it lasts.
    done = sum(laid) + len(hand.discards)
    mover = 1 - hand.dealer if done % 2 == 0 else hand.dealer  # whose turn the count says it is
    finished = turns_begun(hand.dealer, done)
    for player in (mover, 1 - mover):
        should_hold = holdings(hand.rules, hand.dealer, done)[player]
        if held[player] != should_hold:
            return (f"the {_role(hand, player)}{' (to move)' if player == mover else ''} must hold "
                    f"{should_hold} cards after {done} turns, not {held[player]}: "
                    + ("while the stock lasts the player to move holds 9 and the other 8" if done < STOCK_AT_START
                       else "once the stock is empty the non-dealer empties their hand first and the dealer "
                            "plays the last card"))
    if hand.to_move != mover:
        return (f"with {done} cards played or discarded, {done} turns are over and turn {done + 1} is the "
                f"{_role(hand, mover)}'s (the non-dealer takes the odd turns), not the {_role(hand, hand.to_move)}'s")
    return _laid_too_many(laid, finished, f"the {done} turns")


def _running_problem(hand: Hand, held: tuple[int, int], laid: tuple[int, int]) -> str | None:
    """What breaks the card counts of Running Leopard, where hand sizes vary."""
    mover, draws = hand.to_move, hand.rules.draws_per_turn
    current = [0, 0]
    current[mover] = hand.plays_made
    if laid[mover] < hand.plays_made:
        return f"player {mover} has played {hand.plays_made} cards this turn but laid only {laid[mover]} in all"
    if hand.stock_size:
        drawn_so_far = STOCK_AT_START - hand.stock_size
        if drawn_so_far % draws or not drawn_so_far:
            return (f"the stock loses {draws} cards a turn from {STOCK_AT_START}, so it cannot hold "
                    f"{hand.stock_size} at a decision")
        turn = drawn_so_far // draws
        expected_mover = 1 - hand.dealer if turn % 2 else hand.dealer
        if mover != expected_mover:
            return (f"with {hand.stock_size} cards left in the stock this is turn {turn}, the "
                    f"{_role(hand, expected_mover)}'s, not the {_role(hand, mover)}'s")
        got = received(hand.rules, hand.dealer, turn)
        finished = turns_begun(hand.dealer, turn - 1)
        if held[mover] + hand.plays_made < draws:
            return f"the {_role(hand, mover)} has just drawn {draws} cards, but holds {held[mover]}"
        for player in (0, 1):
            discarded = got[player] - held[player] - laid[player]
            if not 0 <= discarded <= finished[player]:
                return (f"the {_role(hand, player)} has received {got[player]} cards in {turn} turns, holds "
                        f"{held[player]} and laid {laid[player]}, so would have discarded {discarded} in "
                        f"{finished[player]} finished turns")
            if got[player] - held[player] - current[player] < finished[player]:
                return (f"the {_role(hand, player)} finished {finished[player]} turns, each putting a card down, "
                        f"but has put down only {got[player] - held[player] - current[player]}")
        return None
    whole = DECK_SIZE // 2  # with the stock empty each player has received half the cards
    last = STOCK_AT_START // draws  # the turn that drew the last card
    for player in (0, 1):
        discarded = whole - held[player] - laid[player]
        if discarded < 0:
            return (f"the {_role(hand, player)} has received {whole} cards, holds {held[player]} and laid "
                    f"{laid[player]}: more than they received")
        before_empty = turns_begun(hand.dealer, last)[player] - (player == mover and player == hand.dealer)
        if whole - held[player] - current[player] < before_empty:
            return (f"the {_role(hand, player)} finished at least {before_empty} turns before the stock ran out, "
                    f"each putting a card down, but has put down only {whole - held[player] - current[player]}")
    return None


def _laid_too_many(laid: tuple[int, int], turns: tuple[int, int], when: str) -> str | None:
    for player in (0, 1):
        if laid[player] > turns[player]:
            return (f"player {player} laid {laid[player]} cards but had only {turns[player]} turns in {when}, "
                    "one card a turn")
    return None


def _role(hand: Hand, player: int) -> str:
    return f"{'dealer' if player == hand.dealer else 'non-dealer'} (player {player})"


def complete_position(rules: RuleSet, squares: Sequence[Square], hands: Sequence[Sequence[Card] | None],
                      stock: Sequence[Card], discards: Sequence[Card], to_move: int, dealer: int,
                      seed: int | str) -> Hand:
    """The position a real game reaches with these squares and cards, at the earliest turn it can:
    `hands` as given (None: dealt from the unused cards, 2008 and 1963 rules only), `discards` on top of
    the fewest more the counts need, `stock` on top of the rest. The cards it adds are the unused ones,
    shuffled by `seed`. LeopardError, with the reason, if no game reaches it whatever was discarded.
    """
    named = Counter([*squares[0].cards(), *squares[1].cards(), *stock, *discards,
                     *(card for held in hands if held is not None for card in held)])
    unused = sorted((Counter(full_deck()) - named).elements())
    random.Random(seed).shuffle(unused)
    laid = sum(laid_counts(squares))
    first_problem = None
    for extra in range(len(unused) + 1):
        rest = unused[extra:]
        dealt: list[list[Card]] = []
        for player, held in enumerate(hands):
            if held is None:
                if rules.multiple_plays:
                    raise LeopardError("in Running Leopard the hands of a position must be given")
                count = holdings(rules, dealer, laid + extra + len(discards))[player]
                held, rest = rest[:count], rest[count:]
            dealt.append(list(held))
        hand = Hand(rules, squares, dealt, [*stock, *rest], [*unused[:extra], *discards], to_move, dealer)
        problem = why_unreachable(hand)
        if problem is None:
            return hand
        first_problem = first_problem or problem
    raise LeopardError(f"no game reaches this position, whatever was discarded before: {first_problem}")
