"""What a worker task returns to the scan (picklable), and what the cache stores of it (JSON).

:class:`FileListing` / :class:`FileFailure` answer a compile task, :class:`KernelVerdict` an analysis.
A verdict's JSON form (:meth:`KernelVerdict.to_dict`) is the cache's row payload.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from simu.codes import COMPILE_ERROR, FAILED
from simu.detect.finding import Finding
from simu.errors import SourcePoint


@dataclass(frozen=True)
class ModuleIR:
    """A compiled file, as an analysis task receives it: the exact IR whose digest keys the cache."""

    digest: str
    ir: str
    language: str
    param_names: Any  # what simu.ir.load_module takes with the IR (parameter names from the source)


@dataclass(frozen=True)
class KernelEntry:
    name: str  # display name (demangled)
    mangled: str
    line: int
    file: str = ""  # the file that defines it (from debug info): a header for a kernel a header defines
    params: tuple[tuple[str, int | None], ...] = ()  # (name, pointee bytes or None): host launches bind to them
    types: tuple[str, ...] = ()  # the parameters' C types: which instantiation of a template kernel a launch makes


@dataclass(frozen=True)
class FileListing:
    """A file that compiled: its IR and its kernels."""

    ok: ClassVar[bool] = True
    module: ModuleIR
    kernels: tuple[KernelEntry, ...]
    seconds: float = 0.0
    notes: tuple[str, ...] = ()  # what the compiler front end chose to make the file compile

    @property
    def language(self) -> str:
        return self.module.language


@dataclass(frozen=True)
class FileFailure:
    """A file that did not compile (``compile-error``), or whose compile task failed otherwise."""

    ok: ClassVar[bool] = False
    status: str = FAILED  # compile-error | error | timeout
    first: str = ""  # the first diagnostic line
    diagnostics: str = ""
    traceback: str = ""
    seconds: float = 0.0
    language: str = ""
    where: SourcePoint | None = None  # where the first diagnostic points

    @staticmethod
    def compile_error(first: str, diagnostics: str, seconds: float, where: SourcePoint | None = None
                      ) -> FileFailure:
        return FileFailure(COMPILE_ERROR, first, diagnostics, seconds=seconds, where=where)


@dataclass(frozen=True)
class KernelVerdict:
    """One kernel's analysis: its status (a :mod:`simu.codes` status), why, and what it found."""

    status: str = FAILED
    reason: str = ""
    launches: int = 0
    findings: tuple[Finding, ...] = ()
    seconds: float = 0.0
    traceback: str = ""  # of a crash inside the analysis
    where: SourcePoint | None = None  # the source position the reason is about

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "reason": self.reason, "launches": self.launches,
                               "findings": [f.to_dict() for f in self.findings], "seconds": self.seconds}
        if self.traceback:
            out["traceback"] = self.traceback
        if self.where is not None:
            out["where"] = asdict(self.where)
        return out

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "KernelVerdict":
        return KernelVerdict(status=d.get("status", FAILED), reason=d.get("reason", ""),
                             launches=int(d.get("launches", 0)),
                             findings=tuple(Finding.from_dict(f) for f in d.get("findings", [])),
                             seconds=float(d.get("seconds", 0.0)), traceback=d.get("traceback", ""),
                             where=SourcePoint(**d["where"]) if d.get("where") else None)
