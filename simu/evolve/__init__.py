"""The evolutionary search over launches (DEAP): genome, operators, fitness, loop."""

from __future__ import annotations

from typing import Any


def search_kernel(module, kernel, settings, constraints: Any = None, budget: Any = None):
    """Placeholder plan until the search lands: the fixed default launches."""
    from simu.check import check_kernel, default_launches

    return check_kernel(module, kernel, default_launches(kernel), settings)
