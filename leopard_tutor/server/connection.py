"""The kernel websocket connection of the app's server: jupyter_server's own (`ZMQChannelsWebsocketConnection`),
given through the documented setting `kernel_websocket_connection_class` (Voilà's `Voila.` and Jupyter
server's `ServerApp.` option, see `launch.voila_argv` and binder/jupyter_server_config.py), not patched in.

On top of the stock connection it
* sets TCP_NODELAY on the websocket when it connects: without it every widget round trip waits about 40 ms
  (Nagle's algorithm meeting delayed ACKs; `benchmarks/app_speed.py` measures both ways, the stock way with
  `StockDelayConnection`);
* passes what a page sends through the page's gate and its visitor's pace (`guards.hold_or_forward`);
* tells the gate when the kernel has finished a request (its "idle" status), and lets no traceback, error
  output or stderr reach the page (`kernel_messages.screen`).
"""

from __future__ import annotations

from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

from . import guards
from .kernel_messages import screen
from .state import state_of

DELIMITER = b"<IDS|MSG>"


def _raw(part: Any) -> bytes:
    return bytes(part.bytes) if hasattr(part, "bytes") else bytes(part)


class GuardedConnection(ZMQChannelsWebsocketConnection):
    """A page's connection to its kernel, gated, paced and screened, with TCP_NODELAY."""

    nodelay = True
    """Whether the websocket sends each message at once (TCP_NODELAY)."""

    def connect(self) -> Any:
        """Connect to the kernel's channels (the websocket first told to send at once)."""
        if self.nodelay:
            self.websocket_handler.set_nodelay(True)
        return super().connect()

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        """What the page sent goes through its gate first (`guards.hold_or_forward`)."""
        guards.hold_or_forward(self, incoming_msg, state_of(self.websocket_handler))

    def forward_to_kernel(self, message: Any) -> None:
        """Send one message the gate let through on to the kernel (jupyter_server's own handling)."""
        super().handle_incoming_message(message)

    def handle_outgoing_message(self, stream: Any, outgoing_msg: list[Any]) -> None:
        """What the kernel sends: an "idle" status finishes a request at the gate; what `screen` holds back never
        reaches the page, and what it rewrites reaches it rewritten."""
        idents, parts = self.session.feed_identities(outgoing_msg)
        header = self.session.unpack(_raw(parts[1]))
        msg_type = str(header.get("msg_type", ""))
        if msg_type == "status" and self.session.unpack(_raw(parts[4])).get("execution_state") == "idle":
            guards.request_finished(self, str(self.session.unpack(_raw(parts[2])).get("msg_id", "")),
                                   state_of(self.websocket_handler))
        verdict = screen(msg_type, lambda: dict(self.session.unpack(_raw(parts[4]))))
        if verdict is False:
            return
        if verdict is not True:
            parts = [*parts[:4], self.session.pack(verdict), *parts[5:]]
            outgoing_msg = [*idents, DELIMITER, *parts]
        super().handle_outgoing_message(stream, outgoing_msg)


class StockDelayConnection(GuardedConnection):
    """The same connection with Nagle's algorithm left on, as stock servers do (`leopard-tutor --no-tcp-nodelay`,
    for measuring what TCP_NODELAY is worth)."""

    nodelay = False


CONNECTION_CLASS = f"{__name__}.{GuardedConnection.__qualname__}"
STOCK_DELAY_CLASS = f"{__name__}.{StockDelayConnection.__qualname__}"
