"""`simu scan`: every kernel of a project, in parallel worker processes, cached, never stopping on one.

Modules: :mod:`~simu.scan.options` (what a scan is asked), :mod:`~simu.scan.sources` and
:mod:`~simu.scan.changes` (which files, ``--changed``), :mod:`~simu.scan.engine` (the scheduling loop),
:mod:`~simu.scan.pool` (worker processes and tasks), :mod:`~simu.scan.worker` (what a worker runs),
:mod:`~simu.scan.payloads` (what it returns) and :mod:`~simu.scan.cache` (the per-kernel result cache).
"""

from simu.config import ConfigError
from simu.report.policy import apply_policy
from simu.report.results import FileResult, KernelResult, ScanResult
from simu.scan.engine import ScanEvents, scan
from simu.scan.options import ScanError, ScanOptions, ScanOverrides, resolve_options

__all__ = ["ConfigError", "FileResult", "KernelResult", "ScanError", "ScanEvents", "ScanOptions", "ScanOverrides",
           "ScanResult", "apply_policy", "resolve_options", "scan"]
