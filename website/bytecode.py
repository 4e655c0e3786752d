"""Compile the site's Python to bytecode, run by Pyodide's own interpreter (see bytecode.mjs).

Imports in the browser are the largest part of the kernel's start-up, and compiling source there is
slow; Pyodide ships its own packages the same way (bytecode only). Each archive (a wheel, or the
standard library's zip) is rewritten with every module as `name.pyc` in place of `name.py`, and
the folders named in DROP left out. Only standard-library code, so that it runs inside Pyodide.
"""

from __future__ import annotations

import importlib._bootstrap_external as bootstrap
import importlib.util
import sys
import warnings
import zipfile

DROP = ("tests/",)
"""Folders no import of the app reaches (the packages' own test suites)."""


def unchecked_pyc(source: bytes, path: str) -> bytes:
    """Bytecode for `source` as an unchecked hash-based .pyc (PEP 552): used without a source to check."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # old escapes in third-party code: their business
        code = compile(source, path, "exec", dont_inherit=True)
    return bytes(bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(source), False))


def compile_archive(source: str, target: str, install_root: str, drop_tests: bool) -> tuple[int, int]:
    """Write `target`: the zip archive `source` with its modules compiled; returns (modules, files dropped)."""
    compiled = dropped = 0
    with zipfile.ZipFile(source) as archive, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info in archive.infolist():
            name = info.filename
            if drop_tests and any(f"/{folder}" in name for folder in DROP):
                dropped += 1
                continue
            data = archive.read(info)
            if name.endswith(".py"):
                out.writestr(name + "c", unchecked_pyc(data, install_root + name))
                compiled += 1
            else:
                out.writestr(info, data)
    return compiled, dropped


def main(jobs: list[list[str]]) -> None:
    """Compile every (source, target, install root, drop tests "1"/"0") job, printing a line for each."""
    if sys.implementation.cache_tag != "cpython-313":
        raise SystemExit(f"bytecode must come from Pyodide's Python 3.13, not {sys.implementation.cache_tag}")
    for source, target, root, drop in jobs:
        compiled, dropped = compile_archive(source, target, root, drop == "1")
        print(f"  {source.rsplit('/', 1)[-1]}: {compiled} modules compiled, {dropped} test files left out")
