"""The app notebook is thin (it only builds the app) and runs headless in a real kernel."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from leopard_tutor.server.launch import REPO_NOTEBOOK, app_notebook

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "leopard_tutor.ipynb"


def test_notebook_is_the_packaged_app_notebook() -> None:
    assert NOTEBOOK == REPO_NOTEBOOK
    saved = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert [c["source"] for c in saved["cells"]] == [c["source"] for c in app_notebook()["cells"]]
    assert all(not c["outputs"] for c in saved["cells"])


def test_notebook_executes_and_builds_a_playable_app() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(
        "tutor = _\n"
        "play = tutor.built[0]\n"
        "board = play.board\n"
        "board.dispatch({'type': 'select', 'index': 0})\n"
        "print('first tab', tutor.tabs.titles[0])\n"
        "print('selected', board.state['hand']['cards'][0]['selected'], repr(board.state['error']))\n"))
    resources = {"metadata": {"path": str(NOTEBOOK.parent)}}
    client = NotebookClient(nb, timeout=120, kernel_name="python3", resources=resources)
    client.execute()
    first = nb.cells[0].outputs
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in first)
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert "first tab Play" in printed
    assert "selected True ''" in printed
