"""A term of a class server in a few minutes: does anything build up?

Drives the class server's own records (`Referee`, `Students` and the class page's `ClassPage.report`, over a
real SQLite store in a temporary data folder) through `--lessons` lessons on a simulated clock, two days apart:

* a class of `--students` named students (a few change their name now and then, a few leave the school and new
  ones come), each lesson: what they do, a stage solved, practice answers;
* pairs at class tables: most matches played to their end (random legal moves, each checked and stored by the
  server), one left half-way, one abandoned by both players (gone past the two-minute rule), one waiting table
  nobody joins; each finished match reported by both players, and one reported again (a resumed saved game);
* throw-away visits (`--visitors` new ones a lesson) that never give a name, and one scripted tab opening and
  leaving a table `--flood` times a lesson;
* the teacher's page refreshed ten times a lesson (timed);
* "Forget this class" half-way through, and a restart (the store closed and opened again) every fifth lesson.

After every lesson it checks that every closed table freed its players (each can open a new table at once) and that
nobody but the waiting host still sits; every `--every` lessons it prints what the store holds (students, match
ids, table rows, moves), the codes resting or in use, the file sizes, the process's memory and the class page's
refresh time. Exits 1 if a player was not freed or the moves kept grew with the term (they are dropped once a
closed table has rested).

    python benchmarks/class_term.py                 # 60 lessons, 30 students, 60 visitors a lesson
    python benchmarks/class_term.py --smoke         # 4 lessons, 4 students
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from leopard_tutor.class_codes import ClassTableError  # noqa: E402
from leopard_tutor.engine.moves import NEXT_HAND, move_to_data  # noqa: E402
from leopard_tutor.engine.turns import current_player  # noqa: E402
from leopard_tutor.lessons import LESSONS  # noqa: E402
from leopard_tutor.lessons.progress import CONCEPTS  # noqa: E402
from leopard_tutor.server.class_store import DATABASE_NAME, ClassStore  # noqa: E402
from leopard_tutor.server.referee import GONE_SECONDS, QUIET_SECONDS, Referee  # noqa: E402
from leopard_tutor.server.students import Students  # noqa: E402
from leopard_tutor.server.teacher import ClassPage  # noqa: E402

DAY = 86400.0
LESSON_SECONDS = 45 * 60.0
"""How long a lesson lasts on the simulated clock."""


class Clock:
    """The simulated time, moved on by the term."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Server:
    """The class server's records over the store in `folder`, opened again at each `restart`."""

    def __init__(self, folder: Path, clock: Clock, limit: int) -> None:
        self.folder, self.clock, self.limit = folder, clock, limit
        self.restarts = 0
        self._open()

    def _open(self) -> None:
        self.store = ClassStore.in_folder(self.folder)
        self.tables = Referee(self.store, limit=self.limit, clock=self.clock)
        self.students = Students(self.store, limit=self.limit, clock=self.clock)
        self.page = ClassPage(self.students, self.tables, "t" * 32)

    def restart(self) -> None:
        """Close the store and open everything again, as a server restarted between lessons."""
        self.store.close()
        self.restarts += 1
        self._open()

    def count(self, table: str) -> int:
        """Rows of `table` in the store."""
        return int(self.store.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def play_to_end(server: Server, code: str, visitors: tuple[str, str], rng: random.Random, stop: int | None) -> bool:
    """Play table `code` with random legal moves (each player making their own, the next deal by either) until the
    match ends, or `stop` moves have been made: whether the match ended."""
    tables = server.tables
    made = 0
    while code in tables.tables:
        live = tables.tables[code]
        match = live.match
        if stop is not None and made >= stop:
            return False
        if match.current.is_over:
            tables.move(visitors[0], code, len(live.moves), dict(NEXT_HAND))
        else:
            player = current_player(match.current)
            assert player is not None
            move = rng.choice(match.current.legal_moves())
            tables.move(visitors[player], code, len(live.moves), move_to_data(move))
        made += 1
    return True


def lesson(server: Server, number: int, roster: list[str], names: dict[str, str], rng: random.Random,
           options: argparse.Namespace, refreshes: list[float]) -> list[str]:
    """One lesson; the problems it found."""
    clock, tables, students = server.clock, server.tables, server.students
    problems: list[str] = []
    present = [visitor for visitor in roster if rng.random() < 0.9]
    for visitor in present:  # each names itself (at the first lesson, after a forget, or under a new name)
        if visitor not in names or rng.random() < 0.05:
            names[visitor] = f"Student {visitor[1:]}{'' if rng.random() < 0.5 else ' ' + chr(65 + number % 26)}"
        students.name(visitor, names[visitor], present)
        students.now(visitor, "learn", 1 + number % len(LESSONS), None)
        students.progress(visitor, {LESSONS[rng.randrange(len(LESSONS))].key: rng.randint(1, 3)},
                          {rng.choice(CONCEPTS): [rng.randint(0, 5), rng.randint(0, 3)]})
    for throwaway in range(options.visitors):  # never named: asks what is kept, reports, is refused
        visitor = f"t{number}-{throwaway}"
        students.me(visitor)
        try:
            students.now(visitor, "play")
            problems.append(f"lesson {number}: a visit without a name was given a record")
        except ClassTableError:
            pass  # refused: a record is made by a name only
    for _ in range(options.flood):  # one scripted tab opens a table and leaves it, again and again
        code = tables.open("flood", "Flood")
        tables.end("flood", code, "left")
    rng.shuffle(present)
    pairs = [(present[i], present[i + 1]) for i in range(0, len(present) - 1, 2)]
    host = present[-1] if len(present) % 2 else None
    for index, (first, second) in enumerate(pairs):
        code = tables.open(first, names[first])
        tables.join(second, names[second], code)
        seed, match = tables.tables[code].row.seed, tables.tables[code].match
        if index == 0:  # left half-way
            play_to_end(server, code, (first, second), rng, stop=20)
            tables.end(second, code, "left")
        elif index == 1:  # both players' pages go: abandoned once both have been gone ten minutes
            play_to_end(server, code, (first, second), rng, stop=30)
        else:
            play_to_end(server, code, (first, second), rng, stop=None)
            for visitor, seat in ((first, 0), (second, 1)):
                result = "drawn" if match.winner is None else "won" if match.winner == seat else "lost"
                for _ in range(2 if index == 2 else 1):  # one reports its match again: counted once
                    students.game(visitor, "classmate", result, seed[:16])
        for _ in range(options.refreshes_per_table):
            started = time.perf_counter()
            server.page.report()
            refreshes.append(time.perf_counter() - started)
    if host is not None:  # opens a table nobody joins, and goes home
        tables.open(host, names[host])
    clock.advance(LESSON_SECONDS)
    tables.report(roster[0], present=False)  # a page asks after the lesson: the sweep closes what is over
    tables.sweep()
    clock.advance(GONE_SECONDS)
    tables.sweep()
    seated = [visitor for visitor in [*roster, "flood"] if visitor in tables.seats]
    if seated:
        problems.append(f"lesson {number}: still seated after the lesson: {seated}")
    for visitor in [visitor for pair in pairs[:3] for visitor in pair]:  # every closed table freed its players
        try:
            code = tables.open(visitor, names[visitor])
            tables.end(visitor, code, "left")
        except ClassTableError as error:
            problems.append(f"lesson {number}: {visitor} could not open a table: {error.key}")
    clock.advance(2 * DAY)
    return problems


def figures(server: Server, label: str, refreshes: list[float]) -> str:
    """One line of what the store and the process hold now."""
    folder = server.folder
    sizes = sum((folder / f"{DATABASE_NAME}{tail}").stat().st_size
                for tail in ("", "-wal", "-shm") if (folder / f"{DATABASE_NAME}{tail}").exists())
    memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    tables = server.tables
    ordered = sorted(refreshes)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0
    median = statistics.median(ordered) if ordered else 0.0
    return (f"{label}: students {server.count('students')}, match ids {server.count('student_matches')}, "
            f"table rows {server.count('tables')}, moves {server.count('moves')}, live tables {len(tables.tables)}, "
            f"codes resting {len(tables.resting)}, closed kept for players {len(tables.last)}, "
            f"files {sizes / 2**20:.2f} MiB, peak memory {memory:.0f} MiB, "
            f"class page refresh median {median * 1000:.2f} ms p95 {p95 * 1000:.2f} ms (n={len(ordered)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", type=int, default=60)
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--visitors", type=int, default=60, help="throw-away visits a lesson")
    parser.add_argument("--flood", type=int, default=200, help="tables opened and left by one tab a lesson")
    parser.add_argument("--every", type=int, default=10, help="print the figures every this many lessons")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="4 lessons, 4 students: the figures' shape only")
    options = parser.parse_args()
    if options.smoke:
        options.lessons, options.students, options.visitors, options.flood, options.every = 4, 4, 3, 5, 2
    options.refreshes_per_table = 1 if options.smoke else 5
    rng = random.Random(options.seed)
    started = time.perf_counter()
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="leopard-term-") as folder:
        server = Server(Path(folder), Clock(), limit=1000)
        roster = [f"s{number}" for number in range(options.students)]
        names: dict[str, str] = {}
        newcomers = options.students
        moves_after: list[int] = []
        refreshes: list[float] = []
        print(f"{options.lessons} lessons two days apart, {options.students} students, {options.visitors} "
              f"throw-away visits and {options.flood} tables opened and left a lesson; codes rest "
              f"{QUIET_SECONDS / 60:.0f} min", flush=True)
        for number in range(1, options.lessons + 1):
            if number % 5 == 0:
                server.restart()
            if number == options.lessons // 2 + 1:
                server.tables.forget()
                server.students.forget()
                names.clear()
                print(f"lesson {number}: the teacher forgot the class", flush=True)
            if number % 7 == 0:  # one leaves the school, a new one comes
                roster[rng.randrange(len(roster))] = f"s{newcomers}"
                newcomers += 1
            problems += lesson(server, number, roster, names, rng, options, refreshes)
            moves_after.append(server.count("moves"))
            if number % options.every == 0:
                print(figures(server, f"after lesson {number}", refreshes), flush=True)
                refreshes = []
        print(f"restarts: {server.restarts}, distinct visitors: {newcomers + options.lessons * options.visitors + 1}, "
              f"took {time.perf_counter() - started:.0f} s")
        half = len(moves_after) // 2
        if moves_after[-1] > 2 * max(moves_after[:half] or [0]) + 1000:
            problems.append(f"the moves kept grew with the term: {moves_after[:half][-1:]} -> {moves_after[-1]}")
        server.store.close()
    print(f"problems: {len(problems)}")
    for problem in problems[:20]:
        print(f"  {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
