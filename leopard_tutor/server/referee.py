"""The referee: the one authority over every table between classmates on a class server (a page's own seat at
one of them is `table/class_table.py`'s `ClassTable`).

The server process holds a `Referee`; each page's kernel asks it (through the handlers in
`class_handlers.py`) to open a table, join one, move, or tell it what changed. A visitor (a browser) is
known by its Jupyter identity, proven by the kernel it was given, so a reload, a new kernel or a server
restart finds the same seat. The engine here decides every move: a move is taken only from the seat
whose turn it is, numbered as the next move of the table (a replay or a stale move is refused), legal
under the rules, and stored (`class_store.py`) before anyone is told of it. After a restart each live
table is rebuilt from its stored moves.

A table's life has an end, each closing it for both seats at once and freeing both players to open or join another;
the row keeps how it ended: "finished" (the match's last move was made; the row keeps both seats' final totals),
"left" (a player left it), "computer:LEVEL" (a player finished against the computer, the other gone), "abandoned"
(every player at it gone `EVERYONE_GONE_SECONDS`, counted from the restart after one; a table nobody joined, its
host gone `GONE_SECONDS`), "nobody joined"
(`UNJOINED_SECONDS`), "teacher" (the teacher ended it: `end_by_teacher`, `end_round`) and "forgotten" (the teacher
forgot the class). A table nobody joined leaves no row. A closed
table rests `QUIET_SECONDS`: its players still read it (its moves and how it ended: the page that did not make the
last move sees it), its code is not given again and its moves are kept (a player whose match it cut short may take it
on against the computer, in one page of theirs: `take_on`, which the row keeps); then its moves go, and its row stays
as the record (with each finished hand's scores and the seat that ended it, if a player did: what the class's standings
read, `standings.py`). Codes are drawn at random, a bounded number of times (`CODE_DRAWS`), among those neither live
nor resting. Its host chooses the match's length (`MATCH_LENGTHS`); whoever joins plays that length.

The teacher may also pair the class (`pair`): a round seats every student present and at no table with a classmate
(`pairing.py`: no repeated opponent while it can, a round robin, then by score), both seats at once, or the one left
over against the computer (which their own kernel plays). The rounds and each student's seat in them are stored;
a student's report says their seat in the latest round, and their kernel waits for a change of its report (`state`)
whether or not they sit at a table, so a page moves to its table by itself.

What a kernel is sent about a table (`Referee.report`) holds the deal's seed and the moves: a kernel is
the server's own process and shows its page only its seat's view (`engine.view`); no page is sent either.

Stdlib only (no Jupyter, no tornado), so it is tested without a server.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from typing import Any

from ..class_codes import CODE_COUNT, ClassTableError, code_of, valid_code, valid_name
from ..engine import RULE_SETS, LeopardError, Match, Move
from ..engine.errors import SavedGameError
from ..engine.moves import NEXT_HAND, move_from_data
from ..engine.turns import apply_move, current_player, deal_next
from ..protocol import (
    COMPUTER,
    EVERYONE_GONE_SECONDS,
    FINISHED,
    GONE_SECONDS,
    LEFT,
    LEVELS,
    MATCH_LENGTHS,
    PAIRED,
    match_key,
)
from .class_store import (
    ABANDONED,
    DAMAGED,
    FORGOTTEN,
    TEACHER,
    ClassStore,
    RoundMatch,
    RoundRow,
    RoundSeat,
    TableRow,
)
from .pairing import met_counts, pair_round
from .standings import Standing, gone_seat, results, standings, tally

UNJOINED_SECONDS = 30 * 60
"""A table nobody joins closes after this long."""
QUIET_SECONDS = GONE_SECONDS * 5
"""How long a closed table rests: its players may still read it, its code is not given again, its moves are kept."""
TALLIES_KEPT = 4
"""The standings' counts kept at most (by the time they count from), read again once a table closes."""
CODE_DRAWS = 64
"""How many random codes opening a table tries before it refuses ("no_codes"), however many codes are in use."""


log = logging.getLogger(__name__)

COMPUTER_ENDINGS = tuple(COMPUTER + level for level in LEVELS)
"""How a table ends when the computer takes a gone player's seat, at each level it may play."""


@dataclass
class LiveTable:
    """A table in play: its stored row, its match as the engine has it, its moves (as stored), when each seat
    was last heard from, and a counter that grows with every change (the kernels wait for it)."""

    row: TableRow
    match: Match
    moves: list[dict[str, Any]] = field(default_factory=list)
    dealers: list[int] = field(default_factory=list)
    """The seat whose page dealt each next hand, in order (a student's other tab follows a deal of its own)."""
    seen: list[float] = field(default_factory=lambda: [0.0, 0.0])
    version: int = 0

    def gone(self, seat: int, now: float, after: float = GONE_SECONDS) -> bool:
        """Whether the player in `seat` has not been heard from for `after` seconds at `now`."""
        return now - self.seen[seat] >= after

    def abandoned(self, now: float) -> bool:
        """Whether every player at the table is gone at `now`: `EVERYONE_GONE_SECONDS` for a match in play,
        `GONE_SECONDS` for its host alone at a table nobody joined."""
        after = GONE_SECONDS if self.row.visitors[1] is None else EVERYONE_GONE_SECONDS
        return all(self.gone(seat, now, after) for seat in self.seated)

    def seat_of(self, visitor: str) -> int | None:
        """The seat `visitor` sits in here, if any."""
        return next((seat for seat in (0, 1) if self.row.visitors[seat] == visitor), None)

    @property
    def seated(self) -> tuple[int, ...]:
        """The seats someone sits in."""
        return (0,) if self.row.visitors[1] is None else (0, 1)


@dataclass(frozen=True)
class ClosedTable:
    """A table that closed `at`, as its players may read it while it rests: its row (how it ended), its last
    version, the visitors whose page has been told how it ended (a report of it read by a kernel whose page was
    connected: `Referee.report`'s "told"), and those who took its match on against the computer since it closed
    (`Referee.take_on`)."""

    row: TableRow
    version: int
    at: float
    told: set[str] = field(default_factory=set)
    taken: set[str] = field(default_factory=set)


def round_match(row: RoundRow, seed: str) -> RoundMatch:
    """The match against the computer round `row` gave a student on the deal `seed`: its id as a page counts it
    (`protocol.match_key` of the round's rules and hands and that deal)."""
    return RoundMatch(row.number, match_key(row.rules, row.hands, seed))


class Referee:
    """Every live class table of this server, kept in `store`; at most `limit` tables at once."""

    def __init__(self, store: ClassStore, *, limit: int = 1000, clock: Callable[[], float] = time.time,
                 changed: Callable[[str], None] = lambda visitor: None,
                 here: Callable[[], Collection[str]] = frozenset) -> None:
        """`changed(visitor)` is called after every change to what `visitor`'s report says: their table, their seat
        in a round (the handlers wake the kernels that wait on it). `here()`: the visitors with a page connected now
        (`SessionBook.connected_visitors`): each is heard from now, whether or not their kernel has asked since."""
        self.store, self.limit, self.clock, self.changed, self.here = store, limit, clock, changed, here
        self.tables: dict[str, LiveTable] = {}
        """The live tables by code."""
        self.seats: dict[str, LiveTable] = {}
        """The live table of each visitor who sits at one."""
        self.resting: OrderedDict[str, ClosedTable] = OrderedDict()
        """The codes of the tables closed less than `QUIET_SECONDS` ago: (when it closed, its id), oldest first."""
        self.tallies: dict[float | None, dict[str, Standing]] = {}
        """The matches counted for the standings since a time (None: ever), until a table closes."""
        self.last: OrderedDict[str, ClosedTable] = OrderedDict()
        """The table each visitor last sat at, closed less than `QUIET_SECONDS` ago (none once they sit at
        another), oldest first."""
        latest = store.latest_round()
        self.round: RoundRow | None = None if latest is None else latest[0]
        """The round paired last, if any."""
        self.round_seats: dict[str, RoundSeat] = {} if latest is None else {seat.visitor: seat for seat in latest[1]}
        """Each student's seat in `round`."""
        now = self.clock()
        for row in store.closed_since(now - QUIET_SECONDS):
            assert row.ended is not None
            # who was told before the restart is kept with the table: the others are still told, once
            self._rest(ClosedTable(row, 0, row.ended, {row.visitors[seat] or "" for seat in row.told},
                                   {row.visitors[seat] or "" for seat in row.taken}))
        for row in store.live_tables():
            try:
                live = self._rebuild(row)
            except (LeopardError, LookupError, TypeError, ValueError) as error:
                self._close_damaged(row, error)
                continue
            self._sit(live)
        store.drop_moves_ended_before(now - QUIET_SECONDS)

    def _close_damaged(self, row: TableRow, error: Exception) -> None:
        """A stored table whose match cannot be made again (a move the engine refuses now, a move or rule set that
        cannot be read: a restored backup, a hand's edit, a change of the rules over a term) closes as "damaged",
        its moves dropped, said in one log line, and the server starts for everyone else."""
        now = self.clock()
        log.warning("Table %s closed at the start: its stored match cannot be made again (%s)", row.code,
                    type(error).__name__ if not isinstance(error, LeopardError) else error)
        self.store.end_table(row.id, now, DAMAGED, None, (), None)
        self.store.drop_moves([row.id])  # nothing is read from them again
        self._rest(ClosedTable(replace(row, ended=now, ending=DAMAGED, scores=None, hand_scores=(), ended_by=None),
                               0, now))

    def _rebuild(self, row: TableRow) -> LiveTable:
        """A stored table with its stored moves made again (each one checked by the engine again)."""
        live = LiveTable(row, Match(RULE_SETS[row.rules], seed=row.seed, hands=row.hands))
        now = self.clock()
        live.seen = [now, now]  # a restarted server gives both players their full time to reload their pages
        for stored in self.store.moves(row.id):
            self._make(live, stored.player, stored.move)
            live.moves.append(stored.move)
            if stored.move == NEXT_HAND:
                live.dealers.append(stored.player)
        return live

    def _sit(self, live: LiveTable) -> None:
        """Count `live` among the live tables, and its players as seated there (their last table forgotten)."""
        self.tables[live.row.code] = live
        for visitor in live.row.visitors:
            if visitor is not None:
                self.seats[visitor] = live
                self.last.pop(visitor, None)

    def _rest(self, closed: ClosedTable) -> None:
        """Let the closed table rest: its code not given again, its players able to read it."""
        self.resting[closed.row.code] = closed
        for visitor in closed.row.visitors:
            if visitor is not None:
                self.last[visitor] = closed
                self.last.move_to_end(visitor)

    # -- reading ------------------------------------------------------------------------------
    def closed_lately(self) -> list[ClosedTable]:
        """The tables two players sat at that closed within `QUIET_SECONDS` (they rest), the latest first; not those
        the teacher's Forget closed, whose records (and names) are deleted: they rest only to tell their players."""
        return [closed for closed in reversed(self.resting.values())
                if closed.row.visitors[1] is not None and closed.row.ending != FORGOTTEN]

    def waiting(self) -> list[tuple[str, str]]:
        """(code, host's name) of every table waiting for a second player, oldest first."""
        self.sweep()
        return [(code, live.row.names[0]) for code, live in self.tables.items() if live.row.visitors[1] is None]

    def report(self, visitor: str, present: bool = True) -> dict[str, Any]:
        """What `visitor`'s kernel needs about their table: {"table": None}, or its code, the seat, both names,
        rules, hands, seed, the moves so far, the seat that dealt each next hand ("dealers"), whether the other player
        is gone, and the version; for the table they sat at that has closed (and rests), the same with "ended": how it
        ended, "gone": the seat whose player went from its match (`standings.gone_seat`, None if neither), and "counts":
        how its match counts for them in the standings ("won", "drawn", "lost"; None: for nobody), "told": whether a
        page of theirs was told so already (a report of it read by their kernel while its page was connected: a page
        opened later was not away when it closed, unless none was told; who was told is kept across a restart), and
        "taken": whether they took its match on against the computer, in one page of theirs (when they ended it so, or
        once it had closed: `take_on`; kept across a restart), which none of their other pages does. Always
        "round": their seat in the round paired last (`seat_in_round`, or None), and "state": all this in one word
        (`state`). `present`: the visitor's page is connected to the kernel that asks (else asking does not count as
        being here, nor as told)."""
        found = self._table_report(visitor, present)
        found["round"] = self.seat_in_round(visitor)
        found["state"] = self.state(found)
        return found

    def _table_report(self, visitor: str, present: bool) -> dict[str, Any]:
        """`report` without the round and the state."""
        live = self.seats.get(visitor)
        if live is not None and present:  # before the sweep: a player who asks is not gone
            live.seen[0 if live.row.visitors[0] == visitor else 1] = self.clock()
        self.sweep()
        live = self.seats.get(visitor)
        if live is None:
            closed = self.last.get(visitor)
            if closed is None:
                return {"table": None}
            stored = self.store.moves(closed.row.id)
            dealers = [move.player for move in stored if move.move == NEXT_HAND]
            facts = self._facts(closed.row, visitor, [move.move for move in stored], dealers, closed.version)
            counted = results(closed.row)
            told = visitor in closed.told
            if present and not told:
                closed.told.add(visitor)
                if closed.row.id:  # (kept across a restart)
                    self.store.mark_told(closed.row.id, facts["seat"])
            ended_so = str(closed.row.ending).startswith(COMPUTER) and closed.row.ended_by == facts["seat"]
            return {**facts, "other_gone": False, "ended": closed.row.ending, "gone": gone_seat(closed.row),
                    "counts": None if counted is None else counted[facts["seat"]], "told": told,
                    "taken": ended_so or visitor in closed.taken}
        seat = live.seat_of(visitor)
        assert seat is not None
        other_gone = live.row.visitors[1] is not None and live.gone(1 - seat, self.clock())
        return {**self._facts(live.row, visitor, list(live.moves), list(live.dealers), live.version),
                "other_gone": other_gone}

    @staticmethod
    def _facts(row: TableRow, visitor: str, moves: list[dict[str, Any]], dealers: list[int],
               version: int) -> dict[str, Any]:
        return {"table": row.code, "seat": 0 if row.visitors[0] == visitor else 1, "names": list(row.names),
                "rules": row.rules, "hands": row.hands, "seed": row.seed, "moves": moves, "dealers": dealers,
                "version": version}

    @staticmethod
    def state(report: dict[str, Any]) -> str:
        """What a kernel that has read `report` knows, in one word: its table, the table's version, whether it ended,
        whether its match was taken on against the computer, and the round (a kernel waits until its report says
        otherwise: `ClassHandler`)."""
        seat = report.get("round") or {}
        taken = ":taken" if report.get("taken") else ""
        return f"{report.get('table')}:{report.get('version')}:{report.get('ended')}{taken}:{seat.get('number')}"

    def seat_in_round(self, visitor: str) -> dict[str, Any] | None:
        """`visitor`'s seat in the round paired last, if they have one: {"number", "started" (when it was paired:
        with the number, the round's identity, since the numbers begin again once the class is forgotten), "against"
        (the classmate's name; None: the computer), "table" (its code, None against the computer), "level" (the
        computer's), "rules", "hands", "seed" (the deal of the match against the computer, which the server chose so
        that it knows that match: `round_matches`; None at a table)}."""
        seat, row = self.round_seats.get(visitor), self.round
        if seat is None or row is None:
            return None
        live = next((live for live in self.tables.values() if live.row.id == seat.table_id), None)
        against = None
        if seat.opponent is not None:
            names = self.store.names_of([seat.opponent])
            against = names.get(seat.opponent, "")
            if live is not None:
                against = next((name for other, name in zip(live.row.visitors, live.row.names, strict=True)
                                if other == seat.opponent), against)
        return {"number": row.number, "started": row.started, "against": against,
                "table": None if live is None else live.row.code, "level": row.level, "rules": row.rules,
                "hands": row.hands, "seed": seat.seed}

    def round_matches(self) -> dict[str, RoundMatch]:
        """The match against the computer that the round paired last gave a student (the one left over), by visitor:
        its id as a page counts it (`protocol.match_key` of the round's rules and hands and the deal chosen here)."""
        row = self.round
        if row is None:
            return {}
        return {visitor: round_match(row, seat.seed)
                for visitor, seat in self.round_seats.items() if seat.opponent is None and seat.seed is not None}

    def computer_matches(self) -> dict[str, list[RoundMatch]]:
        """Every match against the computer a round gave a student (`round_matches`, of every round kept, a match set
        aside by the next round included), by visitor, the latest last."""
        given: dict[str, list[RoundMatch]] = {}
        for visitor, row, seed in self.store.computer_rounds():
            given.setdefault(visitor, []).append(round_match(row, seed))
        return given

    def standings(self, since: float | None = None) -> list[dict[str, Any]]:
        """The class's standings (`standings.standings`) over the matches that ended at `since` or later (None:
        every one kept), each student named by their record's name now, else their name at their latest table. The
        matches are counted again only once a table has closed since (the class page asks at every refresh)."""
        kept = self.tally(since)
        return standings(kept, self.store.names_of(kept))

    def tally(self, since: float | None = None) -> dict[str, Standing]:
        """The matches counted since `since` (None: ever), and the byes of the rounds paired since, by visitor: counted
        again only once a table has closed or a round was paired."""
        kept = self.tallies.get(since)
        if kept is None:
            if len(self.tallies) >= TALLIES_KEPT:  # (each day's "today" is a time of its own)
                self.tallies.clear()
            kept = self.tallies[since] = tally(self.store.matches_ended(since), self.store.byes(since))
        return kept

    def present(self, named: dict[str, str]) -> dict[str, str]:
        """Of the students `named` ({visitor: name}), those free to be paired: at no live table, or alone at one
        waiting for a classmate."""
        self.sweep()
        return self._free(named)

    def _free(self, named: dict[str, str]) -> dict[str, str]:
        """`present` as the tables stand, without closing those due to close first."""
        return {visitor: name for visitor, name in named.items()
                if visitor not in self.seats or self.seats[visitor].row.visitors[1] is None}

    def pair_refusal(self, named: dict[str, str], playing: Collection[str] = ()) -> ClassTableError | None:
        """Why the next round cannot be paired now (`pair`'s refusals but for its rules and length), or None; as the
        tables stand (the class page's report has closed those due to close, where the store let it)."""
        free = self._free(named)
        if not free:
            return ClassTableError("nobody_to_pair")
        if len(free) == 1 and len(named) > 1 and set(free) <= set(playing) and self.round is not None:
            return ClassTableError("one_free", name=next(iter(free.values())), count=len(named) - 1,
                                   number=self.round.number)
        if len(self.tables) + len(free) // 2 > self.limit:
            return ClassTableError("full", most=self.limit)
        return None

    # -- changes ------------------------------------------------------------------------------
    def pair(self, named: dict[str, str], rules: object, hands: object, level: str,
             playing: Collection[str] = ()) -> dict[str, Any]:
        """Pair the next round: every student of `named` ({visitor: name}, those present) who sits at no table (or
        alone at one waiting for a classmate, which closes) is seated with a classmate (`pairing.pair_round`) at a
        new table under `rules` for a match of `hands` (one of `MATCH_LENGTHS`), both seats at once; the one left
        over (an odd number) is to play the computer at `level` (their kernel plays it, on a deal chosen here).
        Stored (the round, its seats, its tables) in one transaction, then every student paired is told (`changed`).
        What was done: {"round": its number, "tables": [{"code", "names"}], "computer": the name of who plays it (or
        None), "busy": how many present students sat at a table already}. Refused "nobody_to_pair" with nobody to
        pair, "one_free" where the one student free is `playing` the match against the computer the last round gave
        them while others sit at tables (a round of no table would only end that match), "full" past `limit` tables,
        "bad_rules", "bad_hands"."""
        if not isinstance(rules, str) or rules not in RULE_SETS:
            raise ClassTableError("bad_rules")
        if not (isinstance(hands, int) and not isinstance(hands, bool) and hands in MATCH_LENGTHS):
            raise ClassTableError("bad_hands")
        free = self.present(named)
        refused = self.pair_refusal(named, playing)
        if refused is not None:
            raise refused
        number = (self.round.number if self.round is not None else 0) + 1
        points = {visitor: standing.won + standing.drawn / 2 for visitor, standing in self.tally(None).items()}
        pairing = pair_round(list(free), number, met=met_counts(self.store.meetings()), points=points)
        codes: list[str] = []
        for _ in pairing.pairs:
            codes.append(self._new_code(also=codes))
        for visitor in free:
            waiting = self.seats.get(visitor)
            if waiting is not None:  # a table nobody joined gives way to the round (and leaves no row)
                self._close(waiting, PAIRED)
        now = self.clock()
        row = RoundRow(number, now, str(rules), hands, level)
        tables, seats = [], []
        with self.store.transaction():  # the round, its tables and its seats: all or nothing
            for code, (first, second) in zip(codes, pairing.pairs, strict=True):
                table = self.store.add_table(TableRow(code, row.rules, hands, secrets.token_hex(8), (first, second),
                                                      (free[first], free[second]), now, joined=now))
                tables.append(table)
                seats += [RoundSeat(first, second, table.id), RoundSeat(second, first, table.id)]
                for visitor in (first, second):
                    self.store.student_seen(visitor, free[visitor], now)
            if pairing.computer is not None:
                seats.append(RoundSeat(pairing.computer, None, None, secrets.token_hex(8)))
            self.store.add_round(row, seats)
        self.round, self.round_seats = row, {seat.visitor: seat for seat in seats}
        self.tallies.clear()  # (a bye counts from now)
        for table in tables:
            live = LiveTable(table, Match(RULE_SETS[table.rules], seed=table.seed, hands=table.hands), seen=[now, now])
            self._sit(live)
            self._changed(live)
        if pairing.computer is not None:
            self.changed(pairing.computer)
        return {"round": number, "tables": [{"code": table.code, "names": list(table.names)} for table in tables],
                "computer": None if pairing.computer is None else free[pairing.computer],
                "busy": len(named) - len(free)}

    def open(self, visitor: str, name: object, rules: object = "REVISED_2008", hands: object = None) -> str:
        """Open a table for `visitor` named `name` under `rules` (a key of RULE_SETS) for a match of `hands` (one of
        `MATCH_LENGTHS`, else refused "bad_hands"; None: the rule set's length): its code. One table per visitor, at
        most `limit` at once, under a code that is free."""
        name = valid_name(name)
        if not isinstance(rules, str) or rules not in RULE_SETS:
            raise ClassTableError("bad_rules")
        if hands is None:
            hands = RULE_SETS[str(rules)].hands_per_match
        elif not (isinstance(hands, int) and not isinstance(hands, bool) and hands in MATCH_LENGTHS):
            raise ClassTableError("bad_hands")
        self.sweep()
        if visitor in self.seats:
            raise ClassTableError("one_table")
        if len(self.tables) >= self.limit:
            raise ClassTableError("full", most=self.limit)
        code = self._new_code()
        seed = secrets.token_hex(8)
        now = self.clock()
        with self.store.transaction():  # both or neither
            row = self.store.add_table(TableRow(code, str(rules), hands, seed, (visitor, None), (name, None), now))
            self.store.student_seen(visitor, name, now)
        self._sit(LiveTable(row, Match(RULE_SETS[row.rules], seed=seed, hands=row.hands), seen=[now, 0.0]))
        self.changed(visitor)
        return code

    def _new_code(self, also: Collection[str] = ()) -> str:
        """A code neither live nor resting (nor one of `also`), found in at most `CODE_DRAWS` random draws; else
        "no_codes"."""
        for _ in range(CODE_DRAWS):
            code = code_of(secrets.randbelow(CODE_COUNT))
            if code not in self.tables and code not in self.resting and code not in also:
                return code
        raise ClassTableError("no_codes")

    def join(self, visitor: str, name: object, code: object) -> int:
        """Seat `visitor`, named `name`, at the table `code` waiting for a second player: their seat (1). Joining
        one's own table, a table already full or one that does not exist is refused."""
        name, code = valid_name(name), valid_code(code)
        self.sweep()
        live = self.tables.get(code)
        if live is None:
            raise ClassTableError("no_table", code=code)
        if live.seat_of(visitor) is not None:
            raise ClassTableError("own_table")
        if visitor in self.seats:
            raise ClassTableError("one_table")
        if live.row.visitors[1] is not None:
            raise ClassTableError("table_full", code=code)
        now = self.clock()
        with self.store.transaction():  # both or neither
            self.store.seat_guest(live.row.id, visitor, name, now)
            self.store.student_seen(visitor, name, now)
        live.row = replace(live.row, visitors=(live.row.visitors[0], visitor), names=(live.row.names[0], name),
                           joined=now)
        live.seen[1] = now
        self._sit(live)
        self._changed(live)
        return 1

    def move(self, visitor: str, code: object, number: object, move: object) -> int:
        """`visitor`'s move (as `move_to_data`'s dict, or `NEXT_HAND`) as the table's move `number`: stored, then
        made; the table's move count after it. A move of the other seat, out of turn, not numbered as the next
        move (a replay), unreadable or against the rules is refused and changes nothing. The move that ends the
        match closes the table ("finished")."""
        live = self._seated(visitor, code)
        seat = live.seat_of(visitor)
        assert seat is not None
        if live.row.visitors[1] is None:
            raise ClassTableError("no_opponent")
        if isinstance(number, bool) or not isinstance(number, int) or number != len(live.moves):
            raise ClassTableError("stale")
        if not isinstance(move, dict):
            raise ClassTableError("bad_move")
        made = self._check(live.match, seat, move)  # a bad move is refused before anything is stored
        try:
            self.store.add_move(live.row.id, number, seat, move, self.clock())
        except sqlite3.IntegrityError:
            raise ClassTableError("stale") from None
        self._apply(live.match, made)
        live.moves.append(dict(move))
        if move == NEXT_HAND:
            live.dealers.append(seat)
        live.seen[seat] = self.clock()
        if live.match.is_over:
            self._close(live, FINISHED)
        else:
            self._changed(live)
        return len(live.moves)

    def _make(self, live: LiveTable, seat: int, data: dict[str, Any]) -> None:
        """Make `seat`'s stored move `data` in the live table's match."""
        self._apply(live.match, self._check(live.match, seat, data))

    @staticmethod
    def _check(match: Match, seat: int, data: dict[str, Any]) -> Move | None:
        """`seat`'s move `data` read and checked against the match (None: the next deal); a `ClassTableError` if
        it is not theirs to make now or the rules refuse it."""
        if data == NEXT_HAND:
            if not match.current.is_over or match.is_over:
                raise ClassTableError("bad_move")
            return None
        try:
            move = move_from_data(data)
        except SavedGameError:
            raise ClassTableError("bad_move") from None
        hand = match.current
        if current_player(hand) != seat:
            raise ClassTableError("not_your_turn")
        if not hand.check(move).legal:
            raise ClassTableError("illegal")
        return move

    @staticmethod
    def _apply(match: Match, move: Move | None) -> None:
        """Make a checked move (None: deal the next hand) through the turn runner."""
        if move is None:
            deal_next(match)
        else:
            apply_move(match.current, move, match)

    def rename(self, visitor: str, name: str) -> None:
        """`visitor` now goes by `name` (their record keeps it): the live table they sit at names them so (stored),
        and both its players are told (their boards name them anew); the class page lists it so. Nothing if they sit
        at no table or go by that name there already (a closed table keeps the names it was played under)."""
        live = self.seats.get(visitor)
        seat = None if live is None else live.seat_of(visitor)
        if live is None or seat is None or live.row.names[seat] == name:
            return
        self.store.rename_seat(live.row.id, seat, name)
        names = (name, live.row.names[1]) if seat == 0 else (live.row.names[0], name)
        live.row = replace(live.row, names=names)
        self._changed(live)

    @staticmethod
    def _heard(live: LiveTable, present: Collection[str], now: float) -> None:
        """Count each player at `live` who is among the `present` (a page of theirs connected) as heard from `now`: a
        player back at their page is not gone, though their kernel has not asked since (a kernel started by a reload
        asks before its page connects, then waits on the server)."""
        for seat in live.seated:
            if live.row.visitors[seat] in present:
                live.seen[seat] = now

    def arrived(self, visitor: str) -> None:
        """A page of `visitor` has connected (`SessionBook`'s first websocket of theirs): at their live table, they are
        heard from now, and the other player's kernel is woken to read that (its page said they had gone)."""
        live = self.seats.get(visitor)
        seat = None if live is None else live.seat_of(visitor)
        if live is None or seat is None:
            return
        live.seen[seat] = self.clock()
        other = live.row.visitors[1 - seat]
        if other is not None:
            self.changed(other)

    def end(self, visitor: str, code: object, ending: str) -> None:
        """`visitor` ends their table: "left" (they leave it), or "computer:LEVEL" (the computer takes the other,
        gone, seat at that level, one of `LEVELS`; allowed only once the other has been gone `GONE_SECONDS`).
        Anything else is refused "bad_move", changing nothing."""
        live = self._seated(visitor, code)
        seat = live.seat_of(visitor)
        assert seat is not None
        if ending != LEFT and ending not in COMPUTER_ENDINGS:
            raise ClassTableError("bad_move")
        self._heard(live, self.here(), self.clock())
        if ending != LEFT and (live.row.visitors[1] is None or not live.gone(1 - seat, self.clock())):
            raise ClassTableError("not_gone")
        self._close(live, ending, by=seat)

    def take_round(self, visitor: str, started: object) -> None:
        """`visitor` plays the match against the computer that the latest round (`started` then) gave them in one page
        of theirs, which asks first (the server stores none of its moves): kept across a restart. Decided once: another
        page of theirs is refused "round_elsewhere"; a round that is not their latest bye, "not_seated"."""
        seat, row = self.round_seats.get(visitor), self.round
        if (seat is None or row is None or seat.opponent is not None or seat.table_id is not None
                or started != row.started):
            raise ClassTableError("not_seated")
        if not self.store.take_round_seat(row.number, visitor):
            raise ClassTableError("round_elsewhere")

    def take_on(self, visitor: str, code: object) -> None:
        """`visitor` takes the match of their table `code`, which closed before its match ended (the classmate left it,
        or the server closed it), on against the computer, in one page of theirs (which plays it: the server stores
        none of its moves): kept (`ClassStore.take_table`, across a restart), and their other pages are told
        (`changed`), whose reports say "taken" from now on. Decided once: a second request, from another page of
        theirs, is refused "taken_elsewhere". Refused, changing nothing: a table that is not the last they sat at
        ("not_seated"), one still open ("still_open": `end` finishes it), one they left ("you_left"), one the teacher
        ended or forgot ("ended_by_teacher"), one whose match was played to its end or that nobody joined
        ("nothing_to_finish"), one they took on already ("taken_elsewhere")."""
        code = valid_code(code)
        self.sweep()
        closed = self.last.get(visitor)
        if closed is None or closed.row.code != code:
            live = self.seats.get(visitor)
            raise ClassTableError("still_open" if live is not None and live.row.code == code else "not_seated")
        row = closed.row
        seat = 0 if row.visitors[0] == visitor else 1
        ending = str(row.ending)
        if ending in (TEACHER, FORGOTTEN):
            raise ClassTableError("ended_by_teacher")
        if ending == FINISHED or row.visitors[1] is None:
            raise ClassTableError("nothing_to_finish")
        if ending == LEFT and row.ended_by == seat:
            raise ClassTableError("you_left")
        if visitor in closed.taken or (ending.startswith(COMPUTER) and row.ended_by == seat):
            raise ClassTableError("taken_elsewhere")
        if row.id and not self.store.take_table(row.id, seat):  # (the store decides too: one statement)
            raise ClassTableError("taken_elsewhere")
        closed.taken.add(visitor)
        self.changed(visitor)

    def end_by_teacher(self, code: object) -> TableRow:
        """The teacher ends the live table `code` ("teacher"): it closes for both seats at once, both players are
        free, and its match counts for nobody (`standings.results`); stored (a table nobody joined leaves no row).
        Its row as it was. Refused "bad_code" or "no_table" (none open under that code), changing nothing."""
        code = valid_code(code)
        self.sweep()
        live = self.tables.get(code)
        if live is None:
            raise ClassTableError("no_table", code=code)
        self._close(live, TEACHER)
        return live.row

    def round_tables(self) -> list[LiveTable]:
        """The live tables of the round paired last (none before the first round), in the order they were opened."""
        ids = {seat.table_id for seat in self.round_seats.values() if seat.table_id is not None}
        return [live for live in self.tables.values() if live.row.id in ids]

    def end_round(self, number: object) -> list[TableRow]:
        """The teacher ends every table of round `number` still in play (`end_by_teacher`): their rows. Refused
        "not_latest_round" if `number` is not the round paired last, "no_round_tables" if none of its tables is in
        play, changing nothing."""
        self.sweep()
        row = self.round
        if row is None or isinstance(number, bool) or number != row.number:
            raise ClassTableError("not_latest_round")
        ended = self.round_tables()
        if not ended:
            raise ClassTableError("no_round_tables", number=row.number)
        for live in ended:
            self._close(live, TEACHER)
        return [live.row for live in ended]

    def sweep(self) -> None:
        """Close every table nobody has joined for `UNJOINED_SECONDS` and every table whose players are all gone
        (`LiveTable.abandoned`); let go of the tables that have rested `QUIET_SECONDS`: their codes may be given again,
        their moves go, their players no longer read them."""
        now = self.clock()
        present = self.here()
        for live in list(self.tables.values()):
            self._heard(live, present, now)
            if live.row.visitors[1] is None and now - live.row.opened >= UNJOINED_SECONDS:
                self._close(live, "nobody joined")
            elif live.abandoned(now):
                self._close(live, ABANDONED)
        rested = []
        while self.resting:
            code, closed = next(iter(self.resting.items()))
            if now - closed.at < QUIET_SECONDS:
                break
            del self.resting[code]
            rested.append(closed.row.id)
        if rested:
            self.store.drop_moves(rested)
        while self.last and now - next(iter(self.last.values())).at >= QUIET_SECONDS:
            self.last.popitem(last=False)

    def forget(self) -> None:
        """Close every live table ("forgotten": its players' next report says so) and delete every table and move
        from the store. The tables closed before are let go at once (their records are deleted, so what they counted
        no longer counts): their players' reports no longer say how they ended, and their players are told."""
        before = list(self.last)
        self.last.clear()
        self.resting.clear()
        for live in list(self.tables.values()):
            self._close(live, FORGOTTEN, stored=False)
        self.store.forget_tables()
        self.store.forget_rounds()
        told = list(dict.fromkeys([*self.round_seats, *before]))
        self.round, self.round_seats = None, {}
        for visitor in told:
            self.changed(visitor)
        self.tallies.clear()

    def _close(self, live: LiveTable, ending: str, *, stored: bool = True, by: int | None = None) -> None:
        """Close `live` for both seats at once (`ending`: how; `by`: the seat whose player ended it), both players
        free; recorded in the store (with each finished hand's scores) unless not `stored` (a table nobody joined is
        deleted from it)."""
        now, row = self.clock(), live.row
        scores = live.match.totals if ending == FINISHED else None
        hand_scores = tuple(live.match.results)
        if stored and row.visitors[1] is None:
            self.store.delete_table(row.id)
        elif stored:
            self.store.end_table(row.id, now, ending, scores, hand_scores, by)
        del self.tables[row.code]
        self.tallies.clear()
        for visitor in row.visitors:
            if visitor is not None:
                self.seats.pop(visitor, None)
        self._changed(live)
        self._rest(ClosedTable(replace(row, ended=now, ending=ending, scores=scores, hand_scores=hand_scores,
                                       ended_by=by), live.version, now))

    def _seated(self, visitor: str, code: object) -> LiveTable:
        """The live table `code` where `visitor` sits; a `ClassTableError` otherwise."""
        live = self.tables.get(valid_code(code))
        if live is None or live.seat_of(visitor) is None:
            raise ClassTableError("not_seated")
        return live

    def _changed(self, live: LiveTable) -> None:
        live.version += 1
        for visitor in live.row.visitors:
            if visitor is not None:
                self.changed(visitor)
