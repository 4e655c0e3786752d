"""`LeopardBoard`: the one anywidget that draws a Leopard table and forwards clicks to a controller."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import anywidget
import traitlets

from ..engine.catalogue import text, texts
from ..engine.errors import error_words, is_keyed, quote
from ..pacing import kernel_pace
from ..table import BadIntent, BoardController, BoardState, Table

STATIC = Path(__file__).parent / "static"
ALIVE_EVERY_MS = 15_000
"""How often a board in sight asks its kernel whether it is there (between clicks): the fallback, within this and
the page's 20 s wait for the answer, for a kernel gone without a word from the page's kernel connection (which
the page hears first: a stopped or restarted server, a dead kernel show within a few seconds, board.js)."""
ALIVE_ASKED, ALIVE_SAID = {"type": "alive?"}, {"type": "alive"}
FOCUS_TABLE = {"type": "focus_table"}
"""What the kernel sends when another table is on the board for the keyboard to play (`LeopardBoard.focus_table`)."""
log = logging.getLogger(__name__)

T = TypeVar("T")


class PageWrites:
    """For an anywidget: the page may write only the traits in `page_writes`, each with its type.

    A page that writes any other trait (or one of the wrong type) is refused without a traceback: nothing
    changes in the kernel and the kernel's values are sent back, so the page shows them again."""

    page_writes: ClassVar[Mapping[str, type | tuple[type, ...]]] = {}
    """The traits the page may write, and their types: none unless a widget says so."""

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Take a state update from the page: what it may write; the rest is refused and sent back."""
        taken = {name: value for name, value in sync_data.items()
                 if name in self.page_writes and isinstance(value, self.page_writes[name])}
        refused = [name for name in sync_data if name not in taken and name in self.keys]  # type: ignore[attr-defined]
        if refused:
            self.send_state(refused)  # type: ignore[attr-defined]
        if taken:
            super().set_state(taken)  # type: ignore[misc]


class LeopardBoard(PageWrites, anywidget.AnyWidget):
    """The Leopard table: squares, hand, stock, discard pile, opponent's hand, actions, live message.

    The page renders `state` and sends intents (it writes no trait: see `PageWrites`); `controller.handle`
    decides, then the board shows `controller.board_state()`. Errors never escape: bad input is shown as
    the message, anything unexpected in the error area (and logged), with no traceback.
    """

    _esm = "\n".join((STATIC / name).read_text(encoding="utf-8") for name in ("kept.js", "cards.js", "board.js"))
    """board.js after cards.js (how a card and a space are drawn, which the class page's watch view draws too) and
    kept.js (whether the browser keeps site data, which the lost-connection notice says)."""
    _css = STATIC / "board.css"
    state = traitlets.Dict().tag(sync=True)
    alive_every = traitlets.Int(0 if sys.platform == "emscripten" else ALIVE_EVERY_MS).tag(sync=True)
    """Milliseconds between the page's questions whether its kernel is there (0: none: in a browser's own Python,
    the static site, the kernel cannot go away without its page)."""
    texts = traitlets.Dict().tag(sync=True)
    """Words the page shows on its own: the lost-connection notice, its reload button, the busy cue (in the
    language of the moment when the board is made)."""

    @traitlets.default("texts")
    def _page_texts(self) -> dict[str, str]:
        return texts("board.page")

    def __init__(self, controller: BoardController | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self._shown: BoardController | None = None  # the controller whose state the board shows now
        self._seq_from = 0  # added to its message numbers: a controller seated later is announced afresh
        self.listeners: list[Callable[[Mapping[str, Any]], None]] = []
        self.pace = kernel_pace()
        self.on_msg(self._on_custom_msg)
        if controller is not None:
            self.refresh()

    def _on_custom_msg(self, _widget: object, content: object, _buffers: object) -> None:
        if content == ALIVE_ASKED:  # the page asks whether its kernel is there: it is (nothing else is done)
            self.send(ALIVE_SAID)
            return
        try:
            self.paced(lambda: self.dispatch(content))
        finally:
            self.send({"type": "done"})  # the page sends one intent at a time: this lets it send the next

    def control(self, change: Callable[[], object], undo: Callable[[], object] | None = None) -> bool:
        """What a control beside the board does when clicked (a button, a picker): `act(change)`, under the
        kernel's pace like a click on the board; beyond it nothing is done and `undo()` puts the control
        back as it was. Whether it was done."""
        return self.paced(lambda: self.act(change), undo)

    @staticmethod
    def redeals(pick: Any) -> None:
        """Mark a menu beside the board that deals afresh (the rules, the opponent, the questions, the example): once
        it is told to the kernel, the page keeps the board busy, taking no click, until the kernel has dealt (board.js
        asks the kernel whether it is there right after the menu's message, and the answer comes after it)."""
        pick.add_class("lt-redeals")

    def paced(self, action: Callable[[], object], undo: Callable[[], object] | None = None) -> bool:
        """Run `action` if the kernel's pace takes it (see pacing.py); beyond the pace it is dropped, `undo()`
        is called, and the board says now and then that clicks were dropped. Whether it ran."""
        if self.pace.run(action):
            return True
        if undo is not None:
            self.guard(undo)
        if self.pace.say_refusal(self):  # (what the pace was short of: too many clicks, or too much work just now)
            self.show_message(text("board.too_fast") if self.pace.short == "clicks" else
                              text("board.too_busy", seconds=self.pace.wait_seconds()), tone="warn")
        return False

    def follow_pick(self, pick: Any, change: Callable[[Any], object]) -> None:
        """When the page changes `pick`'s value (a dropdown), `control(change(new value))`; a change beyond
        the pace puts the pick back. The board is busy on the page until then (`redeals`)."""
        self.redeals(pick)
        putting_back = False

        def changed(event: Mapping[str, Any]) -> None:
            nonlocal putting_back
            if putting_back:
                return

            def put_back() -> None:
                nonlocal putting_back
                putting_back = True
                try:
                    pick.value = event["old"]
                finally:
                    putting_back = False
            self.control(lambda: change(event["new"]), put_back)
        pick.observe(changed, names="value")

    def refresh(self) -> None:
        """Show the controller's current state. A controller put in another's place (a new table) has message
        numbers of its own: they are counted on from the last one shown, so its message is announced, never taken
        for the one already on the board."""
        controller = self.controller
        if controller is None:
            return
        if controller is not self._shown:
            self._shown, self._seq_from = controller, int(self.state.get("seq") or 0) + 1
            if isinstance(controller, Table):  # (its move drawn while the computer chooses a reply)
                controller.on_thinking = self._draw_thinking
        self._draw(controller.board_state())

    def _draw(self, state: BoardState) -> None:
        """Draw `state`, its message number counted on from the controller's first (`refresh`)."""
        drawn = state.as_dict()
        drawn["seq"] = self._seq_from + int(drawn["seq"])
        self.state = drawn

    def dispatch(self, intent: object) -> None:
        """Handle one intent from the page (or a test) through the controller, then redraw."""
        def run() -> None:
            if not isinstance(intent, Mapping) or not isinstance(intent.get("type"), str):
                raise BadIntent(f"the board sent {quote(intent)}, which is not an intent")
            if self.controller is None:
                raise BadIntent("this board has no controller to handle clicks")
            self.controller.handle(intent)
        self.act(run, intent if isinstance(intent, Mapping) else {})

    def _draw_thinking(self, state: BoardState) -> None:
        """Draw `state`, the table's while the computer chooses its reply (`Table.on_thinking`): the page keeps its busy
        cue until the reply's own state comes."""
        if self.controller is self._shown:  # (not a table the board no longer shows)
            self._draw(state)

    def act(self, change: Callable[[], object], intent: Mapping[str, Any] | None = None) -> None:
        """Run `change` (engine calls through the controller) under `guard`, then redraw and tell listeners.

        Ordinary controls beside the board (ipywidgets buttons, dropdowns) use this too, through `control`
        (under the kernel's pace), so their errors reach the page the same way.
        """
        def run() -> None:
            change()
            self.refresh()
            for listener in list(self.listeners):
                listener(intent or {})
        self.guard(run)

    def guard(self, action: Callable[[], T]) -> T | None:
        """Run `action`; a ValueError becomes the board's message, anything else its error text. The page shows
        an error's own words only when it carries a catalogue key (`is_keyed`: its words are in the page's
        language); a programmer's error is logged and the page says, in its language, that nothing changed."""
        try:
            return action()
        except ValueError as error:
            if not is_keyed(error):
                log.info("Leopard board refused an action: %s", error)
            self.show_message(str(error) if is_keyed(error) else text("board.refused"), tone="warn")
        except Exception as error:  # every callback reports into the page, never swallowed
            log.exception("Leopard board callback failed")
            self.show_error(text("board.failed", error=error_words(error)))
        return None

    def focus_table(self, waited: bool = False) -> None:
        """Another table is on the board, to be played now (the next stage, a class table joined): the page brings it
        into view and puts the keyboard on it (the hand, else the first square), where it had stayed on the button
        pressed, or the one nearest it. A table that `waited` (for a classmate to sit down) takes the keyboard only
        from the board's own section, never from wherever else the learner went meanwhile."""
        self.send({**FOCUS_TABLE, "waited": True} if waited else FOCUS_TABLE)

    def show_message(self, text: str, tone: str = "info") -> None:
        """Put `text` in the board's live region, under a message number of its own: the controller's later
        messages are numbered after it (the page takes a message it already shows by its number)."""
        state = dict(self.state)
        state.update(message=text, tone=tone, seq=int(state.get("seq", 0)) + 1)
        self._seq_from += 1
        self.state = state

    def show_error(self, text: str) -> None:
        """Show `text` in the board's error area (an alert), leaving the rest of the table as it is."""
        state = dict(self.state)
        state["error"] = text
        self.state = state
