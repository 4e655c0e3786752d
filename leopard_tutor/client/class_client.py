"""Kernel side of the class tables: a page's kernel asks the server's tables (`server/class_handlers.py`) over HTTP,
proving it is the kernel it names (`protocol.kernel_proof`), so it acts for the visitor it was given to.

`ClassClient.here()` is this kernel's client, or None where there are no class tables (the static site,
a notebook, Binder). A refusal is a `ClassRefused` whose message is the catalogue's sentence for it.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, TypeVar

from ..engine import LeopardError
from ..engine.catalogue import text
from ..protocol import (
    ASK_SECONDS,
    CLASS_PATH,
    CLASS_TABLES_ENV,
    CODE_KEY_ENV,
    KERNEL_HEADER,
    PROOF_HEADER,
    WAIT_SECONDS,
    kernel_proof,
)


class ClassRefused(LeopardError):
    """The tables refused a request (`key` under "classmates.refused", with `facts`), or could not be reached."""

    def __init__(self, key: str, facts: dict[str, Any] | None = None) -> None:
        super().__init__(key)
        self.key, self.facts = key, dict(facts or {})

    def __str__(self) -> str:
        return text(f"classmates.refused.{self.key}", **self.facts)


def sealing_key() -> bytes | None:
    """The key this kernel seals its saved-game codes with, if a class server started it (`protocol.CODE_KEY_ENV`);
    None elsewhere (a site, a notebook: nothing is told to a class page there)."""
    found = os.getenv(CODE_KEY_ENV, "") if os.getenv(CLASS_TABLES_ENV) == "1" else ""
    try:
        return bytes.fromhex(found) or None
    except ValueError:
        return None


ClientT = TypeVar("ClientT", bound="KernelClient")


class KernelClient:
    """Requests of this kernel to the server at `base` (its URL, ending in "/") under `PATH`, proving it is the
    kernel `kernel_id` (it holds `key`); the base of `ClassClient` and `student_client.StudentClient`."""

    PATH = ""
    """Where the server's handlers of this kind of request are, under its base URL."""

    def __init__(self, base: str, kernel_id: str, key: bytes) -> None:
        self.base, self.kernel_id = base, kernel_id
        self.headers = {KERNEL_HEADER: kernel_id, PROOF_HEADER: kernel_proof(key, kernel_id),
                        "Content-Type": "application/json"}

    @classmethod
    def here(cls: type[ClientT]) -> ClientT | None:
        """This kernel's client, if a class server started it (and so told it where it is)."""
        kernel_id = os.getenv("VOILA_KERNEL_ID", "")
        if os.getenv(CLASS_TABLES_ENV) != "1" or not kernel_id:
            return None
        from .kernel_request import connection_key

        ip, port = os.getenv("VOILA_APP_IP", "127.0.0.1"), os.getenv("VOILA_APP_PORT", "8866")
        base = os.getenv("VOILA_SERVER_URL", "/")
        return cls(f"http://{ip}:{port}{base}", kernel_id, connection_key())

    def _ask(self, action: str, body: dict[str, Any] | None = None, query: str = "",
             timeout: float = ASK_SECONDS) -> Any:
        """The server's JSON answer to `action` (a GET without a `body`, else a POST of it); a `ClassRefused` if it
        refuses (its key and facts) or cannot be reached ("unreachable")."""
        url = f"{self.base}{self.PATH}{action}{query}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, headers=self.headers, method="GET" if body is None else "POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:
            try:
                said = json.loads(error.read())
            except ValueError:
                said = {}
            key = said.get("refused") if isinstance(said, dict) else None
            if isinstance(key, str) and key.isidentifier():
                raise ClassRefused(key, said.get("facts") if isinstance(said.get("facts"), dict) else {}) from None
            raise ClassRefused("unreachable") from None
        except (OSError, ValueError):
            raise ClassRefused("unreachable") from None


class ClassClient(KernelClient):
    """The class tables of the server at `base`, for the kernel `kernel_id` holding `key`."""

    PATH = CLASS_PATH

    def mine(self) -> dict[str, Any]:
        """This visitor's table now (see `Referee.report`)."""
        found: dict[str, Any] = self._ask("mine")
        return found

    def wait(self, known: str) -> dict[str, Any]:
        """This visitor's table once its report's "state" is not `known` (or after the server's wait)."""
        found: dict[str, Any] = self._ask("wait", query=f"?{urllib.parse.urlencode({'known': known})}",
                                          timeout=WAIT_SECONDS + ASK_SECONDS)
        return found

    def waiting(self) -> list[tuple[str, str]]:
        """(code, host's name) of the tables waiting for a second player."""
        return [(str(item["code"]), str(item["name"])) for item in self._ask("tables")]

    def open(self, name: str, rules: str, hands: int | None = None) -> str:
        """Open a table as `name` under `rules` for a match of `hands` (None: the rules' length): its code."""
        body: dict[str, Any] = {"name": name, "rules": rules}
        if hands is not None:
            body["hands"] = hands
        return str(self._ask("open", body)["code"])

    def join(self, name: str, code: str) -> None:
        """Join table `code` as `name`."""
        self._ask("join", {"name": name, "code": code})

    def move(self, code: str, number: int, move: dict[str, Any]) -> None:
        """Store this visitor's `move` as move `number` of table `code`."""
        self._ask("move", {"code": code, "number": number, "move": move})

    def end(self, code: str, ending: str) -> None:
        """End table `code`: "left", or "computer:LEVEL"."""
        self._ask("end", {"code": code, "ending": ending})

    def take_round(self, started: float) -> None:
        """Play the latest round's match against the computer in this page (refused "round_elsewhere" once another page
        of the visitor's does: `Referee.take_round`)."""
        self._ask("take_round", {"started": started})

    def take(self, code: str) -> None:
        """Take the match of table `code`, which closed before it ended, on against the computer in this page (the
        server keeps that it was, so that the visitor's other pages do not: `Referee.take_on`)."""
        self._ask("take", {"code": code})
