"""`ClassTable`: this page's seat at a table between classmates, whose every move the server's tables decide and store
(`server/referee.py`). It is a `Table` whose other seat is a person elsewhere; the person here moves by clicks as at
any table, and each of their moves is stored first (`record`, which raises if the server refuses it) and made here
only then. The other player's moves, as the server stored them, come through `update` (the class panel's reports,
handed over between two clicks), and are made here through `Table.receive`. The match's next deal is a move too:
whoever asks for it first stores it; the other's table deals it when its player asks. A table opened by the person
here waits for the classmate (`Seating`) and shows no game until they sit down (`Table.sit`). When the server closes
the table after the match's last move (`end_of_match`), the moves not made here yet are still made, and then the
table stores nothing more: the board keeps the match's end.

Once the computer has taken a gone classmate's seat (`seat_computer`), the match is this page's alone: the server
recorded only how the table ended. What the page keeps of it besides the match (`ComputerFinish`: the table's code,
the seats, the names and when the computer sat) lets it take the match up again after a reload
(`ClassTable.taken_up`), where it was or as it ended.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..class_codes import ClassTableError, valid_code, valid_name
from ..engine import LeopardError, Match, Move
from ..engine.catalogue import text
from ..engine.match import LOST, WON
from ..engine.moves import NEXT_HAND, move_from_data, move_to_data
from ..protocol import COMPUTER, EVERYONE_GONE_SECONDS, FINISHED, GONE_SECONDS, LEFT
from . import sentences
from .modes import BY_TEACHER, ELSEWHERE, LEFT_HERE, Closed, HandFinished, Playing, Reviewing, Seating
from .seats import Chooser, Computer, PersonElsewhere, PersonHere
from .table import HintFn, Table

StoreMove = Callable[[int, dict[str, Any]], None]
"""`store_move(number, move)`: store this page's move as the table's move `number`, or raise a `LeopardError`."""


CLOSED_WHY = ("abandoned", "damaged", "forgotten", "nobody_joined", "teacher")
"""The server's endings of a table (spaces as "_") that close it for a reason of its own, said under
"classmates.closed_why"."""


def away_words(report: Mapping[str, Any]) -> str:
    """What a student is told of their table that closed while they were away (a report with "ended", "gone" and
    "counts": `Referee.report`): that their classmate played its match on against the computer, so that it counts
    as lost for them, that both had gone, so that it counts for nobody, or that their teacher ended it, so that no
    result of it is counted (only if no page of theirs was told so, the report's "told": one that was had been there
    when it closed, and said it in the present, `closed_on_server`); "" for any other ending (one they saw, or were
    told of at their table, or a table nobody else sat at)."""
    code, seat, names = report.get("table"), report.get("seat"), report.get("names") or ["", ""]
    if code is None or seat not in (0, 1) or not names[1 - seat]:  # (nobody else ever sat there)
        return ""
    other, ending = names[1 - seat], str(report.get("ended"))
    if ending.startswith(COMPUTER) and report.get("gone") == seat and report.get("counts") == "lost":
        return text("classmates.while_away.computer", name=other, code=code)
    if ending == "abandoned" and report.get("counts") is None:
        return text("classmates.while_away.abandoned", name=other, code=code)
    if ending == "teacher" and report.get("counts") is None and not report.get("told"):
        return text("classmates.while_away.teacher", code=code)
    return ""


def shown_again(report: Mapping[str, Any]) -> bool:
    """Whether a page opened after the visitor's table closed (a reload, a new tab: `ClassPanel.resume`) shows that
    table's match where it stood, as their page showed it when it closed (`ClassTable.closed_on_server` says how it
    closed, and offers.py what it offers then, Finish against the computer included): a table a classmate sat at,
    whose match did not finish (a finished match's end is not shown again), whose moves the server still holds (not
    "damaged"), that closed while the student was at it (one that closed while they were away is told in words,
    `away_words`), and whose match they have not taken on against the computer (the report's "taken": the page that
    did keeps it, `match_keeper.py`)."""
    names, ending = report.get("names") or [None, None], report.get("ended")
    return (report.get("table") is not None and ending not in (None, FINISHED, "damaged") and bool(names[1])
            and report.get("seat") in (0, 1) and not report.get("taken") and not away_words(report))


@dataclass(frozen=True)
class ComputerFinish:
    """A class table whose gone classmate's seat the computer took: the table's code, the seat of the person here,
    both names as they were at the table, and when the computer sat (`Table.computer_sat`: the hand's number and how
    many of its moves had been made)."""

    code: str
    seat: int
    names: tuple[str, str]
    sat: tuple[int, int]

    def to_data(self) -> dict[str, Any]:
        """As JSON data (`read`)."""
        return {"table": self.code, "seat": self.seat, "names": list(self.names), "sat": list(self.sat)}

    @classmethod
    def read(cls, data: object, match: Match) -> ComputerFinish:
        """`to_data`'s data, for `match` (the computer sat in one of its hands, at most as far as it has gone); a
        `LeopardError` if it is not such data."""
        try:
            if not isinstance(data, dict):
                raise LeopardError("not an object")
            seat, names, sat = data["seat"], data["names"], data["sat"]
            if seat not in (0, 1) or isinstance(seat, bool) or not isinstance(names, list) or len(names) != 2:
                raise LeopardError("no seat and two names")
            if not (isinstance(sat, list) and len(sat) == 2
                    and all(isinstance(number, int) and not isinstance(number, bool) for number in sat)):
                raise LeopardError("no hand and move the computer sat at")
            hand, moves = sat
            made = [len(played.moves) for played in match.hands_played]
            if not match.current.is_over:
                made.append(len(match.current.moves))
            if not (1 <= hand <= len(made) and 0 <= moves <= made[hand - 1]):
                raise LeopardError("the computer sat where the match never was")
            return cls(valid_code(data["table"]), seat, (valid_name(names[0]), valid_name(names[1])), (hand, moves))
        except (KeyError, ClassTableError) as error:
            raise LeopardError(f"not a class table the computer finished ({error})") from None


class ClassTable(Table):
    """The person here in `seat`, named `names[seat]`, against the classmate `names[1 - seat]` elsewhere (with
    `seating`, the table's code: waiting for the classmate, whose name is not known yet)."""

    for_classmates = True

    def __init__(self, seat: int, names: Sequence[str], store_move: StoreMove | None, **options: Any) -> None:
        """`options` as for `Table` (rules, seed and hands: the table's, as the server has them; `seating`); no
        `store_move` where the server no longer takes the table's moves (`taken_up`)."""
        here, there = PersonHere(names[seat]), PersonElsewhere(names[1 - seat] or "", lambda _view: None)
        self.store_move: StoreMove | None = store_move
        self.made = 0  # moves of the server's list made here
        self.pending: list[dict[str, Any]] = []  # the server's moves not yet made here
        self.dealers: list[int] = []  # the seat whose page dealt each next hand, as the server last said
        self.replaying = False  # the page's own stored moves are being made again (after a reload)
        self.match_closed = False  # the server closed the table after the match's last move
        self.code: str = options.get("seating") or ""
        """The server's table code ("" where none was given)."""
        self.finish: ComputerFinish | None = None
        """Once the computer took the classmate's seat: what this page keeps to take the match up again."""
        super().__init__((here, there) if seat == 0 else (there, here), **options)

    @property
    def seat(self) -> int:
        """The seat of the person here."""
        return self.viewer

    @property
    def next_dealt(self) -> bool:
        """Whether the classmate has dealt the next hand, which waits here until the person here asks for it."""
        return bool(self.pending) and self.pending[0] == NEXT_HAND and not self._dealt_by_me()

    def _dealt_by_me(self) -> bool:
        """Whether the next deal waiting here was made by the person here, in another page of theirs."""
        index = self.match.hand_number - 1  # (the deals made so far: one for each hand after the first)
        return index < len(self.dealers) and self.dealers[index] == self.viewer

    @property
    def at_class_table(self) -> bool:
        """Whether the server stores this table's moves (until it closes, the computer takes the classmate's seat,
        or every move of a match the server closed has been made here)."""
        return self.store_move is not None

    @property
    def server_table_open(self) -> bool:
        """Whether the server's table is still open: its moves stored, its match not closed by the server."""
        return self.store_move is not None and not self.match_closed

    @property
    def stored(self) -> int:
        """How many of the table's moves this page knows of (made here or waiting to be)."""
        return self.made + len(self.pending)

    # -- the server's moves ----------------------------------------------------------------------------
    def handle(self, intent: Mapping[str, Any]) -> None:
        """As every table, then the other's moves that can now be made (after a review closed, a next deal)."""
        super().handle(intent)
        self.catch_up()

    def update(self, moves: Sequence[dict[str, Any]], *, replay: bool = False, dealers: Sequence[int] = ()) -> bool:
        """The table's moves as the server stored them (and the seat that dealt each next hand, `dealers`): make the
        ones not made here yet, as far as they can be made now (the other's move while this page waits for it, or
        one the person here made in another page; a next deal once the person here asks, at once where they dealt
        it in another page, or at once with `replay`, when the page is rebuilding the match after a reload). Whether
        anything changed."""
        self.dealers = [int(seat) for seat in dealers]
        before, dealt = self.made, self.next_dealt
        self.pending.extend(dict(move) for move in moves[self.stored:])
        self.catch_up(replay=replay)
        if self.next_dealt and not dealt and isinstance(self.mode, HandFinished):
            self.say(sentences.hand_over_words(self))
            return True
        if self.next_dealt and not dealt and isinstance(self.mode, Reviewing):  # (beside the judgement shown)
            self.tell(text("classmates.next_dealt_review", name=self.name(1 - self.viewer),
                           number=self.match.hand_number + 1))
            return True
        return self.made != before

    def catch_up(self, replay: bool = False) -> None:
        """Make the server's moves not made here yet, as far as the table can make them now; once the server has
        closed the table after the match's last move and every move is made here, store nothing more."""
        self._make_pending(replay)
        if self.match_closed and not self.pending:
            self.store_move = None

    def _make_pending(self, replay: bool) -> None:
        while self.pending and self.store_move is not None:
            data = self.pending[0]
            if data == NEXT_HAND:
                follow = self._dealt_by_me() and isinstance(self.mode, HandFinished)  # (dealt in another page)
                if not ((replay or follow) and self.match.current.is_over and not self.match.is_over):
                    return
                self.pending.pop(0)
                self.made += 1
                self._replay(super().next_hand)
                continue
            if not isinstance(self.mode, Playing):
                return  # a review is open (the move is made once it is closed), or the hand is over
            mover = self.hand.to_move
            move = move_from_data(data)
            self.pending.pop(0)
            self.made += 1
            if mover == self.viewer:  # (a reload's own moves, or one made in another tab of this student's)
                self._replay(partial(self.make, move))
            else:
                self.receive(mover, move)

    def _replay(self, change: Callable[[], None]) -> None:
        """Make a change the server already holds, without storing it again."""
        self.replaying = True
        try:
            change()
        finally:
            self.replaying = False

    # -- the person here -------------------------------------------------------------------------
    def record(self, player: int, move: Move) -> None:
        """A move of the person here is stored first (a refusal raises, and nothing changes); then made."""
        if self.store_move is not None and not self.replaying:
            self.store_move(self.made, move_to_data(move))
            self.made += 1

    def next_hand(self) -> None:
        """Deal the next hand: the one the classmate already dealt, or a deal stored first."""
        if self.refused("next_hand"):
            return
        if self.store_move is not None:
            if self.pending and self.pending[0] == NEXT_HAND:
                self.pending.pop(0)
            else:
                self.store_move(self.made, dict(NEXT_HAND))
            self.made += 1
        super().next_hand()

    def seat_computer(self, chooser: Chooser, words: str, hinter: HintFn | None = None) -> None:
        """The classmate has gone: the computer takes their seat and plays on from here (hints by `hinter`); the
        moves are no longer the server's, and the page keeps them (`finish`)."""
        self.store_move, self.pending = None, []
        names = (self.seats[0].name, self.seats[1].name)
        super().seat_computer(chooser, words, hinter)
        assert self.computer_sat is not None
        self.finish = ComputerFinish(self.code, self.seat, names, self.computer_sat)

    @classmethod
    def taken_up(cls, finish: ComputerFinish, match: Match, chooser: Chooser, words: str,
                 **options: Any) -> ClassTable:
        """The match of a class table whose classmate's seat the computer took (`finish`), as a page kept it
        (`match`, where it was or as it ended), the computer (`chooser`) in that seat again; nothing of it is stored on
        the server. `words` open the message; `options` as for `Table` (hints, reviews, background search)."""
        table = cls(finish.seat, finish.names, None,
                    **{**options, "rules": match.rules, "seed": match.seed, "hands": match.hands})
        table.code, table.finish = finish.code, finish
        seats = list(table.seats)
        seats[1 - finish.seat] = Computer(chooser)
        table.seats, table.computer_sat = (seats[0], seats[1]), finish.sat
        table.resume(match, words)
        return table

    def end_of_match(self, moves: Sequence[dict[str, Any]]) -> None:
        """The server closed the table after the match's last move (`moves`: every move of the match): the ones not
        made here yet are made as the table comes to them (at once, or once a review here is closed or the person
        here deals the next hand), and then nothing more is stored; the board keeps the match's end."""
        self.match_closed = True
        self.update(moves)

    def take_names(self, names: Sequence[str | None]) -> bool:
        """The server's names of both seats (a player renamed themselves, or the teacher renamed them, during the
        match): each person's seat takes its name (the board names them anew), and so do the message's sentences
        about the moment: the greeting of the viewer whose turn it is (`sentences.your_turn`), whose move the table
        waits for, or how the hand ended (`sentences.prompt`; also the answer to a click out of turn,
        `sentences.not_now`), each wherever it stands in the message (the last time it is said); the move log is told
        anew under the names now (under the old one, its lines named a player nobody at the table was called any
        more); what the message says of moves already made stays as it was said. Whether a name changed."""
        playing = not isinstance(self.mode, Seating)  # (a hand is dealt)
        before = self._named_now() if playing else []
        changed = False
        for player, name in zip(self.seats, names, strict=True):
            if name and isinstance(player, (PersonHere, PersonElsewhere)) and player.name != name:
                player.name, changed = str(name), True
        if changed and playing:
            self.retell()
            message = self.message
            for old, new in zip(before, self._named_now(), strict=True):
                if old and old != new and old in message:  # (more may follow it: a match kept aside, say)
                    head, _, tail = message.rpartition(old)
                    message = head + new + tail
            if message != self.message:
                self.say(message, self.tone)
        return changed

    def _named_now(self) -> list[str]:
        """The sentences about the moment that name a player, as `take_names` rewrites them."""
        return [sentences.your_turn(self), sentences.prompt(self), sentences.not_now(self)]

    def close(self, ending: str, words: str) -> None:
        """The table has closed on the server: no move is stored or made here any more."""
        self.store_move, self.pending = None, []
        super().close(ending, words)

    def closed_on_server(self, report: Mapping[str, Any] | None, code: str, left: bool = False) -> str | None:
        """The server closed this table, `code` (`report`: its word on the visitor's table, with its moves, how it
        ended and who had gone; `left`: this page left it). A finished match keeps its end (`end_of_match`; None is
        returned); any other closing closes the table (`close`) with the sentence that says how, which is returned:
        left by the student (in this page or another of theirs), played on against the computer by them in another
        page (when they ended it so, or once it had closed: the report's "taken") or by the classmate while they were
        away, closed for a reason of the server's, or left by the classmate (the computer may finish the match then)."""
        told = report if report is not None and report.get("table") == code else {}
        ending, went = told.get("ended"), told.get("gone")
        seating = self.mode == Seating(code)
        if ending == FINISHED and not seating:
            self.end_of_match(told.get("moves") or [])
            return None
        why = str(ending).replace(" ", "_")
        if left or (ending == LEFT and went == self.seat):  # a match two sat at is lost by who leaves it
            lost = not seating and (told.get("counts") == LOST if told else left)
            words, mode = text("classmates.left_lost" if lost else "classmates.left", code=code), LEFT_HERE
        elif told.get("taken") or (str(ending).startswith(COMPUTER) and went == 1 - self.seat):
            words, mode = text("classmates.taken_elsewhere", code=code), ELSEWHERE
        elif str(ending).startswith(COMPUTER) and went == self.seat:
            words, mode = away_words(told), "ended"
        elif why in CLOSED_WHY:
            by_teacher = why in ("teacher", "forgotten")  # (ended, or cleared with the class)
            gone = GONE_SECONDS if seating else EVERYONE_GONE_SECONDS  # (nobody joined: its host gone sooner)
            facts = {"minutes": round(gone / 60)} if why == "abandoned" else {}
            words = text(f"classmates.closed_why.{why}", code=code, **facts)
            mode = BY_TEACHER if by_teacher else "ended"
        elif seating or ending is None:
            words, mode = text("classmates.ended", code=code), "ended"
        else:
            won = "classmates.other_left_won" if told.get("counts") == WON else "classmates.other_left"
            words, mode = text(won, name=self.name(1 - self.seat), code=code), "other_left"
        self.close(mode, words)
        return words

    def taken_elsewhere(self, code: str) -> bool:
        """The server says the person here took the match of this table, `code`, which had closed before it ended, on
        against the computer in another page of theirs: a board here that still offers it (closed, the computer not
        seated here) closes as taken on elsewhere (`ELSEWHERE`), which offers it no more. Whether it did."""
        mode = self.mode.back if isinstance(self.mode, Reviewing) else self.mode
        if self.computer_sat is not None or not isinstance(mode, Closed) or mode.ending == ELSEWHERE:
            return False
        self.close(ELSEWHERE, text("classmates.taken_elsewhere", code=code))
        return True
