"""Saved-game codes: a game in progress comes back whole from its code, and a bad code is explained and
changes nothing (the code itself, and the Save game / Resume control of the Play section)."""

from __future__ import annotations

import base64
import json
import random
import re
import string
import zlib

import pytest
from keyed import keys_in, mark, said

from leopard_tutor.ai import LEVELS
from leopard_tutor.engine import ORIGINAL_1963, RULE_SETS, Match, Move, PlayerView
from leopard_tutor.engine import game_code as game_code_module
from leopard_tutor.engine.game_code import (
    GAME_PREFIX,
    MAX_GAME_CODE,
    SEALED_PREFIX,
    GameCodeError,
    game_code,
    read_game_code,
)
from leopard_tutor.widgets import build_play


class FirstMove:
    def __init__(self, level: str = "beginner", seed: int | None = None) -> None:
        self.level, self.seed = level, seed

    def choose(self, view: PlayerView) -> Move:
        return view.legal_moves()[0]


def played(match: Match, moves: int, seed: int = 1) -> Match:
    rng = random.Random(seed)
    for _ in range(moves):
        hand = match.current
        if hand.is_over:
            if match.is_over:
                break
            match.next_hand()
            continue
        hand.apply(rng.choice(hand.legal_moves()))
    return match


@pytest.mark.parametrize(("moves", "level"), [(0, "beginner"), (17, "expert"), (400, "intermediate")])
def test_a_match_comes_back_whole_from_its_code(moves: int, level: str) -> None:
    match = played(Match(ORIGINAL_1963, seed="CLASS7"), moves)
    code = game_code(match, level)
    assert code.startswith(GAME_PREFIX) and len(code) < MAX_GAME_CODE
    game = read_game_code(" " + code[:40] + "\n" + code[40:] + " ", LEVELS)  # as pasted from a mail
    assert game.level == level and game.match.to_json() == match.to_json()
    assert game.match.current.legal_moves() == match.current.legal_moves()


def packed(data: object) -> str:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return GAME_PREFIX + base64.urlsafe_b64encode(zlib.compress(raw)).decode()


def saved(level: str = "beginner") -> dict[str, object]:
    return {"level": level, "match": json.loads(played(Match(seed=5), 9).to_json())}


def tampered() -> dict[str, object]:
    data = saved()
    hand = data["match"]["hands_played"][0]  # type: ignore[index]
    hand["moves"] = list(reversed(hand["moves"]))
    return data


def custom_rules() -> dict[str, object]:
    data = saved()
    for rules in [data["match"]["rules"], *(h["rules"] for h in data["match"]["hands_played"])]:  # type: ignore[index]
        rules["suit_points"] = 5
    return data


LEVELS_KNOWN = ("beginner", "casual", "intermediate", "expert", "master")


@pytest.mark.parametrize(("code", "key"), [
    (42, "not_text"),
    ("  \n ", "empty"),
    ("A" * (MAX_GAME_CODE + 1), "too_long"),
    ("LT2-abc", "not_ours"),
    (GAME_PREFIX + "not*base64!", "damaged"),
    (GAME_PREFIX + base64.urlsafe_b64encode(zlib.compress(b"{}"))[:-6].decode(), "damaged"),
    (packed([1, 2]), "damaged"),
    (packed(b"[" * 100_000 + b"]" * 100_000), "damaged"),
    (packed(b" " * 600_000 + b"{}"), "too_long"),
    (packed(saved("grandmaster")), "level"),
    (packed(tampered()), "not_a_game"),
    (packed(custom_rules()), "rules"),
])
def test_a_bad_code_is_explained_for_the_learner(code: object, key: str, keyed: None) -> None:
    with pytest.raises(GameCodeError) as error:
        read_game_code(code, LEVELS)
    assert keys_in(str(error.value))[0] == f"play.saved_game.{key}"
    if key == "not_ours":
        assert said(str(error.value), "play.saved_game.not_ours", prefix=GAME_PREFIX) and GAME_PREFIX == "LG1-"
    if key == "level":  # the opponents the tutor has, each named in a sentence's words
        known = [mark(f"levels.in_sentence.{level}") for level in LEVELS_KNOWN]
        assert tuple(LEVELS) == LEVELS_KNOWN
        assert said(str(error.value), "play.saved_game.level",
                    known=mark("words.and_list", first=mark("words.list_separator").join(known[:-1]), last=known[-1]))


def code_shown(shown: str) -> str:
    """The saved-game code in the saver's box (which its label names)."""
    assert f"aria-label='{mark('play.saved_game.label')}'>" in shown
    found = re.search("<textarea[^>]*>(.*?)</textarea>", shown)
    assert found
    return found.group(1)


def test_save_then_resume_in_the_play_section(keyed: None) -> None:
    section = build_play(FirstMove(), opponent_factory=FirstMove, level="intermediate", seed="CLASS7",
                         rules="ORIGINAL_1963")
    board, controller = section.board, section.controller
    for _ in range(3):
        board.dispatch({"type": "select", "index": 0})
        board.dispatch({"type": "discard"})
    section.saver.show_code()
    shown = section.saver.shown.value
    assert "readonly rows='3' cols='60'" in shown
    code = code_shown(shown)
    table = board.state

    other = build_play(FirstMove(), opponent_factory=FirstMove, level="beginner")
    other.saver.code.value = code
    other.board.act(other.saver.resume)  # what the Resume button does
    assert other.controller.match.to_json() == controller.match.to_json()
    assert other.level_pick.value == "intermediate" and other.rules_pick.value == "ORIGINAL_1963"
    assert isinstance(other.controller.opponent, FirstMove) and other.controller.opponent.level == "intermediate"
    def names(state: dict[str, object]) -> list[str]:
        return [cell["name"] for square in state["squares"] for cell in square["cells"]]  # type: ignore[attr-defined]
    assert names(other.board.state) == names(table) and other.board.state["hand"] == table["hand"]
    assert other.controller.log == controller.log and len(controller.log) == 6  # the moves so far, told again
    assert other.board.state["message"].startswith(mark("play.saved_game.resumed", number=1, hands=4,
                                                           rules=mark("rules.ORIGINAL_1963"),
                                                           level=mark("levels.in_sentence.intermediate")))
    other.board.dispatch({"type": "select", "index": 0})  # play goes on
    assert keys_in(other.board.state["message"])[0] == "play.picked"

    before = other.controller.match.to_json()
    other.saver.code.value = code[:-10]
    other.board.act(other.saver.resume)
    assert other.board.state["message"] == mark("play.saved_game.damaged")
    assert other.board.state["error"] == "" and other.controller.match.to_json() == before
    # said under the box too (the board's message may be a screen above it), until the box changes
    assert other.saver.refusal.value == f"<p>{mark('play.saved_game.damaged')}</p>"
    assert other.saver.refusal.layout.display == ""
    other.saver.code.value = code
    assert other.saver.refusal.value == "" and other.saver.refusal.layout.display == "none"


def test_a_saved_game_resumed_between_two_people_seats_the_computer_again(keyed: None) -> None:
    section = build_play(FirstMove(), opponent_factory=FirstMove, level="casual", seed="LEO-AAAA")
    section.saver.show_code()
    shown = section.saver.shown.value
    code = code_shown(shown)
    other = build_play(FirstMove(), opponent_factory=FirstMove, level="beginner")
    other.level_pick.value = "people"
    assert other.controller.both_here
    other.saver.code.value = code
    other.board.act(other.saver.resume)
    assert not other.controller.both_here and other.controller.viewer == 0
    assert isinstance(other.controller.opponent, FirstMove) and other.controller.opponent.level == "casual"
    assert other.level_pick.value == "casual" and other.names_row.layout.display == "none"
    assert "hand" in other.board.state and other.board.state["error"] == ""


def test_a_code_made_with_a_key_is_sealed_and_only_that_key_reads_it(keyed: None) -> None:
    """A code a class server makes is sealed: its body holds neither the computer's hand nor the stock's order in any
    form a reader without the key could open (its plain JSON held both: a student read the computer's cards in the
    browser's storage), read with the key it is sealed, and read without it, or with another, it is refused as another
    server's; changed by a character, or cut short, as damaged. A plain code is read by any reader, unsealed; a plain
    code of before, whose seal stood beside its JSON, still reads as sealed with its key, and unsealed once changed."""
    key, match = b"k" * 32, Match(seed=5)
    sealed = game_code(match, "expert", key)
    assert sealed.startswith(SEALED_PREFIX) and sealed == game_code(match, "expert", key), "one match, one code"
    found = read_game_code(sealed, LEVELS, key)
    assert found.sealed and found.match.to_json() == match.to_json() and found.level == "expert"
    body = base64.urlsafe_b64decode(sealed[len(SEALED_PREFIX):] + "==")
    with pytest.raises(zlib.error):
        zlib.decompress(body)
    hidden = [f'"{card}"' for card in match.current.held[1]]  # (as its JSON writes them)
    assert not any(card.encode() in body for card in hidden)
    assert all(card in match.to_json() for card in hidden)
    place = len(sealed) // 2
    changed = sealed[:place] + ("A" if sealed[place] != "A" else "B") + sealed[place + 1:]
    for code, reader, why in ((sealed, None, "other_server"), (sealed, b"x" * 32, "another_server"),
                              (changed, key, "damaged"), (sealed[:-12], key, "damaged"),
                              (SEALED_PREFIX + "garbage", key, "damaged"), ("hello", key, "not_ours_here")):
        with pytest.raises(GameCodeError) as refused:
            read_game_code(code, LEVELS, reader)
        assert keys_in(str(refused.value)) == [f"play.saved_game.{why}"]
        if why == "not_ours_here":  # a class server's codes are sealed; it reads those made elsewhere too
            assert said(str(refused.value), "play.saved_game.not_ours_here", prefix=SEALED_PREFIX, other=GAME_PREFIX)
    assert not read_game_code(game_code(match, "expert"), LEVELS, key).sealed
    data = {"level": "expert", "match": json.loads(match.to_json())}
    data["seal"] = game_code_module._seal(data, key)
    for before, sealed_then in ((data, True), ({**data, "level": "beginner"}, False),
                                ({**data, "seal": "é" * 32}, False), ({**data, "seal": ["a"]}, False)):
        code = GAME_PREFIX + base64.urlsafe_b64encode(zlib.compress(json.dumps(before).encode())).decode()
        assert read_game_code(code, LEVELS, key).sealed is sealed_then, before.get("seal")
        assert not read_game_code(code, LEVELS).sealed


def test_a_code_with_one_character_changed_is_damaged_not_too_long(keyed: None) -> None:
    # a broken stream leaves input over, which read as "too long to be one of ours" (a QA helper's 790-character code)
    match = Match(RULE_SETS["REVISED_2008"], seed=3)
    for _ in range(6):
        match.current.apply(sorted(match.current.legal_moves(), key=str)[0])
    code = game_code(match, "expert")
    rng = random.Random(7)
    alphabet = string.ascii_letters + string.digits + "-_"
    seen = set()
    for _ in range(120):
        place = rng.randrange(len(GAME_PREFIX), len(code))
        changed = code[:place] + rng.choice(alphabet.replace(code[place], "")) + code[place + 1:]
        try:
            read_game_code(changed, LEVELS)
        except GameCodeError as error:
            seen.add(keys_in(str(error))[0])
    assert "play.saved_game.too_long" not in seen and "play.saved_game.damaged" in seen
