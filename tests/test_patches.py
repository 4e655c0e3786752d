"""The server's remaining patches are listed in one place (`server/patches.py`): a class server started in the test
replaces no method of Voilà's, Jupyter server's or its kernel manager's classes but those listed, and every one of
them; the installed Voilà, Jupyter server and tornado are the versions they were checked against; what has a
documented extension point uses it (options, route-table subclasses)."""

from __future__ import annotations

import asyncio
import importlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from own_thread import in_own_thread
from tornado.routing import Rule

from leopard_tutor.server import authorizer, connection, guards, handlers, kernels, launch, log_mask, patches

ROOT = Path(__file__).resolve().parents[1]


def resolve(target: str) -> tuple[Any, str]:
    """The class and attribute name a patch's target names."""
    module, _, path = target.partition(":")
    owner, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), owner), name


WATCHED = ("voila", "jupyter_server", "jupyter_client")
"""The packages whose classes' methods the server may not replace without listing it."""


def methods() -> dict[tuple[type, str], Any]:
    """Every method (any callable or descriptor a class defines) of every class of the `WATCHED` packages loaded."""
    found = {}
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] not in WATCHED:
            continue
        for owner in vars(module).values():
            if isinstance(owner, type) and owner.__module__ == name:
                for attribute, value in vars(owner).items():
                    if callable(value) or isinstance(value, (property, classmethod, staticmethod)):
                        found[(owner, attribute)] = value
    return found


def started_class_server(folder: Path) -> tuple[Any, list[Any]]:
    """A class server started as `launch.serve` starts it (its options, a class size, a data folder) up to its
    routes, without listening: (the application, its route table). Its settings and routes are made in a thread
    of its own, on an event loop that never runs what the start scheduled (the test process may already run a
    loop); no kernel starts: Voilà's pool size is 0."""
    argv = [arg for arg in launch.voila_argv(launch.notebook_path(folder), 8866, False)
            if not arg.startswith("--pool_size")]
    app = launch.class_server(1200, class_size=2, cap=10, data_dir=folder)()
    app.initialize([*argv, "--pool_size=0"])  # in the main thread: it sets signal handlers
    app.connection_dir = str(folder)

    def settings_and_routes() -> list[Any]:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            app.init_settings()
            return list(app.init_handlers())
        finally:
            tasks = asyncio.all_tasks(loop)
            for task in tasks:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            loop.close()
            asyncio.set_event_loop(None)

    return app, in_own_thread(settings_and_routes)


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[tuple[type, str], Any],
                                                                      dict[tuple[type, str], Any], Any, list[Any]]]:
    """(the methods before the start, after it, the started application, its route table)."""
    import voila.app  # noqa: F401 (every class Voilà serves with, loaded before the first look)

    before = methods()
    app, routes = started_class_server(tmp_path_factory.mktemp("patches"))
    yield before, methods(), app, routes
    for logger in (*log_mask.REQUEST_LOGGERS, app.log, guards.log):  # the log as it was before the start
        target = logging.getLogger(logger) if isinstance(logger, str) else logger
        for mask in [held for held in target.filters if isinstance(held, (log_mask.SecretMask, log_mask.Quiet))]:
            target.removeFilter(mask)


def handler_of(route: Any) -> Any:
    """The handler class of a route (a tuple, or tornado's `Rule`)."""
    return route.target if isinstance(route, Rule) else route[1]


def test_the_installed_versions_are_the_checked_ones_and_the_package_pins_them() -> None:
    assert patches.version_differences() == {}, patches.version_warning()
    pinned = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for name, version in patches.CHECKED_VERSIONS.items():
        assert f'"{name}=={version}"' in pinned, name
        assert f"{name}=={version}" in (ROOT / "requirements.txt").read_text(encoding="utf-8"), name


def test_a_different_version_is_told_at_start(monkeypatch: Any) -> None:
    monkeypatch.setitem(patches.CHECKED_VERSIONS, "voila", "0.0.1")
    warning = patches.version_warning()
    assert warning is not None and "voila" in warning and "checked: 0.0.1" in warning


def test_a_method_replaced_at_start_is_listed_and_every_listed_one_is_replaced(started: Any) -> None:
    before, after, app, _routes = started
    replaced = {key for key, value in after.items() if before.get(key, value) is not value or key not in before}
    listed = {resolve(patch.target) for patch in patches.PATCHES}
    assert replaced == listed, "replaced at start but not listed in patches.py (or listed but not replaced)"
    for patch in patches.PATCHES:
        module, _, name = patch.by.partition(".")
        assert callable(getattr(importlib.import_module(f"leopard_tutor.server.{module}"), name)), patch.by
    manager = app.kernel_manager
    shadowed = [name for name, value in vars(manager).items() if callable(value) and hasattr(type(manager), name)]
    assert shadowed == [], "a method of the kernel manager replaced on the object"
    assert isinstance(manager, kernels.ForgettingKernels), "the kernel manager is given as an option"


def test_voilas_handlers_are_replaced_by_subclasses_in_the_route_table(started: Any) -> None:
    _before, _after, _app, routes = started
    served = {handler_of(route) for route in routes}
    for stock, subclass in handlers.SUBCLASSES.items():
        assert issubclass(subclass, stock) and stock not in served, stock
    assert {handlers.PageHandler, handlers.ShutdownHandler, handlers.QuerySocket,
            handlers.VoilaOwnedKernelSocket} <= served
    argv = launch.voila_argv(Path("nb.ipynb"), 1, False)
    assert f"--IdentityProvider.logout_handler_class={handlers.LOGOUT_HANDLER_CLASS}" in argv
    assert f"--VoilaConfiguration.multi_kernel_manager_class={kernels.KERNEL_MANAGER_CLASS}" in argv


def test_a_jupyter_servers_routes_are_replaced_in_place() -> None:
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
    from tornado.web import Application, RequestHandler
    from voila.tornado.handler import TornadoVoilaHandler

    app = Application([(r"/api/kernels/(.*)/channels", KernelWebsocketHandler)])
    app.add_handlers(".*$", [(r"/voila/render/(.*)", TornadoVoilaHandler), (r"/other", RequestHandler)])
    assert handlers.replace_in_application(app) == 2
    assert handlers.replace_in_application(app) == 0, "once replaced, nothing is left to replace"


def test_the_websocket_connection_is_given_as_a_setting_not_patched() -> None:
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

    argv = launch.voila_argv(Path("nb.ipynb"), 1, False)
    assert f"--Voila.kernel_websocket_connection_class={connection.CONNECTION_CLASS}" in argv
    stock = launch.voila_argv(Path("nb.ipynb"), 1, False, nodelay=False)
    assert f"--Voila.kernel_websocket_connection_class={connection.STOCK_DELAY_CLASS}" in stock
    assert issubclass(connection.GuardedConnection, ZMQChannelsWebsocketConnection)
    for name in ("handle_incoming_message", "handle_outgoing_message", "connect"):
        assert name not in ZMQChannelsWebsocketConnection.__dict__ or \
            ZMQChannelsWebsocketConnection.__dict__[name].__module__.startswith("jupyter_server"), name
    binder = (ROOT / "binder" / "jupyter_server_config.py").read_text(encoding="utf-8")
    assert "c.ServerApp.kernel_websocket_connection_class = CONNECTION_CLASS" in binder


def test_who_may_use_a_kernel_is_the_servers_authorizer(monkeypatch: Any) -> None:
    from jupyter_server.auth.authorizer import Authorizer

    assert f"--Voila.authorizer_class={authorizer.AUTHORIZER_CLASS}" in launch.voila_argv(Path("nb.ipynb"), 1, False)
    assert issubclass(authorizer.OwnerAuthorizer, Authorizer)
    checked: list[Any] = []
    monkeypatch.setattr(guards, "refuse_strangers", checked.append)
    owner = authorizer.OwnerAuthorizer.__new__(authorizer.OwnerAuthorizer)
    assert owner.is_authorized("a kernel's handler", None, "write", "kernels") and checked == ["a kernel's handler"]
    assert owner.is_authorized("a contents handler", None, "read", "contents") and len(checked) == 1
    binder = (ROOT / "binder" / "jupyter_server_config.py").read_text(encoding="utf-8")
    assert "c.ServerApp.authorizer_class = AUTHORIZER_CLASS" in binder


def test_the_developers_guide_lists_every_patch() -> None:
    guide = (ROOT / "docs" / "guides" / "developers.md").read_text(encoding="utf-8")
    for patch in patches.PATCHES:
        assert f"`{patch.target.split(':', 1)[-1].strip()}`" in guide, patch.target


def test_the_connection_asks_for_tcp_nodelay_unless_told_not_to(monkeypatch: Any) -> None:
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", lambda self: "connected")
    for kind, wanted in ((connection.GuardedConnection, [True]), (connection.StockDelayConnection, [])):
        asked: list[bool] = []
        probe = type("Probe", (kind,), {"websocket_handler": SimpleNamespace(set_nodelay=asked.append)})
        assert probe.__new__(probe).connect() == "connected" and asked == wanted, kind


def test_the_log_drops_the_two_warnings_about_nothing_a_teacher_can_act_on_and_keeps_the_rest() -> None:
    quiet = log_mask.Quiet()

    def kept(message: str, *args: object) -> bool:
        return quiet.filter(logging.LogRecord("ClassServer", logging.WARNING, __file__, 1, message, args, None))

    assert not kept("Notebook %s is not trusted", "leopard_tutor.ipynb")
    assert not kept("The websocket_ping_timeout (90000) cannot be longer than the websocket_ping_interval (30000).")
    assert kept("Notebook %s is not found", "leopard_tutor.ipynb") and kept("WebSocket ping timeout after %i ms.", 91)
    assert kept("Kernel %s is not trusted", "x")

