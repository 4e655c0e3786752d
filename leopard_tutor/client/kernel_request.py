"""Kernel side of a preheated Voilà kernel: wait until it is handed to a visitor, then read the visitor's request.

Voilà's own `wait_for_request` does this over the server's query socket (/voila/query/<kernel id>);
this one also shows the proof that the server asks of it (`protocol.kernel_proof`, an HMAC of the
kernel id under the kernel's connection key), so that nobody else can read or take that socket.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import warnings

from ..protocol import PROOF_HEADER, kernel_proof


def query_url() -> str:
    """The query socket's address for this kernel, from the variables Voilà gives a preheated kernel."""
    protocol = os.getenv("VOILA_WS_PROTOCOL", "ws")
    ip = os.getenv("VOILA_APP_IP", "127.0.0.1")
    port = os.getenv("VOILA_APP_PORT", "8866")
    base = os.getenv("VOILA_WS_BASE_URL", os.getenv("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{ip}:{port}{base}voila/query/{os.getenv('VOILA_KERNEL_ID', '')}"


def connection_key() -> bytes:
    """The key of this kernel's connection file (b"" outside a kernel)."""
    from IPython import get_ipython

    shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    return bytes(getattr(getattr(kernel, "session", None), "key", b"") or b"")


async def _ask(url: str, proof: str) -> str | None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    try:
        async with connect(url, additional_headers={PROOF_HEADER: proof}, open_timeout=5) as socket:
            answer = await socket.recv()
    except (OSError, TimeoutError, WebSocketException) as error:
        warnings.warn(f"the server's query socket did not answer: {error}", stacklevel=2)
        return None
    return answer if isinstance(answer, str) else answer.decode()


def wait_for_visitor() -> None:
    """Block until the server hands this kernel to a visitor; put the visitor's request in `os.environ`.

    Does nothing in a kernel that was not preheated (Voilà gave it the request when it started it)."""
    if os.getenv("VOILA_PREHEAT", "False") == "False":
        return
    found: list[str | None] = []
    proof = kernel_proof(connection_key(), os.getenv("VOILA_KERNEL_ID", ""))
    thread = threading.Thread(target=lambda: found.append(asyncio.run(_ask(query_url(), proof))))
    thread.start()
    thread.join()
    if found and found[0] is not None:
        for name, value in json.loads(found[0]).items():
            os.environ[name] = str(value)
