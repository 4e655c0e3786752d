"""The catalogue's words in a given language, read in a context of their own (`catalogue.answer_in`): a test
compares a page's words with these without changing the language of anything else it runs."""

from __future__ import annotations

import contextvars

from leopard_tutor.engine import catalogue


def in_language(lang: str, key: str, /, **facts: object) -> str:
    """The text at `key` with `facts`, in language `lang`."""

    def read() -> str:
        catalogue.answer_in(lang)
        return catalogue.text(key, **facts)

    return contextvars.copy_context().run(read)


def in_spanish(key: str, /, **facts: object) -> str:
    """The text at `key` with `facts`, in Spanish."""
    return in_language("es", key, **facts)


def group_in(lang: str, key: str, /, **facts: object) -> dict[str, str]:
    """Every text of the group at `key`, by name, in language `lang`."""

    def read() -> dict[str, str]:
        catalogue.answer_in(lang)
        return catalogue.texts(key, **facts)

    return contextvars.copy_context().run(read)
