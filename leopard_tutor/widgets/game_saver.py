"""The Play section's Save game / Resume control: Save game shows this game's code under it, with a button that
copies it; under that, a box to paste a code back into, and Resume beside it (`game_code.py` makes and reads the
codes)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as W

from ..engine import LeopardError
from ..engine.catalogue import text
from .copy_button import CopyButton

if TYPE_CHECKING:
    from .play_section import PlaySection


class GameSaver(W.VBox):  # type: ignore[misc]
    """Save game (shows this game's code under it, and a button to copy it) and Resume (goes on with the game of the
    code pasted in the box beside it)."""

    def __init__(self, section: PlaySection) -> None:
        self.section = section
        self.shown = W.HTML()
        self.shown.add_class("lt-saved-game")
        # its label names the box for a screen reader (a placeholder goes as soon as something is typed); the page
        # shows the placeholder only (app.css: .lt-unseen-label)
        self.code = W.Text(placeholder=text("play.saved_game.placeholder"),
                           description=text("play.saved_game.code_label"), layout=W.Layout(width="32em"))
        self.code.add_class("lt-unseen-label")
        self.code.add_class("lt-game-code")
        save = W.Button(description=text("play.saved_game.save"), tooltip=text("play.saved_game.save_tooltip"))
        resume = W.Button(description=text("play.saved_game.resume"), tooltip=text("play.saved_game.resume_tooltip"))
        self.save_button, self.resume_button = save, resume
        save.on_click(lambda _b: section.board.control(self.show_code))
        resume.on_click(lambda _b: section.board.control(self.resume))
        title = W.HTML(f"<h4>{html.escape(text('play.saved_game.title'))}</h4>")
        self.why = W.HTML(layout=W.Layout(display="none"))
        """Why Save game or Resume is greyed, shown under them as the board's notes are beside its buttons (a finger
        has no hover for their titles); `PlaySection._sync_buttons` writes it."""
        self.why.add_class("lt-saver-why")
        self.refusal = W.HTML(layout=W.Layout(display="none"))
        """Why the code pasted was not resumed, under the box as well as on the board (whose message may be a
        screen above, on a laptop scrolled down to the box); it goes once the box changes."""
        self.refusal.add_class("lt-saver-refusal")
        self.code.observe(lambda _change: self._refuse(""), "value")
        self._held: str | None = None  # the code shown, if any
        self.copy = CopyButton(description=text("play.saved_game.copy"), layout=W.Layout(display="none"),
                               on_copied=lambda ok: section.board.control(lambda: section.controller.tell(
                                   text("play.saved_game.copied" if ok else "play.saved_game.not_copied"))))
        """Copies the code shown (`show_code`), shown with it."""
        self.copy.add_class("lt-saved-game-copy")
        rows = W.Layout(flex_flow="row wrap")
        super().__init__([title, W.HBox([save], layout=rows), self.shown, self.copy,
                          W.HBox([self.code, resume], layout=rows), self.refusal, self.why])
        self.add_class("lt-panel")
        self.add_class("lt-game-saver")

    def say_why(self, reasons: list[str]) -> None:
        """Show `reasons` (why Save game and Resume are greyed; each once) under the buttons, or nothing."""
        said = list(dict.fromkeys(why for why in reasons if why))
        self.why.value = "".join(f"<p>{html.escape(why)}</p>" for why in said)
        self.why.layout.display = "" if said else "none"

    def _refuse(self, words: str) -> None:
        """Show `words` (why the code pasted was not resumed) under the box, or nothing."""
        self.refusal.value = f"<p>{html.escape(words)}</p>" if words else ""
        self.refusal.layout.display = "" if words else "none"

    def _code_now(self) -> str:
        """The code of the match on the board as it stands, against the level the computer plays it at."""
        return self.section.code_of(self.section.controller.match, self.section.opponent_level())

    def forget_stale(self) -> None:
        """Take away the code shown, and its sentence, once it is no longer the code of the match on the board as it
        stands: another match is there, the match has moved on since, or the computer plays at another level."""
        if self._held is not None and self._held != self._code_now():
            self._show(None)

    def _show(self, code: str | None) -> None:
        """Show `code` under Save game, with its explanation and the button that copies it (None: nothing)."""
        self._held = code
        self.copy.value = code or ""
        self.copy.layout.display = "none" if code is None else ""
        if code is None:
            self.shown.value = ""
            return
        words = html.escape(text("play.saved_game.explain"))
        label = html.escape(text("play.saved_game.label"))
        self.shown.value = (f"<p>{words}</p><textarea class='lt-saved-game-code' readonly rows='3' cols='60' "
                            f"aria-label='{label}'>{html.escape(code)}</textarea>")

    def show_code(self) -> None:
        """Show the code of the game as it stands now, to copy (a match against the computer only)."""
        refused = self.section.controller.offers()["save"]  # a match against the computer only
        if refused:
            self.section.controller.say(refused, "warn")
            return
        self._show(self._code_now())
        self.section.controller.tell(text("play.saved_game.ready"))  # the board's message is what is read out

    def resume(self) -> None:
        """Go on with the game of the pasted code (a bad code is explained on the board and changes nothing; at a class
        table nothing is resumed, and the board says why)."""
        refused = self.section.controller.offers()["resume"]
        if refused:
            self.section.controller.say(refused, "warn")
            return
        try:
            game = self.section.read_code(self.code.value)
        except LeopardError as error:  # said on the board too (`Board.act`)
            self._refuse(str(error))
            raise
        self._refuse("")
        if self.section.holds(game):  # the match on the board as it stands: nothing ends, nothing changes
            self.section.controller.tell(text("play.saved_game.same"))
            return
        self._show(None)
        self.section.resume(game)
