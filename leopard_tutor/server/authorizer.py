"""Who may use a kernel: Jupyter server's documented `authorizer_class` (Voilà's `Voila.` and Jupyter server's
`ServerApp.` option), so a kernel's REST handler (GET/DELETE /api/kernels/<id>, interrupt, restart) and its
websocket answer only the browser that owns the kernel (`guards.refuse_strangers`: HTTP 403, one log line).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jupyter_server.auth.authorizer import AllowAllAuthorizer

from . import guards

if TYPE_CHECKING:
    from jupyter_server.auth.identity import User
    from jupyter_server.base.handlers import JupyterHandler


class OwnerAuthorizer(AllowAllAuthorizer):
    """Everything is allowed as in a stock server, except a kernel that belongs to another browser."""

    def is_authorized(self, handler: JupyterHandler, user: User, action: str, resource: str) -> bool:
        """A request about kernels is refused (raising tornado's `Finish` after a 403) unless it is the owner's."""
        if resource == "kernels":
            guards.refuse_strangers(handler)
        return True


AUTHORIZER_CLASS = f"{__name__}.{OwnerAuthorizer.__qualname__}"
