"""Validating kernels, source files and single findings: which launches to replay and with which
findings (the ``// launch:`` lines, a launch search, or a finding's own launch record)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simu.detect.finding import Finding
from simu.errors import SimuError
from simu.frontend import CompileOptions
from simu.launch.model import Launch
from simu.launch.record import LaunchRecord
from simu.validate.compare import DEFAULT_TOLERANCE, Tolerance
from simu.validate.core import validate_launch
from simu.validate.findings_file import validate_findings_file
from simu.validate.replay import launch_from_record, record_with_specs
from simu.validate.results import LaunchValidation, ValidationReport
from simu.validate.targets import (
    Target,
    detect_findings,
    devices_for,
    file_launches,
    load_module,
    load_target,
    record_key,
)


def validate_kernel(path: str | Path, kernel: Any = None, launch: Launch | LaunchRecord | None = None,
                    devices: list[str] | None = None, runs: int = 3, schedules: int = 4, *, seed: int = 0,
                    options: CompileOptions = CompileOptions(), findings: list[Finding] | None = None,
                    tolerance: Tolerance = DEFAULT_TOLERANCE, warp_model: str = "lockstep") -> ValidationReport:
    """Run the detectors on one launch of one kernel (or take ``findings``) and validate it.

    ``launch`` may be a :class:`Launch`, a :class:`LaunchRecord`, or ``None`` (the file's
    ``// launch:`` lines, else simu's default launch).
    """
    target = load_target(path, kernel, options)
    devs, notes = devices_for(devices, target.language)
    report = ValidationReport(str(path), notes=notes)
    launches: list[tuple[Launch, bool, list[str]]]
    if launch is None:
        launches = [(one, True, []) for one in file_launches(target)]
    elif isinstance(launch, LaunchRecord):
        rl = launch_from_record(launch, target.kernel)
        launches = [(rl.launch, rl.exact, rl.notes)]
    else:
        launches = [(launch, True, [])]
    for one, exact, lnotes in launches:
        fs = findings if findings is not None else detect_findings(target, one, warp_model)
        fs = [record_with_specs(f, one) for f in fs]
        report.results.append(validate_launch(target, one, fs, devs, runs, schedules, seed=seed, tolerance=tolerance,
                                              notes=lnotes, exact=exact))
    return report


def validate_finding(finding: Finding | dict[str, Any], source_path: str | Path | None = None,
                     devices: list[str] | None = None, runs: int = 3, schedules: int = 4, *, seed: int = 0,
                     options: CompileOptions = CompileOptions(),
                     tolerance: Tolerance = DEFAULT_TOLERANCE) -> LaunchValidation:
    """Replay the launch of one finding; the validation's ``findings`` hold it judged.

    ``source_path`` defaults to the finding's first source location.  Raises :class:`SimuError`
    when the finding has no source or no launch record.
    """
    f = Finding.from_dict(finding) if isinstance(finding, dict) else finding
    path = source_path or (f.first.file if f.first else None)
    if path is None:
        raise SimuError("the finding has no source location: give the kernel source path")
    if f.launch is None:
        raise SimuError("the finding has no launch record: nothing to replay")
    target = load_target(path, f.kernel, options)
    devs, notes = devices_for(devices, target.language)
    rl = launch_from_record(f.launch, target.kernel)
    return validate_launch(target, rl.launch, [f], devs, runs, schedules, seed=seed, tolerance=tolerance,
                           notes=notes + rl.notes, exact=rl.exact)


def validated_finding(finding: Finding | dict[str, Any], source_path: str | Path | None = None,
                      devices: list[str] | None = None, runs: int = 3, schedules: int = 4, *, seed: int = 0,
                      options: CompileOptions = CompileOptions(),
                      tolerance: Tolerance = DEFAULT_TOLERANCE) -> Finding:
    """The finding with its verdict in ``detail["validation"]`` (see :func:`validate_finding`)."""
    return validate_finding(finding, source_path, devices, runs, schedules, seed=seed, options=options,
                            tolerance=tolerance).findings[0]


def validate_file(path: str | Path, devices: list[str] | None = None, runs: int = 3, schedules: int = 4, *,
                  seed: int = 0, options: CompileOptions = CompileOptions(), analyse: bool | None = None,
                  tolerance: Tolerance = DEFAULT_TOLERANCE, budget: Any = None) -> ValidationReport:
    """Validate every kernel of a source file, or every finding of a findings JSON file.

    A source file with ``// launch:`` lines is checked on those launches; otherwise (or with
    ``analyse=True``) :func:`simu.check.analyse_kernel` searches launches and each distinct
    finding launch is replayed; a kernel without findings is replayed on simu's default launch
    to look for model mismatches.  A ``.json`` file is read by
    :func:`simu.validate.findings_file.load_findings`.
    """
    from simu.launch.comments import parse

    path = Path(path)
    if path.suffix == ".json":
        return validate_findings_file(path, devices, runs, schedules, seed=seed, options=options, tolerance=tolerance)
    report = ValidationReport(str(path))
    module = load_module(path, options)
    header = parse(path)
    kernels = [module.kernel(header.kernel)] if header.kernel else module.kernels
    for k in kernels:
        if header.launches and not analyse:
            report.extend(validate_kernel(path, k, None, devices, runs, schedules, seed=seed, options=options,
                                          tolerance=tolerance))
        else:
            target = load_target(path, k, options, module)
            report.extend(_validate_searched(target, devices, runs, schedules, seed, tolerance, budget))
    return report


def _validate_searched(target: Target, devices: list[str] | None, runs: int, schedules: int, seed: int,
                       tolerance: Tolerance, budget: Any) -> ValidationReport:
    """Search the kernel's launches and validate each distinct launch with findings (the default
    launch when there is none)."""
    from simu.check import analyse_kernel, default_launches

    devs, notes = devices_for(devices, target.language)
    report = ValidationReport(target.path, notes=notes)
    try:
        findings = analyse_kernel(target.module, target.kernel, budget=budget).findings
    except (ImportError, SimuError) as exc:
        report.notes.append(f"{target.kernel.display_name}: the launch search failed ({exc}); "
                            "validating the default launch")
        findings = []
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        if f.launch is not None:
            groups.setdefault(record_key(f.launch), []).append(f)
    if not groups:
        for launch in default_launches(target.kernel):
            fs = [record_with_specs(f, launch) for f in detect_findings(target, launch)]
            report.results.append(validate_launch(target, launch, fs, devs, runs, schedules, seed=seed,
                                                  tolerance=tolerance))
        return report
    for fs in groups.values():
        rl = launch_from_record(fs[0].launch, target.kernel)
        report.results.append(validate_launch(target, rl.launch, fs, devs, runs, schedules, seed=seed,
                                              tolerance=tolerance, notes=rl.notes, exact=rl.exact))
    return report
