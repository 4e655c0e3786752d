"""The printable rules summary says what the engine does: its numbers are the rule sets', its placement
rules the engine's own (printing it on one A4 page: tests/browser/test_recovery.py)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from leopard_tutor.app import build_app
from leopard_tutor.engine import PLACEMENT, RULE_SETS, Square, hand_score, square_value
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


def test_the_table_of_rule_sets_holds_the_engines_numbers() -> None:
    rows = {row[0]: row[1:] for row in read(rules_sheet_html()).rows if len(row) == 1 + len(RULE_SETS)}
    sets = list(RULE_SETS.values())
    assert rows["Setting"] == [f"{r.title}" for r in sets]
    assert rows["Line of one suit"] == [str(r.suit_points) for r in sets]
    assert rows["Line of one colour"] == [str(r.color_points) for r in sets]
    assert rows["Go out at"] == [str(r.out_threshold) for r in sets]
    assert rows["Points doubled above"] == [str(r.bonus_threshold) for r in sets]
    assert rows["Going out costs"] == [str(r.out_penalty) for r in sets]
    assert rows["Cards drawn a turn"] == [str(r.draws_per_turn) for r in sets]
    assert rows["Spaces numbered"] == [f"{r.grid[0][0]} {r.grid[0][1]} {r.grid[0][2]} on top" + (
        " (keypad)" if r.keypad_layout else "") for r in sets]
    assert rows["Each turn"] == ["plays, or one discard" if r.multiple_plays else "one play or one discard"
                                 for r in sets]


def test_its_sentences_are_true_of_the_default_rules() -> None:
    sheet = rules_sheet_html()
    rules = RULE_SETS["REVISED_2008"]
    places = [item for item in read(sheet).items if "face" in item and "goes" in item]
    assert places == [str(PLACEMENT[r])[:1].upper() + str(PLACEMENT[r])[1:] + "." for r in (1, 10, 11, 12, 13)]
    three = re.search(r"(\d+) points if they are all of one suit, (\d+) point if they are all of one colour", sheet)
    assert three
    suit_line = Square.parse("AH 2H 3H . . . . . .")
    colour_line = Square.parse("AH 2D 3H . . . . . .")
    assert (int(three.group(1)), int(three.group(2))) == (square_value(suit_line, rules),
                                                          square_value(colour_line, rules))
    worked = re.search(r"a square worth (\d+) scores (\d+)\)", sheet)
    assert worked and hand_score(int(worked.group(1)), False, rules) == int(worked.group(2))
    assert f"worth {rules.out_threshold} or more" in sheet and "104 cards" in sheet and "gets 8 cards" in sheet


def test_the_app_links_to_it_and_it_names_every_rule_set() -> None:
    tutor = build_app()
    assert isinstance(tutor.rules_link, RulesSheetLink)
    assert tutor.rules_link.label == "Rules on one page (to print)"
    assert tutor.rules_link.sheet.startswith("<!doctype html>") and "@page { size: A4" in tutor.rules_link.sheet
    for rules in RULE_SETS.values():
        assert rules.title in tutor.rules_link.sheet
