"""The evolutionary search over launches (DEAP): genome, operators, fitness, loop."""

from __future__ import annotations

from typing import Any

from simu.evolve.search import Budget, SearchResult, run_search


def search_kernel(module, kernel, settings, constraints: Any = None, budget: Any = None, mode: str = "full",
                  seed: int = 0):
    """Search launches for one kernel and return a :class:`simu.check.KernelReport`."""
    from simu.check import KernelReport

    b = budget if isinstance(budget, Budget) else Budget()
    if isinstance(budget, (int, float)) and not isinstance(budget, bool):
        b = Budget(evaluations=10_000, seconds=float(budget))
    res = run_search(module, kernel, settings, constraints, b, mode, seed)
    report = KernelReport(kernel.display_name, res.status, res.reason, res.findings, res.launches)
    report.search = res.stats  # type: ignore[attr-defined]
    return report


__all__ = ["Budget", "SearchResult", "run_search", "search_kernel"]
