"""The server's kernel manager: jupyter_server's own (`AsyncMappingKernelManager`), given through Voilà's documented
`VoilaConfiguration.multi_kernel_manager_class` (which Voilà's preheating manager subclasses) or, for Voilà as a
Jupyter server extension, `ServerApp.kernel_manager_class`. What is kept about a kernel (its owner, Voilà's
per-kernel caches: `guards.forget_kernel`) goes when the kernel goes."""

from __future__ import annotations

from typing import Any

from jupyter_core.utils import ensure_async
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

from .guards import forget_kernel
from .sessions import SessionBook


class ForgettingKernels(AsyncMappingKernelManager):
    """Jupyter server's kernel manager that forgets what `book` keeps about a kernel when it shuts down (`book` is
    the server state's, given at start), and whose idle check passes over a kernel still starting."""

    book: SessionBook | None = None

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        """Shut the kernel down (jupyter_server's own), then forget it."""
        try:
            await ensure_async(super().shutdown_kernel(kernel_id, *args, **kwargs))  # type: ignore[no-untyped-call]
        finally:
            if self.book is not None:
                forget_kernel(kernel_id, self.book)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Jupyter server's idle check of a kernel, once it has started: a kernel still starting (a preheated one, as
        the check comes every minute) has no last activity yet, and reading it raised an error whose traceback the
        check logged."""
        kernel = self._kernels.get(kernel_id)
        if kernel is not None and not kernel.trait_has_value("last_activity"):
            return
        await ensure_async(super().cull_kernel_if_idle(kernel_id))  # type: ignore[no-untyped-call]


KERNEL_MANAGER_CLASS = f"{__name__}.{ForgettingKernels.__qualname__}"
