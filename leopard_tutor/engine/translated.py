"""The words of a data file in another language, laid over the English file by the same paths.

Lessons and worked examples keep their words in their own data files, beside the positions, moves and
checks those words are about. The structure stays in the English file alone; a language adds a file of the
same name in a folder named by its code (`stages/es/01_the_square.json`, `data/es/examples.json`) that
holds only the texts, at the same paths: the same entry names, and lists of the same length in the same
order (`{"intro": ["...", "..."], "advice": [{"text": "..."}]}`). `overlay` puts them over the English
when the file is read; an entry the translation lacks stays English, and a translation that names a path
the English lacks, or puts words where the English has no text, is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .catalogue import DEFAULT_LANGUAGE


class TranslationError(ValueError):
    """A translation that does not follow the English file's shape; the message gives the path."""


def translation_path(english: Path, lang: str) -> Path | None:
    """The file holding `lang`'s words for the English data file `english`, or None for English itself."""
    return None if lang == DEFAULT_LANGUAGE else english.parent / lang / english.name


def read_words(english: Path, lang: str) -> Any:
    """The translated words for `english` in `lang` (None if English is asked for or no file exists)."""
    path = translation_path(english, lang)
    if path is None or not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def overlay(english: Any, words: Any, text_keys: frozenset[str], path: str = "") -> Any:
    """`english` with every text that `words` gives put in its place. A text is a string (or a list of
    strings) under an entry named in `text_keys`; everything else (positions, moves, keys, numbers) is
    the English file's alone. TranslationError, naming the path, for a translation of another shape."""
    if words is None:
        return english
    if isinstance(english, dict) and isinstance(words, dict):
        unknown = sorted(set(words) - set(english))
        if unknown:
            raise TranslationError(f"{path or 'the file'}: entries the English lacks: {unknown}")
        merged = dict(english)
        for name, value in words.items():
            inner = f"{path}.{name}" if path else name
            if isinstance(english[name], str) or _strings(english[name]):
                if name not in text_keys:
                    raise TranslationError(f"{inner}: not a text (only {sorted(text_keys)} are translated)")
                merged[name] = _text_or_texts(english[name], value, inner)
            else:
                merged[name] = overlay(english[name], value, text_keys, inner)
        return merged
    if isinstance(english, list) and isinstance(words, list):
        if len(words) != len(english):
            raise TranslationError(f"{path}: {len(words)} entries where the English has {len(english)}")
        return [overlay(item, value, text_keys, f"{path}[{index}]")
                for index, (item, value) in enumerate(zip(english, words, strict=True))]
    raise TranslationError(f"{path}: the English holds {type(english).__name__} here, not {type(words).__name__}")


def _strings(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, str) for item in value)


def _text_or_texts(english: Any, value: Any, path: str) -> Any:
    if isinstance(english, str):
        if not isinstance(value, str):
            raise TranslationError(f"{path}: a text, not {type(value).__name__}")
        return value
    if not (isinstance(value, list) and all(isinstance(item, str) for item in value)):
        raise TranslationError(f"{path}: a list of texts")
    if len(value) != len(english):
        raise TranslationError(f"{path}: {len(value)} texts where the English has {len(english)}")
    return value


def texts(data: Any, text_keys: frozenset[str], path: str = "") -> Iterator[tuple[str, str]]:
    """Every text of a data file by its path (`intro[1]`, `advice[0].text`): what a translation gives."""
    if isinstance(data, dict):
        for name, value in data.items():
            inner = f"{path}.{name}" if path else name
            if name in text_keys and isinstance(value, str):
                yield inner, value
            elif name in text_keys and _strings(value):
                yield from ((f"{inner}[{index}]", item) for index, item in enumerate(value))
            else:
                yield from texts(value, text_keys, inner)
    elif isinstance(data, list):
        for index, item in enumerate(data):
            yield from texts(item, text_keys, f"{path}[{index}]")
