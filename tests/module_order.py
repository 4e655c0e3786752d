"""The order the test modules run in: the longest first, by the seconds a recorded run took in each
(`module_seconds.json`), so that pytest-xdist's workers, handed one module at a time (`--dist loadscope
--no-loadscope-reorder`, as scripts/test.sh runs them), finish together rather than one of them starting a long
module when the other has nothing left. A module not in the record runs after those in it.

`--record-module-seconds` writes this run's seconds of each module (its tests' set-up, call and tear-down) into
the record, keeping the modules this run did not reach: run the suite's two halves with it to make the record
again after a module grows or is added. The record only orders the modules; a stale one costs time, never a
result."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

RECORD = Path(__file__).with_name("module_seconds.json")
SECONDS: Counter[str] = Counter()
"""This run's seconds by module, so far."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-module-seconds", action="store_true",
                     help=f"write the seconds each test module took in this run into {RECORD.name}")


def recorded() -> dict[str, float]:
    """The seconds of each module (by its path from the repository's root) in the record, if there is one."""
    if not RECORD.is_file():
        return {}
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    return {str(name): float(seconds) for name, seconds in data.get("seconds", {}).items()}


def module_of(nodeid: str) -> str:
    """The module of a test's node id ("tests/test_cards.py" of "tests/test_cards.py::test_x[a]")."""
    return nodeid.split("::", 1)[0]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest modules first; each module's tests stay together, in their own order (the sort is stable)."""
    seconds = recorded()
    items.sort(key=lambda item: -seconds.get(module_of(item.nodeid), 0.0))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add up each module's seconds (on pytest-xdist's controller, every worker's reports arrive here)."""
    SECONDS[module_of(report.nodeid)] += report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """With --record-module-seconds, on the controller (not in a worker): this run's modules into the record."""
    config = session.config
    if not config.getoption("--record-module-seconds") or hasattr(config, "workerinput"):
        return
    seconds = {**recorded(), **{name: round(value, 1) for name, value in SECONDS.items()}}
    data = {"about": "seconds of each test module in a recorded run (tests/module_order.py): the longest run first",
            "seconds": dict(sorted(seconds.items(), key=lambda item: -item[1]))}
    RECORD.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
