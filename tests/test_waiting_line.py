"""The waiting line of a class server (`waiting_line.WaitingLine`), with a clock the test moves."""

from __future__ import annotations

from fake_clock import Clock

from leopard_tutor.server.waiting_line import ADMITTED_SECONDS, TICKET_SECONDS, WaitingLine


def test_tickets_are_admitted_first_come_first_served_as_places_free() -> None:
    clock = Clock()
    line = WaitingLine(clock)
    a, b, c = (line.join(visitor) for visitor in ("ana", "bo", "ana"))
    assert len({a, b, c}) == 3 and all(len(t) == 16 for t in (a, b, c))
    assert [line.ahead(t) for t in (a, b, c)] == [0, 1, 2]
    assert line.held("ana") == 2 and line.held("bo") == 1
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
    assert line.ahead("forged") is None and not line.enter("forged") and not line.enter(None)


def test_a_page_that_stops_asking_loses_its_place_and_an_unused_admission_lapses() -> None:
    clock = Clock()
    line = WaitingLine(clock)
    gone, stays = line.join(None), line.join(None)
    clock.now = TICKET_SECONDS - 1
    line.ahead(stays)
    clock.now = TICKET_SECONDS + 1
    line.prune()
    assert gone not in line.tickets and list(line.tickets) == [stays], "the page that stopped asking has gone"
    line.admit(1)
    clock.now += ADMITTED_SECONDS + 1
    line.admit(1)
    assert line.tickets == {}, "admitted but never came: its place lapses"
