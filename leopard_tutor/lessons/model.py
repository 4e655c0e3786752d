"""Lessons as data: reading and checking the lesson files (FORMAT.md) into `Lesson` objects."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine import Card, GoOut, Hand, LeopardError, Move, RuleSet, Square, rules_by_key
from ..engine.catalogue import DEFAULT_LANGUAGE, language
from ..engine.errors import quote
from ..engine.facts import FactError, check_placeholders, fill
from ..engine.reachable import complete_position
from ..engine.translated import TranslationError, overlay, read_words
from ..engine.turns import apply_move
from .advice import Advice, parse_advice
from .coach import coach_move
from .facts import END_FACTS, POSITION_FACTS, lesson_facts
from .goals import ENDING_GOALS, Goal, parse_goal
from .notation import LEARNER, parse_move
from .questions import StageQuestion, parse_question

if TYPE_CHECKING:
    from .attempt import Attempt

STAGES_DIR = Path(__file__).parent / "data" / "stages"
MAX_LESSON_TEXT = 100_000  # characters: the longest lesson today is under 4,000

_REQUIRED = {"stage", "key", "title", "intro", "goal", "goals", "hints", "success"}
_OPTIONAL = {"rules", "figures", "position", "deal", "mode", "solution", "replies", "after", "advice",
             "off track", "mistakes", "stars", "questions"}
_POSITION = {"your square", "their square", "your hand", "their hand", "stock", "discards", "dealer"}
_DEALERS = {"they": 1 - LEARNER, "you": LEARNER}
NUMBER_GOALS = ("your value at least", "their value at most", "your score at least")
TEXT_KEYS = frozenset({"title", "intro", "goal", "hints", "success", "after", "text", "off track", "caption"})
"""The entries of a lesson file that hold words, the only ones a translation (`stages/<lang>/`) gives."""


class LessonFormatError(LeopardError):
    """A lesson file that does not follow FORMAT.md; the message names the file and the problem."""


@dataclass(frozen=True)
class Figure:
    """A small label diagram shown beside a lesson: the spaces of a square as `rules` draws them."""

    rules: RuleSet
    caption: str


COULD_GO_OUT = "you could go out"
REPLY_LOWERS = "the reply lowers your square"
MISTAKE_CONDITIONS = {
    COULD_GO_OUT: "the learner could have gone out instead of the move (their square was worth enough to go out "
                  "and they had played nothing this turn)",
    REPLY_LOWERS: "the opponent's reply leaves the learner's square worth less than before it (a jack hid a "
                  "face-up card that counted in a line)",
}
"""What a mistake's `when` may ask of the move and the reply before the mistake is shown (FORMAT.md)."""


@dataclass(frozen=True)
class Mistake:
    """A wrong but legal move the lesson answers by showing the opponent's reply, then taking both back; shown only
    where each condition of `when` (MISTAKE_CONDITIONS) holds."""

    move: Move
    reply: Move
    text: str
    when: frozenset[str] = frozenset()

    def holds(self, could_go_out: bool, value_before_reply: int, value_after_reply: int) -> bool:
        """Whether every condition of `when` holds, given what the engine found: whether going out was allowed
        instead of the move, and the learner's square's value before and after the opponent's reply."""
        found = {COULD_GO_OUT: could_go_out, REPLY_LOWERS: value_after_reply < value_before_reply}
        return all(found[condition] for condition in self.when)


@dataclass(frozen=True)
class Lesson:
    """One stage of the course: a prepared position, a goal, and the texts around it."""

    stage: int
    key: str
    title: str
    rules: RuleSet
    intro: tuple[str, ...]
    goal: str
    goals: tuple[Goal, ...]
    hints: tuple[str, ...]
    success: str
    start: Callable[[], Hand] = field(repr=False, compare=False)
    mode: str = "scripted"
    scripted_solution: tuple[Move, ...] = ()
    replies: tuple[Move, ...] = ()
    after: tuple[str, ...] = ()
    advice: tuple[Advice, ...] = ()
    off_track: tuple[str, ...] = ()
    """What to say of a legal move that is not the script's: one text per step of the solution (the last reused if
    there are fewer), so that it speaks of what is left of the plan at that step."""
    mistakes: tuple[Mistake, ...] = ()
    figures: tuple[Figure, ...] = ()
    stars_for: tuple[int, int] = (0, 2)
    questions: tuple[StageQuestion, ...] = ()

    @property
    def target(self) -> int | None:
        """The number the lesson's goals ask for (a value or a score), or None if they ask for none."""
        return next((goal.number for goal in self.goals if goal.kind in NUMBER_GOALS), None)

    @property
    def played_space(self) -> int | None:
        """The space the lesson's "played" goal names, or None if it has no such goal."""
        return next((goal.space for goal in self.goals if goal.kind == "played"), None)

    @property
    def ends_hand(self) -> bool:
        """Whether the goals can only be met once the hand is over."""
        return any(goal.kind in ENDING_GOALS for goal in self.goals)

    @property
    def free(self) -> bool:
        """Whether every legal move is kept (a whole hand against the computer) rather than a script."""
        return self.mode == "free"

    @cached_property
    def solution(self) -> list[Move]:
        """The learner's moves that complete the lesson (in a free lesson, the coach's moves)."""
        if not self.free:
            return list(self.scripted_solution)
        hand = self.start()
        moves: list[Move] = []
        while not hand.is_over:
            move = coach_move(hand)
            if hand.to_move == LEARNER:
                moves.append(move)
            apply_move(hand, move)
        return moves

    def new_attempt(self) -> Attempt:
        """A fresh try at this lesson, from its start position."""
        from .attempt import Attempt
        return Attempt(self)


def load_lesson(path: Path, lang: str = DEFAULT_LANGUAGE) -> Lesson:
    """The lesson in one file, its words in `lang` (from `<lang>/<same name>` beside it, where there is one);
    LessonFormatError, naming the file, if it breaks FORMAT.md."""
    try:
        words = read_words(path, lang)
    except ValueError as error:
        raise LessonFormatError(f"{lang}/{path.name}: {error}") from None
    try:
        return parse_lesson(path.read_text(encoding="utf-8"), words)
    except LessonFormatError as error:
        raise LessonFormatError(f"{path.name}{'' if words is None else f' ({lang})'}: {error}") from None


def parse_lesson(text: str, words: Any = None) -> Lesson:
    """The lesson written as JSON `text`, with the translated `words` (FORMAT.md, "Languages") over its own;
    LessonFormatError, saying what is wrong, if it breaks FORMAT.md."""
    if len(text) > MAX_LESSON_TEXT:
        raise LessonFormatError(f"a lesson file has at most {MAX_LESSON_TEXT} characters")
    try:
        return _lesson(overlay(json.loads(text), words, TEXT_KEYS))
    except TranslationError as error:
        raise LessonFormatError(_cut(f"translation: {error}")) from None
    except LessonFormatError as error:
        raise LessonFormatError(_cut(str(error))) from None
    except (ValueError, KeyError, TypeError, RecursionError) as error:  # json errors and LeopardError too
        raise LessonFormatError(_cut(f"{type(error).__name__}: {error}")) from None


def _cut(message: str, limit: int = 240) -> str:
    """An error message cut short, so that it never repeats a long piece of the input."""
    return message if len(message) <= limit else message[:limit] + "…"


def load_lessons(directory: Path = STAGES_DIR, lang: str = DEFAULT_LANGUAGE) -> tuple[Lesson, ...]:
    """Every lesson file in `directory`, in stage order (stages must run 1, 2, 3... with unique keys), with
    its words in `lang`."""
    lessons = sorted((load_lesson(p, lang) for p in sorted(directory.glob("*.json"))),
                     key=lambda lesson: lesson.stage)
    stages = [lesson.stage for lesson in lessons]
    if stages != list(range(1, len(lessons) + 1)):
        raise LessonFormatError(f"{directory}: stages must be numbered 1 to {len(lessons)}, found {stages}")
    keys = [lesson.key for lesson in lessons]
    if len(set(keys)) != len(keys):
        raise LessonFormatError(f"{directory}: two lessons share a key in {keys}")
    return tuple(lessons)


@cache
def lessons_in(lang: str) -> tuple[Lesson, ...]:
    """The course with its words in `lang`, loaded once per language (the engine's own texts inside them,
    filled at load time, are in that language too)."""
    return load_lessons(STAGES_DIR, lang)


def current_lessons() -> tuple[Lesson, ...]:
    """The course in the language texts are read in now (`catalogue.language()`)."""
    return lessons_in(language())


def lesson_keys(directory: Path = STAGES_DIR) -> tuple[str, ...]:
    """The keys of the lessons in `directory`, in stage order, read without loading the lessons (what a learner's
    progress needs; `load_lessons` checks the files)."""
    found = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(directory.glob("*.json"))]
    return tuple(str(data["key"]) for data in sorted(found, key=lambda data: data["stage"]))


def _lesson(data: Any) -> Lesson:
    if not isinstance(data, dict):
        raise LessonFormatError("a lesson file holds one JSON object")
    missing = _REQUIRED - set(data)
    unknown = set(data) - _REQUIRED - _OPTIONAL
    if missing or unknown:
        raise LessonFormatError(f"missing {sorted(missing)}" if missing
                                else f"unknown entries {quote(sorted(unknown))}")
    rules = rules_by_key(data.get("rules", "REVISED_2008"))
    mode = data.get("mode", "scripted")
    if mode not in ("scripted", "free"):
        raise LessonFormatError(f"'mode' is 'scripted' or 'free', not {quote(mode)}")
    if ("position" in data) == ("deal" in data):
        raise LessonFormatError("give either a 'position' or a 'deal', not both or neither")
    key = _string(data["key"], "key")
    start = _position(data["position"], rules, key) if "position" in data else _deal(data["deal"], rules)
    solution = tuple(parse_move(m) for m in _strings(data.get("solution", []), "solution"))
    questions = tuple(parse_question(q) for q in _list(data.get("questions", []), "questions"))
    if mode == "scripted" and not solution and not questions:
        raise LessonFormatError("a scripted lesson needs a 'solution' (or 'questions')")
    stars = data.get("stars", [0, 2])
    if not (isinstance(stars, list) and len(stars) == 2 and all(isinstance(n, int) for n in stars)
            and 0 <= stars[0] <= stars[1]):
        raise LessonFormatError("'stars' is [most slips for 3 stars, most slips for 2 stars], such as [0, 2]")
    lesson = Lesson(
        stage=_int(data["stage"], "stage"), key=key, title=_string(data["title"], "title"),
        rules=rules, intro=tuple(_strings(data["intro"], "intro")), goal=_string(data["goal"], "goal"),
        goals=tuple(parse_goal(g) for g in _list(data["goals"], "goals")),
        hints=tuple(_strings(data["hints"], "hints")), success=_string(data["success"], "success"),
        mode=mode, scripted_solution=solution,
        replies=tuple(parse_move(m) for m in _strings(data.get("replies", []), "replies")),
        after=tuple(_strings(data.get("after", []), "after")), advice=parse_advice(data.get("advice", [])),
        off_track=_texts(data.get("off track", []), "off track"),
        mistakes=tuple(_mistake(m) for m in _list(data.get("mistakes", []), "mistakes")),
        figures=tuple(Figure(rules_by_key(f["rules"]), _string(f["caption"], "caption"))
                      for f in _list(data.get("figures", []), "figures")),
        stars_for=(stars[0], stars[1]), start=start, questions=questions,
    )
    if not lesson.goals:
        raise LessonFormatError("a lesson needs at least one goal")
    if not lesson.hints:
        raise LessonFormatError("a lesson needs at least one hint (the nudge)")
    lesson = _check_questions(lesson)
    steps = len(lesson.questions) or len(lesson.scripted_solution) or 1  # (a free lesson says one, at its end)
    if len(lesson.hints) > steps:
        raise LessonFormatError(f"'hints' gives {len(lesson.hints)} nudges for {steps} step(s): one a step, so the "
                                f"last {len(lesson.hints) - steps} would never be said")
    _check_facts(lesson)
    facts = lesson_facts(start(), lesson)  # a bad position fails now, at load time
    return replace(lesson, intro=tuple(fill(t, facts) for t in lesson.intro), goal=fill(lesson.goal, facts))


def _check_questions(lesson: Lesson) -> Lesson:
    """The lesson, its 'answered' goal counting its questions; LessonFormatError unless a lesson with
    questions has no moves to make and the one goal of answering them, and the engine can answer each
    from the start position (a question about an empty space cannot be)."""
    answering = [goal for goal in lesson.goals if goal.kind == "answered"]
    if not lesson.questions:
        if answering:
            raise LessonFormatError("the goal 'answered' needs 'questions'")
        return lesson
    if lesson.scripted_solution or lesson.free or lesson.replies or lesson.after or lesson.mistakes:
        raise LessonFormatError("a lesson with 'questions' has no 'solution', 'replies', 'after' or 'mistakes' "
                                "and is not free")
    if len(lesson.goals) != 1 or not answering:
        raise LessonFormatError("a lesson with 'questions' has the one goal {\"answered\": true}")
    view = lesson.start().view(LEARNER)
    for question in lesson.questions:
        try:
            question.truth(view)
        except LeopardError as error:
            raise LessonFormatError(str(error)) from None
    return replace(lesson, goals=(replace(answering[0], number=len(lesson.questions)),))


def _check_facts(lesson: Lesson) -> None:
    """LessonFormatError unless every placeholder names a fact the engine gives where the text is said."""
    position = POSITION_FACTS - {name for name, missing in (("target", lesson.target is None),
                                                            ("lines_through", lesson.played_space is None))
                                 if missing}
    texts: list[tuple[str, str, frozenset[str]]] = [
        *(("intro", t, position) for t in lesson.intro), ("goal", lesson.goal, position),
        *(("hints", t, position) for t in lesson.hints), *(("advice", a.text, position) for a in lesson.advice),
        *(("after", t, position) for t in lesson.after), *(("off track", t, position) for t in lesson.off_track),
        *(("mistakes", m.text, position) for m in lesson.mistakes),
        ("success", lesson.success, position | (END_FACTS if lesson.ends_hand else frozenset())),
    ]
    try:
        for where, template, allowed in texts:
            check_placeholders(template, allowed, where)
    except FactError as error:
        raise LessonFormatError(str(error)) from None


def _position(data: Any, rules: RuleSet, key: str) -> Callable[[], Hand]:
    if not isinstance(data, dict) or set(data) - _POSITION or "your hand" not in data:
        raise LessonFormatError(f"'position' has entries among {sorted(_POSITION)}, 'your hand' at least")
    squares = (Square.parse(_string(data.get("your square", ". . . / . . . / . . ."), "your square")),
               Square.parse(_string(data.get("their square", ". . . / . . . / . . ."), "their square")))
    cards = {name: [Card.parse(c) for c in _strings(data.get(name, []), name)]
             for name in ("your hand", "their hand", "stock", "discards")}
    dealer = _DEALERS.get(data.get("dealer", "they"))
    if dealer is None:
        raise LessonFormatError("'dealer' is \"you\" or \"they\" (the default)")
    try:
        position = complete_position(rules, squares, (cards["your hand"], cards["their hand"]), cards["stock"],
                                     cards["discards"], to_move=LEARNER, dealer=dealer, seed=key)
    except LeopardError as error:
        raise LessonFormatError(str(error)) from None
    return position.copy


def _deal(data: Any, rules: RuleSet) -> Callable[[], Hand]:
    if not isinstance(data, dict) or set(data) != {"seed"}:
        raise LessonFormatError("'deal' is {\"seed\": N}: a shuffled hand in which you move first")
    seed = _int(data["seed"], "seed")
    return lambda: Hand.deal(rules, seed=seed, dealer=1 - LEARNER)


def _mistake(data: Any) -> Mistake:
    if not isinstance(data, dict) or not {"move", "reply", "text"} <= set(data) <= {"move", "reply", "text", "when"}:
        raise LessonFormatError("each of 'mistakes' has a 'move', the opponent's 'reply', a 'text' and maybe 'when'")
    when = _strings(data.get("when", []), "when")
    unknown = [condition for condition in when if condition not in MISTAKE_CONDITIONS]
    if unknown:
        raise LessonFormatError(f"a mistake's 'when' names conditions among {sorted(MISTAKE_CONDITIONS)}, "
                                f"not {quote(unknown)}")
    return Mistake(parse_move(data["move"]), parse_move(data["reply"]), _string(data["text"], "text"),
                   frozenset(when))


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise LessonFormatError(f"'{name}' must be a list")
    return value


def _strings(value: Any, name: str) -> list[str]:
    items = _list(value, name)
    if not all(isinstance(item, str) for item in items):
        raise LessonFormatError(f"'{name}' must be a list of texts")
    return items


def _texts(value: Any, name: str) -> tuple[str, ...]:
    """A text or a list of texts, as a tuple (an empty text: none)."""
    return tuple(item for item in ([value] if isinstance(value, str) else _strings(value, name)) if item)


def _string(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise LessonFormatError(f"'{name}' must be a text")
    return value


def _int(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise LessonFormatError(f"'{name}' must be a whole number")
    return value


def going_out_stage(lessons: Sequence[Lesson]) -> int:
    """The stage of the course (`lessons`) that first has the learner go out (a step of its solution, or its goal), or
    the first free one: Learn shows Go out from that stage on, and before it only where going out is allowed."""
    return next((lesson.stage for lesson in lessons if lesson.free
                 or any(isinstance(move, GoOut) for move in lesson.scripted_solution)
                 or any(goal.kind == "went out" for goal in lesson.goals)), len(lessons) + 1)
