"""What a page's kernel and the class server say to each other: the one place both sides read (standard library only).

A kernel asks the server over HTTP, on the server's own address, under its base URL:

* `CLASS_PATH` + `mine`, `wait?known=STATE`, `tables` (GET) and `open`, `join`, `move`, `end`, `take` (POST): the class
  tables (`server/class_handlers.py`, asked by `client.class_client.ClassClient`). A report of the visitor's table
  carries "state", one word for all it says: a kernel that sends it back as `known` is answered once it changes, or
  after `WAIT_SECONDS`;
* `STUDENTS_PATH` + `me` (GET) and `offer`, `name`, `progress`, `game`, `now`, `tried` (POST): the student's record
  (`server/student_handlers.py`, asked by `client.student_client.StudentClient`): what the student does is one
  of `DOINGS`; a finished match against `COMPUTER` + a level is counted once under its id (`MATCH_ID_LENGTH` hex
  digits) with one of `engine.match.RESULTS`, and a hand played to its end against it or a `CLASSMATE` once under
  the match's id and its number (a match between classmates is counted from its table).

Every request names its kernel in `KERNEL_HEADER` and proves it is that kernel in `PROOF_HEADER` (`kernel_proof`,
checked by `proof_holds`); bodies and answers are JSON objects; a refusal is HTTP 400 {"refused": key, "facts":
{...}}, `key` a text under "classmates.refused" in the catalogue. The server tells a kernel it is a class server's
by `CLASS_TABLES_ENV` in its environment. A table between classmates ends `LEFT` (a player left it) or `COMPUTER`
+ a level (a player finished it against the computer).

The page keeps the learner's chosen language in `LANGUAGE_COOKIE` for the server's own pages, and both sides read
the browser's languages from its Accept-Language header (`accepted_languages`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence

KERNEL_HEADER = "X-Leopard-Kernel"
"""The request header that names the kernel asking."""
PROOF_HEADER = "X-Leopard-Kernel-Proof"
"""The request header that carries the kernel's proof (`kernel_proof`)."""
CLASS_TABLES_ENV = "LEOPARD_TUTOR_CLASS_TABLES"
"""Set to "1" in the environment of a class server's kernels: they may ask for the class tables and records."""
CODE_KEY_ENV = "LEOPARD_TUTOR_CODE_KEY"
"""The key (hex digits) a class server gives its kernels to seal the saved-game codes they make (`code_key`): a
match resumed from a code this server's kernels sealed is told to the class page; one from any other code is played
but never counted there (a code's moves are whatever its maker wrote)."""
CLASS_PATH = "leopard/class/"
"""Where the class tables' handlers are, under the server's base URL."""
STUDENTS_PATH = "leopard/students/"
"""Where the students' handlers are, under the server's base URL."""
LEVELS = ("beginner", "casual", "intermediate", "expert", "master")
"""The computer's levels, weakest first, as both sides name them (a class's default opponent, `COMPUTER` + a level):
`ai.players.PLAYERS` makes a player of each."""
ADAPTIVE = "adaptive"
"""The opponent menu's choice of a level that follows the learner's results (`ai.adaptive.AdaptiveLevel`)."""
LEVEL_CHOICES = (*LEVELS, ADAPTIVE)
"""What a link, the class's default or the opponent menu may choose of the computer: a level, or the adaptive one."""
MATCH_LENGTHS = (1, 2, 4)
"""The hands a class table's match may have (its host chooses, or the teacher for a round; none chosen: the rule
set's own length)."""
WAIT_SECONDS = 20.0
"""The longest the server holds a long poll (`wait`) before it answers anyway."""
ASK_SECONDS = 10.0
"""How long a kernel waits for the answer to an ordinary request."""
DOINGS = ("learn", "play", "practice", "examples", "rules")
"""What a student may be doing (`POST now`)."""
NOW_AGAIN_SECONDS = 60.0
"""A page tells what the student is doing when it changes, and at their first click after this long, though it has not
changed: the server's last `now` is at most this much older than the student's last click."""
MATCH_ID_LENGTH = 16
"""Hex digits of a finished match's id (`client.student_client.match_id`)."""
CLASSMATE = "classmate"
"""A match against a classmate, as a report names its opponent (and the opponent menu its choice of one)."""
COMPUTER = "computer:"
"""What starts the name of a match against the computer (then its level), as a report or a table's ending says it."""
LEFT = "left"
"""A class table a player left (`end`)."""
FINISHED = "finished"
"""A class table whose match was played to its end, as its row and its players' reports say."""
PAIRED = "paired"
"""A class table nobody joined that closed for the teacher's round, which seats its host (`Referee.pair`)."""
GONE_SECONDS = 120.0
"""A player at a class table not heard from for this long is gone: the other may finish against the computer (and a
table nobody joined, its host gone, closes)."""
EVERYONE_GONE_SECONDS = 600.0
"""A class table in play whose players have all been gone this long closes as abandoned, its match counting for
nobody: a laptop asleep or a classroom's Wi-Fi down for a few minutes loses no match, and a restarted server gives
every page this long to be reloaded."""
LANGUAGE_COOKIE = "leopard_tutor_language"
"""The cookie in which the page keeps the learner's chosen language (as well as in its storage), for the class
server's own pages: the class is full, the waiting line, the class page."""
THEME_ARGUMENTS = ("theme", "voila-theme")
"""How a link asks the server for the page's theme (light or dark): Voilà's own ?theme= and the newer
?voila-theme=. The kernel reads the rest of the link (`links.py`) and passes these over."""


def theme_of(arguments: Mapping[str, Sequence[bytes]]) -> str | None:
    """The theme a request's `arguments` ask for by either name of `THEME_ARGUMENTS`: "light" or "dark"; None if
    they ask for none, for another, or for a theme twice."""
    asked = [value for name in THEME_ARGUMENTS for value in arguments.get(name, ())]
    return asked[0].decode() if len(asked) == 1 and asked[0] in (b"light", b"dark") else None
MAX_LANGUAGES = 8
"""Of the languages a browser asks for, the first these many are read."""


def accepted_languages(header: str) -> tuple[str, ...]:
    """The languages of an Accept-Language header ("es-ES,es;q=0.9,en;q=0.8"), best first (at most
    MAX_LANGUAGES, each as the browser said it; what cannot be read is left out)."""
    found: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:500].split(",")[:20]):
        tag, _, weight = part.strip().partition(";")
        quality = 1.0
        if weight.strip().startswith("q="):
            try:
                quality = float(weight.strip()[2:])
            except ValueError:
                continue
        if tag and tag != "*" and quality > 0:
            found.append((-quality, index, tag.strip()))
    return tuple(tag for _, _, tag in sorted(found))[:MAX_LANGUAGES]


def match_key(rules: str, hands: int, seed: int | str) -> str:
    """The id of the match of rule set `rules` (its key), `hands` hands and deal `seed` (`MATCH_ID_LENGTH` hex digits):
    what a page counts a match under (`client.student_client.match_id`), and what the server makes for a match whose
    deal it chose (a round's match against the computer)."""
    said = json.dumps([rules, hands, seed])
    return hashlib.sha256(said.encode()).hexdigest()[:MATCH_ID_LENGTH]


def kernel_proof(key: bytes, kernel_id: str) -> str:
    """What the kernel `kernel_id` shows to prove it is that kernel (when it asks for its visitor's request or for
    its class table): an HMAC of its id under the key of its connection file, which the server and the kernel hold
    and no browser ever sees."""
    return hmac.new(key, kernel_id.encode(), hashlib.sha256).hexdigest()


def proof_holds(key: bytes | None, kernel_id: str, shown: str | None) -> bool:
    """Whether `shown` is the proof for `kernel_id` under `key` (no key, or nothing shown: it is not)."""
    return bool(key) and shown is not None and hmac.compare_digest(kernel_proof(key or b"", kernel_id), shown)


def code_key(secret: bytes) -> str:
    """The key, as hex digits, that a class server with `secret` gives its kernels for sealing saved-game codes
    (`CODE_KEY_ENV`): derived from the secret, never the secret itself."""
    return hmac.new(secret, b"leopard-tutor saved-game codes", hashlib.sha256).hexdigest()
