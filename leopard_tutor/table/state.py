"""`BoardState`: the table as the board draws it, one typed value; `as_dict()` is the one place it becomes the
dict that `board.js` reads (the schema is in the `leopard_tutor.widgets` docstring)."""

from __future__ import annotations

from dataclasses import dataclass

from ..board_parts import State as State  # one part of the board: the table's modules read it here

Place = tuple[int, int] | str
"""A place a card may go on the board: (the square's owner, the space), or "discard"."""


@dataclass(frozen=True)
class BoardState:
    """Everything the board shows now. A part that is None is not drawn: no `hand` is a table where no
    hand may be seen (a hand-over screen, a worked example without a card), no `stock` a single square."""

    squares: tuple[State, ...]
    message: str = ""
    tone: str = "info"
    seq: int = 0
    turn: str = ""
    actions: tuple[State, ...] = ()
    aside: tuple[State, ...] = ()
    hand: State | None = None
    stock: State | None = None
    discard: State | None = None
    opponent_hand: State | None = None
    moves: tuple[State, ...] = ()
    answer: State | None = None
    search: State | None = None
    error: str = ""
    inert: str = ""
    """Why the cards, the spaces and the discard pile take no click now ("": they do): a review is shown, the hand
    is over, the device is being passed, the class table waits or has closed. The page marks them so."""
    message_room: tuple[str, ...] = ()
    """Messages the live region keeps room for (an example's captions, one a step): it is as tall as the tallest of
    them, so that stepping moves nothing under it, nor a phone's cards fitted to keep it on the screen."""
    note: str = ""
    """What the line under the message says while no space or pile is pointed at or focused ("": nothing): a
    finished stage's reason for taking no more tries, the same whatever was clicked last (that line showed it only
    while the pointer rested on the table, so after a stage solved by a click there and not by a button)."""

    thinking: str = ""
    """While the computer chooses its reply to the viewer's move, drawn already, why the table takes no click
    meanwhile (said to a click on a card, a space or the pile); "" at any other time. The page stays busy until the
    reply's state comes, and the message, from before that move, is not shown meanwhile."""

    def as_dict(self) -> State:
        """The dict `board.js` draws (a new one each time): every part that is drawn, lists as lists."""
        found: State = {"squares": list(self.squares), "message": self.message, "tone": self.tone, "seq": self.seq,
                        "turn": self.turn, "actions": list(self.actions), "aside": list(self.aside),
                        "moves": list(self.moves), "error": self.error}
        if self.inert:
            found["inert"] = self.inert
        if self.note:
            found["note"] = self.note
        if self.thinking:
            found["thinking"] = self.thinking
        if self.message_room:
            found["message_room"] = list(self.message_room)
        for name in ("hand", "stock", "discard", "opponent_hand", "answer", "search"):
            part = getattr(self, name)
            if part is not None:
                found[name] = part
        return found

