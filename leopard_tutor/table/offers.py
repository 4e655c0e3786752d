"""What a table offers: for the table's mode and the seat whose view it is, every action, offered or not, and
for each one not offered, why, in the catalogue's words.

`offers(table)` is the one place that decides it: the board draws exactly the actions `shown(table)` lists,
greyed with their reason where not offered, and `Table.handle` refuses an action not offered with that same
reason, changing nothing. The Play section's own buttons (new match, share this deal, save game, resume a game) are
asked here too. Structure comes from the transition table (machine.py): an intent with no transition from the
mode is never offered in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ai.why import last_turn
from ..engine import EndTurn, GoOut, RuleSet
from ..engine.catalogue import text
from ..engine.turns import current_player
from . import machine
from .modes import (
    BY_TEACHER,
    ELSEWHERE,
    LEFT_HERE,
    Closed,
    MatchFinished,
    PassingDevice,
    Retrying,
    Reviewing,
    Seating,
    shows_no_game,
)
from .sentences import hand_over_reason, match_over_words, no_moves_now, not_now

if TYPE_CHECKING:
    from .table import Table

BOARD_ACTIONS = ("go_out", "end_turn", "hint", "undo", "retry_close", "pass", "next_hand", "new_match",
                 "review_prev", "review_next", "review_mistake", "try_again", "review_close", "show_hand")
"""The buttons under the board, in the order they stand."""
SIDE_ACTIONS = ("why", "review", "review_last")
"""The buttons beside the table."""
SECTION_ACTIONS = ("new_game", "share", "save", "resume")
"""The Play section's own buttons: a new match (from the controls), share this deal, save game, resume a game."""
CLASS_ACTIONS = ("finish", "leave", "rules_menu", "opponent_menu")
"""A class table's controls beside the board: Finish against the computer and Leave the table (shown only where
offered), and the Play section's Rules and Opponent menus (greyed at a class table, which plays its own match)."""
REVIEW_LIST_ACTIONS = ("review_goto",)
"""A move of the review's list, pressed: that move's judgement on the board (the action carries its number)."""
ACTIONS = (*BOARD_ACTIONS, *SIDE_ACTIONS, *REVIEW_LIST_ACTIONS, *SECTION_ACTIONS, *CLASS_ACTIONS)


def offers(table: Table) -> dict[str, str]:
    """Every action of `ACTIONS`: "" where the table offers it now, else why not (a sentence)."""
    return {action: _why_not(table, action) for action in ACTIONS}


def shown(table: Table) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The board's buttons and the side column's buttons the table shows now (offered, or greyed with why)."""
    mode = table.mode
    if isinstance(mode, Reviewing):
        board = ["review_prev", "review_next", "review_mistake", "review_close"]
        if not table.between_people:
            board.insert(3, "try_again")
        return tuple(board), ()  # the side column holds the review (its summary, moves and marks)
    if isinstance(mode, PassingDevice):
        return ("show_hand",), ()
    if shows_no_game(mode):
        return (), ()
    side = ["why"] if table.computer_player is not None else []
    if not isinstance(mode, Retrying):
        side.append("review")
        if table.last_review is not None:
            side.append("review_last")
    if isinstance(mode, Closed):
        return (), tuple(side)
    hand = table.hand
    board = ["go_out"]
    if not hand.is_over and end_turn_shown(table.rules, hand.check(EndTurn()).legal):
        board.append("end_turn")  # (once the hand is over there is no turn to end)
    if not (table.for_classmates and table.computer_player is None):
        board.append("hint")  # (never in a match between classmates: each plays on their own)
    if not table.between_people:
        board.append("undo")  # (never in a game between two people)
    if isinstance(mode, Retrying):
        board.append("retry_close")
    else:
        if hand.is_over and table.both_here:
            board.append("pass")
        if hand.is_over and not table.match.is_over:
            board.append("next_hand")
        if isinstance(mode, MatchFinished) and not table.for_classmates:
            board.append("new_match")
    return tuple(board), tuple(side)


def end_turn_shown(rules: RuleSet, legal: bool) -> bool:
    """Whether a board shows End turn (greyed with why where it is not allowed): under rules with several plays a
    turn (a turn of plays ends with it, and a player whose plays emptied their hand passes with it), and whenever
    it is allowed. Under one play a turn it never is: with the stock out each player still plays or discards a card
    a turn, and the hand ends when both hands are empty, so nobody passes (the dealer draws the last card and plays
    the very last one). Play and Learn both ask."""
    return rules.multiple_plays or legal


def _why_not(table: Table, action: str) -> str:
    """"" if `action` is offered now, else the reason it is not."""
    if action in SECTION_ACTIONS:
        return _section(table, action)
    if action in CLASS_ACTIONS:
        return _class(table, action)
    mode = table.mode
    intent = machine.ACTION_INTENTS[action]
    if not machine.allowed(mode, intent):
        return _not_in_mode(table, action)
    return _now(table, action) or waiting(table)


def waiting(table: Table) -> str:
    """Why no button of the board is offered while a computer chooses its reply to the viewer's move (the table
    takes no intent until the reply is made), or "" when none is choosing. The board greys a button offered but
    for this only after a moment, as it shows its busy cue: a quick reply does not flash every button grey."""
    return text("play.computer_choosing") if table.choosing else ""


def _not_in_mode(table: Table, action: str) -> str:
    """Why `action` is not offered at all in the table's mode."""
    mode = table.mode
    if isinstance(mode, Seating):
        return text("classmates.seating.wait", code=mode.code)
    if isinstance(mode, Closed):
        return no_moves_now(table)
    if isinstance(mode, Reviewing):
        return text("review.in_review")
    if isinstance(mode, PassingDevice):
        return text("play.people.pass_first", name=table.name(mode.player))
    if action in NOT_IN_MODE:
        return text(NOT_IN_MODE[action])
    if action == "next_hand":
        return (text("review.retry.leave_first") if isinstance(mode, Retrying) else
                match_over_words(table) if table.match.is_over else text("play.finish_first"))
    if action == "new_match":
        return text("play.finish_first") if not table.hand.is_over else text("review.retry.leave_first")
    if action == "undo":
        return text("play.people.no_undo") if table.between_people else text("play.no_undo_after_end")
    return hand_over_reason(table)


NOT_IN_MODE = {
    **dict.fromkeys(("review_prev", "review_next", "review_mistake", "review_goto", "try_again", "review_close"),
                    "review.not_open"),
    "show_hand": "play.people.nothing_to_show", "retry_close": "review.retry.not_trying",
    "review": "review.retry.leave_first", "review_last": "review.retry.leave_first",
    "pass": "play.people.pass_not_now",
}
"""The one reason (a text's key) an action is not offered while playing, in a mode that never offers it."""


def _now(table: Table, action: str) -> str:
    """Why `action`, which the mode allows, is not offered at this moment ("" when it is)."""
    hand = table.hand
    mode = table.mode
    viewer = table.viewer
    mine = current_player(hand) == viewer
    if action in ("go_out", "end_turn"):
        if hand.is_over:
            return hand_over_reason(table)
        if not mine:
            return not_now(table)
        verdict = hand.check(GoOut() if action == "go_out" else EndTurn())
        return "" if verdict.legal else verdict.reason
    if action == "hint":
        if table.for_classmates and table.computer_player is None:
            return text("classmates.no_hints")
        if hand.is_over:
            return hand_over_reason(table)
        if not mine:
            return not_now(table)
        return "" if table.hinter is not None else text("play.no_hints")
    if action == "undo":
        if table.between_people:
            return text("play.people.no_undo")
        if hand.is_over:
            return text("play.no_undo_after_end")
        if viewer in hand.movers[table.undo_floor:]:
            return ""
        return text("play.nothing_to_undo_in_retry" if isinstance(mode, Retrying) else
                    "play.nothing_to_undo_since_computer" if table.undo_floor else "play.nothing_to_undo")
    if action == "why":
        computer = table.computer_player
        since = table.computer_from
        if computer is not None and any(index >= since for index in last_turn(hand, computer)):
            return ""
        retry = table.retry
        return text("review.why.none" if not since else
                    "review.why.none_in_retry" if retry is not None and since == retry.floor else
                    "review.why.none_since_computer")
    if action == "review":  # (a class table closed before its hand ended: no move is made on it any more)
        if table.for_classmates and table.computer_player is None and not hand.is_over and not isinstance(mode, Closed):
            return text("classmates.review_after_hand")
        return "" if viewer in table.match.current.movers else text("review.summary.empty")
    if action == "review_last":
        return "" if table.last_review is not None else text("review.no_last_hand")
    if action == "pass":
        return "" if table.both_here else text("play.people.pass_not_now")
    if action == "new_match" and table.classmate_chosen:
        return text("classmates.new_at_table")
    if action == "new_match" and table.for_classmates:  # (the section's New match, once the computer sat)
        return text("classmates.no_new_match" if table.computer_sat is None else "classmates.new_match_above")
    if action == "try_again" and table.between_people:
        return text("play.people.no_retry")
    if isinstance(mode, Reviewing):
        return _review_step(mode, action)
    return ""


def _review_step(mode: Reviewing, action: str) -> str:
    """Why a review's step is not offered: already at its first or last move, or no later mistake."""
    step, steps = mode.step, len(mode.review.judgements)
    if action == "review_prev" and step == 0:
        return text("review.at_first")
    if action == "review_next" and step + 1 >= steps:
        return text("review.at_last")
    if action == "review_mistake" and next_mistake(mode) is None:
        return text("review.no_more_mistakes")
    return ""


def next_mistake(session: Reviewing, after: int | None = None) -> int | None:
    """The number of the next judged move after the one shown (or after move number `after`) that is not marked
    good."""
    start = session.step if after is None else after
    return next((number for number, judgement in enumerate(session.review.judgements)
                 if number > start and judgement.verdict != "good"), None)


def _section(table: Table, action: str) -> str:
    """The Play section's own buttons. Not at a class table between classmates (it plays one match, its deal is not
    shared and it is not saved as a code): once it has closed, a saved game may be resumed, and a new match is another
    table's or another opponent's. With "A classmate" chosen in the Opponent menu, a new match is a class table's
    too. Once the computer sits in the gone classmate's seat, a new match or a resumed game takes the place of its
    match, as of any match against the computer, but its deal is not shared and it has no code (a code would not
    keep the learner's seat, nor which moves were the classmate's). Save game only against the computer, and not
    while a position is tried again; a deal two people here play shared once their match is over."""
    if table.for_classmates and table.computer_sat is None:
        if action in ("share", "save"):
            return text("classmates.no_share" if action == "share" else "classmates.no_save")
        if table.server_table_open:
            return text("classmates.no_new_match" if action == "new_game" else "classmates.no_resume")
        if table.at_class_table:  # (the server closed it: its last moves are still to be shown here)
            return _menus_greyed(table)
        return text("classmates.closed_new") if action == "new_game" else ""
    if action == "new_game" and table.classmate_chosen:
        return text("classmates.new_at_table")
    if table.for_classmates and action in ("share", "save"):
        return text("classmates.no_share" if action == "share" else "classmates.finished_no_save")
    if action == "save" and table.between_people:
        return text("play.people.no_save")
    if action == "save" and isinstance(table.mode, Retrying):  # (its code would hold the match, not the try)
        return text("play.saved_game.in_retry")
    if action == "share" and table.both_here and not table.match.is_over:
        return text("play.people.share_after")  # (as a class table's: the link would show the other's cards)
    return ""


def _menus_greyed(table: Table) -> str:
    """Why the Rules and Opponent menus are greyed ("" where they are not): while the server stores the table's
    moves, until the person leaves; once the server closed the match, until its last moves are shown here (which a
    review open here holds back until it is closed)."""
    if not table.at_class_table:
        return ""
    if table.server_table_open:
        return text("classmates.menus_greyed")
    held = isinstance(table.mode, Reviewing)
    return text("classmates.menus_greyed_review" if held else "classmates.menus_greyed_closed")


def _class(table: Table, action: str) -> str:
    """A class table's controls: the menus not while the server stores the table's moves; Leave while its table
    is open there; Finish against the computer once the server says the classmate has gone, or once the table
    closed before its match ended (after a game began on it), until the computer sits, unless the person here left
    it, took it on in another page or the teacher ended it (both are free: no seat is empty)."""
    if action in ("rules_menu", "opponent_menu"):
        return _menus_greyed(table)
    if not table.for_classmates:
        return text("classmates.refused.not_seated")
    if action == "leave":
        return "" if table.server_table_open else text("classmates.refused.not_seated")
    mode = table.mode.back if isinstance(table.mode, Reviewing) else table.mode
    if isinstance(mode, Closed):  # (the one class action left: finish)
        if mode.finishable(table.match.is_over):
            return ""
        return text({ELSEWHERE: "classmates.refused.taken_elsewhere", BY_TEACHER: "classmates.refused.ended_by_teacher",
                     LEFT_HERE: "classmates.refused.you_left"}.get(mode.ending, "classmates.refused.not_seated"))
    if not table.server_table_open:
        return text("classmates.refused.not_seated")
    return "" if table.other_gone else text("classmates.refused.not_gone")
