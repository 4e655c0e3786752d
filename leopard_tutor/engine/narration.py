"""What a move did, in words: the card, what it covered, the lines that formed or broke, the value change.

Everything is worked out from engine objects: the squares before and after the move as the
viewer sees them (so a face-down card the viewer did not lay stays unnamed), and the rule set.
The words take the viewer's side: "you" and "your" for the viewer, "your opponent" and
"their" for the other player. Each sentence is told with the fact `mover` ("you" where the viewer moved, else
"other"), which picks its form in a language whose verb agrees with its subject ("Jugaste", "Tu rival jugó"); a
card is named with its article (`Card.the_name`: "the 7 of hearts", "la reina de picas").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .cards import JACK, QUEEN, Card, rank_words
from .catalogue import or_list, text
from .errors import quote
from .moves import Discard, EndTurn, GoOut, Move, Play
from .placement import lies_face_down
from .rules import RuleSet
from .scoring import ScoringLine, bonus, hand_score, scoring_lines, square_value
from .square import Face, Hidden, Square
from .view import seen_face

if TYPE_CHECKING:
    from .hand import Hand

MoveForm = Literal["advice", "report", "undo"]
"""How `move_words` puts a move: advice to the viewer ('play the 7 of hearts on space 7 of your square'),
a report of the other player's move ('Your opponent discards the 5 of clubs.'), or the viewer's own
move as a thing taken back ('the 7 of hearts on your space 7')."""


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


def ran_out_words(hand: Hand) -> str:
    """Why `hand` ended where nobody went out (the stock and both hands are empty); "" where it has not ended so."""
    return text("narration.ran_out") if hand.ran_out else ""


def narrate(move: Move, mover: int, viewer: int, before: Sequence[Square], after: Sequence[Square],
            rules: RuleSet, *, went_out_value: int | None = None, placed: bool = False, other: str = "",
            passed: bool = False) -> Narration:
    """The words for `move` made by `mover`, told to `viewer`, from both squares before and after it.

    `before` and `after` are the two squares (player 0's first) as the viewer sees them. With `placed`,
    a line is named with where the rule set draws it ('bottom row 7-8-9', see `placed_line_name`). `other`
    is the other player's name, said instead of "your opponent" when given. With `passed` (the turn runner's
    `Passed`: the mover held no card), an end of turn is told as a pass.
    """
    who = who_moved(mover, viewer)
    subject = text("narration.you") if mover == viewer else other or text("narration.opponent")
    if isinstance(move, Discard):
        said = text("narration.discard", subject=subject, mover=who, card=move.card.the_name)
        return Narration(said, mover, viewer, None, None, None)
    if isinstance(move, EndTurn):
        said = text("narration.passed" if passed else "narration.end_turn", subject=subject, mover=who)
        return Narration(said, mover, viewer, None, None, None)
    if isinstance(move, GoOut):
        value = square_value(before[mover], rules) if went_out_value is None else went_out_value
        whose = text("narration.your" if mover == viewer else "narration.their")
        said = text("narration.go_out", subject=subject, mover=who, whose=whose, value=value)
        return Narration(said, mover, viewer, mover, value, value)
    if not isinstance(move, Play):
        raise TypeError(f"{quote(move)} is not a move")
    return _narrate_play(move, mover, viewer, before, after, rules, placed, subject, other)


def who_moved(mover: int, viewer: int) -> str:
    """Who made a move, as the fact `mover` of a narration text that picks its form (`{"person": "mover", ...}`
    in the catalogue): "you" where the viewer made it, else "other"."""
    return "you" if mover == viewer else "other"


def _narrate_play(move: Play, mover: int, viewer: int, before: Sequence[Square], after: Sequence[Square],
                  rules: RuleSet, placed: bool, subject: str, other: str) -> Narration:
    owner, space = move.square_owner, move.space
    poss = text("narration.your" if owner == viewer else "narration.their")
    words: dict[str, object] = {"subject": subject,
                                "mover": who_moved(mover, viewer),
                                "poss": poss,
                                "space": space,
                                "place": space_words(space, owner, mover, viewer, other)}
    old, new = before[owner], after[owner]
    card = _landed(move.card, new, space, mover == viewer)
    under = old.top(space)
    if under is None:
        action = text("narration.play_on_empty", card=card, **words)
    elif under[1]:
        shown = under[0]
        assert isinstance(shown, Card)
        action = text("narration.play_cover", card=card, shown=shown.the_name, **words)
    else:
        action = text("narration.play_over_face_down", card=card, hidden=_face_down_words(under[0]), **words)
    changes = line_changes(owner, old, new, rules)
    value_before, value_after = square_value(old, rules), square_value(new, rules)
    effects = [_change_words(change, poss, placed_line_name(change.line.spaces, rules) if placed else change.line.name)
               for change in changes]
    trend = ("value_rises" if value_after > value_before else "value_drops" if value_after < value_before
             else "value_stays")
    effects.append(text("narration." + trend, poss=poss, before=value_before, after=value_after))
    sentence = text("narration.sentence", action=action, effects=", ".join(effects))
    return Narration(sentence, mover, viewer, owner, value_before, value_after, changes)


def space_words(space: int, owner: int, mover: int, viewer: int, other: str = "") -> str:
    """A space of `owner`'s square as `viewer` reads it in the story of `mover`'s move: "your space 3", "their
    space 3" (the mover's own), or, when the viewer played on the other square, that square's owner named
    ("your opponent's space 3", "Ana's space 3"): after the viewer's "you", a bare possessive ("their", in Spanish
    "su") could be anybody's."""
    if owner == viewer:
        return text("narration.space.yours", space=space)
    if owner == mover:
        return text("narration.space.own", space=space)
    return text("narration.space.named", space=space, owner=other or text("narration.owner"))


def _landed(card: Card, square: Square, space: int, mover_is_viewer: bool) -> str:
    """The played card in words with its article, as the viewer knows it once it has landed."""
    if card.rank not in (JACK, QUEEN):
        return card.the_name
    if mover_is_viewer:
        return text("narration.own_card_face_down", card=card.the_name)
    top = square.top(space)
    if top is not None and isinstance(top[0], Hidden) and top[0].jack_only:
        return text("narration.their_jack_face_down")
    return text("narration.their_jack_or_queen")


def _face_down_words(face: Face) -> str:
    """A face-down card as the viewer knows it: named only if the viewer laid it."""
    if isinstance(face, Card):
        return text("narration.own_hidden_card", card=face.name)
    return text("narration.hidden_jack" if face.jack_only else "narration.hidden_card")


def _change_words(change: LineChange, poss: str, name: str) -> str:
    line = change.line
    if line.points == 0:
        return text("narration.line_broke", poss=poss, line=name)
    kind = text(f"narration.kind_{line.kind}")
    key = "line_formed" if change.points_before == 0 else "line_changed"
    return text("narration." + key, poss=poss, line=name, points=line.points, kind=kind,
                before=change.points_before)


def placed_line_name(spaces: tuple[int, int, int], rules: RuleSet) -> str:
    """A line named with where `rules` draw it: 'bottom row 7-8-9', 'left column 1-4-7' (the same labels
    are the top row under the 1963 keypad layout); a diagonal keeps its plain name, 'diagonal 3-5-7'."""
    orientation, name = rules.orientation(spaces), rules.line_name(spaces)
    if orientation == "diagonal":
        return name
    row, column = rules.cell(spaces[0])
    where = text(f"narration.where.{orientation}.{row if orientation == 'row' else column}")
    return text("narration.placed_line", where=where, line=name)


def place_name(space: int, rules: RuleSet) -> str:
    """Where `rules` draw a space: 'top left corner', 'middle of the bottom row', 'centre'."""
    row, column = rules.cell(space)
    return text(f"narration.place.r{row}c{column}")


def move_words(move: Move, form: MoveForm, viewer: int) -> str:
    """`move` in words as `viewer` reads it, in the given form. A report names a card laid face down
    by the other player only by the ranks it can be (a jack on the viewer's square, a jack or queen on
    their own), as the viewer sees it."""
    if isinstance(move, Play):
        side = "viewer" if move.square_owner == viewer else "other"
        mover = 1 - viewer if form == "report" else viewer
        facts = {"space": move.space, "where": text(f"narration.moves.square.{side}"),
                 "where_told": text(f"narration.moves.square_told.{side}"),
                 "place": space_words(move.space, move.square_owner, mover, viewer)}
        # Only a report tells the other player's move: advice and undo tell the viewer's own, whose card
        # the viewer always knows, so only a report can have a card to name by its ranks ("play_hidden").
        seen = (seen_face(move.card, not lies_face_down(move.card), move.square_owner == viewer, move.square_owner,
                          viewer) if form == "report" else move.card)
        if isinstance(seen, Hidden):
            ranks = or_list([text("narration.moves.some_rank", rank=rank_words(rank)) for rank in seen.ranks])
            return text(f"narration.moves.{form}.play_hidden", card=ranks, **facts)
        return text(f"narration.moves.{form}.play", card=move.card.the_name, **facts)
    if isinstance(move, Discard):
        return text(f"narration.moves.{form}.discard", card=move.card.the_name)
    return text(f"narration.moves.{form}.{'go_out' if isinstance(move, GoOut) else 'end_turn'}")


def score_words(raw: int, went_out: bool, rules: RuleSet) -> str:
    """A hand's score worked out in words from a square's raw value: the raw value, the bonus for the
    points above the rule set's threshold, the going-out penalty, and the total."""
    extra, penalty = bonus(raw, rules), rules.out_penalty if went_out else 0
    total = hand_score(raw, went_out, rules)
    if not extra and not penalty:
        return text("narration.score.plain", total=total)
    return text("narration.score.total", raw=raw, total=total,
                bonus=text("narration.score.bonus", bonus=extra) if extra else "",
                penalty=text("narration.score.penalty", penalty=penalty) if penalty else "")
