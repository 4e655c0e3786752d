"""Every place where the server changes Voilà's or Jupyter server's own code, why, and the versions checked.

What has a documented extension point uses it and is not listed here: the kernel websocket connection
(`connection.GuardedConnection`, given as `kernel_websocket_connection_class`), who may use a kernel's REST
handlers (`authorizer.OwnerAuthorizer`, given as `authorizer_class`), the class server's settings, routes and
listening options (`launch.class_server`, a subclass of Voilà's application overriding its `init_settings`,
`init_handlers` and `listen`), and its command line (`launch_instance(argv)`). What is left has no such point
in the versions below. Each entry names what it replaces, the function here that does it, and why; the package
pins exactly `CHECKED_VERSIONS` (pyproject.toml, requirements.txt), `version_differences()` tells at start when
the installed ones differ, and tests/test_patches.py fails then.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata


@dataclass(frozen=True)
class Patch:
    """One replaced method: `target` ("module:Class.attribute", or "kernel manager: name" for a method of the
    server's kernel manager object), the function of this package that replaces it, and why."""

    target: str
    by: str
    why: str


CHECKED_VERSIONS = {"voila": "0.5.13", "jupyter_server": "2.21.1", "tornado": "6.6.1"}
"""The versions every patch below was read against and is tested with."""

PATCHES = (
    Patch("voila.tornado.handler:TornadoVoilaHandler.get", "launch.guard_visits",
          "the page handler must refuse a visit past the caps, send a waiting page when the class arrives at once, "
          "make pages a few at a time and tell the guards whose page it makes; Voilà has no hook before a page"),
    Patch("voila.handler:VoilaHandler.get_generator", "launch.read_theme_links",
          "a teacher's link may choose the theme (?theme=dark); Voilà reads only its own query argument"),
    Patch("voila.shutdown_kernel_handler:VoilaShutdownKernelHandler.check_xsrf_cookie",
          "launch._accept_shutdown_beacon",
          "the beacon a closing tab sends cannot carry the XSRF header; a same-origin beacon is accepted"),
    Patch("voila.shutdown_kernel_handler:VoilaShutdownKernelHandler.prepare", "guards.guard_kernel_handlers",
          "shutting a kernel down is for its own browser only (this handler does not ask the authorizer)"),
    Patch("jupyter_server.services.kernels.websocket:KernelWebsocketHandler.pre_get",
          "guards.guard_kernel_handlers",
          "a kernel's websocket answers its own browser only, at most `WEBSOCKETS_PER_SESSION` at once"),
    Patch("jupyter_server.services.kernels.websocket:KernelWebsocketHandler.on_close",
          "guards.guard_kernel_handlers", "a closed websocket is counted off its session"),
    Patch("jupyter_server.services.kernels.websocket:KernelWebsocketHandler.on_finish",
          "guards.guard_kernel_handlers", "a websocket that never opened is counted off its session"),
    Patch("voila.request_info_handler:RequestInfoSocketHandler.prepare", "guards.guard_query_socket",
          "the query socket answers only the kernel itself, proved by an HMAC under its connection key"),
    Patch("voila.request_info_handler:RequestInfoSocketHandler.open", "guards.guard_query_socket",
          "one waiter per kernel, keyed by the proved kernel"),
    Patch("voila.request_info_handler:RequestInfoSocketHandler.on_close", "guards.guard_query_socket",
          "one page's socket closing no longer drops another kernel's waiter"),
    Patch("jupyter_server.base.handlers:JupyterHandler.write_error", "guards.plain_errors",
          "Voilà has no `static_path`, so Jupyter's error templates cannot render: each error logged a traceback"),
    Patch("jupyter_server.auth.logout:LogoutHandler.get", "guards.plain_errors",
          "/logout has nothing to do here; its template cannot render either"),
    Patch("kernel manager: get_rendered_notebook", "guards.track_kernels, launch.fresh_when_handed_out",
          "a preheated kernel is handed to a visitor here (recorded as theirs) and counts as active from then on"),
    Patch("kernel manager: start_kernel", "guards.track_kernels",
          "a kernel started for a page is recorded as its visitor's"),
    Patch("kernel manager: shutdown_kernel", "guards.track_kernels",
          "what is kept per kernel goes when the kernel goes"),
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
