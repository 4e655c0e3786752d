"""The table: a match of Leopard between two seats, and what every board of the app shares, with no widget.

- `Table` (table.py): the match, two seats and one mode at a time (`Seating` for a classmate, `Playing`,
  `PassingDevice` to the other person here, `HandFinished`, `MatchFinished`, `Reviewing`, `Retrying`, `Closed`;
  modes.py). After every move it asks the seat to move with `seat.ask(view)`: a `Computer` answers at once, a
  `PersonHere` through this page's clicks, a `PersonElsewhere` later through `Table.receive(player, move)`
  (seats.py). Whose move it is, is the turn runner's (engine/turns.py). `against_computer(chooser)` and
  `at_one_device(names)` make the two tables the Play section offers; `ClassTable` (class_table.py) a seat at a
  table between classmates.
- machine.py: the transition table (mode × intent → modes), the one place a table's mode may change; offers.py:
  which actions a mode offers, and why not the others.
- `Marks` (marks.py): the picked card and the marks of the last moves, for Play, Learn and Practice.
- `BoardState` (state.py): the board as one typed value; `as_dict()` is the dict `board.js` reads.
- presenter.py: a board state from engine objects (`table_state`, `hand_part`, the side column's panels, ...), its
  squares' parts made in `leopard_tutor.board_parts` (`square_part`).
- intents.py: `TableController` (the live-region message and the intents routed to methods), `BadIntent`.
- The boards of the other sections, each a `TableController` imported from its own module: `LearnController`
  (lesson_table.py: a lesson's stage in progress), `PracticeController` (practice_table.py: a practice question
  and its answer) and `ExampleController` (example_table.py: a worked example stepped through).
"""

from ..class_codes import MAX_NAME
from .intents import BadIntent, BoardController, TableController, whole_number
from .marks import Marks
from .modes import (
    Closed,
    HandFinished,
    LogEntry,
    MatchFinished,
    Mode,
    PassingDevice,
    Playing,
    Retrying,
    Reviewing,
    Seating,
)
from .seats import Chooser, Computer, PersonElsewhere, PersonHere, Search, Seat
from .state import BoardState, State
from .table import HintFn, Table, against_computer, at_one_device

__all__ = [
    "MAX_NAME", "BadIntent", "BoardController", "BoardState", "Chooser", "Closed", "Computer", "HandFinished",
    "HintFn", "LogEntry", "Marks", "MatchFinished", "Mode", "PassingDevice", "PersonElsewhere", "PersonHere",
    "Playing", "Retrying", "Reviewing", "Search", "Seat", "Seating", "State", "Table", "TableController",
    "against_computer", "at_one_device", "whole_number",
]
