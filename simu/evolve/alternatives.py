"""A kernel with several launch contracts: the distinct launches its host code makes (``simu.host.contracts``).

Each contract gets its own search (:func:`~simu.evolve.search.run_search`) with an equal share of the
budget; a search's first launch may run past its share but not past the kernel's whole budget
(``Budget.kernel_deadline``), so that n contracts of a heavy kernel cost one budget, not n.  A per-launch
finding is the launch's own: it keeps the witness launch, whose origin names the host launch it came from
("host launch at main.cu:37").  A kernel-phase finding, judged over every launch (a redundant barrier: never
needed by any launch), holds for the program only when every contract's search reports it: a barrier one
host launch needs is not redundant.
"""

from __future__ import annotations

import dataclasses

from simu import codes
from simu.detect.finding import deduplicate
from simu.evolve.budget import Budget
from simu.evolve.search import HOST_REQUIRES, SearchResult, SearchStats, deadline_after, run_search
from simu.launch.constraints import KernelConstraints

KERNEL_PHASE_KINDS = frozenset({"redundant-barrier"})  # findings of Check.on_kernel_end, over every launch


def runs_nothing(c: KernelConstraints) -> bool:
    """Whether the host gives the launch a zero-sized grid or block (a constant 0 in some dimension)."""
    return any(d == 0 for dims in (c.grid, c.block) if dims for d in dims)


def share(budget: Budget, n: int) -> Budget:
    """One contract's part of ``budget`` when ``n`` contracts split it, from now."""
    if n <= 1:
        return budget
    return dataclasses.replace(budget, evaluations=max(budget.min_evaluations, -(-budget.evaluations // n)),
                               seconds=budget.seconds / n, kernel_deadline=deadline_after(budget.seconds))


def search_contracts(module, kernel, settings, contracts: list[KernelConstraints], budget: Budget,
                     mode: str = "full", seed: int = 0) -> SearchResult:
    """One search per contract, their findings together (see the module docstring).  A host launch whose grid or
    block the host code sizes to zero runs no thread (CUDA refuses it), and one every launch of which breaks what the
    host code requires is never made: each left out while another contract remains."""
    left_out = [c for c in contracts if runs_nothing(c)]
    if len(left_out) == len(contracts):
        left_out = []  # no other launch: the empty ones are searched and say why they cannot run
    contracts = [c for c in contracts if not any(c is e for e in left_out)]
    part = share(budget, len(contracts))
    results = [run_search(module, kernel, settings, c, part, mode, seed) for c in contracts]
    findings = [f for r in results for f in r.findings if f.kind not in KERNEL_PHASE_KINDS]
    phase = [{f.key: f for f in r.findings if f.kind in KERNEL_PHASE_KINDS} for r in results]
    findings += [f for key, f in phase[0].items() if all(key in p for p in phase[1:])]
    stats = SearchStats()
    for r in results:
        s = r.stats
        if stats.first_finding_eval is None and s.first_finding_eval is not None:
            stats.first_finding_eval = stats.evaluations + s.first_finding_eval
            stats.first_finding_seconds = stats.seconds + (s.first_finding_seconds or 0.0)
        stats.evaluations += s.evaluations
        stats.cache_hits += s.cache_hits
        stats.seconds += s.seconds
        stats.invalid += s.invalid
    # a contract every launch of which breaks what the host requires (a loop's value the branch around the launch
    # excludes at the command line's defaults) is a launch the program never makes: left out while another ran
    never = [r.status != codes.ANALYSED and r.stats.invalid >= r.stats.evaluations
             and r.reason.startswith(HOST_REQUIRES) for r in results]
    if all(never):
        never = [False] * len(results)
    notes = dict.fromkeys(r.reason for r, n in zip(results, never, strict=True) if r.reason and not n)
    notes.update(dict.fromkeys(f"{c.origin or 'a host launch'}: never made ({r.reason}; left out)"
                               for r, c, n in zip(results, contracts, never, strict=True) if n))
    notes.update(dict.fromkeys(f"{c.origin or 'a host launch'}: a zero-sized grid or block runs no thread "
                               "(left out)" for c in left_out))
    out = SearchResult(deduplicate(findings), stats, codes.ANALYSED, "; ".join(notes), sum(r.launches for r in results))
    for r, c, n in zip(results, contracts, never, strict=True):
        if r.status != codes.ANALYSED and not n:  # the first contract that could not be analysed says why
            out.status, out.where = r.status, r.where
            out.reason = f"{c.origin}: {r.reason}" if c.origin else r.reason
            break
    return out
