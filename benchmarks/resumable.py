"""Runs kept as JSON lines, one record a finished task, so that an interrupted run resumes where it stopped."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

Record = dict[str, Any]


def read_records(path: Path, keep: Callable[[Record], bool]) -> list[Record]:
    """The records `path` holds (none if it does not exist yet) that `keep` accepts."""
    if not path.exists():
        return []
    return [record for line in path.read_text().splitlines() if line.strip() and keep(record := json.loads(line))]


def complete(path: Path, tasks: list[Record], key: Callable[[Record], Hashable], play: Callable[[Record], Record],
             workers: int, noun: str) -> list[Record]:
    """The records of `tasks`: those `path` holds, and the rest played in `workers` processes, each appended to
    `path` as it ends, with progress on stderr. `key` names a task and its record alike; `noun` names them in the
    progress lines ('pairs')."""
    wanted = {key(task) for task in tasks}
    records = read_records(path, lambda record: key(record) in wanted)
    done = {key(record) for record in records}
    todo = [task for task in tasks if key(task) not in done]
    if not todo:
        return records
    path.parent.mkdir(parents=True, exist_ok=True)
    print(f"{len(done)} {noun} already in {path}; playing {len(todo)} with {workers} process(es)", file=sys.stderr)
    started = time.time()
    with path.open("a") as out, multiprocessing.Pool(workers) as pool:
        for count, record in enumerate(pool.imap_unordered(play, todo), start=1):
            out.write(json.dumps(record) + "\n")
            out.flush()
            records.append(record)
            if count % 10 == 0 or count == len(todo):
                print(f"  {count}/{len(todo)} {noun}, {time.time() - started:.0f} s", file=sys.stderr)
    return records


def run_with_out(parser: argparse.ArgumentParser, args: argparse.Namespace, smoke: dict[str, Any],
                 run: Callable[[argparse.Namespace], int]) -> int:
    """`run(args)`; with `--smoke`, on the `smoke` settings and into a scratch file unless `--out` is given; without
    it, `--out` is required."""
    if args.smoke:
        vars(args).update(smoke)
        if args.out is None:
            with tempfile.TemporaryDirectory(prefix="benchmark-smoke-") as scratch:
                args.out = Path(scratch) / "smoke.jsonl"
                return run(args)
    if args.out is None:
        parser.error("--out is required (a JSON-lines file the results are appended to)")
    return run(args)
