"""Checks: pure functions from a run (trace + launch) to Findings; each lives in its own module."""

from __future__ import annotations

from typing import Callable

from simu.detect.barriers import barrier_use, check_barriers, check_divergence, redundant_findings
from simu.detect.context import Context, DetectOptions
from simu.detect.finding import Finding, LaunchRecord, SourceLocation, ThreadRef, deduplicate
from simu.detect.memory import check_memory
from simu.detect.perf import check_perf
from simu.detect.races import check_races

CHECKS: dict[str, Callable[[Context], list[Finding]]] = {
    "races": check_races,
    "barriers": check_barriers,
    "memory": check_memory,
    "perf": check_perf,
}
DEFAULT_CHECKS = ("races", "barriers", "memory")


def register(name: str, check: Callable[[Context], list[Finding]]) -> None:
    """Add a check; it receives a :class:`Context` and returns findings."""
    CHECKS[name] = check


def detect(ctx: Context, checks: tuple[str, ...] | list[str] = DEFAULT_CHECKS) -> list[Finding]:
    """Run the selected checks on one run and return de-duplicated findings."""
    findings: list[Finding] = []
    for name in checks:
        if name not in CHECKS:
            raise KeyError(f"unknown check '{name}' (available: {', '.join(CHECKS)})")
        findings += CHECKS[name](ctx)
    return deduplicate(findings)


__all__ = ["CHECKS", "DEFAULT_CHECKS", "Context", "DetectOptions", "Finding", "LaunchRecord", "SourceLocation",
           "ThreadRef", "barrier_use", "check_divergence", "deduplicate", "detect", "redundant_findings", "register"]
