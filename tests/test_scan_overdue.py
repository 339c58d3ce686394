"""When the scan stops a worker: an analysis or a compile by its CPU time (a loaded machine only makes it wait; a
compile's clang is the worker's child, whose CPU time counts), and a worker stuck without using CPU after
STUCK_FACTOR limits of wall time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from simu.report.results import FileResult
from simu.scan import engine
from simu.scan.pool import ANALYSE, LIST, Task


def _task(kind: str, limit: float = 10.0) -> Task:
    return Task(0, kind, (), limit, FileResult(Path("k.cu"), "k.cu"))


@pytest.mark.parametrize(("cpu_now", "wall", "overdue"), [
    (15.0, 30.0, False),   # waited for a core: 25 s of wall, 5 s of CPU
    (21.0, 12.0, True),    # 11 s of CPU: past the limit of 10
    (10.5, 41.0, True),    # hardly any CPU, but past 4 limits of wall: stuck
])
def test_an_analysis_is_stopped_by_its_cpu_time(monkeypatch, cpu_now, wall, overdue):
    monkeypatch.setattr(engine, "tree_cpu_seconds", lambda pid: cpu_now)
    assert engine._overdue(_task(ANALYSE), (123, 1000.0, 10.0, False), 1000.0 + wall) is overdue


def test_a_compile_is_stopped_by_the_cpu_time_of_the_worker_and_its_clang(monkeypatch):
    """tiny-cuda-nn's encoding.cu took past the 120 s of wall time to compile beside two other scans: a compile
    waiting for a core is not stopped, one that used its limit of CPU is."""
    monkeypatch.setattr(engine, "tree_cpu_seconds", lambda pid: 5.0)
    assert not engine._overdue(_task(LIST), (123, 1000.0, 0.0, False), 1011.0)  # 5 s of CPU in 11 s
    assert engine._overdue(_task(LIST), (123, 1000.0, 0.0, False), 1041.0)  # stuck: 4 limits of wall time
    monkeypatch.setattr(engine, "tree_cpu_seconds", lambda pid: 11.0)
    assert engine._overdue(_task(LIST), (123, 1000.0, 0.0, False), 1011.0)
    assert not engine._overdue(_task(LIST), (123, 1000.0, 0.0, False), 1009.0)


def test_without_cpu_figures_the_wall_clock_decides(monkeypatch):
    assert engine._overdue(_task(ANALYSE), (123, 1000.0, None, False), 1011.0)
    assert engine._overdue(_task(LIST), (123, 1000.0, None, False), 1011.0)
    monkeypatch.setattr(engine, "tree_cpu_seconds", lambda pid: None)  # the worker's figures are gone
    assert not engine._overdue(_task(ANALYSE), (123, 1000.0, 0.0, False), 1011.0)
    assert engine._overdue(_task(ANALYSE), (123, 1000.0, 0.0, False), 1041.0)


def test_an_analysis_still_reading_and_compiling_its_kernel_has_the_preparation_s_limit(monkeypatch):
    """A kernel of 100,000s of instructions takes tens of seconds to decode and compile before its analysis starts:
    the parent allows PREPARE_CPU_LIMIT (and the grace) for that, then the analysis's own limit from its second
    start."""
    monkeypatch.setattr(engine, "tree_cpu_seconds", lambda pid: 10.0 + 40.0)  # 40 s of CPU since the first start
    assert not engine._overdue(_task(ANALYSE, limit=38.0), (123, 1000.0, 10.0, True), 1045.0)
    assert engine._overdue(_task(ANALYSE, limit=38.0), (123, 1000.0, 10.0, False), 1045.0)
    monkeypatch.setattr(engine, "tree_cpu_seconds", lambda pid: 10.0 + engine.PREPARE_CPU_LIMIT + engine.WALL_GRACE + 1)
    assert engine._overdue(_task(ANALYSE, limit=38.0), (123, 1000.0, 10.0, True), 1100.0)


def test_the_cpu_time_of_a_process_tree_counts_its_running_children():
    """Read off /proc, never timed: a child that has burnt 0.3 s of CPU and waits is in its parent's tree."""
    import subprocess
    import sys

    from simu.scan.pool import cpu_seconds, tree_cpu_seconds

    if tree_cpu_seconds(os.getpid()) is None:
        pytest.skip("no /proc")
    burn = ("import sys, time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"
            "print('ready', flush=True)\nsys.stdin.read()\n")
    before = tree_cpu_seconds(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", burn], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        child_cpu = cpu_seconds(child.pid)
        assert child_cpu is not None and child_cpu >= 0.25
        assert tree_cpu_seconds(os.getpid()) - before >= child_cpu - 0.02
    finally:
        child.communicate("")
