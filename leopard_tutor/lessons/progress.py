"""The learner's progress in the kernel (stars, unlocked stages, practice record) and the short code
that carries it across a restart: `Progress.to_code()`, and `Progress.merge_code(code)` (what a learner loads: the
better of each) or `Progress.load_code(code)` (the browser's own copy, taken up as it is)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..engine import LeopardError
from ..engine.errors import quote
from ..engine.packing import PackedError, pack, unpack

CODE_PREFIX = "LT2-"
CONCEPTS = ("lines", "aces to nines", "tens", "jacks", "queens", "kings", "best play")
LT1_PREFIX = "LT1-"
LT1_KEYS = ("the-square", "aces-to-nines", "lines", "tens", "kings", "jacks", "queens", "discarding", "going-out",
            "scoring", "stock-runs-out", "full-hand")
"""The lessons in the order the first code format stored their stars (by position), for reading old codes."""
MAX_CODE_LENGTH = 2_000  # characters: far more than any real code (about 100)
MAX_INFLATED = 4_096  # bytes a code may inflate to
MAX_COUNT = 1_000_000  # answers per practice concept


class ProgressCodeError(LeopardError):
    """A progress code that cannot be read; the progress is left as it was."""


@dataclass(frozen=True)
class Merged:
    """What a progress code added to a progress (`Progress.merge_code`): true if it changed anything."""

    raised: tuple[str, ...] = ()
    """The lessons whose stars the code raised (solved there and not here, or with more stars there)."""
    replaced: tuple[str, ...] = ()
    """The practice concepts whose record the code's replaced (the code's had more answers)."""

    def __bool__(self) -> bool:
        return bool(self.raised or self.replaced)


class _Keyed(Protocol):
    @property
    def key(self) -> str: ...


class Progress:
    """Stars per lesson (best so far), which stages are open, and right/wrong per practice concept."""

    def __init__(self, lessons: Sequence[_Keyed] | None = None) -> None:
        if lessons is None:  # every lesson: their keys are enough (loading the lessons takes longer)
            from .model import lesson_keys

            self.keys: tuple[str, ...] = lesson_keys()
        else:
            self.keys = tuple(lesson.key for lesson in lessons)
        self.stars: dict[str, int] = {}
        self.practice: dict[str, tuple[int, int]] = {}
        self.opened: set[str] = set()
        self.listeners: list[Callable[[], None]] = []
        """Called after every change of the stars or the practice record (the browser keeps them)."""
        self.earned_listeners: list[Callable[[dict[str, int], dict[str, tuple[int, int]]], None]] = []
        """Called after each thing earned here, with what it was: a stage solved ({key: stars}, {}) or a practice
        answer ({}, {concept: (1, 0)} if right, (0, 1) if wrong); never for progress read from a code (loaded or
        merged), which may have been brought from anywhere."""
        self.merged_listeners: list[Callable[[], None]] = []
        """Called after a code merged into this progress changed it (`merge_code`: a learner's Load a code, the class
        server's record), so that every section drawing the progress redraws it."""

    # -- lessons ------------------------------------------------------------------------------
    def record_lesson(self, key: str, stars: int) -> None:
        """Keep the best stars (1 to 3) earned in a lesson; a solved stage unlocks the next."""
        if key not in self.keys:
            raise LeopardError(f"there is no lesson {quote(key)}")
        if stars not in (1, 2, 3):
            raise LeopardError(f"a solved lesson earns 1 to 3 stars, not {quote(stars)}")
        self.stars[key] = max(stars, self.stars.get(key, 0))
        self._changed()
        for listener in list(self.earned_listeners):
            listener({key: stars}, {})

    def is_unlocked(self, key: str) -> bool:
        """The first stage is always open; each other one opens when the stage before it is solved, or
        when a teacher's link opened it (`open_through`)."""
        index = self.keys.index(key)
        return index == 0 or key in self.opened or self.stars.get(self.keys[index - 1], 0) > 0

    def open_through(self, key: str) -> None:
        """Open every stage up to the lesson `key` without stars (a teacher's link to a later stage);
        the opening is not part of the progress code."""
        if key not in self.keys:
            raise LeopardError(f"there is no lesson {quote(key)}")
        self.opened.update(self.keys[:self.keys.index(key) + 1])

    @property
    def unlocked(self) -> list[str]:
        """The keys of the open stages, in order."""
        return [key for key in self.keys if self.is_unlocked(key)]

    # -- practice -----------------------------------------------------------------------------
    def record_practice(self, concept: str, right: bool) -> None:
        """Count one answer for a practice concept."""
        if concept not in CONCEPTS:
            raise LeopardError(f"there is no practice concept {quote(concept)}")
        good, bad = self.practice.get(concept, (0, 0))
        self.practice[concept] = (good + 1, bad) if right else (good, bad + 1)
        self._changed()
        for listener in list(self.earned_listeners):
            listener({}, {concept: (1, 0) if right else (0, 1)})

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    # -- the code -----------------------------------------------------------------------------
    def to_code(self) -> str:
        """A short text holding all of this progress, to paste back later with `load_code`.

        Stars are stored by lesson key, so a code stays valid when lessons are added or reordered."""
        data = {"s": dict(sorted(self.stars.items())), "p": {c: list(n) for c, n in sorted(self.practice.items())}}
        return CODE_PREFIX + pack(data)

    def load_code(self, code: str) -> None:
        """Replace this progress with the one in `code`; ProgressCodeError (changing nothing) if it is damaged."""
        stars, practice = self._read(code)
        self.stars, self.practice = stars, practice
        self._changed()

    def merge_code(self, code: str) -> Merged:
        """Add the progress in `code` to this one: the better stars per lesson, and per practice concept the record
        with more answers. What changed (the listeners are told only if anything did); ProgressCodeError (changing
        nothing) if the code is damaged."""
        stars, practice = self._read(code)
        raised = tuple(key for key in self.keys if stars.get(key, 0) > self.stars.get(key, 0))
        replaced = tuple(concept for concept in CONCEPTS
                         if sum(practice.get(concept, (0, 0))) > sum(self.practice.get(concept, (0, 0))))
        merged = Merged(raised, replaced)
        if not merged:
            return merged
        self.stars.update({key: stars[key] for key in raised})
        self.practice.update({concept: practice[concept] for concept in replaced})
        self._changed()
        for listener in list(self.merged_listeners):
            listener()
        return merged

    @classmethod
    def from_code(cls, code: str, lessons: Sequence[_Keyed] | None = None) -> Progress:
        """A new progress read from a code."""
        progress = cls(lessons)
        progress.load_code(code)
        return progress

    def _read(self, code: str) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
        if not isinstance(code, str):
            raise ProgressCodeError(key="sections.progress.not_text")
        if len(code) > MAX_CODE_LENGTH * 2:
            raise ProgressCodeError(key="sections.progress.too_long")
        code = "".join(code.split())
        if len(code) > MAX_CODE_LENGTH:
            raise ProgressCodeError(key="sections.progress.too_long")
        if not code.startswith((CODE_PREFIX, LT1_PREFIX)):
            raise ProgressCodeError(key="sections.progress.not_ours", facts={"prefix": CODE_PREFIX})
        data = _unpack(code[len(CODE_PREFIX):])
        if code.startswith(LT1_PREFIX):
            data = _from_first_format(data)
        stars_data = data.get("s") if isinstance(data, dict) else None
        counts = data.get("p") if isinstance(data, dict) else None
        if not isinstance(stars_data, dict) or not all(
                isinstance(key, str) and _whole(n, 1, 3) for key, n in stars_data.items()):
            raise ProgressCodeError(key="sections.progress.stars_damaged")
        if not isinstance(counts, dict) or not all(
                concept in CONCEPTS and isinstance(pair, list) and len(pair) == 2
                and all(_whole(n, 0, MAX_COUNT) for n in pair) for concept, pair in counts.items()):
            raise ProgressCodeError(key="sections.progress.practice_damaged")
        stars = {key: n for key, n in stars_data.items() if key in self.keys}
        practice = {concept: (pair[0], pair[1]) for concept, pair in counts.items() if pair != [0, 0]}
        return stars, practice



def _unpack(body: str) -> Any:
    """The JSON inside a code's body, inflated to at most MAX_INFLATED bytes."""
    try:
        return unpack(body, MAX_INFLATED)
    except PackedError as error:
        raise ProgressCodeError(key=f"sections.progress.{error.kind}") from None


def _from_first_format(data: Any) -> Any:
    """An LT1 code's data (stars as one digit per lesson in LT1_KEYS' order) in today's shape."""
    digits = data.get("s") if isinstance(data, dict) else None
    counts = data.get("p") if isinstance(data, dict) else None
    if not isinstance(digits, str) or len(digits) != len(LT1_KEYS) or not set(digits) <= set("0123"):
        raise ProgressCodeError(key="sections.progress.other_version")
    if not isinstance(counts, list) or len(counts) != len(CONCEPTS):
        raise ProgressCodeError(key="sections.progress.practice_damaged")
    return {"s": {key: int(d) for key, d in zip(LT1_KEYS, digits) if d != "0"}, "p": dict(zip(CONCEPTS, counts))}


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


_KERNEL_PROGRESS: list[Progress] = []


def kernel_progress() -> Progress:
    """The progress of this kernel (one learner per kernel), shared by the Learn and Practice sections."""
    if not _KERNEL_PROGRESS:
        _KERNEL_PROGRESS.append(Progress())
    return _KERNEL_PROGRESS[0]
