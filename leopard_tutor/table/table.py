"""`Table`: a match of Leopard between two seats, headless (intents in, a `BoardState` and a message out).

A seat is a person at this page, a computer player or a person elsewhere (seats.py); after every move the
table asks the seat to move for its move (whose move it is, is the turn runner's: engine/turns.py), and is then
in one mode (modes.py): waiting for a classmate, playing, handing the device over, a hand over, the match over,
reviewing a hand, trying a reviewed position again, or closed. The mode changes only as the transition table
allows (machine.py); what each mode offers, and why not the rest, is said by offers.py. The page shows
`board_state()` and forwards clicks to `handle`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, ClassVar

from ..ai.background import Background
from ..ai.review import HandReview, view_before
from ..ai.why import why_turn
from ..class_codes import name_key, player_name
from ..engine import (
    REVISED_2008,
    Card,
    Discard,
    EndTurn,
    GoOut,
    Hand,
    LeopardError,
    Match,
    Move,
    Play,
    PlayerView,
    RuleSet,
    Square,
)
from ..engine.catalogue import text
from ..engine.narration import move_words, narrate
from ..engine.turns import Passed, apply_move, current_player, deal_next, play_turn
from ..engine.view import public_square
from ..hint_ladder import HintLadder
from . import drawing, machine, sentences
from .intents import BadIntent, TableController, whole_number
from .marks import Marks
from .modes import (
    Closed,
    HandFinished,
    LogEntry,
    MatchFinished,
    Mode,
    PassingDevice,
    PastHand,
    Playing,
    Retrying,
    Reviewing,
    Seating,
)
from .offers import next_mistake, offers
from .presenter import (
    play_targets,
)
from .seats import Chooser, Computer, PersonElsewhere, PersonHere, Search, Seat
from .state import BoardState

REVIEW_FINISH_SECONDS = 2.5
"""The most a review that is asked for searches before it is shown (the rest was done while you played)."""
REVIEW_STEP_SECONDS = 0.5  # the most a step through a review searches the judgement it shows, while not final
REVIEW_SEEK_SECONDS = 2.5
"""The most Next inaccuracy or worse searches the judgements marked so that it passes on its way, each as a step would
(`Table.review_next_mistake`): as long as a review asked for, at most."""

HintFn = Callable[[PlayerView], Any]
"""`hint(view)` returning an object with `.move`, `.reason`, `.ladder` (its sentences, a rung each: `ai.hints.explain`)
and `.level` (the computer level that chose the move, named in each rung's sentence; "" for a hint no level chose)."""


class Table(TableController):
    """A match between `seats[0]` and `seats[1]`, shown on this page to the person here whose view it is
    (`viewer`). At least one seat is a person here. Implements the board's `BoardController`."""

    for_classmates: ClassVar[bool] = False
    """Whether the table is one between classmates on a class server (one match, not shared nor saved), even once
    the computer has taken the classmate's seat."""
    other_gone = False
    """At a class table: whether the server says the classmate has been gone long enough for the computer to take
    their seat (the class panel forwards it from each report; offers.py reads it)."""
    classmate_chosen = False
    """On a class server: whether the Play section's Opponent menu names a classmate while this table, where the
    computer or two people here play, is on the board (the section forwards it; offers.py reads it): a match with a
    classmate begins at a class table, so no new match is dealt here meanwhile."""

    @property
    def at_class_table(self) -> bool:
        """Whether the person here sits at a class table whose moves the server stores (`ClassTable`)."""
        return False

    @property
    def server_table_open(self) -> bool:
        """Whether the server's table for this one is still open: sat at, its match not closed by the server."""
        return False

    @property
    def next_dealt(self) -> bool:
        """Whether the other player has already dealt the next hand, which waits for the person here to ask for it (at
        a class table)."""
        return False

    def __init__(self, seats: tuple[Seat, Seat], *, rules: RuleSet = REVISED_2008, seed: int | str | None = None,
                 hinter: HintFn | None = None, hands: int | None = None,
                 reviewer: Callable[[int], HandReview] = HandReview, background: bool = True,
                 seating: str | None = None, opening: str = "") -> None:
        """`reviewer(player)` makes the review of one of `player`'s hands (tests pass a smaller search). With
        `background`, the review's search goes on while the person thinks; without (where many visitors'
        kernels share the processors), it is done when the review is asked for. With `seating` (a class table's
        code), the table waits for the classmate to sit down (`sit`) before the match is shown. `opening` begins the
        first message in place of "A new match has begun." (`play.welcome`)."""
        here = [player for player in (0, 1) if seats[player].here]
        if not here:
            raise LeopardError("a table needs a person at this page in one of its seats")
        super().__init__()
        self.seats = seats
        self.viewer = here[0]
        self.hinter = hinter
        self._hint_level = ""  # the level that chose the current ladder's move ("" if none did)
        self.hands_per_match = hands
        self.marks = Marks()
        self.log: list[LogEntry] = []
        self.search: Search | None = None
        self.on_thinking: Callable[[BoardState], None] | None = None
        """Shown the table while a computer chooses its reply to the viewer's move (`drawing.thinking_state`), and
        again after each of its plays while it chooses the next (a turn of several plays): the board draws each move
        as it is made, where the viewer's stayed in the hand until the whole reply came."""
        self._thinking_since: tuple[int, Sequence[Square]] | None = None
        """While a computer replies to the viewer's move: the move's number and the squares before it."""
        self.mode: Mode = Playing()
        self._ladder = HintLadder(self._hint_clues)
        self.make_reviewer = reviewer
        self.reviewers: dict[int, HandReview] = {}  # by player, for each person here: made with each hand
        self.last_review: PastHand | None = None
        self.background = Background(self._refine_reviews) if background else None
        self.match = Match(rules, seed=seed, hands=hands)
        self.computer_sat: tuple[int, int] | None = None
        """When a computer took the seat of a person elsewhere: the hand's number then, and how many of its moves
        had been made (those, and every move of earlier hands in that seat, are the person's)."""
        if seating is not None:
            self.mode = Seating(seating)
            self.say(text("classmates.seating.wait", code=seating))
            return
        self._start_hand(opening or text("play.welcome"), "new_match")

    # -- who sits where ------------------------------------------------------------------------
    @property
    def people_here(self) -> tuple[int, ...]:
        """The players who use this page."""
        return tuple(player for player in (0, 1) if self.seats[player].here)

    @property
    def both_here(self) -> bool:
        """Whether both players sit at this page, taking turns with it."""
        return len(self.people_here) == 2

    @property
    def choosing(self) -> bool:
        """Whether a computer is choosing its move in reply to the viewer's, the table shown meanwhile (`on_thinking`):
        then it takes no intent until the reply is made."""
        player = current_player(self.hand)
        return (self._thinking_since is not None and player is not None
                and isinstance(self.seats[player], Computer))

    @property
    def between_people(self) -> bool:
        """Whether no computer plays (then there is no undo and no position played again against it)."""
        return not any(isinstance(seat, Computer) for seat in self.seats)

    @property
    def begun(self) -> bool:
        """Whether the people here have begun the match: a hand past the first, or a move of one of them in this one
        (the computer's opening move alone begins nothing)."""
        return self.match.hand_number > 1 or any(self.seats[player].here for player in self.match.current.movers)

    @property
    def computer_player(self) -> int | None:
        """The player number of the computer at the table, if one plays."""
        return next((player for player in (0, 1) if isinstance(self.seats[player], Computer)), None)

    @property
    def viewer_to_move(self) -> bool:
        """Whether it is the move of the person whose view this is (the one place this is decided)."""
        return isinstance(self.mode, (Playing, Retrying)) and current_player(self.hand) == self.viewer

    @property
    def computer_from(self) -> int:
        """The first move of the hand in play that the computer at the table made itself in its seat: the moves
        before it in that seat were a classmate's, whose seat it took (0 where the computer sat from the start)."""
        sat, retry = self.computer_sat, self.retry
        number = self.match.hand_number if retry is None else retry.number
        start = (0 if sat is None or number > sat[0] else sat[1] if number == sat[0] else len(self.hand.moves))
        return start if retry is None else min(start, retry.floor)

    @property
    def undo_floor(self) -> int:
        """The first move of the hand in play that Undo may take back: a position tried again keeps the moves
        before it, and the moves made before the computer took a classmate's seat stay as they were played."""
        retry = self.retry
        return self.computer_from if retry is None else retry.floor

    @property
    def opponent(self) -> Chooser | None:
        """The computer player's chooser, if a computer sits at the table."""
        seat = next((seat for seat in self.seats if isinstance(seat, Computer)), None)
        return None if seat is None else seat.chooser

    def name(self, player: int) -> str:
        """The player's name for the page: what they typed, else "Player 1" or "Player 2"; "" for the computer."""
        seat = self.seats[player]
        if isinstance(seat, Computer):
            return ""
        return seat.name or _default_name(player)

    def rename(self, player: int, name: str) -> None:
        """Give a person at this page another name ("" for "Player 1" / "Player 2"): at most `MAX_NAME`
        characters, no control characters; a bad name is a `LeopardError` and changes nothing."""
        seat = self.seats[player] if player in (0, 1) else None
        if not isinstance(seat, PersonHere):
            raise BadIntent(f"there is no person at this page in seat {player}")
        if not machine.allowed(self.mode, "rename"):
            raise BadIntent(f"no name changes at a table {self.mode.kind}")
        given = player_name(name, "")
        _distinct(given or _default_name(player), self.name(1 - player))
        seat.name = given
        self.move_to("rename", self.mode)
        words = [text("play.people.renamed", number=player + 1, name=self.name(player))]
        if isinstance(self.mode, PassingDevice):  # the screen still says who takes the device
            words.append(text("play.people.pass", name=self.name(self.mode.player)))
        self.say(" ".join(words))

    # -- reading -------------------------------------------------------------------------------
    @property
    def hand(self) -> Hand:
        """The hand in play: the match's, or a reviewed position being tried again."""
        return self.mode.hand if isinstance(self.mode, Retrying) else self.match.current

    @property
    def rules(self) -> RuleSet:
        """The rule set of the match."""
        return self.match.rules

    @property
    def reviewing(self) -> Reviewing | None:
        """The review shown, if one is."""
        return self.mode if isinstance(self.mode, Reviewing) else None

    @property
    def retry(self) -> Retrying | None:
        """The position being played again, if one is."""
        return self.mode if isinstance(self.mode, Retrying) else None

    @property
    def reviewer(self) -> HandReview:
        """The review of the viewer's moves in the match's hand."""
        return self.reviewers[self.viewer]

    def view(self) -> PlayerView:
        """What the viewer may see now."""
        return self.hand.view(self.viewer)

    def board_state(self) -> BoardState:
        """The table as the board draws it (drawing.py)."""
        return drawing.board_state(self)

    def offers(self) -> dict[str, str]:
        """Every action the page may send: "" where it is offered now, else why not (offers.py)."""
        return offers(self)

    # -- intents -------------------------------------------------------------------------------
    def action_handlers(self) -> dict[str, Callable[[], None]]:
        """The buttons: go out, end turn, next hand, new match, undo, hint; the review's (review this hand,
        review the last hand, previous, next, next mistake, try again, close) and why the computer did that;
        between two people at this page, the device passed on and a hand shown."""
        return {"go_out": self.go_out, "end_turn": self.end_turn, "next_hand": self.next_hand,
                "new_match": self.new_match, "undo": self.undo, "hint": self.hint,
                "review": self.review_this_hand, "review_last": self.review_last_hand,
                "review_prev": lambda: self.review_step(-1), "review_next": lambda: self.review_step(1),
                "review_mistake": self.review_next_mistake, "try_again": self.try_again,
                "review_close": self.close_review, "retry_close": self.leave_retry, "why": self.why,
                "pass": self.pass_device, "show_hand": self.show_hand}

    def handle(self, intent: Mapping[str, Any]) -> None:
        """As every table, but an action the table does not offer now (offers.py) is refused with its reason and
        changes nothing; a card, a space or the discard pile answers only in a mode where moves are made. A move of
        the review's list pressed is the action "review_goto" with its number, "step" (from 0)."""
        kind = intent.get("type")
        if kind in ("select", "space", "discard") and not machine.allowed(self.mode, "move"):
            self.say(self.beside_review(sentences.no_moves_now(self)), "warn")
            return
        if kind == "action" and intent.get("id") == "review_goto":
            self.review_goto(whole_number(intent, "step"))
            return
        super().handle(intent)

    def refused(self, action: str) -> bool:
        """Whether the table does not offer `action` now (offers.py); if so, the reason is said, as a warning (beside
        the judgement of a review shown)."""
        reason = offers(self)[action]
        if reason:
            self.say(self.beside_review(reason), "warn")
        return bool(reason)

    def select(self, index: int) -> None:
        """Pick the card at `index` of the viewer's hand (picking it again puts it back)."""
        cards = self.hand.held[self.viewer]
        if not self.marks.pick(index, len(cards)):
            self.say(text("play.put_back", the_card=cards[index].the_name))
            return
        card = cards[index]
        if not self.viewer_to_move:  # nothing is picked: the card would be shown as picked, the pick refused
            self.marks.selected = None
            self.say(self._not_to_move(), "warn")
            return
        self.say(text("play.picked", the_card=card.the_name, where=self._places(card)))

    def _places(self, card: Card) -> str:
        """Where the viewer's `card` may go now, in words ("space 4 of your square or the discard pile")."""
        targets, _, can_discard = play_targets(self.view(), card)
        return sentences.places_words(targets, self.viewer, can_discard)

    def click_space(self, owner: int, space: int) -> None:
        """A click on a space: play the selected card there, or say why not (changing nothing)."""
        if owner not in (0, 1) or not 1 <= space <= 9:
            raise BadIntent(f"there is no space {space} of square {owner}")
        card = self.marks.picked(self.hand.held[self.viewer])
        if card is None:
            self.say(text("play.pick_first") if self.viewer_to_move else self._not_to_move(), "warn")
            return
        self.make(Play(card, owner, space))

    def discard(self) -> None:
        """Discard the selected card, or say why not."""
        card = self.marks.picked(self.hand.held[self.viewer])
        if card is None:
            self.say(text("play.pick_first_discard") if self.viewer_to_move else self._not_to_move(), "warn")
            return
        self.make(Discard(card))

    def _not_to_move(self) -> str:
        """Why the viewer makes no move now, in a mode where moves are made: the hand is over, or it is not their
        turn."""
        return sentences.hand_over_words(self) if self.hand.is_over else sentences.not_now(self)

    def go_out(self) -> None:
        """Declare out, or say why not."""
        if not self.refused("go_out"):
            self.make(GoOut())

    def end_turn(self) -> None:
        """End the turn (Running Leopard, or passing with no card), or say why not."""
        if not self.refused("end_turn"):
            self.make(EndTurn())

    def make(self, move: Move) -> None:
        """Make the viewer's move if the rules allow it, then ask the other seat; else explain."""
        hand = self.hand
        if not machine.allowed(self.mode, "move"):
            self.say(self.beside_review(sentences.no_moves_now(self)), "warn")
            return
        if hand.is_over:
            self.say(sentences.hand_over_words(self), "warn")
            return
        if not self.viewer_to_move:
            self.say(sentences.not_now(self), "warn")
            return
        verdict = hand.check(move)
        if not verdict.legal:  # (the card stays picked, and the words say so, as in Learn)
            picked = self.marks.picked(hand.held[self.viewer])
            still = (f" {text('play.still_picked', The_card=picked.the_name_first)}"
                     if picked is not None and isinstance(move, (Play, Discard)) else "")
            self.say(f"{verdict.reason}{still}", "warn")
            self.marks.refused(move, self.seq)
            return
        self.record(self.viewer, move)
        self._moved(self.viewer, move, "move")

    def record(self, player: int, move: Move) -> None:
        """Before the viewer's legal move is made: a table whose moves are kept elsewhere stores it first (a
        refusal raises a `LeopardError`, and nothing changes). Nothing to do at an ordinary table."""

    def receive(self, player: int, move: Move) -> None:
        """The move of `player`, who sits elsewhere, answering the table's question (at any time later). A move
        that is not theirs to make now, or that the rules do not allow, is a `LeopardError` and changes nothing."""
        if not self.waiting_for(player):
            raise LeopardError(f"the table is not waiting for a move of player {player}")
        verdict = self.hand.check(move)
        if not verdict.legal:
            raise LeopardError(verdict.reason, key=verdict.key, facts=verdict.facts)
        self._moved(player, move, "receive")

    def waiting_for(self, player: int) -> bool:
        """Whether the table waits for a move of `player`, who sits elsewhere."""
        return (isinstance(self.mode, Playing) and current_player(self.hand) == player
                and isinstance(self.seats[player], PersonElsewhere))

    def _moved(self, player: int, move: Move, intent: str) -> None:
        """Make `player`'s legal `move`, ask the seats for what follows, and tell the viewer (or, when the
        device is to be passed, that move as the hand-over screen may show it to both, then to pass it)."""
        viewer = self.viewer
        before = self.view().squares
        made = len(self.hand.moves)
        words = [self._apply(move, player)[viewer]]
        shown = self.on_thinking is not None and player == viewer
        words.extend(self._advance_shown(made, before, intent) if shown else self._advance(intent))
        mode, hand = self.mode, self.hand
        if isinstance(mode, PassingDevice):
            self.marks.clear()
            self._follow()
            # to the player to come, in words that name no card either of them holds or hid (both read them); then to
            # the one who moved, who holds the device, by name
            told = self.log[-1].shared
            self.say(" ".join([told, text("play.people.pass_from", mover=self.name(player),
                                          name=self.name(mode.player))]))
            return
        if self.search is not None and self.search.hurried:
            words.append(text("play.hurried"))
        words.append(sentences.prompt(self))  # a classmate's move that begins this viewer's turn says what they drew
        self._follow()
        self.say(" ".join(word for word in words if word), "ok")
        self.marks.after(hand, made, before, self.view().squares, self.rules, self.seq)

    def pass_device(self) -> None:
        """At a hand's end between two people at this page: hand the device to the other, who may then look
        at the hand from their side (and review their own moves)."""
        if self.refused("pass"):
            return
        other = 1 - self.viewer
        self.move_to("pass", PassingDevice(other))
        self.marks.clear()
        self.say(text("play.people.pass", name=self.name(other)))

    def cover(self) -> None:
        """Hide both hands behind the hand-over screen (a match between two people here put aside: the device may
        have changed hands before it is taken up again), for the player to move, or the viewer once the hand is
        over; the message says to whom the device goes. A table already passing the device stays as it is."""
        if not self.both_here:
            raise BadIntent("only a match between two people at this page hides its hands")
        if isinstance(self.mode, PassingDevice):
            return
        self.marks.clear()
        self._behind_screen("cover")

    def _behind_screen(self, intent: str) -> None:
        """Move (by `intent`) behind the hand-over screen, for the player to move, or the viewer once the hand is
        over, and say to whom the device goes."""
        player = self.viewer if self.hand.is_over else self.hand.to_move
        self.move_to(intent, PassingDevice(player))
        self.say(text("play.people.pass", name=self.name(player)))

    def show_hand(self) -> None:
        """The player the device was handed to shows their hand: the table is theirs, and tells them what the
        other player did since their last turn, then what they may do."""
        if self.refused("show_hand"):
            return
        mode = self.mode
        assert isinstance(mode, PassingDevice)
        player = mode.player
        self.viewer = player
        self.move_to("show_hand", self._mode_now())
        hand = self.hand
        first = self._first_since_move_of(player)
        words = [entry.text(player) for entry in self.log[first:]]
        if hand.is_over:
            words.append(sentences.end_words(self))
        else:
            words += [sentences.your_turn(self), sentences.what_to_do(self)]
        self._ladder = HintLadder(self._hint_clues)
        self.say(" ".join(word for word in words if word))
        self.marks.after(hand, first, view_before(hand, first, player).squares, self.view().squares, self.rules,
                         self.seq)

    def undo(self) -> None:
        """Take back the viewer's last move (and the computer's replies to it); never between two people, never
        once the hand is over, nor a move before `undo_floor` (offers.py)."""
        if self.refused("undo"):
            return
        hand = self.hand
        replies = 0
        while True:
            mover = hand.movers[-1]
            move = hand.undo()
            if mover == self.viewer:
                break
            replies += 1
        del self.log[len(hand.moves):]
        self.marks.clear()
        self._ladder = HintLadder(self._hint_clues)
        self.move_to("undo", self.retry or self._mode_now())
        self._follow()
        self.say(text("play.undone_with_reply" if replies else "play.undone",
                      move=move_words(move, "undo", self.viewer)))

    def hint(self) -> None:
        """Show the next rung of the hint ladder for the viewer's position."""
        if self.refused("hint"):
            return
        rung, new = self._ladder.climb(len(self.hand.moves))
        words = rung.text
        move = rung.move  # the card it names is picked, as in Learn: one picked before would go where it says
        if self.marks.follow_hint(rung, self.hand.held[self.viewer]) and isinstance(move, (Play, Discard)):
            words = f"{words} {text('play.hint_picked', where=self._places(move.card))}"  # (as a pick says)
        again = "" if new else "_again"  # (a press at the ladder's top shows its last rung again, and says so)
        if self._hint_level:
            self.say(text(f"play.hint_by{again}", rung=rung.level, rungs=self._ladder.size, text=words,
                          level=text(f"levels.in_sentence.{self._hint_level}")))
        else:
            self.say(text(f"play.hint{again}", rung=rung.level, rungs=self._ladder.size, text=words))

    def _hint_clues(self) -> tuple[Move, list[str]]:
        """The hinter's move for the viewer's view now, and its four clues (noting the level that chose it)."""
        assert self.hinter is not None
        found = self.hinter(self.view())
        self._hint_level = found.level
        return found.move, list(found.ladder)

    def next_hand(self) -> None:
        """Deal the next hand of the match (offered once a hand is over and the match goes on)."""
        if self.refused("next_hand"):
            return
        self.last_review = PastHand(self.hand.copy(), self.reviewers, self.match.hand_number)
        dealt = deal_next(self.match)
        self._start_hand(text("play.new_hand", number=dealt.number), "next_hand")

    def new_match(self, rules: RuleSet | None = None, seed: int | str | None = None) -> None:
        """Start a new match, with other rules if given (not at a class table: a new match is a new table)."""
        if self.refused("new_match"):
            return
        self.last_review = None
        self._put_aside("new_match")
        self.match = Match(rules or self.rules, seed=seed, hands=self.hands_per_match)
        self._start_hand(text("play.new_match", rules=text(f"rules.{self.rules.key}")), "new_match")

    def resume(self, match: Match, words: str, opponent: Chooser | None = None, *, opening: bool = False,
               closing: str = "", retold: bool = False) -> None:
        """Go on with `match` as it stands (a saved game), against `opponent` if given; `words` open the message and
        `closing` ends it. With `opening` (a match the people here have made no move in yet, carried into another
        language), the message goes on as when its hand began: who moves first, the moves made so far and what the
        viewer drew; with `retold` (one they have moved in, carried likewise), as when the viewer's turn began: the
        other player's moves since the viewer's last and what the viewer drew then. The moves told are marked on the
        board, as when they were made."""
        self._put_aside("resume")
        if opponent is not None:
            self.set_opponent(opponent)
        self._hold(match)
        told = ([self._who_starts(), *(entry.text(self.viewer) for entry in self.log)] if opening
                else self._since_viewer_moved() if retold else [])
        made = self._first_since_move_of(self.viewer) if retold and told else len(self.hand.moves)
        before = view_before(self.hand, made, self.viewer).squares
        moved = self._advance("resume")  # the computer's moves, if the saved game waited for them
        said = [words, *told, *moved, sentences.prompt(self, drew_now=opening or bool(moved) or bool(told)), closing]
        self.say(" ".join(word for word in said if word))
        self.marks.after(self.hand, made, before, self.view().squares, self.rules, self.seq)

    def take_up(self, match: Match) -> None:
        """Go on with `match` between the two people at this page, as it stands, behind the hand-over screen (a game
        the browser kept through a reload: the device may have changed hands), for the player to move, or the viewer
        once the hand is over; the message says to whom the device goes."""
        if not (self.both_here and isinstance(self.mode, PassingDevice)):
            raise BadIntent("only a match between two people at this page, behind the hand-over screen, is taken up")
        self._hold(match)
        self._behind_screen("take_up")

    def _hold(self, match: Match) -> None:
        """Hold `match` from now on, as it stands: its log, its hints and reviews afresh, nothing marked."""
        self.match, self.last_review = match, None
        self.log, self.search = self._log_of(self.hand), None
        self.marks.clear()
        self._ladder = HintLadder(self._hint_clues)
        self.reviewers = {player: self.make_reviewer(player) for player in self.people_here}

    def _since_viewer_moved(self) -> list[str]:
        """The other player's moves of this hand since the viewer's last one, told to the viewer, while the viewer is
        to move (every move of the hand before the viewer's first; none once the hand is over)."""
        if current_player(self.hand) != self.viewer:
            return []
        return [entry.text(self.viewer) for entry in self.log[self._first_since_move_of(self.viewer):]]

    def _first_since_move_of(self, player: int) -> int:
        """The number of the first move of the hand made since `player`'s last one (0 before their first; the
        number of moves made, if the last move was theirs)."""
        movers = self.hand.movers
        first = len(movers)
        while first > 0 and movers[first - 1] != player:
            first -= 1
        return first

    def turn_so_far(self) -> list[str]:
        """What the viewer is told as their turn began, told again (a match taken up as it was left: the words that
        told the other player's moves may have given way to others before anyone read them): those moves since the
        viewer's last one, what the viewer drew and may do now, or how the hand ended; none while a review is shown."""
        if self.reviewing is not None:
            return []
        told = self._since_viewer_moved()
        return [*told, sentences.prompt(self, drew_now=bool(told))]

    def set_opponent(self, opponent: Chooser, name: str = "", about: str = "") -> None:
        """Play on against another computer player from the next move; with its `name`, the table says so, then
        `about` (how it plays), then where the table stands."""
        player = self.computer_player
        if player is None:
            raise LeopardError("no computer plays at this table")
        seat = self.seats[player]
        assert isinstance(seat, Computer)
        self.move_to("opponent", self.mode)  # every mode with a computer's seat allows it
        seat.chooser = opponent
        if name:  # (then where the table stands: these words take the place of those that said what to do)
            words = " ".join(part for part in (text("play.opponent_changed", name=name), about) if part)
            self.tell_standing(words, after_turn=True)

    def _turn_still_told(self) -> list[str]:
        """The other player's moves since the viewer's last one, while the message shown is the one that told them
        (a level chosen while the computer chose its turn comes straight after those words, before anyone read
        them); else none."""
        if self.marks.moved_seq != self.seq or all(mover == self.viewer for _, mover in self.marks.moved):
            return []
        return self._since_viewer_moved()

    def sit(self, names: Sequence[str], words: str) -> None:
        """The classmate sat down at the table that waited for them: the seats take their names, and the match
        begins; `words` open the message."""
        for player, seat in enumerate(self.seats):
            if isinstance(seat, (PersonHere, PersonElsewhere)):
                seat.name = names[player]
        self._start_hand(words, "sit")

    def seat_computer(self, chooser: Chooser, words: str, hinter: HintFn | None = None) -> None:
        """The person elsewhere has gone: the computer takes their seat and plays on from here, and `hinter` gives
        the hints from now on; `words` open the message."""
        if isinstance(self.mode, Reviewing):  # the review closes: the match goes on under the reviewer's eyes
            self.move_to("review_close", self.mode.back if isinstance(self.mode.back, Closed) else self._mode_now())
        seats = list(self.seats)
        player = next(player for player in (0, 1) if not seats[player].here)
        seats[player] = Computer(chooser)
        self.seats = (seats[0], seats[1])
        self.computer_sat = (self.match.hand_number, len(self.match.current.moves))
        self.hinter = hinter
        self._ladder = HintLadder(self._hint_clues)
        moved = self._advance("seat_computer")  # its moves, if the table waited for the one who has gone
        said = [words, *moved, sentences.prompt(self, drew_now=bool(moved))]
        self.say(" ".join(word for word in said if word))

    def close(self, ending: str, words: str) -> None:
        """A table between classmates ends before its match did (`Closed.ending`): no move is made any more on this
        board; `words` tell the viewer why and what they may do next."""
        if isinstance(self.mode, Reviewing):  # the review stays open; closing it leads to the closed table
            self.move_to("close", replace(self.mode, back=Closed(ending)))
        else:
            self.move_to("close", Closed(ending, self.mode.code if isinstance(self.mode, Seating) else None))
        self.marks.clear()
        self.say(words, "warn")

    # -- the review of a hand, and why the computer moved as it did ------------------------------
    def review_this_hand(self) -> None:
        """Show the review of the viewer's moves in the hand in play (finished or not), refining it for a
        bounded time first."""
        if self.refused("review"):
            return
        self._open_review(self.match.current, self.reviewer, self.match.hand_number, "review")

    def review_last_hand(self) -> None:
        """Show the review of the viewer's moves in the match's previous hand."""
        if self.refused("review_last"):
            return
        past = self.last_review
        assert past is not None
        self._open_review(past.hand, past.reviewers[self.viewer], past.number, "review_last")

    def _open_review(self, hand: Hand, reviewer: HandReview, number: int, intent: str) -> None:
        reviewer.follow(hand)
        review = reviewer.finish(REVIEW_FINISH_SECONDS)
        self.move_to(intent, Reviewing(review, hand.copy(), number, reviewer.player, back=self.mode, reviewer=reviewer))
        self.marks.selected = None
        self._say_step(text("review.opened", summary=review.summary()))

    def review_step(self, by: int) -> None:
        """Show the judgement `by` moves later (or earlier) in the review."""
        if self.refused("review_next" if by > 0 else "review_prev"):
            return
        session = self.reviewing
        assert session is not None
        self._show_step(session, max(0, min(len(session.review.judgements) - 1, session.step + by)))

    def review_next_mistake(self) -> None:
        """Show the next move of the review marked an inaccuracy or worse, its judgement taken as far as a step would
        take it first (`_show_step`): one that this search finds good after all is passed, its mark changed in the list
        too, and the next is searched. The moves passed are searched for `REVIEW_SEEK_SECONDS` at most in all; then the
        next move still marked so is shown as it stands (its judgement says it is not final). Where every later move
        so marked turned out good, the review stays on the move shown and says so."""
        if self.refused("review_mistake"):
            return
        session = self.reviewing
        assert session is not None
        reviewer = session.searching
        deadline = None if reviewer is None else reviewer.clock() + REVIEW_SEEK_SECONDS
        if reviewer is not None:  # the marks as the search has taken them since they were shown
            session = replace(session, review=reviewer.review())
        found, passed = next_mistake(session), 0
        while found is not None and reviewer is not None and deadline is not None:
            left = deadline - reviewer.clock()
            if session.review.judgements[found].final or left <= 0:
                break  # (as it stands: final, or no time left to search it)
            reviewer.refine_move(found, min(REVIEW_STEP_SECONDS, left))
            session = replace(session, review=reviewer.review())
            if session.review.judgements[found].verdict != "good":
                break
            found, passed = next_mistake(session, found), passed + 1
        if found is None:  # every later move marked so is good, searched further (or now): none is left
            self.move_to("review_step", session)
            self._say_step(text("review.none_left", count=passed) if passed else text("review.no_more_mistakes"))
            return
        self.move_to("review_step", replace(session, step=found))
        self._say_step()

    def review_goto(self, step: int) -> None:
        """Show the judgement of the reviewed move number `step` (from 0), pressed in the review's list of moves."""
        if self.refused("review_goto"):
            return
        session = self.reviewing
        assert session is not None
        if not 0 <= step < len(session.review.judgements):
            raise BadIntent(f"there is no move number {step} in this review")
        self._show_step(session, step)

    def _show_step(self, session: Reviewing, step: int) -> None:
        """Show the judgement of move number `step` of the review, its search first taken further for a moment if it
        is not final, and every judgement as the search has taken it since the review was shown."""
        reviewer = session.searching
        if reviewer is not None:
            if not session.review.judgements[step].final:
                reviewer.refine_move(step, REVIEW_STEP_SECONDS)
            session = replace(session, review=reviewer.review())
        self.move_to("review_step", replace(session, step=step))
        self._say_step()

    def _say_step(self, opening: str = "") -> None:
        session = self.reviewing
        assert session is not None
        self.say(self.beside_review(opening) if opening else self._step_words(session))

    @staticmethod
    def _step_words(session: Reviewing) -> str:
        """What the review says of the judgement it shows."""
        judgement = session.judgement
        return text("review.step", number=session.step + 1, steps=len(session.review.judgements),
                    move=move_words(judgement.move, "undo", session.player), mark=drawing.mark_words(judgement),
                    sentence=judgement.sentence)

    def beside_review(self, words: str) -> str:
        """`words`, which are not about the position shown (an opponent chosen, a match taken up, a code ready), as the
        message says them: during a review, followed by the judgement shown, so that the message still speaks of the
        move the turn line names."""
        session = self.reviewing
        return f"{words} {self._step_words(session)}" if session is not None else words

    def tell(self, words: str, *, after_turn: bool = False) -> None:
        """Say `words`, which are not about the position shown, beside the review if one is shown (`beside_review`);
        `after_turn`, words that may come before anyone read the message shown (a menu changed while the computer
        chose its turn, a round elsewhere), follow the other player's moves it still tells (`_turn_still_told`)."""
        kept = self._turn_still_told() if after_turn else []
        self.say(self.beside_review(" ".join(part for part in (*kept, words) if part)))

    def tell_standing(self, words: str, *, after_turn: bool = False) -> None:
        """`tell` `words`, about no move of this turn, then where the table stands (`sentences.as_it_stands`): they
        take the place of the message that said it."""
        self.tell(" ".join(part for part in (words, sentences.as_it_stands(self)) if part), after_turn=after_turn)

    def close_review(self) -> None:
        """Leave the review and go back to the game as it stands."""
        if self.refused("review_close"):
            return
        session = self.reviewing
        assert session is not None
        self.move_to("review_close", session.back if isinstance(session.back, Closed) else self._mode_now())
        self.say(" ".join(words for words in (text("review.closed"), sentences.as_it_stands(self)) if words))

    def try_again(self) -> None:
        """Play on against the computer from exactly the position of the judgement shown: the same cards in
        both hands and the same stock, with hints at hand; the match waits meanwhile."""
        if self.refused("try_again"):
            return
        session = self.reviewing
        assert session is not None
        judgement = session.judgement
        replay = session.hand.copy()
        while len(replay.moves) > judgement.decision.index:
            replay.undo()
        retry = Retrying(replay, judgement.decision.index, judgement, session.number, tuple(self.log))
        self.move_to("try_again", retry)
        self.log = self._log_of(replay)
        self.marks.clear()
        self._ladder = HintLadder(self._hint_clues)
        self.say(text("review.retry.start", step=session.step + 1, number=session.number))

    def leave_retry(self) -> None:
        """Stop trying the position again and go back to the match where it was."""
        if self.refused("retry_close"):
            return
        retry = self.retry
        assert retry is not None
        self.log = list(retry.saved_log)
        self.move_to("retry_close", self._mode_now())
        self.marks.clear()
        self._ladder = HintLadder(self._hint_clues)
        self.say(text("review.retry.back"))

    def why(self) -> None:
        """Say why the computer made each move of its last turn (every play of a Running Leopard turn, and its end),
        each from what it could see then."""
        if self.refused("why"):
            return
        computer = self.computer_player
        assert computer is not None
        self.tell_standing(why_turn(self.hand, computer, self.computer_from).sentence)

    def _follow(self) -> None:
        """Bring the reviews of the match's hand up to date (the cheap pass) and let the search go on when idle."""
        if self.retry is None:
            for reviewer in self.reviewers.values():
                reviewer.follow(self.match.current)
            if self.background is not None:
                self.background.poke()

    def _refine_reviews(self, seconds: float) -> bool:
        """Background work: the expert's search for this hand's reviews, then the last hand's."""
        if any(reviewer.refine(seconds) for reviewer in self.reviewers.values()):
            return True
        past = self.last_review
        return past is not None and any(reviewer.refine(seconds) for reviewer in past.reviewers.values())

    # -- inside --------------------------------------------------------------------------------
    def move_to(self, intent: str, mode: Mode) -> None:
        """Put the table in `mode` by `intent`, as the transition table allows from the mode it is in; a
        `TransitionError` (a fault in the program) otherwise. The one place the mode changes once the table is
        made."""
        machine.check_move(self.mode, intent, mode)
        self.mode = mode

    def _put_aside(self, intent: str) -> None:
        """Before another match: a review shown, a position tried again or a device being passed is put aside."""
        retry = self.retry
        if retry is not None:
            self.log = list(retry.saved_log)
        if isinstance(self.mode, (Reviewing, Retrying, PassingDevice)):
            self.move_to(intent, Playing())

    def _start_hand(self, opening: str, intent: str) -> None:
        self.log, self.search = [], None
        self.marks.clear()
        self._ladder = HintLadder(self._hint_clues)
        self.reviewers = {player: self.make_reviewer(player) for player in self.people_here}
        hand = self.hand
        if self.both_here:
            self.move_to(intent, PassingDevice(hand.to_move))
            self._follow()
            self.say(" ".join([opening, text("play.people.pass", name=self.name(hand.to_move))]))
            return
        words = [opening, self._who_starts()]
        before = self.view().squares
        player = current_player(hand)
        if self.on_thinking is not None and player is not None and isinstance(self.seats[player], Computer):
            self.move_to(intent, Playing())  # the new hand is shown while the computer chooses its first turn
            words += self._advance_shown(0, before, "receive")
        else:
            words += self._advance(intent)
        words.append(sentences.prompt(self))
        self._follow()
        self.say(" ".join(word for word in words if word))
        self.marks.after(hand, 0, before, self.view().squares, self.rules, self.seq)

    def _who_starts(self) -> str:
        """Who makes the hand's first move, as its opening says it to the viewer ("" for the other person at a table
        between people, whose turn is told when it comes)."""
        hand = self.hand
        first = hand.movers[0] if hand.moves else hand.to_move
        if first != self.viewer:
            return "" if self.between_people else text("play.they_start")
        return sentences.your_turn(self) if self.between_people else text("play.you_start")

    def _advance(self, intent: str) -> list[str]:
        """Ask the seat to move for its moves while the answers come at once (a computer), then set the mode
        (by `intent`): the hand goes on (the viewer's move, or a seat elsewhere's), the device is to be handed
        over, or the hand or the match is over. The words for the viewer of every move made."""
        hand = self.hand
        computers = [seat for seat in self.seats if isinstance(seat, Computer)]
        for seat in computers:
            seat.start_tally()
        words: list[str] = []
        while (player := current_player(hand)) is not None:
            play_turn(hand, player, partial(self._ask, player), partial(self._made, player, words))
            if current_player(hand) == player:
                break  # the seat answers later (the person here, or a seat elsewhere)
        tallies = [found for found in (seat.tally() for seat in computers) if found is not None]
        self.search = tallies[0] if tallies else None
        self.move_to(intent, self.retry or self._mode_now())
        return words

    def _advance_shown(self, made: int, before: Sequence[Square], intent: str) -> list[str]:
        """`_advance`, the table shown to `on_thinking` while a computer chooses (its moves from move number `made` of
        the hand, the squares as the viewer saw them `before` it)."""
        self._thinking_since = (made, before)
        self._thinking()
        try:
            return self._advance(intent)
        finally:
            self._thinking_since = None

    def _thinking(self) -> None:
        """Show the table to `on_thinking` while a computer is to choose a move in reply to the viewer's."""
        if self.on_thinking is not None and self._thinking_since is not None and self.choosing:
            self.on_thinking(drawing.thinking_state(self, *self._thinking_since))

    def _ask(self, player: int) -> Move | None:
        """The move of `player`'s seat in their view of the hand, or None where it answers later."""
        return self.seats[player].ask(self.hand.view(player))

    def _made(self, player: int, words: list[str], move: Move) -> None:
        """Make `player`'s move (`_apply`) and add its words for the viewer to `words` (the table shown meanwhile if a
        computer chooses next: `_thinking`)."""
        words.append(self._apply(move, player)[self.viewer])
        self._thinking()

    def _mode_now(self) -> Mode:
        """The mode the match's hand puts the table in, from the turn runner: the hand or the match over, the
        device to be handed over to the other person here, else playing (the viewer's move, or the move of a
        seat that answers later: a computer is never left to move, it answers when asked)."""
        player = current_player(self.match.current)
        if player is None:
            return MatchFinished() if self.match.is_over else HandFinished()
        if self.seats[player].here and player != self.viewer:
            return PassingDevice(player)
        return Playing()

    def _apply(self, move: Move, mover: int) -> tuple[str, str]:
        """Make `move` of `mover` through the turn runner and log it: the words for each person at the table
        ("" for the computer)."""
        entry = self._told(self.hand, move, mover, None if self.retry is not None else self.match)
        self.log.append(entry)
        return entry.told

    def _told(self, hand: Hand, move: Move, mover: int, match: Match | None = None) -> LogEntry:
        """Make `move` of `mover` in `hand` through the turn runner (the hand of `match`, if given) and tell it to
        each person at the table ("" for the computer)."""
        readers = [player for player in (0, 1) if not isinstance(self.seats[player], Computer)]
        before = {reader: hand.view(reader).squares for reader in readers}
        public = [public_square(hand, owner) for owner in (0, 1)] if self.both_here else []
        value = hand.value(mover)
        passed = any(isinstance(event, Passed) for event in apply_move(hand, move, match))
        told = tuple(narrate(move, mover, reader, before[reader], hand.view(reader).squares, self.rules,
                             went_out_value=value, other=self.name(1 - reader), passed=passed).text
                     if reader in readers else "" for reader in (0, 1))
        shared = ""
        if public:  # both players here: the hand-over screen's words, which the one who moved reads too
            after = [public_square(hand, owner) for owner in (0, 1)]
            shared = narrate(move, mover, 1 - mover, public, after, self.rules, went_out_value=value,
                             other=self.name(mover), passed=passed).text
            if isinstance(move, Play) and move.square_owner != mover:  # "your square": said to the player to come
                shared = text("play.people.told_to", name=self.name(1 - mover), words=shared)
        return LogEntry(mover, (told[0], told[1]), shared)

    def retell(self) -> None:
        """Tell the moves of the hand shown again, in the catalogue's language now (the page drawn in another language
        takes this very table up)."""
        self.log = self._log_of(self.hand)

    def _log_of(self, hand: Hand) -> list[LogEntry]:
        """The log of the moves `hand` has had so far, told again from its deal (a saved game resumed, a position
        of a review tried again)."""
        replay = hand.copy()
        made = list(zip(replay.movers, replay.moves, strict=True))
        while replay.moves:
            replay.undo()
        return [self._told(replay, move, mover) for mover, move in made]

def against_computer(opponent: Chooser, **options: Any) -> Table:
    """A table where the learner (player 0) plays `opponent`; `options` as for `Table`."""
    return Table((PersonHere(), Computer(opponent)), **options)


def at_one_device(names: Sequence[str] = ("", ""), **options: Any) -> Table:
    """A table where two people take turns with this page, named `names` ("" for "Player 1" / "Player 2");
    `options` as for `Table`. A bad name is a `LeopardError`."""
    first, second = (player_name(name, "") for name in names)
    _distinct(second or _default_name(1), first or _default_name(0))
    return Table((PersonHere(first), PersonHere(second)), **options)


def _default_name(player: int) -> str:
    """The name of a person at this page who gave none: "Player 1" or "Player 2"."""
    return text("play.people.default", number=player + 1)


def _distinct(name: str, other: str) -> None:
    """Refuse (a `LeopardError`) `name` for one of two people at this page when the other goes by it already, or by a
    name that reads alike (`class_codes.name_key`): each turn would name them both alike."""
    if name_key(name) == name_key(other):
        raise LeopardError(key="play.people.name_taken", facts={"name": other})
