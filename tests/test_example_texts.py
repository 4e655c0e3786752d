"""The worked examples' own words state rules; what they say about a position comes from the engine.

Three checks: a lint on every fixed text of data/examples.json (no value, count, line or place written
into it; it catches every claim the captions used to make); every fact filled into a title, an
introduction or a caption, for every step of every example under both rule sets, recomputed here from
the cards on the square; and a placeholder the engine has no fact for stops the import.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import text_lint

from leopard_tutor.engine import LINES, RULE_SETS, Card, RuleSet, Square
from leopard_tutor.engine.facts import RULE_FACTS, fill, placeholders, space_facts, square_facts
from leopard_tutor.examples import WORKED_EXAMPLES, ExampleFormatError, Step, WorkedExample, load_examples
from leopard_tutor.examples.model import EXAMPLE_FACTS, EXAMPLES_FILE, STEP_FACTS

DATA: dict[str, Any] = json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))
FORMAT = EXAMPLES_FILE.parent.parent / "FORMAT.md"
VERSIONS = [(example, version) for example in WORKED_EXAMPLES
            for version in (example, example.mirrored) if version is not None]
RULE_STATEMENTS: dict[tuple[str, str], str] = {}
"""Sentences of the examples that name a line or a number but state a rule, with why (none so far)."""


def fixed_texts(data: dict[str, Any]) -> list[tuple[str, str]]:
    """Every text of the examples file a learner can read, with its example's key."""
    found = []
    for item in data["examples"]:
        key = item["key"]
        found += [(key, item["title"]), (key, item["menu"]), (key, item["intro"]),
                  *((key, step["caption"]) for step in item["steps"])]
        mirror = item.get("mirror", {})
        found += [(key, mirror[name]) for name in ("title", "intro") if name in mirror]
        found += [(key, caption) for caption in mirror.get("captions", {}).values()]
    found += [(item["key"], words) for item in data["not reconstructed"] for words in (item["title"], item["why"])]
    return found


def test_no_example_text_states_a_number_a_count_a_line_or_a_place() -> None:
    texts = fixed_texts(DATA)
    assert len(texts) > 50
    problems = [problem for key, words in texts for problem in text_lint.lint(key, words, RULE_STATEMENTS)]
    assert problems == [], "\n".join(problems)


OLD_TEXTS = [
    ("C1", "An empty square: it is worth nothing yet."),
    ("C1", "A red 8 follows on space 8, one row below the 4 and one column to its right."),
    ("C1", "A red 3 goes on space 3, in the top right corner. No line is complete, so the square still scores 0."),
    ("C1", "Your own red 6 cannot simply go on top of that 6: a numbered card never covers a face-up card."),
    ("C1", "The same plays under the 1963 rules, where 7, 8, 9 is the top row: the picture is the 2008 one turned "
           "upside down."),
    ("C1", "A red 8 follows on space 8, which on the keypad is one row above the 4 and one column to its right."),
    ("C1", "A red 3 goes on space 3, now in the bottom right corner. No line is complete, so the square still "
           "scores 0."),
    ("C2", "The ten: one card, 4 points"),
    ("C2", "A ten may fill any open space of your own square. Here it lands in the middle, where four lines cross."),
    ("C2", "Two hearts wait in the middle row, two diamonds in the middle column. Nothing scores yet."),
    ("C2", "The 10 of hearts fills space 5. The middle row is now all hearts, and the middle column all red with "
           "mixed suits."),
    ("C2", "The same picture flipped top to bottom. In 1963 a one-suit line paid 2, not 3."),
    ("C3", "The king: from 1 point to 8"),
    ("C3", "Only the diagonal from the ace to the 9 scores: three black cards of mixed suits. The red 7 spoils three "
           "lines."),
    ("C3", "The king of spades covers the red 7. The bottom row and the left column turn all spades, and both "
           "diagonals are black."),
    ("C3", "The same square under the 1963 rules, drawn with 7, 8, 9 on top. One-suit lines pay 2 each."),
    ("C3", "The king of spades covers the red 7, now in the top left corner. The top row and the left column turn all "
           "spades, and both diagonals are black."),
    ("C4", "The jack: 6 points wiped out"),
    ("C4", "Your opponent's top row and right column are both all hearts: 3 points each."),
    ("C4", "Your jack goes face down on their space 3, the corner both lines share. Both break, and any jack would "
           "have done the same."),
    ("C4", "The same square flipped top to bottom, scored with 2 points per one-suit line."),
    ("C4", "Your opponent's bottom row and right column are both all hearts: 2 points each under these rules."),
    ("C5", "First turn: your queen goes face down on the red 7. The space now counts as empty, so the value does not "
           "change yet."),
    ("C5", "Now the 7 of spades can go down, and the square reaches the same value as before."),
    ("C5", "The same turns under the 1963 rules, with the keypad numbering and 2 points per one-suit line."),
    ("C6", "Going out: 3 points, then 9 with one ace"),
    ("C6", "Only the bottom row scores: all hearts."),
    ("C6", "The ace of hearts completes the top row and the left column in hearts. You still may not go out: this "
           "play ends your turn."),
    ("C6", "If your opponent lays a jack on your ace before your next turn, both new lines break, and you cannot go "
           "out after all."),
    ("C6", "The same square flipped top to bottom. Under these rules going out needs only 5, so 6 would be enough."),
    ("C6", "Only the top row scores: all hearts."),
    ("C6", "The ace of hearts completes the bottom row and the left column in hearts. You still may not go out: this "
           "play ends your turn."),
    ("C8", "A full square under the 1963 rules: 8 points, 11 with the bonus"),
    ("C8", "A finished square scored under the 1963 rules: 2 points for a one-suit line, 1 for a one-colour line, "
           "and every point above 5 counted twice."),
    ("C8", "Two lines are all hearts (2 points each) and four are red with mixed suits (1 point each). The lone black "
           "2 spoils the other two lines."),
    ("C8", "With the bonus: the 3 points above 5 count twice, so the hand scores 11."),
    ("C8", "The same picture with the cards renumbered for reading order, scored under the 2008 rules: 3 points for "
           "a one-suit line, and every point above 7 counted twice."),
    ("C8", "Two lines are all hearts (3 points each) and four are red with mixed suits (1 point each). The lone black "
           "8 spoils the other two lines."),
    ("C8", "With the bonus: the 3 points above 7 count twice, so the hand scores 13."),
]
"""The texts of the examples file before their facts came from the engine, each stating one or more."""


@pytest.mark.parametrize(("key", "words"), OLD_TEXTS, ids=[f"{key}-{n}" for n, (key, _) in enumerate(OLD_TEXTS)])
def test_the_lint_catches_the_old_texts(key: str, words: str) -> None:
    assert text_lint.lint(key, words, RULE_STATEMENTS)


def test_the_lint_lets_rules_cards_spaces_and_placeholders_through() -> None:
    for words in ("A king may cover even a face-up card, here on space {space}, in the {place}. {move}",
                  "Your own {card} cannot go on top of the {under}: a numbered card never covers a face-up card.",
                  "The square of C3 again, with the 7 of spades and your opponent's 6.",
                  "The 1963 rules number the spaces like a calculator keypad, with 7, 8, 9 along the top."):
        assert text_lint.lint("x", words, {}) == [], words
    for words in ("Their corner space breaks both lines.", "It lands in the centre.", "Now three lines score.",
                  "The value stays put."):
        assert text_lint.lint("x", words, {}), words


# -- every filled fact, recomputed from the cards -------------------------------------------------------------

ROW_WORDS = {0: "top", 1: "middle", 2: "bottom"}
COLUMN_WORDS = {0: "left", 1: "middle", 2: "right"}
PLACES = {(0, 0): "top left corner", (0, 1): "middle of the top row", (0, 2): "top right corner",
          (1, 0): "middle of the left column", (1, 1): "centre", (1, 2): "middle of the right column",
          (2, 0): "bottom left corner", (2, 1): "middle of the bottom row", (2, 2): "bottom right corner"}
LINE_WORDS = re.compile(r"(?:(?:top|middle|bottom) row|(?:left|middle|right) column|diagonal) \d-\d-\d")


def drawn(space: int, rules: RuleSet) -> tuple[int, int]:
    """Where a space is drawn, (row, column) from the top left: reading order, upside down on the keypad."""
    row, column = divmod(space - 1, 3)
    return (2 - row if rules.keypad_layout else row, column)


def placed(spaces: tuple[int, int, int], rules: RuleSet) -> str:
    """A line's name with where it is drawn."""
    cells = [drawn(space, rules) for space in spaces]
    labels = "-".join(str(space) for space in sorted(spaces))
    if len({row for row, _ in cells}) == 1:
        return f"{ROW_WORDS[cells[0][0]]} row {labels}"
    if len({column for _, column in cells}) == 1:
        return f"{COLUMN_WORDS[cells[0][1]]} column {labels}"
    return f"diagonal {labels}"


def pays(square: Square, spaces: tuple[int, int, int], rules: RuleSet) -> tuple[int, str]:
    """What a line pays, from the face-up cards on top of its spaces, and its kind in words."""
    tops = [square.showing(space) for space in spaces]
    cards = [card for card in tops if card is not None]
    if len(cards) < 3:
        return 0, ""
    if len({card.suit for card in cards}) == 1:
        return rules.suit_points, "one suit"
    if len({card.color for card in cards}) == 1:
        return rules.color_points, "one colour"
    return 0, ""


def worth(square: Square, rules: RuleSet) -> int:
    return sum(pays(square, line, rules)[0] for line in LINES)


def lines_in(words: object) -> list[str]:
    return LINE_WORDS.findall(str(words))


def check_scoring(words: object, square: Square, rules: RuleSet, whose: str) -> None:
    expected = {placed(line, rules): pays(square, line, rules) for line in LINES if pays(square, line, rules)[0]}
    if not expected:
        assert words == f"no line of {whose} square scores"
        return
    found = {}
    for group in str(words).split("; "):
        parts = re.fullmatch(rf"{whose} (.+) (scores|score) (\d+)( each)? \((one suit|one colour)\)", group)
        assert parts, group
        names = lines_in(parts.group(1))
        assert (parts.group(2) == "scores") is (len(names) == 1) and bool(parts.group(4)) is (len(names) > 1)
        found.update({name: (int(parts.group(3)), parts.group(5)) for name in names})
    assert found == expected


def check_idle(words: object, lines: list[tuple[int, int, int]], square: Square, rules: RuleSet,
               whose: str) -> None:
    idle = sorted(placed(line, rules) for line in lines if not pays(square, line, rules)[0])
    assert idle, "an idle fact is given only when some line scores nothing"
    assert str(words).startswith(f"{whose} ") and sorted(lines_in(words)) == idle
    assert str(words).endswith("scores nothing" if len(idle) == 1 else "score nothing")


def check_move(words: object, step: Step, before: Square, rules: RuleSet) -> None:
    assert step.card is not None and step.space is not None
    said = str(words)
    assert said.startswith("You " if step.by == "you" else "Your opponent ")
    assert f"space {step.space}" in said
    lying_face_down = step.card.rank in (11, 12)
    if lying_face_down and step.by == "opponent":
        assert step.card.name not in said and "a jack, face down" in said
    else:
        assert f"the {step.card.name}" in said and (", face down" in said) is lying_face_down
    changed = {placed(line, rules): (pays(before, line, rules)[0], pays(step.square, line, rules))
               for line in LINES if pays(before, line, rules)[0] != pays(step.square, line, rules)[0]}
    assert sorted(lines_in(said)) == sorted(changed)
    for name, (was, (now, kind)) in changed.items():
        unit = "point" if now == 1 else "points"
        assert (f"{name} no longer scores" if not now else
                f"{name} now scores {now} {unit} ({kind})" + (f" instead of {was}" if was else "")) in said
    old, new = worth(before, rules), worth(step.square, rules)
    assert said.endswith(f"rises from {old} to {new}." if new > old else f"drops from {old} to {new}."
                         if new < old else f"stays at {new}.")


def check_square_and_space(facts: Mapping[str, object], before: Square, square: Square, space: int | None,
                           rules: RuleSet, whose: str) -> None:
    """The facts of `square` (and of `space`, from `before` to `square`), recomputed from the cards."""
    check_scoring(facts["scoring"], square, rules, whose)
    assert ("idle" in facts) is any(not pays(square, line, rules)[0] for line in LINES)
    if "idle" in facts:
        check_idle(facts["idle"], list(LINES), square, rules, whose)
    value = worth(square, rules)
    assert facts["going_out"] == (f"{whose} square is worth {rules.out_threshold} or more, enough to go out"
                                  if value >= rules.out_threshold else
                                  f"{whose} square is worth less than {rules.out_threshold}, too little to go out")
    numbers = [int(n) for n in re.findall(r"\d+", str(facts["score"]))]
    extra = max(0, value - rules.bonus_threshold)
    assert numbers == ([value, extra, value + extra] if extra else [value])
    if space is not None:
        through = [line for line in LINES if space in line]
        assert (facts["space"], facts["place"]) == (space, PLACES[drawn(space, rules)])
        assert sorted(lines_in(facts["lines_through"])) == sorted(placed(line, rules) for line in through)
        assert str(facts["lines_through"]).count("the ") == len(through)
        assert ("idle_through" in facts) is any(not pays(square, line, rules)[0] for line in through)
        assert ("under" in facts) is ("the_under" in facts) is ("The_under" in facts) is (
            before.showing(space) is not None)
        if "idle_through" in facts:
            check_idle(facts["idle_through"], through, square, rules, whose)
        if "under" in facts:
            shown = before.showing(space)
            assert isinstance(shown, Card) and facts["under"] == shown.name and facts["the_under"] == shown.the_name
            assert facts["The_under"] == shown.the_name_first


def expected_keys(step: Step, space: int | None, before: Square) -> set[str]:
    keys = {"value_before", "value_after", "scoring", "going_out", "score"} | RULE_FACTS
    if any(not pays(step.square, line, step.rules)[0] for line in LINES):
        keys.add("idle")
    if space is not None:
        keys |= {"space", "place", "lines_through"}
        if any(not pays(step.square, line, step.rules)[0] for line in LINES if space in line):
            keys.add("idle_through")
        if before.showing(space) is not None:
            keys |= {"under", "the_under", "The_under"}
    if step.card is not None:
        keys |= {"card", "the_card", "The_card"}
        if step.refused is None:
            keys.add("move")
    return keys


def check_step(version: WorkedExample, number: int, item: dict[str, Any], start: Square) -> None:
    step, rules = version.steps[number], version.rules
    whose = "your" if version.own else "their"
    before = start if step.follows is None else version.steps[step.follows].square
    space = step.space if step.card is not None else item.get("at")
    facts = step.facts
    assert set(facts) == expected_keys(step, space, before)
    assert (facts["value_before"], facts["value_after"]) == (worth(before, rules), worth(step.square, rules))
    for name in RULE_FACTS:
        assert facts[name] == getattr(rules, name)
    check_square_and_space(facts, before, step.square, space, rules, whose)
    if step.card is not None:
        assert (facts["card"], facts["the_card"], facts["The_card"]) == (step.card.name, step.card.the_name,
                                                                        step.card.the_name_first)
    if "move" in facts:
        check_move(facts["move"], step, before, rules)
    assert step.caption == fill(step.template, dict(facts)) and "{" not in step.caption
    assert step.template == item["caption"]


@pytest.mark.parametrize(("example", "version"), VERSIONS, ids=lambda v: f"{v.key}-{v.rules.year}")
def test_every_filled_fact_is_the_engines(example: WorkedExample, version: WorkedExample) -> None:
    item = next(item for item in DATA["examples"] if item["key"] == example.key)
    mirror = version is not example
    start = Square.parse(item["mirror"].get("start", item["start"]) if mirror else item["start"])
    for number, step_item in enumerate(item["steps"]):
        check_step(version, number, step_item, start)
    values = [worth(step.square, version.rules) for step in version.steps]
    first, last = values[0], values[-1]
    assert version.facts == {
        "start_points": f"{first} point{'' if first == 1 else 's'}", "end_value": last,
        "end_points": f"{last} point{'' if last == 1 else 's'}", "top_value": max(values),
        "end_score": last + max(0, last - version.rules.bonus_threshold),
        **{name: getattr(version.rules, name) for name in RULE_FACTS}}
    source = item["mirror"] if mirror else item
    assert version.title == fill(source["title"], dict(version.facts))
    assert version.intro == fill(source["intro"], dict(version.facts))


def random_square(rng: random.Random) -> Square:
    """A square of random piles, mostly red so that many lines score (the value often near the thresholds)."""
    square = Square()
    for space in range(1, 10):
        for _ in range(rng.choice((0, 1, 1, 1, 1, 2))):
            rank = rng.choice((space, space, space, 10, 11, 12, 13))
            square = square.with_card(Card(rank, rng.choice("HHHDS")), space)
    return square


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=lambda rules: rules.key)
def test_the_engines_square_and_space_facts_on_random_squares(rules: RuleSet) -> None:
    rng = random.Random(rules.key)
    values = set()
    for _ in range(300):
        before = random_square(rng)
        after = before if rng.random() < 0.2 else random_square(rng)
        space, whose = rng.randint(1, 9), rng.choice(("your", "their"))
        facts = {**square_facts(after, rules, whose), **space_facts(before, after, space, rules, whose)}
        values.add(worth(after, rules))
        check_square_and_space(facts, before, after, space, rules, whose)
    assert {rules.out_threshold - 1, rules.out_threshold, 0} <= values


def test_the_texts_name_many_facts_and_every_name_is_documented() -> None:
    used = {name for _, words in fixed_texts(DATA) for name in placeholders(words)}
    assert len(used) >= 15, used
    assert used <= STEP_FACTS | EXAMPLE_FACTS
    documented = set(re.findall(r"^\| `\{(\w+)\}` \|", FORMAT.read_text(encoding="utf-8"), re.MULTILINE))
    assert documented == (STEP_FACTS | EXAMPLE_FACTS) - RULE_FACTS
    assert all(f"`{{{name}}}`" in FORMAT.read_text(encoding="utf-8") for name in RULE_FACTS)


def test_the_mirrored_pictures_say_top_where_the_others_say_bottom() -> None:
    """C1-C6 under the 1963 rules are the 2008 pictures upside down: the same captions with the rows'
    places swapped (and the values of other rules)."""
    def numbers_out(words: str) -> str:
        return re.sub(r"(?<![-\d])\d+(?![-\d])", "#", words)

    def swapped(words: str) -> str:
        return numbers_out(re.sub(r"\b(?:top|bottom)(?= (?:row|left|right))",
                                  lambda m: "bottom" if m.group() == "top" else "top", words))

    flipped = [example for example in WORKED_EXAMPLES
               if example.mirrored is not None and example.mirrored.rules.keypad_layout]
    assert [example.key for example in flipped] == ["C1", "C2", "C3", "C4", "C5", "C6"]
    for example in flipped:
        assert example.mirrored is not None
        for step, mirrored in zip(example.steps, example.mirrored.steps, strict=True):
            assert swapped(step.caption) == numbers_out(mirrored.caption)
    c3 = next(example for example in flipped if example.key == "C3")
    assert c3.mirrored is not None
    assert "bottom row 7-8-9" in c3.steps[1].caption and "top row 7-8-9" in c3.mirrored.steps[1].caption
    assert "bottom left corner" in c3.steps[1].caption and "top left corner" in c3.mirrored.steps[1].caption


def _load_with(tmp_path: Path, key: str, change: dict[str, Any], step: int | None = None) -> None:
    data = json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))
    item = next(item for item in data["examples"] if item["key"] == key)
    (item["steps"][step] if step is not None else item).update(change)
    path = tmp_path / "examples.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    load_examples(path)


@pytest.mark.parametrize(("key", "step", "change", "message"), [
    ("C3", 0, {"caption": "Look: {move}"}, r"C3 step 0 caption.*not \['move'\]"),  # nothing is played
    ("C1", 1, {"caption": "It covers the {under}."}, r"not \['under'\]"),  # space 4 was empty
    ("C4", 0, {"caption": "From {top_value}."}, r"not \['top_value'\]"),  # a fact of the whole example
    ("C4", None, {"title": "The jack: {scoring}"}, r"C4 title.*not \['scoring'\]"),  # a fact of one step
    ("C6", 0, {"caption": "Worth {value_after:>3}."}, "plain name"),
    ("C3", 0, {"at": 10}, "'at' names a space 1 to 9"),
])
def test_a_placeholder_the_engine_cannot_fill_stops_the_import(tmp_path: Path, key: str, step: int | None,
                                                                change: dict[str, Any], message: str) -> None:
    with pytest.raises(ExampleFormatError, match=message):
        _load_with(tmp_path, key, change, step)


@pytest.mark.parametrize("path", [EXAMPLES_FILE, EXAMPLES_FILE.parent / "es" / "examples.json"], ids=["en", "es"])
def test_no_title_repeats_the_key_its_heading_puts_before_it(path: Path) -> None:
    """The example's heading is "C1 · title" (over the board on a phone): a title, the mirror's too, says what the
    example is about without its key (it read "C1 · C1 with the 1963 keypad numbering")."""
    data = json.loads(path.read_text(encoding="utf-8"))
    keys = [item["key"] for item in DATA["examples"]]
    titles = [(key, item[part]["title"] if part else item["title"])
              for key, item in zip(keys, data["examples"], strict=True)
              for part in ("", "mirror") if not part or part in item]
    assert [(key, title) for key, title in titles if re.match(r"C\d", title)] == []
