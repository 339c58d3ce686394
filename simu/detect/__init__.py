"""Checks: judge one launch's trace, then a kernel's launches together; each lives in its own module.

A check is a :class:`Check` subclass (see :mod:`simu.detect.check` for the lifecycle), registered by
name.  Settings carry check *names*; :func:`check_classes` turns them into the classes, which pickle
by reference, so a check registered in an importable module also reaches scan's worker processes.

The checks and their machinery are imported on first use (PEP 562): the report model needs
:class:`~simu.detect.finding.Finding` only, and a scan's parent process never judges a trace.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from simu import codes

if TYPE_CHECKING:
    from simu.detect.check import Check
    from simu.detect.context import Context
    from simu.detect.finding import Finding

DEFAULT_CHECKS = codes.DEFAULT_CHECKS
_EXPORTS = {
    "Check": "simu.detect.check", "Context": "simu.detect.context", "DetectOptions": "simu.detect.context",
    "Finding": "simu.detect.finding", "SourceLocation": "simu.detect.finding", "ThreadRef": "simu.detect.finding",
    "deduplicate": "simu.detect.finding", "LaunchRecord": "simu.launch.record",
}
_registry: dict[str, type[Check]] = {}


def _checks() -> dict[str, type[Check]]:
    """The registry, with the built-in checks in it once they are first asked for."""
    if not _registry:
        from simu.detect.barriers import BarrierCheck
        from simu.detect.memory import MemoryCheck
        from simu.detect.perf import PerfCheck
        from simu.detect.races import RaceCheck

        builtin = {c.name: c for c in (RaceCheck, BarrierCheck, MemoryCheck, PerfCheck)}
        _registry.update({**builtin, **_registry})
    return _registry


def register(check: type[Check]) -> type[Check]:
    """Add a check class (usable as a decorator); its ``name`` selects it in ``--checks``."""
    if not check.name:
        raise ValueError(f"check {check.__qualname__} has no name")
    _checks()[check.name] = check
    return check


def check_classes(names: tuple[str, ...] | list[str]) -> list[type[Check]]:
    """The registered classes of the named checks, in order; an unknown name is a KeyError."""
    checks = _checks()
    unknown = [n for n in names if n not in checks]
    if unknown:
        raise KeyError(f"unknown check '{unknown[0]}' (available: {', '.join(checks)})")
    return [checks[n] for n in names]


def detect(ctx: Context, checks: tuple[str, ...] | list[str] = DEFAULT_CHECKS) -> list[Finding]:
    """Judge one run as a kernel analysed with this launch alone (both phases of every check)."""
    from simu.detect.finding import deduplicate

    findings: list[Finding] = []
    for cls in check_classes(checks):
        check = cls()
        findings += check.on_launch(ctx)
        obs = check.observe(ctx)
        findings += check.on_kernel_end([obs] if obs is not None else [])
    return deduplicate(findings)


def __getattr__(name: str) -> Any:
    if name == "CHECKS":
        return _checks()
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'simu.detect' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = ["CHECKS", "DEFAULT_CHECKS", "Check", "Context", "DetectOptions", "Finding", "LaunchRecord",
           "SourceLocation", "ThreadRef", "check_classes", "deduplicate", "detect", "register"]
