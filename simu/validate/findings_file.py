"""Findings files: the JSON report of ``simu check/scan --format json``
(``simu/report/schema/scan.schema.json``), a list of findings or one finding, read back and
validated (each distinct launch replayed once with its findings)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from simu.detect.finding import Finding
from simu.errors import SimuError
from simu.frontend import CompileOptions
from simu.validate.compare import DEFAULT_TOLERANCE, Tolerance
from simu.validate.core import validate_launch
from simu.validate.replay import launch_from_record
from simu.validate.results import ValidationReport
from simu.validate.targets import devices_for, load_target, record_key

FINDING_KEYS = frozenset({"kind", "severity", "kernel", "message"})


def load_findings(path: str | Path) -> list[tuple[Finding, str | None]]:
    """The findings of a findings file, each with the source file it belongs to (when it says).

    The file holds a ``simu check/scan --format json`` report (the findings of
    ``files[].kernels[].findings``, the file being ``files[].path`` under ``root``; suppressed
    findings are left out), a list of findings, or one finding (:meth:`Finding.to_dict` forms).
    Raises :class:`ValueError` for anything else.
    """
    data = json.loads(Path(path).read_text())
    try:
        if isinstance(data, dict) and "files" in data:
            return _report_findings(data)
        if isinstance(data, list) and all(_is_finding(x) for x in data):
            return [(Finding.from_dict(x), None) for x in data]
        if _is_finding(data):
            return [(Finding.from_dict(data), None)]
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"{path}: malformed findings ({type(exc).__name__}: {exc})") from exc
    raise ValueError(f"{path}: not a simu check/scan JSON report, a list of findings or a finding")


def _is_finding(x: Any) -> bool:
    return isinstance(x, dict) and FINDING_KEYS <= x.keys()


def _report_findings(doc: dict[str, Any]) -> list[tuple[Finding, str | None]]:
    root = doc.get("root")
    out: list[tuple[Finding, str | None]] = []
    for file in doc["files"]:
        source = str(Path(root) / file["path"]) if root else file["path"]
        for kernel in file["kernels"]:
            out += [(Finding.from_dict(f), source) for f in kernel["findings"]]
    return out


def validate_findings_file(path: str | Path, devices: list[str] | None = None, runs: int = 3, schedules: int = 4,
                           *, seed: int = 0, options: CompileOptions = CompileOptions(),
                           tolerance: Tolerance = DEFAULT_TOLERANCE) -> ValidationReport:
    """Validate every finding of a findings file: the findings of one kernel and launch together."""
    report = ValidationReport(str(path))
    items = load_findings(path)
    if not items:
        report.notes.append(f"{path}: no findings in the file")
        return report
    groups: dict[tuple[str, str, str], list[Finding]] = {}
    for f, file in items:
        src = f.first.file if f.first and f.first.file and Path(f.first.file).is_file() else file
        if src is None or f.launch is None:
            report.notes.append(f"{f.kernel}: {f.kind} has no {'source file' if src is None else 'launch'}; skipped")
            continue
        groups.setdefault((src, f.kernel, record_key(f.launch)), []).append(f)
    for (src, kernel, _), fs in groups.items():
        try:
            target = load_target(src, kernel, options)
        except (SimuError, KeyError, OSError) as exc:
            report.notes.append(f"{src}: {kernel}: cannot load ({exc})")
            continue
        devs, notes = devices_for(devices, target.language)
        for n in notes:
            report.note(n)
        rl = launch_from_record(fs[0].launch, target.kernel)
        report.results.append(validate_launch(target, rl.launch, fs, devs, runs, schedules, seed=seed,
                                              tolerance=tolerance, notes=rl.notes, exact=rl.exact))
    return report
