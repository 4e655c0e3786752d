"""The test modules run longest first by the record of a run (tests/module_order.py), each module's tests together."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import module_order
import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_longest_recorded_module_comes_first_and_each_module_stays_whole(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "module_seconds.json"
    record.write_text(json.dumps({"seconds": {"tests/test_a.py": 1.0, "tests/test_b.py": 5.0}}))
    monkeypatch.setattr(module_order, "RECORD", record)
    names = ["tests/test_a.py::one", "tests/test_a.py::two[x]", "tests/test_b.py::one", "tests/test_c.py::one",
             "tests/test_c.py::Walk::runTest"]
    items: list[Any] = [SimpleNamespace(nodeid=name) for name in names]
    module_order.pytest_collection_modifyitems(items)
    assert [item.nodeid for item in items] == [
        "tests/test_b.py::one", "tests/test_a.py::one", "tests/test_a.py::two[x]",  # by the record
        "tests/test_c.py::one", "tests/test_c.py::Walk::runTest"]  # not in it: after, as collected


def test_without_a_record_the_order_is_pytests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module_order, "RECORD", tmp_path / "none.json")
    items: list[Any] = [SimpleNamespace(nodeid=name) for name in ("tests/test_z.py::a", "tests/test_a.py::a")]
    module_order.pytest_collection_modifyitems(items)
    assert [item.nodeid for item in items] == ["tests/test_z.py::a", "tests/test_a.py::a"]


def test_the_record_names_only_test_modules_that_exist() -> None:
    """A module renamed or removed is recorded again (`--record-module-seconds`), so the record stays true."""
    seconds = module_order.recorded()
    assert seconds, "tests/module_seconds.json is missing or empty"
    missing = [name for name in seconds if not (ROOT / name).is_file() or not Path(name).name.startswith("test_")]
    assert missing == []
