"""Cross-validation: replay launches on devices, amplify schedules, and give verdicts.

For one launch of one kernel:

1. simu runs the launch as usual (the *default* outcome).  When the launch has a
   schedule-sensitive finding (race, benign race, warp race, barrier divergence), simu also runs
   it under the amplification schedules (:class:`~simu.launch.model.Schedule`: blocks and warps
   serialised in permuted orders, plus one phased and, for OpenCL code without sub-groups, one
   thread-by-thread schedule as a CPU device runs it).
2. Every device runs the launch ``runs`` times unchanged and ``runs`` times under each of
   ``schedules`` work-group/warp permutations (OpenCL: :mod:`simu.validate.amplify`; the CUDA
   replay only repeats).
3. Verdicts.  With a schedule-sensitive finding:

   * ``confirmed-on-hardware``: a device gave different outputs across runs or schedules;
   * ``confirmed-in-model``: simu's schedules give different outputs and the device's output is
     one of them;
   * ``not-observed``: the race is in the trace, but no run here changed the output.

   Without one, every device output must equal simu's default output: ``match``, or
   ``model-mismatch`` with the first differing element (buffer, index, device value, simu
   value).  A kernel with atomics may depend on their order: a device output that equals one
   of simu's schedules' outputs also matches, and a device whose outputs change from run to run
   in such a kernel gives ``nondeterministic`` (not a simu error, not a data race).  With three or more implementations (simu and two devices or more) a majority vote
   says which one is wrong.  ``skipped`` means no device could run the launch (the notes say
   why); ``error`` that simu could not.

Findings of other kinds (performance, redundant barriers, memory errors) get ``not-applicable``:
their outputs say nothing about them; the launch-level comparison is still reported.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simu.detect.finding import Finding
from simu.errors import SimuError
from simu.frontend import CompileOptions
from simu.interp import Limits, run
from simu.launch.model import Launch, Schedule
from simu.launch.record import LaunchRecord, record_of
from simu.validate import amplify
from simu.validate.compare import DEFAULT_TOLERANCE, Difference, Tolerance, first_difference, group_outcomes, majority
from simu.validate.devices import Device, KernelInfo, OpenCLDevice, open_devices
from simu.validate.replay import launch_from_record, param_table, record_with_specs

SCHEDULE_KINDS = frozenset({"race", "benign-race", "warp-race", "barrier-divergence"})
UB_KINDS = frozenset({"out-of-bounds", "null", "invalid-pointer", "uninitialized"})
CONFIRMED = ("confirmed-on-hardware", "confirmed-in-model")
VERDICTS = ("confirmed-on-hardware", "confirmed-in-model", "not-observed", "match", "model-mismatch",
            "nondeterministic", "not-applicable", "skipped", "error")
_ATOMICS = re.compile(r"\b(atomic\w*|atom_\w+|__atomic_\w+)\s*\(")


def uses_atomics(source: str) -> bool:
    """Whether the source calls atomic functions (CUDA atomicAdd..., OpenCL atomic_/atom_...)."""
    from simu.validate.amplify import mask_comments_and_strings

    return bool(_ATOMICS.search(mask_comments_and_strings(source)))
SERIAL_THREAD_LIMIT = 8192  # thread-by-thread simulated schedule only for launches up to this size
SCHEDULE_STEP_BUDGET = 120_000  # skip a simulated schedule whose estimated machine steps exceed this

Outputs = dict[str, np.ndarray]


# ---------------------------------------------------------------------------------------------
# Results


@dataclass
class LaunchValidation:
    """The verdict for one launch of one kernel (and the findings it showed)."""

    kernel: str
    path: str
    launch: LaunchRecord
    verdict: str
    devices: list[str]
    runs: int
    schedules: int
    details: dict[str, Any] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    mismatches: list[Difference] = field(default_factory=list)

    @property
    def confirmed(self) -> bool:
        return self.verdict in CONFIRMED

    def summary(self) -> dict[str, Any]:
        """The ``Finding.detail["validation"]`` form."""
        return {"verdict": self.verdict, "device": ", ".join(self.devices) or None, "runs": self.runs,
                "schedules": self.schedules, "details": self.details}

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return {"kernel": self.kernel, "path": self.path, "launch": asdict(self.launch), **self.summary(),
                "devices": self.devices, "mismatches": [m.to_dict() for m in self.mismatches],
                "findings": [f.to_dict() for f in self.findings]}


@dataclass
class ValidationReport:
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

    @property
    def confirmed(self) -> list[LaunchValidation]:
        return [r for r in self.results if r.confirmed]

    def exit_code(self) -> int:
        """0: everything validated; 1: a model mismatch; 2: nothing could be replayed or simu failed."""
        if self.mismatches:
            return 1
        if not self.results or all(r.verdict in ("skipped", "error") for r in self.results) or \
                any(r.verdict == "error" for r in self.results):
            return 2
        return 0

    def extend(self, other: "ValidationReport") -> None:
        self.results += other.results
        for n in other.notes:
            if n not in self.notes:
                self.notes.append(n)

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "counts": self.counts(), "notes": self.notes,
                "results": [r.to_dict() for r in self.results]}


# ---------------------------------------------------------------------------------------------
# The kernel under test


@dataclass
class Target:
    path: str
    source: str
    language: str
    module: Any
    kernel: Any
    info: KernelInfo
    build_options: str = ""


def build_options_for(path: str | Path, options: CompileOptions = CompileOptions()) -> str:
    """OpenCL build options equivalent to simu's compile options (include dirs, defines)."""
    parts = ["-I", str(Path(path).resolve().parent)]
    for inc in options.include_dirs:
        parts += ["-I", str(Path(inc).resolve())]
    for d in options.defines:
        parts.append(f"-D{d}")
    return " ".join(shlex.quote(p) if " " in p else p for p in parts)


_MODULES: dict[tuple[str, str], Any] = {}


def load_target(path: str | Path, kernel: Any = None, options: CompileOptions = CompileOptions(),
                module: Any = None) -> Target:
    """Compile ``path`` (cached) and pick ``kernel`` (a name, a simu Kernel, or the only/first one)."""
    from simu.api import load_file
    from simu.frontend.compile import language_of

    path = Path(path)
    if module is None:
        key = (str(path.resolve()), options.key())
        module = _MODULES.get(key)
        if module is None:
            module = _MODULES[key] = load_file(path, options)
    if kernel is None or isinstance(kernel, str):
        k = module.kernel(kernel) if kernel else module.kernels[0]
    else:
        k = kernel
    source = path.read_text()
    language = language_of(path)
    info = KernelInfo(k.display_name, k.name, param_table(k),
                      uses_subgroups=language == "opencl" and amplify.uses_subgroups(source))
    opts = build_options_for(path, options) if language != "llvm" else ""
    return Target(str(path), source, language, module, k, info, opts)


# ---------------------------------------------------------------------------------------------
# One launch


def _copy_launch(launch: Launch) -> Launch:
    args = {n: (v.copy() if isinstance(v, np.ndarray) else v) for n, v in launch.args.items()}
    return Launch(launch.grid, launch.block, args, launch.warp_size, launch.dynamic_shared, launch.seed,
                  dict(launch.buffer_specs))


def simulate(target: Target, launch: Launch, schedule: Schedule | None = None,
             seconds: float = 60.0) -> tuple[Outputs | None, str, int]:
    """simu's final buffers for one launch under ``schedule`` and the machine steps it took;
    (None, reason, steps) if it did not complete."""
    limits = Limits(max_seconds=seconds, max_steps=100_000_000 if schedule is not None else 2_000_000)
    try:
        r = run(target.module, target.kernel, _copy_launch(launch), limits, schedule=schedule)
    except SimuError as exc:
        return None, str(exc), 0
    if not r.outcome.completed:
        return None, str(r.outcome), r.steps
    return r.buffers, "", r.steps


def schedule_cost(launch: Launch, schedule: Schedule, default_steps: int) -> int:
    """A rough upper bound of the machine steps of a scheduled run: every serialised unit (warp,
    or thread with ``unit=1``) may execute the whole program on its own."""
    unit = schedule.unit or launch.warp_size
    units = -(-launch.threads_per_block // unit) if schedule.warp_order is not None else 1
    return default_steps * units * (launch.num_blocks if schedule.sequential else 1)


def model_schedules(target: Target, launch: Launch, device_schedules: list[Schedule]) -> list[Schedule]:
    """The simulated schedules for a racy launch: the device's permutations (blocks one after
    another), the first one phased (all blocks resident), and thread by thread in id order (a
    CPU device's order) when the code has no warp/sub-group operations."""
    out = list(device_schedules)
    if device_schedules:
        s = device_schedules[0]
        out.append(Schedule(s.block_order, s.warp_order, False, s.seed, s.unit))
    if target.language == "opencl" and not target.info.uses_subgroups and launch.total_threads <= SERIAL_THREAD_LIMIT \
            and launch.threads_per_block > 1:
        out.append(Schedule(None, tuple(range(launch.threads_per_block)), True, None, 1))
    return out


@dataclass
class _DeviceRuns:
    device: Device
    labels: list[str] = field(default_factory=list)
    indices: list[int] = field(default_factory=list)
    outputs: list[Outputs] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _run_device(dev: Device, target: Target, launch: Launch, runs: int, scheds: list[Schedule]) -> _DeviceRuns:
    res = _DeviceRuns(dev)
    plan: list[tuple[str, Schedule | None]] = [("original", None)]
    if dev.supports_schedules:
        plan += [(f"schedule {i + 1}: {s.describe()}", s) for i, s in enumerate(scheds)]
    for label, sched in plan:
        for r in range(max(runs, 1)):
            try:
                out = dev.run(target.source, target.info, _copy_launch(launch), sched, target.build_options)
            except SimuError as exc:
                res.errors.append(f"{label}: {_short_error(exc)}")
                break
            res.labels.append(label)
            res.indices.append(r)
            res.outputs.append(out)
        if res.errors and not res.outputs:
            break  # the original does not run: no point in the schedules
    return res


def _short_error(exc: Exception) -> str:
    """One line for a device failure (a build log is summarised by its first error)."""
    from simu.validate.opencl_runner import OpenCLBuildError

    if isinstance(exc, OpenCLBuildError):
        first = next((l.strip() for l in exc.log.splitlines() if "error" in l.lower()), exc.log.strip()[:200])
        first = re.sub(r"^.*?\.cl:(\d+:\d+:)", r"line \1", first)
        if "sub_group" in exc.log:
            return f"{exc.device} cannot build the kernel: no sub-group support ({first})"
        return f"{exc.device} cannot build the kernel: {first}"
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def validate_launch(target: Target, launch: Launch, findings: list[Finding], devices: list[Device],
                    runs: int = 3, schedules: int = 4, *, seed: int = 0, tolerance: Tolerance = DEFAULT_TOLERANCE,
                    notes: list[str] | None = None, exact: bool = True, seconds: float = 60.0,
                    step_budget: int = SCHEDULE_STEP_BUDGET) -> LaunchValidation:
    """Replay one launch on ``devices`` and give the verdict (and set it on each finding)."""
    notes = list(notes or [])
    record = record_of(launch)
    racy = [f for f in findings if f.kind in SCHEDULE_KINDS]
    ub = sorted({f.kind for f in findings if f.kind in UB_KINDS})
    dev_scheds = amplify.device_schedules(launch, schedules, seed)
    result = LaunchValidation(target.kernel.display_name, target.path, record, "error", [d.name for d in devices],
                              runs, len(dev_scheds), findings=list(findings))
    details: dict[str, Any] = {"exact_replay": exact, "notes": notes}
    result.details = details

    default, why, steps = simulate(target, launch, None, seconds)
    if default is None:
        notes.append(f"simu did not complete the launch: {why}")
        return _finish(result, "error")

    model: list[tuple[str, Outputs]] = [("default", default)]
    if racy:
        for i, s in enumerate(model_schedules(target, launch, dev_scheds)):
            cost = schedule_cost(launch, s, steps)
            if cost > step_budget:
                notes.append(f"simu schedule {s.describe()} skipped: about {cost} machine steps (budget {step_budget})")
                continue
            out, why, _ = simulate(target, launch, s, seconds)
            if out is None:
                notes.append(f"simu schedule {s.describe()}: {why}")
            else:
                model.append((s.describe(), out))
        ids = group_outcomes([o for _, o in model], tolerance)
        details["model"] = {"schedules": len(model), "outcomes": max(ids) + 1,
                            "differing": sum(1 for i in ids if i != ids[0])}

    per_device: dict[str, Any] = {}
    details["devices"] = per_device
    ran: list[_DeviceRuns] = []
    for dev in devices:
        dr = _run_device(dev, target, launch, runs, dev_scheds)
        entry: dict[str, Any] = {"runs": len(dr.outputs), "errors": dr.errors}
        if isinstance(dev, OpenCLDevice) and dev.supports_schedules and dev_scheds:
            entry["strategy"] = dev.strategy(target.source, target.build_options)
        per_device[dev.name] = entry
        if not dr.outputs:
            continue
        ran.append(dr)
        ids = group_outcomes(dr.outputs, tolerance)
        entry["outcomes"] = max(ids) + 1
        base = ids[0]
        first_of_label: dict[str, int] = {}
        run_to_run = 0
        for label, i in zip(dr.labels, ids, strict=False):
            if label in first_of_label and i != first_of_label[label]:
                run_to_run += 1
            first_of_label.setdefault(label, i)
        entry["differing_runs"] = run_to_run
        entry["differing_schedules"] = len({label for label, i in zip(dr.labels, ids, strict=False)
                                            if label != "original" and i != base})
        entry["schedules_run"] = len({label for label in dr.labels if label != "original"})
        if entry["outcomes"] > 1:
            k = next(j for j, i in enumerate(ids) if i != base)
            d = first_difference(dr.outputs[k], dr.outputs[0], tolerance)
            if d is not None:
                d.device, d.schedule = dev.name, dr.labels[k]
                dd = d.to_dict()
                dd["between"] = [f"{dr.labels[0]} run 1", f"{dr.labels[k]} run {dr.indices[k] + 1}"]
                dd["values"] = [dd.pop("simu_value"), dd.pop("device_value")]
                entry["first_difference"] = dd
        if racy:
            reps = {}
            for out, i in zip(dr.outputs, ids, strict=False):
                reps.setdefault(i, out)
            matched = None
            for out in reps.values():
                for label, mo in model:
                    if first_difference(out, mo, tolerance) is None:
                        matched = label
                        break
                if matched:
                    break
            entry["matches_model"] = matched

    if len(ran) >= 2:
        impls = {"simu": default}
        for dr in ran:
            impls[dr.device.name] = dr.outputs[0]
        details["vote"] = majority(impls, tolerance)

    if not ran:
        if not devices:
            notes.append("no device to replay on")
        for name, entry in per_device.items():
            if entry["errors"]:
                notes.append(entry["errors"][0])
        return _finish(result, "skipped", findings)

    if racy:
        if any(per_device[dr.device.name].get("outcomes", 1) > 1 for dr in ran):
            verdict = "confirmed-on-hardware"
        elif details["model"]["outcomes"] > 1 and any(per_device[dr.device.name].get("matches_model") for dr in ran):
            verdict = "confirmed-in-model"
        else:
            verdict = "not-observed"
            if details["model"]["outcomes"] > 1:
                notes.append("simu's schedules change the output, but no device output equals one of them")
            else:
                notes.append("the race is in the trace, but no device run or simulated schedule changed the outputs")
        return _finish(result, verdict, findings)

    # Without a schedule-sensitive finding the device must reproduce simu's output.  A kernel
    # with atomics may legitimately depend on their order: then every device output must be the
    # output of one of simu's schedules.
    explained: list[Outputs] = [default]
    if uses_atomics(target.source) and any(first_difference(out, default, tolerance) is not None
                                           for dr in ran for out in dr.outputs):
        for s in model_schedules(target, launch, dev_scheds):
            if schedule_cost(launch, s, steps) <= step_budget:
                out, _, _ = simulate(target, launch, s, seconds)
                if out is not None:
                    explained.append(out)
        ids = group_outcomes(explained, tolerance)
        details["model"] = {"schedules": len(explained), "outcomes": max(ids) + 1,
                            "differing": sum(1 for i in ids if i != ids[0])}
    unexplained_variation = False
    for dr in ran:
        bad = 0
        first: Difference | None = None
        for label, r, out in zip(dr.labels, dr.indices, dr.outputs, strict=False):
            d = first_difference(out, default, tolerance)
            if d is not None and any(first_difference(out, o, tolerance) is None for o in explained[1:]):
                per_device[dr.device.name]["matches_model"] = True
                continue
            if d is not None:
                bad += 1
                if first is None:
                    first = d
                    first.device, first.schedule = dr.device.name, f"{label} run {r + 1}"
        per_device[dr.device.name]["mismatching_runs"] = bad
        if first is not None:
            result.mismatches.append(first)
            per_device[dr.device.name]["first_difference"] = first.to_dict()
            if per_device[dr.device.name].get("outcomes", 1) > 1:
                unexplained_variation = True
    if result.mismatches and unexplained_variation and uses_atomics(target.source):
        notes.append("the device's outputs change from run to run in a kernel without a data race that uses "
                     "atomics: they depend on the order of the atomic operations "
                     f"(first difference from simu: {result.mismatches[0]})")
        return _finish(result, "nondeterministic", findings)
    if len(explained) > 1 and not result.mismatches:
        notes.append("the output depends on the order of atomic operations; every device output is the output "
                     "of one of simu's schedules")
    if result.mismatches:
        wrong = details.get("vote", {}).get("wrong", [])
        if wrong:
            notes.append(f"majority vote: {', '.join(wrong)} disagree(s) with the majority")
        if ub:
            notes.append(f"the kernel has {', '.join(ub)} findings: undefined behaviour may explain the difference")
        return _finish(result, "model-mismatch", findings)
    return _finish(result, "match", findings)


def _finish(result: LaunchValidation, verdict: str, findings: list[Finding] | None = None) -> LaunchValidation:
    """Set the launch verdict and each finding's ``detail["validation"]`` (findings whose kind
    outputs cannot confirm get "not-applicable", with the launch's verdict beside it)."""
    result.verdict = verdict
    for f in findings or result.findings:
        summary = result.summary()
        if f.kind not in SCHEDULE_KINDS and verdict not in ("skipped", "error"):
            summary = {**summary, "verdict": "not-applicable", "launch_verdict": verdict}
        f.detail["validation"] = _jsonable(summary)
    return result


def _jsonable(x: Any) -> Any:
    return json.loads(json.dumps(x, default=lambda o: o.item() if isinstance(o, np.generic) else str(o)))


# ---------------------------------------------------------------------------------------------
# Library entry points


def _devices(devices: list[str] | list[Device] | None, language: str) -> tuple[list[Device], list[str]]:
    if devices and all(isinstance(d, Device) for d in devices):
        return [d for d in devices if d.language == language], []  # type: ignore[misc]
    return open_devices(devices, language)  # type: ignore[arg-type]


_DEVICE_CACHE: dict[tuple, tuple[list[Device], list[str]]] = {}


def _cached_devices(devices, language: str):
    if devices and all(isinstance(d, Device) for d in devices):
        return _devices(devices, language)
    key = (tuple(devices) if devices else None, language)
    if key not in _DEVICE_CACHE:
        _DEVICE_CACHE[key] = open_devices(list(devices) if devices else None, language)
    return _DEVICE_CACHE[key]


def validate_kernel(path: str | Path, kernel: Any = None, launch: Launch | LaunchRecord | None = None,
                    devices: list[str] | None = None, runs: int = 3, schedules: int = 4, *, seed: int = 0,
                    options: CompileOptions = CompileOptions(), findings: list[Finding] | None = None,
                    tolerance: Tolerance = DEFAULT_TOLERANCE, warp_model: str = "lockstep") -> ValidationReport:
    """Run the detectors on one launch of one kernel (or take ``findings``) and validate it.

    ``launch`` may be a :class:`Launch`, a :class:`LaunchRecord`, or ``None`` (the file's
    ``// launch:`` lines, else simu's default launch).
    """
    target = load_target(path, kernel, options)
    devs, notes = _cached_devices(devices, target.language)
    report = ValidationReport(str(path), notes=list(notes))
    launches: list[tuple[Launch, bool, list[str]]] = []
    if launch is None:
        launches = [(l, True, []) for l in _file_launches(target)]
    elif isinstance(launch, LaunchRecord):
        rl = launch_from_record(launch, target.kernel)
        launches = [(rl.launch, rl.exact, rl.notes)]
    else:
        launches = [(launch, True, [])]
    for l, exact, lnotes in launches:
        fs = findings if findings is not None else _detect(target, l, warp_model)
        fs = [record_with_specs(f, l) for f in fs]
        report.results.append(validate_launch(target, l, fs, devs, runs, schedules, seed=seed, tolerance=tolerance,
                                              notes=lnotes, exact=exact))
    return report


def _detect(target: Target, launch: Launch, warp_model: str = "lockstep") -> list[Finding]:
    from simu.detect import DetectOptions
    from simu.pipeline import CheckSettings, check_launches

    rep = check_launches(target.module, target.kernel, [_copy_launch(launch)],
                         CheckSettings(detect=DetectOptions(warp_model=warp_model)))
    return list(rep.findings)


def _file_launches(target: Target) -> list[Launch]:
    from simu.bench.corpus import parse
    from simu.check import default_launches
    from simu.launch.spec import build_launch

    cf = parse(Path(target.path))
    if cf.launches and (cf.kernel is None or cf.kernel == target.kernel.display_name):
        return [build_launch(target.kernel, L.grid, L.block, L.args, L.buffers, L.seed, L.warp, L.shared)
                for L in cf.launches]
    return default_launches(target.kernel)


def validate_finding(finding: Finding | dict[str, Any], source_path: str | Path | None = None,
                     devices: list[str] | None = None, runs: int = 3, schedules: int = 4, *, seed: int = 0,
                     options: CompileOptions = CompileOptions(),
                     tolerance: Tolerance = DEFAULT_TOLERANCE) -> LaunchValidation:
    """Replay the launch of one finding and set ``finding.detail["validation"]``."""
    f = Finding.from_dict(finding) if isinstance(finding, dict) else finding
    path = source_path or (f.first.file if f.first else None)
    if path is None:
        raise SimuError("the finding has no source location: give the kernel source path")
    if f.launch is None:
        raise SimuError("the finding has no launch record: nothing to replay")
    target = load_target(path, f.kernel, options)
    devs, notes = _cached_devices(devices, target.language)
    rl = launch_from_record(f.launch, target.kernel)
    return validate_launch(target, rl.launch, [f], devs, runs, schedules, seed=seed, tolerance=tolerance,
                           notes=notes + rl.notes, exact=rl.exact)


def load_findings(path: str | Path) -> list[tuple[Finding, str | None]]:
    """Findings from ``simu check --format json``, ``simu scan --format json``, a list of findings or
    one finding, each with the source file it belongs to (when the JSON says)."""
    data = json.loads(Path(path).read_text())
    out: list[tuple[Finding, str | None]] = []
    root = Path(data["root"]) if isinstance(data, dict) and isinstance(data.get("root"), str) else None

    def walk(node: Any, file: str | None) -> None:
        if isinstance(node, dict):
            if {"kind", "severity", "kernel", "message"} <= node.keys():
                out.append((Finding.from_dict(node), file))
                return
            here = file
            if isinstance(node.get("file"), str):
                here = node["file"]
            elif isinstance(node.get("path"), str) and "kernels" in node:
                here = str(root / node["path"]) if root else node["path"]
            for key, value in node.items():
                if key == "suppressed":
                    continue
                walk(value, here)
        elif isinstance(node, list):
            for x in node:
                walk(x, file)

    walk(data, None)
    return out


def validate_file(path: str | Path, devices: list[str] | None = None, runs: int = 3, schedules: int = 4, *,
                  seed: int = 0, options: CompileOptions = CompileOptions(), analyse: bool | None = None,
                  tolerance: Tolerance = DEFAULT_TOLERANCE, budget: Any = None) -> ValidationReport:
    """Validate every kernel of a source file, or every finding of a findings JSON file.

    A source file with ``// launch:`` lines is checked on those launches; otherwise (or with
    ``analyse=True``) :func:`simu.check.analyse_kernel` searches launches and each distinct
    finding launch is replayed; a kernel without findings is replayed on simu's default launch
    to look for model mismatches.
    """
    path = Path(path)
    if path.suffix == ".json":
        return _validate_findings_file(path, devices, runs, schedules, seed, options, tolerance)
    from simu.api import load_file
    from simu.bench.corpus import parse

    report = ValidationReport(str(path))
    key = (str(path.resolve()), options.key())
    module = _MODULES.get(key)
    if module is None:
        module = _MODULES[key] = load_file(path, options)
    cf = parse(path)
    kernels = [module.kernel(cf.kernel)] if cf.kernel else module.kernels
    for k in kernels:
        if cf.launches and not analyse:
            report.extend(validate_kernel(path, k, None, devices, runs, schedules, seed=seed, options=options,
                                          tolerance=tolerance))
            continue
        report.extend(_validate_analysed(path, module, k, devices, runs, schedules, seed, options, tolerance, budget))
    return report


def _validate_analysed(path, module, k, devices, runs, schedules, seed, options, tolerance, budget) -> ValidationReport:
    from simu.check import analyse_kernel, default_launches

    target = load_target(path, k, options, module)
    devs, notes = _cached_devices(devices, target.language)
    report = ValidationReport(str(path), notes=list(notes))
    try:
        kr = analyse_kernel(module, k, budget=budget)
        findings = kr.findings
    except (ImportError, SimuError) as exc:
        report.notes.append(f"{k.display_name}: the launch search failed ({exc}); validating the default launch")
        findings = []
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        if f.launch is None:
            continue
        groups.setdefault(_record_key(f.launch), []).append(f)
    if not groups:
        for l in default_launches(k):
            fs = _detect(target, l)
            fs = [record_with_specs(f, l) for f in fs]
            report.results.append(validate_launch(target, l, fs, devs, runs, schedules, seed=seed, tolerance=tolerance))
        return report
    for fs in groups.values():
        rl = launch_from_record(fs[0].launch, k)
        report.results.append(validate_launch(target, rl.launch, fs, devs, runs, schedules, seed=seed,
                                              tolerance=tolerance, notes=rl.notes, exact=rl.exact))
    return report


def _record_key(record: LaunchRecord) -> str:
    from dataclasses import asdict

    return json.dumps(asdict(record), sort_keys=True, default=str)


def _validate_findings_file(path: Path, devices, runs, schedules, seed, options, tolerance) -> ValidationReport:
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
        groups.setdefault((src, f.kernel, _record_key(f.launch)), []).append(f)
    for (src, kernel, _), fs in groups.items():
        try:
            target = load_target(src, kernel, options)
        except (SimuError, KeyError, OSError) as exc:
            report.notes.append(f"{src}: {kernel}: cannot load ({exc})")
            continue
        devs, notes = _cached_devices(devices, target.language)
        for n in notes:
            if n not in report.notes:
                report.notes.append(n)
        rl = launch_from_record(fs[0].launch, target.kernel)
        report.results.append(validate_launch(target, rl.launch, fs, devs, runs, schedules, seed=seed,
                                              tolerance=tolerance, notes=rl.notes, exact=rl.exact))
    return report
