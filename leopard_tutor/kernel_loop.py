"""Work a background thread hands to the kernel's event loop, so that it runs in turn with the page's clicks.

A kernel handles every click (a widget message) on its event loop, one at a time. A thread that waits on the class
server (`widgets.class_panel.ClassWatch`, `class_member.ClassMember`'s unlock check, the reports of
`client.student_client.StudentRecord`) must not change the board or the sections itself: a click being handled at
that moment could draw its own, older, state over the change. The loop is found with `running_loop()` while a
message is handled, and the thread later has its change made there with `in_turn`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class LoopGone(RuntimeError):
    """The kernel's event loop is closed: there is nothing left to hand work to."""


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread (the kernel's, while it handles a message or runs a cell), or None."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def soon(loop: asyncio.AbstractEventLoop | None, work: Callable[[], object]) -> None:
    """Run `work` on `loop` between two of the messages it handles, without waiting for it (a thread the loop may
    itself be waiting for must not wait for the loop). Without a loop, or on the loop's own thread, `work` runs here
    and now. `LoopGone` if the loop is closed."""
    if loop is None or running_loop() is loop:
        work()
        return
    try:
        loop.call_soon_threadsafe(work)
    except RuntimeError as error:  # "Event loop is closed"
        raise LoopGone(str(error)) from error


def in_turn(loop: asyncio.AbstractEventLoop | None, work: Callable[[], T]) -> T:
    """Run `work` on `loop` between two of the messages it handles, wait for it, and return what it returned (or
    raise what it raised). Without a loop, or on the loop's own thread, `work` runs here and now. `LoopGone` if the
    loop is closed."""
    if loop is None or running_loop() is loop:
        return work()
    done: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        try:
            done.set_result(work())
        except BaseException as error:  # handed to the waiting thread, which raises it
            done.set_exception(error)
    soon(loop, run)
    return done.result()
