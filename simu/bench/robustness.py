"""`simu bench --suite robustness`: does `simu scan` get through a folder without crashing?

The scan runs as a user runs it, in a child process (``python -m simu scan DIR --format json --debug
--no-cache``), with this process's simu on its import path.  Counted: kernels by status, files that did
not compile, and tracebacks: every ``Traceback`` in the child's stderr plus every file or kernel whose
analysis raised what no stage expects (the scan records those with status *error* and, under
``--debug``, their traceback; an error simu explains, such as a launch it refuses, has no traceback).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

TRACEBACK = "Traceback (most recent call last)"


@dataclass
class Robustness:
    """What one scan of a folder went through."""

    path: str
    files: int = 0
    kernels: int = 0
    by_status: dict[str, int] = field(default_factory=dict)  # kernel statuses
    file_status: dict[str, int] = field(default_factory=dict)
    tracebacks: int = 0
    stderr_tracebacks: int = 0
    crashes: list[dict[str, str]] = field(default_factory=list)  # path, kernel, reason, last traceback line
    not_analysed: list[dict[str, str]] = field(default_factory=list)  # kernels of another status: path, kernel, ...
    seconds: float = 0.0
    exit_code: int = 0
    error: str = ""  # the scan gave no JSON report: why

    @property
    def figure(self) -> str:
        return f"{self.kernels} kernels, {self.tracebacks} tracebacks, {self.seconds:.0f} seconds"


def scan_command(folders: list[Path], budget: float | None, jobs: int) -> list[str]:
    """The command line of the scan (the interpreter running this bench, so the same simu); ``budget`` None:
    the scan's default search seconds per kernel."""
    return [sys.executable, "-m", "simu", "scan", *map(str, folders), "--format", "json", "--debug", "--no-cache",
            *(["--budget", f"{budget:g}"] if budget is not None else []), "-j", str(jobs), "--fail-on", "never"]


def _child_env() -> dict[str, str]:
    """The environment with the folder holding this simu first on the import path."""
    import simu

    root = str(Path(simu.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def run_robustness(folders: list[Path], budget: float | None = None, jobs: int = 2,
                   timeout: float | None = None) -> Robustness:
    """Scan ``folders`` in a child process and count what happened (wall time of the whole scan)."""
    out = Robustness(" ".join(map(str, folders)))
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(scan_command([f.resolve() for f in folders], budget, jobs), capture_output=True,
                              text=True, env=_child_env(), timeout=timeout, cwd=str(folders[0].resolve().parent))
    except subprocess.TimeoutExpired:
        out.seconds = time.perf_counter() - t0
        out.error = f"the scan ran past {timeout:g} s"
        return out
    out.seconds = time.perf_counter() - t0
    out.exit_code = proc.returncode
    out.stderr_tracebacks = proc.stderr.count(TRACEBACK)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        tail = [line for line in proc.stderr.strip().splitlines() if line.strip()][-1:] or ["no output"]
        out.error = f"exit {proc.returncode}, no JSON report: {tail[0][:300]}"
        out.tracebacks = out.stderr_tracebacks
        return out
    _count(out, doc)
    return out


def _last_line(trace: str) -> str:
    lines = [line for line in trace.strip().splitlines() if line.strip()]
    return lines[-1].strip()[:300] if lines else ""


def _count(out: Robustness, doc: dict[str, Any]) -> None:
    for f in doc.get("files", []):
        out.files += 1
        out.file_status[f["status"]] = out.file_status.get(f["status"], 0) + 1
        if f.get("traceback"):
            out.crashes.append({"path": f["path"], "kernel": "", "reason": f.get("diagnostic", ""),
                                "where": _last_line(f["traceback"])})
        for k in f.get("kernels", []):
            out.kernels += 1
            out.by_status[k["status"]] = out.by_status.get(k["status"], 0) + 1
            if k["status"] != "analysed":
                out.not_analysed.append({"path": f["path"], "kernel": k["name"], "status": k["status"],
                                         "reason": k.get("reason", "")[:300]})
            if k.get("traceback"):
                out.crashes.append({"path": f["path"], "kernel": k["name"], "reason": k.get("reason", ""),
                                    "where": _last_line(k["traceback"])})
    out.by_status = dict(sorted(out.by_status.items()))
    out.file_status = dict(sorted(out.file_status.items()))
    out.tracebacks = out.stderr_tracebacks + len(out.crashes)


def report_dict(r: Robustness) -> dict[str, Any]:
    """The JSON document of ``simu bench --suite robustness``."""
    from simu import __version__

    return {"version": __version__, "suite": "robustness", "figure": r.figure, **asdict(r)}
