"""The teacher runs two rounds of a class in a real Chromium: four students (four browser contexts: four visitors)
keep their names and look at another tab; the teacher (a fifth context) chooses matches of one hand and presses
"Pair the class". With no click of theirs, each student's page comes back to Play at a class table whose board
names the classmate and says the round, and the class page lists the two tables. At one table the two play the
hand by clicks to its end: the class page's standings for today and its CSV count the match for both; at the other
a player leaves. "Next round" pairs everyone with someone new. The server then restarts on the same data folder and
port: the standings, the round and the seats are all there again (each student's page opened again sits at its
round-2 table with the same classmate)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from rendered import escaped, opening, pattern
from test_classmates import MATCH_OVER, TIMEOUT, play_the_hand_by_clicks
from test_play import towards_lines_by_clicks
from test_student_names import name_student

from leopard_tutor.engine.catalogue import text
from leopard_tutor.server.standings import STANDING_COLUMNS
from leopard_tutor.server.teacher import CSV_MARK

TOKEN = "browser-rounds-teacher-token-0123456789"
NAMES = ("Ana", "Ben", "Cat", "Dan")
ONE_HAND_TURN = re.compile("|".join((
    pattern("play.people.turn.of", number="1", hands="1", rules=".+", name="|".join(NAMES)).pattern,
    pattern("play.turn.yours", number="1", hands="1", rules=".+").pattern)))
"""The turn line at a class table before its first move, in a match of one hand (the classmate's turn, or one's
own)."""
START_MS = 180_000
"""How long a page may take to draw its board (a kernel started for it, four at once, on a busy 2-core machine)."""


def counted_errors(tab: Any, who: str, errors: list[str]) -> None:
    """Count `tab`'s page errors and console errors in `errors` (as the `page` fixture does), named by `who`: a
    resource of another host that could not be fetched (Voilà's CDN fonts, offline) is no error of ours, nor is the
    class page's refusal of an action, an HTTP 400 that says why in words (the page shows them)."""
    tab.on("pageerror", lambda error: errors.append(f"pageerror ({who}): {error}"))

    def console(msg: Any) -> None:
        where = (msg.location or {}).get("url", "")
        offline = msg.text.startswith("Failed to load resource") and not where.startswith("http://127.0.0.1")
        refused = "status of 400" in msg.text and "/teacher/api/pair?" in where
        if msg.type == "error" and not offline and not refused:
            errors.append(f"console error ({who}): {msg.text} ({msg.location})")
    tab.on("console", console)


def drawn_board(tab: Any) -> Any:
    """Play's board in `tab`, once the app has drawn it."""
    board = tab.locator(".lt-play .lt-board")
    board.locator(".lt-space").first.wait_for(state="visible", timeout=START_MS)
    return board


def listed_tables(teacher: Any) -> dict[str, tuple[str, str]]:
    """The class page's list of class tables once it lists two: {code: the two names}."""
    expect(teacher.locator("#lt-tables li:has(button)")).to_have_count(2, timeout=TIMEOUT)
    lines = teacher.locator("#lt-tables li").evaluate_all("items => items.map(item => item.firstChild.data)")
    tables = {}
    for line in lines:
        code, names = line.strip().split(": ", 1)
        first, second = names.split(" \u2013 ")
        tables[code] = (first, second)
    return tables


def opponents(tables: dict[str, tuple[str, str]]) -> dict[str, str]:
    """Each student's classmate at `tables`, by name; every student sits at exactly one."""
    seated = {name: pair[1 - index] for pair in tables.values() for index, name in enumerate(pair)}
    assert sorted(seated) == sorted(NAMES) and len(tables) * 2 == len(NAMES), tables
    return seated


def at_round_table(tab: Any, number: int, classmate: str) -> Any:
    """Assert that `tab` shows Play at a class table whose board names `classmate` (their square) and says round
    `number`: the board."""
    expect(tab.get_by_role("tab", name=text("app.tabs.play"), exact=True)).to_have_attribute("aria-selected", "true",
                                                                                  timeout=TIMEOUT)
    board = tab.locator(".lt-play .lt-board")
    expect(board.locator(".lt-message")).to_contain_text(
        text("classmates.round.classmate", number=number) + " " + opening("classmates.started", "code", name=classmate,
                                                                         hands=1), timeout=TIMEOUT)
    expect(board.get_by_role("group", name=text("play.people.square", name=classmate), exact=True)).to_be_visible()
    expect(board.locator(".lt-turn")).to_have_text(ONE_HAND_TURN)
    return board


def standings_shown(teacher: Any) -> dict[str, list[str]]:
    """The class page's standings as shown, by name: each row's cells in `STANDING_COLUMNS` order."""
    rows: list[list[str]] = teacher.locator("#lt-standings-rows tr").evaluate_all(
        "rows => rows.map(row => [...row.cells].map(cell => cell.textContent))")
    return {row[0]: row for row in rows}


def one_match_each(rows: dict[str, list[str]], players: tuple[str, str]) -> None:
    """Assert that `rows` (by name, `STANDING_COLUMNS`) count one match for each of `players`, the same match seen
    from both sides."""
    first, second = (dict(zip(STANDING_COLUMNS, rows[name], strict=True)) for name in players)
    for row in (first, second):
        assert row["played"] == "1" and sum(int(row[key]) for key in ("won", "drawn", "lost")) == 1, rows
    assert (first["won"], first["drawn"], first["lost"]) == (second["lost"], second["drawn"], second["won"]), rows
    assert (first["for"], first["against"]) == (second["against"], second["for"]), rows


def test_the_teacher_pairs_four_students_for_two_rounds_and_a_restart_keeps_them(
        browser: Any, start_own_server: Any, server_tools: Any, tmp_path: Path, artifacts: Path) -> None:
    data = tmp_path / "data"
    server = start_own_server("--teacher-token", TOKEN, "--data-dir", str(data))
    start, stop = server_tools
    errors: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1100, "height": 1000}, locale="en-US") for _ in range(5)]
    restarted = []
    try:
        teacher, *tabs = (context.new_page() for context in contexts)
        for tab, who in zip((teacher, *tabs), ("teacher", *NAMES), strict=True):
            counted_errors(tab, who, errors)
        students = dict(zip(NAMES, tabs, strict=True))
        teacher_url = f"{server.url}teacher?token={TOKEN}"

        # 0. Before anyone has come, Pair the class is greyed with why beside it; pressed all the same, it says why and
        # sends nothing; the refusal goes once students come (it stayed on a projected page beside four students)
        teacher.goto(teacher_url)
        nobody = text("classmates.refused.nobody_to_pair")
        expect(teacher.locator("#lt-pair-button")).to_have_attribute("aria-disabled", "true", timeout=TIMEOUT)
        expect(teacher.locator("#lt-pair-why")).to_have_text(nobody)
        teacher.locator("#lt-pair-button").click(force=True)  # (Playwright waits for a greyed button otherwise)
        expect(teacher.locator("#lt-status")).to_have_text(nobody, timeout=TIMEOUT)
        expect(teacher.locator("#lt-round")).to_have_text("")  # no round paired

        # 1. Four students keep their names and go to Learn; the teacher pairs the class for matches of one hand.
        for tab in students.values():  # all four arrive at once
            tab.goto(server.url, wait_until="commit", timeout=START_MS)
        for name, tab in students.items():
            drawn_board(tab)
            name_student(tab, name)
            tab.get_by_role("tab", name=text("app.tabs.learn"), exact=True).click()
            play = tab.get_by_role("tab", name=text("app.tabs.play"), exact=True)
            expect(play).to_have_attribute("aria-selected", "false")
        for name in NAMES:
            expect(teacher.locator("#lt-rows tr th", has_text=name)).to_have_count(1, timeout=TIMEOUT)
        expect(teacher.locator("#lt-status")).to_have_text("")
        expect(teacher.locator("#lt-rows tr")).to_have_count(len(NAMES))
        pair = teacher.locator("#lt-pair-button")
        expect(pair).not_to_have_attribute("aria-disabled", "true", timeout=TIMEOUT)
        expect(teacher.locator("#lt-pair-why")).to_have_text("")
        expect(pair).to_have_text(text("teacher.page.pair"))
        expect(teacher.locator("#lt-round")).to_have_text("")
        teacher.locator("#lt-pair-length").select_option(label=text("teacher.rounds.hands", hands=1))
        pair.click()
        expect(teacher.locator("#lt-status")).to_have_text(text("teacher.rounds.paired", number=1, tables=2),
                                                           timeout=TIMEOUT)
        said = teacher.locator("#lt-pair-said")  # beside the button too, a screen's height below the header
        expect(said).to_have_text(text("teacher.rounds.paired", number=1, tables=2))
        assert said.bounding_box()["y"] > pair.bounding_box()["y"]
        first_round = opponents(listed_tables(teacher))
        boards = {name: at_round_table(tab, 1, first_round[name]) for name, tab in students.items()}
        expect(pair).to_have_text(text("teacher.page.next_round"))
        expect(teacher.locator("#lt-round")).to_have_text(re.compile(
            "^" + escaped(opening("teacher.rounds.last", "when", number=1))))

        # 2. Ana's table plays its hand by clicks to the end; at the other table a player leaves.
        players = ("Ana", first_round["Ana"])
        leaver, stayer = sorted(name for name in NAMES if name not in players)
        students[leaver].get_by_role("button", name=text("classmates.leave")).click()
        students[leaver].get_by_role("button", name=text("classmates.leave_question.start")).click()  # asked first
        expect(boards[leaver].locator(".lt-message")).to_contain_text(
            re.compile(escaped(opening("classmates.left_lost", "code")) + "[A-Z]{4}"), timeout=TIMEOUT)
        expect(boards[stayer].locator(".lt-message")).to_contain_text(
            opening("classmates.other_left_won", "code", name=leaver), timeout=TIMEOUT)
        moves = play_the_hand_by_clicks({name: boards[name] for name in players}, out_after=0,
                                        move=towards_lines_by_clicks)
        assert moves > 0
        for name in players:
            expect(boards[name].locator(".lt-turn")).to_have_text(MATCH_OVER, timeout=TIMEOUT)  # (of one hand)
        expect(teacher.locator("#lt-tables li")).to_have_text([text("teacher.page.no_tables")], timeout=TIMEOUT)
        closed = teacher.locator("#lt-closed li")  # the two tables closed lately, the latest first, and how they count
        expect(closed).to_have_count(2, timeout=TIMEOUT)
        expect(closed.nth(0)).to_contain_text(text("teacher.closed.how.finished"))
        expect(teacher.locator("#lt-standings-today")).to_have_attribute("aria-pressed", "true")
        expect(teacher.locator("#lt-standings-rows tr")).to_have_count(len(NAMES), timeout=TIMEOUT)
        expect(teacher.locator("#lt-standings-columns th")).to_have_text(
            [text(f"teacher.standings.columns.{key}") for key in STANDING_COLUMNS])
        today = standings_shown(teacher)
        one_match_each(today, players)
        one_match_each(today, (leaver, stayer))
        points_for = STANDING_COLUMNS.index("for")  # the stayer's one match: its points are theirs for and against
        # left before a hand of it finished: no points counted, as the standings count none
        assert today[stayer][points_for:points_for + 2] == ["0", "0"]
        expect(closed.nth(1)).to_contain_text(text("teacher.closed.line", how=text(
            "teacher.closed.how.left", name=leaver), counted=text(
                "teacher.closed.counted.won_unplayed", winner=stayer, loser=leaver)))
        assert today[leaver][2:5] == ["0", "0", "1"], "who leaves loses the match"
        sheet = teacher.request.get(f"{server.url}teacher/api/class.csv?token={TOKEN}")
        assert sheet.status == 200
        exported = list(csv.reader(io.StringIO(sheet.text().removeprefix(CSV_MARK))))
        standings_part = exported[exported.index([]) + 1:]
        assert standings_part.pop(0) == [text("teacher.standings.csv_title")]
        assert standings_part[0] == [text(f"teacher.standings.columns.{key}") for key in STANDING_COLUMNS]
        exported_rows = {row[0]: row for row in standings_part[1:]}
        assert {name: exported_rows[name] for name in players} == {name: today[name] for name in players}

        # 3. "Next round", pressed on the teacher's other page (the desk's, the first one being projected): everyone
        # plays someone new; the projected page's menus, set meanwhile to another length, follow the round paired
        length = teacher.locator("#lt-pair-length")
        length.select_option(label=text("teacher.rounds.hands", hands=4))
        desk = contexts[0].new_page()
        desk.goto(teacher_url)
        expect(desk.locator("#lt-pair-length")).to_have_value("1", timeout=TIMEOUT)  # the last round's
        desk.locator("#lt-pair-button").click()
        expect(desk.locator("#lt-status")).to_have_text(text("teacher.rounds.paired", number=2, tables=2),
                                                        timeout=TIMEOUT)
        expect(length).to_have_value("1", timeout=TIMEOUT)
        desk.close()
        second_tables = listed_tables(teacher)
        second_round = opponents(second_tables)
        for name, tab in students.items():
            assert second_round[name] != first_round[name], (first_round, second_round)
            at_round_table(tab, 2, second_round[name])
        said = teacher.locator("#lt-round").inner_text()
        assert said.startswith(opening("teacher.rounds.last", "when", number=2)), said
        teacher.screenshot(path=str(artifacts / "teacher-rounds.png"), full_page=True)

        # 4. The server restarts on the same data folder and port; every page opens again.
        for tab in (teacher, *tabs):
            tab.goto("about:blank")
        stop(server.process)
        port = int(server.url.rsplit(":", 1)[1].strip("/"))  # a browser's identity cookie is named by the port
        again = start(tmp_path / "again.log", "--teacher-token", TOKEN, "--data-dir", str(data), port=port)
        restarted.append(again)
        teacher.goto(teacher_url)
        expect(teacher.locator("#lt-round")).to_have_text(said, timeout=TIMEOUT)
        expect(pair).to_have_text(text("teacher.page.next_round"))
        assert listed_tables(teacher) == second_tables
        expect(teacher.locator("#lt-standings-rows tr")).to_have_count(len(NAMES), timeout=TIMEOUT)
        assert standings_shown(teacher) == today
        for tab in students.values():
            tab.goto(again.url, wait_until="commit", timeout=START_MS)
        for name, tab in students.items():
            drawn_board(tab)
            at_round_table(tab, 2, second_round[name])
        assert not errors, "\n".join(errors)
    finally:
        for context in contexts:
            context.close()
        for kept in restarted:
            stop(kept.process)
