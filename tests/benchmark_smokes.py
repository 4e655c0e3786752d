"""The smoke run of every script in benchmarks/ (`--smoke`: a handful of clicks, one hand, one page load), shared by
tests/test_benchmarks_smoke.py and tests/browser/test_browser_benchmarks_smoke.py: what each must print, how long
it may take, and running one as the README does (a subprocess of this checkout), so a benchmark the README cites
cannot break unnoticed. Only the shape of the figures is checked, never their values."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
LIBRARIES = frozenset({"reference_engine.py", "shares.py", "resumable.py"})
"""Modules in benchmarks/ that are imported, never run (reference_engine.py: tests/test_reference_engine.py; shares.py:
the statistics the scripts print, resumable.py: the resume loop of duel.py and tournament.py, both run by their
smokes)."""
MS = r"[\d.]+ ms"


@dataclass(frozen=True)
class Smoke:
    """One script's smoke run: the lines it must print (regular expressions, each matching a whole line), the
    seconds it may take at most on a busy machine, and whether it drives Chromium; `modes`, the script's other
    modes smoke-run after it, each (its option, the lines it must print), in as many seconds at most."""

    lines: tuple[str, ...]
    timeout: float
    browser: bool = False
    modes: tuple[tuple[str, tuple[str, ...]], ...] = ()


def _both_servers(label: str) -> tuple[str, ...]:
    return (rf"\[{label}\] click -> updated board: +median +{MS} +p95 +{MS} +\(n=6\)",
            rf"\[{label}\] discard \+ reply -> board: +median +{MS} +p95 +{MS} +\(n=3\)")


SMOKES: dict[str, Smoke] = {
    "class_page.py": Smoke((
        r"rows shown per refresh at most: \d+",
        rf"1000 records: refresh \(report \+ JSON, \d+ rows shown\): median +{MS} +max +{MS} +\(n=3\)",
        rf"1000 records: every row at once \(before the paging\): median +{MS} +\(n=1\)",
        rf"1000 records: CSV of every row: +{MS} in \d+ parts, longest part +{MS}",
    ), timeout=120),
    "class_term.py": Smoke((
        r"4 lessons two days apart, 4 students, 3 throw-away visits and 5 tables opened and left a lesson; .*",
        *(rf"after lesson {lesson}: students \d+, match ids \d+, table rows \d+, moves \d+, live tables \d+, codes "
          rf"resting \d+, closed kept for players \d+, files [\d.]+ MiB, peak memory \d+ MiB, class page refresh "
          rf"median +{MS} p95 +{MS} \(n=\d+\)" for lesson in (2, 4)),
        r"lesson 3: the teacher forgot the class",
        r"restarts: \d+, distinct visitors: \d+, took \d+ s",
        r"problems: 0",
    ), timeout=120),
    "class_tables.py": Smoke((
        r"1 tables \(2 players\), pace 0\.3 s, \d+ processors, \d+ s",
        rf"other's move shown: p50 +{MS} +p95 +{MS} +max +{MS} +\(n=6\)",
        r"moves stored: 6, lost or duplicated: 0",
        r"errors: 0",
    ), timeout=300, modes=(("--pair", (
        r"5 students, 3 arriving at a time \(in \d+ s\), \d+ processors, \d+ s",
        *(rf"round {number}: 2 tables, 1 against the computer; pair request {MS}; round named on each board: p50 +{MS} "
          rf"+p95 +{MS} +max +{MS} +\(n=5\); goal p95 <= 5 s: (NOT )?met" for number in (1, 2)),
        rf"class page refresh watching 2 tables \(GET class \+ 2 GET watch, in turn, every 2 s while the tables play "
        rf"at a pace of 0\.3 s\): p50 +{MS} +p95 +{MS} +max +{MS} +\(n=3\); goal p95 <= 100 ms: (NOT )?met",
        rf"  GET class: p50 +{MS} +p95 +{MS} +max +{MS} +\(n=3\)",
        rf"  GET watch: p50 +{MS} +p95 +{MS} +max +{MS} +\(n=6\)",
        rf"  other's move shown meanwhile: p50 +{MS} +p95 +{MS} +max +{MS} +\(n=\d+\); moves stored: \d+, lost or "
        r"duplicated: 0",
        r"never named their round: 0, errors: 0",
    )),)),
    "app_speed.py": Smoke((
        r"load average at start: .*",
        *_both_servers(r"TCP_NODELAY fix on \(default\)"),
        r"\[TCP_NODELAY fix on \(default\)\] kernel RSS \(MB\) after the clicks, each kernel: [\d.]+(, [\d.]+)*",
        r"\[TCP_NODELAY fix on \(default\)\] kernel RSS \(MB\) with all \d+ tabs opened: [\d.]+(, [\d.]+)*",
        *_both_servers(r"stock \(Nagle on\)"),
        rf"\[preheated\] open URL -> hand drawn: +median +{MS} +p95 +{MS} +\(n=1\)",
        rf"\[preheated\] open URL -> first click answered: +median +{MS} +p95 +{MS} +\(n=1\)",
        rf"\[preheated, returning visitor\] open URL -> first click answered: +median +{MS} +p95 +{MS} +\(n=1\)",
        rf"\[cold \(no preheat\)\] open URL -> hand drawn: +median +{MS} +p95 +{MS} +\(n=1\)",
        rf"\[cold \(no preheat\)\] open URL -> first click answered: +median +{MS} +p95 +{MS} +\(n=1\)",
    ), timeout=600, browser=True),
    "classroom_load.py": Smoke((
        r"2 simulated students \+ 1 Chromium pages, level beginner: .*",
        r"join \(GET, waiting in line, websocket, widget states, a first click answered; pages: until the hand is "
        r"drawn\): p50 +[\d.]+ ms .*\(n=3\).*",
        rf"  pick +p50 +{MS} +p95 +{MS} +max +{MS} +\(n=\d+\)",
        rf"  page: pick +p50 +{MS} +p95 +{MS} +max +{MS} +\(n=\d+\)",
        r"errors: 0",
        r"live kernels at peak: \d+ .*",
        r"memory at peak: kernels PSS [\d.]+ GiB .*",
    ), timeout=600, browser=True),
    "site_speed.py": Smoke((
        r"usable board, cold cache: median [\d.]+ s \(runs: [\d.]+\) .*",
        r"usable board, warm cache: median [\d.]+ s \(runs: [\d.]+\) .*",
        r"click on a card to board redrawn: p50 [\d.]+ ms, p95 [\d.]+ ms \(n=4\) .*",
        r"a play and the beginner's reply to board redrawn: p50 [\d.]+ ms, p95 [\d.]+ ms \(n=1\)",
        r"a play and the master's reply, in the page: max [\d.]+ s \(n=1: [\d.]+\)",
        r"expert on Pyodide \(Node\): budget [\d.]+ s, a move took at most [\d.]+ s, deals searched median \d+ .*",
        r"expert on CPython: budget [\d.]+ s, a move took at most [\d.]+ s, deals searched median \d+ .*",
        r"master on Pyodide \(Node\): budget [\d.]+ s, a move took at most [\d.]+ s, deals searched median \d+ .*",
        r"master on CPython: budget [\d.]+ s, a move took at most [\d.]+ s, deals searched median \d+ .*",
        r"site on disk: [\d.]+ MB in \d+ files",
        r"one cold visit downloads \d+ files: [\d.]+ MB raw, [\d.]+ MB gzipped .*",
    ), timeout=900, browser=True),
    "session_descriptors.py": Smoke((
        r"idle, with its preheated kernel: \d+ descriptors",
        r"1 connected session\(s\): \d+ \(\+-?\d+\)",
        r"a second websocket to session 1: \d+ \(\+-?\d+\)",
        r"per connected session: -?[\d.]+ descriptors",
    ), timeout=300),
    "suite_cpu.py": Smoke((
        r"\d+ passed in [\d.]+s",
        *(rf"{kind} +[\d.]+ s in +\d+ processes" for kind in ("Chromium", "kernels", "servers", "pytest", "Node",
                                                                "other")),
        r"pytest exited with 0; wall [\d.]+ s; processor time seen [\d.]+ s on \d+ cores",
    ), timeout=120),
    "engine_speed.py": Smoke((
        r"Agreement: engine and reference list the same legal moves .* in 10 random hands of each rule set\.",
        *(rf"{key} +\d+/s +\d+/s +[\d.]+x \(.*\) +[\d.]+ +[\d.]+ µs per call, +[\d.]+ moves listed"
          for key in ("REVISED_2008", "ORIGINAL_1963", "RUNNING_LEOPARD")),
    ), timeout=120),
    "ai_speed.py": Smoke((
        r"expert on .*, 1 hands, budget 0\.1 \(wall-clock time\)",
        r"  every decision: \d+ decisions, median [\d.]+ ms, p95 [\d.]+ ms, max [\d.]+ ms",
        r"  decisions with a choice: \d+ decisions, median [\d.]+ ms, p95 [\d.]+ ms, max [\d.]+ ms",
        r"  deals searched: median [\d.]+, mean [\d.]+, min \d+, max \d+",
    ), timeout=120),
    "new_match_flood.py": Smoke((
        r"without the pace: \d+ clicks in \d+ s, \d+ matches made, \d+ expert moves, .* of one processor\)",
        r"with the pace   : \d+ clicks in \d+ s, \d+ matches made, \d+ expert moves, .* of one processor\)",
    ), timeout=120),
    "review_marks.py": Smoke(tuple(
        rf"{level}: \d+ moves: \d+ good, \d+ inaccuracy, \d+ mistake, \d+ blunder; cost deciles [\d., ]+, "
        r"largest [\d.]+" for level in ("beginner", "casual", "intermediate")), timeout=300),
    "review_speed.py": Smoke((
        r"review of each hand: \d+ deals a decision, bounded finish [\d.]+ s; learner thinks 0\.0 s a move",
        r"  hand 1: \d+ decisions over \d+ s; at its end \d+ fully searched; review shown [\d.]+ s after the end .*",
    ), timeout=120, modes=(("--hints", (
        r"review of each hand: \d+ deals a decision, bounded finish [\d.]+ s; learner thinks 0\.0 s a move",
        r"  hand 1: (\d+) decisions over \d+ s; at its end \1 fully searched; review shown [\d.]+ s after the end "
        r"\(complete\).*",
        rf"hints \(REVISED_2008\): \d+, median +{MS}, p95 +{MS}, max +{MS}",
    )),)),
    "duel.py": Smoke((
        r"duel master \(A\) vs expert@20b2e17 \(B\), REVISED_2008, 1 deals a move: 1 pairs .*",
        r"  pairs won by A: \d, tied: \d, lost: \d; share won \(a tie counts half\) [\d.]+ "
        r"\(Wilson 95% CI [\d.]+-[\d.]+\)",
        r"  mean points a hand A - B: [+-][\d.]+ \(standard error nan\)",
        rf"  A master move time: p50 {MS}, p95 {MS} \(\d+ moves with a choice\)",
        rf"  B expert@20b2e17 move time: p50 {MS}, p95 {MS} \(\d+ moves with a choice\)",
    ), timeout=300),
    "tournament.py": Smoke((
        r"pairing expert vs intermediate: 2 matches \(1 seeds, seats swapped\), search budget .* s, deal cap 1",
        r"  expert wins \d+, draws \d+, losses \d+: win rate [\d.]+ \(95% CI [\d.]+-[\d.]+\)",
        r"  expert decision time: median [\d.]+ ms, p95 [\d.]+ ms, max [\d.]+ ms over \d+ decisions",
        r"  intermediate decision time: median [\d.]+ ms, .*",
        r"  expert deals searched per move \(moves with a choice\): median 1, .*",
    ), timeout=300),
}
"""Every script in benchmarks/ but the LIBRARIES, and what its smoke run must print."""


def stop_group(process: subprocess.Popen[str]) -> None:
    """Stop `process`, started in a session of its own, and everything it started (its process group)."""
    for signal_number, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, signal_number)
        except ProcessLookupError:
            return
        try:
            process.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


def run_smoke(script: str, *extra: str) -> str:
    """Run `benchmarks/<script> --smoke <extra>`, then with each of its other `modes`, with this checkout's code and
    return what they printed; fail the test if one exits with an error, runs over its time, or misses one of its
    figure lines."""
    smoke = SMOKES[script]
    runs = [((), smoke.lines), *(((option,), lines) for option, lines in smoke.modes)]
    return "".join(run_one(script, [*mode, *extra], lines, smoke.timeout) for mode, lines in runs)


def run_one(script: str, extra: list[str], lines: tuple[str, ...], timeout: float) -> str:
    """Run `benchmarks/<script> --smoke <extra>` within `timeout` seconds and return what it printed, having checked
    it printed each of `lines`."""
    env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT), *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                                       if p and p != str(ROOT))])}
    options = ["--smoke", *extra]
    command = [sys.executable, str(BENCHMARKS / script), *options]
    called = " ".join([script, *options])
    started = time.monotonic()
    # a process group of its own, so that a run over its time is stopped with the servers and browser it started
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
                          start_new_session=True) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            stop_group(process)
            try:
                out, err = process.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                out, err = "(kept open by a process it started)", ""
            pytest.fail(f"{called} ran over {timeout:.0f} s; it printed:\n{out}\n{err[-4000:]}")
    shown = (f"{called} exited with {process.returncode} after {time.monotonic() - started:.0f} s:\n"
             f"{out}\n{err[-4000:]}")
    assert process.returncode == 0, shown
    missing = [line for line in lines if not re.search(rf"^{line}$", out, re.MULTILINE)]
    assert not missing, f"{called} did not print a line matching {missing}; {shown}"
    return out
