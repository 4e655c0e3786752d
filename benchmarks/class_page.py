"""The teacher's class page with many students' records: how long one refresh takes in the server's event loop.

Fills a class store in a temporary folder with `--records` students (each named, with stars in some lessons,
practice answers, games against two opponents and what they do now; every tenth one's page connected), then
times what the page fetches every 2 s: `ClassPage.report()` and its JSON (the rows of the `students.PAGE_ROWS`
students seen last, the count of all). For comparison it times the rows of every record at once (what a refresh
cost before the paging), and the CSV export of every record, with its longest part (the server sends the CSV in
parts, letting others in between).

    python benchmarks/class_page.py                       # 10,000 and 35,000 records
    python benchmarks/class_page.py --records 2000        # one size
    python benchmarks/class_page.py --smoke               # 1,000 records, few repeats

Prints the figures (medians of `--repeat` runs); the goal is a refresh under 20 ms at 10,000 records.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from leopard_tutor.lessons import LESSONS  # noqa: E402
from leopard_tutor.lessons.progress import CONCEPTS  # noqa: E402
from leopard_tutor.protocol import DOINGS  # noqa: E402
from leopard_tutor.server.class_store import ClassStore, StudentRow  # noqa: E402
from leopard_tutor.server.referee import Referee  # noqa: E402
from leopard_tutor.server.students import PAGE_ROWS, Presence, Students  # noqa: E402
from leopard_tutor.server.teacher import ClassPage  # noqa: E402

NOW = time.time()


def fill(store: ClassStore, records: int, rng: random.Random) -> set[str]:
    """`records` students as their kernels' reports leave them, seen over the last 90 days; the visitors whose
    page counts as connected (every tenth)."""
    store.db.execute("BEGIN")
    for number in range(records):
        stars = {lesson.key: rng.randint(1, 3) for lesson in LESSONS[:rng.randint(0, len(LESSONS))]}
        practice = {concept: [rng.randint(0, 50), rng.randint(0, 20)] for concept in rng.sample(CONCEPTS, 3)}
        games = {"computer:beginner": {"won": rng.randint(0, 9), "drawn": 0, "lost": rng.randint(0, 9)},
                 "classmate": {"won": rng.randint(0, 5), "drawn": rng.randint(0, 2), "lost": rng.randint(0, 5)}}
        seen = NOW - rng.uniform(0, 90 * 86400)
        doing = {"doing": rng.choice(DOINGS), "stage": None, "with": None, "at": seen}
        store.put_student(StudentRow(f"visitor-{number}", f"Student {number}", seen, stars, practice, games, doing))
    store.db.execute("COMMIT")
    return {f"visitor-{number}" for number in range(0, records, 10)}


def timed(action: Callable[[], object], repeat: int) -> tuple[float, float]:
    """The median and the longest of `repeat` runs of `action`, in ms."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times), max(times)


def measure(records: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = ClassStore.in_folder(Path(folder))
        connected = fill(store, records, random.Random(records))
        students = Students(store, clock=lambda: NOW)
        page = ClassPage(students, Referee(store), "t" * 32)
        page.book.connected_visitors = lambda: connected  # type: ignore[method-assign]
        shown = len(page.report()["students"])
        median, most = timed(lambda: json.dumps(page.report()), repeat)
        print(f"{records} records: refresh (report + JSON, {shown} rows shown): median {median:6.1f} ms  "
              f"max {most:6.1f} ms  (n={repeat})")
        median, most = timed(lambda: students.rows(Presence(connected.__contains__), most=-1), max(1, repeat // 5))
        print(f"{records} records: every row at once (before the paging): median {median:7.1f} ms  "
              f"(n={max(1, repeat // 5)})")
        parts, longest, start = 0, 0.0, time.perf_counter()
        before = start
        for _part in students.csv_parts(Presence(connected.__contains__)):
            now = time.perf_counter()
            parts, longest, before = parts + 1, max(longest, now - before), now
        print(f"{records} records: CSV of every row: {1000 * (time.perf_counter() - start):7.1f} ms in {parts} "
              f"parts, longest part {1000 * longest:6.1f} ms")
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, nargs="+", default=[10_000, 35_000])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--smoke", action="store_true", help="1,000 records, 3 runs")
    options = parser.parse_args()
    if options.smoke:
        options.records, options.repeat = [1_000], 3
    print(f"rows shown per refresh at most: {PAGE_ROWS}")
    for records in options.records:
        measure(records, options.repeat)


if __name__ == "__main__":
    main()
