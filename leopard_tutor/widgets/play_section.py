"""The Play section: the board plus ordinary controls (rules, opponent level, hint, undo, new match),
the end-of-hand breakdown, the score sheet and the move log."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..ai import LEVELS
from ..engine import RULE_SETS, rules_by_key
from ..engine.catalogue import text
from .board import LeopardBoard
from .play import THEM, Chooser, HintFn, PlayController
from .presenter import square_labels

OpponentFactory = Callable[[str], Chooser]


class PlaySection(W.VBox):  # type: ignore[misc]
    """A whole match against the computer, in one widget."""

    def __init__(self, controller: PlayController, opponent_factory: OpponentFactory | None = None,
                 level: str = "beginner") -> None:
        self.controller = controller
        self.opponent_factory = opponent_factory
        self.board = LeopardBoard(controller)
        self.rules_pick = W.Dropdown(options=[(text(f"rules.{key}"), key) for key in RULE_SETS],
                                     value=controller.rules.key, description=text("play.controls.rules"))
        self.level_pick = W.Dropdown(options=[(name.capitalize(), name) for name in LEVELS], value=level,
                                     description=text("play.controls.opponent"), disabled=opponent_factory is None)
        self.hint_button = W.Button(description=text("play.controls.hint"), tooltip=text("play.controls.hint_tooltip"))
        self.undo_button = W.Button(description=text("play.controls.undo"), tooltip=text("play.controls.undo_tooltip"))
        self.new_button = W.Button(description=text("play.controls.new_match"))
        self.breakdown = W.HTML()
        self.scores = W.HTML()
        self.moves = W.HTML()
        for widget in (self.breakdown, self.scores, self.moves):
            widget.add_class("lt-panel")
        self.hint_button.on_click(lambda _b: self.board.dispatch({"type": "action", "id": "hint"}))
        self.undo_button.on_click(lambda _b: self.board.dispatch({"type": "action", "id": "undo"}))
        self.new_button.on_click(lambda _b: self.board.act(lambda: controller.new_match(rules_by_key(
            self.rules_pick.value))))
        self.rules_pick.observe(self._rules_changed, names="value")
        self.level_pick.observe(self._level_changed, names="value")
        self.board.listeners.append(lambda _intent: self.update_panels())
        controls = W.HBox([self.rules_pick, self.level_pick, self.hint_button, self.undo_button, self.new_button],
                          layout=W.Layout(flex_flow="row wrap"))
        controls.add_class("lt-controls")
        super().__init__([controls, self.board, self.breakdown, self.scores, self.moves])
        self.add_class("lt-play")
        self.update_panels()

    def _rules_changed(self, change: dict[str, Any]) -> None:
        self.board.act(lambda: self.controller.new_match(rules_by_key(change["new"])))

    def _level_changed(self, change: dict[str, Any]) -> None:
        factory = self.opponent_factory
        if factory is not None:
            self.board.act(lambda: self.controller.set_opponent(factory(change["new"]), change["new"]))

    def update_panels(self) -> None:
        """Redraw the breakdown, score sheet and log from the controller."""
        self.breakdown.value = breakdown_html(self.controller)
        self.scores.value = scores_html(self.controller)
        self.moves.value = log_html(self.controller)


def breakdown_html(controller: PlayController) -> str:
    """The end-of-hand breakdown (empty while the hand is in play)."""
    parts = controller.breakdown()
    if parts is None:
        return ""
    blocks = []
    for part in parts:
        who = html.escape(square_labels()[0 if part.player != THEM else 1])
        lines = "".join(f"<dt>{html.escape(text('play.panels.line', name=name, kind=kind))}</dt><dd>{points}</dd>"
                        for name, kind, points in part.lines)
        lines = lines or f"<dt>{_word('no_line')}</dt><dd>0</dd>"
        blocks.append(
            f"<div><h4>{who}</h4><dl>{lines}<dt>{_word('raw')}</dt><dd>{part.raw}</dd>"
            f"<dt>{_word('bonus')}</dt><dd>+{part.bonus}</dd><dt>{_word('penalty')}</dt><dd>−{part.penalty}</dd>"
            f"<dt><strong>{_word('total')}</strong></dt><dd><strong>{part.total}</strong></dd></dl></div>")
    title = html.escape(text("play.panels.end_of_hand", number=controller.match.hand_number))
    return f"<h3>{title}</h3><div class='lt-breakdown'>{''.join(blocks)}</div>"


def scores_html(controller: PlayController) -> str:
    """The score sheet of the match so far."""
    rows = "".join(f"<tr><td>{html.escape(text('play.panels.hand_row', number=n))}</td><td>{mine}</td>"
                   f"<td>{theirs}</td></tr>" for n, mine, theirs in controller.score_sheet())
    mine, theirs = controller.match.totals
    title = html.escape(text("play.panels.score_sheet", hands=controller.match.hands))
    return (f"<h3>{title}</h3><table class='lt-scores'>"
            f"<thead><tr><th>{_word('hand_column')}</th><th>{_word('you')}</th><th>{_word('opponent')}</th></tr>"
            f"</thead><tbody>{rows}</tbody>"
            f"<tfoot><tr><th>{_word('total')}</th><th>{mine}</th><th>{theirs}</th></tr></tfoot></table>")


def _word(key: str) -> str:
    """A fixed word of the panels, escaped for HTML."""
    return html.escape(text(f"play.panels.{key}"))


def log_html(controller: PlayController) -> str:
    """The moves of the hand in words, numbered, the latest first."""
    items = "".join(f"<li>{html.escape(entry.text)}</li>" for entry in reversed(controller.log))
    body = (f"<ol class='lt-log' reversed>{items}</ol>" if items
            else f"<p class='lt-muted'>{html.escape(text('play.panels.no_moves'))}</p>")
    return f"<h3>{html.escape(text('play.panels.moves', number=controller.match.hand_number))}</h3>{body}"


def build_play(opponent: Chooser, *, hinter: HintFn | None = None, opponent_factory: OpponentFactory | None = None,
               level: str = "beginner", seed: int | str | None = None, rules: str = "REVISED_2008") -> PlaySection:
    """A Play section against `opponent` (its level shown as `level`)."""
    return PlaySection(PlayController(opponent, rules=rules_by_key(rules), seed=seed, hinter=hinter),
                       opponent_factory, level)
