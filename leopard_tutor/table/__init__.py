"""The table: a match of Leopard between two seats, and what every board of the app shares, with no widget.

- `Table` (table.py): the match, two seats and one mode at a time (`Playing`, `Waiting` for a seat elsewhere,
  `HandOver` of the device to the other person here, `Reviewing`, `Retrying`; modes.py). After every move it
  asks the seat to move with `seat.ask(view)`: a `Computer` answers at once, a `PersonHere` through this
  page's clicks, a `PersonElsewhere` later through `Table.receive(player, move)` (seats.py).
  `against_computer(chooser)` and `at_one_device(names)` make the two tables the Play section offers.
- `Marks` (marks.py): the picked card and the marks of the last moves, for Play, Learn and Practice.
- `BoardState` (state.py): the board as one typed value; `as_dict()` is the dict `board.js` reads.
- presenter.py: the parts of a board state from engine objects (`table_state`, `square_part`, ...).
- intents.py: `TableController` (the live-region message and the intents routed to methods), `BadIntent`.
"""

from .intents import BadIntent, BoardController, TableController, whole_number
from .marks import Marks
from .modes import HandOver, LogEntry, Mode, Playing, Retrying, Reviewing, Waiting
from .seats import MAX_NAME, Chooser, Computer, PersonElsewhere, PersonHere, Search, Seat
from .state import BoardState, State
from .table import HintFn, Table, against_computer, at_one_device

__all__ = [
    "MAX_NAME", "BadIntent", "BoardController", "BoardState", "Chooser", "Computer", "HandOver", "HintFn", "LogEntry",
    "Marks", "Mode", "PersonElsewhere", "PersonHere", "Playing", "Retrying", "Reviewing", "Search", "Seat", "State",
    "Table", "TableController", "Waiting", "against_computer", "at_one_device", "whole_number",
]
