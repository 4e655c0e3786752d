"""A match: the cut for the first deal, four hands with the deal alternating, totals and the winner."""

from __future__ import annotations

import json
import random

from .cards import Card, full_deck
from .errors import LeopardError, SavedGameError, quote, saved_json
from .hand import Hand
from .rules import MAX_HANDS, REVISED_2008, RuleSet

MATCH_FORMAT = "leopard-tutor/match"
RESULTS = ("won", "drawn", "lost")
"""How a finished match ended for one player (`Match.result_for`)."""
WON, DRAWN, LOST = RESULTS
MAX_SAVED_MATCH = 500_000  # characters: room for the longest match of 20 hands, ten times over


def cut_for_deal(rng: random.Random) -> tuple[int, list[tuple[Card, Card]]]:
    """Both players draw a card until the ranks differ; the higher rank deals (ace low, suits ignored).

    Returns the dealer and every pair of cards drawn, player 0's first.
    """
    draws = []
    while True:
        deck = full_deck()
        first, second = rng.sample(deck, 2)
        draws.append((first, second))
        if first.rank != second.rank:
            return (0 if first.rank > second.rank else 1), draws


def results_of(totals: tuple[int, int]) -> tuple[str, str]:
    """How a finished match whose totals are `totals` ended for players 0 and 1 (each one of `RESULTS`): the higher
    total wins, equal totals draw."""
    first, second = totals
    return (DRAWN, DRAWN) if first == second else (WON, LOST) if first > second else (LOST, WON)


class Match:
    """A game of several hands (four by default) between players 0 and 1."""

    def __init__(self, rules: RuleSet = REVISED_2008, seed: int | str | None = None, hands: int | None = None) -> None:
        """A new match: the cut decides the first dealer, and the first hand is dealt."""
        if not isinstance(rules, RuleSet):
            raise LeopardError(f"rules must be a RuleSet, not {quote(rules)}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise LeopardError(f"a seed is a whole number or a text, not {quote(seed)}")
        count = rules.hands_per_match if hands is None else hands
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_HANDS:
            raise LeopardError(f"a match has 1 to {MAX_HANDS} hands, not {quote(count)}")
        self.rules = rules
        self.hands = count
        self.seed = seed if seed is not None else random.randrange(2**63)
        self._rng = random.Random(self.seed)
        self.first_dealer, self.cut = cut_for_deal(self._rng)
        self._finished: list[Hand] = []
        self.current = self._deal(self.first_dealer)

    def _deal(self, dealer: int) -> Hand:
        return Hand.deal(self.rules, seed=self._rng.randrange(2**63), dealer=dealer)

    @property
    def hands_played(self) -> list[Hand]:
        """The finished hands that count toward the totals, in order (copies: changing one changes nothing here)."""
        return [hand.copy() for hand in self._finished] + ([self.current.copy()] if self.current.is_over else [])

    @property
    def results(self) -> list[tuple[int, int]]:
        """Each finished hand's scores."""
        return [hand.scores() for hand in [*self._finished, self.current] if hand.is_over]

    @property
    def totals(self) -> tuple[int, int]:
        """The running totals over the finished hands."""
        results = self.results
        return (sum(r[0] for r in results), sum(r[1] for r in results))

    @property
    def hand_number(self) -> int:
        """Which hand is in play, counting from 1."""
        return len(self._finished) + 1

    @property
    def is_over(self) -> bool:
        """Whether the last hand has been played to its end."""
        return len(self._finished) + 1 == self.hands and self.current.is_over

    @property
    def winner(self) -> int | None:
        """The player with the higher total once the match is over, or None for a drawn match."""
        if not self.is_over:
            raise LeopardError("the match is not over yet")
        first, second = self.totals
        return None if first == second else (0 if first > second else 1)

    def result_for(self, player: int) -> str:
        """How the finished match ended for `player`: one of `RESULTS`."""
        if not self.is_over:
            raise LeopardError("the match is not over yet")
        return results_of(self.totals)[player]

    def next_hand(self) -> Hand:
        """Deal the next hand, the other player dealing; the current hand must be over."""
        if not self.current.is_over:
            raise LeopardError("finish the hand in play before dealing the next one")
        if self.is_over:
            raise LeopardError(f"the match is over: all {self.hands} hands have been played")
        self._finished.append(self.current)
        self.current = self._deal(1 - self.current.dealer)
        return self.current

    def to_json(self) -> str:
        """The match as JSON text, every hand included."""
        return json.dumps({
            "format": MATCH_FORMAT, "version": 1, "rules": self.rules.to_data(), "hands": self.hands,
            "seed": self.seed, "hands_played": [json.loads(h.to_json()) for h in [*self._finished, self.current]],
        })

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        """A match read back from `to_json`; SavedGameError if it cannot be."""
        data = saved_json(text, "match", MAX_SAVED_MATCH)
        if not isinstance(data, dict) or data.get("format") != MATCH_FORMAT or data.get("version") != 1:
            raise SavedGameError(f"this is not a saved Leopard match (format {quote(MATCH_FORMAT)}, version 1)")
        try:
            match = cls(RuleSet.from_data(data["rules"]), data["seed"], data["hands"])
            saved = data["hands_played"]
        except KeyError as missing:
            raise SavedGameError(f"the saved match has no {missing}") from None
        except LeopardError as error:
            raise SavedGameError(f"the saved match is not valid: {error}") from None
        if not isinstance(saved, list) or not 1 <= len(saved) <= match.hands:
            raise SavedGameError("the saved match's hands are missing or too many")
        for number, item in enumerate(saved):
            hand = Hand.from_data(item)
            expected = match.current
            if hand.rules != match.rules or hand.dealer != expected.dealer or hand._start != expected._start:
                raise SavedGameError(f"hand {number + 1} of the saved match was not dealt by this match")
            match.current = hand
            if number + 1 < len(saved):
                if not hand.is_over:
                    raise SavedGameError(f"hand {number + 1} of the saved match is unfinished but later hands exist")
                match.next_hand()
        return match
