"""The placement table (A.1.6): for each rank, where its cards may go and how they land. It is the same in all
three rule sets; `legality.allowed_spaces` decides by it, and the square's notation checks its piles by it."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import JACK, KING, QUEEN, TEN, Card
from .catalogue import text


@dataclass(frozen=True)
class Placement:
    """One row of the placement table: where cards of some rank may go and how they land."""

    cards: str
    own_only: bool
    numbered: bool
    target: str  # "open": empty or face down; "card": any card; "any": anything, even empty
    face_up: bool
    rule_key: str  # its rule in words: engine.rule.<rule_key>

    @property
    def rule(self) -> str:
        """The rule in words, in the language of the moment."""
        return text(f"engine.rule.{self.rule_key}")

    def __str__(self) -> str:
        return self.rule


_NUMBERED = Placement("ace to nine", own_only=False, numbered=True, target="open", face_up=True, rule_key="numbered")
PLACEMENT: dict[int, Placement] = {rank: _NUMBERED for rank in range(1, 10)}
PLACEMENT[TEN] = Placement("ten", own_only=True, numbered=False, target="open", face_up=True, rule_key="ten")
PLACEMENT[JACK] = Placement("jack", own_only=False, numbered=False, target="card", face_up=False, rule_key="jack")
PLACEMENT[QUEEN] = Placement("queen", own_only=True, numbered=False, target="card", face_up=False, rule_key="queen")
PLACEMENT[KING] = Placement("king", own_only=True, numbered=False, target="any", face_up=True, rule_key="king")


def lies_face_down(card: Card) -> bool:
    """Whether this card always lies face down once played (jacks and queens)."""
    return not PLACEMENT[card.rank].face_up
