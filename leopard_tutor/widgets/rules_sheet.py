"""The rules on one printable page: `rules_sheet_html()` is a whole HTML document (print CSS, one A4
page), every sentence from the catalogue (texts/en/rules_sheet.json) and every number and placement
rule from the engine (the rule sets and the placement table). `RulesSheetLink` is a link in the app
that opens it in a new tab from a blob URL made in the page: no server route, so it works the same
in Voilà and in a static site, and without a connection.
"""

from __future__ import annotations

import html
from typing import Any

import anywidget
import traitlets

from ..engine import PLACEMENT, REVISED_2008, RULE_SETS, RuleSet, full_deck, hand_score
from ..engine.catalogue import text
from ..engine.hand import CARDS_DEALT
from .board import STATIC, PageWrites

PLACEMENT_ORDER = (1, 10, 11, 12, 13)  # one row per kind of card: ace to nine, ten, jack, queen, king
SCORE_EXAMPLE = 9  # the square value whose score the sheet works out


def _figure(rules: RuleSet) -> str:
    rows = "".join("<tr>" + "".join(f"<td>{n}</td>" for n in row) + "</tr>" for row in rules.grid)
    caption = html.escape(text("rules_sheet.figure", rules=text(f"rules.{rules.key}")))
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
            row("penalty", [str(r.out_penalty) for r in sets]),
            row("numbering", [text(f"rules_sheet.numbering.{'keypad' if r.keypad_layout else 'reading'}")
                              for r in sets]),
            row("draws", [str(r.draws_per_turn) for r in sets]),
            row("plays", [text(f"rules_sheet.plays.{'several' if r.multiple_plays else 'single'}") for r in sets])]
    setting = html.escape(text("rules_sheet.variants_head.setting"))
    return (f"<table class='variants'><thead><tr><th>{setting}</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def rules_sheet_html(rules: RuleSet = REVISED_2008) -> str:
    """The one-page summary of `rules` (the other rule sets in a table), as a whole HTML document."""
    def say(key: str, **facts: Any) -> str:
        return html.escape(text(f"rules_sheet.{key}", **facts))

    def heading(name: str) -> str:
        return f"<h2>{say(f'headings.{name}')}</h2>"

    places = "".join(f"<li>{html.escape(_sentence(str(PLACEMENT[rank])))}.</li>" for rank in PLACEMENT_ORDER)
    action = text("rules_sheet.action." + ("several" if rules.multiple_plays else "single"))
    draws = text("rules_sheet.draws", count=rules.draws_per_turn)
    score = say("score", bonus=rules.bonus_threshold, penalty=rules.out_penalty, hands=rules.hands_per_match,
                example=SCORE_EXAMPLE, example_score=hand_score(SCORE_EXAMPLE, False, rules))
    layouts: dict[bool, RuleSet] = {}
    for known in RULE_SETS.values():
        layouts.setdefault(known.keypad_layout, known)  # one figure per way of numbering, the first rule set's
    figures = "".join(_figure(r) for r in layouts.values())
    left = (f"{heading('cards')}<ul><li>{say('cards.deck', cards=len(full_deck()))}</li>"
            f"<li>{say('cards.cut')}</li><li>{say('cards.deal', dealt=CARDS_DEALT)}</li></ul>"
            f"{heading('turn')}<ol><li>{say('turn.draw', draws=draws)}</li><li>{say('turn.out')}</li>"
            f"<li>{say('turn.act', action=action)}</li></ol>"
            f"{heading('lines')}<p>{say('square')}</p><div class='figures'>{figures}</div>"
            f"<p>{say('lines', suit=rules.suit_points, color=rules.color_points)}</p>")
    right = (f"{heading('places')}<ul>{places}</ul><p>{say('face_down')}</p>"
             f"{heading('out')}<p>{say('out.when', out=rules.out_threshold)}</p><p>{say('out.end')}</p>"
             f"{heading('score')}<p>{score}</p>")
    title = say("title")
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
            f"<style>{(STATIC / 'rules_sheet.css').read_text(encoding='utf-8')}</style></head><body><h1>{title}</h1>"
            f"<p>{say('subtitle', rules=text(f'rules.{rules.key}'))}</p>"
            f"<div class='columns'><div>{left}</div><div>{right}</div></div>"
            f"{heading('variants')}{_variants()}"
            f"<button type='button' onclick='window.print()'>{say('print')}</button></body></html>")


def _sentence(rule: str) -> str:
    """A placement rule (a clause) as a sentence: capital first letter."""
    return rule[:1].upper() + rule[1:]


class RulesSheetLink(PageWrites, anywidget.AnyWidget):
    """A link that opens the one-page rules summary in a new tab (made in the page from `sheet`)."""

    _esm = STATIC / "rules_sheet.js"
    sheet = traitlets.Unicode().tag(sync=True)
    label = traitlets.Unicode().tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(sheet=rules_sheet_html(), label=text("rules_sheet.link"), **kwargs)
