"""How students join the class: the address they type, as the class page shows it, and the same address as a QR
code (SVG) for the projector.

The page itself decides which address to show (`teacher_join.js`): the address it was opened at, less its last
part, when that is not this machine's own name; else the server's classroom address (`launch.classroom_url`, given
to the page when the server listens beyond this machine); else none, and the page says why.
"""

from __future__ import annotations

import io
from urllib.parse import urlsplit

MAX_ADDRESS = 300
"""The longest address the page may ask a QR code of (a classroom's address is a few dozen characters)."""


class JoinError(ValueError):
    """An address no QR code is made of: not http(s), with no host, too long, or not printable."""


def join_address(text: str) -> str:
    """`text` if it is a web address students can type (http or https, a host, at most `MAX_ADDRESS` printable
    characters); a `JoinError` otherwise."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_ADDRESS or not text.isprintable() or " " in text:
        raise JoinError("an address is up to 300 printable characters with no space")
    try:
        parts = urlsplit(text)
    except ValueError as error:
        raise JoinError("not a web address") from error
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise JoinError("an address to join by starts with http:// or https:// and names a host")
    return text


def qr_svg(address: str) -> str:
    """The QR code of `address` (`join_address` checks it) as an SVG document: black on white with its quiet zone,
    drawn to scale with the page (its size in modules, no fixed pixels)."""
    import segno

    drawn = io.BytesIO()
    segno.make(join_address(address), micro=False, error="m").save(
        drawn, kind="svg", xmldecl=False, svgns=True, omitsize=True, dark="#000", light="#fff")
    return drawn.getvalue().decode("utf-8")
