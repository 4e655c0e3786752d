"""The research scripts of benchmarks/belief_1963 run end to end on a few hands (the scripts directly in benchmarks/
have their smoke runs in tests/benchmark_smokes.py): rows against either player, a fit measured on other rows, a
screen of both sides and their comparison, and the belief (with the weights the fit wrote) against the master."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "benchmarks" / "belief_1963"


def run(*args: object, cwd: Path) -> str:
    """What one of the scripts printed, run with this interpreter (it fails the test if the script fails)."""
    done = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, timeout=600, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_rows_fit_screen_and_comparison(tmp_path: Path) -> None:
    names = list(json.loads((SCRIPTS / "weights.json").read_text())["weights"])
    rows = tmp_path / "rows.jsonl"
    run(SCRIPTS / "gen.py", 110001, 2, rows, cwd=tmp_path)
    decisions = [json.loads(line) for line in rows.read_text().splitlines()]
    assert {d["seed"] for d in decisions} == {110001, 110002}
    for decision in decisions:
        assert all(len(row) == len(names) + 2 for row in decision["rows"])
        assert sum(row[-2] for row in decision["rows"]) == decision["h"]  # the other hand's cards, each counted once
        assert sum(row[-1] for row in decision["rows"]) == decision["n"]

    against_master = tmp_path / "rows_master.jsonl"
    run(SCRIPTS / "gen.py", 110003, 1, against_master, "master", cwd=tmp_path)
    assert {json.loads(line)["seed"] for line in against_master.read_text().splitlines()} == {110003}

    weights = tmp_path / "weights.json"
    printed = run(SCRIPTS / "train.py", rows, "--weights", weights, "--measure-on", against_master, cwd=tmp_path)
    assert f"{len(decisions)} decisions of 2 hands, 1 of them held out" in printed
    assert "held out: the belief" in printed and "knowing the whole hand" in printed
    assert "rows_master.jsonl: the belief" in printed
    fitted = json.loads(weights.read_text())["weights"]
    assert list(fitted) == names and all(math.isfinite(value) for value in fitted.values())

    for side in ("belief", "master"):
        run(SCRIPTS / "screen.py", side, 5, 2, tmp_path / f"{side}.jsonl", 0.005, cwd=tmp_path)
        records = [json.loads(line) for line in (tmp_path / f"{side}.jsonl").read_text().splitlines()]
        assert [(r["a"], r["seed"], len(r["points"])) for r in records] == [(side, 5, 2), (side, 6, 2)]
    printed = run(SCRIPTS / "cmp.py", tmp_path / "belief.jsonl", tmp_path / "master.jsonl", cwd=tmp_path)
    assert "paired, 2 pairs: share" in printed
    run(SCRIPTS / "screen.py", "belief", 7, 1, tmp_path / "against.jsonl", 0.005, "master", weights, cwd=tmp_path)
    record = json.loads((tmp_path / "against.jsonl").read_text())
    assert (record["a"], record["b"], len(record["points"])) == ("belief", "master", 2)
