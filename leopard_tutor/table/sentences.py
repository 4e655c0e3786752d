"""The sentences about a table's moment, made from its mode and the turn runner's state and events: what the
viewer may do now, whose move the table waits for, why no move is made now, and how a hand and a match ended.
Fixed words come from the catalogue; nothing here decides or changes anything.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from ..engine import GoOut, Play
from ..engine.catalogue import and_list, or_list, text
from ..engine.legality import spaces_words
from ..engine.narration import ran_out_words
from ..engine.turns import cards_drawn, current_player, turn_began
from .modes import Closed, PassingDevice, Reviewing, Seating

if TYPE_CHECKING:
    from .table import Table


def places_words(targets: Mapping[int, Collection[int]], viewer: int, can_discard: bool) -> str:
    """Where a picked card may go, from its legal spaces on each square (by the square's owner) and whether it may be
    discarded: "space 4 of your square or the discard pile", "any space of their square"; "no space right now" where
    it may go nowhere."""
    places = [text("play.places.own" if owner == viewer else "play.places.theirs",
                   spaces=text("play.places.any_space") if len(spaces) == 9 else spaces_words(sorted(spaces)))
              for owner, spaces in sorted(targets.items()) if spaces]
    if can_discard:
        places.append(text("play.places.discard"))
    return or_list(places) if places else text("play.nowhere")


def no_moves_now(table: Table, *, beside_message: bool = False) -> str:
    """Why no card is picked or played in this mode (a review shown, the device being passed, a table
    waiting for a classmate or closed, the hand over); `beside_message`: the reason a space shows while the message
    says what comes next (`hand_over_reason`)."""
    mode = table.mode
    if isinstance(mode, Reviewing):
        return text("review.in_review")
    if isinstance(mode, PassingDevice):
        return text("play.people.pass_first", name=table.name(mode.player))
    if isinstance(mode, Seating):
        return text("classmates.seating.wait", code=mode.code)
    if isinstance(mode, Closed):  # (and what it still offers: these words may take the place of those that said so;
        # beside the message, which says it, not again)
        closed = text("classmates.closed_now")
        finishable = mode.finishable(table.match.is_over) and not beside_message
        return f"{closed} {text('classmates.closed_may_finish')}" if finishable else closed
    return hand_over_reason(table) if beside_message else hand_over_words(table)


def as_it_stands(table: Table) -> str:
    """Where the table stands, said after words about no move of this turn (why the computer moved so, a review
    closed), which take the place of the message that said it: what the viewer may do now, whose move it waits for,
    or why no move is made."""
    if isinstance(table.mode, (Closed, Seating, PassingDevice)):
        return no_moves_now(table)
    return prompt(table)  # (once the hand is over: how it ended, and how the match did)


def hand_over_words(table: Table) -> str:
    """Why no move is made now that the hand is over: the next hand waits, or the match is over."""
    if table.retry is not None:
        return text("review.retry.over")
    if table.match.is_over:
        return match_over_words(table)
    if table.next_dealt:
        return text("classmates.next_dealt", name=table.name(1 - table.viewer), number=table.match.hand_number + 1)
    return text("play.hand_over")


def hand_over_reason(table: Table) -> str:
    """Why a move, Go out, End turn or a hint is not offered once the hand is over, shown beside the message: as
    `hand_over_words`, but a next hand the classmate dealt is said in the message only ("This hand is over."), and a
    try of an old position says that its hand is over (the message says that the match's scores do not change)."""
    if table.retry is not None:
        return text("review.retry.hand_over")
    if table.next_dealt and not table.match.is_over:
        return text("play.hand_is_over")
    return hand_over_words(table)


def match_over_words(table: Table) -> str:
    """The match is over: how to play again (a class table plays one match: another table, or another opponent)."""
    return text("classmates.match_over" if table.for_classmates else "play.match_over")


def prompt(table: Table, *, drew_now: bool = True) -> str:
    """What the viewer is told after the moves made: the hand's end, whose move the table waits for, or what
    the viewer may do now (the cards drawn as the turn began only if that was `drew_now`, not before a saved game
    was resumed)."""
    hand = table.hand
    player = current_player(hand)
    if player is None:
        return end_words(table)
    if player != table.viewer:
        return text("play.people.waiting", name=table.name(player)) if not table.seats[player].here else ""
    return what_to_do(table, drew_now=drew_now)


def your_turn(table: Table) -> str:
    """The viewer greeted by their name as their turn begins at a table between two people ("Ana, your turn."); ""
    where it is not the viewer's turn, or no other person plays at this table."""
    if not table.between_people or current_player(table.hand) != table.viewer:
        return ""
    return text("play.people.your_turn", name=table.name(table.viewer))


def what_to_do(table: Table, *, drew_now: bool = True) -> str:
    """What the viewer, whose move it is, may do now, from the turn runner: what they drew when the turn began
    (only if the turn began `drew_now`), then pick a card, play another or end the turn, or, with no card, pass (or
    go out)."""
    hand = table.hand
    began = turn_began(hand)
    if began is None or began.player != table.viewer:
        return ""
    holding = bool(hand.held[table.viewer])
    if hand.plays_made:  # a Running Leopard turn of plays: another only where a card can be played now
        if any(isinstance(move, Play) for move in hand.legal_moves()):
            return text("play.play_more")
        return text("play.turn_words.end_no_play" if holding else "play.turn_words.end_now")
    words = []
    if began.drew:
        if drew_now:
            drawn = cards_drawn(hand)
            words.append(text("play.turn_words.drew", count=began.drew, cards=and_list([card.name for card in drawn]),
                              the_cards=and_list([card.the_name for card in drawn])))
    elif hand.stock_size == 0:
        words.append(text("play.turn_words.no_draw"))
    if holding:
        words.append(text("play.turn_words.pick"))
    elif hand.check(GoOut()).legal:
        words.append(text("play.turn_words.pass_or_out"))
    else:
        words.append(text("play.turn_words.pass_only"))
    return " ".join(words)


def not_now(table: Table) -> str:
    """Why the viewer may not move now: it is the other player's turn."""
    player = current_player(table.hand)
    if table.between_people and player is not None:
        return text("play.people.not_your_turn", name=table.name(player))
    return text("play.not_your_turn")


def end_words(table: Table) -> str:
    """How the hand ended for the viewer (why, where nobody went out; both scores), and, after the match's last hand,
    how the match did, or that the classmate has dealt the next."""
    viewer, other = table.viewer, 1 - table.viewer
    scores = table.hand.scores()
    name = table.name(other)
    if name:
        words = text("play.people.hand_end", mine=scores[viewer], other=name, theirs=scores[other])
    else:
        words = text("play.hand_end", mine=scores[viewer], theirs=scores[other])
    if table.hand.ran_out:
        words = f"{ran_out_words(table.hand)} {words}"
    if table.retry is not None:
        return words + " " + text("review.retry.over")
    words += " " + text("review.invite")
    match = table.match
    if match.is_over:
        totals = match.totals
        mine, theirs = totals[viewer], totals[other]
        if match.winner is None:
            words += " " + text("play.match_drawn", mine=mine, theirs=theirs)
        elif name and match.winner != viewer:  # (the viewer won: "you", as the hand's end said "you scored")
            winner = match.winner
            words += " " + text("play.people.match_won", name=table.name(winner), won=totals[winner],
                                lost=totals[1 - winner])
        else:
            words += " " + text("play.match_won" if match.winner == viewer else "play.match_lost",
                                mine=mine, theirs=theirs)
    elif table.next_dealt:  # (a class table: the classmate dealt while this page looked at a review)
        words += " " + hand_over_words(table)
    return words


