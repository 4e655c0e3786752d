"""The parts of a position the board draws, from engine objects alone: a square (`square_part`), the stock and the
discard pile, each a plain JSON-ready dict (the schema is in the `leopard_tutor.widgets` docstring).

The table's presenter (`table/presenter.py`) puts them together with the hand and the buttons into a whole board;
the teacher's class page (`server/teacher.py`) draws a classmates' table with the same parts, so the server needs
neither the table nor the widgets.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .engine import Card, Hidden, RuleSet, Square, scoring_lines, square_value
from .engine.catalogue import text
from .engine.narration import LineChange
from .engine.square import Face

State = dict[str, Any]
"""One part of the board as `board.js` reads it (a square, the hand, a button, a panel): plain JSON."""


def card_data(card: Card) -> dict[str, str]:
    """A face-up card for the board: rank, suit symbol, colour, code and name in words."""
    return {"code": str(card), "rank": card.rank_token, "suit": card.suit, "symbol": card.symbol[-1],
            "color": card.color, "name": card.name}


def what_lies(square: Square, space: int) -> str:
    """What lies on a space, in words: 'empty', '7 of hearts', 'face-down card' (and what is under it)."""
    pile = square.pile(space)
    if not pile:
        return text("board.empty")
    face, face_up = pile[-1]
    words = _face_name(face, face_up)
    return text("board.on_top_of", what=words, count=len(pile) - 1) if len(pile) > 1 else words


def _face_name(face: Face, face_up: bool) -> str:
    if isinstance(face, Hidden):
        return text("board.face_down_card")
    if face_up:
        return face.name
    return text("board.own_face_down", card=face.name)


def square_part(square: Square, rules: RuleSet, *, key: int | str, label: str,
                targets: Iterable[int] = (), reasons: Mapping[int, str] | None = None,
                last: Iterable[int] = (), changes: Sequence[LineChange] = (),
                dim: bool = False, side: str = "", hinted: int | None = None, better: int | None = None) -> State:
    """One square for the board.

    key: what a click on one of its spaces sends back as `square`; label: 'Your square' and the like,
    which starts every space's accessible name, the value text and the name of the list of its lines;
    targets: spaces lit as legal for the selected card; reasons: a sentence per space shown on hover or focus;
    last: spaces just played on;
    changes: lines that formed or broke (from the narration of the last move); dim: dim every space
    that is not a target (a card is selected); side: "yours" or "theirs" on a table of two squares
    (where the board places it), "" for a square shown alone; hinted: the target a hint named, lit apart from the
    others and named so; better: in a review, the space where the best move found puts its card (another move than
    the one made), marked and named so.
    """
    targets, last = set(targets), set(last)
    reasons = reasons or {}
    cells = []
    for row in rules.grid:
        for space in row:
            top = square.top(space)
            face: State | None = None
            known: State | None = None
            face_down = False
            if top is not None:
                card, face_up = top
                if face_up:
                    assert isinstance(card, Card)
                    face = card_data(card)
                else:
                    face_down = True
                    known = card_data(card) if isinstance(card, Card) else None
            name = text("board.space_name", label=label, space=space, what=what_lies(square, space))
            hint = space == hinted and space in targets
            if hint:
                name = text("board.space_hinted", name=name)
            if space == better:
                name = text("board.space_better", name=name)
            cells.append({
                "space": space, "card": face, "face_down": face_down, "known": known,
                "depth": len(square.pile(space)), "name": name,
                "target": space in targets, "dim": dim and space not in targets,
                "why": reasons.get(space, ""), "last": space in last, "hinted": hint, "better": space == better,
            })
    position = {space: index for index, space in enumerate(s for row in rules.grid for s in row)}
    lines = [_line_data(line.spaces, line.kind, line.points, line.name, "", position)
             for line in scoring_lines(square, rules) if line.points]
    for change in changes:
        line = change.line
        if line.points == 0:
            lines.append(_line_data(line.spaces, None, change.points_before, line.name, "broke", position))
            continue
        item = next(item for item in lines if tuple(item["spaces"]) == line.spaces)
        item["status"] = "formed" if change.formed else "weakened"
        if change.points_before:
            item["text"] = text("board.line_was", text=item["text"], before=change.points_before)
    value = square_value(square, rules)
    return {"key": key, "label": label, "side": side, "value": value,
            "value_text": text("board.worth", label=label, value=value), "cells": cells, "lines": lines,
            "lines_label": text("board.line_list", label=label)}


def _line_data(spaces: tuple[int, int, int], kind: str | None, points: int, name: str, status: str,
               position: Mapping[int, int]) -> State:
    ordered = sorted(spaces, key=lambda s: position[s])
    if status == "broke":
        words = text("board.line_broke", name=name, points=points)
        label = f"−{points}"
    else:
        words = text("board.line_scores", name=name, kind=text(f"narration.kind_{kind or 'suit'}"), points=points)
        label = f"+{points}"
    return {"name": name, "spaces": list(spaces), "kind": kind, "points": points, "label": label, "text": words,
            "status": status, "cells": [position[s] for s in ordered]}


def stock_part(count: int) -> State:
    """The stock: how many cards it holds."""
    return {"count": count, "caption": text("board.captions.stock", count=count)}


def discard_part(discards: Sequence[Card], *, target: bool = False, dim: bool = False, why: str = "",
                 hinted: bool = False) -> State:
    """The discard pile: its top card and size; `target` when the picked card may be discarded, `dim` when not,
    `why` the sentence that says so; `hinted` when a hint named it for the picked card (lit apart, named so)."""
    top = discards[-1] if discards else None
    name = text("board.discard_pile")
    return {"top": card_data(top) if top else None, "count": len(discards), "target": target, "dim": dim, "why": why,
            "hinted": hinted, "name": text("board.space_hinted", name=name) if hinted else name,
            "caption": text("board.captions.discard", count=len(discards)),
            "contents": text("board.discard_top", card=top.name, count=len(discards)) if top else text("board.empty")}
