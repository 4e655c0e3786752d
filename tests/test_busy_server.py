"""A searching opponent on a busy server: when it gets less than half a processor while it thinks, it
searches fewer than half its usual deals, and the learner is told the computer is playing faster than usual."""

from __future__ import annotations

from keyed import mark

from leopard_tutor.engine import Match, Move, PlayerView
from leopard_tutor.table import Computer, Table, against_computer
from leopard_tutor.table.seats import HURRIED_SHARE
from leopard_tutor.widgets import LeopardBoard

HURRIED = mark("play.hurried")
"""What the board says of a move the computer had too little time for (under `keyed`)."""


class Clocks:
    """A wall clock and a processor clock that the fake opponent moves on."""

    def __init__(self) -> None:
        self.wall = self.cpu = 0.0


class Searcher:
    """Searches `deals` deals in `budget` seconds of wall time, getting `share` of a processor meanwhile."""

    def __init__(self, clocks: Clocks, share: float, budget: float = 0.9, deals: int = 40) -> None:
        self.clocks, self.share, self.time_budget, self.deals = clocks, share, budget, deals
        self.last_deals = 0

    def choose(self, view: PlayerView) -> Move:
        self.clocks.wall += self.time_budget
        self.clocks.cpu += self.time_budget * self.share
        self.last_deals = self.deals
        return view.legal_moves()[-1]


def board_against(share: float) -> tuple[LeopardBoard, Table]:
    clocks = Clocks()
    seed = next(s for s in range(100) if Match(seed=s).current.to_move == 0)
    controller = against_computer(Searcher(clocks, share), seed=seed)
    seat = controller.seats[1]
    assert isinstance(seat, Computer)
    seat.clocks = (lambda: clocks.wall, lambda: clocks.cpu)
    board = LeopardBoard(controller)
    board.dispatch({"type": "select", "index": 0})
    board.dispatch({"type": "discard"})
    return board, controller


def test_a_starved_search_is_said_and_its_facts_are_in_the_state(keyed: None) -> None:
    board, _ = board_against(share=0.3)
    assert HURRIED in board.state["message"]
    assert board.state["search"] == {"deals": 40, "seconds": 0.9, "share": 0.3, "hurried": True}


def test_a_search_with_a_processor_to_itself_says_nothing(keyed: None) -> None:
    board, controller = board_against(share=1.0)
    assert HURRIED not in board.state["message"] and board.state["search"]["hurried"] is False
    assert controller.search is not None and controller.search.share == 1.0 and HURRIED_SHARE == 0.5


def test_an_opponent_without_a_budget_has_no_search(keyed: None) -> None:
    class Quick:
        def choose(self, view: PlayerView) -> Move:
            return view.legal_moves()[0]

    seed = next(s for s in range(100) if Match(seed=s).current.to_move == 0)
    board = LeopardBoard(against_computer(Quick(), seed=seed))
    board.dispatch({"type": "select", "index": 0})
    board.dispatch({"type": "discard"})
    assert "search" not in board.state and HURRIED not in board.state["message"]
