"""`simu scan`: every kernel of a project, in parallel worker processes, cached, never stopping on one.

Modules: :mod:`~simu.scan.options` (what a scan is asked), :mod:`~simu.scan.sources` and
:mod:`~simu.scan.changes` (which files, ``--changed``), :mod:`~simu.scan.engine` (the scheduling loop),
:mod:`~simu.scan.pool` (worker processes and tasks), :mod:`~simu.scan.worker` (what a worker runs),
:mod:`~simu.scan.payloads` (what it returns) and :mod:`~simu.scan.cache` (the per-kernel result cache).

The names below are imported on first use (PEP 562), so that a command can start the workers
(:func:`simu.scan.pool.start_early`) before it pays for the engine's imports.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ConfigError": "simu.config", "apply_policy": "simu.report.policy", "FileResult": "simu.report.results",
    "KernelResult": "simu.report.results", "ScanResult": "simu.report.results", "ScanEvents": "simu.scan.engine",
    "scan": "simu.scan.engine", "ScanError": "simu.scan.options", "ScanOptions": "simu.scan.options",
    "ScanOverrides": "simu.scan.options", "resolve_options": "simu.scan.options",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'simu.scan' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
