"""What a test reads off a table's `BoardState` (the data the board draws)."""

from __future__ import annotations

from leopard_tutor.table import BoardState


def cards_shown(state: BoardState) -> tuple[str, ...]:
    """The codes of the hand's cards that the board shows face up (none without a hand)."""
    return () if state.hand is None else tuple(card["card"]["code"] for card in state.hand["cards"])
