"""The documentation site cannot rot (issue 38): it builds without a warning and with every internal link
found (`bash scripts/docs.sh`), every shell command in the README and the guides runs (or says, in a
`# not run: <reason>` comment, why it is not run here), every option the guides name exists in
`leopard-tutor --help`, every option there is in the running-a-server guide, and every picture a page shows is
one that scripts/screenshots.py makes."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from benchmark_smokes import SMOKES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted([ROOT / "README.md", *(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)])
GUIDES = DOCS / "guides"
SERVER_GUIDE = GUIDES / "server.md"
NOT_RUN = "# not run:"
CLI = ["-c", "import sys; from leopard_tutor.cli import main; sys.argv[0] = 'leopard-tutor'; sys.exit(main())"]
# Commands another test runs in full: the command, and the test that runs it.
RUN_ELSEWHERE = {"bash scripts/docs.sh": "test_the_site_builds_without_a_warning"}


def commands(page: Path) -> list[tuple[str, str | None]]:
    """Each command of the page's ```bash blocks (continuation lines joined), with its not-run reason if any: a
    comment `<!-- not run: <reason> -->` on the line before the block (for all its commands), or `# not run:
    <reason>` after a command."""
    found = []
    blocks = re.findall(r"^(?:<!-- not run: (.+?) -->\n)?```bash\n(.*?)^```", page.read_text(encoding="utf-8"),
                        re.S | re.M)
    for block_reason, block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            command, _, comment = line.partition(" #")
            comment = "#" + comment if comment else ""
            reason = comment[len(NOT_RUN):].strip() if comment.startswith(NOT_RUN) else None
            found.append((" ".join(command.split()), reason or block_reason.strip() or None))
    return found


ALL = [(page, command, reason) for page in PAGES for command, reason in commands(page)]


def argv(command: str) -> list[str]:
    """The command as this test runs it: this interpreter for python and leopard-tutor, without nice."""
    words = shlex.split(command)
    if words[0] == "nice":
        words = words[3:] if words[1] == "-n" else words[1:]
    if words[0] in (".venv/bin/python", "python", "python3"):
        return [sys.executable, *words[1:]]
    if words[0] == "leopard-tutor":
        return [sys.executable, *CLI, *words[1:]]
    return words


@cache
def help_text(*words: str) -> str:
    """What `--help` prints for the leopard-tutor command (or subcommand) or the script of these words."""
    done = subprocess.run([*argv(" ".join(words)), "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def options(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text))


def cli_options() -> set[str]:
    return options(help_text("leopard-tutor")) | options(help_text("leopard-tutor", "teacher-link")) | \
        options(help_text("leopard-tutor", "demo"))


def test_the_guides_have_commands() -> None:
    assert {page.name for page, _, _ in ALL} >= {"README.md", "students.md", "teachers.md", "server.md",
                                                 "developers.md", "figures.md"}


def test_the_readme_quick_start_is_the_two_commands_and_the_guides_hold_them() -> None:
    readme = ROOT / "README.md"
    quick = readme.read_text(encoding="utf-8").split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert quick.count("```bash") == 1
    assert [command for command, _ in commands(readme)] == ["bash scripts/app.sh", "bash scripts/test.sh"]
    in_guides = {command for page, command, _ in ALL if page.name != "README.md"}
    assert {"bash scripts/app.sh", "bash scripts/test.sh"} <= in_guides


RUN = [(page, command) for page, command, reason in ALL if page.name != "README.md" and reason is None]
"""The guides' commands this suite runs; the others say why not (`<!-- not run: ... -->`), checked below."""


def test_a_command_not_run_says_why() -> None:
    not_run = [(page.name, command, reason) for page, command, reason in ALL if reason is not None]
    assert all(len(reason.split()) >= 3 for _, _, reason in not_run), not_run
    for _, command, _ in not_run:  # a benchmark not run here still runs in the suite, as its --smoke
        script = re.search(r"benchmarks/(\w+\.py)", command)
        assert script is None or script.group(1) in SMOKES, f"{command}: no --smoke of it in the suite"


@pytest.mark.parametrize(("page", "command"), RUN, ids=[f"{page.name}:{command[:60]}" for page, command in RUN])
def test_every_command_in_the_guides_runs(page: Path, command: str) -> None:
    if command in RUN_ELSEWHERE:
        assert RUN_ELSEWHERE[command] in globals()
        return
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(argv(command), cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, f"{page.name}: {command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


@pytest.mark.parametrize(("page", "command"), [(a[0], a[1]) for a in ALL],
                         ids=[f"{a[0].name}:{a[1][:60]}" for a in ALL])
def test_every_option_of_a_command_exists(page: Path, command: str) -> None:
    """Run or not, each command's options are the program's own (its --help names them)."""
    words = shlex.split(command)
    named = {word.split("=")[0] for word in words if word.startswith("--")} - {"--help"}
    if not named or "pytest" in words or words[:2] in (["python3", "-c"], ["bash", "scripts/test.sh"]):
        return
    if any(word.endswith("leopard-tutor") for word in words) or words[:2] == ["bash", "scripts/app.sh"]:
        known = cli_options()
    else:
        script = next(word for word in words if word.endswith(".py"))
        known = options(help_text(".venv/bin/python", script))
    assert named <= known, f"{page.name}: {command}: {sorted(named - known)} not in its --help"


def test_every_option_the_guides_name_is_in_the_help() -> None:
    named = set()
    # The developers' guide names the benchmarks' options too: their commands are checked one by one above.
    for page in [ROOT / "README.md", *(page for page in GUIDES.glob("*.md") if page.name != "developers.md")]:
        text = page.read_text(encoding="utf-8")
        spans = re.findall(r"`(--[a-z][^`]*|leopard-tutor [^`]*)`", text)
        spans += [c for p, c, _ in ALL if p == page and c.startswith("leopard-tutor")]
        named |= {option for span in spans for option in options(span)}
    assert named, "the guides name no option"
    assert named - {"--help"} <= cli_options(), sorted(named - cli_options())


def test_every_option_in_the_help_is_in_the_server_guide() -> None:
    text = SERVER_GUIDE.read_text(encoding="utf-8")
    missing = {option for option in cli_options() - {"--help"} if f"`{option}" not in text}
    assert not missing, f"the running-a-server guide does not explain {sorted(missing)}"


def test_every_picture_is_made_by_the_screenshot_script() -> None:
    made = set(re.findall(r'DOCS / "([\w.-]+\.png)"', (ROOT / "scripts" / "screenshots.py").read_text()))
    assert made
    for page in PAGES:
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if target.startswith(("https://", "http://")):
                continue  # a badge, not a screenshot
            path = (page.parent / target).resolve()
            assert path.parent == DOCS and path.name in made, f"{page.name}: {target} is not made by screenshots.py"
            assert path.is_file(), f"{page.name}: {target} is missing: run scripts/screenshots.py"


def test_the_site_builds_without_a_warning() -> None:
    """Warnings are errors (nitpicky), and every internal link and anchor of the built site is found."""
    env = {**os.environ, "PYTHON": sys.executable}
    done = subprocess.run(["bash", "scripts/docs.sh"], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    assert "WARNING" not in done.stderr, done.stderr
    assert (DOCS / "_build" / "html" / "guides" / "server.html").is_file()


def test_the_guides_hold_no_dated_figures() -> None:
    """Measured figures live on the Figures page with their command, their history in benchmarks/HISTORY.md:
    no guide, reference page or the README carries a latency, a date or an issue number that goes stale."""
    stale = re.compile(r"\bp(50|95)\s*\d|\b20\d\d-\d\d-\d\d\b|\b(January|February|March|April|May|June|July|August|"
                       r"September|October|November|December) 20\d\d\b|\b[Ii]ssue \d+")
    for page in PAGES:
        if page.name in ("figures.md", "table-modes.md"):
            continue
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            assert not stale.search(line), f"{page.relative_to(ROOT)}:{number}: a dated figure belongs in figures.md"


def test_the_readme_is_one_screen_and_its_links_work() -> None:
    readme = ROOT / "README.md"
    assert len(readme.read_bytes()) < 6 * 1024
    for target in re.findall(r"\]\(([^)\s#]+)", readme.read_text(encoding="utf-8")):
        if not target.startswith("https://"):
            assert (ROOT / target).is_file(), f"README.md links to {target}, which is not there"


def test_the_pages_workflow_publishes_the_site_under_docs() -> None:
    """The static app's Pages workflow builds this site with the same command and puts it at /docs/."""
    workflow = (ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    steps = workflow.index("bash scripts/site.sh"), workflow.index("bash scripts/docs.sh")
    assert steps[0] < steps[1] < workflow.index("cp -r docs/_build/html build/site/docs")
    assert '".[docs]"' in workflow
