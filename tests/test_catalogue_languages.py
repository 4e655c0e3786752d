"""Every language of the catalogue against English: the same keys and placeholders, every text renders, the
Spanish books speak Spanish only and use the words of their glossary (texts/es/GLOSSARY.md)."""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from leopard_tutor.engine import catalogue
from leopard_tutor.engine.catalogue import TEXTS_ROOT, text

LANGUAGES = sorted(path.name for path in TEXTS_ROOT.iterdir() if path.is_dir() and path.name != "en")
BOOKS = sorted(path.stem for path in (TEXTS_ROOT / "en").glob("*.json"))
PLURAL_FORMS = {"plural", "zero", "one", "other"}


def _book(lang: str, name: str) -> dict[str, object]:
    data = json.loads((TEXTS_ROOT / lang / f"{name}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _leaves(node: object, path: str = "") -> Iterator[tuple[str, object]]:
    """Every text of a book by its path: a template (str), plural forms (a dict with "plural") or the forms of a
    person (a dict with "person")."""
    if isinstance(node, dict) and "plural" not in node and "person" not in node:
        for name, child in node.items():
            yield from _leaves(child, f"{path}.{name}" if path else name)
    else:
        yield path, node


def _placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def _shape(entry: object) -> tuple[str, frozenset[str], frozenset[str]]:
    """What must match across languages: the kind of entry, its forms and the placeholder names it uses (a list
    of beginnings in language.sounds is of its own kind, its words the language's own). The forms of a person are the
    language's own (Spanish tells the reader's verb from the other player's, English needs one template): they
    are a template whose placeholders are those of both forms, the fact that picks them aside."""
    if isinstance(entry, dict) and "person" in entry:
        forms = [entry[form] for form in entry if form != "person"]
        assert set(entry) == {"person", "you", "other"} and all(isinstance(form, str) for form in forms), entry
        return "template", frozenset(), frozenset(set().union(*map(_placeholders, forms)))
    if isinstance(entry, list):
        assert all(isinstance(each, str) and each for each in entry), entry
        return "beginnings", frozenset(), frozenset()
    if isinstance(entry, str):
        return "template", frozenset(), frozenset(_placeholders(entry))
    assert isinstance(entry, dict), entry
    forms = frozenset(entry) - {"plural"}
    assert {"one", "other"} <= forms <= PLURAL_FORMS, entry
    names = set().union(*(_placeholders(entry[form]) for form in forms))
    return f"plural:{entry['plural']}", forms, frozenset(names)


def _texts(lang: str) -> dict[str, object]:
    """Every text of every book of `lang`, by catalogue key ("book.path"); the books' "about" notes left out."""
    return {f"{name}.{path}": entry for name in BOOKS for path, entry in _leaves(_book(lang, name))
            if path != "about" and not path.endswith(".about") and not isinstance(entry, list)}


def _samples(entry: object) -> dict[str, object]:
    """Sample facts for every placeholder of `entry`: a number for the count that picks a plural form
    (and for every other name, a short neutral word that is no word of either language)."""
    _, _, names = _shape(entry)
    facts: dict[str, object] = {name: "Zork" for name in names}
    if isinstance(entry, dict) and "plural" in entry:
        facts[str(entry["plural"])] = 2
    return facts


def _renderings(entry: object, facts: dict[str, object]) -> list[str]:
    """`entry` filled with `facts`, in every form it has."""
    if isinstance(entry, str):
        return [entry.format(**facts)]
    assert isinstance(entry, dict)
    return [str(entry[form]).format(**facts) for form in sorted(set(entry) - {"plural", "person"})]


def test_spanish_is_there() -> None:
    assert "es" in LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_book(lang: str) -> None:
    books = sorted(path.stem for path in (TEXTS_ROOT / lang).glob("*.json"))
    assert books == BOOKS


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", BOOKS)
def test_same_keys_kinds_and_placeholders_as_english(lang: str, name: str) -> None:
    english, other = dict(_leaves(_book("en", name))), dict(_leaves(_book(lang, name)))
    assert sorted(set(english) - set(other)) == [], f"keys of {name} missing in {lang}"
    assert sorted(set(other) - set(english)) == [], f"keys of {name} in {lang} that English lacks"
    differ = [f"{name}.{key}: en {_shape(english[key])} but {lang} {_shape(other[key])}"
              for key in english if key != "about" and _shape(english[key]) != _shape(other[key])]
    assert not differ, "\n".join(differ)


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_every_text_renders_with_sample_facts(lang: str) -> None:
    rendered = 0
    for key, entry in _texts(lang).items():
        assert isinstance(entry, (str, dict)), key
        for words in _renderings(entry, _samples(entry)):
            assert "{" not in words and "}" not in words, f"{key} leaves a brace: {words!r}"
            assert words.strip(), f"{key} says nothing"
            rendered += 1
    assert rendered > 900


# English words that no Spanish sentence needs: articles, pronouns, common verbs and prepositions, and the
# game's own words. Words that are also Spanish ("a", "no", "me", "come", "sea", "he", "has", "ten", "do", "total",
# "final", "color", "diagonal", "as", "once", "son", "fin", "pie", "red"...) are left out on purpose.
_ENGLISH = """
    the and or your you yours their theirs they them it its is are was were be been being this that these those
    with of to from into onto on in at by for not can cannot could would should will may must does did done
    have had if then than when where which who what why how only every each both either neither any some none
    all more most less one two three four five six seven eight nine there here now yet still again also
    card cards square squares space spaces line lines row rows column columns turn turns hand hands stock
    discard discarded discards pile piles play plays played playing player players score scores scored scoring
    point points value worth match matches game games deal dealt draw drawn opponent opponents lesson lessons
    stage stages hint hints practice rules rule review move moves going out go goes face up down top bottom
    left right middle centre center empty open suit suits colour black jack jacks queen queens king kings ace
    aces tens hearts diamonds spades clubs bonus penalty raw table tables code link page button start
    back next new well done right wrong yes please try again wait close
"""
ENGLISH_WORDS = frozenset(_ENGLISH.split())
ALLOWED = frozenset({"leopard", "abbott", "robert", "tutor", "csv", "qr", "javascript", "python", "krtq",
                     "zork"})
"""Names and notations that stay as they are in every language (Zork: the sample fact)."""


def _words(sentence: str) -> list[str]:
    return re.findall(r"[^\W\d_]+", sentence.lower())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_english_word_in_the_other_languages(lang: str) -> None:
    found = []
    for key, entry in _texts(lang).items():
        for words in _renderings(entry, _samples(entry)):
            english = [word for word in _words(words) if word in ENGLISH_WORDS and word not in ALLOWED]
            if english:
                found.append(f"{key}: {english} in {words!r}")
    assert not found, "English words in the texts:\n" + "\n".join(found)


def test_the_english_word_list_catches_english() -> None:
    english = [word for key, entry in _texts("en").items() for words in _renderings(entry, _samples(entry))
               for word in _words(words) if word in ENGLISH_WORDS]
    assert len(english) > 1000  # the list is about the words the English books really use


GLOSSARY = TEXTS_ROOT / "es" / "GLOSSARY.md"
RULED_OUT = {
    r"\bcuadrados?\b": "square: cuadro",
    r"\bcuadr[ií]culas?\b": "square: cuadro",
    r"\bespacios?\b(?! en blanco)": "space: casilla (a blank between words is 'espacio en blanco')",
    r"\bhuecos?\b": "space: casilla",
    r"\bceldas?\b": "space: casilla",
    r"\brenglon(?:es)?\b|\bhileras?\b": "row: fila",
    r"\bmont[oó]n(?:es)?\b": "stock: mazo; pile: pila",
    r"\bpozo\b": "stock: mazo",
    r"\bnaipes?\b": "card: carta",
    r"\boponentes?\b|\badversari[oa]s?\b|\bcontrincantes?\b|\bcontrari[oa]s?\b": "opponent: rival",
    r"\bmangas?\b|\bencuentros?\b": "match: partida; hand (a deal): ronda",
    r"\bsotas?\b|\bvalets?\b|\bcaballos?\b": "jack: jota",
    r"\bdamas?\b": "queen: reina",
    r"\bbastos\b|\bespadas\b|\bcopas\b|\boros\b|\brombos\b|\bcorazón\b": "suits: picas, corazones, tréboles, diamantes",
    r"\bbono\b|\bbonus\b|\bprima\b": "bonus: bonificación",
    r"\bplant[aá]r?(?:se|te)\b|\bretir[aá]r?(?:se|te)\b|\bsalirse\b": "go out: cerrar",
    r"\bcara (?:arriba|abajo)\b|\bbocabajo\b|\bbocarriba\b": "face up, face down: boca arriba, boca abajo",
    r"\bmaestr[oa]s?\b|\bprofesor(?:a|es|as)?\b": "teacher: docente",
    r"\bpuntaje\b|\bpuntuaje\b": "score: puntuación",
    r"\bcomputadora\b": "computer: ordenador",
}
"""Synonyms the glossary rules out, and the word it chose instead."""


def test_the_glossary_names_the_chosen_words() -> None:
    glossary = GLOSSARY.read_text(encoding="utf-8")
    for chosen in ("cuadro", "casilla", "fila", "columna", "diagonal", "línea", "mazo", "pila de descartes",
                   "mano", "ronda", "partida", "cerrar", "rival", "jota", "reina", "rey", "as", "picas",
                   "corazones", "tréboles", "diamantes", "boca arriba", "boca abajo", "palo", "color"):
        assert re.search(rf"\*\*{re.escape(chosen)}\*\*", glossary), f"the glossary does not choose {chosen!r}"
    for ruled_out in RULED_OUT.values():
        assert ruled_out.split(": ")[1].split(";")[0].split(" (")[0].split(",")[0] in glossary


def test_spanish_uses_the_glossary_words() -> None:
    found = [f"{key}: {pattern!r} ({why}) in {words!r}"
             for key, entry in _texts("es").items() for words in _renderings(entry, _samples(entry))
             for pattern, why in RULED_OUT.items() if re.search(pattern, words, re.IGNORECASE)]
    assert not found, "words the glossary rules out:\n" + "\n".join(found)
    spanish = " ".join(words for entry in _texts("es").values() for words in _renderings(entry, _samples(entry)))
    for chosen in ("cuadro", "casilla", "mazo", "pila de descartes", "ronda", "partida", "cerrar", "rival",
                   "jota", "reina", "boca abajo"):
        assert chosen in spanish, chosen


def _with_article(facts: dict[str, object]) -> dict[str, object]:
    """`facts` with each card named with its article ("the_card", "the_shown", "The_card"...) begun by "el", as the
    name of a king or a number card is."""
    return {name: f"{'El' if name[0] == 'T' else 'el'} {value}" if name.lower().startswith("the_") else value
            for name, value in facts.items()}


def test_spanish_contracts_de_el_and_a_el() -> None:
    """Spanish writes "del" and "al": a template that would say "de el" or "a el" (also where a fact begins
    with "el": a card with its article, `the_card` or `The_card`, "el 7 de corazones") needs the preposition inside
    the fact, as `lessons.goals.where` has it."""
    found = [f"{key}: {words!r}" for key, entry in _texts("es").items()
             for words in _renderings(entry, _with_article(_samples(entry)))
             if re.search(r"\b[Dd]e el\b|\b[Aa] el\b", words)]
    assert not found, "\n".join(found)
    texts = _texts("es")
    for group in ("lessons.goals.where.", "narration.moves.square.", "narration.moves.square_told.", "hints.whose.",
                  "engine.illegal.numbered_covered.own_other", "engine.illegal.numbered_covered.other_other"):
        facts = {key: words for key, words in texts.items() if key.startswith(group)}
        assert facts and all(re.match(r"del? ", str(words)) for words in facts.values()), facts
    for key, fact in (("lessons.goals.played.met", "where"), ("lessons.questions.is it", "where"),
                      ("narration.moves.advice.play", "where"), ("narration.moves.report.play", "where_told"),
                      ("hints.move.play", "whose"), ("engine.illegal.numbered_covered.cover_or_other", "other"),
                      ("sections.learn.in_sight.pile", "where")):
        assert f" de {{{fact}}}" not in str(texts[key]), f"{key}: the fact {fact} brings its own 'de'"


def test_the_ruled_out_words_are_caught() -> None:
    caught = {why for pattern, why in RULED_OUT.items()
              for sample in ("el cuadrado", "un espacio vacío", "el montón", "tu oponente", "la sota", "bastos",
                             "plantarse", "el profesor", "la computadora", "el bono")
              if re.search(pattern, sample, re.IGNORECASE)}
    assert len(caught) >= 9
    assert not any(re.search(pattern, "espacios en blanco, el cuadro, la casilla", re.IGNORECASE)
                   for pattern in RULED_OUT)


@pytest.fixture
def fresh_catalogue() -> Iterator[None]:
    catalogue.book.cache_clear()
    catalogue._entry.cache_clear()
    yield
    catalogue.book.cache_clear()
    catalogue._entry.cache_clear()


def test_the_language_setting_picks_the_spanish_books(monkeypatch: pytest.MonkeyPatch, fresh_catalogue: None) -> None:
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    assert text("engine.place.own", space=4) == "la casilla 4 de tu cuadro"
    assert text("lessons.feedback.stars", stars=1) == "Etapa completada: 1 estrella."
    assert text("lessons.feedback.stars", stars=3) == "Etapa completada: 3 estrellas."
    assert text("app.preparing", ahead=0) == "Preparando tu mesa: vas a continuación."
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "en")
    assert text("engine.place.own", space=4) == "space 4 of your square"
    monkeypatch.delenv("LEOPARD_TUTOR_LANGUAGE")
    assert text("lessons.feedback.stars", stars=3) == "Stage complete: 3 stars."


def test_every_spanish_book_is_tidy_json() -> None:
    for name in BOOKS:
        path: Path = TEXTS_ROOT / "es" / f"{name}.json"
        raw = path.read_text(encoding="utf-8")
        assert "\\u" not in raw, f"{path.name}: write accents as themselves, not as \\u escapes"
        assert raw.endswith("\n"), path.name


def test_text_finds_every_spanish_text(monkeypatch: pytest.MonkeyPatch, fresh_catalogue: None) -> None:
    """Through `text()` with LEOPARD_TUTOR_LANGUAGE=es, every key gives its Spanish words (none falls back to
    English), and the plural forms are picked by their count."""
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    for key, entry in _texts("es").items():
        facts = _samples(entry)
        if isinstance(entry, str):
            assert text(key, **facts) == entry.format(**facts), key
            continue
        assert isinstance(entry, dict)
        if "person" in entry:  # the "you" form where the fact that picks it is "you", "other" for anything else
            who = str(entry["person"])
            for said, form in (("you", "you"), ("other", "other"), ("Zork", "other")):
                assert text(key, **{**facts, who: said}) == str(entry[form]).format(**facts), (key, said)
            continue
        count = str(entry["plural"])
        for form, number in (("one", 1), ("other", 2), ("zero" if "zero" in entry else "other", 0)):
            assert text(key, **{**facts, count: number}) == str(entry[form]).format(**{**facts, count: number}), key


def test_a_kernel_chooses_its_own_language_over_the_servers(monkeypatch: pytest.MonkeyPatch) -> None:
    """`set_language` is this kernel's page's language, whatever LEOPARD_TUTOR_LANGUAGE says; anything that is
    not a folder of texts/ chooses English and changes nothing else."""
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    assert catalogue.language() == "es"
    assert catalogue.set_language("en") == "en"
    assert catalogue.language() == "en" and text("engine.place.own", space=4) == "space 4 of your square"
    assert catalogue.set_language("es-MX") == "es"
    assert text("engine.place.own", space=4) == "la casilla 4 de tu cuadro"
    for hostile in ("xx", "../es", "es/../../etc", "<script>", "e" * 10_000, None, 7, "", "es-" + "x" * 40):
        assert catalogue.set_language(hostile) == "en", hostile
    catalogue._CHOSEN.clear()  # the kernel forgets its chosen language
    assert catalogue.language() == "es"
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "../es")
    assert catalogue.language() == "en"


def test_the_language_is_chosen_in_order_of_precedence() -> None:
    """A link's language, else the learner's kept choice, else the browser's languages in turn, else the
    server's, else English; each as a browser says it ("es-ES") and each checked."""
    choose = catalogue.choose_language
    assert choose("es", "en", "en-US", "en") == "es"  # a teacher's ?lang=es
    assert choose("xx", "es", "en-US", "en") == "es"  # a link's unknown language is passed over
    assert choose(None, "es", "en-US", "en") == "es"  # the learner's choice kept in the browser
    assert choose(None, "", "es-ES", "en") == "es"  # the browser's language
    assert choose(None, "", "fr-FR", "es-MX", "en") == "es"  # the first of the browser's languages the tutor has
    assert choose(None, "", "fr-FR", "es") == "es"  # the server's
    assert choose(None, None, "fr", None) == "en"
    assert choose() == "en"
    assert list(catalogue.languages().items())[:2] == [("en", "English"), ("es", "Español")]


def test_a_third_language_is_a_folder_of_books_and_nothing_else(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_catalogue: None) -> None:
    """A folder beside en/ and es/ is a language: the picker lists it by the name its `language` book gives,
    its texts are read, a key it lacks falls back to English, and its list words change where its own
    `language.sounds` say (no line of code names it)."""
    for lang in ("en", "es"):
        (tmp_path / lang).symlink_to(TEXTS_ROOT / lang)
    (tmp_path / "zz").mkdir()
    (tmp_path / "zz" / "language.json").write_text(json.dumps(
        {"name": "Zedish", "sounds": {"or_list": {"before": ["q"], "not_before": ["qu"]},
                                      "and_list": {"before": [], "not_before": []}}}), encoding="utf-8")
    (tmp_path / "zz" / "words.json").write_text(json.dumps(
        {"list_separator": "; ", "or_list": "{first} ov {last}", "or_list_sound": "{first} oq {last}",
         "and_list": "{first} ant {last}", "and_list_sound": "{first} ant {last}"}), encoding="utf-8")
    monkeypatch.setattr(catalogue, "TEXTS_ROOT", tmp_path)
    assert catalogue.languages() == {"en": "English", "es": "Español", "zz": "Zedish"}
    catalogue.set_language("zz-ZZ")
    try:
        assert catalogue.language() == "zz"
        assert catalogue.or_list(["a", "b", "c"]) == "a; b ov c"
        assert catalogue.or_list(["a", "qa"]) == "a oq qa"
        assert catalogue.or_list(["a", "quo"]) == "a ov quo"
        assert catalogue.and_list(["a", "b"]) == "a ant b"
        assert text("engine.place.own", space=4) == "space 4 of your square"  # not in zz: English
    finally:
        catalogue._CHOSEN.clear()  # the kernel forgets its chosen language
        catalogue._has_folder.cache_clear()

