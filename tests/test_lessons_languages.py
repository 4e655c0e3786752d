"""The lessons, the worked examples, the rules sheet and practice in every language the data files have
(lessons/FORMAT.md and examples/FORMAT.md, "Languages"): each translation gives every text of the English
file at the same path, with the same placeholders and numbers and nothing else; the Spanish words speak
Spanish only, in the glossary's words; and with LEOPARD_TUTOR_LANGUAGE=es every lesson plays its solution
to the end, every example's steps keep the engine's values, and what the learner reads is Spanish.
"""

from __future__ import annotations

import json
import re
import string
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from test_catalogue_languages import ALLOWED, ENGLISH_WORDS, RULED_OUT

from leopard_tutor.engine import RULE_SETS, rules_by_key
from leopard_tutor.engine.translated import overlay, texts
from leopard_tutor.examples import examples_in
from leopard_tutor.examples.model import EXAMPLES_FILE
from leopard_tutor.examples.model import TEXT_KEYS as EXAMPLE_TEXT_KEYS
from leopard_tutor.lessons import LessonFormatError, Practice, current_lessons, lessons_in, load_lesson
from leopard_tutor.lessons.model import STAGES_DIR
from leopard_tutor.lessons.model import TEXT_KEYS as LESSON_TEXT_KEYS
from leopard_tutor.widgets.rules_sheet import rules_sheet_html

LESSON_FILES = sorted(STAGES_DIR.glob("*.json"))
LANGUAGES = sorted(path.name for path in STAGES_DIR.iterdir() if path.is_dir())
DATA_FILES = [(english, lang, LESSON_TEXT_KEYS) for lang in LANGUAGES for english in LESSON_FILES] + [
    (EXAMPLES_FILE, lang, EXAMPLE_TEXT_KEYS) for lang in LANGUAGES]


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _placeholders(words: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(words) if name is not None}


def _numbers(words: str) -> Counter[str]:
    return Counter(re.findall(r"\d+", re.sub(r"\{\w+\}", "", words)))


def _words(sentence: str) -> list[str]:
    return re.findall(r"[^\W\d_]+", sentence.lower())


def _english(words: str) -> list[str]:
    """The English words in `words` (placeholders' names aside)."""
    return [word for word in _words(re.sub(r"\{\w+\}", " ", words)) if word in ENGLISH_WORDS and word not in ALLOWED]


def _translation(english: Path, lang: str) -> Path:
    return english.parent / lang / english.name


# -- the files ---------------------------------------------------------------------------------------------

def test_spanish_has_every_lesson_and_the_examples() -> None:
    assert "es" in LANGUAGES
    for lang in LANGUAGES:
        assert sorted(path.name for path in (STAGES_DIR / lang).glob("*.json")) == [p.name for p in LESSON_FILES]
        assert _translation(EXAMPLES_FILE, lang).is_file()


@pytest.mark.parametrize(("english", "lang", "keys"), DATA_FILES,
                         ids=[f"{lang}-{english.stem}" for english, lang, _ in DATA_FILES])
def test_every_text_has_its_translation_with_the_same_placeholders_and_numbers(
        english: Path, lang: str, keys: frozenset[str]) -> None:
    original, words = _json(english), _json(_translation(english, lang))
    source, translated = dict(texts(original, keys)), dict(texts(words, keys))
    assert sorted(set(source) - set(translated)) == [], "texts left untranslated"
    assert sorted(set(translated) - set(source)) == [], "texts the English file lacks"
    assert overlay(original, words, keys) is not original  # the shape fits: nothing but texts, lists as long
    for path, words_there in translated.items():
        assert _placeholders(words_there) == _placeholders(source[path]), path
        # The English words pass the lint of tests/test_lesson_texts.py and test_example_texts.py (no value,
        # count or line of the position written in); the same numbers and no line name keep the claims the same.
        assert _numbers(words_there) == _numbers(source[path]), f"{path}: {words_there!r}"
        assert not re.search(r"\b\d-\d-\d\b", words_there), path
        assert bool(words_there) == bool(source[path]), path


@pytest.mark.parametrize(("english", "lang", "keys"), DATA_FILES,
                         ids=[f"{lang}-{english.stem}" for english, lang, _ in DATA_FILES])
def test_the_translation_holds_no_structure(english: Path, lang: str, keys: frozenset[str]) -> None:
    """Positions, moves, goals, keys and rules are the English file's alone: the translation has texts only."""
    def leaves(node: Any, path: str = "") -> list[str]:
        if isinstance(node, dict):
            return [leaf for name, child in node.items() for leaf in leaves(child, f"{path}.{name}")]
        if isinstance(node, list):
            return [leaf for child in node for leaf in leaves(child, path)]
        assert isinstance(node, str), f"{path}: {node!r} is no text"
        return [path.rsplit(".", 1)[-1]]
    assert set(leaves(_json(_translation(english, lang)))) <= keys


def _spanish_texts() -> list[tuple[str, str]]:
    found = []
    for english, lang, keys in DATA_FILES:
        if lang == "es":
            words = _json(_translation(english, lang))
            found += [(f"{english.stem} {path}", text) for path, text in texts(words, keys)]
    return found


def test_the_spanish_files_speak_spanish_in_the_glossarys_words() -> None:
    found = _spanish_texts()
    assert len(found) > 200
    english = [f"{where}: {_english(words)} in {words!r}" for where, words in found if _english(words)]
    assert not english, "English words:\n" + "\n".join(english)
    ruled_out = [f"{where}: {pattern!r} ({why}) in {words!r}" for where, words in found
                 for pattern, why in RULED_OUT.items() if re.search(pattern, words, re.IGNORECASE)]
    assert not ruled_out, "words the glossary rules out:\n" + "\n".join(ruled_out)
    contracted = [f"{where}: {words!r}" for where, words in found if re.search(r"\b[Dd]e el\b|\b[Aa] el\b", words)]
    assert not contracted, "\n".join(contracted)
    spanish = " ".join(words for _, words in found)
    for chosen in ("cuadro", "casilla", "mazo", "pila de descartes", "ronda", "partida", "cerrar", "rival", "jota",
                   "reina", "rey", "boca abajo", "boca arriba", "línea"):
        assert chosen in spanish, chosen
    # the learner is "tú", and the card is a "carta": no usted, no gendered words for the learner
    assert not re.search(r"\busted(es)?\b|\bbienvenid[oa]\b|\blist[oa] para\b", spanish, re.IGNORECASE)


def test_every_translation_is_tidy_json() -> None:
    for english, lang, _ in DATA_FILES:
        raw = _translation(english, lang).read_text(encoding="utf-8")
        assert "\\u" not in raw and raw.endswith("\n"), english.name


# -- the loader --------------------------------------------------------------------------------------------

def _lesson_with(tmp_path: Path, words: Any) -> Path:
    english = tmp_path / "05_kings.json"
    english.write_text((STAGES_DIR / "05_kings.json").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "xx").mkdir()
    (tmp_path / "xx" / "05_kings.json").write_text(json.dumps(words), encoding="utf-8")
    return english


@pytest.mark.parametrize(("words", "message"), [
    ({"solution": ["play KS on your 1"]}, "solution: not a text"),
    ({"advice": [{"code": "covered", "text": "x"}]}, "advice\\[0\\].code: not a text"),
    ({"hints": ["a", "b"]}, "hints: 2 texts where the English has 1"),
    ({"advice": [{"text": "x"}, {"text": "y"}]}, "advice: 2 entries where the English has 1"),
    ({"moral": "x"}, "entries the English lacks: \\['moral'\\]"),
    ({"goal": ["x"]}, "goal: a text"),
    ({"goal": "Llega a {their_score}."}, "not \\['their_score'\\]"),
])
def test_a_translation_of_another_shape_stops_the_import(tmp_path: Path, words: Any, message: str) -> None:
    with pytest.raises(LessonFormatError, match=message):
        load_lesson(_lesson_with(tmp_path, words), "xx")


def test_a_text_the_translation_lacks_stays_english(tmp_path: Path) -> None:
    lesson = load_lesson(_lesson_with(tmp_path, {"title": "Los reyes"}), "xx")
    english = load_lesson(STAGES_DIR / "05_kings.json")
    assert lesson.title == "Los reyes" and lesson.goal == english.goal and lesson.start().squares == \
        english.start().squares


def test_the_language_is_read_when_the_lessons_are_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    from leopard_tutor import examples, lessons

    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    spanish = lessons.LESSONS
    assert spanish[0].title == _json(STAGES_DIR / "es" / LESSON_FILES[0].name)["title"]
    assert examples.WORKED_EXAMPLES[0].intro.startswith("Un cuadro")
    assert examples.NOT_RECONSTRUCTED[0].title == "Ejemplos de puntuación"
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "en")
    assert lessons.LESSONS[0].title == _json(LESSON_FILES[0])["title"]
    assert examples.WORKED_EXAMPLES[0].intro.startswith("A square")
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    assert current_lessons() is spanish is lessons_in("es")  # loaded once per language
    assert [lesson.key for lesson in spanish] == [lesson.key for lesson in lessons_in("en")]


# -- in Spanish ---------------------------------------------------------------------------------------------

@pytest.fixture
def spanish(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")


@pytest.mark.parametrize("stage", range(1, len(LESSON_FILES) + 1))
def test_each_lesson_plays_through_in_spanish(stage: int, spanish: None) -> None:
    """Every stage in Spanish: its solution (or the engine's answers to its questions) completes it, as in
    English, with the same stars; everything said on the way is filled and Spanish."""
    lesson, english = lessons_in("es")[stage - 1], lessons_in("en")[stage - 1]
    assert (lesson.key, lesson.goals, lesson.solution) == (english.key, english.goals, english.solution)
    assert lesson.title != english.title and lesson.goal != english.goal
    hinted = lesson.new_attempt()  # every rung of the first hint ladder
    said = [lesson.title, lesson.goal, *lesson.intro, *(figure.caption for figure in lesson.figures),
            *(hinted.hint().text for _ in range(hinted.hint_rungs))]
    attempt = lesson.new_attempt()
    if lesson.questions:
        for question in lesson.questions:
            said.append(attempt.question_words())
            said.append(attempt.answer(question.truth(attempt.view).answer).text)
    else:
        for move in lesson.solution:
            said.append(attempt.try_move(move).text)
    assert attempt.solved and attempt.stars == 3, lesson.key
    for words in said:
        assert words and "{" not in words and "}" not in words, words
        assert not _english(words), f"{lesson.key}: {_english(words)} in {words!r}"


@pytest.mark.parametrize("stage", range(1, len(LESSON_FILES) + 1))
def test_each_lessons_off_track_and_advice_in_spanish(stage: int, spanish: None) -> None:
    """A legal move the lesson does not want and a refused one are answered in Spanish (the lesson's own
    `off track`, `mistakes` and `advice` words among them)."""
    lesson = lessons_in("es")[stage - 1]
    if lesson.questions or lesson.free:
        return
    attempt = lesson.new_attempt()
    hand = attempt.hand
    wanted = lesson.solution[0]
    others = [move for move in hand.legal_moves() if move != wanted][:6]
    said = [attempt.try_move(move).text for move in others]
    said += [attempt.try_move(str(f"play {card} on their {space}")).text
             for card in sorted(set(hand.held[0]))[:3] for space in (1, 5)]
    for words in said:
        assert "{" not in words, words
        assert not _english(words), f"{lesson.key}: {_english(words)} in {words!r}"


def test_the_examples_in_spanish_keep_the_engines_values(spanish: None) -> None:
    spanish_examples, missing = examples_in("es")
    english_examples, _ = examples_in("en")
    assert [m.key for m in missing] == ["C7"]
    for example, english in zip(spanish_examples, english_examples, strict=True):
        for version, original in ((example, english), (example.mirrored, english.mirrored)):
            assert version is not None and original is not None
            assert version.title != original.title
            said = [version.title, version.intro]
            for step, other in zip(version.steps, original.steps, strict=True):
                assert (step.square, step.value, step.with_bonus) == (other.square, other.value, other.with_bonus)
                assert step.expected is None or step.value == step.expected
                assert step.stated is None or step.value == step.stated
                assert _numbers(step.template) == _numbers(other.template)
                said.append(step.caption)
            for words in said:
                assert "{" not in words, words
                assert not _english(words), f"{example.key}: {_english(words)} in {words!r}"


@pytest.mark.parametrize("key", list(RULE_SETS))
def test_the_rules_sheet_in_spanish(key: str, spanish: None) -> None:
    page = rules_sheet_html(rules_by_key(key))
    assert "<html lang='es'>" in page
    words = re.sub(r"<style>.*?</style>|<[^>]+>", " ", page, flags=re.DOTALL)
    assert "casilla" in words and "cerrar" in words
    assert not _english(words), _english(words)
    assert not [pattern for pattern in RULED_OUT if re.search(pattern, words, re.IGNORECASE)]


@pytest.mark.parametrize("kind", ["value", "placement", "best play"])
def test_practice_in_spanish(kind: str, spanish: None) -> None:
    practice = Practice(seed=5)
    for _ in range(4):
        question = practice.next(kind)
        solution = question.solution
        given = solution[0] if isinstance(solution, list) else solution
        said = [question.prompt, practice.answer(given).text]
        for words in said:
            assert words and "{" not in words, words
            assert not _english(words), f"{_english(words)} in {words!r}"


def test_the_review_in_spanish(spanish: None) -> None:
    """The review of a hand a learner played carelessly (always the first legal move) says it in Spanish."""
    from leopard_tutor.ai.review import review_hand
    from leopard_tutor.engine import Hand

    hand = Hand.deal(rules_by_key("REVISED_2008"), seed=3)
    for _ in range(12):
        hand.apply(hand.legal_moves()[0])
    review = review_hand(hand, 0, deals=2)
    said = [review.summary(), *(judgement.sentence for judgement in review.judgements)]
    assert len(said) > 3 and any(judgement.verdict != "good" for judgement in review.judgements)
    for words in said:
        assert words and "{" not in words, words
        assert not _english(words), f"{_english(words)} in {words!r}"


def test_the_learn_and_examples_sections_take_the_language_of_the_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    from leopard_tutor.table.example_table import ExampleController
    from leopard_tutor.table.lesson_table import LearnController
    from leopard_tutor.widgets.learn import build_learn

    for lang in ("es", "en"):
        monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", lang)
        assert LearnController().lesson.title == lessons_in(lang)[0].title
        assert build_learn(2, 3).controller.lesson.title == lessons_in(lang)[1].title
        assert ExampleController().example.title == examples_in(lang)[0][0].title
