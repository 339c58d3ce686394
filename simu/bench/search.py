"""`simu bench --suite search`: random search vs Simulee's search vs simu's full search on the corpus.

Every corpus file's `launch:` lines are ignored: each mode gets the same evaluation budget and must
find the file's expected findings on its own (-O0, lockstep warp model)."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from simu.bench.corpus import evaluate, host_compile_options, parse


@dataclass
class FileResult:
    path: str
    mode: str
    expected: int
    found: int
    false_positives: int
    evaluations: int
    first_eval: int | None
    first_seconds: float | None
    seconds: float
    missing: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)


@dataclass
class SearchRun:
    """What searching one corpus file's kernels produced (its launch lines ignored)."""

    findings: list = field(default_factory=list)
    evaluations: int = 0
    first_eval: int | None = None
    first_seconds: float | None = None
    seconds: float = 0.0
    status: str = "analysed"  # the first kernel status other than analysed, else analysed
    reason: str = ""


def search_findings(path: Path, mode: str = "full", evaluations: int = 40, seed: int = 0, cache: dict | None = None,
                    guard_seconds: float | None = None, probe_seconds: float | None = None,
                    settings=None, budget_type=None) -> SearchRun:
    """Search every kernel of one corpus file (or its ``// kernel:``) with simu's search and collect the
    findings.  ``settings`` (a :class:`~simu.pipeline.CheckSettings`) picks the warp model and limits;
    ``budget_type`` a :class:`~simu.evolve.Budget` subclass (the generated-kernel bench fixes its refutations)."""
    from simu.api import load_file
    from simu.check import CheckSettings
    from simu.evolve import Budget, search_kernel
    from simu.evolve.budget import CHECK_GUARD_SECONDS, MAX_PROBE_SECONDS
    from simu.frontend import CompileOptions
    from simu.host.contracts import kernel_contracts

    cf = parse(path)
    cache = cache if cache is not None else {}
    if str(path) not in cache:
        cache[str(path)] = load_file(path, host_compile_options(path, CompileOptions()))
    module = cache[str(path)]
    kernels = [module.kernel(cf.kernel)] if cf.kernel else module.kernels
    t0 = time.perf_counter()
    run = SearchRun()
    for k in kernels:
        budget = (budget_type or Budget)(evaluations=evaluations, seconds=guard_seconds or CHECK_GUARD_SECONDS,
                                         probe_seconds=probe_seconds or MAX_PROBE_SECONDS)
        rep = search_kernel(module, k, settings or CheckSettings(),
                            kernel_contracts(path, k, cf.constraints).for_search(), budget, mode, seed)
        run.findings += rep.findings
        if rep.status != "analysed" and run.status == "analysed":
            run.status, run.reason = rep.status, rep.reason
        st = rep.search
        if st is None:
            continue
        run.evaluations += st.evaluations
        if st.first_finding_eval is not None and run.first_eval is None:
            run.first_eval, run.first_seconds = st.first_finding_eval, st.first_finding_seconds
    run.seconds = time.perf_counter() - t0
    return run


def search_corpus_file(path: Path, mode: str = "full", evaluations: int = 40, seed: int = 0,
                       cache: dict | None = None, guard_seconds: float | None = None,
                       probe_seconds: float | None = None) -> FileResult:
    """Search one corpus file's kernels with its launch lines ignored and compare with its labels.

    By default the budget is `simu check`'s: ``evaluations``, stopped after CHECK_GUARD_SECONDS, each
    launch at most MAX_PROBE_SECONDS.  Larger ``guard_seconds`` / ``probe_seconds`` make the result
    depend on the evaluations alone, not on how fast the machine is (tests)."""
    cf = parse(path)
    run = search_findings(path, mode, evaluations, seed, cache, guard_seconds, probe_seconds)
    v = evaluate(cf, "O0", "lockstep", run.findings)
    want = cf.expected("O0", "lockstep")
    return FileResult(str(path), mode, len(want), len(want) - len(v.missing), len(v.unexpected), run.evaluations,
                      run.first_eval, run.first_seconds, run.seconds, [e.text for e in v.missing],
                      [f"{u.kind} {u.space} line {u.first.line if u.first else '?'}" for u in v.unexpected])


def _one(args):
    path, mode, evaluations, seed = args
    return search_corpus_file(Path(path), mode, evaluations, seed)


def compare_modes(files: list[Path], evaluations: int = 40, modes=("random", "simulee", "full"), seed: int = 0,
                  jobs: int = 1):
    """Run every mode on every file (in ``jobs`` processes) and summarise per mode."""
    tasks = [(str(f), m, evaluations, seed) for m in modes for f in files]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_one, tasks))
    else:
        results = [_one(t) for t in tasks]
    rows = {m: [r for r in results if r.mode == m] for m in modes}
    summary = {}
    for m, rs in rows.items():
        buggy = [r for r in rs if r.expected]
        found_all = [r for r in buggy if r.found == r.expected]
        firsts = [r.first_eval for r in buggy if r.first_eval is not None]
        first_s = [r.first_seconds for r in buggy if r.first_seconds is not None]
        summary[m] = {
            "files": len(rs), "files_with_bugs": len(buggy), "bugs_expected": sum(r.expected for r in buggy),
            "bugs_found": sum(r.found for r in buggy), "files_fully_found": len(found_all),
            "false_positives": sum(r.false_positives for r in rs),
            "median_evaluations_to_first_finding": statistics.median(firsts) if firsts else None,
            "mean_evaluations_to_first_finding": statistics.fmean(firsts) if firsts else None,
            "p90_evaluations_to_first_finding": _quantile(firsts, 0.9),
            "median_seconds_to_first_finding": statistics.median(first_s) if first_s else None,
            "median_seconds_per_file": statistics.median(r.seconds for r in rs) if rs else None,
        }
    return summary, rows


def _quantile(values: list, q: float):
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]
