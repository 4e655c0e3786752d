"""The static site's builder (website/build.py, website/bytecode.py) on small archives made here: what a
wheel tells the Pyodide lock, what is left out, patches applied exactly once, and bytecode that imports.
(The whole build, and the site it makes, is tested in a browser by tests/browser/test_site.py.)"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from project_scripts import load_site_tool

build = load_site_tool("build")
bytecode = load_site_tool("bytecode")


def wheel(path: Path, files: dict[str, str], requires: tuple[str, ...] = ()) -> Path:
    """A wheel holding `files`, with METADATA naming its requirements."""
    name, version = path.name.split("-")[:2]
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in files.items():
            archive.writestr(member, text)
        lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}",
                 *(f"Requires-Dist: {r}" for r in requires)]
        archive.writestr(f"{name}-{version}.dist-info/METADATA", "\n".join(lines) + "\n")
    return path


def test_a_wheel_tells_the_lock_its_name_imports_and_browser_requirements(tmp_path: Path) -> None:
    path = wheel(tmp_path / "My_Pkg-1.2-py3-none-any.whl",
                 {"my_pkg/__init__.py": "", "my_pkg/sub/__init__.py": "", "helper.py": "", "data/x.json": "{}"},
                 requires=("traitlets>=5", "pexpect; sys_platform != 'emscripten'", "pytest; extra == 'test'",
                           "Typing_Extensions"))
    name, version, imports, requires = build.wheel_facts(path)
    assert (name, version, imports) == ("my-pkg", "1.2", ["helper", "my_pkg"])
    assert requires == ["traitlets", "typing-extensions"]  # nothing for other platforms, nothing optional


def test_a_wheels_name_carries_its_contents_digest_as_a_build_tag(tmp_path: Path) -> None:
    """A wheel changed by a new build changes its address (static/ is kept for a year): the build tag is its SHA-256,
    led by a digit as build tags are; the name, version and tags stay, so the lock still reads it."""
    one = wheel(tmp_path / "demo-1.0-py2.py3-none-any.whl", {"demo/__init__.py": "A = 1\n"})
    named = build.content_named(one)
    name, version, tag, *tags = named[:-len(".whl")].split("-")
    assert (name, version, tags) == ("demo", "1.0", ["py2.py3", "none", "any"])
    assert tag == "0" + build.sha256(one)[:12]
    (tmp_path / "other").mkdir()
    other = wheel(tmp_path / "other" / "demo-1.0-py2.py3-none-any.whl", {"demo/__init__.py": "A = 2\n"})
    assert build.content_named(other) != named


def test_what_is_left_out_and_what_is_kept() -> None:
    job = {"drop": ["*/tests/", "pkg-1.0.data/", "pygments/lexers/"], "keep": ["pygments/lexers/python.py"]}
    assert bytecode.dropped("ipywidgets/widgets/tests/test_x.py", job)
    assert bytecode.dropped("tests/conftest.py", job)
    assert not bytecode.dropped("ipywidgets/widgets/testsuite.py", job)
    assert bytecode.dropped("pkg-1.0.data/data/share/x.js", job)
    assert bytecode.dropped("pygments/lexers/rust.py", job)
    assert not bytecode.dropped("pygments/lexers/python.py", job)
    assert not bytecode.dropped("pygments/lexer.py", job)


def test_modules_become_bytecode_that_imports_with_its_patches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = wheel(tmp_path / "demo-1.0-py3-none-any.whl",
                   {"demo/__init__.py": "VALUE = 'as shipped'\n", "demo/tests/test_demo.py": "",
                    "demo/data.txt": "kept as it is"})
    target = tmp_path / "out" / source.name
    target.parent.mkdir()
    job = {"source": str(source), "target": str(target), "root": "/lib/site-packages/", "drop": ["*/tests/"],
           "keep": [], "patches": [["demo/__init__.py", "'as shipped'", "'patched'"]]}
    assert bytecode.compile_archive(job) == (1, 1)
    with zipfile.ZipFile(target) as archive:
        assert sorted(archive.namelist()) == ["demo-1.0.dist-info/METADATA", "demo/__init__.pyc", "demo/data.txt"]
    monkeypatch.syspath_prepend(str(target))  # this Python imports the bytecode it made, from the zip
    monkeypatch.delitem(sys.modules, "demo", raising=False)
    import demo  # type: ignore[import-not-found]

    assert demo.VALUE == "patched"
    job["patches"] = [["demo/__init__.py", "'not there'", "''"]]
    with pytest.raises(SystemExit, match="exactly once"):
        bytecode.compile_archive(job)


def test_a_stub_stands_in_with_no_module_and_every_trim_is_explained(tmp_path: Path) -> None:
    stub = build.stub_wheel("jedi", tmp_path)
    assert build.wheel_facts(stub) == ("jedi", "0.0.0", [], [])
    assert all(trim.why for trim in build.TRIMS.values()) and all(build.NOT_IN_BROWSER.values())
    job = build.compile_job(tmp_path / "pygments-2.19.1-py3-none-any.whl", tmp_path)
    assert "pygments/lexers/python.py" in job["keep"] and "pygments-2.19.1.data/" in job["drop"]


def test_the_app_imports_without_what_the_browser_lacks() -> None:
    """The site's Python has no sqlite3 (Pyodide leaves it out): only the server's class store may need it."""
    code = ("import sys; sys.modules['sqlite3'] = None; import leopard_tutor.app, leopard_tutor.widgets; "
            "leopard_tutor.app.build_app().follow_link('table=KRTQ&tab=Play')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]


def test_the_standard_library_leaves_out_what_nothing_imports_and_its_docstrings(tmp_path: Path) -> None:
    job = build.compile_job(tmp_path / "python_stdlib.zip", tmp_path)
    assert job["optimize"] == 2 and job["root"] == "/lib/python313.zip/"
    assert bytecode.dropped("multiprocessing/pool.py", job) and bytecode.dropped("encodings/cp1252.py", job)
    assert not bytecode.dropped("encodings/utf_8.py", job) and not bytecode.dropped("json/decoder.py", job)
    assert not bytecode.dropped("asyncio/events.py", job) and not bytecode.dropped("_pyrepl/pager.py", job)
    assert all(build.STDLIB_LEFT_OUT.values())
    for kept in build.STDLIB_KEPT:  # each names a file inside a folder left out, else it would say nothing
        assert any(kept.startswith(folder) for folder in build.STDLIB_LEFT_OUT if folder.endswith("/")), kept
    wheel_job = build.compile_job(tmp_path / "ipython-9.0.2-py3-none-any.whl", tmp_path)
    assert wheel_job.get("optimize", 0) == 0  # packages keep their docstrings (IPython's magics read theirs)
    assert bytecode.dropped("IPython/terminal/shortcuts/auto_match.py", wheel_job)
    assert not bytecode.dropped("IPython/lib/pretty.py", wheel_job)


def test_an_optimized_job_compiles_without_docstrings_or_asserts(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    source = wheel(tmp_path / "lean-1.0-py3-none-any.whl",
                   {"lean/__init__.py": '"""Said."""\n\ndef check():\n    assert False\n    return "ran"\n'})
    target = tmp_path / "out" / source.name
    target.parent.mkdir()
    job = {"source": str(source), "target": str(target), "root": "/lib/", "drop": [], "keep": [], "patches": [],
           "optimize": 2}
    assert bytecode.compile_archive(job) == (1, 0)
    monkeypatch.syspath_prepend(str(target))
    monkeypatch.delitem(sys.modules, "lean", raising=False)
    import lean  # type: ignore[import-not-found]

    assert lean.__doc__ is None and lean.check() == "ran"


def test_the_start_page_speaks_the_builds_language_and_keeps_a_link_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The start page passes a teacher's query (?lang=es too) on to the app; its own words, for a browser without
    JavaScript, and its <html lang> are in the build's language."""
    page = build.start_page("voici/render/leopard_tutor.html")
    assert page.startswith('<!doctype html>\n<html lang="en">') and "window.location.search" in page
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", "es")
    spanish = build.start_page("voici/render/leopard_tutor.html")
    assert '<html lang="es">' in spanish and "Abrir" in spanish
