"""Saved-game codes: a match in progress under one of the app's rule sets (its JSON, compressed) and the
opponent's level, as one text to copy, keep and paste back later to resume the game:
`game_code(match, level)` and `read_game_code(code, levels)`. A code is bounded (`MAX_GAME_CODE`
characters, inflating to at most the engine's `MAX_SAVED_MATCH`), and a code that cannot be read
raises `GameCodeError` with a sentence for the learner, changing nothing.

A code made with a `key` (a class server's) is sealed (`packing.pack`, prefix `SEALED_PREFIX`): only that key reads
it, so nobody reads the computer's hand or the stock's order in it (its plain JSON held both), and read with the key
it is `sealed`: whoever holds the key made it, and its moves are the match as it was played. Read without that key
it is refused ("play.saved_game.other_server"). A plain code is read by any reader (its moves are checked by the
engine again); one of before the sealed codes carried a seal beside its JSON (an HMAC of what it holds), which still
reads as `sealed` with its key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

from .catalogue import and_list, text
from .errors import LeopardError
from .match import MAX_SAVED_MATCH, Match
from .packing import PackedError, pack, unpack
from .rules import RULE_SETS

GAME_PREFIX = "LG1-"
SEALED_PREFIX = "LG2-"
MAX_GAME_CODE = 100_000
"""Characters a code may have: a whole match of four hands takes about 5,000."""
SEAL_DIGITS = 32
"""Hex digits of a code's seal (128 bits of an HMAC-SHA256)."""


class GameCodeError(LeopardError):
    """A saved-game code that cannot be read; its message is for the learner."""


@dataclass(frozen=True)
class SavedGame:
    """What a code holds: the match as it stood, the level of the computer opponent, and whether the code bears the
    seal of the key it was read with."""

    match: Match
    level: str
    sealed: bool = False


def game_code(match: Match, level: str, key: bytes | None = None) -> str:
    """The code of `match` played against an opponent of `level`, sealed under `key` if one is given."""
    data: dict[str, Any] = {"level": level, "match": json.loads(match.to_json())}
    return GAME_PREFIX + pack(data) if key is None else SEALED_PREFIX + pack(data, key)


def _seal(data: dict[str, Any], key: bytes) -> str:
    """The seal a plain code of before the sealed ones carried beside its level and match, under `key`."""
    said = json.dumps({"level": data.get("level"), "match": data.get("match")}, sort_keys=True,
                      separators=(",", ":"))
    return hmac.new(key, said.encode(), hashlib.sha256).hexdigest()[:SEAL_DIGITS]


def read_game_code(code: object, levels: tuple[str, ...], key: bytes | None = None) -> SavedGame:
    """The game in `code`, its level one of `levels`, sealed if it bears `key`'s seal; GameCodeError (for the
    learner) if it cannot be read."""
    if not isinstance(code, str):
        raise GameCodeError(key="play.saved_game.not_text")
    if len(code) > 2 * MAX_GAME_CODE:
        raise GameCodeError(key="play.saved_game.too_long")
    code = "".join(code.split())
    if not code:
        raise GameCodeError(key="play.saved_game.empty")
    if len(code) > MAX_GAME_CODE:
        raise GameCodeError(key="play.saved_game.too_long")
    sealing = code.startswith(SEALED_PREFIX)
    if not (sealing or code.startswith(GAME_PREFIX)):  # (a class server reads the codes made elsewhere too)
        raise GameCodeError(key="play.saved_game.not_ours", facts={"prefix": GAME_PREFIX}) if key is None else \
            GameCodeError(key="play.saved_game.not_ours_here", facts={"prefix": SEALED_PREFIX, "other": GAME_PREFIX})
    if sealing and key is None:
        raise GameCodeError(key="play.saved_game.other_server")
    try:
        data = unpack(code[len(GAME_PREFIX):], MAX_SAVED_MATCH, key if sealing else None)
    except PackedError as error:
        raise GameCodeError(key="play.saved_game.another_server" if error.kind == "other_key"
                            else f"play.saved_game.{error.kind}") from None
    if not isinstance(data, dict) or not isinstance(data.get("match"), dict):
        raise GameCodeError(key="play.saved_game.damaged")
    level = data.get("level")
    if not isinstance(level, str) or level not in levels:
        raise GameCodeError(key="play.saved_game.level",
                            facts={"known": and_list([text(f"levels.in_sentence.{known}") for known in levels])})
    try:
        match = Match.from_json(json.dumps(data["match"]))
    except LeopardError:
        raise GameCodeError(key="play.saved_game.not_a_game") from None
    if match.rules not in RULE_SETS.values():
        raise GameCodeError(key="play.saved_game.rules")
    seal = data.get("seal")
    sealed = sealing or (key is not None and isinstance(seal, str) and seal.isascii()
                         and hmac.compare_digest(seal, _seal(data, key)))
    return SavedGame(match, level, sealed)
