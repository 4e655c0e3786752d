"""The presenter of a table: the table's state and the turn runner's as the board draws them (a `BoardState`), with
no decision of its own. Which buttons a mode shows and why one is greyed come from offers.py; the words come from
the catalogue; `Table.board_state` is `board_state(table)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..ai.review import REVIEW_LEVEL, THRESHOLDS, Judgement, figure_words
from ..board_parts import discard_part, square_part, stock_part
from ..engine import Play, PlayerView, score_parts, scoring_lines
from ..engine.catalogue import text
from ..engine.narration import move_words
from ..engine.square import Square
from ..engine.turns import current_player, end_turn_passes
from ..engine.view import public_square
from . import machine
from .marks import Marks
from .modes import Closed, PassingDevice, Reviewing, Seating, shows_no_game
from .offers import offers, shown, waiting
from .presenter import (
    action,
    actions_panel,
    list_panel,
    pairs_panel,
    square_labels,
    table_panel,
    table_state,
)
from .sentences import no_moves_now
from .state import BoardState, State

if TYPE_CHECKING:
    from .table import Table


@dataclass(frozen=True)
class SquareBreakdown:
    """How one square scored at the end of a hand."""

    player: int
    lines: tuple[tuple[str, str, int], ...]  # (line name, 'one suit' / 'one colour', points)
    raw: int
    bonus: int
    penalty: int
    total: int


def square_names(table: Table, viewer: int) -> tuple[str, str]:
    """The names of `viewer`'s square and the other's: "Your square" and "Opponent's square", or the other
    person's name."""
    other = table.name(1 - viewer)
    return (text("board.squares.yours"), text("play.people.square", name=other)) if other else square_labels()


def board_state(table: Table) -> BoardState:
    """The table for the board: while the device is handed over, the squares as anyone sees them and no
    hand; during a review, the position judged, with the review beside it; else the viewer's table with
    the breakdown, score sheet and move log in its side column."""
    state = _drawn(table)
    if machine.allowed(table.mode, "move"):
        return state
    return replace(state, inert=no_moves_now(table, beside_message=True))


def _drawn(table: Table) -> BoardState:
    """`board_state` but for what takes no click."""
    mode = table.mode
    if isinstance(mode, PassingDevice):
        return _hand_over_state(table, mode.player)
    if shows_no_game(mode):
        return _seating_state(table)
    if isinstance(mode, Reviewing):
        judgement = mode.judgement
        move = judgement.move
        spot = {move.square_owner: {move.space}} if isinstance(move, Play) else {}
        best = judgement.best
        better = (best.square_owner, best.space) if isinstance(best, Play) and best != move else None
        return table_state(judgement.view, message=table.message, tone=table.tone, seq=table.seq, last=spot,
                           better=better,
                           actions=actions(table), labels=square_names(table, mode.player),
                           turn=text("review.turn", number=mode.number, step=mode.step + 1,
                                     steps=len(mode.review.judgements)),
                           aside=review_panels(mode), other_hand=_other_hand(table, mode.player, judgement.view))
    state = _viewers_table(table, table.marks)
    if isinstance(mode, Closed) and state.hand is not None:  # no card is played any more
        state = replace(state, hand={**state.hand, "cards": [{**card, "playable": False}
                                                             for card in state.hand["cards"]]})
    if table.search is None:
        return state
    search = {"deals": table.search.deals, "seconds": round(table.search.seconds, 3),
              "share": round(table.search.share, 3), "hurried": table.search.hurried}
    return replace(state, search=search)


def thinking_state(table: Table, made: int, before: Sequence[Square]) -> BoardState:
    """The table while the computer chooses its reply to the viewer's move (move number `made` of the hand; `before`,
    the squares as the viewer saw them before it): that move drawn and travelling, nothing picked, the turn line the
    computer's, the buttons as the turn now offers them, and why a click waits (`offers.waiting`). The message and its
    number are those from before the move: the reply's state tells the whole turn."""
    marks = Marks()
    marks.after(table.hand, made, before, table.view().squares, table.rules, table.seq)
    return replace(_viewers_table(table, marks), thinking=waiting(table))


def _viewers_table(table: Table, marks: Marks) -> BoardState:
    """The viewer's table as it stands, with `marks` (the card picked, the spaces just played on, the lines changed,
    the cards travelling) and the message, buttons, turn line and side column of the moment."""
    view = table.view()
    state = table_state(view, selected=marks.selected, hinted=marks.hinted_place(view.hand), message=table.message,
                        tone=table.tone, seq=table.seq,
                        last=marks.last, changes=marks.changes, actions=actions(table), turn=turn_text(table),
                        moves=marks.travelling(table.seq, table.viewer), aside=panels(table),
                        labels=square_names(table, table.viewer), other_hand=_other_hand(table, table.viewer, view))
    return marks.quiet(state)  # (a place whose refusal the message says does not say it again under the message)


def _other_hand(table: Table, viewer: int, view: PlayerView) -> str:
    """The caption of the other hand's backs: the other person's name, or "" for the usual words."""
    other = table.name(1 - viewer)
    return text("play.people.other_hand", name=other, count=view.other_hand_size) if other else ""


def _hand_over_state(table: Table, player: int) -> BoardState:
    """The table while the device goes to `player`: both squares with no face-down card named, the stock
    and the discard pile, no card of either hand, and one button for `player` to show their hand."""
    hand = table.hand
    names = (table.name(0), table.name(1))
    squares = tuple(square_part(public_square(hand, owner), table.rules, key=owner,
                                label=text("play.people.square", name=names[owner]),
                                side="yours" if owner == player else "theirs")
                    for owner in (player, 1 - player))
    show = action("show_hand", text("play.people.show_hand", name=names[player]), enabled=True, primary=True)
    return BoardState(squares=squares, stock=stock_part(hand.stock_size), discard=discard_part(hand.discards),
                      actions=(show,), turn=turn_text(table), message=table.message, tone=table.tone, seq=table.seq,
                      aside=(_score_sheet_panel(table),))


def _seating_state(table: Table) -> BoardState:
    """The table while it waits for a classmate: two empty squares, no hand and no button; the message says
    what happens next (the classmate's name is not known yet: their square is the opponent's)."""
    labels = square_labels()
    squares = tuple(square_part(Square(), table.rules, key=owner, label=labels[0 if owner == table.viewer else 1],
                                side="yours" if owner == table.viewer else "theirs")
                    for owner in (table.viewer, 1 - table.viewer))
    return BoardState(squares=squares, turn=turn_text(table), message=table.message, tone=table.tone, seq=table.seq)


def panels(table: Table) -> list[State]:
    """The side column: why the computer moved and the reviews (buttons), the end-of-hand breakdown
    (once the hand is over), the score sheet, the log."""
    found = [actions_panel(side_actions(table), css="lt-review-buttons")]
    parts = breakdown(table)
    if parts is not None:
        labels = square_names(table, table.viewer)
        found.append(pairs_panel(text("play.panels.end_of_hand", number=table.match.hand_number),
                                 [(labels[0 if part.player == table.viewer else 1], _breakdown_rows(part))
                                  for part in parts]))
    found.append(_score_sheet_panel(table))
    found.append(list_panel(
        text("play.panels.moves", number=table.match.hand_number),
        [{"text": entry.text(table.viewer), "class": "lt-by-you" if entry.mover == table.viewer else "lt-by-them"}
         for entry in reversed(table.log)],
        empty=text("play.panels.no_moves"), ordered=True, latest_first=True, css="lt-log"))
    return found


def _score_sheet_panel(table: Table) -> State:
    """The score sheet: every finished hand's scores and the totals, a column per player: by seat, named, between two
    people at one device; elsewhere the viewer's own column ("You") first, whichever seat they hold, as their square
    stands first on the board, then the classmate's, named, or the computer's ("Opponent")."""
    if table.both_here:
        heads, order = [table.name(0), table.name(1)], (0, 1)
    else:
        other = table.name(1 - table.viewer) if table.between_people else text("play.panels.opponent")
        heads, order = [text("play.panels.you"), other], (table.viewer, 1 - table.viewer)
    totals = table.match.totals
    return table_panel(
        text("play.panels.score_sheet", hands=table.match.hands), [text("play.panels.hand_column"), *heads],
        [[text("play.panels.hand_row", number=n), *((a, b)[seat] for seat in order)] for n, a, b in score_sheet(table)],
        [text("play.panels.total"), *(totals[seat] for seat in order)], css="lt-scores")


def side_actions(table: Table) -> list[State]:
    """The buttons beside the table (offers.py says which): why the computer made its last move, review this
    hand, review the last hand; each greyed with its reason where not offered."""
    return _buttons(table, shown(table)[1])


def turn_text(table: Table) -> str:
    """Whose turn it is, which hand, which rules."""
    hand, mode = table.hand, table.mode
    facts = {"number": table.match.hand_number, "hands": table.match.hands, "rules": text(f"rules.{table.rules.key}")}
    if isinstance(mode, PassingDevice):
        return text("play.people.turn.pass", name=table.name(mode.player), **facts)
    if isinstance(mode, Seating):
        return text("classmates.seating.turn", code=mode.code, rules=facts["rules"])
    if isinstance(mode, Closed) and mode.unseated is not None:
        return text("classmates.closed_unseated_turn", code=mode.unseated, rules=facts["rules"])
    if isinstance(mode, Closed):
        return text("classmates.closed_turn", **facts)
    player = current_player(hand)
    if player is None:
        turn = text("play.turn.match_over" if table.match.is_over else "play.turn.over", **facts)
    elif table.both_here or (table.between_people and player != table.viewer):  # (on one's own page: "your turn")
        turn = text("play.people.turn.of", name=table.name(player), **facts)
    else:
        turn = text("play.turn.yours" if player == table.viewer else "play.turn.theirs", **facts)
    return turn if table.retry is None else text("review.retry.turn", turn=turn)


def actions(table: Table) -> list[State]:
    """The buttons under the board that the mode shows (offers.py), each greyed with its reason where it is
    not offered now."""
    return _buttons(table, shown(table)[0])


def _buttons(table: Table, ids: Sequence[str]) -> list[State]:
    found = offers(table)
    hand_ended = table.hand.is_over
    labels = {"go_out": text("play.buttons.go_out"), "end_turn": text("play.buttons.end_turn"),
              "hint": text("play.controls.hint"), "undo": text("play.controls.undo"),
              "retry_close": text("review.buttons.back_to_match"), "next_hand": text("play.buttons.next_hand"),
              "new_match": text("play.buttons.new_match"), "review_prev": text("review.buttons.prev"),
              "review_next": text("review.buttons.next"), "review_mistake": text("review.buttons.next_mistake"),
              "try_again": text("review.buttons.try_again"), "review_close": text("review.buttons.close"),
              "why": text("review.buttons.why"), "review": text("review.buttons.review")}
    if not found["end_turn"] and end_turn_passes(table.hand):  # its name as the rules and the turn's words say it
        labels["end_turn"] = text("play.buttons.pass")
    if "review_last" in ids and table.last_review is not None:  # (shown only where there is a last hand: offers)
        labels["review_last"] = text("review.buttons.review_last", number=table.last_review.number)
    if "pass" in ids:
        labels["pass"] = text("play.people.pass_button", name=table.name(1 - table.viewer))
    if "show_hand" in ids and isinstance(table.mode, PassingDevice):
        labels["show_hand"] = text("play.people.show_hand", name=table.name(table.mode.player))
    # the step that moves things on (a review's is its next move: the keyboard comes to it when the review opens)
    primary = {"next_hand", "new_match", "review_next", "show_hand"} | ({"retry_close"} if hand_ended else set())
    wait = waiting(table)
    return [action(ident, labels[ident], enabled=not found[ident], note=found[ident], primary=ident in primary,
                   wait=bool(wait) and found[ident] == wait)
            for ident in ids]


def breakdown(table: Table) -> tuple[SquareBreakdown, SquareBreakdown] | None:
    """Each square's lines, raw value, bonus, going-out penalty and total, once the hand is over."""
    hand = table.hand
    if not hand.is_over:
        return None
    parts = []
    for player in (table.viewer, 1 - table.viewer):
        score = score_parts(hand.value(player), hand.went_out == player, table.rules)
        lines = tuple((line.name, text(f"narration.kind_{line.kind}"), line.points)
                      for line in scoring_lines(hand.squares[player], table.rules) if line.points)
        parts.append(SquareBreakdown(player, lines, score.raw, score.bonus, score.penalty, score.total))
    return (parts[0], parts[1])


def score_sheet(table: Table) -> list[tuple[int, int, int]]:
    """(hand number, player 0's score, player 1's score) for every finished hand of the match."""
    return [(number, first, second) for number, (first, second) in enumerate(table.match.results, start=1)]


def mark_words(judgement: Judgement) -> str:
    """A judgement's mark in words, with the points lost unless it is good, and "not final" while its search goes
    on."""
    mark = text(f"review.verdict.{judgement.verdict}")
    if judgement.verdict != "good":
        mark = text("review.cost", verdict=mark, points=judgement.points, figure=figure_words(judgement.points))
    return mark if judgement.final else text("review.not_final.mark", mark=mark)


def review_panels(session: Reviewing) -> list[State]:
    """The side column during a review: the summary, and every judged move with its mark (the one on the
    board marked as current), then what the marks mean."""
    review = session.review
    items = [{"text": text("review.panel.move", move=move_words(judgement.move, "undo", session.player),
                           mark=mark_words(judgement)),
              "class": f"lt-review-{judgement.verdict}" + (" lt-review-now" if number == session.step else ""),
              "current": number == session.step, "step": number}
             for number, judgement in enumerate(review.judgements)]
    title = text("review.panel.title", number=session.number, level=text(f"levels.in_sentence.{REVIEW_LEVEL}"))
    return [list_panel(title, [review.summary()], css="lt-review-summary"),
            list_panel(text("review.panel.moves"), items, ordered=True, css="lt-review-moves"),
            list_panel(text("review.panel.marks"), [legend(), text("review.panel.board_marks")])]


def legend() -> str:
    """What the marks mean: the points lost from which each is given (`THRESHOLDS`), written as the marks'
    figures are."""
    return text("review.panel.legend", **{verdict: figure_words(least) for verdict, least in THRESHOLDS})


def _breakdown_rows(part: SquareBreakdown) -> list[tuple[str, str | int, bool]]:
    """A square's end-of-hand rows: its scoring lines, raw value, bonus, the going-out penalty (only for the
    player who paid one) and (strong) total."""
    lines: list[tuple[str, str | int, bool]] = [
        (text("play.panels.line", name=name, kind=kind), points, False) for name, kind, points in part.lines]
    penalty: list[tuple[str, str | int, bool]] = [(text("play.panels.penalty"), f"−{part.penalty}", False)]
    return [*(lines or [(text("play.panels.no_line"), 0, False)]),
            (text("play.panels.raw"), part.raw, False), (text("play.panels.bonus"), f"+{part.bonus}", False),
            *(penalty if part.penalty else []), (text("play.panels.total"), part.total, True)]


