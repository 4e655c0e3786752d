"""The server's remaining patches are listed in one place (`server/patches.py`), each still names a method that
exists, and the installed Voilà, Jupyter server and tornado are the versions they were checked against; what has
a documented extension point uses it."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from leopard_tutor.server import authorizer, connection, guards, launch, patches

ROOT = Path(__file__).resolve().parents[1]


def resolve(target: str) -> tuple[Any, str]:
    """The class and attribute name a patch's target names."""
    module, _, path = target.partition(":")
    owner, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), owner), name


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


def test_every_listed_patch_names_a_method_that_is_replaced_once_installed() -> None:
    launch.apply_fixes()
    launch.read_theme_links()
    launch.guard_visits()
    for patch in patches.PATCHES:
        for function in re.split(r",\s*", patch.by):
            module, _, name = function.partition(".")
            assert callable(getattr({"launch": launch, "guards": guards}[module], name)), function
        if patch.target.startswith("kernel manager:"):
            continue
        owner, name = resolve(patch.target)
        assert owner.__dict__[name].__module__.startswith("leopard_tutor.server."), patch.target


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
