"""`Marks`: the card picked and what the board marks after moves (the spaces just played on, the lines that
formed or broke, the cards travelling to their places). Play, Learn and Practice keep theirs here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..engine import Card, Discard, Hand, Move, Play, RuleSet, Square
from ..engine.narration import LineChange, line_changes
from ..hint_ladder import CARD_RUNG, PLACE_RUNG, Rung
from .intents import BadIntent
from .presenter import moves_part
from .state import BoardState, Place, State


@dataclass
class Marks:
    """The picked card (an index into the viewer's hand) and the marks of the last moves told."""

    selected: int | None = None
    last: dict[int, set[int]] = field(default_factory=dict)
    """The spaces just played on, per square owner."""
    changes: tuple[LineChange, ...] = ()
    """The lines that formed or broke with the last moves."""
    moved: tuple[tuple[Move, int], ...] = ()
    """The cards the last message tells of: (move, mover)."""
    moved_seq: int = -1
    """The message number the moves belong to: they travel only while that message is shown."""
    hinted: tuple[Card, Place] | None = None
    """The place a hint named for its card (the card, the place): lit apart from the card's other places while that
    card stays picked (`hinted_place`)."""
    tried: tuple[int, Place] | None = None
    """The number of the message that says why a try was refused (or taken back), and the place tried: while that
    message is shown, the place does not say its reason again under it (`quiet`)."""

    def pick(self, index: int, count: int) -> bool:
        """Pick card `index` of a hand of `count` cards; picking the picked card again puts it back. Whether a card
        is picked now. A card that is not there is a `BadIntent` and changes nothing."""
        if not 0 <= index < count:
            raise BadIntent(f"there is no card number {index} in your hand")
        self.hinted = None
        if self.selected == index:
            self.selected = None
            return False
        self.selected = index
        return True

    def follow_hint(self, rung: Rung, cards: Sequence[Card]) -> bool:
        """Mark what a hint's `rung` names of its move with a card of `cards`: the card, picked for the learner (from
        the card's rung on), and a play's place, lit apart from the card's other places (from the place's rung on).
        Whether the pick changed (not if the card was picked already, or is not among `cards`)."""
        move = rung.move
        if rung.level < CARD_RUNG or not isinstance(move, (Play, Discard)) or move.card not in cards:
            return False
        index = list(cards).index(move.card)
        changed, self.selected = self.selected != index, index
        if rung.level >= PLACE_RUNG:
            self.hinted = (move.card, (move.square_owner, move.space) if isinstance(move, Play) else "discard")
        return changed

    def hinted_place(self, cards: Sequence[Card]) -> Place | None:
        """The place (the square's owner and the space, or "discard") a hint named for the card picked of `cards`, if
        it named one for that card."""
        picked = self.picked(cards)
        if self.hinted is None or picked is None or picked != self.hinted[0]:
            return None
        return self.hinted[1]

    def picked(self, cards: Sequence[Card]) -> Card | None:
        """The picked card of `cards`, or None."""
        if self.selected is None or self.selected >= len(cards):
            return None
        return cards[self.selected]

    def clear(self) -> None:
        """Nothing picked, nothing marked."""
        self.selected, self.last, self.changes, self.moved, self.hinted, self.tried = None, {}, (), (), None, None

    def refused(self, move: Move, seq: int) -> None:
        """Mark where `move` was tried, if it is a card's (a play or a discard), as the place message `seq` gives the
        reason for."""
        if isinstance(move, (Play, Discard)):
            self.tried = (seq, (move.square_owner, move.space) if isinstance(move, Play) else "discard")

    def quiet(self, state: BoardState) -> BoardState:
        """`state` with the place tried marked "said" while its message is shown: the message says its reason, so
        hover and focus do not repeat it under the message; the place keeps it as its description (a screen reader
        coming back to it, a tooltip)."""
        if self.tried is None or self.tried[0] != state.seq:
            return state
        place = self.tried[1]
        if place == "discard":
            return replace(state, discard=state.discard and {**state.discard, "said": True})
        squares = tuple({**square, "cells": [{**cell, "said": True} if (square["key"], cell["space"]) == place
                                             else cell for cell in square["cells"]]} for square in state.squares)
        return replace(state, squares=squares)

    def after(self, hand: Hand, first: int, before: Sequence[Square], after: Sequence[Square], rules: RuleSet,
              seq: int) -> None:
        """Mark the moves of `hand` from move number `first` on, told in message `seq`: the spaces played on,
        the lines that changed between the squares `before` and `after` (as the viewer sees them), the cards
        travelling. The pick, and a hint's place, are put back."""
        self.selected, self.hinted = None, None
        self.last = {}
        for move in hand.moves[first:]:
            if isinstance(move, Play):
                self.last.setdefault(move.square_owner, set()).add(move.space)
        self.changes = tuple(change for owner in (0, 1)
                             for change in line_changes(owner, before[owner], after[owner], rules))
        self.moved, self.moved_seq = tuple(zip(hand.moves[first:], hand.movers[first:])), seq

    def travelling(self, seq: int, viewer: int) -> list[State]:
        """The cards the board shows travelling with message `seq`, as `viewer` sees them."""
        return moves_part(self.moved, viewer) if self.moved_seq == seq else []
