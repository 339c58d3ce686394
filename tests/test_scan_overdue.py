"""When the scan stops a worker: an analysis by its CPU time (a loaded machine only makes it wait), a compile
by its wall time, and a worker stuck without using CPU after STUCK_FACTOR limits of wall time."""

from __future__ import annotations

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
    monkeypatch.setattr(engine, "cpu_seconds", lambda pid: cpu_now)
    assert engine._overdue(_task(ANALYSE), (123, 1000.0, 10.0, False), 1000.0 + wall) is overdue


def test_without_cpu_figures_or_for_a_compile_the_wall_clock_decides(monkeypatch):
    monkeypatch.setattr(engine, "cpu_seconds", lambda pid: 0.0)
    assert engine._overdue(_task(LIST), (123, 1000.0, 0.0, False), 1011.0)  # clang's time is its own child's
    assert not engine._overdue(_task(LIST), (123, 1000.0, 0.0, False), 1009.0)
    assert engine._overdue(_task(ANALYSE), (123, 1000.0, None, False), 1011.0)
    monkeypatch.setattr(engine, "cpu_seconds", lambda pid: None)  # the worker's figures are gone
    assert not engine._overdue(_task(ANALYSE), (123, 1000.0, 0.0, False), 1011.0)
    assert engine._overdue(_task(ANALYSE), (123, 1000.0, 0.0, False), 1041.0)


def test_an_analysis_still_reading_and_compiling_its_kernel_has_the_preparation_s_limit(monkeypatch):
    """A kernel of 100,000s of instructions takes tens of seconds to decode and compile before its analysis starts:
    the parent allows PREPARE_CPU_LIMIT (and the grace) for that, then the analysis's own limit from its second
    start."""
    monkeypatch.setattr(engine, "cpu_seconds", lambda pid: 10.0 + 40.0)  # 40 s of CPU since the first start
    assert not engine._overdue(_task(ANALYSE, limit=38.0), (123, 1000.0, 10.0, True), 1045.0)
    assert engine._overdue(_task(ANALYSE, limit=38.0), (123, 1000.0, 10.0, False), 1045.0)
    monkeypatch.setattr(engine, "cpu_seconds", lambda pid: 10.0 + engine.PREPARE_CPU_LIMIT + engine.WALL_GRACE + 1)
    assert engine._overdue(_task(ANALYSE, limit=38.0), (123, 1000.0, 10.0, True), 1100.0)
