"""Deal codes: a short text that names a match's deals, so that everyone who opens the same link
gets the same cards and the same opponent's replies (a class can then talk about one hand)."""

from __future__ import annotations

import hashlib
import random
import re
from urllib.parse import urlencode

from .engine.rules import LINK_WORDS

DEAL_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
DEAL_CODE = re.compile(r"[A-Za-z0-9]{1,16}")
"""What a deal code may be: up to 16 letters and digits (read without regard to case)."""


def new_deal_code(rng: random.Random | None = None) -> str:
    """A fresh deal code of eight easily read letters and digits."""
    pick = rng or random.SystemRandom()
    return "".join(pick.choice(DEAL_ALPHABET) for _ in range(8))


def deal_seed(code: str) -> int:
    """The opponent's seed for a deal code, the same in every kernel."""
    return int.from_bytes(hashlib.sha256(code.encode()).digest()[:8], "big")


def deal_link(address: str, *, deal: str, rules: str, level: str | None) -> str:
    """The address (with this query) that opens this deal under these rules against this level (None: whatever
    opponent the visitor has chosen)."""
    settings = {"deal": deal, "rules": LINK_WORDS.get(rules, rules)}
    query = urlencode(settings if level is None else {**settings, "level": level})
    return f"{address}?{query}"
