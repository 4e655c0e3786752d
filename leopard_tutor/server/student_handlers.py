"""The students' HTTP handlers in the server process, for the pages' kernels only (`students.py`).

A request is proved as every kernel's request is (`kernel_handler.KernelHandler`), and acts for the visitor
its kernel was handed to. Under `protocol.STUDENTS_PATH` (after the server's base URL):

* GET  `me` -> {"name", "progress" (what was earned here, as a progress code), "unlock_all", "defaults", "class" (the
  class's id, another once the class is forgotten)};
* POST `offer` {"names"} -> {"name"} (the first of a page's made-up names that no student keeps and none was offered
  lately, else None);
* POST `name` {"name"}; `progress` {"stars", "practice"} (what was earned since the last report); `game`
  {"against", "result", "match"} (a whole match) or {"against", "match", "hand"} (a hand played to its end);
  `now` {"doing", "stage", "with", "match" (optional)}; `tried` {"lesson"} (a failed try of that stage) -> {}.

Every accepted request of a student with a record sets their "last seen"; `name` makes the record (the live
students counted are those whose page is connected now: the server state's `book`), and any other report of a
visitor without one is refused "unknown_student" (`me` and `offer` store nothing). A refusal is HTTP 400 with
{"refused": key, "facts": {...}} (a key under "classmates.refused"); a request without a valid proof is 403, and
changes nothing.
"""

from __future__ import annotations

from typing import Any

from ..class_codes import ClassTableError
from ..protocol import STUDENTS_PATH
from .guards import refuse
from .kernel_handler import KernelHandler
from .state import state_of
from .students import Students


class StudentHandler(KernelHandler):
    """One handler for every request of the students (`action` is the last part of the path)."""

    students: Students

    def initialize(self, students: Students) -> None:
        """Given by the route: the server's students."""
        self.students = students

    def get(self, action: str) -> None:
        """me."""
        if action != "me":
            refuse(self, 404, "no such student request")
        try:
            self.answer(self.students.me(self.visitor))
        except ClassTableError as error:
            self.refused(error)

    def post(self, action: str) -> None:
        """offer, name, progress, game, now, tried."""
        students, visitor = self.students, self.visitor
        try:
            if action == "me":
                refuse(self, 404, "no such student request")
            body = self.body()
            if action == "offer":
                self.answer({"name": students.offer(body.get("names"), visitor)})
                return
            if action == "name":
                students.name(visitor, body.get("name"), state_of(self).book.connected_visitors())
            elif action == "progress":
                students.progress(visitor, body.get("stars"), body.get("practice"))
            elif action == "game":
                students.game(visitor, body.get("against"), body.get("result"), body.get("match"), body.get("hand"))
            elif action == "now":
                told = students.now(visitor, body.get("doing"), body.get("stage"), body.get("with"),
                                    body.get("match"))
                state_of(self).book.told(self.kernel_id, told)
            elif action == "tried":
                students.tried(visitor, body.get("lesson"))
            else:
                refuse(self, 404, "no such student request")
            self.answer({})
        except ClassTableError as error:
            self.refused(error)


def student_routes(base_url: str, students: Students) -> list[tuple[str, Any, dict[str, Any]]]:
    """The routes of the students' handlers under the server's `base_url` (GET me; POST the rest)."""
    base = f"{base_url.rstrip('/')}/{STUDENTS_PATH}"
    return [(f"{base}(me|offer|name|progress|game|now|tried)", StudentHandler, {"students": students})]
