"""Build the tutor's static website (Voici on Pyodide) into build/site/, from pinned inputs.

    python website/build.py fetch   # download the pinned inputs into .site-cache/inputs/ (network)
    python website/build.py build   # assemble the site from them (no network needed)

`scripts/site.sh` runs both with the builder's own tools (website/requirements-build.txt), the second
in a network namespace of its own when the machine allows it. The site is the app notebook rendered
by Voici, a Pyodide runtime with every wheel the kernel needs listed in its lock (so Pyodide loads
them all at start-up, in parallel, and nothing is installed from a package index), and a start page.
"""

from __future__ import annotations

import argparse
import email.parser
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
WEBSITE = ROOT / "website"
INPUTS_FILE = WEBSITE / "inputs.json"
CACHE = ROOT / ".site-cache" / "inputs"
STAGE = ROOT / "build" / "site-stage"
OUTPUT = ROOT / "build" / "site"
NOTEBOOK = ROOT / "notebooks" / "leopard_tutor.ipynb"
TEMPLATES = ROOT / "leopard_tutor" / "share"
TEMPLATE = "leopard"
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
KERNEL_EXTENSION = "@jupyterlite/pyodide-kernel-extension"
KERNEL_WHEELS = ("piplite", "pyodide_kernel", "ipykernel", "widgetsnbextension-4")
"""Wheels shipped with the kernel extension that its kernel imports: piplite, the kernel, the ipykernel
shim and the widgetsnbextension 4 stub (ipywidgets asks for it; the front end is the site's own)."""
STUBS = {"sqlite3": "a compiled module only on Pyodide's CDN; IPython runs without it (no saved history)",
         "jedi": "code completion, which the app never asks for; IPython runs without it",
         "micropip": "installs packages, which the site never does (piplite imports it only to install: TRIMS)"}
"""Lock entries replaced by empty wheels: the kernel extension asks for them by name."""
BROWSER = {"sys_platform": "emscripten", "platform_system": "Emscripten", "os_name": "posix",
           "platform_machine": "wasm32", "python_version": "3.13", "python_full_version": "3.13.2",
           "implementation_name": "cpython", "platform_python_implementation": "CPython"}
"""Pyodide's environment markers, for the requirements of wheels the Pyodide lock does not list."""
WORKER_NAMES = {"pyodide-kernel": "pyodide_kernel"}
"""Packages the kernel's worker checks for by another spelling before installing them itself."""
NOT_IN_BROWSER = {
    "jupyterlab-widgets": "the widgets' front end, which the site has in its own files",
    "voila": "the server app", "segno": "the server's QR code",
    "jupyter-server": "the server's, pinned for its patches (server/patches.py)",
    "tornado": "the server's web framework, pinned for its patches (server/patches.py)",
    "psutil": "the server's readings of its kernels' processor time (server/visitor_pace.py)",
    "prompt-toolkit": "the terminal shell's, not imported once IPython imports `embed` when used (TRIMS)",
    "wcwidth": "prompt-toolkit's",
}
"""Requirements of the wheels that the kernel in the browser never imports, and why."""
ALWAYS_DROP = ("*/tests/",)
"""Test suites inside wheels: no import of the app reaches them."""
STDLIB_LEFT_OUT = {
    "multiprocessing/": "starts processes, which a page cannot",
    "concurrent/futures/process.py": "the same, for concurrent.futures",
    "_pyrepl/": "the interactive terminal's line editor (pydoc imports its pager alone: STDLIB_KEPT)",
    "unittest/": "a test framework (piplite imports unittest.mock only to install packages, never done here)",
    "doctest.py": "a test framework",
    "xml/": "XML, which neither the app nor the kernel reads or writes",
    "xmlrpc/": "remote calls over XML and HTTP",
    "wsgiref/": "a web server",
    "mailbox.py": "mail", "imaplib.py": "mail", "poplib.py": "mail", "smtplib.py": "mail",
    "ftplib.py": "FTP", "netrc.py": "FTP's and mail's passwords",
    "encodings/": "code pages and East Asian encodings (the text the app reads and writes is UTF-8: STDLIB_KEPT)",
    "ctypes/": "calls into C libraries",
    "_pyio.py": "io in pure Python, used only where the compiled io is missing",
    "_pydatetime.py": "datetime in pure Python, the same",
    "tomllib/": "TOML", "zoneinfo/": "time zones", "csv.py": "CSV (the class server's)",
    "plistlib.py": "Apple's property lists", "wave.py": "sound files", "stringprep.py": "internationalized names",
    "pickletools.py": "tools", "modulefinder.py": "tools", "tracemalloc.py": "tools", "compileall.py": "tools",
    "py_compile.py": "tools", "symtable.py": "tools", "tabnanny.py": "tools", "pyclbr.py": "tools",
    "zipapp.py": "tools", "trace.py": "tools", "filecmp.py": "tools", "fileinput.py": "tools",
    "shelve.py": "tools", "sched.py": "tools", "graphlib.py": "tools", "optparse.py": "tools",
    "configparser.py": "tools", "difflib.py": "tools", "statistics.py": "tools",
    "webbrowser.py": "opens a browser from a terminal", "antigravity.py": "a joke", "this.py": "a joke",
    "__hello__.py": "a test of frozen modules", "__phello__/": "a test of frozen modules",
    "_android_support.py": "another platform", "_apple_support.py": "another platform",
    "_ios_support.py": "another platform", "nturl2path.py": "another platform",
}
"""Parts of Python's standard library (`python_stdlib.zip`) that neither the kernel nor the app imports, and
why; `website/probe.py` runs the kernel and the app on the built site at every build, so a part that is needed
after all fails the build, not a student's page."""
STDLIB_KEPT = ("_pyrepl/__init__.py", "_pyrepl/pager.py", "encodings/__init__.py", "encodings/aliases.py",
               *(f"encodings/{name}.py" for name in (
                   "ascii", "latin_1", "utf_8", "utf_8_sig", "utf_16", "utf_16_be", "utf_16_le", "utf_32",
                   "utf_32_be", "utf_32_le", "charmap", "cp437", "unicode_escape", "raw_unicode_escape",
                   "base64_codec", "hex_codec", "zlib_codec", "punycode")))
"""What stays of the folders STDLIB_LEFT_OUT names: the pager pydoc imports, and the encodings a program asks
for by name (Unicode, ASCII and Latin-1, zip's cp437, and the byte codecs)."""
STDLIB_OPTIMIZE = 2
"""The standard library is compiled as `python -OO` would (docstrings and asserts left out: a seventh less to
download), a way CPython's own tests run it; every other package keeps its docstrings and asserts."""


@dataclass(frozen=True)
class Trim:
    """What the site leaves out of one wheel (folders, with files kept), and exact text patches, and why."""

    why: str
    drop: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    patches: tuple[tuple[str, str, str], ...] = ()


TRIMS = {
    "leopard-tutor": Trim("the class server, which runs on a server, never in a page", drop=("leopard_tutor/server/",)),
    "anywidget": Trim("the front end for JupyterLab and the classic notebook: the site has its own copy in extensions/",
                      drop=("anywidget/labextension/", "anywidget/nbextension/")),
    "ipython": Trim("`import IPython` would import the terminal shell and prompt-toolkit (some 150 modules), which a "
                    "kernel never uses, only to offer `IPython.embed`: it is imported when called instead; the "
                    "terminal, its test helpers, Sphinx's extension, the extensions loaded by %load_ext and the "
                    "libraries nothing imports are left out (what the kernel imports of them is kept)",
                    drop=("IPython/terminal/", "IPython/testing/", "IPython/sphinxext/", "IPython/extensions/",
                          "IPython/lib/", "IPython/external/"),
                    keep=("IPython/terminal/__init__.py", "IPython/terminal/pt_inputhooks/__init__.py",
                          "IPython/testing/__init__.py", "IPython/testing/skipdoctest.py",
                          "IPython/extensions/__init__.py", "IPython/extensions/storemagic.py",
                          "IPython/lib/__init__.py", "IPython/lib/display.py", "IPython/lib/pretty.py",
                          "IPython/external/__init__.py", "IPython/external/pickleshare.py"),
                    patches=(("IPython/__init__.py", "from .terminal.embed import embed\n",
                              "def embed(**kwargs):  # imported when used (the Leopard Tutor site)\n"
                              "    from .terminal.embed import embed as _embed\n\n    return _embed(**kwargs)\n"),)),
    "pygments": Trim("only the Python lexer is ever used (IPython's tracebacks); the 500 others are never loaded",
                     drop=("pygments/lexers/",),
                     keep=("pygments/lexers/__init__.py", "pygments/lexers/_mapping.py", "pygments/lexers/python.py")),
    "piplite": Trim("the kernel imports piplite at start-up, and piplite micropip and unittest.mock, only to install "
                    "packages, which the site never does (every package is loaded from the Pyodide lock): they are "
                    "imported when piplite installs something",
                    patches=(("piplite/piplite.py", "from typing import Any\n",
                              "from __future__ import annotations  # micropip: imported when used (Leopard Tutor site)"
                              "\n\nfrom typing import Any\n"),
                             ("piplite/piplite.py", "from unittest.mock import patch\n\nimport micropip\n"
                              "from micropip.package_index import ProjectInfo, CompatibilityLayer\n"
                              "from micropip.package_index import query_package as _MP_QUERY_PACKAGE\n", ""),
                             ("piplite/piplite.py", "    info = ProjectInfo._compatible_only(",
                              "    from micropip.package_index import ProjectInfo\n\n"
                              "    info = ProjectInfo._compatible_only("),
                             ("piplite/piplite.py", "    return await _MP_QUERY_PACKAGE(",
                              "    from micropip.package_index import query_package as _MP_QUERY_PACKAGE\n\n"
                              "    return await _MP_QUERY_PACKAGE("),
                             ("piplite/piplite.py", "    with patch(\"micropip.package_index.query_package\"",
                              "    from unittest.mock import patch\n\n    import micropip\n\n"
                              "    with patch(\"micropip.package_index.query_package\""))),
}
"""How the site trims the start-up of the kernel, by wheel."""
UNUSED = ("build", "voici/tree", "doc", "service-worker.js")
"""Parts of a Voici build the app page never loads: JupyterLab's own static files (but `KEPT`), the file browser, and
the service worker (see FRONT_END_PATCHES)."""
KEPT = ("build/themes",)
"""What the page does load from those: the light and dark themes' style sheets (a page with ?theme=dark asks for
build/themes/@jupyterlab/theme-dark-extension/index.css, and without it showed an error dialog)."""
THEME_SCRIPT = """<script>
  // The static site's theme, before Voici reads ?theme= as it starts: with no ?theme=, the server's own name for it
  // (?voila-theme=light or dark) or else the browser's preference for dark colours chooses. Voici is shown the
  // choice in the address only until its theme is loaded: a reload follows the preference as it is then.
  (function () {
    var query = new URLSearchParams(window.location.search);
    if (query.has("theme")) return;
    var server = query.get("voila-theme");
    var chosen = server === "light" || server === "dark" ? server
      : window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "";
    if (!chosen) return;
    var address = function (theme) {
      var now = new URL(window.location.href);
      if (theme) now.searchParams.set("theme", theme); else now.searchParams.delete("theme");
      window.history.replaceState(window.history.state, "", now.href);
    };
    address(chosen);
    var asked = Date.now();
    var back = window.setInterval(function () {
      if (window.themeLoaded || Date.now() - asked > 120000) {
        window.clearInterval(back);
        address("");
      }
    }, 50);
  })();
</script>"""
"""Put at the start of the app page's head (`finish`)."""
FRONT_END_PATCHES = (
    ("voici/build", '"@jupyterlite/application-extension:service-worker-manager"===e.id', "false",
     "no service worker: Voici waits for one to register before it starts the kernel, and on a page that is not "
     "served over HTTPS or from localhost it never does (the page hangs); the kernel then sees the page's files "
     "as its working folder through it, so every import asks the page. The app needs none of that: without it "
     "the kernel's files stay in its own memory, and any static host serves the site, http or https"),
    ("voici/build", "setTimeout((function(e){return t.call(e)}),4,e)",
     "setTimeout((function(e){return t.call(e)}),0,e)",
     "mock-socket, which carries messages between the page and its kernel in the browser as if over a websocket, "
     "waits 4 ms before it hands the kernel each message the page sends (and the browser often draws a frame "
     "meanwhile): every click waited for it. There is no network to imitate: the message goes at once"),
)
"""Exact text replacements in Voici's front end (folder, old text, new text, why); each must match once."""
WHEEL_README = "# Leopard Tutor\n\nThe tutor as the static site ships it; the project's README is in its repository.\n"
"""Our wheel's long description: a student's browser downloads it, and the README's screenshot and links point
into the repository."""
CDN = re.compile(r"https?://(cdn\.jsdelivr\.net|cdnjs\.cloudflare\.com|unpkg\.com|fonts\.googleapis\.com)[^\"' )]*")


class BuildError(RuntimeError):
    """The site cannot be built as pinned; the message says what is wrong."""


def norm(name: str) -> str:
    """A distribution name in canonical form (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256(path: Path) -> str:
    """The SHA-256 of a file, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_inputs() -> dict[str, Any]:
    """The pinned inputs (website/inputs.json)."""
    inputs: dict[str, Any] = json.loads(INPUTS_FILE.read_text(encoding="utf-8"))
    return inputs


def pinned_files(inputs: dict[str, Any]) -> list[dict[str, str]]:
    """Every pinned input file: the Pyodide npm package first, then the wheels."""
    return [inputs["pyodide"], *inputs["wheels"]]


# -- fetch (network) ---------------------------------------------------------------------------
def fetch(inputs: dict[str, Any]) -> None:
    """Download every pinned input that is not in the cache yet, and check its SHA-256."""
    CACHE.mkdir(parents=True, exist_ok=True)
    missing = [item for item in pinned_files(inputs) if not _cached(item)]
    npm = [item for item in missing if "npm" in item]
    wheels = [item for item in missing if "npm" not in item]
    for item in npm:
        subprocess.run(["npm", "pack", "--silent", item["npm"]], cwd=CACHE, check=True, stdout=subprocess.DEVNULL)
    if wheels:
        specs = [wheel_spec(item["file"]) for item in wheels]
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                        "--platform", "any", "--python-version", "3.13", "--implementation", "py", "--abi", "none",
                        "-d", str(CACHE), *specs], check=True)
    for item in missing:
        if not _cached(item):
            raise BuildError(f"{item['file']} was downloaded but its SHA-256 is not the pinned one")
    print(f"inputs: {len(pinned_files(inputs))} pinned files in {CACHE.relative_to(ROOT)} ({len(missing)} downloaded)")


def wheel_spec(file: str) -> str:
    """`name==version` of a wheel file name."""
    name, version = file.split("-")[:2]
    return f"{name}=={version}"


def _cached(item: dict[str, str]) -> bool:
    path = CACHE / item["file"]
    return path.is_file() and sha256(path) == item["sha256"]


# -- build (offline) ---------------------------------------------------------------------------
def build(inputs: dict[str, Any]) -> None:
    """Assemble the site in build/site/ from the cached inputs and this repository."""
    for item in pinned_files(inputs):
        if not _cached(item):
            raise BuildError(f"{item['file']} is missing from {CACHE} or differs from its pin: "
                             "run 'python website/build.py fetch' (or bash scripts/site.sh) first")
    if STAGE.exists():
        shutil.rmtree(STAGE)
    pyodide_dir = STAGE / "static" / "pyodide"
    pyodide_dir.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="leopard-site-") as scratch:
        ours = build_our_wheel(Path(scratch))
        wheels = [CACHE / item["file"] for item in inputs["wheels"]] + kernel_wheels() + [ours]
        packages = assemble_pyodide(CACHE / inputs["pyodide"]["file"], wheels, pyodide_dir, Path(scratch))
    write_lite_config(STAGE / "jupyter-lite.json", packages, pyodide_dir)
    content = STAGE / "content"
    content.mkdir()
    shutil.copy2(NOTEBOOK, content / NOTEBOOK.name)
    run_voici(STAGE, content, OUTPUT)
    finish(OUTPUT)
    probe(OUTPUT)


def build_our_wheel(scratch: Path) -> Path:
    """Our own wheel, built from a copy of the package source (the tree is left as it is)."""
    source = scratch / "source"
    source.mkdir()
    shutil.copy2(ROOT / "pyproject.toml", source / "pyproject.toml")
    (source / "README.md").write_text(WHEEL_README, encoding="utf-8")  # the wheel's METADATA carries it
    shutil.copytree(ROOT / "leopard_tutor", source / "leopard_tutor",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                           "--no-index", "-w", str(scratch / "wheel"), str(source)], capture_output=True, text=True)
    if done.returncode:
        raise BuildError(f"our wheel did not build:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    (wheel,) = (scratch / "wheel").glob("*.whl")
    return wheel


def kernel_wheels() -> list[Path]:
    """The kernel extension's own wheels (see KERNEL_WHEELS), from the builder's environment."""
    folder = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / KERNEL_EXTENSION / "static" / "pypi"
    found = [path for prefix in KERNEL_WHEELS for path in sorted(folder.glob(f"{prefix}*.whl"))]
    if len(found) != len(KERNEL_WHEELS):
        raise BuildError(f"the kernel extension's wheels are not all in {folder}: found {[p.name for p in found]}")
    return found


def wheel_facts(path: Path) -> tuple[str, str, list[str], list[str]]:
    """A wheel's name, version, top-level imports and requirement names (markers with extras left out)."""
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        (metadata,) = [n for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
        meta = email.parser.HeaderParser().parsestr(wheel.read(metadata).decode("utf-8"))
    tops = set()
    for name in names:
        top = name.split("/")[0]
        if top.endswith((".dist-info", ".data")):
            continue
        if name.count("/") == 1 and name.endswith(("/__init__.py", "/__init__.pyc")):
            tops.add(top)
        elif "/" not in name and name.endswith((".py", ".pyc")):
            tops.add(name.rsplit(".", 1)[0])
    requires = [Requirement(line) for line in meta.get_all("Requires-Dist") or []]
    needed = [norm(r.name) for r in requires if r.marker is None or r.marker.evaluate({**BROWSER, "extra": ""})]
    return norm(meta["Name"]), meta["Version"], sorted(tops), needed


def stub_wheel(name: str, folder: Path) -> Path:
    """An empty wheel (a dist-info only) standing in for `name` (see STUBS)."""
    path = folder / f"{name}-0.0.0-py3-none-any.whl"  # a version no real release has
    info = f"{name}-0.0.0.dist-info"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        wheel.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.0.0\n"
                                           f"Summary: stand-in: {STUBS[name]}\n")
        wheel.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: leopard-tutor site\nRoot-Is-Purelib: true\n"
                                        "Tag: py3-none-any\n")
        wheel.writestr(f"{info}/RECORD", "")
    return path


def assemble_pyodide(npm_package: Path, wheels: list[Path], target: Path, scratch: Path) -> list[str]:
    """The Pyodide runtime from npm plus `wheels` and the stubs, all compiled to bytecode, with a lock naming
    exactly these; returns the names to load at start-up (all of them)."""
    runtime = scratch / "npm"
    with tarfile.open(npm_package) as archive:
        archive.extractall(runtime, filter="data")
    runtime = runtime / "package"
    raw = scratch / "raw"
    raw.mkdir()
    for path in wheels:
        shutil.copy2(path, raw / path.name)
    for name in STUBS:
        stub_wheel(name, raw)
    for name in PYODIDE_FILES:
        if name != "python_stdlib.zip":
            shutil.copy2(runtime / name, target / name)
    shutil.copy2(runtime / "python_stdlib.zip", raw / "python_stdlib.zip")
    compile_bytecode(runtime, raw, target)
    for path in sorted(target.glob("*.whl")):
        path.rename(target / content_named(path))
    lock = json.loads((runtime / "pyodide-lock.json").read_text(encoding="utf-8"))
    known = {norm(key): entry for key, entry in lock["packages"].items()}
    entries: dict[str, dict[str, Any]] = {}
    for path in sorted(target.glob("*.whl")):
        name, version, imports, requires = wheel_facts(path)
        if name in known and name not in STUBS and known[name]["version"] != version:
            raise BuildError(f"{path.name}: the Pyodide lock pins {name} {known[name]['version']}")
        depends = [] if name in STUBS else known[name]["depends"] if name in known else requires
        entries[name] = {"name": name, "version": version, "file_name": path.name, "install_dir": "site",
                         "sha256": sha256(path), "package_type": "package", "imports": imports,
                         "depends": sorted({norm(d) for d in depends} - set(NOT_IN_BROWSER)),
                         "unvendored_tests": False}
    for name, entry in entries.items():
        missing = [dep for dep in entry["depends"] if dep not in entries]
        if missing:
            raise BuildError(f"{name} needs {', '.join(missing)}, which the site does not ship")
    lock["packages"] = dict(sorted(entries.items()))
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), encoding="utf-8")
    return [WORKER_NAMES.get(name, name) for name in sorted(entries)]


def content_named(path: Path) -> str:
    """A wheel's file name with a build tag of its content's SHA-256 ("name-1.0-0a1b2c3d4e5f6-py3-none-any.whl"):
    a wheel that changes from one build to the next changes its address too, so a browser that keeps `static/` for
    a year (server.md) never loads a stale copy of it (a build tag begins with a digit)."""
    name, version, *tags = path.name[:-len(".whl")].split("-")
    return "-".join([name, version, f"0{sha256(path)[:12]}", *tags[-3:]]) + ".whl"


def compile_bytecode(runtime: Path, raw: Path, target: Path) -> None:
    """Every archive in `raw` (wheels, the standard library) compiled into `target` by Pyodide under Node."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("the site build needs Node.js (node) to compile Python for Pyodide")
    jobs = [compile_job(path, target) for path in sorted(raw.iterdir())]
    (raw.parent / "jobs.json").write_text(json.dumps(jobs), encoding="utf-8")
    print(f"compiling {len(jobs)} archives to bytecode with Pyodide")
    subprocess.run([node, str(WEBSITE / "bytecode.mjs"), str(runtime), str(raw.parent / "jobs.json")], check=True)


def compile_job(path: Path, target: Path) -> dict[str, Any]:
    """What website/bytecode.py does to one archive: where it installs, what it leaves out, its patches."""
    if path.suffix == ".zip":  # the standard library, imported from its zip
        return {"source": str(path), "target": str(target / path.name), "root": "/lib/python313.zip/",
                "drop": list(STDLIB_LEFT_OUT), "keep": list(STDLIB_KEPT), "patches": [], "optimize": STDLIB_OPTIMIZE}
    name, version = path.name.split("-")[:2]
    trim = TRIMS.get(norm(name), Trim(""))
    return {"source": str(path), "target": str(target / path.name), "root": "/lib/python3.13/site-packages/",
            "drop": [*ALWAYS_DROP, f"{name}-{version}.data/", *trim.drop], "keep": list(trim.keep),
            "patches": [list(patch) for patch in trim.patches]}


def write_lite_config(path: Path, packages: list[str], pyodide_dir: Path) -> None:
    """jupyter-lite.json: the local Pyodide, every package loaded at start-up, no package index at run time. The
    lock and the standard library, whose names are Pyodide's, are asked for at addresses that name their content
    (`?sha256=`, as jupyterlite's own piplite index is): this file is checked on every visit, so a new build's lock
    (naming new wheels, `content_named`) is never hidden by a copy a browser keeps for a year (the kernel extension
    resolves an option whose name ends in "URL" against the page's base)."""
    addresses = {option: f"./static/pyodide/{name}?sha256={sha256(pyodide_dir / name)}"
                 for option, name in (("lockFileURL", "pyodide-lock.json"), ("stdLibURL", "python_stdlib.zip"))}
    settings = {"disablePyPIFallback": True, "loadPyodideOptions": {"packages": packages, **addresses}}
    config = {"jupyter-lite-schema-version": 0,
              "jupyter-config-data": {"litePluginSettings": {f"{KERNEL_EXTENSION}:kernel": settings}}}
    path.write_text(json.dumps(config, indent=1), encoding="utf-8")


def run_voici(stage: Path, content: Path, output: Path) -> None:
    """`voici build` of the app notebook with the app's own page template (no CDN links)."""
    if output.exists():
        shutil.rmtree(output)
    env = {**os.environ, "JUPYTER_PATH": str(TEMPLATES)}
    voici = Path(sys.executable).parent / "voici"
    print("voici build")
    done = subprocess.run([str(voici), "build", "--lite-dir", str(stage), "--contents", str(content), "--output-dir",
                           str(output), "--no-sourcemaps", "--no-unused-shared-packages", f"--template={TEMPLATE}"],
                          env=env, cwd=stage, capture_output=True, text=True)
    if done.returncode:
        raise BuildError(f"voici build failed ({done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-3000:]}")


def finish(site: Path) -> None:
    """Leave out what the app never loads, add the start pages, and check that no page of the site asks
    another host for anything."""
    with tempfile.TemporaryDirectory(prefix="leopard-kept-") as aside:
        for kept in KEPT:
            shutil.move(site / kept, Path(aside) / kept.replace("/", "_"))
        for unused in UNUSED:
            shutil.rmtree(site / unused) if (site / unused).is_dir() else (site / unused).unlink()
        for kept in KEPT:
            (site / kept).parent.mkdir(parents=True, exist_ok=True)
            shutil.move(Path(aside) / kept.replace("/", "_"), site / kept)
    for folder, old, new, _why in FRONT_END_PATCHES:
        found = [path for path in (site / folder).glob("*.js") if old in path.read_text(encoding="utf-8")]
        if len(found) != 1 or found[0].read_text(encoding="utf-8").count(old) != 1:
            raise BuildError(f"{folder}: {old!r} should be in exactly one place, found in {len(found)} files")
        found[0].write_text(found[0].read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    app = f"voici/render/{NOTEBOOK.stem}.html"
    page = (site / app).read_text(encoding="utf-8")
    if page.count("<head>") != 1:
        raise BuildError(f"{app} should have one <head>")
    (site / app).write_text(page.replace("<head>", "<head>" + THEME_SCRIPT, 1), encoding="utf-8")
    (site / "index.html").write_text(start_page(app), encoding="utf-8")
    (site / "voici" / "index.html").write_text(start_page(app.removeprefix("voici/")), encoding="utf-8")
    (site / ".nojekyll").write_text("", encoding="utf-8")  # GitHub Pages: serve every file as it is
    offenders = []
    for page in site.rglob("*.html"):
        found = CDN.search(page.read_text(encoding="utf-8", errors="replace"))
        if found:
            offenders.append(f"{page.relative_to(site)}: {found.group(0)}")
    if offenders:
        raise BuildError("pages of the site still name a CDN:\n" + "\n".join(offenders))
    files = [path for path in site.rglob("*") if path.is_file()]
    size = sum(path.stat().st_size for path in files)
    print(f"site: {OUTPUT.relative_to(ROOT)}/ holds {len(files)} files, {size / 1e6:.1f} MB; open {app}")


def probe(site: Path) -> None:
    """Run the kernel and the app in the site's own Pyodide (website/probe.py): what the site leaves out must be
    what nothing imports."""
    done = subprocess.run([str(shutil.which("node")), str(WEBSITE / "probe.mjs"), str(site / "static" / "pyodide")],
                          capture_output=True, text=True)
    report = done.stdout.strip()
    if done.returncode:
        raise BuildError(f"the site's kernel or app failed in its own Pyodide:\n{report[-3000:]}")
    print(f"probe: {report.splitlines()[-1]}")


def start_page(app: str) -> str:
    """The start page: straight on to the app at the relative address `app`, keeping the query string (a teacher's
    ?lang=es too); its words, for a browser without JavaScript, in the build's LEOPARD_TUTOR_LANGUAGE."""
    sys.path.insert(0, str(ROOT))
    from leopard_tutor.engine.catalogue import language, text

    words = {key: html.escape(text(f"app.{key}")) for key in ("title", "intro")}
    words.update({key: html.escape(text(f"app.site.{key}")) for key in ("open", "javascript")})
    return (WEBSITE / "index.html").read_text(encoding="utf-8").format(app=app, lang=language(), **words)


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("fetch", "build"))
    args = parser.parse_args(argv)
    inputs = load_inputs()
    try:
        fetch(inputs) if args.step == "fetch" else build(inputs)
    except (BuildError, subprocess.CalledProcessError) as error:
        print(f"site {args.step} failed: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
