"""Hints that teach: the recommended move, a short reason, and a ladder of four growing clues.

The ladder goes: what to think about, then which card, then which space, then the whole move
with its effect on both squares and what could still spoil it. All values come from the engine;
the words come from the catalogue (book `hints`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import (
    LINES,
    Card,
    Discard,
    EndTurn,
    GoOut,
    Move,
    Play,
    PlayerView,
    RuleSet,
    Square,
    face_up_ranks,
    hand_score,
    lies_face_down,
    line_points,
    rank_words,
    scoring_lines,
    square_value,
)
from ..engine.catalogue import and_list, or_list, text
from ..engine.claims import (
    Blocks,
    Claim,
    Covers,
    LaidByOther,
    LineCanScore,
    LineChanges,
    LinePays,
    Mending,
    NextTurn,
    NoPlayGains,
    OneCardFrom,
    Open,
    OpponentCanLay,
    PlaysCanGain,
    Shows,
    Spaces,
    Spoilers,
    UnseenJacks,
    Value,
    ValueChanges,
    all_hold,
    mending_cards,
    square_after,
    unseen_jacks,
)
from .judging import JUDGE_LEVEL, judged_move
from .players import AIError, make_player

HINT_SEED = 20080320  # hints are reproducible: the same view always gets the same hint
HINT_BUDGET = 0.5  # seconds a level below the judging one searches for a hint (the expert)
HINT_LEVEL = JUDGE_LEVEL  # the level whose move a hint recommends: the strongest, by the review's own search


@dataclass(frozen=True)
class Hint:
    """A recommended move, a short reason in words, and four clues from a nudge to the full move.

    `facts` records every sentence used, as (group.key, values), and `claims` what each of them asserts
    about the position, as (group.key, claims): every claim held when the sentence was chosen, and the
    hint tests check both against the engine.
    """

    move: Move
    reason: str
    ladder: list[str] = field(default_factory=list)
    facts: tuple[tuple[str, dict[str, Any]], ...] = ()
    claims: tuple[tuple[str, tuple[Claim, ...]], ...] = ()
    level: str = ""
    """The level that chose the move (`hint`); "" for a move given to `explain`."""


@dataclass(frozen=True)
class Passes(Claim):
    """The move is a pass: ending the turn holding no card, with none played this turn (Running Leopard with an
    empty hand and an empty stock, rules A.3.5; an empty hand under the standard rules, A.1.10), so nothing is
    laid or thrown. Ending a turn after plays is not a pass."""

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return isinstance(move, EndTurn) and not view.hand and view.plays_made == 0


@dataclass(frozen=True)
class HoldsOthers(Claim):
    """This player holds (`expected`) or does not hold a card besides the one the move lays or throws: a discard's
    words speak of the cards it keeps only where there are some."""

    expected: bool = True

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return (len(view.hand) > 1) == self.expected


@dataclass(frozen=True)
class CanGoOut(Claim):
    """This player may (`expected`) or may not go out now instead of the move (their square is worth enough and
    nothing has been played this turn)."""

    expected: bool = True

    def holds(self, view: PlayerView, move: Move | None) -> bool:
        return any(isinstance(other, GoOut) for other in view.legal_moves()) == self.expected


Said = tuple[str, dict[str, Any], tuple[Claim, ...]]
"""One sentence a hint used: its key ("group.name"), the facts it was filled with, and what it claims."""


class _Sentences:
    """Builds sentences from the catalogue's hints book for one view and move: a sentence with claims is
    said only if they all hold there, and each sentence said is remembered with its facts and claims."""

    def __init__(self, view: PlayerView, move: Move) -> None:
        self.view, self.move = view, move
        self.said: list[Said] = []

    def __call__(self, group: str, key: str, *claims: Claim, **values: Any) -> str:
        """The sentence, whose claims must hold (a sentence chosen by its claims goes through `first`)."""
        found = self.claimed(group, key, claims, **values)
        if found is None:
            raise AIError(f"the hint sentence {group}.{key} would claim what is not so: {claims}")
        return found

    def claimed(self, group: str, key: str, claims: Sequence[Claim], **values: Any) -> str | None:
        """The sentence if every one of its claims holds, else None (and nothing is said)."""
        if not all_hold(claims, self.view, self.move):
            return None
        self.said.append((f"{group}.{key}", dict(values), tuple(claims)))
        return text(f"hints.{group}.{key}", **values)

    def first(self, *options: tuple[str, str, Sequence[Claim], dict[str, Any]]) -> str | None:
        """The first of the sentences (group, key, claims, facts) whose claims all hold, or None."""
        for group, key, claims, values in options:
            found = self.claimed(group, key, claims, **values)
            if found is not None:
                return found
        return None

    def hint(self, move: Move, reason: str, ladder: list[str]) -> Hint:
        return Hint(move, reason, ladder, tuple((key, values) for key, values, _ in self.said),
                    tuple((key, claims) for key, _, claims in self.said))


def hint(view: PlayerView, level: str = HINT_LEVEL, time_budget: float | None = None) -> Hint:
    """The move a player of `level` (by default the strongest) recommends in `view`, explained, with the level that
    chose it (AIError if the view is not waiting).

    The strongest level's hint is the move its judging search (`judging.judged_move`) finds best: the search the
    review of a hand judges by, so a hinted move that is made is reviewed as the best move. That search is as long
    as its deal count and takes no `time_budget`; a level below searches `time_budget` (`HINT_BUDGET`) seconds.
    """
    if not isinstance(view, PlayerView):
        raise AIError(f"a hint reads a PlayerView (from hand.view(player)), not {view!r}")
    if level == JUDGE_LEVEL:
        if time_budget is not None:
            raise AIError(f"the {level}'s hint is the review's search, as long as its deal count: it takes no time")
        move = judged_move(view)
    else:
        budget = time_budget if time_budget is not None else HINT_BUDGET
        move = make_player(level, seed=HINT_SEED, time_budget=budget).choose(view)
    return replace(explain(view, move), level=level)


def explain(view: PlayerView, move: Move) -> Hint:
    """A reason and a ladder for making `move` in `view`: a nudge, the card, where it goes, the whole move (four
    rungs); going out has no card (three), a pass or an ending of the turn neither card nor place (two), where such
    rungs could only say again what the next one says."""
    if move not in view.legal_moves():
        raise AIError(f"'{move}' is not a legal move here, so there is nothing to explain")
    rules, me = view.rules, view.player
    other = 1 - me
    say = _Sentences(view, move)
    values = {"mine_before": view.value(me), "theirs_before": view.value(other)}
    if isinstance(move, GoOut):
        my_score = hand_score(values["mine_before"], True, rules)
        their_score = hand_score(values["theirs_before"], False, rules)
        standing = "go_out_ahead" if my_score > their_score else "go_out"
        return say.hint(move, say("reason", standing, my_score=my_score, their_score=their_score), [
            say("nudge", "go_out", value=values["mine_before"]),
            say("space", "go_out"),
            _sentence(say("move", "go_out", my_score=my_score, their_score=their_score, penalty=rules.out_penalty,
                          **values), *_waiting(view, say)),
        ])
    if isinstance(move, EndTurn) and Passes().holds(view, move):
        reason = say.first(("reason", "pass_only", (Passes(), CanGoOut(False)), {}),
                           ("reason", "pass", (Passes(), CanGoOut()), {}))
        assert reason is not None
        return say.hint(move, reason, [
            say("nudge", "pass", Passes()), say("move", "pass", Passes(), *_stays(me, other, values), **values)])
    if isinstance(move, EndTurn):  # after a play in a Running Leopard turn
        reason = say.first(("reason", "end_turn", (NoPlayGains(),), {}),
                           ("reason", "end_turn_keeps", (PlaysCanGain(),), {}), ("reason", "end_turn_later", (), {}))
        nudge = say.first(("nudge", "end_turn", (NoPlayGains(),), {}),
                          ("nudge", "end_turn_keeps", (PlaysCanGain(),), {}), ("nudge", "end_turn_later", (), {}))
        assert reason is not None and nudge is not None
        return say.hint(move, reason, [
            nudge, say("move", "end_turn", *_stays(me, other, values), **values)])
    assert isinstance(move, (Play, Discard))
    card = move.card
    card_rung = say("card", "card", card=card.name)
    if isinstance(move, Discard):
        others, alone = HoldsOthers(), HoldsOthers(False)  # (one card: whether a play gains is always told)
        reason = say.first(("reason", "discard", (NoPlayGains(), others), {}),
                           ("reason", "discard_keeps", (PlaysCanGain(), others), {}),
                           ("reason", "discard_least", (others,), {}),
                           ("reason", "discard_only", (NoPlayGains(), alone), {}),
                           ("reason", "discard_only_keeps", (PlaysCanGain(), alone), {}))
        nudge = say.first(("nudge", "discard", (NoPlayGains(), others), {}),
                          ("nudge", "discard_keeps", (PlaysCanGain(), others), {}),
                          ("nudge", "discard_least", (others,), {}),
                          ("nudge", "discard_only", (NoPlayGains(), alone), {}),
                          ("nudge", "discard_only_keeps", (PlaysCanGain(), alone), {}))
        assert reason is not None and nudge is not None
        return say.hint(move, reason, [
            nudge, card_rung, say("space", "discard"),
            _sentence(say("move", "discard", *_stays(me, other, values), the_card=card.the_name, **values),
                      say("risk", "discard"))])
    assert isinstance(move, Play)
    return _explain_play(view, move, values, card_rung, say)


def _waiting(view: PlayerView, say: _Sentences) -> list[str | None]:
    """What the hand going on would bring, told beside the advice to go out: first what speaks for going out (what
    the opponent could do in a turn of theirs: cover one of your cards with a jack still unseen, complete a line of
    theirs one card from scoring with a card still unseen), then, as such, what speaks against it (no jack left to
    fear, or no turn of theirs with a card to lay)."""
    them = view.opponent
    jacks = unseen_jacks(view)
    waits = OpponentCanLay(waiting=True)
    near = [(spaces, points) for spaces in LINES if (points := _one_card_short(view.squares[them], spaces, view.rules))
            and OneCardFrom(them, spaces, points, unseen=True).holds(view, None)]
    their_line = None
    if near:
        spaces, points = max(near, key=lambda line: line[1])
        their_line = say.first(("risk", "their_line", (waits, OneCardFrom(them, spaces, points, unseen=True)),
                                {"line": view.rules.line_name(spaces), "points": points}))
    return [
        say.first(("risk", "going_out", (waits, UnseenJacks(jacks)), {"count": jacks})) if jacks else None,
        their_line,
        say.first(("risk", "going_out_no_jacks", (waits, UnseenJacks(0)), {}),
                  ("risk", "going_out_last", (OpponentCanLay(False, waiting=True),), {})),
    ]


def _sentence(*parts: str | None) -> str:
    """The sentences said, one after another (those not said left out)."""
    return " ".join(part for part in parts if part)


def _stays(me: int, other: int, values: dict[str, int]) -> tuple[Claim, Claim]:
    """The claims of a move that leaves both squares as they are."""
    return ValueChanges(me, values["mine_before"], values["mine_before"]), ValueChanges(
        other, values["theirs_before"], values["theirs_before"])


def _change(say: _Sentences, owner: int, side: str, before: int, after: int) -> str:
    """How the move changes one square's value, in words: it goes from A to B, or it stays at A."""
    key = f"{side}_goes" if before != after else f"{side}_stays"
    return say("change", key, ValueChanges(owner, before, after), before=before, after=after)


def _explain_play(view: PlayerView, move: Play, values: dict[str, int], card_rung: str, say: _Sentences) -> Hint:
    rules, me = view.rules, view.player
    owner = move.square_owner
    own = owner == me
    before = view.squares[owner]
    after = square_after(view, move, owner)
    mine_after = square_value(after, rules) if own else values["mine_before"]
    theirs_after = values["theirs_before"] if own else square_value(after, rules)
    old = {line.spaces: line.points for line in scoring_lines(before, rules)}
    new = {line.spaces: line.points for line in scoring_lines(after, rules)}
    through = [spaces for spaces in LINES if move.space in spaces]
    gained = [(s, old[s], new[s]) for s in through if new[s] > old[s]]
    lost = [(s, old[s], new[s]) for s in through if new[s] < old[s]]
    near = [(s, points) for s in through if (points := _one_card_from(before, s, move.space, rules))
            and OneCardFrom(owner, s, points).holds(view, move)]
    effects: list[str | None] = []
    risks: list[str | None] = []
    name = rules.line_name
    jacks = unseen_jacks(view)
    if own:
        for spaces, was, now in gained:
            effects.append(say("effect", "completes", LineChanges(me, spaces, was, now), line=name(spaces), points=now))
        effects += _losses(say, me, lost, "loses", "drops")
        building = _building_line(after, through, move.space, rules) if not gained else None
        growing = (building if building is not None and LineCanScore(me, building, after=True).holds(view, move)
                   else None)
        if gained:
            spaces, was, now = max(gained, key=lambda line: line[2])
            nudge = say("nudge", "complete_own", LineChanges(me, spaces, was, now), line=name(spaces), points=now)
            reason = (say("reason", "completes", LineChanges(me, spaces, was, now), line=name(spaces), points=now)
                      if len(gained) == 1 else  # the change in value is every line's: say how many lines
                      say("reason", "completes_many", *(LineChanges(me, *line) for line in gained),
                          ValueChanges(me, values["mine_before"], mine_after), count=len(gained),
                          mine_before=values["mine_before"], mine_after=mine_after))
        elif lies_face_down(move.card):
            nudge, reason = _cover_own(say, me, move, values)
        elif growing is not None:
            effects.append(say("effect", "builds", LineCanScore(me, growing, after=True), line=name(growing)))
            nudge = say("nudge", "build_own", LineCanScore(me, growing, after=True), line=name(growing))
            reason = say("reason", "builds", LineCanScore(me, growing, after=True), line=name(growing))
        else:
            live = [s for s in through if LineCanScore(me, s, after=True).holds(view, move)]
            fresh = [s for s in live if Open(me, tuple(x for x in s if x != move.space)).holds(view, move)]
            nudge = (say("nudge", "start_own", LineCanScore(me, fresh[0], after=True),
                         Open(me, tuple(x for x in fresh[0] if x != move.space)), line=name(fresh[0])) if fresh
                     else say("nudge", "build_own", LineCanScore(me, live[0], after=True), line=name(live[0])) if live
                     else say("nudge", "place_own"))
            reason = (say("reason", "starts", LineCanScore(me, fresh[0], after=True),
                          Open(me, tuple(x for x in fresh[0] if x != move.space)), line=name(fresh[0]))
                      if fresh else say("reason", "fills", Shows(me, move.space, move.card), space=move.space))
        if not lies_face_down(move.card):
            risks.append(say.first(
                ("risk", "jacks", (OpponentCanLay(), UnseenJacks(jacks)), {"count": jacks}),
                ("risk", "no_turn", (OpponentCanLay(False),), {})))
        if growing is not None:
            risks.append(_spoilers(view, after, growing, move.card, say))
    else:
        them = owner
        # The lines one card from `points` whose one open space the card takes, each now paying less (`now`): no card
        # from ace to ten can go on a face-up card, only a king of theirs, or a jack or a queen face down.
        spoiled = [] if lies_face_down(move.card) else [(s, p, new[s]) for s, p in near if new[s] < p]
        held_down = {spaces for spaces, _, _ in spoiled}
        for spaces, was, now in gained:
            if spaces not in held_down:  # said below, with what it was one card from
                effects.append(say("effect", "helps_theirs", LineChanges(them, spaces, was, now), line=name(spaces),
                                   points=now))
        effects += _losses(say, them, lost, "breaks", "drops_theirs")
        for spaces, points, now in spoiled:
            effects.append(say("effect", "spoils_to", OneCardFrom(them, spaces, points),
                               LinePays(them, spaces, now, True), line=name(spaces), points=points, now=now) if now
                           else say("effect", "spoils", OneCardFrom(them, spaces, points),
                                    LinePays(them, spaces, 0, True), line=name(spaces), points=points))
        live = [s for s in through if LineCanScore(them, s).holds(view, move)]
        clash = _clashing_line(after, live, move.space)
        if spoiled:
            spaces, points, _ = max(spoiled, key=lambda line: line[1])
            nudge = say("nudge", "spoil_theirs", OneCardFrom(them, spaces, points), line=name(spaces), points=points)
            reason = _spoils(say, move, spoiled, gained, values["theirs_before"], theirs_after)
        elif gained:
            spaces, was, now = max(gained, key=lambda line: line[2])
            nudge = say("nudge", "helps_theirs", line=name(spaces))
            change = ValueChanges(them, values["theirs_before"], theirs_after)
            reason = (say("reason", "helps_theirs", LineChanges(them, spaces, was, now), change, line=name(spaces),
                          points=now, theirs_before=values["theirs_before"], theirs_after=theirs_after)
                      if len(gained) == 1 else  # the change in value is every line's: say how many lines
                      say("reason", "helps_theirs_many", *(LineChanges(them, *line) for line in gained), change,
                          count=len(gained), theirs_before=values["theirs_before"], theirs_after=theirs_after))
        elif lost:
            spaces, was, _ = max(lost, key=lambda line: line[1])
            lost_points = values["theirs_before"] - theirs_after
            nudge = say("nudge", "break_theirs", LinePays(them, spaces, was), line=name(spaces), points=was)
            reason = say("reason", "breaks", ValueChanges(them, values["theirs_before"], theirs_after),
                         points=lost_points)
        elif move.card.rank == 11 and (covered := before.showing(move.space)) is not None:
            if live:
                line = name(_roomiest_line(before, live))
                nudge = say("nudge", "cover_theirs", LineCanScore(them, _roomiest_line(before, live)), line=line,
                            the_card=covered.the_name, space=move.space)
            else:
                nudge = say("nudge", "park")
            reason = _hides(say, them, move.space, ("cover_theirs", "cover_own_blocker"), covered)
        elif lies_face_down(move.card):
            nudge = say("nudge", "park", *_stays(me, them, values))
            reason = say("reason", "cover_blank_theirs", *_stays(me, them, values), space=move.space)
        elif clash is not None:
            nudge = say("nudge", "crowd_theirs", LineCanScore(them, clash), line=name(clash))
            reason = say("reason", "clash_theirs", LineCanScore(them, clash), the_card=move.card.the_name,
                         line=name(clash))
        else:
            nudge = (say("nudge", "crowd_theirs", LineCanScore(them, live[0]), line=name(live[0])) if live
                     else say("nudge", "crowd_any"))
            reason = say("reason", "crowd_theirs", Shows(them, move.space, move.card), the_card=move.card.the_name,
                         space=move.space)
        if move.card.rank == 11 and lost:
            risks.append(_mend_under_jack(view, after, move.space, lost, say))
        elif spoiled:
            spaces, _, _ = max(spoiled, key=lambda line: line[1])
            risks.append(say.first(("risk", "cover_first", (Shows(them, move.space, move.card), OpponentCanLay()),
                                    {"card": move.card.name, "line": name(spaces), "space": move.space})))
    threshold = rules.out_threshold
    if own and mine_after >= threshold > values["mine_before"]:
        effects.append(say.first(("effect", "threatens_out", (Value(me, mine_after, True), NextTurn()),
                                  {"value": mine_after}),
                                 ("effect", "reaches_last", (Value(me, mine_after, True), NextTurn(False)),
                                  {"value": mine_after})))
    if not own and values["theirs_before"] >= threshold > theirs_after:
        effects.append(say.first(("effect", "stops_out", (Value(1 - me, theirs_after, True), OpponentCanLay()),
                                  {"threshold": threshold})))
    whose = text("hints.whose.own" if own else "hints.whose.theirs")
    rung = say("move", "play", the_card=move.card.the_name, space=move.space, whose=whose,
               mine=_change(say, me, "mine", values["mine_before"], mine_after),
               theirs=_change(say, 1 - me, "theirs", values["theirs_before"], theirs_after))
    # the whole move, and what it does: its effects on the lines, else why it is played (hiding a card, taking a space
    # of theirs), which a move that leaves both squares as they were otherwise never said
    return say.hint(move, reason, [nudge, card_rung, say("space", "own" if own else "theirs", space=move.space),
                                   _sentence(rung, *(effects or [reason]), *risks)])


def _spoils(say: _Sentences, move: Play, spoiled: list[tuple[Spaces, int, int]], gained: list[tuple[Spaces, int, int]],
            theirs_before: int, theirs_after: int) -> str:
    """The reason of a card laid face up on the opponent's square where it takes the one open space of lines that
    were one card from scoring (`spoiled`: each line, what it was one card from, what it pays now): which lines, what
    each could have scored, that no card from ace to ten of theirs can go there now, and, where it makes lines of
    theirs score (`gained`), that as its price."""
    them, name = move.square_owner, say.view.rules.line_name
    lines = and_list([text("hints.spoiled", line=name(spaces), points=points) for spaces, points, _ in spoiled])
    claims: list[Claim] = [claim for spaces, points, now in spoiled
                           for claim in (OneCardFrom(them, spaces, points), LinePays(them, spaces, now, True))]
    claims += [Shows(them, move.space, move.card), Blocks(them, move.space)]
    facts: dict[str, Any] = {"count": len(spoiled), "space": move.space, "lines": lines, "card": move.card.name}
    if not gained:
        return say("reason", "spoils", *claims, **facts)
    change = ValueChanges(them, theirs_before, theirs_after)
    values = {"theirs_before": theirs_before, "theirs_after": theirs_after}
    if len(gained) == 1:
        spaces, was, now = gained[0]
        return say("reason", "spoils_at_cost", *claims, LineChanges(them, spaces, was, now), change,
                   line=name(spaces), **facts, **values)
    return say("reason", "spoils_at_cost_many", *claims, *(LineChanges(them, *line) for line in gained), change,
               scoring=len(gained), **facts, **values)


def _losses(say: _Sentences, owner: int, lost: list[tuple[Spaces, int, int]], stops: str,
            drops: str) -> list[str | None]:
    """What the move takes from each of `owner`'s `lost` lines: the line stops scoring (`stops`), or pays
    less than before (`drops`)."""
    name = say.view.rules.line_name
    return [say.first(("effect", stops, (LineChanges(owner, spaces, was, now), LinePays(owner, spaces, 0, True)),
                       {"line": name(spaces), "points": was}),
                      ("effect", drops, (LineChanges(owner, spaces, was, now),),
                       {"line": name(spaces), "before": was, "after": now}))
            for spaces, was, now in lost]


def _hides(say: _Sentences, owner: int, space: int, keys: tuple[str, str], shown: Card) -> str:
    """The reason of a card laid that hides `shown`, the one showing on `space` of `owner`'s square: under `keys[0]`
    where the square's owner laid that card ("your 7 of hearts"), under `keys[1]` where the other player did (to
    block them: "the 7 of hearts your opponent laid there")."""
    hidden = say.first(("reason", keys[0], (Covers(owner, space), LaidByOther(owner, space, False)),
                        {"card": shown.name, "space": space}),
                       ("reason", keys[1], (Covers(owner, space), LaidByOther(owner, space)),
                        {"the_card": shown.the_name, "space": space}))
    assert hidden is not None  # a card showing was laid by one player or the other
    return hidden


def _cover_own(say: _Sentences, me: int, move: Play, values: dict[str, int]) -> tuple[str, str]:
    """The nudge and reason of a jack or queen laid face down on the player's own square."""
    hidden = say.view.squares[me].showing(move.space)
    if hidden is not None:
        reason = _hides(say, me, move.space, ("cover_own", "cover_blocker"), hidden)
        return say("nudge", "cover_own", Covers(me, move.space)), reason
    stays = _stays(me, 1 - me, values)
    return say("nudge", "park", *stays), say("reason", "cover_blank_own", *stays, space=move.space)


def _clashing_line(square: Square, through: list[tuple[int, int, int]], space: int) -> tuple[int, int, int] | None:
    """A line through `space` that cannot score while the card showing there lies on it (a colour clash)."""
    card = square.showing(space)
    if card is None:
        return None
    for spaces in through:
        if any((other := square.showing(s)) is not None and other.color != card.color for s in spaces if s != space):
            return spaces
    return None


def _mend_under_jack(view: PlayerView, after: Square, space: int, lost: list[tuple[Spaces, int, int]],
                     say: _Sentences) -> str | None:
    """How the owner could mend lines broken by a jack on `space`: cards they may lay there that restore one."""
    ranks = or_list([text(f"words.a_rank.{rank}") for rank in face_up_ranks(after, space, own=True)])
    broken = tuple((spaces, was) for spaces, was, _ in lost)
    count = len(mending_cards(view, after, space, broken))
    return say.first(("risk", "mend", (OpponentCanLay(), Mending(space, broken, count)),
                      {"space": space, "ranks": ranks, "count": count}),
                     ("risk", "stays_broken", (OpponentCanLay(False),), {}))


def _roomiest_line(square: Square, through: list[tuple[int, int, int]]) -> tuple[int, int, int]:
    """The line through a space with the most face-up cards of one colour (the one a card there hurts most)."""
    def promise(spaces: tuple[int, int, int]) -> int:
        shown = [card for card in (square.showing(s) for s in spaces) if card is not None]
        return len(shown) if len({card.color for card in shown}) <= 1 else -1
    return max(through, key=promise)


def _one_card_short(square: Square, spaces: tuple[int, int, int], rules: RuleSet) -> int:
    """What a line with one open space would pay if that space got the right card, or 0 if it is not that close."""
    open_spaces = [s for s in spaces if square.is_open(s)]
    return _one_card_from(square, spaces, open_spaces[0], rules) if len(open_spaces) == 1 else 0


def _one_card_from(square: Square, spaces: tuple[int, int, int], space: int, rules: RuleSet) -> int:
    """What a line would pay if its one open space (`space`) got the right card, or 0 if it is not that close."""
    shown = [square.showing(s) for s in spaces if s != space]
    if not square.is_open(space) or any(card is None for card in shown):
        return 0
    first, second = shown[0], shown[1]
    assert first is not None and second is not None
    kind = "suit" if first.suit == second.suit else "color" if first.color == second.color else None
    return line_points(kind, rules)  # the right third card keeps the pair's kind


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


def _spoilers(view: PlayerView, square: Square, spaces: Spaces, card: Card, say: _Sentences) -> str | None:
    """A sentence on the unseen cards that could spoil the line being built, at its first open space."""
    space = next(s for s in spaces if square.is_open(s))
    count = sum(1 for c in view.unseen() if c.rank == space and c.color != card.color)
    colour = "black" if card.color == "red" else "red"
    return say.first(("risk", "spoilers", (OpponentCanLay(), Spoilers(space, card.color, count)), {
        "line": view.rules.line_name(spaces), "count": count, "space": space,
        "cards": text("hints.cards_of", count=count, colour=text(f"hints.colour.{colour}"),
                      rank=rank_words(space, plural=count != 1))}))
