"""The expert level as it was at commit 20b2e17, kept as a copy so that benchmarks/duel.py can measure today's levels
against it (`expert@20b2e17`). Its modules are that commit's leopard_tutor/ai modules, changed only where the engine
renamed things since; tests/test_expert_copy.py checks it still chooses the moves that commit's expert chose."""

from .expert import ExpertPlayer

__all__ = ["ExpertPlayer"]
