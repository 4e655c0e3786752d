"""The body of a code to copy and paste back (a saved game, a learner's progress): JSON, compressed, in URL-safe
base64 without padding. `pack(data)` writes one; `unpack(body, most)` reads one back, inflating at most `most`
bytes, and says what is wrong with a body it cannot read (`PackedError.kind`: "damaged" or "too_long")."""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from typing import Any


class PackedError(ValueError):
    """A code's body that cannot be read: `kind` is "damaged" (a character changed or lost, not JSON) or "too_long"
    (it inflates to more than the reader takes)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def pack(data: Any) -> str:
    """`data` as a code's body."""
    packed = zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)
    return base64.urlsafe_b64encode(packed).decode().rstrip("=")


def unpack(body: str, most: int) -> Any:
    """The JSON in a code's `body`, inflated to at most `most` bytes (PackedError if it cannot be read)."""
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)), most)
    except (binascii.Error, zlib.error, ValueError):
        raise PackedError("damaged") from None  # a character changed or lost: the stream breaks off
    if inflater.unconsumed_tail:
        raise PackedError("too_long")
    if not inflater.eof:
        raise PackedError("damaged")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise PackedError("damaged") from None
