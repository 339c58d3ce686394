"""`simu check`: run launches of a file's kernels and the detectors; the library behind the command."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simu.detect import DEFAULT_CHECKS, Context, DetectOptions, Finding, barrier_use, deduplicate, detect
from simu.detect.barriers import BarrierUse, check_divergence, redundant_findings
from simu.errors import SimuError
from simu.interp import Limits, run
from simu.ir import Kernel, Module
from simu.launch import Launch


@dataclass
class KernelReport:
    kernel: str
    status: str = "analysed"  # analysed | incomplete | error | unsupported
    reason: str = ""
    findings: list[Finding] = field(default_factory=list)
    launches: int = 0


@dataclass
class CheckSettings:
    checks: tuple[str, ...] = DEFAULT_CHECKS
    detect: DetectOptions = field(default_factory=DetectOptions)
    limits: Limits = field(default_factory=Limits)


def check_kernel(module: Module, kernel: Kernel, launches: list[Launch],
                 settings: CheckSettings = CheckSettings()) -> KernelReport:
    """Run each launch, collect findings; redundant barriers are judged over all launches together."""
    report = KernelReport(kernel.display_name)
    findings: list[Finding] = []
    use = BarrierUse()
    last_ctx = None
    checks = tuple(c for c in settings.checks)
    per_launch = tuple(c for c in checks if c != "barriers")
    for launch in launches:
        try:
            result = run(module, kernel, launch, settings.limits)
        except SimuError as exc:
            report.status = "unsupported" if "unsupported" in str(exc) else "error"
            report.reason = str(exc)
            break
        report.launches += 1
        if not result.outcome.completed:
            report.status = "incomplete" if result.outcome.status == "incomplete" else "error"
            report.reason = str(result.outcome)
        ctx = Context(module, kernel, launch, result, settings.detect)
        findings += detect(ctx, per_launch)
        if "barriers" in checks:
            findings += check_divergence(ctx)
            use.merge(barrier_use(ctx))
            last_ctx = ctx
    if last_ctx is not None and "barriers" in checks and report.status == "analysed":
        findings += redundant_findings(last_ctx, use)
    report.findings = deduplicate(findings)
    return report


def default_launches(kernel: Kernel) -> list[Launch]:
    """A small fixed plan used when no launch is given (the search replaces it)."""
    from simu.launch.spec import build_launch

    out = []
    for grid, block in ((2, 64),):
        args = []
        for p in kernel.params:
            if not p.is_pointer:
                args.append(f"{p.name}={_default_scalar(p, grid * block)}")
        out.append(build_launch(kernel, (grid, 1, 1), (block, 1, 1), args))
    return out


def _default_scalar(p, threads: int) -> Any:
    from simu.ir.types import FloatType, VectorType

    if isinstance(p.type, FloatType):
        return "1.5"
    if isinstance(p.type, VectorType):
        return "1"
    return str(threads)


def analyse_kernel(module: Module, kernel: Kernel, settings: CheckSettings = CheckSettings(),
                   constraints: Any = None, budget: Any = None) -> KernelReport:
    """Analyse one kernel without user launches: search the launch space, then detect.

    ``constraints`` fixes or bounds genes (see :mod:`simu.evolve`); ``budget`` limits the search.
    """
    from simu.evolve import search_kernel

    return search_kernel(module, kernel, settings, constraints, budget)
