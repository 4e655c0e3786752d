"""What the server's log never shows: the teacher's token (after the start banner), characters that would
move a terminal's cursor, and two warnings about nothing a teacher can act on (`NOISE`).

Jupyter server blanks a `token=` argument in its access lines; tornado's own warnings (an HTTP error's reason,
an uncaught exception's request) and the server's refusal lines (`guards.log_request`) name a request's address
as it came. `SecretMask`, a `logging.Filter` on each logger that names requests (`REQUEST_LOGGERS` and the
application's own), writes every record's message with the value of any `token=` argument blanked as Jupyter
blanks it, and the teacher's token blanked wherever else it stands (a path holding it).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

BLANK = "[secret]"
"""What stands for a secret in the log (as in Jupyter server's access lines)."""
TOKEN_ARGUMENT = re.compile(r"(token=)[^&#\s'\"]*", re.IGNORECASE)
"""A `token=` argument and its value (up to the next argument, space or quote)."""
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""Characters a log line shows escaped (\\xNN)."""
REQUEST_LOGGERS = ("tornado.access", "tornado.application", "tornado.general")
"""The loggers of tornado that name requests."""
NOISE = ("Notebook %s is not trusted", "The websocket_ping_timeout (")
"""How the warnings `Quiet` drops begin, before their values are put in: Jupyter server's, at each page, that the
app's notebook (written by the server, shown by Voilà whatever its trust) is not signed; tornado's, once, that
Jupyter server's keep-alive timeout is longer than its interval (the two count in milliseconds, where tornado reads
seconds; Jupyter server's own pings close a page gone quiet)."""


def masked(words: str, secret: str | None = None) -> str:
    """`words` with every `token=` argument's value, and `secret` wherever it stands, replaced by `BLANK`."""
    words = TOKEN_ARGUMENT.sub(rf"\g<1>{BLANK}", words)
    return words.replace(secret, BLANK) if secret else words


def printable(words: str) -> str:
    """`words` with control characters (a NUL, a line break, an escape sequence's start) written as \\xNN."""
    return CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", words)


class SecretMask(logging.Filter):
    """Blanks the teacher's token (`secret`) and every `token=` argument in a record's message and traceback."""

    def __init__(self, secret: str | None = None) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite `record` masked (it is always logged)."""
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its message: logging reports it as it is
            return True
        hidden = masked(message, self.secret)
        if hidden != message:
            record.msg, record.args = hidden, None
        if record.exc_info and not record.exc_text:
            record.exc_text = masked(logging.Formatter().formatException(record.exc_info), self.secret)
        return True


class Quiet(logging.Filter):
    """Drops the warnings of `NOISE`; keeps every other record."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether `record` is logged."""
        return not (isinstance(record.msg, str) and record.msg.startswith(NOISE))


def quiet_noise(loggers: Iterable[logging.Logger | str]) -> None:
    """Put one `Quiet` on tornado's `REQUEST_LOGGERS` and on `loggers`."""
    for logger in (*REQUEST_LOGGERS, *loggers):
        target = logging.getLogger(logger) if isinstance(logger, str) else logger
        if not any(isinstance(held, Quiet) for held in target.filters):
            target.addFilter(Quiet())


def mask_secrets(secret: str | None, loggers: Iterable[logging.Logger | str] = ()) -> SecretMask:
    """Put a `SecretMask` for `secret` on tornado's `REQUEST_LOGGERS` and on `loggers` (once on each)."""
    mask = SecretMask(secret)
    for logger in (*REQUEST_LOGGERS, *loggers):
        target = logging.getLogger(logger) if isinstance(logger, str) else logger
        for old in [held for held in target.filters if isinstance(held, SecretMask)]:
            target.removeFilter(old)
        target.addFilter(mask)
    return mask
