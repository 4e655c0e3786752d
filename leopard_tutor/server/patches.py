"""Every place where the server changes Voilà's or Jupyter server's own code, why, and the versions checked.

What has a documented extension point uses it and is not listed here: the kernel websocket connection
(`connection.GuardedConnection`, given as `kernel_websocket_connection_class`), who may use a kernel's REST
handlers (`authorizer.OwnerAuthorizer`, `authorizer_class`), the kernel manager (`kernels.ForgettingKernels`,
`VoilaConfiguration.multi_kernel_manager_class`, which Voilà's preheating manager subclasses), /logout
(`handlers.NoLogout`, `IdentityProvider.logout_handler_class`), the handlers of the page, the shutdown beacon, the
query socket and the kernel websocket (subclasses in the server's route table: `handlers.SUBCLASSES`), the
preheated kernels' refill (`kernel_pool.PoolFiller`, through Voilà's `kernel_pools_config`), the class server's
settings, routes and listening options (`launch.class_server`, a subclass of Voilà's application overriding its
`init_settings`, `init_handlers` and `listen`), its command line (`launch_instance(argv)`), and for Voilà as a
Jupyter server extension the app's own extension (`extension.py`). What is left has no such point in the versions
below, and is installed once, at the class server's start. Each entry names what it replaces, the function here
that does it, and why; the package pins exactly `CHECKED_VERSIONS` (pyproject.toml, requirements.txt),
`version_differences()` tells at start when the installed ones differ, and tests/test_patches.py fails then, or
when a method of Voilà's, Jupyter server's or the kernel manager's classes is replaced at start without being
listed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata


@dataclass(frozen=True)
class Patch:
    """One replaced method: `target` ("module:Class.attribute"), the function of this package that replaces it, and
    why."""

    target: str
    by: str
    why: str


CHECKED_VERSIONS = {"voila": "0.5.13", "jupyter_server": "2.21.1", "tornado": "6.6.1"}
"""The versions every patch below was read against and is tested with."""

PATCHES = (
    Patch("jupyter_server.base.handlers:JupyterHandler.write_error", "guards.plain_errors",
          "Voilà has no `static_path`, so Jupyter's error templates cannot render: each error logged a traceback. "
          "It is the base of every handler Voilà serves (its static files, themes, kernels' REST API, ...), which "
          "the server does not all subclass; tornado's application takes no default error writer"),
)


def version_differences() -> dict[str, tuple[str, str]]:
    """The packages whose installed version is not the checked one: name -> (installed, checked)."""
    found = {}
    for name, checked in CHECKED_VERSIONS.items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "not installed"
        if installed != checked:
            found[name] = (installed, checked)
    return found


def version_warning() -> str | None:
    """What the server prints at start when the installed versions differ from the checked ones."""
    differences = version_differences()
    if not differences:
        return None
    listed = ", ".join(f"{name} {installed} (checked: {checked})" for name, (installed, checked) in differences.items())
    return f"Warning: the server's patches were checked against other versions than these: {listed}"
