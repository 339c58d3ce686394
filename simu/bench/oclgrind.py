"""`simu bench --suite oclgrind`: what one launch costs a user, simu beside Oclgrind, as whole processes.

Each of the six bench kernels (:data:`simu.bench.KERNELS`) is run at 4,096 and 65,536 work-items: simu as
``simu check FILE --kernel K --grid … --block … --arg … --buffer …`` (a complete launch: no search), Oclgrind as
``oclgrind-kernel --data-races FILE.sim`` when it is on the PATH.  Both get the same NDRange and the same
deterministic contents (ramps and zeros, which both tools can fill), runs alternate, and the median wall time of
each is kept with simu's status (a launch simu could not finish is no speed).  Without Oclgrind the simu column
alone is measured; ``benchmarks/oclgrind_local.sh DIR`` puts one in ``DIR/bin`` without root.

simu is timed twice: as a new process (Python, numpy, llvmlite and simu imported by each command) and answered by a
resident checker (``simu serve``, started for the bench in a folder of its own, its start-up not timed: a user pays
it once), which is what a script or hook checking launch after launch pays.  Both must reach the same verdict.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from simu.bench import KERNELS

SIZES = (4096, 65536)
ORACLE = "oclgrind-kernel"


@dataclass(frozen=True)
class Arg:
    """One kernel argument: a buffer (``ctype``, ``length``, ``fill`` ramp/zeros) or a scalar (``value``)."""

    name: str
    ctype: str  # "float", "int" or "uint"
    length: int = 0  # elements; 0: a scalar
    fill: str = "zeros"
    value: int = 0


@dataclass(frozen=True)
class Case:
    kernel: str
    grid: tuple[int, ...]  # work-groups
    block: tuple[int, ...]
    args: tuple[Arg, ...]

    @property
    def work_items(self) -> int:
        n = 1
        for g, b in zip(self.grid, self.block, strict=True):
            n *= g * b
        return n


@dataclass
class Timing:
    case: Case
    simu_seconds: float
    simu_status: str
    simu_findings: int
    oracle_seconds: float | None = None
    resident_seconds: float | None = None  # answered by `simu serve`; None: not measured

    @property
    def ratio(self) -> float | None:
        return self.simu_seconds / self.oracle_seconds if self.oracle_seconds else None

    @property
    def resident_ratio(self) -> float | None:
        return self.resident_seconds / self.oracle_seconds if self.oracle_seconds and self.resident_seconds else None


def cases(work_items: int) -> list[Case]:
    """The six kernels at ``work_items`` (a multiple of 4,096), with ramp inputs (valid CSR rows for spmv)."""
    n, groups = work_items, work_items // 256
    side = int(round(work_items ** 0.5))  # matmul: one work-item per element of a side x side matrix
    return [
        Case("reduction", (groups,), (256,), (Arg("in", "float", n, "ramp"), Arg("out", "float", groups),
                                             Arg("n", "int", value=n))),
        Case("scan", (groups,), (256,), (Arg("in", "int", n, "ramp"), Arg("out", "int", n), Arg("n", "int", value=n))),
        Case("matmul", (side // 16, side // 16), (16, 16), (Arg("A", "float", side * side, "ramp"),
                                                           Arg("B", "float", side * side, "ramp"),
                                                           Arg("C", "float", side * side),
                                                           Arg("n", "int", value=side))),
        Case("histogram", (groups,), (256,), (Arg("data", "uint", 4 * n, "ramp"), Arg("bins", "uint", 64),
                                             Arg("n", "int", value=4 * n))),
        Case("stencil", (groups,), (256,), (Arg("in", "float", n, "ramp"), Arg("out", "float", n),
                                           Arg("n", "int", value=n))),
        # rowptr 0, 1, 2, ...: one non-zero a row, whose column is the ramp's
        Case("spmv", (groups,), (256,), (Arg("rowptr", "int", n + 1, "ramp"), Arg("cols", "int", n, "ramp"),
                                        Arg("vals", "float", n, "ramp"), Arg("x", "float", n, "ramp"),
                                        Arg("y", "float", n), Arg("rows", "int", value=n))),
    ]


_DTYPES = {"float": "float32", "int": "int32", "uint": "uint32"}


def simu_command(case: Case, kernels: Path = KERNELS) -> list[str]:
    """The ``simu check`` command line of one case (run by this Python)."""
    cmd = [sys.executable, "-m", "simu", "check", str(kernels), "--kernel", case.kernel, "--format", "json",
           "--grid", ",".join(map(str, case.grid)), "--block", ",".join(map(str, case.block))]
    for a in case.args:
        if a.length:
            cmd += ["--buffer", f"{a.name}={_DTYPES[a.ctype]}:{a.length}:{a.fill}"]
        else:
            cmd += ["--arg", f"{a.name}={a.value}"]
    return cmd


def sim_file(case: Case, kernels: Path = KERNELS) -> str:
    """Oclgrind's ``.sim`` description of one case: the kernel file, its name, the global and local sizes, then
    one block per argument (a buffer's size in bytes with its fill, a scalar's size and value)."""
    dims = len(case.block)
    global_size = [g * b for g, b in zip(case.grid, case.block, strict=True)] + [1] * (3 - dims)
    local_size = list(case.block) + [1] * (3 - dims)
    lines = [str(kernels), case.kernel, " ".join(map(str, global_size)), " ".join(map(str, local_size)), ""]
    for a in case.args:
        if not a.length:
            lines += [f"<size=4 {a.ctype}>", str(a.value), ""]
        elif a.fill == "ramp":
            lines.append(f"<size={4 * a.length} {a.ctype} range=0:1:{a.length - 1}>")
        else:
            lines.append(f"<size={4 * a.length} {a.ctype} fill=0>")
    return "\n".join(lines) + "\n"


def _timed(cmd: list[str], cwd: Path | None = None, env: dict | None = None
           ) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env)
    return time.perf_counter() - t0, proc


def _simu_verdict(proc: subprocess.CompletedProcess) -> tuple[str, int]:
    try:
        report = json.loads(proc.stdout)
        kernel = report["files"][0]["kernels"][0]
        return kernel["status"], len(kernel["findings"])
    except (ValueError, KeyError, IndexError):
        return f"failed (exit {proc.returncode})", 0


def measure(repeat: int = 3, sizes: tuple[int, ...] = SIZES, oracle: str | None = None,
            resident: bool = True) -> list[Timing]:
    """Median whole-process wall seconds of each case: simu as a new process, simu answered by a resident checker
    (``resident``) and Oclgrind (when found), alternating."""
    oracle = oracle if oracle is not None else shutil.which(ORACLE)
    out = []
    with tempfile.TemporaryDirectory(prefix="simu-oclgrind-") as tmp:
        # both read one copy outside any repository: a checkout's own host files are no part of a launch given whole
        kernels = Path(tmp) / KERNELS.name
        shutil.copyfile(KERNELS, kernels)
        cold = dict(os.environ, SIMU_RESIDENT="0")
        warm = _start_resident(Path(tmp)) if resident else None
        try:
            for size in sizes:
                for case in cases(size):
                    out.append(_measure_case(case, kernels, Path(tmp), repeat, oracle, cold, warm))
        finally:
            if warm is not None:
                subprocess.run([sys.executable, "-m", "simu", "serve", "--stop"], env=warm, capture_output=True)
    return out


def _measure_case(case: Case, kernels: Path, tmp: Path, repeat: int, oracle: str | None, cold: dict,
                  warm: dict | None) -> Timing:
    sim = tmp / f"{case.kernel}-{case.work_items}.sim"
    sim.write_text(sim_file(case, kernels))
    simu_times, resident_times, oracle_times, verdict = [], [], [], ("", 0)
    for _ in range(repeat):
        seconds, proc = _timed(simu_command(case, kernels), cwd=tmp, env=cold)
        simu_times.append(seconds)
        verdict = _simu_verdict(proc)
        if warm is not None:
            seconds, proc = _timed(simu_command(case, kernels), cwd=tmp, env=warm)
            answered = _simu_verdict(proc)
            resident_times.append(seconds)
            if answered != verdict:  # a resident checker that judged otherwise is no speed either
                verdict = (f"{verdict[0]}; resident: {answered[0]}", verdict[1])
        if oracle:
            seconds, proc = _timed([oracle, "--data-races", str(sim)])
            if proc.returncode == 0:
                oracle_times.append(seconds)
    return Timing(case, statistics.median(simu_times), verdict[0], verdict[1],
                  statistics.median(oracle_times) if oracle_times else None,
                  statistics.median(resident_times) if resident_times else None)


def _start_resident(tmp: Path) -> dict | None:
    """The environment of commands a resident checker started here answers; None where it could not start."""
    runtime = tmp / "run"
    runtime.mkdir(mode=0o700)
    env = dict(os.environ, SIMU_RESIDENT="1", XDG_RUNTIME_DIR=str(runtime))
    proc = subprocess.run([sys.executable, "-m", "simu", "serve", "--detach", "--idle", "10"], env=env,
                          capture_output=True, text=True)
    return env if proc.returncode == 0 else None


def median_ratios(timings: list[Timing], resident: bool = False) -> dict[int, float | None]:
    """Work-items -> the median simu/Oclgrind ratio over the kernels (None without Oclgrind); ``resident``: of
    simu answered by the resident checker."""
    by_size: dict[int, list[float]] = {}
    for t in timings:
        ratio = t.resident_ratio if resident else t.ratio
        if ratio is not None:
            by_size.setdefault(t.case.work_items, []).append(ratio)
    sizes = sorted({t.case.work_items for t in timings})
    return {s: statistics.median(by_size[s]) if s in by_size else None for s in sizes}
