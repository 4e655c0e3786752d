"""Jupyter server settings for the app on Binder (Voilà as a server extension, /voila/render/...).

postBuild copies this file to <sys.prefix>/etc/jupyter/. It applies the same fixes as the
`leopard-tutor` launcher (see leopard_tutor/server/launch.py), culls idle kernels, hides tracebacks and uses
the app's own page template, which asks no CDN for anything.
"""

from leopard_tutor.server.authorizer import AUTHORIZER_CLASS
from leopard_tutor.server.connection import CONNECTION_CLASS
from leopard_tutor.server.launch import (
    AUTO_THEME,
    CULL_IDLE_SECONDS,
    CULL_INTERVAL_SECONDS,
    TEMPLATE,
    apply_server_fixes,
    use_own_template,
)

apply_server_fixes()
use_own_template()

c = get_config()  # noqa: F821 (provided by the Jupyter config loader)
c.ServerApp.kernel_websocket_connection_class = CONNECTION_CLASS  # gated, screened, TCP_NODELAY
c.ServerApp.authorizer_class = AUTHORIZER_CLASS  # a kernel answers its own browser only
c.MappingKernelManager.cull_idle_timeout = CULL_IDLE_SECONDS
c.MappingKernelManager.cull_interval = CULL_INTERVAL_SECONDS
c.VoilaConfiguration.show_tracebacks = False
c.VoilaConfiguration.http_header_envs = ["X-Forwarded-Proto"]  # Binder serves https: the scheme of shared links
c.VoilaConfiguration.template = TEMPLATE  # the lab template without CDN links
c.VoilaConfiguration.resources = AUTO_THEME  # light or dark as each visitor's browser prefers
