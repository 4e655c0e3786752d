"""The staged course: lessons as data files (FORMAT.md), attempts with feedback, hints and stars,
practice exercises (practice.py) and the learner's progress with its export code (progress.py).

>>> from leopard_tutor.lessons import LESSONS
>>> attempt = LESSONS[4].new_attempt()
>>> attempt.try_move("play KS on your 7").ok, attempt.solved, attempt.stars
(True, True, 3)
"""

from typing import TYPE_CHECKING, Any

from ..hint_ladder import Rung
from .attempt import Attempt, Feedback
from .goals import Goal, GoalError
from .model import (
    Figure,
    Lesson,
    LessonFormatError,
    Mistake,
    current_lessons,
    lesson_keys,
    lessons_in,
    load_lesson,
    load_lessons,
)
from .notation import MoveTextError, move_text, parse_move
from .practice import KINDS, Answer, AnswerError, BestPlayQuestion, PlacementQuestion, Practice, Question, ValueQuestion
from .progress import CONCEPTS, Progress, ProgressCodeError, kernel_progress

if TYPE_CHECKING:
    LESSONS: tuple[Lesson, ...]
    """Every lesson, in stage order, in the language texts are read in at the moment it is asked for
    (`current_lessons()`): loaded and checked when first asked for in a language (some 0.2 s in the browser),
    not when the package is imported: the app's first board needs only the lessons' keys (`lesson_keys`)."""


def __getattr__(name: str) -> Any:
    if name == "LESSONS":
        return current_lessons()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")



__all__ = [
    "CONCEPTS",
    "KINDS",
    "LESSONS",
    "Answer",
    "AnswerError",
    "Attempt",
    "BestPlayQuestion",
    "Feedback",
    "Figure",
    "Goal",
    "GoalError",
    "Lesson",
    "LessonFormatError",
    "Mistake",
    "MoveTextError",
    "PlacementQuestion",
    "Practice",
    "Progress",
    "ProgressCodeError",
    "Question",
    "Rung",
    "ValueQuestion",
    "current_lessons",
    "kernel_progress",
    "lesson_keys",
    "lessons_in",
    "load_lesson",
    "load_lessons",
    "move_text",
    "parse_move",
]
