"""The `keyed` fixture (tests/keyed.py) reports the key and facts of every text, nested ones included, and
`said` tells one key from another."""

from __future__ import annotations

from keyed import keys_in, mark, markers, said

from leopard_tutor.engine import Card, check_play
from leopard_tutor.engine.catalogue import and_list, text
from leopard_tutor.engine.square import Square


def test_an_illegal_moves_refusal_shows_its_key_and_facts(keyed: None) -> None:
    refusal = check_play(Card.parse("7H"), Square(), 3, own=True).reason
    assert keys_in(refusal)[0] == "engine.illegal.wrong_space"
    card = mark("words.the_card", the_rank=mark("words.the_rank.7"), suit=mark("words.suit.H"))
    assert said(refusal, "engine.illegal.wrong_space", the_card=card)  # a name is a marker too
    assert said(refusal, "engine.illegal.wrong_space", number=7)
    assert said(refusal, "engine.place.own", space=3)  # a nested text
    assert said(refusal, "engine.illegal.wrong_space.open", number=7)
    assert not said(refusal, "engine.illegal.wrong_space", number=3)  # a fact that differs
    assert not said(refusal, "engine.illegal.numbered_covered")  # a key that differs
    assert not said(refusal, "engine.illegal.wrong_space.taken")
    assert not said(refusal, "engine.illegal.wrong_space", colour="red")  # a fact it does not have


def test_markers_nest_and_plural_forms_keep_their_key(keyed: None) -> None:
    assert text("engine.place.own", space=4) == "⟦engine.place.own|space=4⟧"
    nested = text("engine.place.own", space=text("engine.place.other", space=2))
    assert list(markers(nested)) == [("engine.place.own", {"space": "⟦engine.place.other|space=2⟧"}),
                                     ("engine.place.other", {"space": "2"})]
    assert and_list(["a", "b", "c"]) == "⟦words.and_list|first=a⟦words.list_separator⟧b|last=c⟧"
    assert said(text("app.class_full", sessions=1), "app.class_full", sessions=1)  # a plural text
    assert said(text("app.class_full", sessions=5), "app.class_full", sessions=5)


def test_without_the_fixture_texts_are_words() -> None:
    assert keys_in(text("engine.place.own", space=4)) == []
    assert not said(text("engine.place.own", space=4), "engine.place.own")
    assert Card.parse("7H").name == "7 of hearts"  # no marker kept from a keyed test
