"""The body of a code to copy and paste back (a saved game, a learner's progress): JSON, compressed, in URL-safe
base64 without padding. `pack(data)` writes one; `unpack(body, most)` reads one back, inflating at most `most`
bytes, and says what is wrong with a body it cannot read (`PackedError.kind`: "damaged" or "too_long").

With a `key`, the body is sealed: enciphered under the key (a keystream of HMAC-SHA256 blocks), after the key's
name (`KEY_NAME_BYTES` of an HMAC of a fixed word: "other_key" where another key sealed it) and a tag that is the
HMAC of what it holds, so that only the key's holder reads it, and knows it wrote it ("damaged" where the tag does not
hold). The tag stands for the nonce too: one body is always sealed alike, and says only whether two are one.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import zlib
from typing import Any

TAG_BYTES = 16
"""The bytes of a sealed body's tag (128 bits of an HMAC-SHA256)."""
KEY_NAME_BYTES = 4
"""The bytes that name the key a body is sealed under: enough to tell one server's from another's."""


class PackedError(ValueError):
    """A code's body that cannot be read: `kind` is "damaged" (a character changed or lost, not JSON), "too_long"
    (it inflates to more than the reader takes) or "other_key" (sealed under another key)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def pack(data: Any, key: bytes | None = None) -> str:
    """`data` as a code's body, sealed under `key` if one is given."""
    packed = zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)
    if key is not None:
        tag = hmac.new(key, b"tag" + packed, hashlib.sha256).digest()[:TAG_BYTES]
        packed = _key_name(key) + tag + _xor(packed, _keystream(key, tag, len(packed)))
    return base64.urlsafe_b64encode(packed).decode().rstrip("=")


def _key_name(key: bytes) -> bytes:
    """What a sealed body says of the key it is sealed under."""
    return hmac.new(key, b"name", hashlib.sha256).digest()[:KEY_NAME_BYTES]


def _keystream(key: bytes, tag: bytes, length: int) -> bytes:
    """`length` bytes of the keystream of `key` for the body tagged `tag`."""
    blocks = (hmac.new(key, b"stream" + tag + count.to_bytes(4, "big"), hashlib.sha256).digest()
              for count in range(-(-length // 32)))
    return b"".join(blocks)[:length]


def _xor(one: bytes, other: bytes) -> bytes:
    """`one` and `other` (of one length) combined bit by bit."""
    return (int.from_bytes(one, "big") ^ int.from_bytes(other, "big")).to_bytes(len(one), "big")


def unpack(body: str, most: int, key: bytes | None = None) -> Any:
    """The JSON in a code's `body` (sealed under `key`, if one is given), inflated to at most `most` bytes
    (PackedError if it cannot be read)."""
    inflater = zlib.decompressobj()
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise PackedError("damaged") from None
    if key is not None:
        if len(raw) <= KEY_NAME_BYTES + TAG_BYTES:
            raise PackedError("damaged")  # (too short to be sealed by any key)
        if raw[:KEY_NAME_BYTES] != _key_name(key):
            raise PackedError("other_key")
        tag, sealed = raw[KEY_NAME_BYTES:KEY_NAME_BYTES + TAG_BYTES], raw[KEY_NAME_BYTES + TAG_BYTES:]
        raw = _xor(sealed, _keystream(key, tag, len(sealed)))
        if not hmac.compare_digest(tag, hmac.new(key, b"tag" + raw, hashlib.sha256).digest()[:TAG_BYTES]):
            raise PackedError("damaged")  # a character changed or lost since it was sealed
    try:
        raw = inflater.decompress(raw, most)
    except (zlib.error, ValueError):
        raise PackedError("damaged") from None  # a character changed or lost: the stream breaks off
    if inflater.unconsumed_tail:
        raise PackedError("too_long")
    if not inflater.eof:
        raise PackedError("damaged")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise PackedError("damaged") from None
