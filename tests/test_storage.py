"""The browser's storage of the learner's progress, without a browser: the page's messages in, the text
the page is asked to keep out (the page itself: tests/browser/test_recovery.py)."""

from __future__ import annotations

import pytest
from keyed import mark

from leopard_tutor.app import build_app
from leopard_tutor.lessons import LESSONS, Progress
from leopard_tutor.widgets.storage import MAX_STORED, BrowserStorage, StorageError


def fresh_app() -> object:
    from leopard_tutor.lessons import progress as module

    module._KERNEL_PROGRESS.clear()
    return build_app()


def page_restores(storage: BrowserStorage, value: object) -> None:
    """What the page sends once it has read the browser's storage."""
    storage._on_page_msg(storage, {"type": "restore", "value": value}, [])


def test_progress_comes_back_from_the_browser_and_every_change_is_kept(keyed: None) -> None:
    tutor = fresh_app()
    kept = Progress()
    kept.record_lesson(LESSONS[0].key, 3)
    kept.record_lesson(LESSONS[1].key, 2)
    kept.record_practice("lines", True)
    learn = [name for name, _ in tutor.sections].index("learn")  # type: ignore[attr-defined]
    assert tutor.tabs.titles[learn] == mark("app.tabs.learn")  # type: ignore[attr-defined]
    tutor.tabs.selected_index = learn  # type: ignore[attr-defined]
    section = tutor.built[learn]  # type: ignore[attr-defined]
    assert section.stage_buttons[2].disabled
    page_restores(tutor.storage, kept.to_code())  # type: ignore[attr-defined]
    progress = section.controller.progress
    assert progress.stars == {LESSONS[0].key: 3, LESSONS[1].key: 2} and progress.practice == {"lines": (1, 0)}
    assert not section.stage_buttons[2].disabled and section.stage_buttons[0].description == "1 · ★★★", "redrawn"
    progress.record_practice("tens", False)
    assert Progress.from_code(tutor.storage.saved).practice == {"lines": (1, 0), "tens": (0, 1)}  # type: ignore[attr-defined]
    page_restores(tutor.storage, "")  # a second restore (another render of the widget) changes nothing
    assert progress.stars and tutor.storage_note.value == ""  # type: ignore[attr-defined]


def test_a_code_loaded_in_learn_shows_in_practice_at_once(keyed: None) -> None:
    """Load a code in Learn merges it into the kernel's progress, which the browser keeps merged, and Practice's
    record shows the merged counts at once (it showed the old ones until a reload)."""
    tutor = fresh_app()
    ids = [name for name, _ in tutor.sections]  # type: ignore[attr-defined]
    learn, practice = ids.index("learn"), ids.index("practice")
    tutor.tabs.selected_index = practice  # type: ignore[attr-defined]
    tutor.tabs.selected_index = learn  # type: ignore[attr-defined]
    page_restores(tutor.storage, "")  # type: ignore[attr-defined]
    from leopard_tutor.lessons import kernel_progress

    kernel_progress().record_lesson(LESSONS[0].key, 3)
    brought = Progress()
    brought.record_lesson(LESSONS[0].key, 1)
    brought.record_practice("tens", True)
    section = tutor.built[learn]  # type: ignore[attr-defined]
    section.code.value = brought.to_code()
    section.board.act(section.load_code)
    kept = Progress.from_code(tutor.storage.saved)  # type: ignore[attr-defined]
    assert kept.stars == {LESSONS[0].key: 3} and kept.practice == {"tens": (1, 0)}
    board = tutor.built[practice].board  # type: ignore[attr-defined]
    panel = next(panel for panel in board.state["aside"] if panel["list_class"] == "lt-record")
    tens = mark("lessons.practice.concepts.tens")
    assert list(panel["items"]) == [mark("sections.practice.record_row", concept=tens, right=1, wrong=0)]


def test_a_browser_that_keeps_nothing_is_told_so_and_the_tutor_works_on(keyed: None) -> None:
    """A browser that refuses site data (its page says so with what it read): the note above the sections says the
    progress lasts only with the page, and where to find its code; the progress is still saved, for nothing."""
    tutor = fresh_app()
    tutor.storage._on_page_msg(tutor.storage, {"type": "restore", "value": "", "refused": True}, [])
    assert tutor.storage.refused and tutor.storage_note.value == (  # type: ignore[attr-defined]
        f"<p role='status'>{mark('app.storage.refused')}</p>")
    kept = fresh_app()
    page_restores(kept.storage, "")  # type: ignore[attr-defined]
    assert not kept.storage.refused and kept.storage_note.value == ""  # type: ignore[attr-defined]


@pytest.mark.parametrize(("kept", "reason"), [
    ("LT2-damaged", mark("sections.progress.damaged")),
    ("XX9-" + "A" * 50, mark("sections.progress.not_ours", prefix="LT2-")),
    ("LT2-" + "A" * (MAX_STORED - 4), mark("sections.progress.too_long")),
    (42, None), (None, None), ("x" * (MAX_STORED + 1), None),
])
def test_a_damaged_or_foreign_kept_text_is_explained_and_changes_nothing(kept: object, reason: str | None,
                                                                         keyed: None) -> None:
    tutor = fresh_app()
    from leopard_tutor.lessons import kernel_progress

    progress = kernel_progress()
    progress.record_lesson(LESSONS[0].key, 1)
    before = progress.to_code()
    page_restores(tutor.storage, kept)  # type: ignore[attr-defined]
    assert progress.to_code() == before
    note = tutor.storage_note.value  # type: ignore[attr-defined]
    if reason is not None:
        assert note == f"<p role='status'>{mark('app.storage.unreadable', reason=reason)}</p>"
    else:
        assert note == "", "nothing readable was kept: nothing to explain"


def test_the_storage_keeps_bounded_texts_under_a_plain_name() -> None:
    storage = BrowserStorage("progress")
    assert storage.key == "leopard-tutor/progress"
    storage.save("LT2-abc")
    assert storage.saved == "LT2-abc"
    with pytest.raises(StorageError):
        storage.save("x" * (MAX_STORED + 1))
    with pytest.raises(StorageError):
        BrowserStorage("../other")
    got: list[str] = []
    storage.on_restore(got.append)
    page_restores(storage, "kept")
    page_restores(storage, "again")
    storage._on_page_msg(storage, "not a message", [])
    assert got == ["kept"]
