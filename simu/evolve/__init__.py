"""The evolutionary search over launches (DEAP).

``shape`` (what the IR says about launches), ``genome`` (named genes -> Launch), ``operators``
(mutation, fresh genomes, halvings), ``fitness``, ``dictionary`` (the kernel's constants),
``loop`` (the (mu + lambda) loop), ``phases`` (sweep, refutation, shrinking), ``modes`` (what
full / simulee / random register) and ``search`` (state, evaluation, :func:`run_search`).
"""

from __future__ import annotations

from typing import Any

from simu.evolve.budget import Budget
from simu.launch.constraints import KernelConstraints
from simu.pipeline import CheckSettings, KernelReport


def search_kernel(module, kernel, settings: CheckSettings,
                  constraints: KernelConstraints | list[KernelConstraints] | None = None, budget: Any = None,
                  mode: str = "full", seed: int = 0) -> KernelReport:
    """Search launches for one kernel; a number as ``budget`` is seconds.  A list of constraints is one
    contract per launch the program makes (its distinct host launches): each is searched with a share of the
    budget (:mod:`simu.evolve.alternatives`)."""
    b = budget if isinstance(budget, Budget) else Budget()
    if isinstance(budget, (int, float)) and not isinstance(budget, bool):
        b = Budget(evaluations=10_000, seconds=float(budget))
    contracts = list(constraints) if isinstance(constraints, (list, tuple)) else [constraints]
    for c in contracts:
        if c is None:
            continue
        from simu import codes
        from simu.errors import LaunchError
        from simu.launch.spec import check_constraints

        try:  # a constraint naming no parameter, or a length for a scalar, is the user's slip: say so
            check_constraints(kernel, c)
        except LaunchError as exc:
            where = f" ({c.origin})" if c.origin else ""
            return KernelReport(kernel.display_name, codes.FAILED, f"launch constraints{where}: {exc}")
    if len(contracts) > 1:
        from simu.evolve.alternatives import search_contracts

        res = search_contracts(module, kernel, settings, contracts, b, mode, seed)
    else:
        from simu.evolve.search import run_search

        res = run_search(module, kernel, settings, contracts[0] if contracts else None, b, mode, seed)
    return KernelReport(kernel.display_name, res.status, res.reason, tuple(res.findings), res.launches, res.stats,
                        res.where)


def __getattr__(name: str) -> Any:
    """The search's names, imported when first used: naming a :class:`Budget` (a complete launch's check) imports
    neither DEAP nor the search."""
    if name in ("SearchResult", "run_search"):
        from simu.evolve import search

        return getattr(search, name)
    raise AttributeError(f"module 'simu.evolve' has no attribute {name!r}")


__all__ = ["Budget", "SearchResult", "run_search", "search_kernel"]
