"""Tables between classmates on a class server: the one authority over every such match.

The server process holds a `ClassTables`; each page's kernel asks it (through the handlers in
`class_handlers.py`) to open a table, join one, move, or tell it what changed. A visitor (a browser) is
known by its Jupyter identity, proven by the kernel it was given, so a reload, a new kernel or a server
restart finds the same seat. The engine here decides every move: a move is taken only from the seat
whose turn it is, numbered as the next move of the table (a replay or a stale move is refused), legal
under the rules, and stored (`class_store.py`) before anyone is told of it. After a restart each live
table is rebuilt from its stored moves.

What a kernel is sent about a table (`ClassTables.report`) holds the deal's seed and the moves: a kernel is
the server's own process and shows its page only its seat's view (`engine.view`); no page is sent either.

Stdlib only (no Jupyter, no tornado), so it is tested without a server.
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..class_codes import CODE_LENGTH, CODE_LETTERS, ClassTableError, valid_code, valid_name
from ..engine import RULE_SETS, Match, Move
from ..engine.errors import SavedGameError
from ..engine.moves import NEXT_HAND, move_from_data
from ..engine.turns import apply_move, current_player, deal_next
from .class_store import ClassStore, TableRow

UNJOINED_SECONDS = 30 * 60
"""A table nobody joins closes after this long."""
GONE_SECONDS = 120.0
"""A player not heard from for this long is gone: the other may finish against the computer."""


@dataclass
class LiveTable:
    """A table in play: its stored row, its match as the engine has it, its moves (as stored), when each seat
    was last heard from, and a counter that grows with every change (the kernels wait for it)."""

    row: TableRow
    match: Match
    moves: list[dict[str, Any]] = field(default_factory=list)
    seen: list[float] = field(default_factory=lambda: [0.0, 0.0])
    version: int = 0

    def seat_of(self, visitor: str) -> int | None:
        """The seat `visitor` sits in here, if any."""
        return next((seat for seat in (0, 1) if self.row.visitors[seat] == visitor), None)


class ClassTables:
    """Every live class table of this server, kept in `store`; at most `limit` tables at once."""

    def __init__(self, store: ClassStore, *, limit: int = 1000, clock: Callable[[], float] = time.time,
                 changed: Callable[[str], None] = lambda code: None) -> None:
        """`changed(code)` is called after every change to table `code` (the handlers wake its waiters)."""
        self.store, self.limit, self.clock, self.changed = store, limit, clock, changed
        self.tables: dict[str, LiveTable] = {}
        for row in store.live_tables():
            self.tables[row.code] = self._rebuild(row)

    def _rebuild(self, row: TableRow) -> LiveTable:
        """A stored table with its stored moves made again (each one checked by the engine again)."""
        live = LiveTable(row, Match(RULE_SETS[row.rules], seed=row.seed, hands=row.hands))
        now = self.clock()
        live.seen = [now, now]  # a restarted server gives both players their full time to come back
        for stored in self.store.moves(row.code):
            self._make(live, stored.player, stored.move)
            live.moves.append(stored.move)
        return live

    # -- reading ------------------------------------------------------------------------------
    def table_of(self, visitor: str) -> LiveTable | None:
        """The live table where `visitor` sits, if any."""
        return next((live for live in self.tables.values() if live.seat_of(visitor) is not None), None)

    def waiting(self) -> list[tuple[str, str]]:
        """(code, host's name) of every table waiting for a second player, oldest first."""
        self.close_unjoined()
        return [(code, live.row.names[0]) for code, live in self.tables.items() if live.row.visitors[1] is None]

    def report(self, visitor: str, present: bool = True) -> dict[str, Any]:
        """What `visitor`'s kernel needs about their table: {"table": None}, or its code, the seat, both names,
        rules, hands, seed, the moves so far, whether the other player is gone, and the version. `present`: the
        visitor's page is connected to the kernel that asks (else asking does not count as being here)."""
        self.close_unjoined()
        live = self.table_of(visitor)
        if live is None:
            return {"table": None}
        seat = live.seat_of(visitor)
        assert seat is not None
        if present:
            live.seen[seat] = self.clock()
        row = live.row
        other_gone = row.visitors[1] is not None and self.clock() - live.seen[1 - seat] >= GONE_SECONDS
        return {"table": row.code, "seat": seat, "names": list(row.names), "rules": row.rules, "hands": row.hands,
                "seed": row.seed, "moves": list(live.moves), "other_gone": other_gone, "version": live.version}

    # -- changes ------------------------------------------------------------------------------
    def open(self, visitor: str, name: object, rules: object = "REVISED_2008") -> str:
        """Open a table for `visitor` named `name` under `rules` (a key of RULE_SETS): its code. One table per
        visitor, at most `limit` at once."""
        name = valid_name(name)
        if rules not in RULE_SETS:
            raise ClassTableError("bad_rules")
        self.close_unjoined()
        if self.table_of(visitor) is not None:
            raise ClassTableError("one_table")
        if len(self.tables) >= self.limit:
            raise ClassTableError("full", most=self.limit)
        code = self._new_code()
        seed = secrets.token_hex(8)
        now = self.clock()
        row = TableRow(code, str(rules), RULE_SETS[str(rules)].hands_per_match, seed, (visitor, None), (name, None),
                       now)
        self.store.add_table(row)
        self.store.student_seen(visitor, name, now)
        self.tables[code] = LiveTable(row, Match(RULE_SETS[row.rules], seed=seed, hands=row.hands), seen=[now, 0.0])
        return code

    def _new_code(self) -> str:
        used = self.store.codes()
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in used:
                return code

    def join(self, visitor: str, name: object, code: object) -> int:
        """Seat `visitor`, named `name`, at the table `code` waiting for a second player: their seat (1). Joining
        one's own table, a table already full or one that does not exist is refused."""
        name, code = valid_name(name), valid_code(code)
        self.close_unjoined()
        live = self.tables.get(code)
        if live is None:
            raise ClassTableError("no_table", code=code)
        if live.seat_of(visitor) is not None:
            raise ClassTableError("own_table")
        if self.table_of(visitor) is not None:
            raise ClassTableError("one_table")
        if live.row.visitors[1] is not None:
            raise ClassTableError("table_full", code=code)
        now = self.clock()
        self.store.seat_guest(code, visitor, name, now)
        self.store.student_seen(visitor, name, now)
        live.row = TableRow(**{**live.row.__dict__, "visitors": (live.row.visitors[0], visitor),
                               "names": (live.row.names[0], name), "joined": now})
        live.seen[1] = now
        self._changed(live)
        return 1

    def move(self, visitor: str, code: object, number: object, move: object) -> int:
        """`visitor`'s move (as `move_to_data`'s dict, or `NEXT_HAND`) as the table's move `number`: stored, then
        made; the table's move count after it. A move of the other seat, out of turn, not numbered as the next
        move (a replay), unreadable or against the rules is refused and changes nothing."""
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
            self.store.add_move(live.row.code, number, seat, move, self.clock())
        except sqlite3.IntegrityError:
            raise ClassTableError("stale") from None
        self._apply(live.match, made)
        live.moves.append(dict(move))
        live.seen[seat] = self.clock()
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

    def end(self, visitor: str, code: object, ending: str) -> None:
        """`visitor` ends their table: "left" (they leave it), or "computer:LEVEL" (the computer takes the other,
        gone, seat at that level; allowed only once the other has been gone `GONE_SECONDS`)."""
        live = self._seated(visitor, code)
        seat = live.seat_of(visitor)
        assert seat is not None
        if ending.startswith("computer:"):
            if live.row.visitors[1] is None or self.clock() - live.seen[1 - seat] < GONE_SECONDS:
                raise ClassTableError("not_gone")
        elif ending != "left":
            raise ClassTableError("bad_move")
        self._close(live, ending)

    def close_unjoined(self) -> None:
        """Close every table nobody has joined for `UNJOINED_SECONDS`."""
        now = self.clock()
        for live in list(self.tables.values()):
            if live.row.visitors[1] is None and now - live.row.opened >= UNJOINED_SECONDS:
                self._close(live, "nobody joined")

    def _close(self, live: LiveTable, ending: str) -> None:
        self.store.end_table(live.row.code, self.clock(), ending)
        del self.tables[live.row.code]
        self._changed(live)

    def _seated(self, visitor: str, code: object) -> LiveTable:
        """The live table `code` where `visitor` sits; a `ClassTableError` otherwise."""
        live = self.tables.get(valid_code(code))
        if live is None or live.seat_of(visitor) is None:
            raise ClassTableError("not_seated")
        return live

    def _changed(self, live: LiveTable) -> None:
        live.version += 1
        self.changed(live.row.code)
