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
   in such a kernel gives ``nondeterministic`` (not a simu error, not a data race).  With three
   or more implementations (simu and two devices or more) a majority vote says which one is
   wrong.  ``skipped`` means no device could run the launch (the notes say
   why); ``error`` that simu could not.

Findings of other kinds (performance, redundant barriers, memory errors) get ``not-applicable``:
their outputs say nothing about them; the launch-level comparison is still reported.

:func:`validate_launch` changes no finding: its :class:`~simu.validate.results.LaunchValidation`
holds new ones, each with its verdict in ``detail["validation"]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from simu.detect.finding import Finding
from simu.errors import SimuError
from simu.interp import Limits, run
from simu.launch.model import Launch, Schedule
from simu.launch.record import record_of
from simu.validate import amplify
from simu.validate.compare import (
    DEFAULT_TOLERANCE,
    Difference,
    Outputs,
    Tolerance,
    first_difference,
    group_outcomes,
    majority,
)
from simu.validate.devices import Device, OpenCLDevice
from simu.validate.results import SCHEDULE_KINDS, UB_KINDS, LaunchValidation
from simu.validate.targets import Target, copy_launch

SERIAL_THREAD_LIMIT = 8192  # thread-by-thread simulated schedule only for launches up to this size
SCHEDULE_STEP_BUDGET = 120_000  # skip a simulated schedule whose estimated machine steps exceed this
_ATOMICS = re.compile(r"\b(atomic\w*|atom_\w+|__atomic_\w+)\s*\(")


def uses_atomics(source: str) -> bool:
    """Whether the source calls atomic functions (CUDA atomicAdd..., OpenCL atomic_/atom_...)."""
    return bool(_ATOMICS.search(amplify.mask_comments_and_strings(source)))


# ---------------------------------------------------------------------------------------------
# simu's side


def simulate(target: Target, launch: Launch, schedule: Schedule | None = None,
             seconds: float = 60.0) -> tuple[Outputs | None, str, int]:
    """simu's final buffers for one launch under ``schedule`` and the machine steps it took;
    (None, reason, steps) if it did not complete."""
    limits = Limits(max_seconds=seconds, max_steps=100_000_000 if schedule is not None else 2_000_000)
    try:
        r = run(target.module, target.kernel, copy_launch(launch), limits, schedule=schedule)
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


def _simulated(target: Target, launch: Launch, dev_scheds: list[Schedule], steps: int, step_budget: int,
               seconds: float, notes: list[str] | None) -> list[tuple[str, Outputs]]:
    """simu's outputs under :func:`model_schedules` (those within the step budget), labelled by
    schedule; what was skipped or failed goes to ``notes`` unless it is None."""
    out: list[tuple[str, Outputs]] = []
    for s in model_schedules(target, launch, dev_scheds):
        cost = schedule_cost(launch, s, steps)
        if cost > step_budget:
            if notes is not None:
                notes.append(f"simu schedule {s.describe()} skipped: about {cost} machine steps (budget {step_budget})")
            continue
        buffers, why, _ = simulate(target, launch, s, seconds)
        if buffers is not None:
            out.append((s.describe(), buffers))
        elif notes is not None:
            notes.append(f"simu schedule {s.describe()}: {why}")
    return out


def _model_summary(outputs: list[Outputs], tolerance: Tolerance) -> dict[str, int]:
    ids = group_outcomes(outputs, tolerance)
    return {"schedules": len(outputs), "outcomes": max(ids) + 1, "differing": sum(1 for i in ids if i != ids[0])}


# ---------------------------------------------------------------------------------------------
# The devices' side


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
                out = dev.run(target.source, target.info, copy_launch(launch), sched, target.build_options)
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
        first = next((line.strip() for line in exc.log.splitlines() if "error" in line.lower()),
                     exc.log.strip()[:200])
        first = re.sub(r"^.*?\.cl:(\d+:\d+:)", r"line \1", first)
        if "sub_group" in exc.log:
            return f"{exc.device} cannot build the kernel: no sub-group support ({first})"
        return f"{exc.device} cannot build the kernel: {first}"
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _describe_runs(dr: _DeviceRuns, tolerance: Tolerance) -> tuple[dict[str, Any], list[int]]:
    """How a device's runs differ among themselves (outcomes, differing runs and schedules, the
    first difference), and the outcome id of each run."""
    ids = group_outcomes(dr.outputs, tolerance)
    base = ids[0]
    first_of_label: dict[str, int] = {}
    run_to_run = 0
    for label, i in zip(dr.labels, ids, strict=False):
        if label in first_of_label and i != first_of_label[label]:
            run_to_run += 1
        first_of_label.setdefault(label, i)
    entry: dict[str, Any] = {
        "outcomes": max(ids) + 1,
        "differing_runs": run_to_run,
        "differing_schedules": len({label for label, i in zip(dr.labels, ids, strict=False)
                                    if label != "original" and i != base}),
        "schedules_run": len({label for label in dr.labels if label != "original"}),
    }
    if entry["outcomes"] > 1:
        k = next(j for j, i in enumerate(ids) if i != base)
        d = first_difference(dr.outputs[k], dr.outputs[0], tolerance)
        if d is not None:
            d.device, d.schedule = dr.device.name, dr.labels[k]
            dd = d.to_dict()
            dd["between"] = [f"{dr.labels[0]} run 1", f"{dr.labels[k]} run {dr.indices[k] + 1}"]
            dd["values"] = [dd.pop("simu_value"), dd.pop("device_value")]
            entry["first_difference"] = dd
    return entry, ids


def _matching_schedule(dr: _DeviceRuns, ids: list[int], model: list[tuple[str, Outputs]],
                       tolerance: Tolerance) -> str | None:
    """The label of the first simulated outcome that one of the device's outcomes equals."""
    reps: dict[int, Outputs] = {}
    for out, i in zip(dr.outputs, ids, strict=False):
        reps.setdefault(i, out)
    for out in reps.values():
        for label, mo in model:
            if first_difference(out, mo, tolerance) is None:
                return label
    return None


# ---------------------------------------------------------------------------------------------
# The verdict


def validate_launch(target: Target, launch: Launch, findings: list[Finding], devices: list[Device],
                    runs: int = 3, schedules: int = 4, *, seed: int = 0, tolerance: Tolerance = DEFAULT_TOLERANCE,
                    notes: list[str] | None = None, exact: bool = True, seconds: float = 60.0,
                    step_budget: int = SCHEDULE_STEP_BUDGET) -> LaunchValidation:
    """Replay one launch on ``devices`` and give the verdict; the result holds ``findings``
    judged (new findings, each with ``detail["validation"]``; the given ones are unchanged)."""
    notes = list(notes or [])
    racy = any(f.kind in SCHEDULE_KINDS for f in findings)
    dev_scheds = amplify.device_schedules(launch, schedules, seed)
    details: dict[str, Any] = {"exact_replay": exact, "notes": notes}

    def verdict(name: str, mismatches: list[Difference] | None = None) -> LaunchValidation:
        v = LaunchValidation(target.kernel.display_name, target.path, record_of(launch), name,
                             tuple(d.name for d in devices), runs, len(dev_scheds), details,
                             mismatches=tuple(mismatches or ()))
        return v.with_findings(findings)

    default, why, steps = simulate(target, launch, None, seconds)
    if default is None:
        notes.append(f"simu did not complete the launch: {why}")
        return verdict("error")

    model: list[tuple[str, Outputs]] = [("default", default)]
    if racy:
        model += _simulated(target, launch, dev_scheds, steps, step_budget, seconds, notes)
        details["model"] = _model_summary([o for _, o in model], tolerance)

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
        stats, ids = _describe_runs(dr, tolerance)
        entry.update(stats)
        if racy:
            entry["matches_model"] = _matching_schedule(dr, ids, model, tolerance)

    if len(ran) >= 2:
        impls = {"simu": default}
        for dr in ran:
            impls[dr.device.name] = dr.outputs[0]
        details["vote"] = majority(impls, tolerance)

    if not ran:
        if not devices:
            notes.append("no device to replay on")
        for entry in per_device.values():
            if entry["errors"]:
                notes.append(entry["errors"][0])
        return verdict("skipped")

    if racy:
        return verdict(_race_verdict(ran, per_device, details["model"], notes))

    # Without a schedule-sensitive finding the device must reproduce simu's output.  A kernel
    # with atomics may legitimately depend on their order: then every device output must be the
    # output of one of simu's schedules.
    atomics = uses_atomics(target.source)
    explained: list[Outputs] = [default]
    if atomics and any(first_difference(out, default, tolerance) is not None for dr in ran for out in dr.outputs):
        explained += [out for _, out in _simulated(target, launch, dev_scheds, steps, step_budget, seconds, None)]
        details["model"] = _model_summary(explained, tolerance)
    mismatches, unexplained_variation = _compare_with_simu(ran, per_device, explained, tolerance)
    if mismatches and unexplained_variation and atomics:
        notes.append("the device's outputs change from run to run in a kernel without a data race that uses "
                     "atomics: they depend on the order of the atomic operations "
                     f"(first difference from simu: {mismatches[0]})")
        return verdict("nondeterministic", mismatches)
    if len(explained) > 1 and not mismatches:
        notes.append("the output depends on the order of atomic operations; every device output is the output "
                     "of one of simu's schedules")
    if mismatches:
        wrong = details.get("vote", {}).get("wrong", [])
        if wrong:
            notes.append(f"majority vote: {', '.join(wrong)} disagree(s) with the majority")
        ub = sorted({f.kind for f in findings if f.kind in UB_KINDS})
        if ub:
            notes.append(f"the kernel has {', '.join(ub)} findings: undefined behaviour may explain the difference")
        return verdict("model-mismatch", mismatches)
    return verdict("match")


def _race_verdict(ran: list[_DeviceRuns], per_device: dict[str, Any], model: dict[str, int], notes: list[str]) -> str:
    if any(per_device[dr.device.name].get("outcomes", 1) > 1 for dr in ran):
        return "confirmed-on-hardware"
    if model["outcomes"] > 1 and any(per_device[dr.device.name].get("matches_model") for dr in ran):
        return "confirmed-in-model"
    if model["outcomes"] > 1:
        notes.append("simu's schedules change the output, but no device output equals one of them")
    else:
        notes.append("the race is in the trace, but no device run or simulated schedule changed the outputs")
    return "not-observed"


def _compare_with_simu(ran: list[_DeviceRuns], per_device: dict[str, Any], explained: list[Outputs],
                       tolerance: Tolerance) -> tuple[list[Difference], bool]:
    """Each device's first difference from simu's default output (``explained[0]``) that none of
    simu's other outputs explains, and whether a device with one also varied between runs."""
    default = explained[0]
    mismatches: list[Difference] = []
    unexplained_variation = False
    for dr in ran:
        entry = per_device[dr.device.name]
        bad = 0
        first: Difference | None = None
        for label, r, out in zip(dr.labels, dr.indices, dr.outputs, strict=False):
            d = first_difference(out, default, tolerance)
            if d is not None and any(first_difference(out, o, tolerance) is None for o in explained[1:]):
                entry["matches_model"] = True
                continue
            if d is not None:
                bad += 1
                if first is None:
                    first = d
                    first.device, first.schedule = dr.device.name, f"{label} run {r + 1}"
        entry["mismatching_runs"] = bad
        if first is not None:
            mismatches.append(first)
            entry["first_difference"] = first.to_dict()
            if entry.get("outcomes", 1) > 1:
                unexplained_variation = True
    return mismatches, unexplained_variation
