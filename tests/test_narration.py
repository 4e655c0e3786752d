"""The words for what a move did: cards, covered cards, lines that formed or broke, value changes."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from keyed import mark, said

from leopard_tutor.engine import (
    ORIGINAL_1963,
    REVISED_2008,
    RULE_SETS,
    Card,
    Discard,
    EndTurn,
    GoOut,
    Hand,
    Play,
    Square,
    square_value,
)
from leopard_tutor.engine.cards import rank_words
from leopard_tutor.engine.catalogue import text
from leopard_tutor.engine.narration import line_changes, move_words, narrate
from leopard_tutor.engine.turns import current_player
from leopard_tutor.table import PassingDevice, PersonHere, Table

C = Card.parse
EMPTY = Square()
YOU, OPPONENT, YOUR, THEIR = (mark(f"narration.{who}") for who in ("you", "opponent", "your", "their"))
"""Under `keyed` (tests/keyed.py) a card's or a line's name is its marker: `C("7H").name`,
`REVISED_2008.line_name(...)`."""


def test_jack_on_their_square_breaks_two_lines_c4() -> None:
    before = Square.parse("AH 2H 3H / . . 6H / . . 9H")
    after = before.with_card(C("JC"), 3)
    told = narrate(Play(C("JC"), 1, 3), 0, 0, [EMPTY, before], [EMPTY, after], REVISED_2008)
    # The whole sentence, once: how the pieces are put together (the action, a colon, the effects joined by
    # commas) is code, not catalogue, so its words are the point here.
    assert told.text == ("You covered the 3 of hearts on your opponent's space 3 with the jack of clubs, face down: "
                         "their row 1-2-3 no longer scores, their column 3-6-9 no longer scores, "
                         "their square drops from 6 to 0.")
    assert {c.line.name for c in told.broken} == {"row 1-2-3", "column 3-6-9"}
    assert told.formed == ()
    assert (told.value_before, told.value_after, told.owner) == (6, 0, 1)


def test_king_on_own_seven_forms_three_lines_c3(keyed: None) -> None:
    before = Square.parse("AS . 3C / 4S 5C . / 7H 8S 9S")
    after = before.with_card(C("KS"), 7)
    told = narrate(Play(C("KS"), 0, 7), 0, 0, [before, EMPTY], [after, EMPTY], REVISED_2008)
    assert said(told.text, "narration.play_cover", subject=YOU, mover="you", poss=YOUR, shown=C("7H").the_name,
                space=7, card=C("KS").the_name)
    assert said(told.text, "narration.line_formed", poss=YOUR, line=REVISED_2008.line_name((7, 8, 9)), points=3,
                kind=mark("narration.kind_suit"))
    assert said(told.text, "narration.line_formed", poss=YOUR, line=REVISED_2008.line_name((3, 5, 7)), points=1,
                kind=mark("narration.kind_color"))
    assert said(told.text, "narration.value_rises", poss=YOUR, before=1, after=8)
    assert {REVISED_2008.line_name(c.line.spaces) for c in told.formed} == {
        REVISED_2008.line_name(line) for line in ((7, 8, 9), (1, 4, 7), (3, 5, 7))}


def test_the_same_play_told_to_the_other_player(keyed: None) -> None:
    before = Square.parse("AS . 3C / 4S 5C . / 7H 8S 9S")
    after = before.with_card(C("KS"), 7)
    told = narrate(Play(C("KS"), 0, 7), 0, 1, [before, EMPTY], [after, EMPTY], REVISED_2008)
    assert said(told.text, "narration.play_cover", subject=OPPONENT, mover="other", poss=THEIR,
                shown=C("7H").the_name, space=7, card=C("KS").the_name)
    assert said(told.text, "narration.value_rises", poss=THEIR, before=1, after=8)


def test_a_play_that_changes_nothing_says_the_value_stays(keyed: None) -> None:
    before = Square.parse(". . . / . . . / . . .")
    after = before.with_card(C("4H"), 4)
    told = narrate(Play(C("4H"), 0, 4), 0, 0, [before, EMPTY], [after, EMPTY], REVISED_2008)
    assert told.text == mark("narration.sentence", action=mark(
        "narration.play_on_empty", card=C("4H").the_name, subject=YOU, mover="you", poss=YOUR,
        space=4, place=mark("narration.space.yours", space=4)),
        effects=mark("narration.value_stays", poss=YOUR, before=0, after=0))
    assert told.changes == ()


def test_suit_line_downgraded_to_colour_line(keyed: None) -> None:
    before = Square.parse("AH 2H . / . . . / . . .")
    mid = before.with_card(C("3H"), 3)
    assert square_value(mid) == 3
    covered = mid.with_card(C("KD"), 3)
    told = narrate(Play(C("KD"), 0, 3), 0, 0, [mid, EMPTY], [covered, EMPTY], REVISED_2008)
    assert said(told.text, "narration.line_changed", poss=YOUR, line=REVISED_2008.line_name((1, 2, 3)), points=1,
                kind=mark("narration.kind_color"), before=3)
    assert told.broken[0].points_before == 3 and told.broken[0].line.points == 1


def _hand(squares: tuple[str, str], hands: tuple[str, str], to_move: int) -> Hand:
    return Hand(REVISED_2008, [Square.parse(s) for s in squares],
                [[C(c) for c in h.split()] for h in hands], [C("2C"), C("3C"), C("4C"), C("5C")], [], to_move, 1)


def _told_through_views(hand: Hand, move: Play | Discard | GoOut | EndTurn, viewer: int) -> str:
    mover = hand.to_move
    before = hand.view(viewer).squares
    value = hand.value(mover)
    hand.apply(move)
    return narrate(move, mover, viewer, before, hand.view(viewer).squares, hand.rules, went_out_value=value).text


def test_opponents_face_down_cards_stay_unnamed(keyed: None) -> None:
    hand = _hand(("AH 2H 3H / . . . / . . .", "AS 2S 3S / . . . / . . ."), ("5D", "JD QC 9S"), 1)
    text = _told_through_views(hand.copy(), Play(C("JD"), 0, 2), 0)
    assert said(text, "narration.play_cover", subject=OPPONENT, poss=YOUR, shown=C("2H").the_name, space=2,
                card=mark("narration.their_jack_face_down"))
    assert not said(text, "words.suit.D")
    text = _told_through_views(hand.copy(), Play(C("QC"), 1, 2), 0)
    assert said(text, "narration.play_cover", subject=OPPONENT, poss=THEIR, shown=C("2S").the_name, space=2,
                card=mark("narration.their_jack_or_queen"))
    assert not said(text, "words.suit.C")
    mover_text = _told_through_views(hand.copy(), Play(C("QC"), 1, 2), 1)
    assert said(mover_text, "narration.own_card_face_down", card=C("QC").the_name)


def test_a_card_over_a_face_down_card(keyed: None) -> None:
    hand = _hand(("AH 2H 3H / . . . / 7H+QD* . .", ". . . / . . . / . . ."), ("7S", "5D"), 1)
    hand.apply(Discard(C("5D")))
    text = _told_through_views(hand, Play(C("7S"), 0, 7), 1)
    assert said(text, "narration.play_over_face_down", subject=OPPONENT, poss=THEIR, space=7,
                card=C("7S").the_name, hidden=mark("narration.hidden_card"))
    hand.undo()
    assert said(_told_through_views(hand, Play(C("7S"), 0, 7), 0), "narration.play_over_face_down",
                hidden=mark("narration.own_hidden_card", card=C("QD").name))


def test_discard_go_out_and_end_turn(keyed: None) -> None:
    assert narrate(Discard(C("9C")), 1, 0, [EMPTY, EMPTY], [EMPTY, EMPTY], REVISED_2008).text == mark(
        "narration.discard", subject=OPPONENT, mover="other", card=C("9C").the_name)
    square = Square.parse("AH 2H 3H / 4H . . / 7H 8H 9H")
    out = narrate(GoOut(), 0, 0, [square, EMPTY], [square, EMPTY], REVISED_2008)
    assert out.text == mark("narration.go_out", subject=YOU, mover="you", whose=YOUR, value=9)
    assert narrate(EndTurn(), 0, 0, [EMPTY, EMPTY], [EMPTY, EMPTY], REVISED_2008).text == mark(
        "narration.end_turn", subject=YOU, mover="you")


def test_keypad_layout_names_lines_by_its_labels(keyed: None) -> None:
    before = Square.parse("AH 2H . / . . . / . . .")
    after = before.with_card(C("3H"), 3)
    told = narrate(Play(C("3H"), 0, 3), 0, 0, [before, EMPTY], [after, EMPTY], ORIGINAL_1963)
    line = ORIGINAL_1963.line_name((1, 2, 3))
    assert said(told.text, "narration.line_formed", poss=YOUR, line=line, points=2, kind=mark("narration.kind_suit"))
    assert said(told.text, "narration.value_rises", poss=YOUR, before=0, after=2)


@pytest.mark.parametrize("key", sorted(RULE_SETS))
def test_random_hands_narration_agrees_with_the_engine(key: str) -> None:
    rules = RULE_SETS[key]
    rng = random.Random(7)
    for seed in range(3):
        hand = Hand.deal(rules, seed=seed)
        while not hand.is_over:
            move = rng.choice(hand.legal_moves())
            mover = hand.to_move
            before = [s.copy() for s in hand.squares]
            hand.apply(move)
            after = hand.squares
            told = narrate(move, mover, 0, before, after, rules)
            assert told.text and told.text.endswith(".")
            if isinstance(move, Play):
                owner = move.square_owner
                assert told.value_before == square_value(before[owner], rules)
                assert told.value_after == square_value(after[owner], rules)
                assert told.changes == line_changes(owner, before[owner], after[owner], rules)
                gained = sum(c.line.points - c.points_before for c in told.changes)
                assert gained == told.value_after - told.value_before
                for change in told.changes:
                    assert change.line.name in told.text


def test_every_phrase_lives_in_the_data_file_and_is_used() -> None:
    from pathlib import Path

    from leopard_tutor.engine import narration
    from leopard_tutor.engine.catalogue import book

    source = Path(narration.__file__).read_text(encoding="utf-8")
    for key in book("narration"):
        if key == "about":
            continue
        named = f'narration.{key}"' in source or f'narration.{key}.' in source or f'"{key}"' in source
        assert named or key.removeprefix("kind_") in ("suit", "color"), key
    assert '"You"' not in source and "square rises" not in source  # the words are data, not code


def test_one_narrator_puts_a_move_as_advice_report_or_undo(keyed: None) -> None:
    play, jack, queen = Play(C("7H"), 0, 7), Play(C("JC"), 0, 3), Play(C("QS"), 1, 3)
    seven = C("7H").the_name
    assert said(move_words(play, "advice", 0), "narration.moves.advice.play", card=seven, space=7,
                where=mark("narration.moves.square.viewer"))
    assert said(move_words(play, "undo", 0), "narration.moves.undo.play", card=seven,
                place=mark("narration.space.yours", space=7))
    assert said(move_words(Play(C("7H"), 1, 7), "undo", 0), "narration.moves.undo.play", card=seven,
                place=mark("narration.space.named", space=7, owner=mark("narration.owner")))
    # the other player's face-down cards are named only by what they can be
    rank = rank_words(C("JC").rank)
    assert said(move_words(jack, "report", 0), "narration.moves.report.play_hidden", space=3,
                card=mark("narration.moves.some_rank", rank=rank),
                where_told=mark("narration.moves.square_told.viewer"))
    hidden_queen = move_words(queen, "report", 0)
    assert said(hidden_queen, "narration.moves.report.play_hidden", space=3,
                where_told=mark("narration.moves.square_told.other"))
    assert said(hidden_queen, "words.or_list", first=mark("narration.moves.some_rank", rank=rank),
                last=mark("narration.moves.some_rank", rank=rank_words(C("QS").rank)))
    assert said(move_words(Play(C("9D"), 1, 9), "report", 0), "narration.moves.report.play", card=C("9D").the_name,
                space=9, where_told=mark("narration.moves.square_told.other"))
    assert move_words(Discard(C("5C")), "report", 0) == mark("narration.moves.report.discard",
                                                             card=C("5C").the_name)
    assert move_words(GoOut(), "advice", 1) == mark("narration.moves.advice.go_out")
    assert move_words(EndTurn(), "report", 1) == mark("narration.moves.report.end_turn")
    assert move_words(Discard(C("5C")), "undo", 0) == mark("narration.moves.undo.discard", card=C("5C").the_name)


def test_a_turn_ended_with_no_card_held_is_told_as_a_pass(keyed: None) -> None:
    """Running Leopard at one device, random moves: an end of turn by a player who held no card (the turn runner's
    `Passed`) reads as a pass in the move list, any other as the end of a turn."""
    seen = {"passed": 0, "end_turn": 0}
    for seed in range(40):
        table = Table((PersonHere(), PersonHere()), rules=RULE_SETS["RUNNING_LEOPARD"], seed=seed, hands=1)
        rng = random.Random(seed)
        while not table.hand.is_over and min(seen.values()) < 3:
            if isinstance(table.mode, PassingDevice):
                table.handle({"type": "action", "id": "show_hand"})
            player = current_player(table.hand)
            assert player is not None
            held = len(table.hand.held[player])
            move = rng.choice(table.view().legal_moves())
            table.make(move)
            if isinstance(move, EndTurn):
                kind = "end_turn" if held else "passed"
                assert said(table.log[-1].told[player], f"narration.{kind}"), table.log[-1].told[player]
                seen[kind] += 1
    assert min(seen.values()) >= 3, seen


@pytest.fixture
def spanish(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    yield


def _every_kind_of_move_told(mover: int, other: str = "") -> dict[str, str]:
    """Each kind of move made by `mover`, told to player 0: a play on an empty space, one covering a card, a jack
    laid face down, a card over a face-down one, a discard, an end of turn, a pass and going out."""
    hand = _hand(("AH 2H 3H / . . . / 7H+QD* . .", "AS 2S 3S / . . . / 7S+JC* . ."),
                 ("4H KD JD 7C", "4S KC JH 7D"), mover)
    own, card = hand.held[mover], (lambda rank: next(c for c in hand.held[mover] if c.rank == rank))
    assert len(own) == 4
    told: dict[str, str] = {}
    for kind, move in (("empty", Play(card(4), mover, 4)), ("cover", Play(card(13), mover, 3)),
                       ("jack", Play(card(11), 1 - mover, 2)), ("over", Play(card(7), mover, 7)),
                       ("discard", Discard(card(7)))):
        copy = hand.copy()
        before = copy.view(0).squares
        copy.apply(move)
        told[kind] = narrate(move, mover, 0, before, copy.view(0).squares, REVISED_2008, other=other).text
    squares = hand.view(0).squares
    told["end_turn"] = narrate(EndTurn(), mover, 0, squares, squares, REVISED_2008, other=other).text
    told["passed"] = narrate(EndTurn(), mover, 0, squares, squares, REVISED_2008, other=other, passed=True).text
    told["go_out"] = narrate(GoOut(), mover, 0, squares, squares, REVISED_2008, other=other).text
    return told


SPANISH_CARD_AFTER_LA_CARTA = re.compile(r"la carta (?:as|rey|reina|jota|\d)")
"""A card named as a log would ('la carta rey de tréboles'), not as Spanish says it ('el rey de tréboles')."""


def test_spanish_narration_conjugates_a_verb_for_each_player(spanish: None) -> None:
    """Spanish says what the reader did with a verb of theirs ("Jugaste", "Descartaste"), never "Tú: ...", and what
    the other player did with that player as the subject of a verb ("Tu rival jugó", "Ana descartó"), never
    "Tu rival: ..."; a card is named with the article of its rank ("el rey", "la jota", "el 3")."""
    mine = _every_kind_of_move_told(0)
    assert set(mine) == {"empty", "cover", "jack", "over", "discard", "end_turn", "passed", "go_out"}
    for kind, sentence in mine.items():
        assert re.match(r"[A-Z][a-zá]+aste\b", sentence), (kind, sentence)  # the preterite of tú: "Jugaste", ...
        assert not sentence.startswith(text("narration.you")) and ":" not in sentence.split(" ")[0], sentence
    for other in ("", "Ana"):
        subject = other or text("narration.opponent")
        theirs = _every_kind_of_move_told(1, other)
        for kind, sentence in theirs.items():
            assert re.match(re.escape(subject) + r" [a-zá]+ó\b", sentence), (kind, sentence)  # "Tu rival jugó", ...
    assert mine["empty"] == "Jugaste el 4 de corazones en tu casilla 4: tu cuadro se queda en 3."
    assert mine["cover"].startswith("Tapaste el 3 de corazones en tu casilla 3 con el rey de diamantes:")
    assert mine["jack"].startswith("Tapaste el 2 de picas en la casilla 2 de tu rival con la jota de diamantes "
                                   "boca abajo:")
    assert mine["over"].startswith("Jugaste el 7 de tréboles en tu casilla 7, encima de tu reina de diamantes "
                                   "boca abajo:")
    assert mine["discard"] == "Descartaste el 7 de tréboles."
    assert mine["passed"] == "Pasaste, sin cartas que jugar."
    assert mine["go_out"] == "Cerraste con tu cuadro en 3."
    theirs = _every_kind_of_move_told(1, "Ana")
    assert theirs["empty"].startswith("Ana jugó el 4 de picas en su casilla 4:")
    assert theirs["jack"].startswith("Ana tapó el 2 de corazones en tu casilla 2 con una jota boca abajo:")
    assert theirs["cover"].startswith("Ana tapó el 3 de picas en su casilla 3 con el rey de tréboles:")
    assert theirs["discard"] == "Ana descartó el 7 de diamantes."
    assert theirs["end_turn"] == "Ana terminó su turno."
    assert theirs["passed"] == "Ana pasó, sin cartas que jugar."
    assert theirs["go_out"] == "Ana cerró con su cuadro en 3."
    assert _every_kind_of_move_told(1)["discard"] == "Tu rival descartó el 7 de diamantes."


def test_spanish_names_every_card_with_the_article_of_its_rank(spanish: None) -> None:
    """No narration says "la carta rey" or "la carta 7": each card has its article ("el as", "el 7", "la jota",
    "la reina", "el rey"), and no template puts "de" or "a" before it (which would read "de el", not "del")."""
    said = [sentence for mover in (0, 1) for other in ("", "Ana")
            for sentence in _every_kind_of_move_told(mover, other).values()]
    cards = [Card(rank, suit) for rank in range(1, 14) for suit in "SH"]
    empty = [Square(), Square()]
    for card in cards:
        for owner in (0, 1):
            play = Play(card, owner, 5)
            landed = [Square().with_card(card, 5) if square == owner else Square() for square in (0, 1)]
            said += [narrate(play, mover, 0, empty, landed, REVISED_2008).text for mover in (0, 1)]
            said += [move_words(play, form, 0) for form in ("advice", "report", "undo")]
        said += [move_words(Discard(card), form, 0) for form in ("advice", "report", "undo")]
        said.append(narrate(Discard(card), 1, 0, empty, empty, REVISED_2008).text)
    wrong = [sentence for sentence in said
             if SPANISH_CARD_AFTER_LA_CARTA.search(sentence) or re.search(r"\b[Dd]e el\b|\b[Aa] el\b", sentence)]
    assert not wrong, wrong
    assert "Tu rival descartó el as de picas." in said and "Tu rival descartó la reina de corazones." in said
    assert "Jugaste la jota de picas boca abajo en tu casilla 5: tu cuadro se queda en 0." in said
    assert "descartar el rey de picas" in said and "Tu rival descartó la jota de corazones." in said
    assert "el rey de picas a la pila de descartes" in said and "la jota de picas a la pila de descartes" in said
    assert "jugar el as de corazones en la casilla 5 de tu cuadro" in said


def test_english_narration_says_what_it_always_said() -> None:
    """English keeps one template for both players: the card with "the", the subject before the verb."""
    told = _every_kind_of_move_told(1, "Ana")
    assert told["discard"] == "Ana discarded the 7 of diamonds."
    assert told["passed"] == "Ana passed, with no card to play."
    assert told["go_out"] == "Ana went out with their square worth 3."
    assert told["jack"].startswith("Ana covered the 2 of hearts on your space 2 with a jack, face down:")
    mine = _every_kind_of_move_told(0)
    assert mine["empty"] == "You played the 4 of hearts on your space 4: your square stays at 3."
    assert mine["jack"].startswith("You covered the 2 of spades on your opponent's space 2 with the jack of diamonds, "
                                   "face down:")
    assert mine["over"].startswith("You played the 7 of clubs on your space 7, over your face-down queen of diamonds:")
    assert mine["end_turn"] == "You ended the turn."
    assert move_words(Discard(C("KC")), "undo", 0) == "the discard of the king of clubs"
