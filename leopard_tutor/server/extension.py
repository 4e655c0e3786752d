"""The app's guards for Voilà as a Jupyter server extension (Binder's `/voila/render/...`), itself a Jupyter server
extension enabled by binder/jupyter_server_config.py (`ServerApp.jpserver_extensions`). When it is loaded it makes
the server's state (`state.ServerState`, no caps: a Jupyter server has none), puts it in the application's
settings and has the kernel manager (`kernels.ForgettingKernels`, given as `ServerApp.kernel_manager_class`)
forget what is kept about a kernel when it goes; when it is started (every extension has added its routes by
then) it replaces Voilà's and Jupyter server's handlers by the server's in the application's routes
(`handlers.replace_in_application`) and starts the page-gone and processor watches."""

from __future__ import annotations

from typing import Any

from . import guards
from .handlers import replace_in_application
from .state import SETTING, ServerState, state_of_application


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """This module is the extension (Jupyter server's discovery)."""
    return [{"module": __name__}]


def _load_jupyter_server_extension(server_app: Any) -> None:
    """Make the server's state, in the application's settings and the kernel manager."""
    state = ServerState()
    server_app.web_app.settings[SETTING] = state
    server_app.kernel_manager.book = state.book


async def _start_jupyter_server_extension(server_app: Any) -> None:
    """Guard the routes and start the watches, once every extension is loaded and the server runs."""
    state = state_of_application(server_app.web_app)
    replaced = replace_in_application(server_app.web_app)
    server_app.log.info("Leopard Tutor guards %d routes", replaced)
    guards.watch_pages(server_app.kernel_manager, state.book)
    guards.watch_processors(server_app.kernel_manager, state)
