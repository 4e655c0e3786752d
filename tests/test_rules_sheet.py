"""The printable rules summary says what the engine does, one sheet per rule set: its numbers are the rule
set's, its placement rules, bonus table and possible values the engine's own, and the app opens the sheet
of the rules in view (printing each on one A4 page: tests/browser/test_recovery.py)."""

from __future__ import annotations

import contextvars
import html
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from keyed import mark, markers, said
from test_lesson_advice import runs

from leopard_tutor.app import build_app
from leopard_tutor.engine import (
    ORIGINAL_1963,
    PLACEMENT,
    REVISED_2008,
    RULE_SETS,
    RUNNING_LEOPARD,
    Card,
    RuleSet,
    Square,
    bonus_table,
    check_play,
    hand_score,
    square_value,
)
from leopard_tutor.engine.catalogue import answer_in, or_list, text
from leopard_tutor.engine.rules import INFERRED
from leopard_tutor.widgets.rules_sheet import RulesSheetLink, rules_sheet_html


class Cells(HTMLParser):
    """The rows of every table in a document, as lists of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.items: list[str] = []
        self._cell: list[str] | None = None
        self._item: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "li":
            self._item = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "li" and self._item is not None:
            self.items.append("".join(self._item).strip())
            self._item = None

    def handle_data(self, data: str) -> None:
        for part in (self._cell, self._item):
            if part is not None:
                part.append(data)


def read(sheet: str) -> Cells:
    cells = Cells()
    cells.feed(sheet)
    return cells


def head(name: str) -> str:
    """A row of the table of rule sets, by its heading (under `keyed`)."""
    return mark(f"rules_sheet.variants_head.{name}")


def test_the_table_of_rule_sets_holds_the_engines_numbers(keyed: None) -> None:
    rows = {row[0]: row[1:] for row in read(rules_sheet_html()).rows if len(row) == 1 + len(RULE_SETS)}
    sets = list(RULE_SETS.values())
    assert rows[head("setting")] == [mark(f"rules.{r.key}") for r in sets]
    assert rows[head("suit")] == [str(r.suit_points) for r in sets]
    assert rows[head("color")] == [str(r.color_points) for r in sets]
    assert rows[head("out")] == [str(r.out_threshold) for r in sets]
    assert rows[head("bonus")] == [str(r.bonus_threshold) for r in sets]
    # the 1963 penalty is our inference (ruling B-5): marked, and the note under the table says on what it rests
    assert rows[head("penalty")] == [f"{r.out_penalty} *" if r.key in INFERRED else str(r.out_penalty) for r in sets]
    assert {"ORIGINAL_1963": frozenset({"out_penalty"})} == INFERRED
    assert f"<p class='inferred'>{mark('rules_sheet.inferred')}</p>" in rules_sheet_html()
    assert rows[head("draws")] == [str(r.draws_per_turn) for r in sets]
    assert rows[head("numbering")] == [mark("rules_sheet.numbering.keypad") if r.keypad_layout
                                       else mark("rules_sheet.numbering.reading") for r in sets]
    for r in sets:  # what each numbering says of the top row is the rule set's grid
        assert r.grid[0] == ((7, 8, 9) if r.keypad_layout else (1, 2, 3))
    assert rows[head("plays")] == [mark("rules_sheet.plays.several") if r.multiple_plays
                                   else mark("rules_sheet.plays.single") for r in sets]


def test_its_placement_rules_are_the_engines() -> None:
    sheet = rules_sheet_html()
    places = re.search(f"<h2>{re.escape(html.escape(text('rules_sheet.headings.places')))}</h2><ul>(.*?)</ul>", sheet)
    assert places
    assert re.findall("<li>(.*?)</li>", places.group(1)) == [
        html.escape(str(PLACEMENT[r])[:1].upper() + str(PLACEMENT[r])[1:]) + "." for r in (1, 10, 11, 12, 13)]


def test_its_sentences_are_true_of_the_default_rules(keyed: None) -> None:
    sheet = rules_sheet_html()
    rules = RULE_SETS["REVISED_2008"]
    suit_line = Square.parse("AH 2H 3H . . . . . .")
    colour_line = Square.parse("AH 2D 3H . . . . . .")
    assert said(sheet, "rules_sheet.lines", suit=mark("rules_sheet.points", points=square_value(suit_line, rules)),
                color=mark("rules_sheet.points", points=square_value(colour_line, rules)))
    [worked] = [facts for key, facts in markers(sheet) if key == "rules_sheet.score"]
    assert hand_score(int(worked["example"]), False, rules) == int(worked["example_score"])
    assert said(sheet, "rules_sheet.out.when", out=rules.out_threshold)
    assert said(sheet, "rules_sheet.cards.deck", cards=104) and said(sheet, "rules_sheet.cards.deal", dealt=8)


def test_the_app_links_to_it_and_it_names_every_rule_set(keyed: None) -> None:
    tutor = build_app()
    assert isinstance(tutor.rules_link, RulesSheetLink)
    assert tutor.rules_link.label == mark("rules_sheet.link")
    assert tutor.rules_link.sheet.startswith("<!doctype html>") and "@page { size: A4" in tutor.rules_link.sheet
    for rules in RULE_SETS.values():
        assert mark(f"rules.{rules.key}") in tutor.rules_link.sheet


def paragraphs(sheet: str) -> list[str]:
    """The texts of the sheet's paragraphs, tags and all."""
    return re.findall(r"<p>(.*?)</p>", sheet)


def test_each_rule_set_has_its_own_sheet(keyed: None) -> None:
    for rules in RULE_SETS.values():
        sheet = rules_sheet_html(rules)
        assert said(sheet, "rules_sheet.subtitle", rules=mark(f"rules.{rules.key}"))
        figures = [row for row in read(sheet).rows if len(row) == 3 and all(cell.isdigit() for cell in row)]
        assert figures == [[str(n) for n in row] for row in rules.grid], "the figure numbers the spaces as these rules"
        assert said(sheet, "rules_sheet.lines", suit=mark("rules_sheet.points", points=rules.suit_points),
                    color=mark("rules_sheet.points", points=rules.color_points))
        assert said(sheet, "rules_sheet.out.when", out=rules.out_threshold)
        assert said(sheet, "rules_sheet.score", bonus=rules.bonus_threshold, penalty=rules.out_penalty,
                    hands=rules.hands_per_match)
        assert said(sheet, "rules_sheet.turn.draw", count=rules.draws_per_turn)
        several = rules.multiple_plays
        assert said(sheet, "rules_sheet.action.several") == said(sheet, "rules_sheet.turn.several") == several
        assert said(sheet, "rules_sheet.action.single") != several
    assert said(rules_sheet_html(RUNNING_LEOPARD), "rules_sheet.turn.several")  # no hand limit, an empty hand
    assert not said(rules_sheet_html(REVISED_2008), "rules_sheet.turn.several")
    assert rules_sheet_html() == rules_sheet_html(REVISED_2008)


def test_the_face_down_sentence_says_what_placing_does() -> None:
    """Report 10: a face-down card is not an empty space for a jack or a queen, which need a card under them. The
    sheet's own words are the point here, so they are read in English: the jack's and queen's lines say that the space
    counts as empty and what may go on it; the paragraph after them adds only what a face-down card takes that an
    empty space does not (it said the lines' last clause a third time)."""
    face_down = Square.parse(". . . . 5H+QS* . . . .")
    empty = Square()
    for rank in (5, 10, 13):  # an ace to a ten (and a king) go on it as on an empty space
        assert check_play(Card(rank, "D"), face_down, 5, own=True).legal == check_play(Card(rank, "D"), empty, 5,
                                                                                       own=True).legal
    for rank in (11, 12):  # a jack or a queen goes on it, never on an empty space
        assert check_play(Card(rank, "D"), face_down, 5, own=True).legal
        assert not check_play(Card(rank, "D"), empty, 5, own=True).legal
    sheet = paragraphs(rules_sheet_html())
    [said_there] = [p for p in sheet if p == html.escape(text("rules_sheet.face_down"))]
    assert "for everything" not in said_there and "placing" not in said_there
    assert said_there.startswith("Unlike an empty space, a face-down jack or queen can itself take another jack")
    # what it counts as, and what may go on it, the jack's and the queen's lines say just above: not again here
    lines = [item for item in re.findall(r"<li>(.*?)</li>", rules_sheet_html())
             if item.startswith(("A jack goes", "A queen goes"))]
    assert len(lines) == 2 and all("a card from ace to ten may go on it as on an empty space" in p for p in lines)
    assert not any(runs(said_there) & runs(line) for line in lines)


def test_it_shows_the_engines_bonus_table_and_the_values_no_square_has(keyed: None) -> None:
    revised = mark("rules_sheet.bonus.never", most=24, never=or_list(["17", "19", "21", "22", "23"]))
    for rules, never in ((REVISED_2008, revised), (RUNNING_LEOPARD, revised),
                         (ORIGINAL_1963, mark("rules_sheet.bonus.never", most=16, never=or_list(["15"])))):
        sheet = rules_sheet_html(rules)
        worth, scores, went_out = (mark(f"rules_sheet.bonus.{name}") for name in ("raw", "score", "went_out"))
        rows = {row[0]: row[1:] for row in read(sheet).rows if row and row[0] in (worth, scores, went_out)}
        table = bonus_table(rules)
        assert rows[worth] == [str(row.raw) for row in table]
        assert rows[scores] == [str(hand_score(row.raw, False, rules)) for row in table]
        assert rows[went_out] == [str(hand_score(row.raw, True, rules)) if row.raw >= rules.out_threshold
                                  else mark("rules_sheet.bonus.not_out") for row in table]
        assert never in paragraphs(sheet)


def test_the_link_opens_the_sheet_of_the_rules_in_view(keyed: None) -> None:
    tutor = build_app()
    play = tutor.built[0]
    assert tutor.rules_link.sheet == rules_sheet_html(play.controller.rules)
    for rules in (ORIGINAL_1963, RUNNING_LEOPARD, REVISED_2008):
        play.rules_pick.value = rules.key
        assert play.controller.rules == rules
        assert tutor.rules_link.sheet == rules_sheet_html(rules)
        assert tutor.rules_link.hover == mark("rules_sheet.link_tooltip", rules=mark(f"rules.{rules.key}"))
    play.rules_pick.value = ORIGINAL_1963.key
    learn = [title for title, _ in tutor.sections].index("learn")
    tutor.tabs.selected_index = learn  # the lesson's rules
    assert tutor.rules_link.sheet == rules_sheet_html(tutor.built[learn].controller.lesson.rules)
    tutor.tabs.selected_index = 0
    assert tutor.rules_link.sheet == rules_sheet_html(ORIGINAL_1963)


def test_on_examples_the_link_opens_the_sheet_of_the_example_shown(keyed: None) -> None:
    """C8 is scored under the 1963 rules and its other version under 2008: the link follows the one on the board."""
    tutor = build_app()
    examples = [title for title, _ in tutor.sections].index("examples")
    tutor.tabs.selected_index = examples
    section = tutor.built[examples]
    assert tutor.rules_link.sheet == rules_sheet_html(section.controller.example.rules)
    section.picker.value = [example.key for example in section.controller.examples].index("C8")
    assert section.controller.example.rules == ORIGINAL_1963
    assert tutor.rules_link.sheet == rules_sheet_html(ORIGINAL_1963)
    section.board.dispatch({"type": "action", "id": "mirror"})
    assert section.controller.example.rules == REVISED_2008
    assert tutor.rules_link.sheet == rules_sheet_html(REVISED_2008)
    section.board.dispatch({"type": "action", "id": "mirror"})
    tutor.tabs.selected_index = 0  # Play's own rules again
    assert tutor.rules_link.sheet == rules_sheet_html(tutor.built[0].controller.rules)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_rules_sheet_prints_on_one_page_in_each_language(language: str, page: Any) -> None:
    """The sheet, printed on A4 or on Letter, is one page under every rule set (the Spanish one ran onto a second)."""
    def sheet_of(rules: RuleSet) -> str:
        answer_in(language)
        return rules_sheet_html(rules)

    for rules in RULE_SETS.values():
        sheet = contextvars.copy_context().run(sheet_of, rules)
        assert f"<html lang='{language}'>" in sheet
        page.set_content(sheet)
        for paper in ("A4", "Letter"):
            printed = page.pdf(format=paper)
            pages = len(re.findall(rb"/Type\s*/Page[^s]", printed))
            assert pages == 1, f"{rules.key} in {language} prints on {pages} {paper} pages"
