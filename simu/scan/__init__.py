"""`simu scan`: every kernel of a project, in parallel worker processes, cached, never stopping on one."""

from simu.scan.engine import (
                              ConfigError,
                              FileResult,
                              KernelResult,
                              ScanError,
                              ScanEvents,
                              ScanOptions,
                              ScanOverrides,
                              ScanResult,
                              apply_policy,
                              resolve_options,
                              scan,
)

__all__ = ["ConfigError", "FileResult", "KernelResult", "ScanError", "ScanEvents", "ScanOptions", "ScanOverrides",
           "ScanResult", "apply_policy", "resolve_options", "scan"]
