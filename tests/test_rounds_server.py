"""The teacher pairs the class on a real server, at the protocol level (three visitors: three cookie jars, three
kernels, each page's frames as a browser receives them): each student keeps a name, the teacher presses "Pair the
class", and with no click of their own two pages move to their table, each board naming the classmate and the
round, while the third page plays the computer and says so."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

from class_players import board_update, in_play, keep_name, latest_board
from kernel_client import Visit, run
from rendered import opening

from leopard_tutor.engine.catalogue import text

TOKEN = "a-teacher-token-for-rounds-0123456789"
NAMES = ("Ana", "Ben", "Cat")


def teacher_post(url: str, action: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The class page's request `action` with `body`: its status and JSON answer."""
    request = urllib.request.Request(f"{url}teacher/api/{action}?token={TOKEN}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def teacher_get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}teacher/api/class?token={TOKEN}", timeout=30) as answer:
        found: dict[str, Any] = json.loads(answer.read())
    return found


def says(table: dict[str, Any], words: str) -> bool:
    return words in str(table.get("message", ""))


def test_pairing_the_class_moves_each_page_to_its_round(start_own_server: Any) -> None:
    server = start_own_server("--teacher-token", TOKEN)

    async def scenario() -> None:
        visits = [Visit(server.url) for _ in NAMES]
        await asyncio.gather(*(visit.open() for visit in visits))
        try:
            for visit, name in zip(visits, NAMES, strict=True):
                await keep_name(visit, name)
            deadline = asyncio.get_running_loop().time() + 30
            while {row["cells"][0]["text"] for row in teacher_get(server.url)["students"]} != set(NAMES):
                assert asyncio.get_running_loop().time() < deadline, "every name reaches the class page"
                await asyncio.sleep(0.3)
            for visit in visits:
                visit.received.clear()
            status, answer = teacher_post(server.url, "pair", {"rules": "REVISED_2008", "hands": 1})
            assert status == 200 and answer["said"].startswith(text("teacher.rounds.paired", number=1, tables=1))
            report = teacher_get(server.url)
            assert report["round"]["number"] == 1 and len(report["tables"]) == 1
            seated = report["tables"][0]["names"]
            alone = next(name for name in NAMES if name not in seated)
            assert text("teacher.rounds.computer", name=alone, level=text("levels.names.beginner")) in answer["said"]
            for visit, name in zip(visits, NAMES, strict=True):
                if name == alone:
                    words = text("classmates.round.computer", number=1, level=text("levels.names.beginner"))
                else:
                    other = next(other for other in seated if other != name)
                    words = text("classmates.round.classmate", number=1) + " " + opening(
                        "classmates.started", "code", name=other, hands=1)
                shown = await board_update(visit, lambda t, w=words: says(t, w), timeout=30)
                assert says(shown, words)
                if name != alone:  # the board names the classmate's square, and whose turn it is
                    other = next(other for other in seated if other != name)
                    assert text("play.people.square", name=other) in [part["label"] for part in shown["squares"]]
                    assert in_play(shown, other)
            # once the page of the one left over has said that it plays the round's computer (its report comes after
            # its board is drawn, later on a busy machine), another round is refused: no round of no table
            playing = text("teacher.now.round_computer", number=1)
            deadline = asyncio.get_running_loop().time() + 30
            while not any(row["cells"][0]["text"] == alone and any(playing in cell["text"] for cell in row["cells"])
                          for row in teacher_get(server.url)["students"]):
                assert asyncio.get_running_loop().time() < deadline, f"{alone}'s page says it plays the computer"
                await asyncio.sleep(0.3)
            status, again = teacher_post(server.url, "pair", {"rules": "REVISED_2008", "hands": 1})
            # the one free still plays the round's computer, the two others sit at their table
            assert status == 400 and again["said"] == text("classmates.refused.one_free", name=alone, count=2, number=1)
            assert teacher_get(server.url)["round"]["number"] == 1
            status, refused = teacher_post(server.url, "pair", {"rules": "REVISED_2008", "hands": 3})
            assert status == 400 and refused["said"] == text("classmates.refused.bad_hands")
            assert latest_board(visits[0])
        finally:
            await asyncio.gather(*(visit.close() for visit in visits))

    run(scenario())


def test_a_round_against_the_computer_heard_by_two_pages_of_one_student_is_played_in_one(
        start_own_server: Any) -> None:
    """Ana has two pages open when the round gives her the computer: the server lets the first that asks play it
    (`take_round`, through the class handlers' route), and the other says that it goes on there."""
    server = start_own_server("--teacher-token", TOKEN)

    async def scenario() -> None:
        first = Visit(server.url)
        await first.open()
        second = Visit(server.url, cookies=dict(first.cookies))  # the same browser: the same visitor
        try:
            await second.open()
            await keep_name(first, "Ana")
            deadline = asyncio.get_running_loop().time() + 30
            while [row["cells"][0]["text"] for row in teacher_get(server.url)["students"]] != ["Ana"]:
                assert asyncio.get_running_loop().time() < deadline, "her name reaches the class page"
                await asyncio.sleep(0.3)
            status, answer = teacher_post(server.url, "pair", {"rules": "REVISED_2008", "hands": 1})
            assert status == 200, answer
            played = text("classmates.round.computer", number=1, level=text("levels.names.beginner"))
            elsewhere = text("classmates.round.elsewhere", number=1)
            shown = await asyncio.gather(*(board_update(visit, lambda t: says(t, played) or says(t, elsewhere),
                                                        timeout=30) for visit in (first, second)))
            assert sorted(says(table, played) for table in shown) == [False, True], [t["message"] for t in shown]
        finally:
            await asyncio.gather(first.close(), second.close())

    run(scenario())
