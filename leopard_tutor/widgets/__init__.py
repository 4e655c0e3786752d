"""Jupyter widgets for Leopard: one anywidget board for every table, and the Play section.

The board
---------
`LeopardBoard(controller)` (board.py) is one anywidget whose JavaScript and CSS are the real files
`static/board.js` and `static/board.css`. The page is dumb: it draws the synced `state` dict and sends
intents; Python decides everything. The board calls `controller.handle(intent)` then shows
`controller.board_state()`. Any `ValueError` (bad input, a `LeopardError`) becomes the message in the
live region and changes nothing; any other exception is logged and shown in the board's error area
(an alert, no traceback). `board.act(fn)` runs other controls' callbacks the same way, and
`board.control(fn, undo)` does so under the kernel's pace, which every click on every board and control
of a kernel shares (`pacing.py`; `board.follow_pick(dropdown, fn)` for a picker, put back when refused);
`board.listeners` are called after each handled intent; `board.dispatch(intent)` is what a click does,
unpaced (tests call it directly). The page writes no trait of the board (`PageWrites`).

A controller is anything with `handle(intent)` and `board_state() -> BoardState` (`BoardController`); the
board shows `board_state().as_dict()`. They live outside the widgets, in `leopard_tutor.table`: `Table` is the
one for a match (against the computer, or between two people at this device); a lesson, a practice question
and a worked example have their own (`LearnController` in table/lesson_table.py, `PracticeController` in
table/practice_table.py, `ExampleController` in table/example_table.py), reusing the presenter functions
(`leopard_tutor.table.presenter`) and `Marks` for the picked card and the marks of the last moves.

Intents the page sends
    {"type": "select", "index": i}              a card of the hand (index into state["hand"]["cards"])
    {"type": "space", "square": key, "space": n} a space, `key` being that square's "key"
    {"type": "discard"}                          the discard pile
    {"type": "action", "id": ident}              a button of state["actions"]
    {"type": "action", "id": "review_goto", "step": n}   a move of a review's list (an aside list item's "step")
    {"type": "answer", "value": n or null}       the answer box's number

State schema (all parts except "squares" are optional; `BoardState.as_dict()` makes a NEW dict each time)
    squares: [ {key, label, value, value_text, cells, lines, lines_label} ... ]  drawn top to bottom
        label        "Your square" / "Opponent's square" / "Square": starts every space's name
        value_text   "Your square is worth 6"
        lines_label  "Your square, lines": the accessible name of the list of its lines (for a screen reader)
        cells        9 dicts in drawing order (row by row from the top-left, as the rule set lays out):
                     space (label 1..9), card (face-up top: {code, rank, suit, symbol, color, name}) or None,
                     face_down, known (a face-down card the viewer laid) or None, depth (pile size),
                     name (accessible name: "Your square, space 7, 7 of hearts"), target (lit: legal),
                     dim, why (a sentence from check_play shown on hover/focus), last (just played on)
        lines        [{name, spaces (the line's three labels: its key), kind "suit"|"color"|None, points,
                     label "+3"/"−3", text, status
                     ""|"formed"|"weakened"|"broke", cells: 3 drawing indices}]  scoring lines, and lines that broke
    hand: {label, title, cards: [{index, card, selected, playable, name, why}]}   none on a hand-over screen
                       between two people; `title` is drawn over the cards ("Your hand: 8 cards"), `label` names
                       them; `why` says why a card that is not playable has nowhere to go now
    stock: {count}     discard: {top, count, target, dim, why, name}     opponent_hand: {count}
    actions: [{id, label, enabled, note (why it is disabled), primary, wait}]   a disabled one is drawn greyed,
                       reached by the keyboard and described by its note; pressed, it shows the note and sends
                       nothing; `wait` (optional), one the page greys while the computer chooses its reply
    aside: [panel ...]  the side column, each panel a dict with its "kind": goal, text, actions, list, table or
                       pairs (made by `presenter.goal_panel`, `text_panel`, `actions_panel`, `list_panel`,
                       `table_panel`, `pairs_panel`)
    moves: [{by, target, card}]   the moves the last intent made, for the page to show travelling
                       (`presenter.moves_part`)
    answer: {label, button, min, max, enabled, why (why it is disabled)}   a box for a number and its button, greyed
                       as a disabled action is
    turn: str          message: str (the aria-live region), tone "info"|"ok"|"warn", seq (bump to re-announce)
    error: str         an unexpected failure, shown as an alert
    inert: str         why the cards, spaces and discard pile take no click now (on hover and focus)
    thinking: str      while the computer chooses its reply to the move drawn: why no click is taken meanwhile
    message_room: [str]  messages the live region keeps room for (an example's captions): as tall as the tallest
    note: str          the line under the message while nothing is pointed at (Learn: a finished stage's reason)
    search: {deals, seconds, share, hurried}  Play only: how the computer's last turn was searched (an opponent
                       with a time budget); not drawn, read by benchmarks/classroom_load.py

Presenter (`leopard_tutor.table.presenter`, its parts of a position in `leopard_tutor.board_parts`):
`card_data(card)`, `square_part(square, rules, key=, label=, targets=, reasons=, last=, changes=, dim=)`,
`hand_part(cards, selected=, playable=)`, `action(id, label, enabled=, note=)`, `play_targets(view, card)` and
`table_state(view, selected=, message=, ...)` for a whole table seen by one player. A single square (a worked
example) is `BoardState(squares=(square_part(...),))`.

The Play section
----------------
`Table(seats, rules=, seed=, hinter=, hands=, reviewer=)` (`leopard_tutor.table`): `against_computer(chooser)`
seats the learner as player 0 against `chooser.choose(view)` (tests pass a simple chooser, the app
`leopard_tutor.ai.make_player(level)`); `at_one_device(names)` seats two people taking turns with the page, a
hand-over screen between their turns. `hinter(view)` returns a hint whose `.ladder` is shown a rung per press;
`reviewer(player)` makes the review of a hand (`leopard_tutor.ai.review.HandReview`), kept up to date after
every move and refined in the background. Its words live in the catalogue (texts/en/play.json, review.json).
`PlaySection(table, opponent_factory, level)` / `build_play(...)` (play_section.py) wraps it with ipywidgets
controls (the opponent menu has every registered level, "adaptive" and someone at this device, whose two
names are typed beside it) and the Save game / Resume control.
"""

from .board import LeopardBoard
from .play_section import PlaySection, build_play

__all__ = ["LeopardBoard", "PlaySection", "build_play"]
