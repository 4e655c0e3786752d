"""Jupyter server settings for the app on Binder (Voilà as a server extension, /voila/render/...).

postBuild copies this file to <sys.prefix>/etc/jupyter/. It guards the sessions as the `leopard-tutor` launcher
does (see leopard_tutor/server/launch.py: the app's own extension, leopard_tutor/server/extension.py, its
kernel manager, connection and authorizer), culls idle kernels, hides tracebacks and uses the app's own page
template, which asks no CDN for anything.
"""

from leopard_tutor.server.authorizer import AUTHORIZER_CLASS
from leopard_tutor.server.connection import CONNECTION_CLASS
from leopard_tutor.server.kernels import KERNEL_MANAGER_CLASS
from leopard_tutor.server.launch import (
    AUTO_THEME,
    CULL_IDLE_SECONDS,
    CULL_INTERVAL_SECONDS,
    TEMPLATE,
    use_own_template,
)

use_own_template()

c = get_config()  # noqa: F821 (provided by the Jupyter config loader)
c.ServerApp.jpserver_extensions.update({"leopard_tutor.server.extension": True})  # the guarded routes
c.ServerApp.kernel_manager_class = KERNEL_MANAGER_CLASS  # what is kept about a kernel goes with it
c.ServerApp.kernel_websocket_connection_class = CONNECTION_CLASS  # gated, screened, TCP_NODELAY
c.ServerApp.authorizer_class = AUTHORIZER_CLASS  # a kernel answers its own browser only
c.MappingKernelManager.cull_idle_timeout = CULL_IDLE_SECONDS
c.MappingKernelManager.cull_interval = CULL_INTERVAL_SECONDS
c.VoilaConfiguration.show_tracebacks = False
c.VoilaConfiguration.http_header_envs = ["X-Forwarded-Proto"]  # Binder serves https: the scheme of shared links
c.VoilaConfiguration.template = TEMPLATE  # the lab template without CDN links
c.VoilaConfiguration.resources = AUTO_THEME  # light or dark as each visitor's browser prefers
