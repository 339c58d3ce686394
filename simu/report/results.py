"""What a scan or a check produced: per file and per kernel, with the findings left after policy.

The one model every formatter renders (a single-file ``simu check`` is a scan of one file).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simu.codes import ANALYSED_STATES, SEVERITY_RANK
from simu.detect.finding import Finding
from simu.errors import SourcePoint


@dataclass
class KernelResult:
    name: str
    mangled: str = ""
    line: int = 0
    status: str = "pending"  # analysed | incomplete | unsupported | error | timeout | interrupted
    reason: str = ""
    launches: int = 0
    findings: list[Finding] = field(default_factory=list)
    where: SourcePoint | None = None  # the source position the reason is about
    suppressed: list[tuple[Finding, str]] = field(default_factory=list)  # (finding, why)
    cached: bool = False
    seconds: float = 0.0
    traceback: str = ""
    compile_options: Any = None  # the CompileOptions of its file's variant (None: the file's)
    defined_in: str = ""  # the file that defines the kernel when not the compiled one (a header), root-relative
    also_through: list[str] = field(default_factory=list)  # other compiled files that reach the same kernel


@dataclass
class FileResult:
    path: Path  # absolute
    rel: str  # relative to the root, '/'-separated
    language: str = ""
    status: str = "pending"  # ok | compile-error | error | timeout | interrupted
    first: str = ""  # first diagnostic line of a failure
    where: SourcePoint | None = None  # where that diagnostic points
    diagnostics: str = ""
    traceback: str = ""
    kernels: list[KernelResult] = field(default_factory=list)
    compile_options: Any = None  # the CompileOptions the file was compiled with (discovered include folders too)
    included_by: str = ""  # a fragment another scanned file includes: not compiled alone, analysed through it
    analysed_through: dict[str, str] = field(default_factory=dict)  # kernel it reaches -> the file analysing it


@dataclass
class ScanStats:
    files: int = 0
    kernels: int = 0
    cache_hits: int = 0
    analysed: int = 0  # analyses actually run in this scan (cache misses)
    seconds: float = 0.0
    # host files indexed, those also read through clang (simu.host.ast), those clang could not read
    host_files: dict[str, int] = field(default_factory=lambda: {"indexed": 0, "clang": 0, "clang_failed": 0})


@dataclass
class ScanResult:
    root: Path
    options: Any  # the ScanOptions that produced it (fail_on, changed and what the JSON report lists)
    files: list[FileResult] = field(default_factory=list)
    stats: ScanStats = field(default_factory=ScanStats)
    interrupted: bool = False
    note: str = ""  # e.g. "no changed kernel files"
    warnings: list[str] = field(default_factory=list)  # e.g. a cache that could not be opened

    def kernels(self):
        for f in self.files:
            for k in f.kernels:
                yield f, k

    @property
    def findings(self) -> list[Finding]:
        return [x for _, k in self.kernels() for x in k.findings]

    @property
    def suppressed_count(self) -> int:
        return sum(len(k.suppressed) for _, k in self.kernels())

    def analysed_count(self) -> int:
        return sum(1 for _, k in self.kernels() if k.status in ANALYSED_STATES)

    def failed(self) -> bool:
        return any(f.status not in ("ok", "pending") for f in self.files) or \
            any(k.status not in ANALYSED_STATES for _, k in self.kernels())

    def exit_code(self, fail_on: str | None = None) -> int:
        """0: nothing at or above ``fail_on``; 1: findings at or above it; 2: nothing could be analysed;
        130: interrupted."""
        if self.interrupted:
            return 130
        fail_on = fail_on or self.options.fail_on
        if not self.files:
            return 0 if self.options.changed else 2
        if self.analysed_count() == 0 and self.failed():
            return 2
        if fail_on == "never":
            return 0
        threshold = SEVERITY_RANK[fail_on]
        return 1 if any(SEVERITY_RANK.get(f.severity, 0) >= threshold for f in self.findings) else 0


