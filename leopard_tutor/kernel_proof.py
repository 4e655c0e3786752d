"""How a kernel proves to the server that it is the kernel it names (when it asks for its visitor's request or
for its class table), without anything a browser could know: an HMAC of its id under its connection file's key.

Shared by the kernel side (`kernel_request.py`, `class_client.py`) and the server (`server/`); the proof travels in
`protocol.PROOF_HEADER`. Standard library only.
"""

from __future__ import annotations

import hashlib
import hmac


def kernel_proof(key: bytes, kernel_id: str) -> str:
    """What the kernel `kernel_id` shows to prove it is that kernel: an HMAC of its id under the key of its
    connection file, which the server and the kernel hold and no browser ever sees."""
    return hmac.new(key, kernel_id.encode(), hashlib.sha256).hexdigest()


def proof_holds(key: bytes | None, kernel_id: str, shown: str | None) -> bool:
    """Whether `shown` is the proof for `kernel_id` under `key` (no key, or nothing shown: it is not)."""
    return bool(key) and shown is not None and hmac.compare_digest(kernel_proof(key or b"", kernel_id), shown)
