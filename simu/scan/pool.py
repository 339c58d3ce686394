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
from typing import Any

from simu.report.results import FileResult, KernelResult

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


class WorkerPool:
    """Worker processes running :mod:`simu.scan.worker` tasks; ``starts`` maps a started task to
    ``(pid, time)``."""

    def __init__(self, jobs: int):
        methods = mp.get_all_start_methods()
        self.ctx = mp.get_context("forkserver" if "forkserver" in methods and sys.platform != "darwin" else "spawn")
        if self.ctx.get_start_method() == "forkserver":
            # workers fork from a server that has already imported the analysis code
            from simu.scan.worker import PRELOAD

            self.ctx.set_forkserver_preload(list(PRELOAD))
        self.jobs = jobs
        self.events = self.ctx.Queue()
        self.pids: set[int] = set()
        self.starts: dict[int, tuple[int, float]] = {}
        self._new()

    def _new(self) -> None:
        from simu.scan.worker import init_worker

        self.ex = ProcessPoolExecutor(max_workers=self.jobs, mp_context=self.ctx, initializer=init_worker,
                                      initargs=(self.events, os.getpid()))

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
                self.starts[ev[1]] = (ev[2], ev[3])
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
