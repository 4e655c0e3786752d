"""The Play controller: a match of Leopard against a computer opponent, driven by board intents.

Pure Python (no widgets): intents in, engine calls, a new board state and a message out. The
learner is player 0; the opponent is any object with `choose(view) -> move` (injected, so tests
can pass a simple deterministic one and the app passes `leopard_tutor.ai.make_player(...)`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..ai.background import Background
from ..ai.hints import HintLadder
from ..ai.review import THRESHOLDS, HandReview, Judgement, Review, view_before
from ..ai.why import why
from ..engine import (
    REVISED_2008,
    Discard,
    EndTurn,
    GoOut,
    Hand,
    Match,
    Move,
    Play,
    PlayerView,
    RuleSet,
    bonus,
    scoring_lines,
)
from ..engine.catalogue import or_list, text
from ..engine.narration import LineChange, line_changes, move_words, narrate
from ..engine.turns import play_turn
from .board import BadIntent, State, TableController
from .presenter import (
    action,
    actions_panel,
    list_panel,
    moves_part,
    pairs_panel,
    play_targets,
    square_labels,
    table_panel,
    table_state,
)

ME, THEM = 0, 1
HURRIED_SHARE = 0.5
"""Below this share of a processor while it thinks, a searching opponent searched fewer than half the deals
it searches on an idle server (its search is processor-bound and stops at its time budget)."""
REVIEW_FINISH_SECONDS = 2.5
"""The most a review that is asked for searches before it is shown (the rest was done while you played)."""
REVIEW_ACTIONS = ("review_prev", "review_next", "review_mistake", "try_again", "review_close", "why")
"""The buttons that work while a review is shown."""


class Chooser(Protocol):
    """A computer player: picks one of `view.legal_moves()`."""

    def choose(self, view: PlayerView) -> Move:
        """The move to make in this position."""


HintFn = Callable[[PlayerView], Any]
"""`hint(view)` returning an object with `.move`, `.reason` and `.ladder` (four sentences)."""


@dataclass(frozen=True)
class LogEntry:
    """One move of the hand in words."""

    mover: int
    text: str


@dataclass
class ReviewSession:
    """A review being stepped through: the judgements, the hand they judge (a copy), which hand of the
    match it was, and the judgement shown."""

    review: Review
    hand: Hand
    number: int
    step: int = 0

    @property
    def judgement(self) -> Judgement:
        """The judgement shown now."""
        return self.review.judgements[self.step]


@dataclass
class Retry:
    """A position of a reviewed hand played again: the hand (the real one, taken back to that move),
    the first move that may not be taken back, the judgement it came from, and the match's log meanwhile."""

    hand: Hand
    floor: int
    judgement: Judgement
    number: int
    saved_log: list[LogEntry]


@dataclass(frozen=True)
class Search:
    """How the computer's last turn was thought out, for an opponent that searches deals under a time budget."""

    deals: int
    seconds: float
    share: float  # of one processor, while it thought
    hurried: bool  # it spent its whole budget with less than HURRIED_SHARE of a processor


@dataclass(frozen=True)
class SquareBreakdown:
    """How one square scored at the end of a hand."""

    player: int
    lines: tuple[tuple[str, str, int], ...]  # (line name, 'one suit' / 'one colour', points)
    raw: int
    bonus: int
    penalty: int
    total: int


class PlayController(TableController):
    """A match against `opponent`, the learner being player 0. Implements `BoardController`."""

    def __init__(self, opponent: Chooser, *, rules: RuleSet = REVISED_2008, seed: int | str | None = None,
                 hinter: HintFn | None = None, hands: int | None = None,
                 reviewer: Callable[[], HandReview] = HandReview, background: bool = True) -> None:
        """`reviewer()` makes the review of one of the learner's hands (tests pass a smaller search). With
        `background`, the review's search goes on while the learner thinks; without (where many visitors'
        kernels share the processors), it is done when the review is asked for."""
        self.opponent = opponent
        self.hinter = hinter
        self.hands_per_match = hands
        self.selected: int | None = None
        super().__init__()
        self.log: list[LogEntry] = []
        self.last: dict[int, set[int]] = {}
        self.changes: tuple[LineChange, ...] = ()
        self.moved: tuple[tuple[Move, int], ...] = ()  # the cards the last message tells of: (move, mover)
        self.moved_seq = -1
        self.search: Search | None = None
        self.clocks: tuple[Callable[[], float], Callable[[], float]] = (time.perf_counter, time.process_time)
        """(wall clock, this process's processor time), read around a searching opponent's moves."""
        self._ladder = HintLadder(self._expert_clues)
        self.make_reviewer = reviewer
        self.reviewer = reviewer()
        self.last_review: tuple[Hand, HandReview, int] | None = None
        self.reviewing: ReviewSession | None = None
        self.retry: Retry | None = None
        self.background = Background(self._refine_reviews) if background else None
        self.match = Match(rules, seed=seed, hands=hands)
        self._start_hand(text("play.welcome"))

    # -- reading -------------------------------------------------------------------------------
    @property
    def hand(self) -> Hand:
        """The hand in play: the match's, or a reviewed position being tried again."""
        return self.retry.hand if self.retry is not None else self.match.current

    @property
    def rules(self) -> RuleSet:
        """The rule set of the match."""
        return self.match.rules

    def view(self) -> PlayerView:
        """What the learner may see now."""
        return self.hand.view(ME)

    def board_state(self) -> State:
        """The table for the board (a new dict each time), with the breakdown, score sheet and move log
        in its side column; during a review, the position judged, with the review beside it."""
        session = self.reviewing
        if session is not None:
            judgement = session.judgement
            move = judgement.move
            spot = {move.square_owner: {move.space}} if isinstance(move, Play) else {}
            return table_state(judgement.view, message=self.message, tone=self.tone, seq=self.seq, last=spot,
                               actions=self.actions(), turn=text("review.turn", number=session.number,
                                                                step=session.step + 1,
                                                                steps=len(session.review.judgements)),
                               aside=review_panels(session))
        moves = moves_part(self.moved, ME) if self.moved_seq == self.seq else []
        state = table_state(self.view(), selected=self.selected, message=self.message, tone=self.tone,
                            seq=self.seq, last=self.last, changes=self.changes, actions=self.actions(),
                            turn=self.turn_text(), moves=moves, aside=self.panels())
        if self.search is not None:
            state["search"] = {"deals": self.search.deals, "seconds": round(self.search.seconds, 3),
                               "share": round(self.search.share, 3), "hurried": self.search.hurried}
        return state

    def panels(self) -> list[State]:
        """The side column: why the computer moved and the reviews (buttons), the end-of-hand breakdown
        (once the hand is over), the score sheet, the log."""
        found = [actions_panel(self.side_actions(), css="lt-review-buttons")]
        parts = self.breakdown()
        if parts is not None:
            found.append(pairs_panel(text("play.panels.end_of_hand", number=self.match.hand_number),
                                     [(square_labels()[0 if part.player == ME else 1], _breakdown_rows(part))
                                      for part in parts]))
        mine, theirs = self.match.totals
        found.append(table_panel(
            text("play.panels.score_sheet", hands=self.match.hands),
            [text("play.panels.hand_column"), text("play.panels.you"), text("play.panels.opponent")],
            [[text("play.panels.hand_row", number=n), a, b] for n, a, b in self.score_sheet()],
            [text("play.panels.total"), mine, theirs], css="lt-scores"))
        found.append(list_panel(
            text("play.panels.moves", number=self.match.hand_number),
            [{"text": entry.text, "class": "lt-by-you" if entry.mover == ME else "lt-by-them"}
             for entry in reversed(self.log)],
            empty=text("play.panels.no_moves"), ordered=True, latest_first=True, css="lt-log"))
        return found

    def side_actions(self) -> list[State]:
        """The buttons beside the table: why the computer made its last move; review this hand and, once
        a hand of the match is over, the last one (not while a position is being tried again)."""
        hand = self.hand
        found = [action("why", text("review.buttons.why"), enabled=THEM in hand.movers)]
        if self.retry is None:
            found.append(action("review", text("review.buttons.review"), enabled=ME in hand.movers))
            if self.last_review is not None:
                found.append(action("review_last", text("review.buttons.review_last"), enabled=True))
        return found

    def turn_text(self) -> str:
        """Whose turn it is, which hand, which rules."""
        hand = self.hand
        state = "over" if hand.is_over else "yours" if hand.to_move == ME else "theirs"
        turn = text(f"play.turn.{state}", number=self.match.hand_number, hands=self.match.hands,
                    rules=text(f"rules.{self.rules.key}"))
        return turn if self.retry is None else text("review.retry.turn", turn=turn)

    def actions(self) -> list[State]:
        """The buttons under the board: Go out always; End turn where it can matter; Hint and Undo; Next
        hand (or New match) at the end. During a review: previous, next, next mistake, try this position
        again, back to the game; while trying a position again, back to the match instead of Next hand."""
        session = self.reviewing
        if session is not None:
            steps = len(session.review.judgements)
            return [action("review_prev", text("review.buttons.prev"), enabled=session.step > 0),
                    action("review_next", text("review.buttons.next"), enabled=session.step + 1 < steps),
                    action("review_mistake", text("review.buttons.next_mistake"),
                           enabled=_next_mistake(session) is not None),
                    action("try_again", text("review.buttons.try_again"), enabled=True, primary=True),
                    action("review_close", text("review.buttons.close"), enabled=True)]
        hand = self.hand
        out = hand.check(GoOut())
        note = "" if out.legal else (text("play.not_your_turn") if hand.to_move != ME and not hand.is_over
                                     else out.reason)
        buttons = [action("go_out", text("play.buttons.go_out"), enabled=out.legal, note=note)]
        end = hand.check(EndTurn())
        if self.rules.multiple_plays or end.legal:
            buttons.append(action("end_turn", text("play.buttons.end_turn"), enabled=end.legal and hand.to_move == ME,
                                  note="" if end.legal else end.reason))
        playing = not hand.is_over and hand.to_move == ME
        buttons.append(action("hint", text("play.controls.hint"), enabled=playing and self.hinter is not None))
        floor = self.retry.floor if self.retry is not None else 0
        buttons.append(action("undo", text("play.controls.undo"), enabled=ME in hand.movers[floor:]))
        if self.retry is not None:
            buttons.append(action("retry_close", text("review.buttons.back_to_match"), enabled=True,
                                  primary=hand.is_over))
            return buttons
        if hand.is_over and not self.match.is_over:
            buttons.append(action("next_hand", text("play.buttons.next_hand"), enabled=True, primary=True))
        if self.match.is_over:
            buttons.append(action("new_match", text("play.buttons.new_match"), enabled=True, primary=True))
        return buttons

    def breakdown(self) -> tuple[SquareBreakdown, SquareBreakdown] | None:
        """Each square's lines, raw value, bonus, going-out penalty and total, once the hand is over."""
        hand = self.hand
        if not hand.is_over:
            return None
        parts = []
        for player in (ME, THEM):
            raw = hand.value(player)
            penalty = self.rules.out_penalty if hand.went_out == player else 0
            lines = tuple((line.name, text(f"narration.kind_{line.kind}"), line.points)
                          for line in scoring_lines(hand.squares[player], self.rules) if line.points)
            parts.append(SquareBreakdown(player, lines, raw, bonus(raw, self.rules), penalty, hand.scores()[player]))
        return (parts[0], parts[1])

    def score_sheet(self) -> list[tuple[int, int, int]]:
        """(hand number, your score, opponent's score) for every finished hand of the match."""
        return [(number, mine, theirs) for number, (mine, theirs) in enumerate(self.match.results, start=1)]

    # -- intents -------------------------------------------------------------------------------
    def action_handlers(self) -> dict[str, Callable[[], None]]:
        """The buttons: go out, end turn, next hand, new match, undo, hint; the review's (review this hand,
        review the last hand, previous, next, next mistake, try again, close) and why the computer did that."""
        return {"go_out": self.go_out, "end_turn": self.end_turn, "next_hand": self.next_hand,
                "new_match": self.new_match, "undo": self.undo, "hint": self.hint,
                "review": self.review_this_hand, "review_last": self.review_last_hand,
                "review_prev": lambda: self.review_step(-1), "review_next": lambda: self.review_step(1),
                "review_mistake": self.review_next_mistake, "try_again": self.try_again,
                "review_close": self.close_review, "retry_close": self.leave_retry, "why": self.why}

    def handle(self, intent: Mapping[str, Any]) -> None:
        """As every table; while a review is shown, only its buttons (and "why") answer."""
        if self.reviewing is not None and not (intent.get("type") == "action" and intent.get("id") in REVIEW_ACTIONS):
            self.say(text("review.in_review"), "warn")
            return
        super().handle(intent)

    def select(self, index: int) -> None:
        """Pick the card at `index` of the learner's hand (picking it again puts it back)."""
        cards = self.hand.hands[ME]
        if not 0 <= index < len(cards):
            raise BadIntent(f"there is no card number {index} in your hand")
        if self.selected == index:
            self.selected = None
            self.say(text("play.put_back", card=cards[index].name))
            return
        self.selected = index
        card = cards[index]
        if self.hand.is_over or self.hand.to_move != ME:
            self.say(text("play.hand_over") if self.hand.is_over else text("play.not_your_turn"), "warn")
            return
        targets, _, can_discard = play_targets(self.view(), card)
        places = [text("play.places.own" if owner == ME else "play.places.theirs",
                       spaces=_spaces_words(sorted(targets[owner]))) for owner in (ME, THEM) if targets[owner]]
        if can_discard:
            places.append(text("play.places.discard"))
        where = or_list(places) if places else text("play.nowhere")
        self.say(text("play.picked", card=card.name, where=where))

    def click_space(self, owner: int, space: int) -> None:
        """A click on a space: play the selected card there, or say why not (changing nothing)."""
        if owner not in (ME, THEM) or not 1 <= space <= 9:
            raise BadIntent(f"there is no space {space} of square {owner}")
        card = self._selected_card()
        if card is None:
            self.say(text("play.pick_first"), "warn")
            return
        self.make(Play(card, owner, space))

    def discard(self) -> None:
        """Discard the selected card, or say why not."""
        card = self._selected_card()
        if card is None:
            self.say(text("play.pick_first_discard"), "warn")
            return
        self.make(Discard(card))

    def go_out(self) -> None:
        """Declare out, or say why not."""
        self.make(GoOut())

    def end_turn(self) -> None:
        """End the turn (Running Leopard, or passing with no card), or say why not."""
        self.make(EndTurn())

    def make(self, move: Move) -> None:
        """Make the learner's move if the rules allow it, then let the opponent reply; else explain."""
        hand = self.hand
        if hand.is_over:
            self.say(text("play.hand_over"), "warn")
            return
        if hand.to_move != ME:
            self.say(text("play.not_your_turn"), "warn")
            return
        verdict = hand.check(move)
        if not verdict.legal:
            self.say(verdict.reason, "warn")
            return
        before = self.view().squares
        made = len(self.hand.moves)
        words = [self._apply(move, ME)]
        self.last = {move.square_owner: {move.space}} if isinstance(move, Play) else {}
        self.selected = None
        words += self._opponent_turns()
        self.changes = tuple(change for owner in (ME, THEM)
                             for change in line_changes(owner, before[owner], self.view().squares[owner], self.rules))
        if self.search is not None and self.search.hurried:
            words.append(text("play.hurried"))
        if self.hand.is_over:
            words.append(self._end_words())
        elif self.hand.to_move == ME and self.hand.plays_made:
            words.append(text("play.play_more"))
        self._follow()
        self.say(" ".join(words), "ok")
        self._show_moves(made)

    def undo(self) -> None:
        """Take back the learner's last move (and the opponent's replies to it)."""
        hand = self.hand
        floor = self.retry.floor if self.retry is not None else 0
        if ME not in hand.movers[floor:]:
            self.say(text("play.nothing_to_undo"), "warn")
            return
        replies = 0
        while True:
            mover = hand.movers[-1]
            move = hand.undo()
            if mover == ME:
                break
            replies += 1
        del self.log[len(hand.moves):]
        self.selected, self.last, self.changes, self._ladder = None, {}, (), HintLadder(self._expert_clues)
        self._follow()
        self.say(text("play.undone_with_reply" if replies else "play.undone", move=move_words(move, "undo", ME)))

    def hint(self) -> None:
        """Show the next rung of the hint ladder for this position."""
        hand = self.hand
        if hand.is_over or hand.to_move != ME:
            self.say(text("play.hand_over") if hand.is_over else text("play.not_your_turn"), "warn")
            return
        if self.hinter is None:
            self.say(text("play.no_hints"), "warn")
            return
        rung, _ = self._ladder.climb(len(hand.moves))
        self.say(text("play.hint", rung=rung.level, rungs=self._ladder.size, text=rung.text))

    def _expert_clues(self) -> tuple[Move, list[str]]:
        """The hinter's move for the learner's view now, and its four clues."""
        assert self.hinter is not None
        found = self.hinter(self.view())
        return found.move, list(found.ladder)

    def next_hand(self) -> None:
        """Deal the next hand of the match."""
        if self.retry is not None:
            self.say(text("review.retry.leave_first"), "warn")
            return
        if not self.hand.is_over:
            self.say(text("play.finish_first"), "warn")
            return
        if self.match.is_over:
            self.say(text("play.match_over"), "warn")
            return
        self.last_review = (self.hand.copy(), self.reviewer, self.match.hand_number)
        self.match.next_hand()
        self._start_hand(text("play.new_hand", number=self.match.hand_number))

    def new_match(self, rules: RuleSet | None = None, seed: int | str | None = None) -> None:
        """Start a new match, with other rules if given."""
        self.reviewing = self.retry = self.last_review = None
        self.match = Match(rules or self.rules, seed=seed, hands=self.hands_per_match)
        self._start_hand(text("play.new_match", rules=text(f"rules.{self.rules.key}")))

    def resume(self, match: Match, words: str, opponent: Chooser | None = None) -> None:
        """Go on with `match` as it stands (a saved game), against `opponent` if given; `words` open the message."""
        self.match = match
        if opponent is not None:
            self.opponent = opponent
        self.log, self.selected, self.last, self.changes, self.search = [], None, {}, (), None
        self._ladder = HintLadder(self._expert_clues)
        said, made = [words], len(self.hand.moves)
        if not self.hand.is_over and self.hand.to_move == THEM:
            said += self._opponent_turns()
        self.say(" ".join(said))
        self._show_moves(made)

    def set_opponent(self, opponent: Chooser, name: str = "") -> None:
        """Play on against another opponent from the next move."""
        self.opponent = opponent
        if name:
            self.say(text("play.opponent_changed", name=name))

    # -- the review of a hand, and why the computer moved as it did ------------------------------
    def review_this_hand(self) -> None:
        """Show the review of the hand in play (finished or not), refining it for a bounded time first."""
        self._open_review(self.match.current, self.reviewer, self.match.hand_number)

    def review_last_hand(self) -> None:
        """Show the review of the match's previous hand."""
        if self.last_review is None:
            self.say(text("review.no_last_hand"), "warn")
            return
        self._open_review(*self.last_review)

    def _open_review(self, hand: Hand, reviewer: HandReview, number: int) -> None:
        if self.retry is not None:
            self.say(text("review.retry.leave_first"), "warn")
            return
        reviewer.follow(hand)
        review = reviewer.finish(REVIEW_FINISH_SECONDS)
        if not review.judgements:
            self.say(text("review.summary.empty"), "warn")
            return
        self.reviewing = ReviewSession(review, hand.copy(), number)
        self.selected = None
        self._say_step(text("review.opened", summary=review.summary()))

    def review_step(self, by: int) -> None:
        """Show the judgement `by` moves later (or earlier) in the review."""
        session = self.reviewing
        if session is None:
            self.say(text("review.not_open"), "warn")
            return
        session.step = max(0, min(len(session.review.judgements) - 1, session.step + by))
        self._say_step()

    def review_next_mistake(self) -> None:
        """Show the next move of the review not marked good."""
        session = self.reviewing
        found = None if session is None else _next_mistake(session)
        if found is None:
            self.say(text("review.no_more_mistakes" if session else "review.not_open"), "warn")
            return
        self.review_goto(found)

    def review_goto(self, step: int) -> None:
        """Show the judgement of the learner's move number `step` (from 0) in the review."""
        session = self.reviewing
        if session is None:
            self.say(text("review.not_open"), "warn")
            return
        if not 0 <= step < len(session.review.judgements):
            raise BadIntent(f"there is no move number {step} in this review")
        session.step = step
        self._say_step()

    def _say_step(self, opening: str = "") -> None:
        session = self.reviewing
        assert session is not None
        judgement = session.judgement
        step = text("review.step", number=session.step + 1, steps=len(session.review.judgements),
                    move=move_words(judgement.move, "undo", ME), mark=mark_words(judgement),
                    sentence=judgement.sentence)
        self.say(f"{opening} {step}" if opening else step)

    def close_review(self) -> None:
        """Leave the review and go back to the game as it stands."""
        self.reviewing = None
        self.say(text("review.closed"))

    def try_again(self) -> None:
        """Play on from exactly the position of the judgement shown: the same cards in both hands and the
        same stock, with hints at hand; the match waits meanwhile."""
        session = self.reviewing
        if session is None:
            self.say(text("review.not_open"), "warn")
            return
        judgement = session.judgement
        replay = session.hand.copy()
        while len(replay.moves) > judgement.decision.index:
            replay.undo()
        self.retry = Retry(replay, judgement.decision.index, judgement, session.number, self.log)
        self.reviewing = None
        self.log, self.selected, self.last, self.changes = [], None, {}, ()
        self._ladder = HintLadder(self._expert_clues)
        self.say(text("review.retry.start", step=session.step + 1, number=session.number))

    def leave_retry(self) -> None:
        """Stop trying the position again and go back to the match where it was."""
        retry = self.retry
        if retry is None:
            self.say(text("review.retry.not_trying"), "warn")
            return
        self.retry = None
        self.log, self.selected, self.last, self.changes = retry.saved_log, None, {}, ()
        self._ladder = HintLadder(self._expert_clues)
        self.say(text("review.retry.back"))

    def why(self) -> None:
        """Say why the computer made its last move, from what it could see then."""
        hand = self.hand
        made = [index for index, mover in enumerate(hand.movers) if mover == THEM]
        if not made:
            self.say(text("review.why.none"), "warn")
            return
        index = made[-1]
        self.say(why(view_before(hand, index, THEM), hand.moves[index]).sentence)

    def _follow(self) -> None:
        """Bring the review of the match's hand up to date (the cheap pass) and let the search go on when idle."""
        if self.retry is None:
            self.reviewer.follow(self.match.current)
            if self.background is not None:
                self.background.poke()

    def _refine_reviews(self, seconds: float) -> bool:
        """Background work: the expert's search for this hand's review, then the last hand's."""
        if self.reviewer.refine(seconds):
            return True
        return self.last_review is not None and self.last_review[1].refine(seconds)

    # -- inside --------------------------------------------------------------------------------
    def _start_hand(self, opening: str) -> None:
        self.log, self.selected, self.last, self.changes, self.search = [], None, {}, (), None
        self._ladder = HintLadder(self._expert_clues)
        self.reviewer = self.make_reviewer()
        words = [opening]
        if self.hand.to_move == THEM:
            words.append(text("play.they_start"))
            words += self._opponent_turns()
        else:
            words.append(text("play.you_start"))
        self._follow()
        self.say(" ".join(words))
        self._show_moves(0)

    def _show_moves(self, first: int) -> None:
        """Let the board show the cards played since move number `first` travelling to their places."""
        hand = self.hand
        self.moved = tuple(zip(hand.moves[first:], hand.movers[first:]))
        self.moved_seq = self.seq

    def _selected_card(self) -> Any:
        cards = self.hand.hands[ME]
        if self.selected is None or self.selected >= len(cards):
            return None
        return cards[self.selected]

    def _apply(self, move: Move, mover: int) -> str:
        hand = self.hand
        before = hand.view(ME).squares
        value = hand.value(mover)
        hand.apply(move)
        told = narrate(move, mover, ME, before, hand.view(ME).squares, self.rules, went_out_value=value)
        self.log.append(LogEntry(mover, told.text))
        return told.text

    def _opponent_turns(self) -> list[str]:
        words: list[str] = []
        budget = getattr(self.opponent, "time_budget", None)
        wall, cpu = self.clocks
        deals, seconds, used, out_of_time = 0, 0.0, 0.0, False

        def choose() -> Move:
            nonlocal deals, seconds, used, out_of_time
            started, processor = wall(), cpu()
            move = self.opponent.choose(self.hand.view(THEM))
            took = wall() - started
            deals += int(getattr(self.opponent, "last_deals", 0))
            seconds, used = seconds + took, used + cpu() - processor
            out_of_time = out_of_time or (isinstance(budget, (int, float)) and took >= 0.9 * budget)
            return move

        def make(move: Move) -> None:
            words.append(self._apply(move, THEM))
            if isinstance(move, Play):
                self.last.setdefault(move.square_owner, set()).add(move.space)
        play_turn(self.hand, THEM, choose, make)
        share = min(1.0, used / seconds) if seconds > 0 else 1.0
        has_budget = isinstance(budget, (int, float)) and seconds > 0
        self.search = Search(deals, seconds, share, out_of_time and share < HURRIED_SHARE) if has_budget else None
        return words

    def _end_words(self) -> str:
        mine, theirs = self.hand.scores()
        words = text("play.hand_end", mine=mine, theirs=theirs)
        if self.retry is not None:
            return words + " " + text("review.retry.over")
        words += " " + text("review.invite")
        if self.match.is_over:
            a, b = self.match.totals
            result = ("match_won" if self.match.winner == ME else "match_lost" if self.match.winner == THEM
                      else "match_drawn")
            words += " " + text("play." + result, mine=a, theirs=b)
        return words


def mark_words(judgement: Judgement) -> str:
    """A judgement's mark in words, with the points lost unless it is good."""
    mark = text(f"review.verdict.{judgement.verdict}")
    if judgement.verdict == "good":
        return mark
    return text("review.cost", verdict=mark, points=round(judgement.cost, 1))


def review_panels(session: ReviewSession) -> list[State]:
    """The side column during a review: the summary, and every judged move with its mark (the one on the
    board marked as current), then what the marks mean."""
    review = session.review
    items = [{"text": text("review.panel.move", move=move_words(judgement.move, "undo", ME),
                           mark=mark_words(judgement)),
              "class": f"lt-review-{judgement.verdict}" + (" lt-review-now" if number == session.step else "")}
             for number, judgement in enumerate(review.judgements)]
    limits = dict(THRESHOLDS)
    return [list_panel(text("review.panel.title", number=session.number), [review.summary()], css="lt-review-summary"),
            list_panel(text("review.panel.moves"), items, ordered=True, css="lt-review-moves"),
            list_panel(text("review.panel.marks"), [text("review.panel.legend", inaccuracy=limits["inaccuracy"],
                                                         mistake=limits["mistake"], blunder=limits["blunder"])])]


def _next_mistake(session: ReviewSession) -> int | None:
    """The number of the next judged move after the one shown that is not marked good."""
    return next((number for number, judgement in enumerate(session.review.judgements)
                 if number > session.step and judgement.verdict != "good"), None)


def _breakdown_rows(part: SquareBreakdown) -> list[tuple[str, str | int, bool]]:
    """A square's end-of-hand rows: its scoring lines, raw value, bonus, penalty and (strong) total."""
    lines: list[tuple[str, str | int, bool]] = [
        (text("play.panels.line", name=name, kind=kind), points, False) for name, kind, points in part.lines]
    return [*(lines or [(text("play.panels.no_line"), 0, False)]),
            (text("play.panels.raw"), part.raw, False), (text("play.panels.bonus"), f"+{part.bonus}", False),
            (text("play.panels.penalty"), f"−{part.penalty}", False), (text("play.panels.total"), part.total, True)]


def _spaces_words(spaces: Sequence[int]) -> str:
    """'space 4', 'spaces 1, 2 and 5' or 'any space'."""
    if len(spaces) == 9:
        return text("play.places.any_space")
    if len(spaces) == 1:
        return text("engine.spaces.one", space=spaces[0])
    return text("engine.spaces.many", first=text("words.list_separator").join(str(s) for s in spaces[:-1]),
                last=spaces[-1])
