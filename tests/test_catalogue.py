"""The text catalogue: one API over every text, every key the code names exists, and a second
language is a folder of data files."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from leopard_tutor.engine import catalogue
from leopard_tutor.engine.catalogue import TEXTS_ROOT, book, languages, or_list, text, texts

PACKAGE = Path(catalogue.__file__).resolve().parent.parent


def _key_prefixes(node: ast.expr) -> list[tuple[str, bool]]:
    """The keys (whole, True) or key prefixes (False) a `text(...)` key argument can take."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [(node.value, True)]
    if isinstance(node, ast.IfExp):
        return _key_prefixes(node.body) + _key_prefixes(node.orelse)
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return [(str(node.values[0].value), False)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [(key, False) for key, _ in _key_prefixes(node.left)]
    return []


def _keys_in_code() -> list[tuple[str, str, bool]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("text", "texts")
                    and node.args):
                group = node.func.id == "texts"  # a group's name: its texts start with it
                found += [(f"{path.name}:{node.lineno}", key + "." if group else key, whole and not group)
                          for key, whole in _key_prefixes(node.args[0])]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):  # a keyed error, a refusing verdict
                named = [keyword.value for keyword in node.keywords
                         if keyword.arg == "key" and node.func.id.endswith(("Error", "IllegalMove"))]
                if node.func.id == "refused" and len(node.args) >= 2:
                    named.append(node.args[1])
                found += [(f"{path.name}:{node.lineno}", key, whole) for value in named
                          for key, whole in _key_prefixes(value)]
    return found


def _all_keys() -> set[str]:
    found = set()

    def walk(node: object, key: str) -> None:
        if isinstance(node, dict) and "plural" not in node and "person" not in node:
            for name, child in node.items():
                walk(child, f"{key}.{name}")
        else:
            found.add(key)

    for path in (TEXTS_ROOT / "en").glob("*.json"):
        walk(json.loads(path.read_text(encoding="utf-8")), path.stem)
    return found


def test_every_key_the_code_names_is_in_the_catalogue() -> None:
    keys, known = _keys_in_code(), _all_keys()
    assert len(keys) > 200, "the scan finds the texts the code asks for"
    missing = [f"{where}: {key!r}" for where, key, whole in keys
               if not (key in known if whole else any(name.startswith(key) for name in known))]
    assert not missing, "texts the code asks for that the catalogue lacks:\n" + "\n".join(missing)


def test_every_book_is_valid_json_of_templates() -> None:
    books = sorted((TEXTS_ROOT / "en").glob("*.json"))
    assert {path.stem for path in books} >= {"engine", "narration", "hints", "lessons", "play", "board", "app"}

    def walk(node: object, where: str) -> None:
        if isinstance(node, list):  # language.sounds holds the only lists: beginnings of words, not sentences
            assert where.startswith("language.sounds.") and all(isinstance(each, str) for each in node), where
        else:
            assert isinstance(node, (str, dict)), where
        if isinstance(node, dict):
            if "plural" in node:
                assert {"plural", "one", "other"} <= set(node) <= {"plural", "zero", "one", "other"}, where
            if "person" in node:  # the forms of a person: who did it is the reader ("you") or somebody else ("other")
                assert set(node) == {"person", "you", "other"}, where
                assert all(isinstance(each, str) for each in node.values()), where
            for name, child in node.items():
                walk(child, f"{where}.{name}")

    for path in books:
        walk(json.loads(path.read_text(encoding="utf-8")), path.stem)


def test_text_fills_facts_and_picks_plural_forms() -> None:
    assert text("engine.place.own", space=4) == "space 4 of your square"
    assert text("engine.legal.numbered.empty") == "that space is empty"  # a flat key holding dots
    assert text("lessons.feedback.stars", stars=1) == "Stage complete: 1 star."
    assert text("lessons.feedback.stars", stars=3) == "Stage complete: 3 stars."
    assert or_list(["a"]) == "a" and or_list(["a", "b", "c"]) == "a, b or c"
    assert texts("board.page") == {"lost": text("board.page.lost"), "lost_unkept": text("board.page.lost_unkept"),
                                   "lost_unanswered": text("board.page.lost_unanswered"),
                                   "no_answer_yet": text("board.page.no_answer_yet"),
                                   "reload": text("board.page.reload"), "thinking": text("board.page.thinking"),
                                   "reloads_itself": text("board.page.reloads_itself"),
                                   "still_answering": text("board.page.still_answering")}
    assert text("play.people.pass", name="José, Jr.") == "Pass the device to José, Jr."  # (one full stop)
    assert text("play.people.pass", name="Ana") == "Pass the device to Ana."
    with pytest.raises(KeyError):
        text("engine.no_such_text")
    with pytest.raises(KeyError):
        text("lessons.feedback")  # a group, not a text


def test_a_second_language_is_a_data_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "texts"
    shutil.copytree(TEXTS_ROOT, root)
    (root / "xx").mkdir()
    (root / "xx" / "engine.json").write_text(json.dumps({"place.own": "case {space} de ton carré"}), encoding="utf-8")
    monkeypatch.setattr(catalogue, "TEXTS_ROOT", root)
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "xx")
    catalogue.book.cache_clear()
    catalogue._entry.cache_clear()
    try:
        assert text("engine.place.own", space=4) == "case 4 de ton carré"
        assert text("engine.place.other", space=4) == "space 4 of your opponent's square"  # English where missing
        monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "../en")
        assert text("engine.place.own", space=4) == "space 4 of your square"  # no escape from the texts folder
    finally:
        catalogue.book.cache_clear()
        catalogue._entry.cache_clear()


# Files whose strings a learner reads (messages, labels, buttons, panels, the page itself). Strings
# raised as exceptions for a programmer or a hostile page (BadIntent, LeopardError and the like) and
# names of data-format entries are not learner-facing; everything else in words must come from the
# catalogue.
NOT_LEARNER_FACING = {
    "cli.py": "the command line's output, for whoever runs the server",
    "client/kernel_request.py": "a kernel's requests to its server: their errors go to the log",
    "server/class_store.py": "the class's records in SQLite: SQL statements and column names",
    "server/patches.py": "why each patch of Voila is made and the warning about untested versions, for the programmer "
                         "and the operator",
    "engine/hand.py": "errors about a hand built wrongly or a saved hand, for the programmer (a saved game the "
                      "learner pastes is refused with play.saved_game.*)",
    "engine/moves.py": "move notation ('go out', 'end turn'), which round-trips and is no sentence",
    "engine/reachable.py": "why a prepared position is impossible, for the author of a lesson",
    "engine/rules.py": "the rule sets' titles kept in saved games; a learner reads rules.<key> (str(rules))",
    "lessons/model.py": "lesson-file vocabulary and format errors, for a lesson's author",
    "lessons/advice.py": "lesson-file vocabulary ('face up', 'face down'), for a lesson's author",
    "examples/model.py": "worked-example file vocabulary, for its author",
    "server/log_mask.py": "the beginnings of warnings the server's log leaves out, for the operator",
}
"""What the scan leaves out, and why: the words there are read by a programmer, an operator or an author."""
LEARNER_FACING = [path for path in sorted(PACKAGE.rglob("*.py"))
                  if not path.relative_to(PACKAGE).as_posix().startswith(tuple(NOT_LEARNER_FACING))]
WORDS = re.compile(r"[A-Za-z]{2,}[,:]? [a-z]{2,}")
CSS_VALUES = {"row wrap"}


def _in_words(value: str) -> bool:
    """Whether a string literal holds words a person reads (not markup, class names, keys or CSS)."""
    bare = re.sub(r"\$\{[^}]*\}", " ", re.sub(r"<[^>]*(>|$)", " ", value))
    tokens = bare.split()
    if value in CSS_VALUES or value in _key_names() or all(token.startswith("lt-") for token in tokens):
        return False
    if re.fullmatch(r"[a-z_]+(\.[\w ]+)+\.?", value):  # a catalogue key such as "lessons.practice.best play"
        return False
    return bool(WORDS.search(bare))


def _key_names() -> set[str]:
    """Every segment of every catalogue key: identifiers such as the concept 'best play'."""
    return {segment for key in _all_keys() for segment in key.split(".")}
LEARNER_ERRORS = {"ProgressCodeError"}  # raised with a message the learner reads
REFUSAL_KINDS = {"refuse": 2, "json_object": 1}
"""Calls whose argument at that place names a refused request (`guards.refuse`'s `kind`): the log line's
words and the plain-text answer to the script that sent it; a refusal a person opens in a tab comes with a
`page` in the catalogue's words (the full class, too many pages, the class page without its token)."""
OPERATOR_FUNCTIONS = {
    ("launch.py", "session_caps"): "the limits' names, in the line the server prints at start for the operator",
    ("launch.py", "limits_line"): "the line about its limits the server prints at start, for the operator",
    ("launch.py", "app_notebook"): "the app notebook's Python source",
    ("guards.py", "not_a_visit"): "why a request that is no visit (an image, a script, a fetch) is refused: a "
                                  "refusal's kind, for the log",
    ("referee.py", "sweep"): "how a table nobody joined ended, as the class's records keep it",
}
"""Functions of the server whose words are for the operator, the log or the records, and why."""
SERVER_PRINTS = "server/"
"""Where `print` writes to the terminal of the teacher running the server: the operator's output (what the
teacher reads there, the class page's link and the banner for students, comes from the catalogue)."""


def _english_outside_catalogue(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    in_server = SERVER_PRINTS in path.as_posix()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and (path.name, node.name) in OPERATOR_FUNCTIONS:
            skipped.update(id(inner) for inner in ast.walk(node))
        name = getattr(node.func, "id", getattr(node.func, "attr", "")) if isinstance(node, ast.Call) else ""
        if isinstance(node, ast.Call) and name in REFUSAL_KINDS and len(node.args) > REFUSAL_KINDS[name]:
            skipped.update(id(inner) for inner in ast.walk(node.args[REFUSAL_KINDS[name]]))
        if isinstance(node, ast.Call) and name == "print" and in_server:
            skipped.update(id(inner) for inner in ast.walk(node))
        if isinstance(node, ast.Subscript) and getattr(node.value, "attr", "") == "refusals":
            skipped.update(id(inner) for inner in ast.walk(node.slice))  # a refusal's kind, counted for the log
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):  # docstrings
            skipped.add(id(body[0].value))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):  # attribute docstrings
            skipped.add(id(node.value))
        raised = node.exc if isinstance(node, ast.Raise) else None
        if isinstance(raised, ast.Call) and getattr(raised.func, "id", "") not in LEARNER_ERRORS:
            skipped.update(id(inner) for inner in ast.walk(raised))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("exception", "warning", "info"):
            skipped.update(id(inner) for inner in ast.walk(node))  # log lines, for the operator
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Placement" and node.args:
            skipped.add(id(node.args[0]))  # a placement-table row's name, for the programmer
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or id(node) in skipped:
            continue
        if node.value.lstrip().lower().startswith("<!doctype"):  # a page the server sends: its words and script
            found += [f"{path.name}:{node.lineno}: {words!r}" for words in _english_in_html(node.value)]
        elif _in_words(node.value):
            found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    return found


JS_TOKENS = re.compile(r"//[^\n]*|/\*.*?\*/"
                       r"|\"((?:\\.|[^\"\\\n])*)\"|'((?:\\.|[^'\\\n])*)'|`((?:\\.|[^`\\])*)`", re.DOTALL)
"""A script's comments (passed over) and string literals: double-quoted, single-quoted, template."""
SCRIPT_VALUES = {
    "use strict": "a script's directive",
    "(prefers-color-scheme: dark)": "a CSS media query (the Voila template's dark theme)",
    "not all": "a CSS media query that matches nothing",
    "(orientation: landscape) and (max-height: 500px)": "a CSS media query (board.js: a phone held sideways)",
    ".lt-actions button, .lt-side-actions button, .lt-answer input, .lt-answer button": "a CSS selector (board.js)",
    ".lt-grid button": "a CSS selector (board.js)",
}
"""Script literals in words that no person reads, and what they are."""
HTML_NAMES = {"Leopard Tutor": "the app's name, the same in every language (app.title)"}
"""Words a page may carry as they are, and why."""


def _english_in_js(script: str) -> list[str]:
    """The string literals of `script` in words a person reads (not class names, selectors, keys or CSS)."""
    found = []
    for match in JS_TOKENS.finditer(script):
        literal = next((group for group in match.groups() if group is not None), None)
        if literal is not None and literal not in SCRIPT_VALUES and _in_words(literal):
            found.append(literal)
    return found


def _english_in_html(page: str) -> list[str]:
    """The words of an HTML page or Jinja template a person reads: its text between tags, the attributes a
    browser shows or reads out (title, aria-label, alt, placeholder), and its scripts' string literals.
    Jinja's `{{ }}`, `{% %}`, `format`'s `{name}` and markers such as `__TITLE__` are filled in by code."""
    page = re.sub(r"<!--.*?-->|\{#.*?#\}", " ", page, flags=re.DOTALL)
    found = []
    for attributes, body in re.findall(r"<script\b([^>]*)>(.*?)</script>", page, flags=re.DOTALL | re.IGNORECASE):
        if "application/json" not in attributes:
            found += _english_in_js(body)
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.DOTALL | re.IGNORECASE)
    page = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{\w*\}|__[A-Z]+__", " ", page, flags=re.DOTALL)
    shown = re.findall(r"\b(?:title|aria-label|alt|placeholder)\s*=\s*\"([^\"]*)\"", page, flags=re.IGNORECASE)
    shown += re.findall(r">([^<]+)<", page)
    return found + [words.strip() for words in shown
                    if re.search(r"[A-Za-z]{2,}", words) and words.strip() not in HTML_NAMES]


def test_no_learner_facing_english_outside_the_catalogue() -> None:
    assert len(LEARNER_FACING) > 60 and PACKAGE / "engine" / "cards.py" in LEARNER_FACING
    found = [line for path in LEARNER_FACING for line in _english_outside_catalogue(path)]
    assert not found, "words a learner reads, written in code instead of the catalogue:\n" + "\n".join(found)


SCRIPTS = sorted((PACKAGE / "widgets" / "static").glob("*.js")) + sorted((PACKAGE / "server" / "static").glob("*.js"))
"""The pages' own scripts: the widgets' front ends (their words come from the model, as board.js's `texts`)
and the class page's (its words come from the JSON of texts the server puts in the page)."""
PAGES = sorted((PACKAGE / "share").rglob("*.j2")) + sorted((PACKAGE / "server" / "static").glob("*.html"))
"""The pages' own markup: the Voila template and the class page."""


def test_the_pages_scripts_take_their_words_from_the_state() -> None:
    assert {path.name for path in SCRIPTS} >= {"board.js", "language.js", "rules_sheet.js", "teacher.js"}
    found = [f"{path.relative_to(PACKAGE)}: {words!r}" for path in SCRIPTS
             for words in _english_in_js(path.read_text(encoding="utf-8"))]
    assert not found, "English written in a page's script instead of coming from the state or its texts:\n" + \
        "\n".join(found)


def _english_in_css(sheet: str) -> list[str]:
    """The words a style sheet draws itself (`content: "..."`): a page's words come from its texts, the
    sheet draws only signs (arrows, a dot) or an attribute the page fills in (`attr(data-thinking)`)."""
    sheet = re.sub(r"/\*.*?\*/", " ", sheet, flags=re.DOTALL)
    drawn = re.findall(r"\bcontent\s*:\s*([^;}]*)", sheet)
    signs = [(value.strip(), re.sub(r"attr\([\w-]*\)|\\[0-9A-Fa-f]+", "", value)) for value in drawn]
    return [value for value, bare in signs if re.search(r"[A-Za-z]{2,}", bare) and re.search(r"[\"']", bare)]


def test_the_style_sheets_draw_no_words() -> None:
    sheets = [path for folder in ("widgets", "server") for path in sorted((PACKAGE / folder / "static").glob("*.css"))]
    assert {path.name for path in sheets} >= {"board.css", "teacher.css"}
    found = [f"{path.name}: {value}" for path in sheets for value in _english_in_css(path.read_text(encoding="utf-8"))]
    assert not found, "words a style sheet draws instead of the catalogue:\n" + "\n".join(found)
    assert _english_in_css('.a::after { content: " · " attr(data-x); } .b::before { content: "Loading"; }') == [
        '"Loading"']


def test_the_pages_markup_takes_its_words_from_the_catalogue() -> None:
    assert {path.name for path in PAGES} >= {"index.html.j2", "teacher.html"}
    found = [f"{path.relative_to(PACKAGE)}: {words!r}" for path in PAGES
             for words in _english_in_html(path.read_text(encoding="utf-8"))]
    assert not found, "English written in a page's markup instead of the catalogue:\n" + "\n".join(found)


def test_the_loading_line_holds_the_catalogues_words_in_every_language() -> None:
    """The page's title and loading line while the app loads (the app's template, on the server and the static site)
    say the catalogue's "app.title" and "app.loading" in each language, from loading.json beside the template, which
    this test writes again when LEOPARD_UPDATE_TRANSCRIPTS=1."""
    path = PACKAGE / "share" / "voila" / "templates" / "leopard" / "loading.json"
    words = {code: {key: book("app", code)[key] for key in ("title", "loading")} for code in languages()}
    if os.environ.get("LEOPARD_UPDATE_TRANSCRIPTS") == "1":
        path.write_text(json.dumps(words, ensure_ascii=False) + "\n", encoding="utf-8")
    assert json.loads(path.read_text(encoding="utf-8")) == words
    assert "{% include 'loading.json' %}" in (path.parent / "index.html.j2").read_text(encoding="utf-8")


def test_the_scan_catches_english(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('def f():\n    """A docstring is fine."""\n    raise ValueError("so is a programmer\'s error")\n'
                      'say("But this sentence is not")\n', encoding="utf-8")
    assert [line.split(": ", 1)[1] for line in _english_outside_catalogue(sample)] == ["'But this sentence is not'"]


def test_the_scan_of_scripts_and_pages_catches_english(tmp_path: Path) -> None:
    script = tmp_path / "sample.js"
    script.write_text('// A comment is fine.\n'
                      'const box = h("div", { class: "lt-box lt-wide", "aria-label": words.box });\n'
                      'box.title = texts.hint || "Press here to go on";\nsay(`The lesson is ${done} over`);\n',
                      encoding="utf-8")
    assert _english_in_js(script.read_text(encoding="utf-8")) == ["Press here to go on", "The lesson is ${done} over"]
    page = tmp_path / "sample.html"
    page.write_text('<!doctype html><html lang="{{ lang }}"><head><title>__TITLE__</title></head>\n'
                    '<!-- a comment is fine --><body><h1>{{ heading }}</h1><p>Leopard Tutor</p>\n'
                    '<button aria-label="Close the panel"></button><p>Your class is waiting</p>\n'
                    '<script>document.title = "Loading the app";</script></body></html>\n', encoding="utf-8")
    assert _english_in_html(page.read_text(encoding="utf-8")) == ["Loading the app", "Close the panel",
                                                                  "Your class is waiting"]
    planted = tmp_path / "pages.py"
    planted.write_text('PAGE = """<!doctype html><title>{text}</title><p>The class is full</p>"""\n', encoding="utf-8")
    assert [line.split(": ", 1)[1] for line in _english_outside_catalogue(planted)] == ["'The class is full'"]


COUNTED = re.compile(r"\{(\w+)\} (?:(?!an? |the )\w+ )?(?:points?|cards?|jacks?|lines?|stars?|moves?|turns?|"
                     r"hands?|stages?|lessons?|mistakes?|seconds?|minutes?|sessions?|students?|kernels?|questions?|games?|"
                     r"matches?|deals?|inaccurac(?:y|ies)|blunders?)\b")
"""A fact put before a word that takes a plural: the template must come in plural forms chosen by it."""


def _templates() -> list[tuple[str, object]]:
    """Every text of the English books by key: a template, or the plural forms of one."""
    found: list[tuple[str, object]] = []

    def walk(node: object, key: str) -> None:
        if isinstance(node, dict) and "plural" not in node and "person" not in node:
            for name, child in node.items():
                walk(child, f"{key}.{name}")
        elif not isinstance(node, list):  # language.sounds' lists of beginnings are not texts
            found.append((key, node))

    for path in sorted((TEXTS_ROOT / "en").glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")), path.stem)
    return found


def test_every_entry_renders_with_counts_of_0_1_and_2() -> None:
    rendered = 0
    for key, node in _templates():
        forms = [node] if isinstance(node, str) else [v for k, v in node.items() if k not in ("plural", "person")]  # type: ignore[union-attr]
        names = {name for form in forms for name in re.findall(r"\{(\w+)\}", str(form))}
        if isinstance(node, dict):
            names.add(node.get("plural") or node["person"])
        for count in (0, 1, 2):
            words = text(key, **{name: count for name in names})
            assert "{" not in words and "}" not in words, (key, words)
            rendered += 1
    assert rendered > 3 * 500


def test_a_count_before_a_noun_comes_in_plural_forms() -> None:
    wrong = [f"{key}: {node!r}" for key, node in _templates()
             if isinstance(node, str) and COUNTED.search(node) and not key.endswith(".about")]
    assert not wrong, "texts that say '1 points' or '2 point' for some count:\n" + "\n".join(wrong)
