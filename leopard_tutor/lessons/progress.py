"""The learner's progress in the kernel (stars, unlocked stages, practice record) and the short code
that carries it across a restart: `Progress.to_code()` and `Progress.load_code(code)`."""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Sequence
from typing import Any, Protocol

from ..engine import LeopardError

CODE_PREFIX = "LT1-"
CONCEPTS = ("lines", "aces to nines", "tens", "jacks", "queens", "kings", "best play")


class ProgressCodeError(LeopardError):
    """A progress code that cannot be read; the progress is left as it was."""


class _Keyed(Protocol):
    @property
    def key(self) -> str: ...


class Progress:
    """Stars per lesson (best so far), which stages are open, and right/wrong per practice concept."""

    def __init__(self, lessons: Sequence[_Keyed] | None = None) -> None:
        if lessons is None:
            from . import LESSONS
            lessons = LESSONS
        self.keys: tuple[str, ...] = tuple(lesson.key for lesson in lessons)
        self.stars: dict[str, int] = {}
        self.practice: dict[str, tuple[int, int]] = {}

    # -- lessons ------------------------------------------------------------------------------
    def record_lesson(self, key: str, stars: int) -> None:
        """Keep the best stars (1 to 3) earned in a lesson; a solved stage unlocks the next."""
        if key not in self.keys:
            raise ProgressCodeError(f"there is no lesson {key!r}")
        if stars not in (1, 2, 3):
            raise ProgressCodeError(f"a solved lesson earns 1 to 3 stars, not {stars!r}")
        self.stars[key] = max(stars, self.stars.get(key, 0))

    def is_unlocked(self, key: str) -> bool:
        """The first stage is always open; each other one opens when the stage before it is solved."""
        index = self.keys.index(key)
        return index == 0 or self.stars.get(self.keys[index - 1], 0) > 0

    @property
    def unlocked(self) -> list[str]:
        """The keys of the open stages, in order."""
        return [key for key in self.keys if self.is_unlocked(key)]

    # -- practice -----------------------------------------------------------------------------
    def record_practice(self, concept: str, right: bool) -> None:
        """Count one answer for a practice concept."""
        if concept not in CONCEPTS:
            raise ProgressCodeError(f"there is no practice concept {concept!r}")
        good, bad = self.practice.get(concept, (0, 0))
        self.practice[concept] = (good + 1, bad) if right else (good, bad + 1)

    # -- the code -----------------------------------------------------------------------------
    def to_code(self) -> str:
        """A short text holding all of this progress, to paste back later with `load_code`."""
        data = {"s": "".join(str(self.stars.get(key, 0)) for key in self.keys),
                "p": [list(self.practice.get(concept, (0, 0))) for concept in CONCEPTS]}
        packed = zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)
        return CODE_PREFIX + base64.urlsafe_b64encode(packed).decode().rstrip("=")

    def load_code(self, code: str) -> None:
        """Replace this progress with the one in `code`; ProgressCodeError (changing nothing) if it is damaged."""
        stars, practice = self._read(code)
        self.stars, self.practice = stars, practice

    @classmethod
    def from_code(cls, code: str, lessons: Sequence[_Keyed] | None = None) -> Progress:
        """A new progress read from a code."""
        progress = cls(lessons)
        progress.load_code(code)
        return progress

    def _read(self, code: str) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
        if not isinstance(code, str):
            raise ProgressCodeError("A progress code is a piece of text.")
        code = "".join(code.split())
        if not code.startswith(CODE_PREFIX):
            raise ProgressCodeError(f"This is not a Leopard Tutor progress code: it should start with {CODE_PREFIX}.")
        body = code[len(CODE_PREFIX):]
        try:
            raw = zlib.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
            data: Any = json.loads(raw)
        except (binascii.Error, zlib.error, ValueError):
            raise ProgressCodeError("This progress code is damaged or incomplete: copy the whole code again.") from None
        digits = data.get("s") if isinstance(data, dict) else None
        counts = data.get("p") if isinstance(data, dict) else None
        if not isinstance(digits, str) or len(digits) != len(self.keys) or not set(digits) <= set("0123"):
            raise ProgressCodeError("This progress code does not fit this version's lessons.")
        if not (isinstance(counts, list) and len(counts) == len(CONCEPTS) and all(
                isinstance(pair, list) and len(pair) == 2 and all(isinstance(n, int) and n >= 0 for n in pair)
                for pair in counts)):
            raise ProgressCodeError("This progress code's practice record is damaged.")
        stars = {key: int(d) for key, d in zip(self.keys, digits) if d != "0"}
        practice = {concept: (pair[0], pair[1]) for concept, pair in zip(CONCEPTS, counts) if pair != [0, 0]}
        return stars, practice


_KERNEL_PROGRESS: list[Progress] = []


def kernel_progress() -> Progress:
    """The progress of this kernel (one learner per kernel), shared by the Learn and Practice sections."""
    if not _KERNEL_PROGRESS:
        _KERNEL_PROGRESS.append(Progress())
    return _KERNEL_PROGRESS[0]
