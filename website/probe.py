"""Run the kernel and the app as a student's page does, on the site just built (see probe.mjs).

What the site leaves out (website/build.py: STDLIB_LEFT_OUT, TRIMS) must be what nothing imports: this starts
the kernel the page starts, shows a traceback (IPython's error path), builds the app, opens every section,
follows a teacher's link against the expert and plays a whole hand between two opponents through the engine.
Only standard-library code and the site's own packages.
"""

from __future__ import annotations

import sys
import traceback
from typing import Any


def probe() -> str:
    """Everything a visit does that imports code; returns a line about what was imported."""
    import pyodide_kernel  # noqa: F401  (the page's kernel: it sets up IPython's shell)
    from IPython import get_ipython

    shell: Any = get_ipython()
    shell.send_comm = lambda *args, **kwargs: None  # the page's worker gives the kernel these
    shell.display_pub.publish = lambda *args, **kwargs: None
    failed = shell.run_cell("1 / 0")
    if not isinstance(failed.error_in_exec, ZeroDivisionError):
        raise RuntimeError(f"the kernel did not show a traceback: {failed!r}")
    ran = shell.run_cell(PAGE)
    if not ran.success:
        raise RuntimeError(f"the app's cell failed: {ran.error_before_exec or ran.error_in_exec!r}")
    return f"the kernel and the app ran: {len(sys.modules)} modules imported"


PAGE = """
import random
from leopard_tutor.ai import make_player
from leopard_tutor.app import open_app
from leopard_tutor.engine import REVISED_2008, Hand

app = open_app()
for index in range(len(app.sections)):
    app.open_tab(index)
app.follow_link("rules=1963&level=expert&deal=PROBE1&tab=play")
app.follow_link("lesson=3")
hand = Hand.deal(REVISED_2008, seed=7)
players = [make_player("beginner", seed=1), make_player("expert", seed=2, time_budget=0.05)]
while not hand.is_over:
    hand.apply(players[hand.to_move].choose(hand.view(hand.to_move)))
app.follow_link("lang=es")
for index in range(len(app.sections)):
    app.open_tab(index)
app
"""
"""The notebook's cell (open_app) and more: every section opened, a link followed, a hand played, and every
section again in Spanish."""


def main() -> tuple[bool, str]:
    """(whether the probe ran, its line or the traceback)."""
    try:
        return True, probe()
    except BaseException:  # any failure is the report
        return False, traceback.format_exc()
