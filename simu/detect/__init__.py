"""Checks: judge one launch's trace, then a kernel's launches together; each lives in its own module.

A check is a :class:`Check` subclass (see :mod:`simu.detect.check` for the lifecycle), registered by
name.  Settings carry check *names*; :func:`check_classes` turns them into the classes, which pickle
by reference, so a check registered in an importable module also reaches scan's worker processes.
"""

from __future__ import annotations

from simu import codes
from simu.detect.barriers import BarrierCheck
from simu.detect.check import Check
from simu.detect.context import Context, DetectOptions
from simu.detect.finding import Finding, SourceLocation, ThreadRef, deduplicate
from simu.detect.memory import MemoryCheck
from simu.detect.perf import PerfCheck
from simu.detect.races import RaceCheck
from simu.launch.record import LaunchRecord

CHECKS: dict[str, type[Check]] = {c.name: c for c in (RaceCheck, BarrierCheck, MemoryCheck, PerfCheck)}
DEFAULT_CHECKS = codes.DEFAULT_CHECKS


def register(check: type[Check]) -> type[Check]:
    """Add a check class (usable as a decorator); its ``name`` selects it in ``--checks``."""
    if not check.name:
        raise ValueError(f"check {check.__qualname__} has no name")
    CHECKS[check.name] = check
    return check


def check_classes(names: tuple[str, ...] | list[str]) -> list[type[Check]]:
    """The registered classes of the named checks, in order; an unknown name is a KeyError."""
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        raise KeyError(f"unknown check '{unknown[0]}' (available: {', '.join(CHECKS)})")
    return [CHECKS[n] for n in names]


def detect(ctx: Context, checks: tuple[str, ...] | list[str] = DEFAULT_CHECKS) -> list[Finding]:
    """Judge one run as a kernel analysed with this launch alone (both phases of every check)."""
    findings: list[Finding] = []
    for cls in check_classes(checks):
        check = cls()
        findings += check.on_launch(ctx)
        obs = check.observe(ctx)
        findings += check.on_kernel_end([obs] if obs is not None else [])
    return deduplicate(findings)


__all__ = ["CHECKS", "DEFAULT_CHECKS", "Check", "Context", "DetectOptions", "Finding", "LaunchRecord",
           "SourceLocation", "ThreadRef", "check_classes", "deduplicate", "detect", "register"]
