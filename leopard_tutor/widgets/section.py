"""What the app (`app.py`) asks of each of its sections: `Section`, and `SectionDefaults`, what a section that
has nothing to say on a point inherits.

A section's `id` is the name of its tab in the app, in a teacher's link (`?tab=learn`) and in what a student
is doing on a class server (`protocol.DOINGS`): "play", "learn", "examples" or "practice". A widget
that is not a `Section` (a section that failed to build, a test's label) is shown and asked nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..engine import RuleSet
from .board import LeopardBoard

if TYPE_CHECKING:
    from ..client.student_client import StudentRecord

SectionPlace = object
"""Where the learner is in a section, kept while the app is drawn again in another language (None: nowhere)."""


@runtime_checkable
class Section(Protocol):
    """A tab of the app."""

    id: str
    board: LeopardBoard

    def watch_rules(self, follow: Callable[[RuleSet], None]) -> None:
        """Call `follow` with the rules the section plays under, now and whenever they change."""

    def update_panels(self) -> None:
        """The kernel's progress changed (a browser's copy, the server's, every lesson opened): redraw it."""

    def place(self) -> SectionPlace:
        """Where the learner is, to be taken up again by a section built anew (`take_place`)."""

    def take_place(self, place: SectionPlace) -> None:
        """Go back to `place` (what `place` said); one that cannot be taken up again is logged."""

    def report_to(self, student: StudentRecord) -> None:
        """Tell `student`'s record on the class server what the student earns here (not their clicks)."""

    def now_doing(self) -> tuple[int | None, str | None]:
        """What the student is doing here: Learn's stage, the classmate they play (each None where there is none)."""


class SectionDefaults:
    """The `Section` methods of a section that has no rules, progress, place or report of its own."""

    def watch_rules(self, follow: Callable[[RuleSet], None]) -> None:
        """No rules to follow."""

    def update_panels(self) -> None:
        """Nothing drawn from the progress."""

    def place(self) -> SectionPlace:
        """Nowhere to keep."""
        return None

    def take_place(self, place: SectionPlace) -> None:
        """Nowhere to go back to."""

    def report_to(self, student: StudentRecord) -> None:
        """Nothing to report."""

    def now_doing(self) -> tuple[int | None, str | None]:
        """No stage, no classmate."""
        return None, None
