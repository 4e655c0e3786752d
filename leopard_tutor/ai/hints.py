"""Hints that teach: the recommended move, a short reason, and a ladder of four growing clues.

The ladder goes: what to think about, then which card, then which space, then the whole move
with its effect on both squares and what could still spoil it. All values come from the engine;
the words come from the catalogue (book `hints`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import (
    LINES,
    Card,
    Discard,
    EndTurn,
    GoOut,
    Hidden,
    Move,
    Play,
    PlayerView,
    RuleSet,
    Square,
    face_up_ranks,
    hand_score,
    lies_face_down,
    rank_words,
    scoring_lines,
    square_value,
)
from ..engine.catalogue import or_list, text
from .players import AIError, make_player

HINT_SEED = 20080320  # hints are reproducible: the same view always gets the same hint
HINT_BUDGET = 0.5  # seconds the expert searches for a hint


@dataclass(frozen=True)
class Hint:
    """A recommended move, a short reason in words, and four clues from a nudge to the full move.

    `facts` records every sentence used, as (group.key, values): the claims tests check against the engine.
    """

    move: Move
    reason: str
    ladder: list[str] = field(default_factory=list)
    facts: tuple[tuple[str, dict[str, Any]], ...] = ()


RUNGS = ("nudge", "card", "space", "move")


@dataclass(frozen=True)
class Rung:
    """One clue of a hint ladder: its level (1 nudge, 2 card, 3 space, 4 move), its words, and the move
    it points to (None on the nudge, which names no card)."""

    level: int
    text: str
    move: Move | None

    @property
    def name(self) -> str:
        """'nudge', 'card', 'space' or 'move'."""
        return RUNGS[self.level - 1]


class HintLadder:
    """The hint ladder of Play and of every lesson: one more clue per press, from a nudge to the whole
    move, starting again when the position changes. `source()` gives, for the position now, the move
    to point to and its clues (a nudge, the card, the space, the move), from wherever the moves come:
    the expert's hint in Play, a lesson's script or its coach."""

    def __init__(self, source: Callable[[], tuple[Move, Sequence[str]]]) -> None:
        self._source = source
        self._key: object = None
        self._move: Move | None = None
        self._clues: tuple[str, ...] = ()
        self.level = 0

    @property
    def size(self) -> int:
        """How many rungs the current ladder has."""
        return len(self._clues)

    def climb(self, position: object) -> tuple[Rung, bool]:
        """The next rung for `position` (any value that changes when the position does), and whether it
        is a new one (a press at the top shows the last rung again)."""
        if self._key is None or position != self._key:
            self._key = position
            self._move, clues = self._source()
            self._clues = tuple(clues)
            self.level = 0
        new = self.level < len(self._clues)
        self.level = min(self.level + 1, len(self._clues))
        return Rung(self.level, self._clues[self.level - 1], self._move if self.level > 1 else None), new


class _Sentences:
    """Builds sentences from the catalogue's hints book and remembers the facts each was filled with."""

    def __init__(self) -> None:
        self.facts: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, group: str, key: str, **values: Any) -> str:
        self.facts.append((f"{group}.{key}", dict(values)))
        return text(f"hints.{group}.{key}", **values)

    def hint(self, move: Move, reason: str, ladder: list[str]) -> Hint:
        return Hint(move, reason, ladder, tuple(self.facts))


def hint(view: PlayerView, level: str = "expert", time_budget: float | None = None) -> Hint:
    """The move a player of `level` recommends in `view`, explained (AIError if the view is not waiting)."""
    if not isinstance(view, PlayerView):
        raise AIError(f"a hint reads a PlayerView (from hand.view(player)), not {view!r}")
    budget = time_budget if time_budget is not None else HINT_BUDGET
    move = make_player(level, seed=HINT_SEED, time_budget=budget).choose(view)
    return explain(view, move)


def explain(view: PlayerView, move: Move) -> Hint:
    """A reason and a four-step ladder for making `move` in `view`."""
    if move not in view.legal_moves():
        raise AIError(f"'{move}' is not a legal move here, so there is nothing to explain")
    rules, me = view.rules, view.player
    other = 1 - me
    say = _Sentences()
    values = {"mine_before": view.value(me), "theirs_before": view.value(other)}
    if isinstance(move, GoOut):
        my_score = hand_score(values["mine_before"], True, rules)
        their_score = hand_score(values["theirs_before"], False, rules)
        jacks = _unseen_jacks(view)
        standing = "go_out_ahead" if my_score > their_score else "go_out"
        return say.hint(move, say("reason", standing, my_score=my_score, their_score=their_score), [
            say("nudge", "go_out", value=values["mine_before"]),
            say("card", "go_out"),
            say("space", "go_out"),
            " ".join((say("move", "go_out", my_score=my_score, their_score=their_score,
                          penalty=rules.out_penalty, **values),
                      say("risk", "going_out", count=jacks))),
        ])
    if isinstance(move, EndTurn):
        return say.hint(move, say("reason", "end_turn"), [
            say("nudge", "end_turn"), say("card", "end_turn"), say("space", "end_turn"),
            say("move", "end_turn", **values)])
    assert isinstance(move, (Play, Discard))
    card = move.card
    card_rung = say("card", "card", card=card.name, symbol=card.symbol)
    if isinstance(move, Discard):
        return say.hint(move, say("reason", "discard"), [
            say("nudge", "discard"), card_rung, say("space", "discard"),
            " ".join((say("move", "discard", card=card.name, **values), say("risk", "discard")))])
    assert isinstance(move, Play)
    return _explain_play(view, move, values, card_rung, say)


def _explain_play(view: PlayerView, move: Play, values: dict[str, int], card_rung: str, say: _Sentences) -> Hint:
    rules, me = view.rules, view.player
    own = move.square_owner == me
    before = view.squares[move.square_owner]
    after = before.with_card(move.card, move.space)
    mine_after = square_value(after, rules) if own else values["mine_before"]
    theirs_after = values["theirs_before"] if own else square_value(after, rules)
    old = {line.spaces: line for line in scoring_lines(before, rules)}
    new = {line.spaces: line for line in scoring_lines(after, rules)}
    through = [spaces for spaces in LINES if move.space in spaces]
    gained = [new[s] for s in through if new[s].points > old[s].points]
    lost = [old[s] for s in through if new[s].points < old[s].points]
    near = [(s, points) for s in through if (points := _one_card_from(before, s, move.space, rules))]
    effects: list[str] = []
    risks: list[str] = []
    if own:
        for line in gained:
            effects.append(say("effect", "completes", line=line.name, points=line.points))
        for line in lost:
            effects.append(say("effect", "loses", line=line.name, points=line.points))
        building = _building_line(after, through, move.space, rules) if not gained else None
        if gained:
            best = max(gained, key=lambda line: line.points)
            nudge = say("nudge", "complete_own", line=best.name, points=best.points)
            reason = say("reason", "completes", line=best.name, points=best.points)
        elif move.card.rank == 12 or (move.card.rank == 11 and lost):
            nudge, reason = say("nudge", "cover_own"), say("reason", "cover_own")
        elif building is not None:
            name = rules.line_name(building)
            effects.append(say("effect", "builds", line=name))
            nudge = say("nudge", "build_own", line=name)
            reason = say("reason", "builds", line=name)
        else:
            name = rules.line_name(through[0])
            nudge, reason = say("nudge", "build_own", line=name), say("reason", "play")
        if not lies_face_down(move.card):
            risks.append(say("risk", "jacks", count=_unseen_jacks(view)) if _unseen_jacks(view)
                         else say("risk", "no_jacks"))
        if building is not None:
            spoiler = _spoilers(view, after, building, move.card, say)
            if spoiler:
                risks.append(spoiler)
    else:
        for line in gained:
            effects.append(say("effect", "helps_theirs", line=line.name, points=line.points))
        for line in lost:
            effects.append(say("effect", "breaks", line=line.name, points=line.points))
        blocked = [] if lies_face_down(move.card) else [(s, p) for s, p in near if not new[s].points]
        for spaces, points in blocked:
            effects.append(say("effect", "spoils", line=rules.line_name(spaces), points=points))
        clash = _clashing_line(after, through, move.space)
        if gained:
            best = max(gained, key=lambda line: line.points)
            nudge = say("nudge", "helps_theirs", line=best.name)
            reason = say("reason", "helps_theirs", line=best.name, points=best.points,
                         theirs_before=values["theirs_before"], theirs_after=theirs_after)
        elif lost:
            best = max(lost, key=lambda line: line.points)
            nudge = say("nudge", "break_theirs", line=best.name, points=best.points)
            reason = say("reason", "breaks", points=sum(line.points for line in lost))
        elif blocked:
            spaces, points = max(blocked, key=lambda pair: pair[1])
            nudge = say("nudge", "spoil_theirs", line=rules.line_name(spaces), points=points)
            reason = say("reason", "spoils", line=rules.line_name(spaces))
        elif move.card.rank == 11 and (covered := before.showing(move.space)) is not None:
            name = rules.line_name(_roomiest_line(before, through))
            nudge = say("nudge", "cover_theirs", line=name, card=covered.name, space=move.space)
            reason = say("reason", "cover_theirs", line=name, card=covered.name, space=move.space)
        elif lies_face_down(move.card):
            nudge = say("nudge", "crowd_theirs", line=rules.line_name(_roomiest_line(before, through)))
            reason = say("reason", "cover_blank_theirs", space=move.space)
        elif clash is not None:
            nudge = say("nudge", "crowd_theirs", line=rules.line_name(clash))
            reason = say("reason", "clash_theirs", card=move.card.name, line=rules.line_name(clash))
        else:
            name = rules.line_name(_roomiest_line(before, through))
            nudge = say("nudge", "crowd_theirs", line=name)
            reason = say("reason", "crowd_theirs", card=move.card.name, space=move.space)
        if lies_face_down(move.card) and before.showing(move.space) is not None and lost:
            risks.append(_mend_under_jack(view, after, move.space, lost, say))
        elif blocked:
            spaces, _ = max(blocked, key=lambda pair: pair[1])
            risks.append(say("risk", "mend_blocker", card=move.card.name, line=rules.line_name(spaces)))
    threshold = rules.out_threshold
    if own and mine_after >= threshold > values["mine_before"]:
        effects.append(say("effect", "threatens_out", value=mine_after))
    if not own and values["theirs_before"] >= threshold > theirs_after:
        effects.append(say("effect", "stops_out", threshold=threshold))
    whose = text("hints.whose.own" if own else "hints.whose.theirs")
    rung = say("move", "play", card=move.card.name, space=move.space, whose=whose, mine_after=mine_after,
               theirs_after=theirs_after, **values)
    return say.hint(move, reason, [nudge, card_rung, say("space", "own" if own else "theirs", space=move.space),
                                   " ".join((rung, *effects, *risks))])


def _clashing_line(square: Square, through: list[tuple[int, int, int]], space: int) -> tuple[int, int, int] | None:
    """A line through `space` that cannot score while the card showing there lies on it (a colour clash)."""
    card = square.showing(space)
    if card is None:
        return None
    for spaces in through:
        if any((other := square.showing(s)) is not None and other.color != card.color for s in spaces if s != space):
            return spaces
    return None


def _mend_under_jack(view: PlayerView, after: Square, space: int, lost: list[Any], say: _Sentences) -> str:
    """How the owner could mend lines broken by a jack on `space`: cards they may lay there that restore one."""
    ranks = face_up_ranks(after, space, own=True)
    restoring = [card for card in view.unseen() if card.rank in ranks and any(
        _line_points(after.with_card(card, space), line.spaces, view.rules) >= line.points for line in lost)]
    listed = or_list([rank_words(rank) for rank in ranks])
    return say("risk", "mend", space=space, ranks=listed, count=len(restoring))


def _line_points(square: Square, spaces: tuple[int, int, int], rules: RuleSet) -> int:
    return next(line.points for line in scoring_lines(square, rules) if line.spaces == spaces)


def _roomiest_line(square: Square, through: list[tuple[int, int, int]]) -> tuple[int, int, int]:
    """The line through a space with the most face-up cards of one colour (the one a card there hurts most)."""
    def promise(spaces: tuple[int, int, int]) -> int:
        shown = [card for card in (square.showing(s) for s in spaces) if card is not None]
        return len(shown) if len({card.color for card in shown}) <= 1 else -1
    return max(through, key=promise)


def _one_card_from(square: Square, spaces: tuple[int, int, int], space: int, rules: RuleSet) -> int:
    """What a line would pay if its one open space (`space`) got the right card, or 0 if it is not that close."""
    shown = [square.showing(s) for s in spaces if s != space]
    if not square.is_open(space) or any(card is None for card in shown):
        return 0
    first, second = shown[0], shown[1]
    assert first is not None and second is not None
    if first.suit == second.suit:
        return rules.suit_points
    return rules.color_points if first.color == second.color else 0


def _building_line(square: Square, through: list[tuple[int, int, int]], space: int,
                   rules: RuleSet) -> tuple[int, int, int] | None:
    """The line through `space` where the new card has the most face-up partners of its colour."""
    card = square.showing(space)
    if card is None:
        return None
    best, best_count = None, 0
    for spaces in through:
        partners = [square.showing(s) for s in spaces if s != space]
        if any(p is not None and p.color != card.color for p in partners):
            continue
        count = sum(1 for p in partners if p is not None)
        if count > best_count and any(square.is_open(s) for s in spaces):
            best, best_count = spaces, count
    return best


def _spoilers(view: PlayerView, square: Square, spaces: tuple[int, int, int], card: Card,
              say: _Sentences) -> str | None:
    """A sentence on the unseen cards that could spoil the line being built, at its first open space."""
    for space in spaces:
        if square.is_open(space):
            wrong = [c for c in view.unseen() if c.rank == space and c.color != card.color]
            if not wrong:
                return None
            color = "black" if card.color == "red" else "red"
            rank = "aces" if space == 1 else f"{space}s"
            return say("risk", "spoilers", line=view.rules.line_name(spaces),
                        cards=f"{color} {rank} ({len(wrong)} unseen)", space=space)
    return None


def _unseen_count(view: PlayerView, ranks: tuple[int, ...]) -> int:
    return sum(1 for card in view.unseen() if card.rank in ranks)


def _unseen_jacks(view: PlayerView) -> int:
    """Jacks that may still be held or drawn: unseen ones, less those known to lie face down."""
    face_down_jacks = sum(1 for square in view.squares for space in range(1, 10)
                          for face, _ in square.pile(space) if isinstance(face, Hidden) and face.jack_only)
    return max(0, _unseen_count(view, (11,)) - face_down_jacks)
