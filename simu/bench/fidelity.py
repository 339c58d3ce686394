"""`simu bench --suite fidelity`: does simu compute what a real OpenCL implementation computes?

For every OpenCL file labelled ``// expect: clean`` with ``// launch:`` lines, each launch (its input
buffers drawn once from the launch line's seed) runs on three implementations: simu's machine on the
-O0 build, simu's machine on the -O1 build, and PoCL.  Every buffer is compared bit for bit (any NaN
equals any NaN; within :data:`~simu.validate.differential.TRANSCENDENTAL_ULPS` ulp for kernels that call
transcendental functions, whose accuracy OpenCL leaves open).  With three implementations the majority
names the wrong one (:func:`simu.validate.compare.majority`); when all three differ nobody can tell.

Two simu builds share one interpreter, so the vote cannot tell a wrong interpreter from a kernel whose result
depends on the schedule (a mislabelled file, e.g. ``atomic_xor`` and ``atomic_add`` on one word): simu -O0 also
runs each launch under two other legal schedules (blocks and warps one at a time in reverse order; every work-item
alone in order, as PoCL runs them, when there are no sub-group operations), and a launch whose simu runs differ
is judged *nondeterministic*, not a mismatch.

The source every side sees carries ``#pragma OPENCL FP_CONTRACT OFF`` and PoCL builds with
correctly-rounded division and square root, as in the differential tests
(:mod:`simu.validate.differential`).  A race-free, atomics-order-independent kernel has one answer,
so any disagreement is a bug in one implementation (or a mislabelled file).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

IMPLEMENTATIONS = ("simu-O0", "simu-O1", "pocl")


@dataclass
class Fidelity:
    """One file: ``agree``, ``mismatch``, ``nondeterministic`` (its result depends on the schedule),
    ``skipped`` (PoCL cannot build or run it, no launch line) or ``error`` (simu could not run it: a bug of
    simu's or of the file)."""

    path: str
    status: str = "agree"
    reason: str = ""
    launches: int = 0
    ulps: int = 0
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    nondeterministic: list[dict[str, Any]] = field(default_factory=list)  # launch, buffer, index, the two values


def clean_opencl_files(files: list[Path]) -> list[Path]:
    """The ``.cl`` files labelled clean (and nothing else) among ``files``."""
    from simu.bench.corpus import parse

    out = []
    for f in files:
        if f.suffix != ".cl":
            continue
        try:
            cf = parse(f)
        except (ValueError, OSError, UnicodeDecodeError):
            continue
        if cf.clean and not cf.expectations:
            out.append(f)
    return out


def _simu_outputs(source: str, kernel: str, launch, path: Path, opt_level: int) -> dict:
    from simu.api import run_opencl_source
    from simu.validate.differential import copy_launch

    result = run_opencl_source(source, kernel, copy_launch(launch), path=str(path), opt_level=opt_level)
    if not result.outcome.completed:
        raise _SimuFailed(f"simu-O{opt_level} did not complete the launch: {result.outcome}")
    return result.buffers


def _schedules(source: str, launch) -> list:
    """Legal schedules other than the default: blocks and warps one at a time in reverse order, and (without
    sub-group operations) every work-item alone in order, as a CPU OpenCL device runs them."""
    from simu.launch.model import Schedule
    from simu.validate.amplify import uses_subgroups

    blocks = int(np.prod(launch.grid))
    warps = -(-int(launch.threads_per_block) // int(launch.warp_size or 32))
    out = [Schedule(block_order=tuple(range(blocks - 1, -1, -1)), warp_order=tuple(range(warps - 1, -1, -1)))]
    if not uses_subgroups(source):
        out.append(Schedule(warp_order=tuple(range(int(launch.threads_per_block))), unit=1))
    return out


def _scheduled_outputs(source: str, kernel: str, launch, path: Path, schedule) -> dict:
    """simu -O0's buffers under ``schedule``."""
    from simu.api import opencl_module
    from simu.interp import Limits, run
    from simu.validate.differential import copy_launch

    module = opencl_module(source, str(path), 0)
    result = run(module, module.kernel(kernel), copy_launch(launch), Limits(max_seconds=120, max_steps=100_000_000),
                 schedule=schedule)
    if not result.outcome.completed:
        raise _SimuFailed(f"simu-O0 under another schedule did not complete the launch: {result.outcome}")
    return result.buffers


class _SimuFailed(Exception):
    pass


class _Skip(Exception):
    pass


def _pocl_outputs(source: str, kernel: str, launch) -> dict:
    from simu.errors import SimuError
    from simu.validate.differential import BUILD_OPTIONS, copy_launch
    from simu.validate.opencl_runner import OpenCLUnavailableError, run_on_opencl

    try:
        return run_on_opencl(source, kernel, copy_launch(launch), build_options=BUILD_OPTIONS)
    except OpenCLUnavailableError as exc:
        raise _Skip(f"no OpenCL device: {_first_line(exc)}") from None
    except SimuError as exc:  # build, argument or runtime error of PoCL's
        raise _Skip(f"PoCL: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return (text.splitlines() or [type(exc).__name__])[0][:300]


def _judge_launch(index: int, runs: dict[str, dict], ulps: int) -> dict[str, Any] | None:
    """None when the three agree, else what the vote says: the wrong implementations, and per wrong one
    the buffer, the first differing index and the majority's and its values."""
    from simu.validate.compare import Tolerance, first_difference, majority

    names = sorted(runs["pocl"])
    for impl in IMPLEMENTATIONS[:2]:
        missing = [n for n in names if n not in runs[impl]]
        if missing:
            raise _SimuFailed(f"{impl} returned no buffer {', '.join(missing)}")
    tol = Tolerance.bits(ulps)
    outputs = {impl: {n: runs[impl][n] for n in names} for impl in IMPLEMENTATIONS}
    vote = majority(outputs, tol)
    if len(vote["groups"]) <= 1:
        return None
    if vote["majority"]:
        ref = "pocl" if "pocl" in vote["majority"] else vote["majority"][0]
        wrong = vote["wrong"]
    else:
        ref, wrong = "pocl", [i for i in IMPLEMENTATIONS if i != "pocl"]
    diffs = []
    for impl in wrong:
        d = first_difference(outputs[ref], outputs[impl], tol)
        if d is not None:
            diffs.append({"implementation": impl, "buffer": d.buffer,
                          "index": list(d.index) if isinstance(d.index, tuple) else d.index,
                          "expected": d.device_value, "got": d.simu_value, "elements": d.count, "against": ref})
    return {"launch": index, "wrong": vote["wrong"] if vote["majority"] else ["undecided"],
            "groups": vote["groups"], "differences": diffs}


def _schedule_difference(index: int, runs: dict[str, dict], other: dict, ulps: int) -> dict[str, Any] | None:
    """Where simu -O0's default and another schedule disagree (None: nowhere)."""
    from simu.validate.compare import Tolerance, first_difference

    names = sorted(runs["pocl"])
    d = first_difference({n: runs["simu-O0"][n] for n in names},
                         {n: other[n] for n in names if n in other}, Tolerance.bits(ulps))
    if d is None:
        return None
    return {"launch": index, "buffer": d.buffer, "index": list(d.index) if isinstance(d.index, tuple) else d.index,
            "default": d.device_value, "other": d.simu_value, "elements": d.count}


def check_file(path: Path) -> Fidelity:
    """Run every launch of one clean OpenCL file on the three implementations and compare; never raises."""
    from simu.bench.corpus import parse
    from simu.errors import CompileError
    from simu.validate.differential import float_ulps, with_fp_pragma

    out = Fidelity(str(path))
    cf = None
    try:
        cf = parse(path)
        if not cf.launches:
            raise _Skip("no `// launch:` line")
        source = with_fp_pragma(path.read_text())
        out.ulps = float_ulps(source)
        for kernel, launch in _launches(cf, source, path):
            runs = {"pocl": _pocl_outputs(source, kernel, launch),
                    "simu-O0": _simu_outputs(source, kernel, launch, path, 0),
                    "simu-O1": _simu_outputs(source, kernel, launch, path, 1)}
            wobble = next((w for sch in _schedules(source, launch) for w in [_schedule_difference(
                out.launches, runs, _scheduled_outputs(source, kernel, launch, path, sch), out.ulps)] if w), None)
            verdict = _judge_launch(out.launches, runs, out.ulps)
            out.launches += 1
            if wobble is not None:
                out.nondeterministic.append(wobble)
            elif verdict is not None:
                out.mismatches.append(verdict)
    except _Skip as exc:
        out.status, out.reason = "skipped", str(exc)
        return out
    except CompileError as exc:  # simu's clang refuses it: an invalid file when PoCL refuses it too
        out.status, out.reason = "error", f"simu: {_first_line(exc)}"
        if _pocl_refuses(path, cf):
            out.status, out.reason = "skipped", f"neither simu nor PoCL builds it: {_first_line(exc)}"
        return out
    except Exception as exc:  # noqa: BLE001 - simu failing on a file is a result of the bench
        out.status, out.reason = "error", f"{type(exc).__name__}: {_first_line(exc)}"
        return out
    if out.nondeterministic and not out.mismatches:
        out.status = "nondeterministic"
        out.reason = "; ".join(f"launch {w['launch']}: {w['buffer']}[{w['index']}] is {w['default']!r} or "
                               f"{w['other']!r} by the schedule" for w in out.nondeterministic)
    if out.mismatches:
        out.status = "mismatch"
        out.reason = "; ".join(f"launch {m['launch']}: {', '.join(m['wrong'])} wrong" for m in out.mismatches)
    return out


def _pocl_refuses(path: Path, cf) -> bool:
    """Whether PoCL cannot build the file's kernel either (False when PoCL is not there to ask)."""
    import re

    from simu.validate.differential import BUILD_OPTIONS, with_fp_pragma
    from simu.validate.opencl_runner import OpenCLBuildError, kernel_params

    names = [cf.kernel] if cf is not None and cf.kernel else re.findall(r"__kernel\s+void\s+(\w+)", path.read_text())
    try:
        kernel_params(with_fp_pragma(path.read_text()), names[0] if names else "", build_options=BUILD_OPTIONS)
    except OpenCLBuildError:
        return True
    except Exception:  # noqa: BLE001 - anything else (no device, no such kernel): PoCL cannot say
        return False
    return False


def _launches(cf, source: str, path: Path):
    """(kernel name, launch) for every kernel of the file (or its ``// kernel:``) and every launch line; the
    launch is built once, from the -O0 build, and each implementation gets a private copy."""
    from simu.api import opencl_module
    from simu.launch.spec import build_launch

    module = opencl_module(source, str(path), 0)
    kernels = [module.kernel(cf.kernel)] if cf.kernel else module.kernels
    for k in kernels:
        for L in cf.launches:
            yield k.name, build_launch(k, L.grid, L.block, L.args, L.buffers, L.seed, L.warp, L.shared)


def _task(path: str) -> Fidelity:
    return check_file(Path(path))


def run_fidelity(files: list[Path], jobs: int = 1) -> list[Fidelity]:
    """Check the clean OpenCL files among ``files`` (in ``jobs`` spawned processes: PoCL's threads do not
    survive a fork), in the files' order."""
    chosen = [str(f) for f in clean_opencl_files(files)]
    if jobs > 1 and len(chosen) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(min(jobs, len(chosen)), mp_context=multiprocessing.get_context("spawn")) as pool:
            return list(pool.map(_task, chosen, chunksize=1))
    return [_task(p) for p in chosen]


def summarise(results: list[Fidelity]) -> dict[str, Any]:
    """Counts: files, agreeing, mismatching (by the implementation the majority says is wrong), skipped
    (with their reasons), errors."""
    by_wrong: dict[str, int] = {}
    for r in results:
        for impl in sorted({w for m in r.mismatches for w in m["wrong"]}):
            by_wrong[impl] = by_wrong.get(impl, 0) + 1
    count = {s: sum(r.status == s for r in results)
             for s in ("agree", "mismatch", "nondeterministic", "skipped", "error")}
    return {"files": len(results), **count, "mismatch_by_wrong": by_wrong,
            "launches": sum(r.launches for r in results)}


def report_dict(results: list[Fidelity]) -> dict[str, Any]:
    """The JSON document of ``simu bench --suite fidelity``."""
    from simu import __version__

    return {"version": __version__, "suite": "fidelity", "implementations": list(IMPLEMENTATIONS),
            "summary": summarise(results), "results": [asdict(r) for r in results]}
