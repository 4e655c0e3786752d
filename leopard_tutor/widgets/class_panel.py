"""The Play section's controls for a match against a classmate on a class server: a name (kept in the browser), "Open a
table" with its "Match length" (1, 2 or 4 hands; at first the rules' own length; the table shows its code, a link and a
QR code of the link), or a table code and "Join table" (whoever joins plays the length its host chose), and the tables
open on this server. From the moment a table is opened the Play board shows this page's seat at it (`ClassTable`):
waiting for the classmate (no game), then the match once both sit. One thread of the kernel (`ClassWatch`) waits on the
server for every change of this visitor's report and has it shown on the kernel's event loop, between two clicks: the
other player's moves, and a table or a round the teacher seated this page at (the Play section then comes forward by
itself and says who the round is against: a classmate, or the computer for the one left over). "Leave the table" is
offered from the moment a table is opened (while it waits too, and after a reload); if the other player has been gone
for two minutes, "Finish against the computer" as well. Once the table has closed (for both at once: the match finished,
a player left, or the server closed it, saying why), the name and code entry and the open tables are shown again; the
board takes no more moves and keeps a finished match's end, and a match cut short may be finished against the computer
(not one the teacher ended: both players are free).

The panel only draws and forwards: the server's tables decide (`server/referee.py`), the table decides whose
turn it is (`table/class_table.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as W

from ..class_codes import CODE_LENGTH, MAX_NAME, player_name
from ..client.class_client import ClassClient, ClassRefused
from ..engine import RULE_SETS, LeopardError
from ..engine.catalogue import text
from ..kernel_loop import LoopGone, in_turn, running_loop
from ..protocol import COMPUTER, LEFT, MATCH_LENGTHS, PAIRED
from ..table import Table
from ..table.class_table import ClassTable, away_words, shown_again
from ..table.modes import Seating
from .ask_first import AskFirst
from .storage import BrowserStorage

T = TypeVar("T")
log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""How long the watch waits before asking again when the server did not answer, or a report could not be shown."""
MAX_RETRY_SECONDS = 60.0
"""The longest wait between two tries of showing a report that keeps failing (the wait doubles each time)."""
ComputerRound = Callable[[str, str, int, str, str | None], None]
"""`computer_round(level, rules, hands, words, deal)`: the teacher's round seats this page against the computer, on the
deal the server chose (None: a round paired before the server chose one)."""


RoundKey = tuple[int, float]
"""A round's identity: its number and when it was paired (the numbers begin again once the class is forgotten)."""


def round_key(seat: dict[str, Any] | None) -> RoundKey | None:
    """The identity of the round of `seat` (a report's "round"), or None for no seat."""
    if not seat:
        return None
    return int(seat["number"]), float(seat.get("started") or 0.0)


def table_link(address: str, code: str) -> str:
    """The page's address with ?table=CODE: it opens the Play section ready to join that table."""
    return f"{address}?table={code}" if address else ""


def qr_svg(link: str) -> str:
    """The QR code of `link` as an inline SVG element."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(link, micro=False).save(out, kind="svg", scale=3, xmldecl=False, svgns=True, nl=False)
    return out.getvalue().decode()


class ClassWatch:
    """The one thread of a kernel (its visitor's) that waits on the server for each change of the visitor's report
    (`ClassClient.wait`) and hands it to the class panel it follows (the newest: the app may draw its sections again).
    The panel is handed a report on the kernel's event loop (`kernel_loop.in_turn`), between two clicks, never while
    a click is being handled: a click that opened a table must not draw its board over the waiting table the report
    put there. A report asked for before the panel acted (opened, joined or left a table) is not handed over: it is
    asked for again, as is one asked for while the panel acts (the server may answer it before it has acted)."""

    def __init__(self, client: ClassClient) -> None:
        self.client = client
        self.panel: ClassPanel | None = None
        self.known = ""
        """The "state" of the last report handed over (the server answers once the report says otherwise)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        """The kernel's event loop, where the panel is handed each report (None: in the thread itself)."""
        self.thread: threading.Thread | None = None

    def follow(self, panel: ClassPanel, known: str = "") -> None:
        """Hand the reports to `panel` from now on (`known`: the state of the report it has already), and start
        the thread if it has not started (called on the kernel's event loop, whose reports it hands over there)."""
        self.panel, self.known = panel, known
        self.loop = running_loop() or self.loop
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, daemon=True, name="leopard-class-watch")
            self.thread.start()

    def _run(self) -> None:
        failures = 0  # reports in a row that could not be shown
        while True:
            panel = self.panel
            assert panel is not None
            epoch = panel.epoch
            try:
                report = self.client.wait(self.known)
            except ClassRefused:
                time.sleep(RETRY_SECONDS)
                continue
            try:
                shown = in_turn(self.loop, functools.partial(self._hand_over, panel, epoch, report))
            except LoopGone:
                return  # the kernel is shutting down
            failures = 0 if shown else failures + 1
            if failures:  # asked again after a pause that grows while showing it keeps failing
                time.sleep(min(MAX_RETRY_SECONDS, RETRY_SECONDS * 2 ** (failures - 1)))

    def _hand_over(self, panel: ClassPanel, epoch: int, report: dict[str, Any]) -> bool:
        """Hand `report`, asked for at the panel's `epoch`, to `panel` if it has not acted since; False if showing
        it failed (then the report is asked for again: a table waiting for a classmate has no next change to bring
        the board up to date)."""
        if self.panel is not panel or panel.epoch != epoch:
            self.known = ""  # asked before the page acted: ask again, at once
            return True
        self.known = str(report.get("state", ""))
        try:
            panel.on_report(report)
        except Exception:  # logged; the watch goes on
            log.exception("a class table's report could not be shown")
            self.known = ""
            return False
        return True


WATCHES: dict[str, ClassWatch] = {}
"""The watch of this kernel, by its id (a kernel is one visitor's: one watch)."""


def kernel_watch(client: ClassClient) -> ClassWatch:
    """This kernel's watch on the server (made once)."""
    found = WATCHES.get(client.kernel_id)
    if found is None:
        found = WATCHES[client.kernel_id] = ClassWatch(client)
    return found


class ClassPanel(W.VBox):  # type: ignore[misc]
    """The classmate controls of a Play section: `seat(table)` puts a table on its board (and says what became of the
    match the board showed), `act(change)` runs a change as a click beside the board (its errors shown on the board),
    `refresh()` redraws the board."""

    def __init__(self, client: ClassClient, *, seat: Callable[[ClassTable], str],
                 act: Callable[[Callable[[], None]], Any], refresh: Callable[[], None],
                 options: Callable[[], dict[str, Any]], address: Callable[[], str],
                 computer: Callable[[str], Any], level: Callable[[], str],
                 named: Callable[[str], bool] = lambda name: True, arrived: Callable[[], None] = lambda: None,
                 computer_round: ComputerRound = lambda level, rules, hands, words, deal: None,
                 round_elsewhere: Callable[[str], None] = lambda words: None,
                 computer_seated: Callable[[str], None] = lambda level: None,
                 unsaid: Callable[[str], None] = lambda words: None,
                 focus_table: Callable[..., None] = lambda waited=False: None) -> None:
        """`options()` are the table options (hinter, reviews) of the section; `computer(level)` makes a computer
        player, and `level()` names the learner's own level, at which it takes a gone classmate's seat; `named(name)`
        is asked to keep the name a table is to be opened or joined under, first (False: refused, and said why: the
        table is not opened or joined); `arrived()` is called when the server seats this page
        at a table it did not open or join here (a round the teacher paired, or another tab of the same browser);
        `computer_round` when the teacher's round has this page play the computer; `computer_seated(level)` once the
        computer took a gone classmate's seat at `level`; `unsaid(words)` once the words said of a table that closed
        while the visitor was away (`away`) no longer hold (the teacher forgot the class, and what it counted);
        `focus_table()` puts the keyboard on the board once a table joined here is on it, and `focus_table(waited=True)`
        once the classmate sat down at the table opened here, if the keyboard is still in Play. A match
        under way that a table takes the place of is `seat`'s to keep: what it says of it is said with the table's
        first words, however the table came."""
        self.client, self._seat, self._act, self._refresh = client, seat, act, refresh
        self._options, self._address, self._computer, self._level = options, address, computer, level
        self._arrived, self._computer_round, self._named = arrived, computer_round, named
        self._round_elsewhere = round_elsewhere
        self._computer_seated, self._unsaid, self._focus_table = computer_seated, unsaid, focus_table
        self.table: ClassTable | None = None
        self.table_code: str | None = None
        """The code of the server's table that `table` is this page's seat at."""
        self.code: str | None = None
        self.epoch = 0
        """Grows with every change this page makes to its seat (open, join, leave, finish): a report asked for
        before it is not used (`ClassWatch`)."""
        self.round_seen: RoundKey | None = None
        """The latest round this page knows of (a round is acted on once, when it comes)."""
        self.away = ""
        """What this page was told at its start of the visitor's table that closed while they were away
        (`away_words`), "" if nothing."""
        self.redrawn = False
        """Whether the report being read is the first of this panel of a page redrawn in another language (`resume`)."""
        self.name = W.Text(description=text("classmates.name_label"), placeholder=text("classmates.name_placeholder"),
                           continuous_update=False)
        self.name.add_class("lt-class-name")
        self.open_button = W.Button(description=text("classmates.open"))
        length = int(self._options()["rules"].hands_per_match)
        self.length_pick = W.Dropdown(options=[(text("classmates.length", hands=hands), hands)
                                               for hands in MATCH_LENGTHS],
                                      value=length if length in MATCH_LENGTHS else MATCH_LENGTHS[-1],
                                      description=text("classmates.length_label"), layout=W.Layout(width="16em"))
        self.length_pick.add_class("lt-class-length")
        self.code_box = W.Text(description=text("classmates.code_label"), continuous_update=False,
                               placeholder=text("classmates.code_placeholder", letters=CODE_LENGTH),
                               layout=W.Layout(width="14em"))
        self.code_box.add_class("lt-class-code")
        self.join_button = W.Button(description=text("classmates.join"))
        self.join_button.add_class("lt-submit")  # Enter in the code box presses it (`PageRoles`)
        self.show_button = W.Button(description=text("classmates.refresh"))
        self.open_tables = W.VBox()
        self.open_tables.add_class("lt-class-tables")
        self.offered = ""
        """The code of the table whose link opened this page, while words under Join table offer it (`offer_link`)."""
        self.code_box.observe(lambda change: self._withdraw_offer() if change["new"] != self.offered else None,
                              names="value")
        self.status = W.HTML(layout=W.Layout(display="none"))
        self.status.add_class("lt-class-status")
        self.status.observe(lambda change: setattr(self.status.layout, "display", "" if change["new"] else "none"),
                            names="value")  # an empty status takes no room from the board
        self.finish_button = W.Button(description=text("classmates.finish"), layout=W.Layout(display="none"))
        self.leave_button = W.Button(description=text("classmates.leave"), layout=W.Layout(display="none"))
        self.offered_name = ""
        """A name the header only offers (not kept yet) put in the name box: not kept for tables, and a name this
        browser kept for them replaces it when the browser gives it back."""
        self.storage = BrowserStorage("classmate_name")
        self.storage.on_restore(self._restore_name)
        self.open_button.on_click(lambda _b: self._act(self.open_table))
        self.join_button.on_click(lambda _b: self._act(lambda: self.join(self.code_box.value)))
        self.show_button.on_click(lambda _b: self._act(self.show_open_tables))
        self.finish_button.on_click(lambda _b: self._act(self.finish))
        self.leave_button.on_click(lambda _b: self._leave_pressed())
        self.leave_question = AskFirst("classmates.leave_question", start=lambda: self._act(self.leave),
                                       back=self.leave_button.focus)
        """Asked before Leave ends a match a classmate sits at (it counts as a loss): the section shows it under
        its row of buttons."""
        self.name.observe(lambda _change: self._keep_name(), names="value")
        self.table_buttons = (self.finish_button, self.leave_button)
        """The buttons of a seated player, which the section shows beside its own controls."""
        join_row = W.HBox([self.code_box, self.join_button, self.show_button])
        join_row.add_class("lt-submits")
        rows = [W.HBox([self.name, self.length_pick, self.open_button]),
                join_row,
                self.open_tables, self.status, self.storage]
        for row in rows[:2]:
            row.add_class("lt-controls")
        self.entry = rows[:3]
        super().__init__(rows, layout=W.Layout(display="none"))
        self.add_class("lt-class-panel")

    # -- the name ------------------------------------------------------------------------------
    def _restore_name(self, kept: str) -> None:
        """The name this browser kept for tables, if any, in place of an empty box or the header's offer (a browser
        that kept none leaves the offer there: emptied, it made Open a table ask for a name)."""
        try:
            found = player_name(kept[:MAX_NAME], "")
        except LeopardError:
            return  # a damaged kept name is not used
        if found and self.name.value in ("", self.offered_name):
            self.name.value = found

    def _keep_name(self) -> None:
        if self.offered_name and self.name.value == self.offered_name:
            return  # the header's suggestion is not a name this browser chose for its tables
        with contextlib.suppress(LeopardError):  # a bad name is not kept; the tables say why when it is used
            self.storage.save(player_name(self.name.value, ""))

    # -- opening and joining ---------------------------------------------------------------------
    def _ask_server(self, call: Callable[..., T], *args: Any) -> T:
        """`call(*args)`: the server acts for this page (opens, joins, ends or leaves a table). A report asked for
        before it has acted, or while it acts, is not handed over (`ClassWatch`): the board never goes back to the
        table as it was before the click."""
        self.epoch += 1
        try:
            return call(*args)
        finally:
            self.epoch += 1

    def open_table(self) -> None:
        """Open a table under the section's rules for a match of the length chosen: show its code, its link and a QR
        code of the link."""
        rules = str(self._options()["rules"].key)
        hands = int(self.length_pick.value)
        if not self._named(self.name.value):
            return  # (a name a classmate here keeps: the header says so)
        code = self._ask_server(self.client.open, self.name.value, rules, hands)
        self.code = code
        self._show_code(code, hands)
        self._show_entry(False)
        # the server keeps the table open: it may be left even before the board shows it (the next report does)
        self.leave_button.layout.display = ""
        self._sit_now()
        self.leave_button.focus()  # the button pressed is gone with the entry: the keyboard goes on to Leave

    def _show_code(self, code: str, hands: int) -> None:
        """Show the code of this visitor's table waiting for a guest (for a match of `hands`), its link and the
        link's QR code."""
        link = table_link(self._address(), code)
        shown = [f"<p class='lt-class-code-shown'><strong>{html.escape(text('classmates.opened', code=code))}"
                 f"</strong></p><p>{html.escape(text('classmates.opened_help', hands=hands))}</p>"]
        qr = ""
        if link:
            label = html.escape(text("classmates.link_label"))
            shown.append(f"<p><a href='{html.escape(link)}' target='_blank' rel='noopener' aria-label='{label}'>"
                         f"{html.escape(link)}</a></p>")
            named = html.escape(text("classmates.qr_label", code=code))
            qr = f"<div class='lt-class-qr' role='img' aria-label='{named}'>{qr_svg(link)}</div>"
        self.status.value = f"<div class='lt-class-invite'><div>{''.join(shown)}</div>{qr}</div>"

    def offer_link(self, code: str, words: str) -> None:
        """Show `words`, which offer the table `code` whose link opened this page, where the list of open tables goes:
        under the code box and Join table, at the top of a phone's screen (the board's message stands below the
        board). Another code typed, or a press of Join table, takes them away."""
        self.offered = code
        self.open_tables.children = [W.HTML(f"<p class='lt-class-offer'>{html.escape(words)}</p>")]

    def _withdraw_offer(self) -> None:
        """Take away the words offering the table of the link, if shown."""
        if self.offered:
            self.offered = ""
            self.open_tables.children = []

    def join(self, code: str) -> None:
        """Join the table `code` (as typed) under the name given, once it is the student's name."""
        if not self._named(self.name.value):
            return
        self._withdraw_offer()  # pressed: the server's answer, seated or refused, is what is said now
        self._ask_server(self.client.join, self.name.value, code)
        self._sit_now()
        if self.leave_button.layout.display != "none":
            self._focus_table()  # the button pressed is gone with the entry: the keyboard goes to the match begun

    def _sit_now(self) -> None:
        """Show this visitor's table as the server has it now, so that the board changes with the click that opened
        or joined it (no match against the computer is left to play while the table waits), and watch for what
        follows."""
        report = self.client.mine()
        self.on_report(report)
        self.watch(str(report.get("state", "")))

    def show_open_tables(self) -> None:
        """List the tables waiting for a second player, a button to join each."""
        found = self.client.waiting()
        buttons: list[Any] = []
        for code, name in found:
            words = text("classmates.join_named", name=name, code=code)
            button = W.Button(description=words, tooltip=words)
            button.add_class("lt-class-join")
            button.on_click(lambda _b, c=code: self._act(lambda: self._join_listed(c)))
            buttons.append(button)
        words = text("classmates.open_tables" if found else "classmates.no_open_tables")
        self.offered = ""
        self.open_tables.children = [W.HTML(f"<p>{html.escape(words)}</p>"), *buttons]

    def _join_listed(self, code: str) -> None:
        """Join the table `code` from the list of open tables; refused (it may have filled or closed since the list was
        shown), the list is shown again as the server has it now, then the refusal said."""
        try:
            self.join(code)
        except ClassRefused:
            with contextlib.suppress(ClassRefused):  # the list is a help: the refusal is said either way
                self.show_open_tables()
            raise

    def _show_entry(self, shown: bool) -> None:
        """Show the entry (name, code, open and join), or hide it while this page sits at a table; then the list of
        open tables goes too (it would go stale: a table in it may fill or close while this one is played)."""
        for part in self.entry:
            part.layout.display = "" if shown else "none"
        if not shown:
            self.offered = ""
            self.open_tables.children = []

    def resume(self, redrawn: bool = False) -> bool:
        """At start (a new page, a reload, after a server restart; or the same page `redrawn` in another language, which
        is not said to be back): sit at this visitor's table if there is one (a table that has closed is not sat at
        again, but a match it cut short while the student was at it is shown where it stood, saying how it closed and
        offering what it offered then: `shown_again`). Whether a table is on the board."""
        report = self.client.mine()
        self.round_seen = round_key(report.get("round"))  # a round that came before this page is not acted on again
        live = report.get("table") is not None and report.get("ended") is None
        if live:
            self.code = str(report["table"])
            self.redrawn = redrawn
            try:
                self.on_report(report)
            finally:
                self.redrawn = False
        elif shown_again(report) and self._show_closed(report):
            live = True
        else:
            self.away = away_words(report)
            if self.away:
                self.status.value = html.escape(self.away)
        self.watch(str(report.get("state", "")))
        return live

    def _show_closed(self, report: dict[str, Any]) -> bool:
        """Show the match of this visitor's table that closed before it ended (`report`), where it stood, closed as
        their page closed it then (`ClassTable.closed_on_server`, which says how), if it offers Finish against the
        computer then (offers.py): whether it is on the board."""
        code, names = str(report["table"]), report["names"]
        table = self._new_table(report)
        table.sit(names, "")
        table.update(report["moves"], replay=True, dealers=report.get("dealers", ()))
        words = table.closed_on_server(report, code)
        if words is None or table.offers()["finish"]:
            return False
        self.table, self.table_code = table, code
        kept = self._seat(table)
        if kept:
            table.say(f"{table.message} {kept}", table.tone)
        self._show_entry(True)  # (at no table: another may be opened or joined)
        self._show_table_buttons()
        self._refresh()
        return True

    def watch(self, known: str = "") -> None:
        """Have this kernel's watch hand this panel the visitor's reports (`known`: the state of the last one read)."""
        kernel_watch(self.client).follow(self, known)

    # -- what the server says ----------------------------------------------------------------------
    def on_report(self, report: dict[str, Any]) -> None:
        """What the server says of this visitor's table: seat the match when both sit, make the other's moves,
        offer to finish against the computer when the other has gone, say when the table has closed (and how); a
        table this page did not open or join here (a round) is sat at, and a round against the computer begun."""
        code = report.get("table")
        if self.away and away_words({**report, "told": False}) != self.away:  # the server no longer says it (the
            # class was forgotten, the table rested; told since, by this page, it still holds)
            if self.status.value == html.escape(self.away):
                self.status.value = ""
            self.away, words = "", self.away
            self._unsaid(words)
        waited = (self.code if self.code is not None and self._seating(self.code)
                  and (code != self.code or report.get("ended") == PAIRED) else None)
        if code is None or report.get("ended") is not None:
            if self.code is not None and code in (None, self.code):
                self._closed(report)
            elif self.code is None:
                self._taken_elsewhere(report)
            if self.code is None:  # (a round may have closed the table this page waited at: `_round_words`)
                self._round_against_computer(report.get("round"), waited)
            return
        if self.code is not None and self.code != code:  # the end of this page's last table did not reach it
            self._closed()
        if self.code is None:  # a table this page did not open or join here: a round, or another tab
            self._arrived()
            self._show_entry(False)
        self.code = str(code)
        seat = report.get("round") or {}
        if seat.get("table") == code:
            self.round_seen = round_key(seat)
        names = report["names"]
        if names[1] is None:
            if not self.status.value:  # after a reload: the code, the link and its QR code are shown again
                self._show_code(str(code), int(report["hands"]))
            self._show_entry(False)
            if not self._seating(str(code)):
                self._seat_waiting(report)
            self._show_table_buttons()  # a table nobody joins can be left
            return
        table = self.table
        if self._seating(str(code)):
            assert table is not None
            table = self._sit(table, report)
        elif table is None or table.store_move is None or self.table_code != code:
            table = self._start(report, waited)
        elif (table.update(report["moves"], dealers=report.get("dealers", ()))
              | table.take_names(names)):  # (both: the moves, and a player renamed)
            self._refresh()
        table.other_gone = bool(report.get("other_gone"))
        self._show_table_buttons()
        gone = html.escape(text("classmates.other_gone", name=names[1 - table.seat]))
        if table.other_gone:
            self.status.value = gone
        elif self.status.value == gone:  # back: what it offered is gone with it
            self.status.value = ""

    def _taken_elsewhere(self, report: dict[str, Any]) -> None:
        """The server says another page of this visitor took the match of their closed table on against the computer:
        the board here, if it still shows that table offering it, says so and offers it no more."""
        table, code = self.table, report.get("table")
        if (report.get("taken") and table is not None and code is not None and code == self.table_code
                and table.taken_elsewhere(str(code))):
            self._show_table_buttons()
            self._refresh()

    def _show_table_buttons(self) -> None:
        """Finish against the computer and Leave the table, each shown only where this page's class table offers
        it (offers.py)."""
        found = self.table.offers() if self.table is not None else None
        for button, action in ((self.finish_button, "finish"), (self.leave_button, "leave")):
            button.layout.display = "" if found is not None and not found[action] else "none"

    def _seating(self, code: str) -> bool:
        """Whether the board shows table `code` waiting for the classmate."""
        table = self.table
        return table is not None and table.store_move is not None and table.mode == Seating(code)

    def _seat_waiting(self, report: dict[str, Any]) -> None:
        """Show this visitor's table waiting for a classmate: no game on the board until they sit down."""
        self.table = table = self._new_table(report)
        self.table_code = str(report["table"])
        kept = self._seat(table)
        if kept:
            table.say(f"{table.message} {kept}")
        self._refresh()

    def _new_table(self, report: dict[str, Any]) -> ClassTable:
        """This visitor's seat at the table of `report`, waiting for the classmate to sit down (`Table.sit`), under
        the section's options (reviews) and the server's rules, deal and length, with no expert's hints."""
        code = str(report["table"])
        options = {**self._options(), "rules": RULE_SETS[report["rules"]], "seed": report["seed"],
                   "hands": int(report["hands"]), "hinter": None}
        return ClassTable(int(report["seat"]), [str(name or "") for name in report["names"]],
                          lambda number, move: self.client.move(code, number, move), **options, seating=code)

    def _sit(self, table: ClassTable, report: dict[str, Any]) -> ClassTable:
        """The classmate sat down at the table that waited: the match begins on the board."""
        names = report["names"]
        table.sit(names, text("classmates.started", code=str(report["table"]), name=names[1 - table.seat],
                              rules=text(f"rules.{table.rules.key}"), hands=table.match.hands))
        table.update(report["moves"], replay=True, dealers=report.get("dealers", ()))
        self.status.value = ""
        self._refresh()
        self._focus_table(waited=True)  # (the keyboard was on Leave the table, one Enter from leaving)
        return table

    def _start(self, report: dict[str, Any], waited: str | None = None) -> ClassTable:
        """Sit at the table of `report` whose match is under way (a round's, another tab's, or this page's after a
        redraw), saying so (`waited`: the code of the table this page waited at until then, see `_round_words`)."""
        code, names = str(report["table"]), report["names"]
        table = self._new_table(report)
        table.sit(names, "")  # both sit already: the match begins with no opening of its own (said below)
        moves = report["moves"]
        table.update(moves, replay=True, dealers=report.get("dealers", ()))
        words = text("classmates.redrawn" if self.redrawn else "classmates.back" if moves else "classmates.started",
                     code=code, name=names[1 - table.seat], rules=text(f"rules.{table.rules.key}"),
                     hands=table.match.hands)
        seat = report.get("round") or {}
        if seat.get("table") == code and not moves:
            words = f"{self._round_words('classmates.round.classmate', waited, number=seat['number'])} {words}"
        self.table, self.table_code = table, code
        self.status.value = ""
        self._show_entry(False)
        kept = self._seat(table)
        table.say(" ".join(part for part in (words, table.message, kept) if part))
        self._refresh()
        return table

    def _closed(self, report: dict[str, Any] | None = None, left: bool = False) -> None:
        """This visitor's table has closed (`report`: the server's word on it, with its moves and how it ended;
        `left`: this page left it): the entry is shown again; the board takes no more moves and says why, or keeps
        a finished match's end; a match cut short may be finished against the computer (not one the teacher ended).
        Why is said once, in the board's message, where the student follows the match (the menu does not leave a
        class table, so the board shows it): the status under the entry is left empty, and takes no room."""
        code, self.code = self.code, None
        self.leave_question.drop()  # (nothing left to leave)
        if code is None:
            return  # this page sits at no table (it left it already, or never sat)
        if self.code_box.value.strip().upper() == code.upper():
            self.code_box.value = ""  # the code it was joined by: Join would only be refused it now
        self._show_entry(True)
        self.leave_button.layout.display = "none"
        self.finish_button.layout.display = "none"
        self.status.value = ""
        table = self.table
        if table is None or table.store_move is None:
            return
        if table.closed_on_server(report, code, left) is not None:  # (None: the match's end, as the table words it)
            self._show_table_buttons()  # a match cut short may be finished against the computer
        self._refresh()

    @staticmethod
    def _round_words(key: str, waited: str | None, **facts: Any) -> str:
        """What a page says of the round that seated it (`key` with `facts`), after the table `waited` (its code) at
        which it waited for a classmate, if any: the round closed that table (`Referee.pair`)."""
        words = text(key, **facts)
        return f"{text('classmates.round.waited', code=waited)} {words}" if waited else words

    def _round_against_computer(self, seat: dict[str, Any] | None, waited: str | None = None) -> None:
        """The teacher's round has this page play the computer (once, when the round comes, and in one page of the
        visitor's: the first to ask, `Referee.take_round`; another says it goes on there): the section begins that
        match, on the deal the server chose (so that the class page knows it), saying so (`waited`: as for
        `_round_words`)."""
        if not seat or seat.get("table") is not None or seat.get("against") is not None:
            return
        number, key = int(seat["number"]), round_key(seat)
        if key == self.round_seen:  # (the server reports the latest round only: any other one is new)
            return
        self.round_seen = key
        try:
            self.client.take_round(seat["started"])
        except ClassRefused as refused:
            if refused.key == "round_elsewhere":  # another page of theirs plays it: one match, as at a class table
                self._round_elsewhere(self._round_words("classmates.round.elsewhere", waited, number=number))
                return
            # (unreachable, or a server without the request: played here, as before)
        level = str(seat["level"])
        words = self._round_words("classmates.round.computer", waited, number=number,
                                  level=text(f"levels.names.{level}"))
        deal = seat.get("seed")
        self._computer_round(level, str(seat["rules"]), int(seat["hands"]), words,
                             deal if isinstance(deal, str) else None)

    def shows_closed(self, table: Table) -> bool:
        """Whether `table` is this visitor's class table that closed before its match ended, as this page shows it
        (the computer not seated in it here)."""
        return table is self.table and self.code is None and table.computer_sat is None

    def board_shows(self, table: Table) -> None:
        """The section's board shows `table` now: the buttons of a class table that is not on the board give way (a
        closed table's "Finish against the computer" would seat the computer at a table nobody sees), and a closed
        one, never kept aside, is let go with the status that offered them."""
        if table is self.table:
            return
        for button in self.table_buttons:
            button.layout.display = "none"
        if self.code is None and self.table is not None:
            self.table = None
            self.status.value = ""

    # -- when the other has gone ------------------------------------------------------------------
    def finish(self) -> None:
        """The computer takes the gone classmate's seat; the server records how the match ended."""
        table, code = self.table, self.code
        if table is None:
            raise ClassRefused("not_seated")
        if table.refused("finish"):  # the one answer to what a class table offers, and why not, said on the board
            return
        level = self._level()
        if code is not None:  # the table is still open on the server: it records how the match ended
            self._ask_server(self.client.end, code, f"{COMPUTER}{level}")
            self.code = None
            self._show_entry(True)
            self.leave_button.layout.display = "none"
        else:  # it has closed: the server records that this page took it on, once (another page may have already)
            closed = self.table_code or table.code
            try:
                self._ask_server(self.client.take, closed)
            except ClassRefused as error:
                if error.key != "taken_elsewhere":
                    raise
                if not table.taken_elsewhere(closed):  # (the report saying so came while this page asked)
                    table.say(text("classmates.taken_elsewhere", code=closed))
                self._show_table_buttons()
                return
        words = text("classmates.computer_seated", level=text(f"levels.names.{level}"))
        table.seat_computer(self._computer(level), words, self._options()["hinter"])
        self._show_table_buttons()
        self.status.value = ""
        self._computer_seated(level)

    def _leave_pressed(self) -> None:
        """Leave at once a table nobody has sat down at; else ask first, since its match then counts as lost."""
        table = self.table
        if table is None or isinstance(table.mode, Seating):
            self._act(self.leave)
        else:
            self.leave_question.ask(name=table.name(1 - table.seat))

    def leave(self) -> None:
        """Leave the table: it ends for both."""
        code = self.code
        if code is None:
            raise ClassRefused("not_seated")
        self._ask_server(self.client.end, code, LEFT)
        self._closed(left=True)
        self.open_button.focus()  # Leave is gone: the keyboard goes back to the entry it showed again
        with contextlib.suppress(ClassRefused):  # the list is a help: the table is left either way
            self.show_open_tables()
