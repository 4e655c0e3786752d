"""What a move did, in words: the card, what it covered, the lines that formed or broke, the value change.

Everything is worked out from engine objects: the squares before and after the move as the
viewer sees them (so a face-down card the viewer did not lay stays unnamed), and the rule set.
The words take the viewer's side: "you" and "your" for the viewer, "your opponent" and
"their" for the other player.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .cards import JACK, QUEEN, Card
from .errors import quote
from .moves import Discard, EndTurn, GoOut, Move, Play
from .rules import RuleSet
from .scoring import ScoringLine, scoring_lines, square_value
from .square import Face, Hidden, Square

TEXTS: dict[str, str] = json.loads((Path(__file__).parent / "narration.json").read_text(encoding="utf-8"))
"""Every phrase of the narration (a data file, so the words can be changed without touching the logic)."""


@dataclass(frozen=True)
class LineChange:
    """A line of one square whose points changed: what it paid before and what it pays now."""

    owner: int
    line: ScoringLine
    points_before: int

    @property
    def formed(self) -> bool:
        """Whether the line pays more than before."""
        return self.line.points > self.points_before

    @property
    def broke(self) -> bool:
        """Whether the line pays less than before."""
        return self.line.points < self.points_before


@dataclass(frozen=True)
class Narration:
    """The words for one move and the facts behind them."""

    text: str
    mover: int
    viewer: int
    owner: int | None
    value_before: int | None
    value_after: int | None
    changes: tuple[LineChange, ...] = ()

    @property
    def formed(self) -> tuple[LineChange, ...]:
        """The lines that now pay more."""
        return tuple(c for c in self.changes if c.formed)

    @property
    def broken(self) -> tuple[LineChange, ...]:
        """The lines that now pay less."""
        return tuple(c for c in self.changes if c.broke)

    def __str__(self) -> str:
        return self.text


def line_changes(owner: int, before: Square, after: Square, rules: RuleSet) -> tuple[LineChange, ...]:
    """The lines of `owner`'s square whose points differ between `before` and `after`."""
    old = {line.spaces: line.points for line in scoring_lines(before, rules)}
    return tuple(LineChange(owner, line, old[line.spaces]) for line in scoring_lines(after, rules)
                 if line.points != old[line.spaces])


def narrate(move: Move, mover: int, viewer: int, before: Sequence[Square], after: Sequence[Square],
            rules: RuleSet, *, went_out_value: int | None = None) -> Narration:
    """The words for `move` made by `mover`, told to `viewer`, from both squares before and after it.

    `before` and `after` are the two squares (player 0's first) as the viewer sees them.
    """
    subject = _say("you" if mover == viewer else "opponent")
    if isinstance(move, Discard):
        return Narration(_say("discard", subject=subject, card=move.card.name), mover, viewer, None, None, None)
    if isinstance(move, EndTurn):
        return Narration(_say("end_turn", subject=subject), mover, viewer, None, None, None)
    if isinstance(move, GoOut):
        value = square_value(before[mover], rules) if went_out_value is None else went_out_value
        whose = _say("your" if mover == viewer else "their")
        return Narration(_say("go_out", subject=subject, whose=whose, value=value), mover, viewer, mover, value, value)
    if not isinstance(move, Play):
        raise TypeError(f"{quote(move)} is not a move")
    return _narrate_play(move, mover, viewer, before, after, rules)


def _narrate_play(move: Play, mover: int, viewer: int, before: Sequence[Square], after: Sequence[Square],
                  rules: RuleSet) -> Narration:
    owner, space = move.square_owner, move.space
    poss = _say("your" if owner == viewer else "their")
    words: dict[str, object] = {"subject": _say("you" if mover == viewer else "opponent"), "poss": poss,
                                "space": space}
    old, new = before[owner], after[owner]
    card = _landed(move.card, new, space, mover == viewer)
    under = old.top(space)
    if under is None:
        action = _say("play_on_empty", card=card, **words)
    elif under[1]:
        shown = under[0]
        assert isinstance(shown, Card)
        action = _say("play_cover", card=card, shown=shown.name, **words)
    else:
        action = _say("play_over_face_down", card=card, hidden=_face_down_words(under[0]), **words)
    changes = line_changes(owner, old, new, rules)
    value_before, value_after = square_value(old, rules), square_value(new, rules)
    effects = [_change_words(change, poss) for change in changes]
    trend = ("value_rises" if value_after > value_before else "value_drops" if value_after < value_before
             else "value_stays")
    effects.append(_say(trend, poss=poss, before=value_before, after=value_after))
    text = _say("sentence", action=action, effects=", ".join(effects))
    return Narration(text, mover, viewer, owner, value_before, value_after, changes)


def _landed(card: Card, square: Square, space: int, mover_is_viewer: bool) -> str:
    """The played card in words, as the viewer knows it once it has landed."""
    if card.rank not in (JACK, QUEEN):
        return _say("card_face_up", card=card.name)
    if mover_is_viewer:
        return _say("own_card_face_down", card=card.name)
    top = square.top(space)
    if top is not None and isinstance(top[0], Hidden) and top[0].jack_only:
        return _say("their_jack_face_down")
    return _say("their_jack_or_queen")


def _face_down_words(face: Face) -> str:
    """A face-down card as the viewer knows it: named only if the viewer laid it."""
    if isinstance(face, Card):
        return _say("own_hidden_card", card=face.name)
    return _say("hidden_jack" if face.jack_only else "hidden_card")


def _change_words(change: LineChange, poss: str) -> str:
    line = change.line
    if line.points == 0:
        return _say("line_broke", poss=poss, line=line.name)
    kind = _say(f"kind_{line.kind}")
    key = "line_formed" if change.points_before == 0 else "line_changed"
    return _say(key, poss=poss, line=line.name, points=line.points, kind=kind, before=change.points_before)


def _say(key: str, **values: object) -> str:
    """A sentence or phrase from narration.json, filled in."""
    return TEXTS[key].format(**values)
