"""The rules on one printable page, one sheet per rule set: `rules_sheet_html(rules)` is a whole HTML
document (print CSS, one A4 page), every sentence from the catalogue (texts/en/rules_sheet.json) and
every number and placement rule from the engine (the rule set, the placement table, the bonus table and
the values a square can have). `RulesSheetLink` is a link in the app that opens the sheet of the rules
in play in a new tab, from a blob URL made in the page: no server route, so it works the same in Voilà
and in a static site, and without a connection.
"""

from __future__ import annotations

import html
from itertools import pairwise
from typing import Any

import anywidget
import traitlets

from ..engine import (
    REVISED_2008,
    RULE_SETS,
    RuleSet,
    bonus_table,
    full_deck,
    hand_score,
    highest_value,
    impossible_values,
)
from ..engine.catalogue import language, or_list, text, upper_first
from ..engine.hand import CARDS_DEALT
from ..engine.rules import INFERRED
from .board import STATIC, PageWrites

PLACEMENT_RULES = ("numbered", "ten", "jack", "queen", "king")
"""One sentence per kind of card, from ace to nine to king: the placement table's rules (`engine.rule.*`), read
from the catalogue when the sheet is written, so in the language of that moment."""
SCORE_EXAMPLE = 9  # the square value whose score the sheet works out


def _figure(rules: RuleSet) -> str:
    rows = "".join("<tr>" + "".join(f"<td>{n}</td>" for n in row) + "</tr>" for row in rules.grid)
    caption = html.escape(text("rules_sheet.figure"))
    return f"<figure><table class='grid'>{rows}</table><figcaption>{caption}</figcaption></figure>"


def _variants() -> str:
    """The table of the rule sets' settings, one column per rule set."""
    head = "".join(f"<th>{html.escape(text(f'rules.{key}'))}</th>" for key in RULE_SETS)

    def row(name: str, values: list[str]) -> str:
        cells = "".join(f"<td>{html.escape(value)}</td>" for value in values)
        return f"<tr><th>{html.escape(text(f'rules_sheet.variants_head.{name}'))}</th>{cells}</tr>"

    sets = list(RULE_SETS.values())
    rows = [row("suit", [str(r.suit_points) for r in sets]), row("color", [str(r.color_points) for r in sets]),
            row("out", [str(r.out_threshold) for r in sets]), row("bonus", [str(r.bonus_threshold) for r in sets]),
            row("penalty", [f"{r.out_penalty} *" if "out_penalty" in INFERRED.get(r.key, ()) else str(r.out_penalty)
                            for r in sets]),
            row("numbering", [text(f"rules_sheet.numbering.{'keypad' if r.keypad_layout else 'reading'}")
                              for r in sets]),
            row("draws", [str(r.draws_per_turn) for r in sets]),
            row("plays", [text(f"rules_sheet.plays.{'several' if r.multiple_plays else 'single'}") for r in sets])]
    setting = html.escape(text("rules_sheet.variants_head.setting"))
    inferred = html.escape(text("rules_sheet.inferred"))  # (what the cells marked * rest on)
    return (f"<table class='variants'><thead><tr><th>{setting}</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table><p class='inferred'>{inferred}</p>")


def values_html(rules: RuleSet) -> str:
    """The bonus table of `rules` (one column per value a square can have: its score, and its score for the
    player who went out) and the values no square has, as HTML (the sheet's, and the Examples section's)."""
    return f"{bonus_tables_html(rules)}{limits_html(rules)}"


def bonus_tables_html(rules: RuleSet, columns: int | None = None) -> str:
    """The bonus table of `rules` as one HTML table, or, given `columns`, as tables of at most that many values each
    (as even as can be; each with its rows' names), which stand one under another where a screen is narrow."""
    table = bonus_table(rules)
    count = 1 if columns is None else -(-len(table) // columns)
    cuts = [len(table) * part // count for part in range(count + 1)]

    def row(name: str, cells: list[str]) -> str:
        head = html.escape(text(f"rules_sheet.bonus.{name}"))
        return f"<tr><th>{head}</th>{''.join(f'<td>{html.escape(cell)}</td>' for cell in cells)}</tr>"

    not_out = text("rules_sheet.bonus.not_out")
    parts = []
    for start, end in pairwise(cuts):
        some = table[start:end]
        rows = (row("raw", [str(r.raw) for r in some]) + row("score", [str(r.score) for r in some])
                + row("went_out", [not_out if r.went_out is None else str(r.went_out) for r in some]))
        parts.append(f"<table class='bonus'>{rows}</table>")
    return "".join(parts)


def limits_html(rules: RuleSet) -> str:
    """The highest value a square of `rules` can have and the values none has, as an HTML paragraph."""
    never = impossible_values(rules)
    limits = (text("rules_sheet.bonus.never", most=highest_value(rules), never=or_list([str(v) for v in never]))
              if never else text("rules_sheet.bonus.all", most=highest_value(rules)))
    return f"<p>{html.escape(limits)}</p>"


def rules_sheet_html(rules: RuleSet = REVISED_2008) -> str:
    """The one-page summary of `rules` (the other rule sets in a table), as a whole HTML document."""
    def say(key: str, **facts: Any) -> str:
        return html.escape(text(f"rules_sheet.{key}", **facts))

    def heading(name: str) -> str:
        return f"<h2>{say(f'headings.{name}')}</h2>"

    places = "".join(f"<li>{html.escape(upper_first(text(f'engine.rule.{kind}')))}.</li>" for kind in PLACEMENT_RULES)
    several = rules.multiple_plays
    action = text("rules_sheet.action." + ("several" if several else "single"))
    score = say("score", bonus=rules.bonus_threshold, penalty=rules.out_penalty, hands=rules.hands_per_match,
                example=SCORE_EXAMPLE, example_score=hand_score(SCORE_EXAMPLE, False, rules))
    lines = say("lines", suit=text("rules_sheet.points", points=rules.suit_points),
                color=text("rules_sheet.points", points=rules.color_points))
    left = (f"{heading('cards')}<ul><li>{say('cards.deck', cards=len(full_deck()))}</li>"
            f"<li>{say('cards.cut')}</li><li>{say('cards.deal', dealt=CARDS_DEALT)}</li></ul>"
            f"{heading('turn')}<ol><li>{say('turn.draw', count=rules.draws_per_turn)}</li><li>{say('turn.out')}</li>"
            f"<li>{say('turn.act', action=action)}</li></ol>"
            + (f"<p>{say('turn.several')}</p>" if several else "")
            + f"{heading('lines')}<div class='figures'>{_figure(rules)}</div><p>{say('square')}</p>"
            f"<p>{lines}</p>")
    right = (f"{heading('places')}<ul>{places}</ul><p>{say('face_down')}</p>"
             f"{heading('out')}<p>{say('out.when', out=rules.out_threshold)}</p><p>{say('out.end')}</p>"
             f"{heading('score')}<p>{score}</p>")
    title = say("title")
    return (f"<!doctype html><html lang='{language()}'><head><meta charset='utf-8'><title>{title}</title>"
            f"<style>{(STATIC / 'rules_sheet.css').read_text(encoding='utf-8')}</style></head><body><h1>{title}</h1>"
            f"<p>{say('subtitle', rules=text(f'rules.{rules.key}'))}</p>"
            f"<div class='columns'>{left}{right}</div>"
            f"{heading('bonus')}{values_html(rules)}"
            f"{heading('variants')}{_variants()}"
            f"<button type='button' onclick='window.print()'>{say('print')}</button></body></html>")


class RulesSheetLink(PageWrites, anywidget.AnyWidget):
    """A link that opens the one-page rules summary in a new tab (made in the page from `sheet`): the sheet
    of the rules in play, which `show` changes."""

    _esm = STATIC / "rules_sheet.js"
    sheet = traitlets.Unicode().tag(sync=True)
    label = traitlets.Unicode().tag(sync=True)
    hover = traitlets.Unicode().tag(sync=True)  # the link's title; DOMWidget's own "tooltip" stopped the view in Voilà

    def __init__(self, rules: RuleSet = REVISED_2008, **kwargs: Any) -> None:
        super().__init__(label=text("rules_sheet.link"), **kwargs)
        self.rules: RuleSet | None = None
        self.written: tuple[RuleSet, str] | None = None
        self.show(rules)

    def show(self, rules: RuleSet) -> None:
        """Make the link open the sheet of `rules` (written again only for other rules or another language)."""
        if (rules, language()) != self.written:
            self.rules, self.written = rules, (rules, language())
            self.label = text("rules_sheet.link")
            self.sheet = rules_sheet_html(rules)
            self.hover = text("rules_sheet.link_tooltip", rules=text(f"rules.{rules.key}"))
