"""The waiting line of a class server (`waiting_line.WaitingLine`), with a clock the test moves; and the limits a
visit meets with it (`visits.visit_refusal`), on a stand-in for tornado's handler."""

from __future__ import annotations

import contextvars
from typing import Any

from fake_clock import Clock
from tornado.web import Finish

from leopard_tutor.engine.catalogue import text
from leopard_tutor.server import visits
from leopard_tutor.server.state import SETTING, ServerState
from leopard_tutor.server.waiting_line import (
    ADMITTED_SECONDS,
    FRESH_SECONDS,
    TICKET_SECONDS,
    ClassLine,
    WaitingLine,
    network_of,
)


def test_the_line_is_in_the_order_pages_first_asked_so_a_count_ahead_never_grows() -> None:
    line = WaitingLine(Clock())
    early, late = line.join("ana"), line.join("bo")
    assert early is not None and late is not None
    assert line.asked(late) and line.ahead(late) == 0  # the earlier ticket's page has not asked yet
    assert line.asked(early) and line.ahead(early) == 1 and line.ahead(late) == 0, "the late asker waits behind"
    line.admit(1)
    assert line.tickets[late].admitted is not None and line.tickets[early].admitted is None


def test_tickets_are_admitted_first_come_first_served_as_places_free() -> None:
    clock = Clock()
    line = WaitingLine(clock)
    a, b, c = (line.join(visitor) for visitor in ("ana", "bo", "ana"))
    assert a is not None and b is not None and c is not None
    assert len({a, b, c}) == 3 and all(len(t) == 16 for t in (a, b, c))
    assert all(line.asked(t) for t in (a, b, c))
    assert [line.ahead(t) for t in (a, b, c)] == [0, 1, 2]
    assert line.held("ana") == 2 and line.held("bo") == 1 and line.waiting() == 3 and line.claimed == 3
    line.admit(1)
    assert line.admitted() == 1 and line.tickets[a].admitted is not None
    assert line.ahead(b) == 1, "an admitted ticket is still ahead until its page is made"
    line.admit(1)
    assert line.admitted() == 1, "one place, already given"
    assert not line.enter(b), "not admitted: no way in"
    assert line.enter(a) and a not in line.tickets
    assert not line.enter(a), "a ticket lets in once"
    line.admit(2)
    assert line.tickets[b].admitted is not None and line.tickets[c].admitted is not None
    assert line.ahead(b) == 0 and line.ahead(c) == 0
    assert line.ahead("forged") is None and not line.asked("forged") and not line.enter("forged")
    assert not line.enter(None)


def test_a_page_that_stops_asking_loses_its_place_and_an_unused_admission_lapses() -> None:
    clock = Clock()
    line = WaitingLine(clock)
    gone, stays = line.join(None), line.join(None)
    assert gone is not None and stays is not None and line.asked(gone)
    for second in range(1, int(TICKET_SECONDS) + 2):  # one page asks every second, the other no more
        clock.now = second
        line.asked(stays)
    assert gone not in line.tickets and list(line.tickets) == [stays], "the page that stopped asking has gone"
    line.admit(1)
    clock.now += ADMITTED_SECONDS + 1
    line.admit(1)
    assert line.tickets == {}, "admitted but never came: its place lapses"


def test_a_server_that_stalls_loses_no_asking_page_its_place() -> None:
    """Pages ask every second, but a busy server may answer none of them for longer than TICKET_SECONDS: the first
    answer after the stall must not drop the pages whose questions are still waiting to be answered."""
    clock = Clock()
    line = WaitingLine(clock)
    first, second, new = line.join("ana"), line.join("bo"), line.join("cy")
    assert first is not None and second is not None and new is not None
    assert line.asked(first) and line.asked(second) and line.ahead(second) == 1
    clock.now = TICKET_SECONDS + 5  # nothing answered meanwhile
    assert line.asked(first), "the page asking first after the stall keeps its place"
    assert line.asked(second) and line.ahead(second) == 1, "and so does the one asking next: nobody jumps ahead"
    assert line.asked(new) and line.ahead(new) == 2, "a page given its ticket before the stall asks at last"
    for _ in range(int(TICKET_SECONDS) + 1):  # the second and third pages really stop asking; the first asks on
        clock.now += 1
        line.asked(first)
    assert second not in line.tickets and new not in line.tickets and line.ahead(first) == 0


def test_a_quiet_spell_gives_no_time_back_to_tickets_nobody_asks_for() -> None:
    """A gap with no page asking is not a stall: a thrown-away ticket goes after TICKET_SECONDS however rarely the
    line is looked at."""
    clock = Clock()
    line = WaitingLine(clock)
    thrown = line.join("script")
    for second in (4, 8, 12):  # a visit now and then, more than STALL_SECONDS apart
        clock.now = second
        line.prune()
    assert thrown not in line.tickets


def test_a_ticket_whose_page_never_asked_is_neither_admitted_nor_ahead_of_anyone() -> None:
    clock = Clock()
    line = WaitingLine(clock)
    thrown = [line.join(f"script-{number}") for number in range(3)]
    student = line.join("ana")
    assert student is not None and line.asked(student)
    assert line.ahead(student) == 0 and line.waiting() == 1, "tickets nobody asks for are not in the way"
    line.admit(1)
    assert line.tickets[student].admitted is not None
    assert all(line.tickets[token or ""].admitted is None for token in thrown)
    clock.now = TICKET_SECONDS + 0.5
    line.prune()
    assert list(line.tickets) == [student], "admitted, it waits for its page; the others have gone"


def test_a_visitor_without_a_cookie_gets_one_ticket_per_address_and_second() -> None:
    clock = Clock()
    line = WaitingLine(clock)
    assert line.join(None, "10.0.0.7") is not None
    assert line.join(None, "10.0.0.7") is None, "the same address within the second: no ticket"
    assert line.join(None, "::ffff:10.0.0.7") is None, "the same address written as IPv6"
    assert line.join(None, "10.0.0.8") is not None, "another address"
    assert line.join(None, "2001:db8:1:2::5") is not None
    assert line.join(None, "2001:db8:1:2:ffff::9") is None, "the same IPv6 /64"
    assert line.join("ana") is not None and line.join("ana") is not None, "a visitor with a cookie is not counted so"
    clock.now = FRESH_SECONDS
    assert line.join(None, "10.0.0.7") is not None, "a second later"
    line.prune()
    assert set(line.fresh) == {"10.0.0.7"}, "the addresses of tickets older than a second are forgotten"
    assert network_of("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64" and network_of("unix") == "unix"


class Handler:
    """What `visit_refusal` reads of a tornado handler, and what it answered."""

    def __init__(self, visitor: str) -> None:
        self.request = type("Request", (), {"headers": {}, "method": "GET", "uri": "/", "remote_ip": "10.9.9.9"})()
        self.current_user, self.status, self.answer, self.sent = visitor, 200, "", {}
        self.settings: dict[str, Any] = {"base_url": "/", SETTING: ServerState()}

    def set_status(self, status: int) -> None:
        self.status = status

    def set_header(self, name: str, value: str) -> None:
        self.sent[name] = value

    def finish(self, answer: str) -> None:
        self.answer = answer


def refused(handler: Handler, cap: int, line: WaitingLine) -> bool:
    """Whether `visit_refusal` refuses `handler`'s visit (in a context of its own, as tornado answers it)."""
    try:
        contextvars.copy_context().run(visits.visit_refusal, handler, ServerState(limit=cap, line=ClassLine(line)))
    except Finish:
        return True
    return False


def test_visits_nobody_follows_up_do_not_shut_the_class_out() -> None:
    """As many visits without cookies as the cap, from as many addresses, take every place in line; nobody asks
    for them. A moment later the class is full; TICKET_SECONDS later a new visit is let in."""
    clock, cap = Clock(), 30
    line = WaitingLine(clock)
    for number in range(cap):
        assert line.join(f"thrown-{number}", f"10.0.{number}.1") is not None
    clock.now = 1.0
    full = Handler("ana")
    assert refused(full, cap, line) and full.status == 503
    assert full.sent["Retry-After"] == str(visits.FULL_RETRY_SECONDS)
    assert f'<meta http-equiv="refresh" content="{visits.FULL_RETRY_SECONDS}">' in full.answer
    assert visits.FULL_RETRY_SECONDS == 60, "the catalogue says the page tries again every minute"
    clock.now = TICKET_SECONDS + 1.5
    assert not refused(Handler("ben"), cap, line), "the places nobody asked for have gone"
    assert line.tickets == {}


def test_the_waiting_page_of_a_visit_given_no_ticket_asks_again_after_a_moment() -> None:
    line = ClassLine()
    handler: Any = Handler("ana")
    visits.waiting_page(handler, line, "10.0.0.1")
    first = handler.answer
    handler.answer = ""
    visits.waiting_page(handler, line, "10.0.0.1")
    assert len(line.line.tickets) == 1, "one ticket for the address this second"
    assert "leopard/line?ticket=&lang=" in handler.answer and "setTimeout(ask, 1000)" in handler.answer
    assert "setTimeout(ask, 0)" in first
    placing = text("app.preparing_place")
    assert f"<title>{placing}</title>" in first and f'aria-label="{placing}"' in first, \
        "no count until the page's first question places it: a count told before could grow"
    assert line.place("", None) == {"gone": True}, "told to come again (with its cookie, for a ticket)"
