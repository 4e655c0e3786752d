"""Runs kept as JSON lines, one record a finished task, so that an interrupted run resumes where it stopped."""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Record = dict[str, Any]


def read_records(path: Path, keep: Callable[[Record], bool]) -> list[Record]:
    """The records in `path` (none if it does not exist yet) that `keep` accepts."""
    if not path.exists():
        return []
    return [record for line in path.read_text().splitlines() if line.strip() and keep(record := json.loads(line))]


def play_rest(path: Path, done: int, todo: list[Record], play: Callable[[Record], Record], workers: int,
              noun: str) -> list[Record]:
    """Play the tasks `todo` in `workers` processes, appending each record to `path` as it ends (the order they
    end in), with progress on stderr; the records played. `done` is how many `noun` the file held already."""
    path.parent.mkdir(parents=True, exist_ok=True)
    print(f"{done} {noun} already in {path}; playing {len(todo)} with {workers} process(es)", file=sys.stderr)
    started = time.time()
    played = []
    with path.open("a") as out, multiprocessing.Pool(workers) as pool:
        for count, record in enumerate(pool.imap_unordered(play, todo), start=1):
            out.write(json.dumps(record) + "\n")
            out.flush()
            played.append(record)
            if count % 10 == 0 or count == len(todo):
                print(f"  {count}/{len(todo)} {noun}, {time.time() - started:.0f} s", file=sys.stderr)
    return played
