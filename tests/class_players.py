"""Classmates at the protocol level: what a page does to play a classmate, over its kernel websocket (a `Visit`).

`choose_classmate(visit, name)` picks "A classmate" as the opponent and types the name; `open_table(visit)` opens a
table and reads its code; `join_table(visit, code)` joins it; `board_update(visit, test)` waits for the board state
the kernel pushes (the other player's move); `seated_with(table, name)` says whether that state is the class table
against `name` under way (not the board the page showed before it); `play_turn(visit, rng)` makes one move of the
player's turn by clicks; `keep_name(visit, name)` keeps a name in the student bar, as the class page shows it. Used by
tests/test_class_server.py, tests/test_rounds_server.py and benchmarks/class_tables.py.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from kernel_client import Visit, VisitError
from rendered import escaped, pattern

from leopard_tutor.engine import Play, lies_face_down
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.moves import move_to_data

CODE_SHOWN = pattern("classmates.opened", code="[A-Z]{4}")
"""The status line once a table is open, its code the first group (the server's language: English)."""


def model_where(visit: Visit, test: Any) -> str:
    """The id of the first widget whose state satisfies `test`."""
    for model_id, model in visit.states.items():
        if test(model.get("state", {})):
            return model_id
    raise VisitError("no such widget on the page")


def with_class(name: str) -> Any:
    return lambda state: name in state.get("_dom_classes", ())


async def update(visit: Visit, model: str, state: dict[str, Any]) -> None:
    """What the page sends when the learner changes a control (a text typed, an item picked)."""
    await visit.send("shell", "comm_msg", {"comm_id": model, "data": {"method": "update", "state": state,
                                                                      "buffer_paths": []}})


async def press(visit: Visit, model: str) -> None:
    """What the page sends when a button is clicked."""
    await visit.send("shell", "comm_msg", {"comm_id": model, "data": {"method": "custom",
                                                                      "content": {"event": "click"}}})


def button(visit: Visit, label: str) -> str:
    return model_where(visit, lambda s: s.get("description") == label and "button_style" in s)


async def keep_name(visit: Visit, name: str) -> None:
    """Type `name` in the student's name box and press Keep, as a student does."""
    await update(visit, model_where(visit, with_class("lt-student-box")), {"value": name})
    await press(visit, button(visit, text("students.keep")))


async def choose_classmate(visit: Visit, name: str) -> None:
    """Pick "A classmate" in the opponent menu (from a match against the computer: the board then says how a
    classmate's match begins) and type `name`."""
    choice = text("classmates.choice")
    menu = model_where(visit, lambda s: choice in s.get("_options_labels", ()))
    index = list(visit.states[menu]["state"]["_options_labels"]).index(choice)
    await update(visit, menu, {"index": index})
    said = (text("classmates.choose"), text("classmates.choose_board"), text("classmates.choose_kept"))
    await board_update(visit, lambda table: table.get("message") in said)
    await update(visit, model_where(visit, with_class("lt-class-name")), {"value": name})


async def status_text(visit: Visit) -> str:
    """The classmate controls' status line now (asked again of the kernel)."""
    await visit.fetch_states()
    return str(visit.states[model_where(visit, with_class("lt-class-status"))]["state"].get("value", ""))


async def open_table(visit: Visit, timeout: float = 30) -> str:
    """Click "Open a table"; the code the page shows."""
    await press(visit, button(visit, text("classmates.open")))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = CODE_SHOWN.search(await status_text(visit))
        if found:
            return found.group(1)
        await asyncio.sleep(0.2)
    raise VisitError("no table code was shown")


async def join_table(visit: Visit, code: str) -> None:
    """Type `code` in the table code box and click "Join table"."""
    await update(visit, model_where(visit, with_class("lt-class-code")), {"value": code})
    await press(visit, button(visit, text("classmates.join")))


def is_board_update(visit: Visit, message: dict[str, Any]) -> dict[str, Any] | None:
    """The table state in `message` if it is an update of the board's state."""
    content = message["content"]
    if message["header"].get("msg_type") != "comm_msg" or content.get("comm_id") != visit.board:
        return None
    data = content.get("data", {})
    if data.get("method") not in ("update", "echo_update"):
        return None
    table = data.get("state", {}).get("state")
    return table if isinstance(table, dict) else None


def latest_board(visit: Visit) -> dict[str, Any]:
    """The board's table as the last frame the page received shows it (kept as the board's state)."""
    for message in reversed(visit.received):
        table = is_board_update(visit, message)
        if table is not None:
            visit.states[visit.board]["state"]["state"] = table
            break
    return visit.table()


async def board_update(visit: Visit, test: Any, timeout: float = 60) -> dict[str, Any]:
    """The board's table once the kernel shows one satisfying `test` (the one shown now, if it does)."""
    if test(latest_board(visit)):
        return visit.table()
    future = visit.expect(lambda m: (t := is_board_update(visit, m)) is not None and test(t))
    message = await asyncio.wait_for(future, timeout)
    table = is_board_update(visit, message)
    assert table is not None
    visit.states[visit.board]["state"]["state"] = table
    return table


def moves_made(table: dict[str, Any]) -> int:
    """How many moves the board's move log lists."""
    log = next((panel for panel in table.get("aside", ()) if "lt-log" in str(panel.get("list_class", ""))), None)
    return len(log.get("items", ())) if log else 0


def turn_of(table: dict[str, Any], name: str) -> bool:
    """Whether the board's turn line says it is `name`'s turn (the classmate's, on this page)."""
    return pattern("play.people.turn.of", number=r"\d+", hands=r"\d+", rules=".+",
                   name=escaped(name)).fullmatch(str(table.get("turn", ""))) is not None


def my_turn(table: dict[str, Any]) -> bool:
    """Whether the board's turn line says it is this page's player's turn."""
    return pattern("play.turn.yours", number=r"\d+", hands=r"\d+", rules=".+").fullmatch(
        str(table.get("turn", ""))) is not None


def in_play(table: dict[str, Any], *names: str) -> bool:
    """Whether the board's turn line says it is this page's player's turn or one of `names`'."""
    return my_turn(table) or any(turn_of(table, name) for name in names)


def facing(table: dict[str, Any], name: str) -> bool:
    """Whether the board shows this page's class table against the classmate `name` (its other square is theirs), not
    the board it showed before (the page's own match against the computer also says "your turn", and its move log
    may hold the computer's first move)."""
    return text("play.people.square", name=name) in [square.get("label") for square in table.get("squares", ())]


def seated_with(table: dict[str, Any], name: str) -> bool:
    """Whether the board shows this page's class table against `name` with a match under way (whose turn it is)."""
    return facing(table, name) and in_play(table, name)


def enabled(table: dict[str, Any], ident: str) -> bool:
    return any(a["id"] == ident and a["enabled"] for a in table.get("actions", []))


async def play_turn(visit: Visit, rng: random.Random) -> dict[str, Any]:
    """One move of this page's player by clicks: pick a card, then a lit space or the discard pile; the board after."""
    table = visit.table()
    if enabled(table, "go_out") and rng.random() < 0.3:
        answer, _ = await visit.click({"type": "action", "id": "go_out"})
        return answer or visit.table()
    cards = table["hand"]["cards"]
    await visit.click({"type": "select", "index": rng.randrange(len(cards))})
    table = visit.table()
    targets = [(square["key"], cell["space"]) for square in table["squares"] for cell in square["cells"]
               if cell["target"]]
    if targets and rng.random() < 0.85:
        square, space = rng.choice(targets)
        answer, _ = await visit.click({"type": "space", "square": square, "space": space})
    else:
        answer, _ = await visit.click({"type": "discard"})
    return answer or visit.table()


def play_face_down_first(tables: Any, code: str, visitors: tuple[str, str], count: int = 24) -> None:
    """Make `count` moves at class table `code` of the server's `tables` (a `Referee`) for its two `visitors`,
    a jack or queen played face down whenever one may be (else the first legal move): squares with hidden cards."""
    hand = tables.tables[code].match.current
    for number in range(count):
        moves = hand.legal_moves()
        move = next((m for m in moves if isinstance(m, Play) and lies_face_down(m.card)), moves[0])
        tables.move(visitors[hand.to_move], code, number, move_to_data(move))
