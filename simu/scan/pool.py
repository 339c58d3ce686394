"""The scan's worker processes and the tasks it gives them.

A :class:`WorkerPool` is a ProcessPoolExecutor whose workers report their pid and each task's start,
so that the parent can kill a runaway worker and start a fresh pool.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from queue import Empty
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simu.report.results import FileResult, KernelResult

# the modules a worker needs before its first task (here, so that starting the fork server early imports
# nothing heavy); numpy.ma: np.unique imports it on first use, a quarter second the
# first kernel's CPU limit would pay
PRELOAD = ("simu.scan.worker", "simu.check", "simu.evolve", "simu.frontend", "simu.ir", "numpy.ma")

LIST, ANALYSE = "list", "analyse"  # the two kinds of task


@dataclass
class Task:
    """One unit of work for a worker: compile a file (``list``) or analyse one kernel (``analyse``)."""

    id: int
    kind: str  # LIST | ANALYSE
    args: tuple  # the worker function's arguments after the task id
    limit: float  # seconds after its start before the parent kills its worker
    file: FileResult
    kernel: KernelResult | None = None
    key: str = ""  # cache key of an analysis
    suspect: bool = False  # ran when a worker died: retried alone
    copts: Any = None  # CompileOptions of a list task
    variant: str = ""  # which build-option variant a list task compiles ("" = the only one)
    typed: str = ""  # the type a list task assumes for the build's unknown type names (FileFlags.type_variants)
    rounds: int = 0  # how many failed compiles of its file led to this list task's options

    @property
    def what(self) -> str:
        return "compilation" if self.kind == LIST else "analysis"


def _context():
    """The start method of the workers: a fork server that has already imported the analysis code (no
    fork of a process holding threads and open SQLite handles), else spawn."""
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("forkserver" if "forkserver" in methods and sys.platform != "darwin" else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(list(PRELOAD))
    return ctx


def start_early() -> None:
    """Start the fork server now, so that it imports the analysis code while the command imports and reads
    the project (about a second each on a small repository: on two cores they overlap)."""
    ctx = _context()
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        try:
            forkserver.ensure_running()
        except OSError:  # the pool starts it when it needs it, or reports why it cannot
            pass


def cpu_seconds(pid: int) -> float | None:
    """The CPU time process ``pid`` has used so far (Linux ``/proc``), None where it cannot be read."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / _TICKS if fields else None


def tree_cpu_seconds(pid: int, running: bool = True) -> float | None:
    """The CPU time process ``pid``, the children it has waited for and (``running``) the descendants still running
    have used (a compile's clang runs in a child process of the worker); None where ``/proc`` cannot be read.  A
    worker between tasks runs no child: ``running=False`` spares the walk over ``/proc``."""
    fields = _stat(pid)
    if not fields:
        return None
    total = sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    if not running:
        return total / _TICKS
    parents: dict[int, list[int]] = {}
    try:
        entries = [int(e) for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return total / _TICKS
    stats = {}
    for e in entries:
        st = _stat(e)
        if st:
            stats[e] = st
            parents.setdefault(int(st[1]), []).append(e)
    todo = list(parents.get(pid, ()))
    while todo:
        child = todo.pop()
        total += int(stats[child][11]) + int(stats[child][12])
        todo += parents.get(child, ())
    return total / _TICKS


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (``state`` first, ``ppid`` second)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return fields if len(fields) > 14 else None
    except (OSError, IndexError, ValueError):
        return None


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") and "SC_CLK_TCK" in os.sysconf_names else 100


class WorkerPool:
    """Worker processes running :mod:`simu.scan.worker` tasks; ``starts`` maps a started task to
    ``(pid, time, the worker's CPU seconds then or None)``."""

    def __init__(self, jobs: int):
        self.ctx = _context()
        self.jobs = jobs
        self.events = self.ctx.Queue()
        self.pids: set[int] = set()
        self.starts: dict[int, tuple[int, float, float | None, bool]] = {}
        self._new()

    def _new(self) -> None:
        from simu.scan.worker import init_worker

        self.ex = ProcessPoolExecutor(max_workers=self.jobs, mp_context=self.ctx, initializer=init_worker,
                                      initargs=(self.events, os.getpid(), PRELOAD))

    def submit(self, task: Task) -> Future:
        """Raises BrokenProcessPool when the pool has died."""
        from simu.scan import worker

        fn = worker.list_kernels if task.kind == LIST else worker.analyse
        return self.ex.submit(fn, task.id, *task.args)

    def drain(self) -> None:
        """Read the workers' hello/start events."""
        while True:
            try:
                ev = self.events.get_nowait()
            except (Empty, OSError, ValueError):
                return
            if ev[0] == "hello":
                self.pids.add(ev[1])
            elif ev[0] == "start":
                self.starts[ev[1]] = (ev[2], ev[3], tree_cpu_seconds(ev[2], running=False), ev[4])
                self.pids.add(ev[2])

    def kill(self, pid: int) -> None:
        try:
            os.kill(pid, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
        except (ProcessLookupError, PermissionError, OSError):
            pass

    def restart(self) -> None:
        self.close(kill=True)
        self.starts.clear()
        self._new()

    def close(self, kill: bool = False) -> None:
        if kill:
            self.drain()
            for pid in list(self.pids):
                self.kill(pid)
            self.pids.clear()
            self.ex.shutdown(wait=False, cancel_futures=True)
        else:
            self.ex.shutdown(wait=True)
