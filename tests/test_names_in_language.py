"""Every name a learner reads (cards, ranks, suits, lines, levels) and every error they may meet comes from the
catalogue in the language current when it is read: with LEOPARD_TUTOR_LANGUAGE=es a card, a line, a rank, an
illegal move, a hint and a narrated move are Spanish with no English word, and so is every text a whole hand
between two computer players produces."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_catalogue_languages import ALLOWED, ENGLISH_WORDS, _words

from leopard_tutor.ai import make_player
from leopard_tutor.ai.hints import explain
from leopard_tutor.ai.review import review_hand
from leopard_tutor.ai.why import why
from leopard_tutor.engine import REVISED_2008, RULE_SETS, Card, Hand, IllegalMove, LeopardError, catalogue, rank_words
from leopard_tutor.engine.catalogue import and_list, or_list, text
from leopard_tutor.engine.errors import error_words, is_keyed
from leopard_tutor.engine.legality import pile_problem
from leopard_tutor.engine.moves import Play
from leopard_tutor.engine.narration import move_words, narrate, placed_line_name, score_words
from leopard_tutor.engine.scoring import scoring_lines
from leopard_tutor.engine.square import Square


def english_in(words: str) -> list[str]:
    """The English words (from the catalogue tests' list) in `words`."""
    return [word for word in _words(words) if word in ENGLISH_WORDS and word not in ALLOWED]


@pytest.fixture
def spanish(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    yield
    monkeypatch.delenv("LEOPARD_TUTOR_LANGUAGE")
    catalogue._entry.cache_clear()


def test_names_follow_the_language_each_time_they_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    queen, seven = Card.parse("QS"), Card.parse("7H")
    assert (queen.name, seven.name, rank_words(1, plural=True)) == ("queen of spades", "7 of hearts", "aces")
    assert REVISED_2008.line_name((3, 2, 1)) == "row 1-2-3"
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    assert (queen.name, seven.name) == ("reina de picas", "7 de corazones")
    assert (queen.the_name, seven.the_name, Card.parse("AS").the_name, Card.parse("KC").the_name) == (
        "la reina de picas", "el 7 de corazones", "el as de picas", "el rey de tréboles")
    assert (rank_words(1), rank_words(1, plural=True), rank_words(11), rank_words(10, plural=True)) == (
        "as", "ases", "jota", "dieces")
    assert REVISED_2008.line_name((1, 2, 3)) == "fila 1-2-3"
    assert REVISED_2008.line_name((3, 5, 7)) == "diagonal 3-5-7"
    assert placed_line_name((7, 8, 9), REVISED_2008) == "fila 7-8-9 de abajo"
    assert [line.name for line in scoring_lines(Square(), REVISED_2008)][:4] == [
        "fila 1-2-3", "fila 4-5-6", "fila 7-8-9", "columna 1-4-7"]
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "en")  # no name kept across languages
    assert (queen.name, REVISED_2008.line_name((1, 2, 3))) == ("queen of spades", "row 1-2-3")
    assert (queen.the_name, seven.the_name) == ("the queen of spades", "the 7 of hearts")


def test_every_card_rank_and_line_is_spanish(spanish: None) -> None:
    names = [card.name for card in {Card(rank, suit) for rank in range(1, 14) for suit in "SHDC"}]
    names += [rank_words(rank, plural=plural) for rank in range(1, 14) for plural in (False, True)]
    names += [line.name for line in scoring_lines(Square(), REVISED_2008)]
    names += [placed_line_name(line.spaces, rules) for rules in RULE_SETS.values()
              for line in scoring_lines(Square(), rules)]
    assert not [name for name in names if english_in(name)]
    assert "as de tréboles" in names and "rey de diamantes" in names


def test_spanish_lists_say_u_and_e_before_those_sounds(spanish: None) -> None:
    assert or_list(["7", "8"]) == "7 u 8"
    assert or_list(["una jota", "una reina"]) == "una jota o una reina"
    assert or_list(["10", "11"]) == "10 u 11"
    assert and_list(["fila 1-2-3", "hilo"]) == "fila 1-2-3 e hilo"
    assert and_list(["agua", "hielo"]) == "agua y hielo"
    assert and_list(["a", "b", "c"]) == "a, b y c"


def test_an_illegal_move_is_refused_in_the_current_language(monkeypatch: pytest.MonkeyPatch) -> None:
    hand = Hand.deal(REVISED_2008, seed=3)
    player = hand.to_move
    card = next(card for card in hand.held[player] if card.rank <= 9)
    wrong = next(space for space in range(1, 10) if space != card.rank)
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    with pytest.raises(IllegalMove) as raised:
        hand.apply(Play(card, player, wrong))
    error = raised.value
    assert is_keyed(error) and error.key == "engine.illegal.wrong_space" and error.facts["number"] == card.rank
    spanish_words = str(error)
    assert spanish_words.startswith(text(f"words.a_rank.{card.rank}").capitalize()) and card.name in spanish_words
    assert not english_in(spanish_words), spanish_words
    assert error.reason == spanish_words
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "en")  # the sentence is the catalogue's, read when shown
    assert str(error).startswith(("A ", "An ")) and "only goes on space" in str(error)


def test_a_keyed_error_reads_in_the_language_of_the_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    error = LeopardError(key="classmates.refused.name_too_long", facts={"most": 24, "length": 30})
    english = str(error)
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    assert str(error) != english and not english_in(str(error))
    assert error_words(error) == str(error)
    plain = LeopardError("a programmer's message")
    assert not is_keyed(plain) and error_words(plain) == "LeopardError"
    assert error_words(KeyError("x")) == "KeyError"


def test_hint_and_narration_are_spanish(spanish: None) -> None:
    hand = Hand.deal(REVISED_2008, seed=11)
    player = hand.to_move
    view = hand.view(player)
    move = next(m for m in view.legal_moves() if isinstance(m, Play))
    told = explain(view, move)
    before = [square.copy() for square in hand.view(1 - player).squares]
    hand.apply(move)
    narration = narrate(move, player, 1 - player, before, hand.view(1 - player).squares, REVISED_2008).text
    said = [told.reason, *told.ladder, narration, move_words(move, "report", 1 - player)]
    assert all(said) and not [words for words in said if english_in(words)], said


def _illegal_tries(hand: Hand) -> Iterator[str]:
    """The refusal of a few moves the player to move may not make, as the page would show them."""
    player = hand.to_move
    tried = 0
    for card in hand.held[player]:
        for owner in (player, 1 - player):
            for space in range(1, 10):
                play = Play(card, owner, space)
                if not hand.check(play) and tried < 4:
                    tried += 1
                    with pytest.raises(IllegalMove) as error:
                        hand.apply(play)  # refused: nothing changes
                    yield str(error.value)
                    break


@pytest.mark.parametrize("rules_key", sorted(RULE_SETS))
def test_a_whole_hand_between_two_computers_reads_in_spanish(spanish: None, rules_key: str) -> None:
    rules = RULE_SETS[rules_key]
    hand = Hand.deal(rules, seed=7)
    players = (make_player("casual", seed=1, time_budget=0.05), make_player("intermediate", seed=2, time_budget=0.05))
    said: list[tuple[str, str]] = []
    while not hand.is_over:
        mover = hand.to_move
        view = hand.view(mover)
        said += [("error", words) for words in _illegal_tries(hand)]
        move = players[mover].choose(view)
        told = explain(view, move)
        said += [("hint", told.reason), *(("hint", rung) for rung in told.ladder)]
        said.append(("verdict", str(hand.check(move))))
        said.append(("advice", move_words(move, "advice", mover)))
        said.append(("undo", move_words(move, "undo", mover)))
        said.append(("why", why(view, move).sentence))
        before = [[square.copy() for square in hand.view(reader).squares] for reader in (0, 1)]
        hand.apply(move)
        said.append(("report", move_words(move, "report", 1 - mover)))
        for reader in (0, 1):
            for placed in (False, True):
                said.append(("narration", narrate(move, mover, reader, before[reader], hand.view(reader).squares,
                                                  rules, placed=placed).text))
    raws = [hand.value(player) for player in (0, 1)]
    said += [("score", score_words(raw, False, rules)) for raw in raws]
    review = review_hand(hand, 0, deals=2)
    said += [("review", review.summary()), *(("review", judgement.sentence) for judgement in review.judgements)]
    said = [(kind, words) for kind, words in said if words]
    assert len(said) > 100 and {kind for kind, _ in said} >= {"error", "hint", "narration", "report", "review"}
    english = [f"{kind}: {english_in(words)} in {words!r}" for kind, words in said if english_in(words)]
    assert not english, "English in the Spanish hand:\n" + "\n".join(english)


def test_a_keyed_error_survives_pickling_with_its_key_and_facts() -> None:
    import pickle

    hand = Hand.deal(REVISED_2008, seed=3)
    card = hand.held[hand.to_move][0]
    with pytest.raises(IllegalMove) as raised:
        hand.apply(Play(card, hand.to_move, 2 if card.rank == 1 else 1))
    copy = pickle.loads(pickle.dumps(raised.value))
    assert (type(copy), copy.key, copy.move, str(copy)) == (IllegalMove, raised.value.key, raised.value.move,
                                                             str(raised.value))
    plain = pickle.loads(pickle.dumps(LeopardError("for a programmer")))
    assert str(plain) == "for a programmer" and plain.key is None


def test_an_impossible_pile_names_its_rule_in_the_language_of_the_moment(spanish: None) -> None:
    """A saved start whose pile no legal play could build says the rule it breaks in Spanish too (the placement
    table's rules are read when said, not once when the engine is imported)."""
    problem = pile_problem(Square.parse(". . . / . . . / 9S . ."))
    assert problem is not None and not english_in(problem), problem
    assert text("engine.rule.numbered") in problem


def test_the_boards_own_words_are_in_the_language_of_the_moment_it_is_made(spanish: None) -> None:
    """The lost-connection notice, its reload button and the busy cue the page shows by itself are Spanish on a
    board made for a Spanish page, although the module was imported in English."""
    from leopard_tutor.widgets.board import LeopardBoard

    said = LeopardBoard().texts
    assert said == catalogue.texts("board.page") and said["lost"] == text("board.page.lost")
    assert not [words for words in said.values() if english_in(words)], said


def test_spanish_gives_a_square_its_article_and_names_whose_space_a_card_went_to(spanish: None) -> None:
    """A square's label starts a sentence, so it has its article ("El cuadro rival vale 0"); a card the viewer laid
    on the other square goes "en la casilla 3 de Ana" (or "de tu rival"), never "en su casilla 3", whose "su"
    could be anybody's after "Tú"; the mover's own square keeps its "su"."""
    from leopard_tutor.board_parts import square_part
    from leopard_tutor.table.presenter import square_labels

    mine, theirs = square_labels()
    assert square_part(Square(), REVISED_2008, key=1, label=theirs)["value_text"] == "El cuadro rival vale 0"
    named = text("play.people.square", name="Ana")
    assert square_part(Square(), REVISED_2008, key=1, label=named)["value_text"] == "El cuadro de Ana vale 0"
    assert square_part(Square(), REVISED_2008, key=0, label=mine)["value_text"] == "Tu cuadro vale 0"
    three, empty = Card.parse("3C"), [Square(), Square()]
    after = [Square(), Square().with_card(three, 3)]
    told = {(mover, other): narrate(Play(three, 1, 3), mover, 0, empty, after, REVISED_2008, other=other).text
            for mover in (0, 1) for other in ("", "Ana")}
    assert told[0, "Ana"].startswith("Jugaste el 3 de tréboles en la casilla 3 de Ana:"), told
    assert told[0, ""].startswith("Jugaste el 3 de tréboles en la casilla 3 de tu rival:"), told
    assert told[1, "Ana"].startswith("Ana jugó el 3 de tréboles en su casilla 3:"), told
    assert move_words(Play(three, 1, 3), "undo", 0) == "el 3 de tréboles en la casilla 3 de tu rival"
    assert move_words(Play(three, 0, 3), "undo", 0) == "el 3 de tréboles en tu casilla 3"
