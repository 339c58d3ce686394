"""Spin-wait loops (simu.ir.spin, simu.interp.spinwait): a block waiting on a flag, counter or lock another block
sets runs to the end, the wait orders what it publishes, and a wait nobody ends is named as a deadlock."""

from __future__ import annotations

from pathlib import Path

import pytest

from simu.api import load_file
from simu.frontend import CompileOptions
from simu.ir.spin import spin_buffers, spin_loops
from simu.launch.spec import build_launch
from simu.pipeline import CheckSettings, check_launches

KERNELS = Path(__file__).resolve().parent / "cuda_kernels" / "spin"
LAUNCH = {  # the buffers each kernel's program passes: flags and counters cleared
    "lookback": ["flag=int32:4:zeros", "agg=int32:4:zeros"],
    "lookback_early": ["flag=int32:4:zeros", "agg=int32:4:zeros"],
    "never": ["flag=int32:8:zeros", "agg=int32:8:zeros"],
    "gridbar_ok": ["mid=int32:256", "count=uint32:1:zeros"],
    "gridbar_nobar": ["mid=int32:256", "count=uint32:1:zeros"],
}


def _check(name: str):
    module = load_file(KERNELS / f"{name}.cu", CompileOptions())
    k = module.kernels[0]
    launch = build_launch(k, "4", "64", ["n=256"], ["in=int32:256", "out=int32:256", *LAUNCH[name]], 0, 32, 0)
    return check_launches(module, k, [launch], CheckSettings())


def _summary(rep) -> list[tuple[str, str, int, int]]:
    return sorted((f.kind, f.variable, f.first.line, f.second.line if f.second else 0) for f in rep.findings)


@pytest.mark.parametrize("name", ["lookback", "gridbar_ok"])
def test_a_correct_wait_on_another_block_runs_to_the_end_with_no_finding(name):
    rep = _check(name)
    assert rep.status == "analysed", rep.reason
    assert _summary(rep) == []  # no race on what the wait publishes, no redundant barrier around it


def test_a_flag_set_before_the_data_it_publishes_races():
    rep = _check("lookback_early")
    assert rep.status == "analysed"
    assert ("race", "agg", 14, 10) in _summary(rep)


def test_a_grid_barrier_without_the_block_barrier_before_its_signal_races():
    rep = _check("gridbar_nobar")
    races = [f for f in rep.findings if f.kind == "race"]
    assert [(f.variable, f.detail["scope"]) for f in races] == [("mid", "inter-block")]


def test_a_wait_nobody_ends_is_a_deadlock_at_its_line():
    rep = _check("never")
    assert rep.status == "incomplete"
    assert "deadlock" in rep.reason and "never.cu:9" in rep.reason


def test_only_loops_that_carry_nothing_and_store_nothing_are_spin_waits():
    lookback = load_file(KERNELS / "lookback.cu", CompileOptions()).kernels[0]
    assert len(spin_loops(lookback.function.blocks).back_edges) == 1
    assert spin_buffers(lookback) == {"flag"}
    counted = load_file(Path(__file__).resolve().parent.parent / "corpus" / "cuda" / "saxpy.cu",
                        CompileOptions()).kernels[0]
    assert not spin_loops(counted.function.blocks)


def test_the_search_starts_a_spin_flag_cleared(tmp_path):
    from simu.evolve import search_kernel
    from simu.evolve.budget import Budget

    module = load_file(KERNELS / "lookback.cu", CompileOptions())
    rep = search_kernel(module, module.kernels[0], CheckSettings(), budget=Budget(evaluations=30, seconds=600))
    assert rep.status == "analysed"
    assert [f for f in rep.findings if f.kind == "race"] == []
