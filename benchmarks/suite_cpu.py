"""Where a test run's processor time goes: pytest run with the given arguments while every process it starts is
looked at twice a second, then the processor seconds of each kind (Chromium, the app's servers, their kernels, pytest
and its workers, Node: Playwright's driver, the rest) and their sum, beside the run's wall time. The figures are a
lower bound: a process's time after the last look at it is missed, and so is a process that lived less than a look.

    .venv/bin/python benchmarks/suite_cpu.py -- -n 2 --dist loadscope -m browser    (the suite's browser half)
    .venv/bin/python benchmarks/suite_cpu.py --smoke    (tests/test_cards.py alone)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
KINDS = (("Chromium", ("chromium", "chrome")), ("kernels", ("ipykernel", "kernel-")),
         ("servers", ("leopard_tutor.cli",)), ("pytest", ("pytest", "execnet", "xdist", "exec(eval(sys.stdin")),
         ("Node", ("node",)))
"""Each kind of process and the words of a command line that make it one (the first kind matching wins)."""
LOOK_EVERY = 0.5  # seconds between looks at the processes


def kind_of(command: str) -> str:
    """The kind of process a command line belongs to ("other" if none)."""
    return next((kind for kind, words in KINDS if any(word in command for word in words)), "other")


def descendants(root: psutil.Process) -> list[psutil.Process]:
    """`root` and every process below it."""
    try:
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []


def watch(root: psutil.Process, done: threading.Event, seen: dict[tuple[int, float], tuple[str, float]]) -> None:
    """Until `done`, note the processor seconds and kind of every process under `root`, by (pid, start time)."""
    while not done.is_set():
        for process in descendants(root):
            try:
                with process.oneshot():
                    times = process.cpu_times()
                    key = (process.pid, process.create_time())
                    seen[key] = (kind_of(" ".join(process.cmdline())), times.user + times.system)
            except psutil.Error:
                continue
        done.wait(LOOK_EVERY)


def main() -> None:
    """Run pytest, then print its wall time and where its processor time went."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="run tests/test_cards.py alone")
    parser.add_argument("pytest_args", nargs="*", help="pytest's arguments (after --)")
    args = parser.parse_args()
    pytest_args = ["-q", "tests/test_cards.py"] if args.smoke else args.pytest_args
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *pytest_args]
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen: dict[tuple[int, float], tuple[str, float]] = {}
    done = threading.Event()
    watcher = threading.Thread(target=watch, args=(psutil.Process(process.pid), done, seen), daemon=True)
    watcher.start()
    out, _ = process.communicate()
    done.set()
    watcher.join()
    wall = time.monotonic() - started
    print(out.rstrip().splitlines()[-1] if out.strip() else "(pytest printed nothing)")
    seconds, counts = Counter[str](), Counter[str]()
    for kind, cpu in seen.values():
        seconds[kind] += cpu
        counts[kind] += 1
    for kind in [*(k for k, _ in KINDS), "other"]:
        print(f"{kind:9} {seconds[kind]:8.1f} s in {counts[kind]:4d} processes")
    print(f"pytest exited with {process.returncode}; wall {wall:.1f} s; processor time seen "
          f"{sum(seconds.values()):.1f} s on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
