"""The lesson and example notebooks are thin (one cell builds a section) and run headless in a real kernel."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from leopard_tutor.engine.catalogue import text
from leopard_tutor.lessons import LESSONS

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
GROUPS = {"lessons_1_basics.ipynb": (1, 5), "lessons_2_special_cards.ipynb": (6, 8),
          "lessons_3_the_game.ipynb": (9, len(LESSONS))}
CHECK_LESSONS = """
section = _
controller = section.controller
board = section.board
stages = [lesson.stage for lesson in controller.lessons]
for lesson in controller.lessons:
    controller.open(stages.index(lesson.stage))
    board.refresh()
    while controller.attempt.question is not None:
        controller.answer(controller.attempt.question.truth(controller.attempt.view).answer)
    for move in lesson.solution:
        controller.try_move(move)
    print('stage', lesson.stage, 'solved', controller.attempt.solved, 'stars', controller.attempt.stars)
print('stages', stages, 'error', repr(board.state['error']))
"""
CHECK_EXAMPLES = """
section = _
board = section.board
section.picker.value = 2
board.dispatch({'type': 'action', 'id': 'next'})
print(board.state['turn'], '|', board.state['squares'][0]['value_text'], '|', repr(board.state['error']))
"""


def run(name: str, check: str) -> tuple[nbformat.NotebookNode, str]:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert len(code) == 1 and len(code[0].source.splitlines()) <= 3, "notebooks only build a section"
    assert not code[0].outputs, "notebooks are saved without outputs"
    nb.cells.append(nbformat.v4.new_code_cell(check))
    client = NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    shown = [o for o in code[0].outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert shown, "the section is displayed as a widget"
    return nb, "".join(o.get("text", "") for o in nb.cells[-1].outputs)


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_lesson_notebook_builds_its_stages_and_each_can_be_solved(name: str) -> None:
    first, last = GROUPS[name]
    _, printed = run(name, CHECK_LESSONS)
    assert f"stages {list(range(first, last + 1))} error ''" in printed
    for stage in range(first, last + 1):
        assert f"stage {stage} solved True stars 3" in printed


def test_examples_notebook_steps_through_c3() -> None:
    _, printed = run("examples.ipynb", CHECK_EXAMPLES)
    turn = text("sections.examples.turn", key="C3", step=2, steps=2, rules=text("rules.REVISED_2008"))
    worth = text("board.worth", label=text("board.squares.yours"), value=8)
    assert f"{turn} | {worth} | ''" in printed  # the kernel's words: English, as here
