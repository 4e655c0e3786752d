"""What a player can tell from what they see (rules A.1.13, ruling B-25): answers worked out from the
player's view alone, each with its reason in words.

An answer is "yes", "no" or "unknown" (what the player sees does not settle it). Face-up cards are
public, buried ones too, and so is the discard pile; a face-down card shows only that it is a jack or a
queen, and that it is a jack when the other player laid it on your square (a queen only ever goes on its
owner's square); its suit stays hidden from everyone but the player who laid it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import COPIES, JACK, RANK_NAMES, SUIT_NAMES, Card
from .catalogue import and_list, or_list, text
from .errors import LeopardError, quote
from .placement import lies_face_down
from .rules import RuleSet
from .square import Hidden
from .values import possible_values
from .view import PlayerView

ANSWERS = ("yes", "no", "unknown")
"""The three answers, in the order they are offered."""
KINDS = ("jack", "queen", *SUIT_NAMES.values())
"""What a question may ask a top card to be: a rank of face-down card, or a suit."""


@dataclass(frozen=True)
class Knowing:
    """What a player can tell: the answer ("yes", "no" or "unknown") and why, in words."""

    answer: str
    reason: str


def top_card_is(view: PlayerView, owner: int, space: int, kind: str) -> Knowing:
    """Whether the top card on `space` of `owner`'s square is of `kind` ('jack', 'queen' or a suit such
    as 'hearts'), as the player of `view` can tell; LeopardError if the space is empty."""
    if kind not in KINDS:
        raise LeopardError(f"a top card can be asked to be one of {', '.join(KINDS)}, not {quote(kind)}")
    top = view.squares[owner].top(space)
    if top is None:
        raise LeopardError(f"space {space} of player {owner}'s square is empty: there is no card to ask about")
    face, face_up = top
    what = text(f"knowledge.kinds.{kind}")
    if isinstance(face, Card):
        fits = RANK_NAMES.get(face.rank) == kind or SUIT_NAMES[face.suit] == kind
        how = "face_up" if face_up else "yours"
        named = {"The_card": face.the_name_first} if face_up else {"the_card": face.the_name}
        return Knowing("yes" if fits else "no",
                       text(f"knowledge.top.{how}", what=what, fits=text(f"knowledge.fits.{fits}"), **named))
    assert isinstance(face, Hidden)
    if face.jack_only and kind in ("jack", "queen"):
        return Knowing("yes" if kind == "jack" else "no", text("knowledge.top.jack_only"))
    if face.jack_only:
        return Knowing("unknown", text("knowledge.top.jack_only_suit", what=what))
    return Knowing("unknown", text("knowledge.top.hidden", what=what))


def other_holds(view: PlayerView, card: Card) -> Knowing:
    """Whether the other player holds `card`, as the player of `view` can tell: "no" when both copies are in
    sight, "yes" when a copy is out of sight and the other player's hand is the only place it can be."""
    seen = _places(view, card)
    if len(seen) >= COPIES:
        return Knowing("no", text("knowledge.holds.all_seen", the_card=card.the_name, places=_copies_words(seen)))
    elsewhere = []
    if view.stock_size:
        elsewhere.append(text("knowledge.places.stock"))
    if lies_face_down(card) and any(
            isinstance(face, Hidden) and (card.rank == JACK or not face.jack_only)
            for square in view.squares for space in range(1, 10) for face, _ in square.pile(space)):
        elsewhere.append(text("knowledge.places.face_down"))
    missing = COPIES - len(seen)
    in_sight = (text("knowledge.holds.in_sight", places=_copies_words(seen)) if seen
                else text("knowledge.holds.none_seen"))
    if not elsewhere:
        return Knowing("yes", text("knowledge.holds.must", the_card=card.the_name, count=missing, in_sight=in_sight))
    return Knowing("unknown", text("knowledge.holds.may", the_card=card.the_name, count=missing, in_sight=in_sight,
                                   elsewhere=or_list([text("knowledge.places.hand"), *elsewhere])))


def _places(view: PlayerView, card: Card) -> list[str]:
    """Where the player of `view` sees a copy of `card`, one phrase per copy."""
    places = [text("knowledge.places.held")] * view.hand.count(card)
    places += [text("knowledge.places.discards")] * view.discards.count(card)
    for owner, square in enumerate(view.squares):
        whose = text(f"knowledge.whose.{'your' if owner == view.player else 'their'}")
        for space in range(1, 10):
            pile = square.pile(space)
            for depth, (face, _) in enumerate(reversed(pile)):
                if face is card:
                    where = "top" if depth == 0 else "buried"
                    places.append(text(f"knowledge.places.{where}", space=space, whose=whose))
    return places


def _copies_words(places: list[str]) -> str:
    """Where the copies in sight lie: 'one on the discard pile and one in your hand', or 'both on the
    discard pile' when they lie alike."""
    if len(places) == COPIES and len(set(places)) == 1:
        return text("knowledge.copies.both", place=places[0])
    return and_list([text("knowledge.copies.one", place=place) for place in places])


def can_be_worth(rules: RuleSet, value: int) -> Knowing:
    """Whether some square can be worth `value` under `rules`: everyone can tell, from the rules alone."""
    possible = possible_values(rules)
    if value in possible:
        return Knowing("yes", text("knowledge.worth.yes", value=value))
    most = max(possible)
    key = "above" if value > most else "between"
    return Knowing("no", text(f"knowledge.worth.{key}", value=value, most=most))

