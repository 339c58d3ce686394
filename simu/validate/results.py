"""What validation gives: verdicts, one launch's :class:`LaunchValidation` (with its findings, each
a new :class:`~simu.detect.finding.Finding` carrying its verdict in ``detail["validation"]``) and
a :class:`ValidationReport` of many launches."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from simu.detect.finding import Finding
from simu.launch.record import LaunchRecord
from simu.validate.compare import Difference

SCHEDULE_KINDS = frozenset({"race", "benign-race", "warp-race", "barrier-divergence"})
UB_KINDS = frozenset({"out-of-bounds", "null", "invalid-pointer", "uninitialized"})
VERDICTS = ("confirmed-on-hardware", "confirmed-in-model", "not-observed", "match", "model-mismatch",
            "nondeterministic", "not-applicable", "skipped", "error")


@dataclass(frozen=True)
class LaunchValidation:
    """The verdict for one launch of one kernel, and the findings it showed, judged (each with
    ``detail["validation"]``, see :meth:`judge`)."""

    kernel: str
    path: str
    launch: LaunchRecord
    verdict: str
    devices: tuple[str, ...]
    runs: int
    schedules: int
    details: dict[str, Any] = field(default_factory=dict)
    findings: tuple[Finding, ...] = ()
    mismatches: tuple[Difference, ...] = ()

    def summary(self) -> dict[str, Any]:
        """The launch's ``Finding.detail["validation"]`` form."""
        return {"verdict": self.verdict, "device": ", ".join(self.devices) or None, "runs": self.runs,
                "schedules": self.schedules, "details": self.details}

    def judge(self, finding: Finding) -> Finding:
        """``finding`` with this launch's verdict in ``detail["validation"]`` (a finding whose
        kind outputs cannot confirm gets "not-applicable", with the launch's verdict beside it)."""
        summary = self.summary()
        if finding.kind not in SCHEDULE_KINDS and self.verdict not in ("skipped", "error"):
            summary = {**summary, "verdict": "not-applicable", "launch_verdict": self.verdict}
        return finding.with_detail(validation=_jsonable(summary))

    def with_findings(self, findings: list[Finding] | tuple[Finding, ...]) -> LaunchValidation:
        """This validation holding ``findings``, each judged."""
        return replace(self, findings=tuple(self.judge(f) for f in findings))

    def to_dict(self) -> dict[str, Any]:
        return {"kernel": self.kernel, "path": self.path, "launch": asdict(self.launch), **self.summary(),
                "devices": list(self.devices), "mismatches": [m.to_dict() for m in self.mismatches],
                "findings": [f.to_dict() for f in self.findings]}


def _jsonable(x: Any) -> Any:
    return json.loads(json.dumps(x, default=lambda o: o.item() if isinstance(o, np.generic) else str(o)))


@dataclass
class ValidationReport:
    """The validations of a source file's launches or of a findings file's findings."""

    path: str
    results: list[LaunchValidation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out = {v: 0 for v in VERDICTS}
        for r in self.results:
            out[r.verdict] = out.get(r.verdict, 0) + 1
        return {k: v for k, v in out.items() if v}

    @property
    def mismatches(self) -> list[LaunchValidation]:
        return [r for r in self.results if r.verdict == "model-mismatch"]

    def exit_code(self) -> int:
        """0: everything validated; 1: a model mismatch; 2: nothing could be replayed or simu failed."""
        if self.mismatches:
            return 1
        if not self.results or all(r.verdict in ("skipped", "error") for r in self.results) or \
                any(r.verdict == "error" for r in self.results):
            return 2
        return 0

    def note(self, text: str) -> None:
        """Add a note once."""
        if text not in self.notes:
            self.notes.append(text)

    def extend(self, other: ValidationReport) -> None:
        self.results += other.results
        for n in other.notes:
            self.note(n)

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "counts": self.counts(), "notes": self.notes,
                "results": [r.to_dict() for r in self.results]}
