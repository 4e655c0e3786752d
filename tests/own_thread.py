"""Running a piece of a test in a thread of its own, where no event loop runs unless it starts one (the
test process may already run one, left by an earlier test or by the widgets)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def in_own_thread(run: Callable[[], T]) -> T:
    """`run()` in a new thread; its result, or its exception raised again here."""
    found: list[T] = []
    failed: list[BaseException] = []

    def target() -> None:
        try:
            found.append(run())
        except BaseException as error:  # handed back to the caller's thread
            failed.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return found[0]
