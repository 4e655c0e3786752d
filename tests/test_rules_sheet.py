"""The printable rules summary says what the engine does, one sheet per rule set: its numbers are the rule
set's, its placement rules, bonus table and possible values the engine's own, and the app opens the sheet
of the rules in view (printing each on one A4 page: tests/browser/test_recovery.py)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from leopard_tutor.app import build_app
from leopard_tutor.engine import (
    ORIGINAL_1963,
    PLACEMENT,
    REVISED_2008,
    RULE_SETS,
    RUNNING_LEOPARD,
    Card,
    Square,
    bonus_table,
    check_play,
    hand_score,
    square_value,
)
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


def paragraphs(sheet: str) -> list[str]:
    """The texts of the sheet's paragraphs, tags and all."""
    return re.findall(r"<p>(.*?)</p>", sheet)


def test_each_rule_set_has_its_own_sheet() -> None:
    for rules in RULE_SETS.values():
        sheet = rules_sheet_html(rules)
        assert f"Rule set on this page: {rules.title}" in sheet
        figures = [row for row in read(sheet).rows if len(row) == 3 and all(cell.isdigit() for cell in row)]
        assert figures == [[str(n) for n in row] for row in rules.grid], "the figure numbers the spaces as these rules"
        assert f"{rules.suit_points} points if they are all of one suit" in sheet
        assert f"worth {rules.out_threshold} or more" in sheet and f"every point above {rules.bonus_threshold}" in sheet
        draw = "Take the top card of the stock" if rules.draws_per_turn == 1 else "Take the top 2 cards of the stock"
        assert draw in sheet
        several = rules.multiple_plays
        assert ("one or more cards" in sheet) == ("a pile you built earlier in the turn" in sheet) == several
    running = rules_sheet_html(RUNNING_LEOPARD)
    for fact in ("There is no hand limit", "If your hand runs empty, you draw again next turn",
                 "with an empty hand and an empty stock you pass, after going out if you may"):
        assert fact in running and fact not in rules_sheet_html(REVISED_2008)
    assert rules_sheet_html() == rules_sheet_html(REVISED_2008)


def test_what_it_says_of_face_down_cards_is_true_of_placing_too() -> None:
    """Report 10: a face-down card is not an empty space for a jack or a queen, which need a card under them."""
    face_down = Square.parse(". . . . 5H+QS* . . . .")
    empty = Square()
    for rank in (5, 10, 13):  # an ace to a ten (and a king) go on it as on an empty space
        assert check_play(Card(rank, "D"), face_down, 5, own=True).legal == check_play(Card(rank, "D"), empty, 5,
                                                                                       own=True).legal
    for rank in (11, 12):  # a jack or a queen goes on it, never on an empty space
        assert check_play(Card(rank, "D"), face_down, 5, own=True).legal
        assert not check_play(Card(rank, "D"), empty, 5, own=True).legal
    [said] = [p for p in paragraphs(rules_sheet_html()) if p.startswith("A face-down jack or queen")]
    assert "for everything" not in said and "placing" not in said
    assert "a card from ace to ten may go on it as on an empty space" in said
    assert "Unlike an empty space, it can also take a jack or a queen." in said


def test_it_shows_the_engines_bonus_table_and_the_values_no_square_has() -> None:
    revised = "No square is worth more than 24, and none is ever worth 17, 19, 21, 22 or 23."
    for rules, never in ((REVISED_2008, revised), (RUNNING_LEOPARD, revised),
                         (ORIGINAL_1963, "No square is worth more than 16, and none is ever worth 15.")):
        sheet = rules_sheet_html(rules)
        rows = {row[0]: row[1:] for row in read(sheet).rows if row and row[0] in ("Square worth", "Scores",
                                                                                "If you went out")}
        table = bonus_table(rules)
        assert rows["Square worth"] == [str(row.raw) for row in table]
        assert rows["Scores"] == [str(hand_score(row.raw, False, rules)) for row in table]
        assert rows["If you went out"] == [str(hand_score(row.raw, True, rules)) if row.raw >= rules.out_threshold
                                           else "–" for row in table]
        assert never in paragraphs(sheet)


def test_the_link_opens_the_sheet_of_the_rules_in_view() -> None:
    tutor = build_app()
    play = tutor.built[0]
    assert tutor.rules_link.sheet == rules_sheet_html(play.controller.rules)
    for rules in (ORIGINAL_1963, RUNNING_LEOPARD, REVISED_2008):
        play.rules_pick.value = rules.key
        assert play.controller.rules == rules
        assert tutor.rules_link.sheet == rules_sheet_html(rules)
        assert tutor.rules_link.hover == f"Opens the {rules.title} on one page"
    play.rules_pick.value = ORIGINAL_1963.key
    learn = [title for title, _ in tutor.sections].index("Learn")
    tutor.tabs.selected_index = learn  # the lesson's rules
    assert tutor.rules_link.sheet == rules_sheet_html(tutor.built[learn].controller.lesson.rules)
    tutor.tabs.selected_index = 0
    assert tutor.rules_link.sheet == rules_sheet_html(ORIGINAL_1963)
