"""`simu scan`: every kernel of a project, in parallel worker processes, cached, never stopping on one."""

from simu.config import ConfigError
from simu.report.policy import apply_policy
from simu.report.results import FileResult, KernelResult, ScanResult
from simu.scan.engine import ScanError, ScanEvents, ScanOptions, ScanOverrides, resolve_options, scan

__all__ = ["ConfigError", "FileResult", "KernelResult", "ScanError", "ScanEvents", "ScanOptions", "ScanOverrides",
           "ScanResult", "apply_policy", "resolve_options", "scan"]
