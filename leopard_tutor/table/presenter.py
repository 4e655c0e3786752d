"""Board state from engine objects: plain JSON-ready dicts that `LeopardBoard` draws (a square, the stock and
the discard pile are `board_parts.py`'s, which the teacher's class page draws too).

Every function here only reads the engine; the words for legality come from `check_play` and
`Hand.check`, and values from `square_value` / `scoring_lines`. The schema is described in the
`leopard_tutor.widgets` docstring; `table_state` puts a whole table together as a `BoardState`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..board_parts import card_data, discard_part, square_part, stock_part
from ..engine import (
    Card,
    Discard,
    Move,
    Play,
    PlayerView,
    check_play,
    lies_face_down,
)
from ..engine.catalogue import text
from ..engine.legality import discard_allowed
from ..engine.moves import spaces_for
from ..engine.narration import LineChange
from .state import BoardState, Place, State


def hand_part(cards: Sequence[Card], *, selected: int | None = None, playable: Iterable[Card] | None = None,
              label: str = "", stuck: str = "board.hand_stuck", counted: bool = True) -> State:
    """The viewer's hand, fanned: each card a button named by its card (whether it is selected, the button says
    as pressed, not in its name); `selected` is an index into `cards`; `label` is "Your hand" unless another is
    given, its title the label with the count of cards (`counted`) or alone. A card not in `playable` (when given)
    is drawn faded, with `stuck` (a catalogue key taking the card's name) as its reason."""
    allowed = None if playable is None else set(playable)
    label = label or text("board.your_hand")
    title = text("board.captions.hand", label=label, count=len(cards)) if counted else label
    return {"label": label, "title": title, "cards": [
        {"index": i, "card": card_data(card), "selected": i == selected,
         "playable": allowed is None or card in allowed, "name": card.name,
         "why": "" if allowed is None or card in allowed else text(stuck, The_card=card.the_name_first)}
        for i, card in enumerate(cards)]}


def action(ident: str, label: str, *, enabled: bool, note: str = "", primary: bool = False,
           wait: bool = False) -> State:
    """A button under the board (Go out, End turn, Next hand...): a disabled one shows `note` saying why; `wait`, a
    button greyed only while the computer chooses its reply (the board greys it after a moment)."""
    found: State = {"id": ident, "label": label, "enabled": enabled, "note": note, "primary": primary}
    if wait:
        found["wait"] = True
    return found


def moves_part(moves: Sequence[tuple[Move, int]], viewer: int) -> list[State]:
    """The moves an intent just made, in order, for the board to show travelling: (move, mover) pairs.

    Each is {by: "you"|"them", target: the `data-k` of the space or pile it went to, card: the face
    shown on arrival, or None for a card that lands face down}. Going out and ending a turn move no card.
    """
    shown = []
    for move, mover in moves:
        if isinstance(move, Play):
            target = f"s{move.square_owner}-{move.space}"
            face = None if lies_face_down(move.card) else card_data(move.card)
        elif isinstance(move, Discard):
            target, face = "discard", card_data(move.card)
        else:
            continue
        shown.append({"by": "you" if mover == viewer else "them", "target": target, "card": face})
    return shown


def goal_panel(title: str, goal: str, items: Sequence[str] = (), note: str = "", css: str = "") -> State:
    """The side column's goal: "Goal:" and the goal, where each part of it stands, and a note; `css`, a class of its
    box (Learn's while a question is asked)."""
    return {"kind": "goal", "title": title, "text": goal, "items": list(items), "note": note, "class": css}


def text_panel(title: str, paragraphs: Sequence[str], figures: Sequence[State] = (), css: str = "") -> State:
    """A titled text in the side column, with small numbering figures ({caption, grid}) if any."""
    return {"kind": "text", "title": title, "paragraphs": list(paragraphs), "figures": list(figures), "class": css}


def actions_panel(items: Sequence[State], css: str = "") -> State:
    """A row of buttons in the side column (each made by `action`), for what is not part of a turn."""
    return {"kind": "actions", "items": list(items), "class": css}


def list_panel(title: str, items: Sequence[str | State], *, empty: str = "", ordered: bool = False,
               latest_first: bool = False, css: str = "") -> State:
    """A titled list in the side column (an item is a text, or {text, class} with `current` and `step` for a move of a
    review: the page makes it a button that shows that move); `empty` when there is none."""
    return {"kind": "list", "title": title, "items": list(items), "empty": empty, "ordered": ordered,
            "reversed": latest_first, "list_class": css}


def table_panel(title: str, head: Sequence[str], rows: Sequence[Sequence[str | int]], foot: Sequence[str | int],
                css: str = "") -> State:
    """A titled table in the side column (the score sheet)."""
    return {"kind": "table", "title": title, "head": list(head), "rows": [list(row) for row in rows],
            "foot": list(foot), "table_class": css}


def pairs_panel(title: str, groups: Sequence[tuple[str, Sequence[tuple[str, str | int, bool]]]]) -> State:
    """Groups of (label, value, strong) rows side by side under a title (the end-of-hand breakdown)."""
    return {"kind": "pairs", "title": title,
            "groups": [{"title": name, "rows": [list(row) for row in rows]} for name, rows in groups]}


def play_targets(view: PlayerView, card: Card) -> tuple[dict[int, set[int]], dict[int, dict[int, str]], bool]:
    """For `card` held by the viewer: the legal spaces per square owner, the reason for every space
    of both squares (from `check_play`), and whether it may be discarded now."""
    legal = view.legal_moves()
    targets = spaces_for(card, legal)
    reasons: dict[int, dict[int, str]] = {}
    for owner in (0, 1):
        reasons[owner] = {}
        for space in range(1, 10):
            verdict = check_play(card, view.squares[owner], space, own=owner == view.player,
                                 other=view.squares[1 - owner])
            reasons[owner][space] = (_turn_reason(view) if verdict.legal and space not in targets[owner]
                                     else verdict.reason)
    return targets, reasons, Discard(card) in legal


def _discard_why(view: PlayerView, card: Card, allowed: bool) -> str:
    """Whether and why the viewer may discard `card` now, in the engine's words (its own turn's verdict), or why
    it is not the viewer's move."""
    if allowed:
        return discard_allowed(card).reason
    if view.to_move == view.player and not view.is_over and view.plays_made:
        return text("engine.turn.discard_after_play")
    return _turn_reason(view)


def _turn_reason(view: PlayerView) -> str:
    """Why a move that fits the placement table is still not allowed now (not your turn, hand over)."""
    if view.is_over:
        return text("board.turn.over")
    if view.to_move != view.player:
        return text("board.turn.theirs")
    return text("board.turn.not_now")


def square_labels() -> tuple[str, str]:
    """The names of the viewer's square and the opponent's: "Your square", "Opponent's square"."""
    return text("board.squares.yours"), text("board.squares.theirs")


def table_state(view: PlayerView, *, selected: int | None = None, message: str = "", tone: str = "info",
                seq: int = 0, last: Mapping[int, Iterable[int]] | None = None,
                changes: Sequence[LineChange] = (), actions: Sequence[State] = (), turn: str = "",
                labels: tuple[str, str] | None = None, moves: Sequence[State] = (),
                aside: Sequence[State] = (), hand_label: str = "", other_hand: str = "",
                only_own: str = "", stuck: str = "board.hand_stuck",
                hinted: Place | None = None, better: tuple[int, int] | None = None) -> BoardState:
    """The whole table for the viewer of `view`: the opponent's square and theirs, the hand, stock,
    discard pile and the opponent's hand as backs. `selected` indexes `view.hand`, and `hinted` is the place (the
    square's owner and the space, or "discard") a hint named for that card, lit apart from its other places;
    `better`, in a review, the place where the best move found puts its card; `moves` are the cards just played
    (`moves_part`) and `aside` the side column's panels; `hand_label` names the hand ("Your hand" unless given)
    and `other_hand` captions the other hand (the opponent's unless given).
    `only_own`, if given, says why only the viewer's own square takes the card (a question answered there): the
    other square's spaces and the discard pile are not lit, and each says it; then a card with no space of the
    viewer's square is drawn stuck, with `stuck` (a catalogue key taking the card's name) as its reason."""
    me, other = view.player, 1 - view.player
    labels = labels or square_labels()
    last = last or {}
    card = view.hand[selected] if selected is not None and 0 <= selected < len(view.hand) else None
    targets: dict[int, set[int]] = {0: set(), 1: set()}
    reasons: dict[int, dict[int, str]] = {0: {}, 1: {}}
    can_discard = False
    discard_why = ""
    if card is not None:
        targets, reasons, can_discard = play_targets(view, card)
        discard_why = _discard_why(view, card, can_discard)
        if only_own:
            targets[other], reasons[other] = set(), dict.fromkeys(range(1, 10), only_own)
            can_discard, discard_why = False, only_own
    legal = view.legal_moves()
    playable: set[Card] | None = None  # not the viewer's move: no card is stuck, the turn is the other's
    if legal and only_own:  # a card goes only where it answers: a space of the viewer's own square
        playable = {m.card for m in legal if isinstance(m, Play) and m.square_owner == me}
    elif legal:
        playable = {m.card for m in legal if isinstance(m, (Play, Discard))}
    squares = tuple(
        square_part(view.squares[owner], view.rules, key=owner, label=labels[0 if owner == me else 1],
                    targets=targets[owner], reasons=reasons[owner], last=last.get(owner, ()),
                    changes=[c for c in changes if c.owner == owner], dim=card is not None,
                    side="yours" if owner == me else "theirs",
                    hinted=hinted[1] if isinstance(hinted, tuple) and hinted[0] == owner else None,
                    better=better[1] if better is not None and better[0] == owner else None)
        for owner in (me, other)
    )
    return BoardState(
        squares=squares,
        hand=hand_part(view.hand, selected=selected if card is not None else None, playable=playable,
                       label=hand_label, stuck=stuck),
        stock=stock_part(view.stock_size),
        discard=discard_part(view.discards, target=can_discard, dim=card is not None and not can_discard,
                             why=discard_why, hinted=can_discard and hinted == "discard"),
        opponent_hand={"count": view.other_hand_size,
                       "caption": other_hand or text("board.captions.opponent_hand", count=view.other_hand_size)},
        actions=tuple(actions), turn=turn, message=message, tone=tone, seq=seq, moves=tuple(moves), aside=tuple(aside))
