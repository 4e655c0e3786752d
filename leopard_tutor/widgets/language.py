"""The page's language: the learner's choice kept in the browser, the browser's own languages, and the
page's `<html lang>` and `<title>`.

    page = PageLanguage()            # must be displayed (the page does the reading and writing)
    page.on_restore(callback)        # callback(kept) once the page has said what it keeps and
                                     # `page.browser`, its languages (navigator.languages, best first)
    page.save("es")                  # the learner chose Spanish: kept in the browser from now on (its storage,
                                     # and the cookie `protocol.LANGUAGE_COOKIE` for the class server's own pages)
    page.lang = "es"                 # the page's <html lang>
                                     # (and each option of the app's language picker says its own language)
    page.title = "Leopard Tutor"     # the page's <title> (the app's name in its language)

Everything the page sends is bounded and read like any other input (`catalogue.language_code` checks
every language before it is used).
"""

from __future__ import annotations

from typing import Any

import traitlets

from ..engine.catalogue import languages
from ..protocol import LANGUAGE_COOKIE
from .storage import BrowserStorage, kept_script

MAX_BROWSER_LANGUAGES = 8
"""Of the browser's languages, the first these many are read."""


class PageLanguage(BrowserStorage):
    """The learner's language kept in the browser, the browser's languages, and `<html lang>` (see above)."""

    _esm = kept_script("language.js")
    lang = traitlets.Unicode("").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    """The page's <title> where the page is the app's ("": the page's own, which names the notebook)."""
    cookie = traitlets.Unicode(LANGUAGE_COOKIE).tag(sync=True)
    names = traitlets.Dict().tag(sync=True)
    """Each language's name in its own words by code: the app's picker lists them, and the page marks each of its
    options with its language (a screen reader then says "Español" in Spanish)."""

    def __init__(self, lang: str = "", **kwargs: Any) -> None:
        super().__init__("language", lang=lang, names=languages(), **kwargs)
        self.browser: tuple[str, ...] = ()

    def _on_page_msg(self, widget: object, content: object, buffers: object) -> None:
        if isinstance(content, dict) and content.get("type") == "restore":
            said = content.get("browser")
            if isinstance(said, list):
                self.browser = tuple(each for each in said[:MAX_BROWSER_LANGUAGES]
                                     if isinstance(each, str) and len(each) <= 40)
        super()._on_page_msg(widget, content, buffers)
