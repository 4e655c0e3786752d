"""Where the table's modes meet (issue 32): each moment that once offered an action that only refused, or said a
sentence about a turn that did not happen, reproduced and checked against the turn runner."""

from __future__ import annotations

from keyed import said
from test_table import OPTIONS

from leopard_tutor.ai.players import BeginnerPlayer
from leopard_tutor.engine import RUNNING_LEOPARD, EndTurn, Hand, Match, Move, Play
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.turns import turn_began
from leopard_tutor.table import HandFinished, MatchFinished, Seating, against_computer, at_one_device, drawing
from leopard_tutor.table.class_table import ClassTable


def play_to_the_end(table: object) -> None:
    from leopard_tutor.table import PassingDevice, Table
    assert isinstance(table, Table)
    chooser = BeginnerPlayer(7)
    while not table.hand.is_over:
        if isinstance(table.mode, PassingDevice):
            table.handle({"type": "action", "id": "show_hand"})
            continue
        table.make(chooser.choose(table.view()))


def test_the_first_message_of_a_match_says_what_to_do(keyed: None) -> None:
    for seed in range(6):
        table = against_computer(BeginnerPlayer(1), seed=seed, **OPTIONS)
        assert said(table.message, "play.turn_words.pick")
        began = turn_began(table.hand)
        assert began is not None and said(table.message, "play.turn_words.drew", count=began.drew)


def test_undo_cannot_reopen_a_finished_hand(keyed: None) -> None:
    table = against_computer(BeginnerPlayer(1), seed=3, **OPTIONS)
    play_to_the_end(table)
    undo = next(action for action in drawing.actions(table) if action["id"] == "undo")
    assert not undo["enabled"] and said(undo["note"], "play.no_undo_after_end")
    moves = table.hand.moves
    table.handle({"type": "action", "id": "undo"})
    assert table.hand.is_over and table.hand.moves == moves and table.tone == "warn"
    assert isinstance(table.mode, HandFinished)


def test_after_the_last_hand_a_click_does_not_speak_of_a_next_hand(keyed: None) -> None:
    table = against_computer(BeginnerPlayer(1), seed=4, hands=1, reviewer=OPTIONS["reviewer"], background=False)
    play_to_the_end(table)
    assert isinstance(table.mode, MatchFinished)
    table.handle({"type": "select", "index": 0})
    assert said(table.message, "play.match_over") and not said(table.message, "play.hand_over")
    ends = [action["id"] for action in drawing.actions(table) if action["id"] in ("next_hand", "new_match")]
    assert ends == ["new_match"]
    facts = {"number": 1, "hands": 1, "rules": text(f"rules.{table.rules.key}")}
    assert drawing.turn_text(table) == text("play.turn.match_over", **facts), "the turn line says the match is over"
    four = against_computer(BeginnerPlayer(1), seed=4, reviewer=OPTIONS["reviewer"], background=False)
    play_to_the_end(four)
    assert drawing.turn_text(four) == text("play.turn.over", **{**facts, "hands": 4}), "only the hand, of four"


def test_two_people_are_never_told_they_drew_from_an_empty_stock(keyed: None) -> None:
    table = at_one_device(("Ana", "Ben"), seed=2, **OPTIONS)
    chooser = BeginnerPlayer(3)
    told_empty = 0
    while not table.hand.is_over:
        if table.mode.kind == "passing_device":
            table.handle({"type": "action", "id": "show_hand"})
            began = turn_began(table.hand)
            assert began is not None
            assert said(table.message, "play.turn_words.drew") == (began.drew > 0)
            if table.hand.stock_size == 0 and began.drew == 0:
                assert said(table.message, "play.turn_words.no_draw")
                told_empty += 1
            continue
        table.make(chooser.choose(table.view()))
    assert told_empty > 0 or table.hand.went_out is not None


def test_running_leopard_with_no_card_and_no_stock_offers_only_a_pass(keyed: None) -> None:
    match = Match(RUNNING_LEOPARD, seed=1)
    table = at_one_device(("Ana", "Ben"), seed=1, rules=RUNNING_LEOPARD, **OPTIONS)
    dealt = match.current
    # a position late in a hand: Ben holds nothing, the stock is empty, and it is his turn
    hand = Hand(RUNNING_LEOPARD, dealt.squares, [dealt.held[0][:2], []], [], [], 1, 0)
    table.match.current = hand
    table.mode = table._mode_now()
    table.handle({"type": "action", "id": "show_hand"})
    assert said(table.message, "play.turn_words.pass_only") and not said(table.message, "play.turn_words.pick")
    assert not said(table.message, "play.turn_words.drew")
    table.handle({"type": "action", "id": "end_turn"})
    assert table.hand.moves == (EndTurn(),)


def test_a_class_table_waiting_for_a_classmate_offers_no_game(keyed: None) -> None:
    stored: list[object] = []
    table = ClassTable(0, ["Ana", ""], lambda number, move: stored.append(move), seed="x", seating="QWGE",
                       **OPTIONS)
    assert table.mode == Seating("QWGE") and said(table.message, "classmates.seating.wait", code="QWGE")
    state = table.board_state()
    assert state.hand is None and state.actions == () and said(state.turn, "classmates.seating.turn", code="QWGE")
    table.handle({"type": "select", "index": 0})
    table.handle({"type": "action", "id": "hint"})
    assert table.tone == "warn" and table.hand.moves == () and stored == []
    table.sit(["Ana", "Ben"], "")
    assert table.mode.kind == "playing" and table.name(1) == "Ben"


def test_why_the_computer_did_that_tells_its_whole_running_leopard_turn(keyed: None) -> None:
    from leopard_tutor.ai.players import IntermediatePlayer
    from leopard_tutor.ai.review import view_before
    from leopard_tutor.ai.why import why
    table = against_computer(IntermediatePlayer(5), seed=9, rules=RUNNING_LEOPARD, **OPTIONS)
    chooser = BeginnerPlayer(2)
    while not table.hand.is_over:
        hand = table.hand
        turn = []  # the computer's last turn: its run of moves at the end of the hand's moves
        for index in range(len(hand.moves) - 1, -1, -1):
            if hand.movers[index] != 1:
                if turn:
                    break
                continue
            turn.insert(0, index)
        if len(turn) > 1:
            table.handle({"type": "action", "id": "why"})
            for index in turn:  # every move of the turn is explained, each from the view before it
                assert why(view_before(hand, index, 1), hand.moves[index]).sentence in table.message
            return
        table.make(chooser.choose(table.view()))
    raise AssertionError("the computer never played two cards in a turn")


def test_after_plays_another_card_is_offered_only_where_one_can_be_played(keyed: None) -> None:
    from leopard_tutor.engine import Card, Square
    from leopard_tutor.table import sentences
    table = against_computer(BeginnerPlayer(1), seed=1, rules=RUNNING_LEOPARD, **OPTIONS)
    # the learner has played this turn and holds a queen, which no empty space takes: only ending the turn is left
    squares = [Square(), Square()]
    table.match.current = Hand(RUNNING_LEOPARD, squares, [[Card.parse("QH")], [Card.parse("2C")]],
                               [Card.parse("3C")], [], 0, 1, plays_made=1)
    assert sentences.what_to_do(table) == text("play.turn_words.end_no_play")
    table.match.current = Hand(RUNNING_LEOPARD, squares, [[Card.parse("5H")], [Card.parse("2C")]],
                               [Card.parse("3C")], [], 0, 1, plays_made=1)
    assert sentences.what_to_do(table) == text("play.play_more")


def test_a_game_resumed_at_the_learners_turn_does_not_say_they_just_drew(keyed: None) -> None:
    # the card was drawn before the game was saved (a QA helper read "You have drawn a card." after a reload)
    from leopard_tutor.engine.game_code import game_code, read_game_code
    table = against_computer(BeginnerPlayer(1), seed=5, **OPTIONS)
    chooser = BeginnerPlayer(2)
    for _ in range(3):
        table.make(chooser.choose(table.view()))
    began = turn_began(table.hand)
    assert began is not None and began.player == 0 and began.drew == 1
    saved = read_game_code(game_code(table.match, "beginner"), ("beginner",))
    again = against_computer(BeginnerPlayer(1), seed=6, **OPTIONS)
    again.resume(saved.match, "Resumed.")
    assert said(again.message, "play.turn_words.pick") and not said(again.message, "play.turn_words.drew")
    # a game saved as the computer's turn began: it moves on resuming, and the learner's new turn begins with a draw
    waiting = read_game_code(game_code(table.match, "beginner"), ("beginner",)).match
    waiting.current.apply(chooser.choose(waiting.current.view(0)))
    assert waiting.current.to_move == 1
    later = against_computer(BeginnerPlayer(1), seed=6, **OPTIONS)
    later.resume(waiting, "Resumed.")
    began = turn_began(later.hand)
    assert began is not None and began.player == 0
    assert said(later.message, "play.turn_words.drew") == (began.drew > 0)


def test_a_game_resumed_and_told_again_marks_the_moves_it_tells(keyed: None) -> None:
    """A reload tells again the computer's moves since the learner's last one: the board outlines the spaces they
    played on, as it did when they were made (it outlined none), and no space of the learner's own move before them;
    resumed without retelling, nothing is marked."""
    from leopard_tutor.engine.game_code import game_code, read_game_code
    for seed in range(1, 40):
        table = against_computer(BeginnerPlayer(1), seed=seed, **OPTIONS)
        chooser = BeginnerPlayer(2)
        while not any(isinstance(move, Play) and mover == 1 for move, mover in since_last_of(table.hand, 0)):
            if table.hand.is_over:
                break
            table.make(chooser.choose(table.view()))
        else:
            break
    replies = since_last_of(table.hand, 0)
    played = {}
    for move, _ in replies:
        if isinstance(move, Play):
            played.setdefault(move.square_owner, set()).add(move.space)
    again = against_computer(BeginnerPlayer(1), seed=6, **OPTIONS)
    again.resume(read_game_code(game_code(table.match, "beginner"), ("beginner",)).match, "Resumed.", retold=True)
    assert played and again.marks.last == played and again.marks.moved == tuple(replies)
    quiet = against_computer(BeginnerPlayer(1), seed=6, **OPTIONS)
    quiet.resume(read_game_code(game_code(table.match, "beginner"), ("beginner",)).match, "Resumed.")
    assert quiet.marks.last == {} and quiet.marks.moved == ()


def since_last_of(hand: Hand, player: int) -> list[tuple[Move, int]]:
    """The moves of `hand` made since `player`'s last one, each with its mover."""
    made = list(zip(hand.moves, hand.movers, strict=True))
    while made and made[-1][1] != player:
        made.pop()
    return list(zip(hand.moves, hand.movers, strict=True))[len(made):]


def test_going_out_says_once_that_the_hand_is_over() -> None:
    """The going out is told, then how the hand ended: the end is said once (it was said by both, twice)."""
    from positions import prepared
    table = against_computer(BeginnerPlayer(1), seed=2, **OPTIONS)
    table.match.current = prepared("AS 2S 3S / 4S 5S 6S / 7H 8D 9D", "AD 2D . / 4D 5D . / . . .",
                                   "2C 6C 8H 9S 10C 3C 4C 5C", "JD JH")
    table.mode = table._mode_now()
    table.handle({"type": "action", "id": "go_out"})
    assert table.hand.is_over and table.hand.went_out == 0
    ending = text("play.hand_end", mine=table.hand.scores()[0], theirs=table.hand.scores()[1])
    assert ending in table.message and table.message.lower().count("hand is over") == 1, table.message


def test_a_hand_over_offers_no_end_turn() -> None:
    """A hand over has no turn to end, so End turn is not shown then, even when the stock ran out (it was, greyed,
    under the 2008 rules)."""
    ended_dry = 0
    for seed in range(12):
        table = against_computer(BeginnerPlayer(1), seed=seed, **OPTIONS)
        play_to_the_end(table)
        assert "end_turn" not in [action["id"] for action in drawing.actions(table)]
        ended_dry += table.hand.stock_size == 0
    assert ended_dry, "a hand that ran the stock out was among them"
