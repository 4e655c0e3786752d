"""Compile the site's Python to bytecode, run by Pyodide's own interpreter (see bytecode.mjs).

Imports in the browser are the largest part of the kernel's start-up, and compiling source there is
slow; Pyodide ships its own packages the same way (bytecode only). Each archive (a wheel, or the
standard library's zip) is rewritten with every module as `name.pyc` in place of `name.py`, leaving
out the files a job says to drop and applying its patches (exact text replacements) first.
Only standard-library code, so that it runs inside Pyodide.
"""

from __future__ import annotations

import importlib._bootstrap_external as bootstrap
import importlib.util
import sys
import warnings
import zipfile
from typing import Any


def unchecked_pyc(source: bytes, path: str, optimize: int = 0) -> bytes:
    """Bytecode for `source` (at the optimization level `optimize`) as an unchecked hash-based .pyc (PEP 552):
    used without a source to check."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # old escapes in third-party code: their business
        code = compile(source, path, "exec", dont_inherit=True, optimize=optimize)
    return bytes(bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(source), False))


def dropped(name: str, job: dict[str, Any]) -> bool:
    """Whether the archive member `name` is left out: under a folder `job["drop"]` names (as a path
    prefix, or anywhere as "*/folder/"), unless `job["keep"]` names it."""
    if name in job["keep"]:
        return False
    return any(name.startswith(rule) if not rule.startswith("*/") else f"/{rule[2:]}" in f"/{name}"
               for rule in job["drop"])


def compile_archive(job: dict[str, Any]) -> tuple[int, int]:
    """Write job["target"]: the zip archive job["source"] with its modules compiled (members installed
    under job["root"], at job.get("optimize", 0)), what it drops left out and its patches applied, compressed
as much as zip can; returns (modules, files left out)."""
    compiled = left_out = 0
    patches: dict[str, list[tuple[str, str]]] = {}
    for name, old, new in job["patches"]:
        patches.setdefault(name, []).append((old, new))
    with (zipfile.ZipFile(job["source"]) as archive,
          zipfile.ZipFile(job["target"], "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out):
        for info in archive.infolist():
            name = info.filename
            if dropped(name, job):
                left_out += 1
                continue
            data = archive.read(info)
            for old, new in patches.pop(name, []):
                if data.count(old.encode()) != 1:
                    raise SystemExit(f"{job['source']}: {name} does not hold {old!r} exactly once")
                data = data.replace(old.encode(), new.encode())
            if name.endswith(".py"):
                out.writestr(name + "c", unchecked_pyc(data, job["root"] + name, job.get("optimize", 0)))
                compiled += 1
            else:
                out.writestr(info, data, compresslevel=9)
    if patches:
        raise SystemExit(f"{job['source']} has no {', '.join(patches)} to patch")
    return compiled, left_out


def main(jobs: list[dict[str, Any]]) -> None:
    """Compile every job, printing a line for each."""
    if sys.implementation.cache_tag != "cpython-313":
        raise SystemExit(f"bytecode must come from Pyodide's Python 3.13, not {sys.implementation.cache_tag}")
    for job in jobs:
        compiled, left_out = compile_archive(job)
        print(f"  {job['source'].rsplit('/', 1)[-1]}: {compiled} modules compiled, {left_out} files left out")
