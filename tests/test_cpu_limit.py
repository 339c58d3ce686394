"""One kernel's analysis is bounded in CPU time (simu/evolve/cpulimit.py) in ``simu check`` as in a scan's workers:
a search that runs past four budgets is stopped and reported as a timeout, and the file's other kernels go on.  The
limit counts this process's CPU time, so these tests spin until it fires (no wall-clock assertion)."""

from __future__ import annotations

import pytest

import simu.check as check_module
from simu import codes
from simu.api import load_source
from simu.check import CheckRequest, check_file
from simu.evolve import Budget
from simu.evolve.cpulimit import KernelTimeout, cpu_limit
from simu.pipeline import CheckSettings


def test_the_limit_stops_a_busy_block():
    with pytest.raises(KernelTimeout), cpu_limit(0.05):
        while True:
            pass


def test_no_limit_is_set_for_zero_seconds():
    with cpu_limit(0.0):
        total = sum(range(1000))
    assert total == 499500


def test_a_kernel_whose_analysis_runs_past_its_limit_is_a_timeout_and_the_next_goes_on(tmp_path, monkeypatch):
    module = load_source("__global__ void slow(int *x) { x[threadIdx.x] = 1; }\n"
                         "__global__ void quick(int *x) { x[threadIdx.x] = 2; }\n", "cuda")
    real = check_module._judge

    def judge(module, kernel, settings, request, config):
        if kernel.display_name == "slow":
            while True:  # a search that never returns: only the CPU limit ends it
                pass
        return real(module, kernel, settings, request, config)

    monkeypatch.setattr(check_module, "_judge", judge)
    request = CheckRequest(budget=Budget(evaluations=4, seconds=0.02, probe_seconds=1))
    result = check_file(tmp_path / "k.cu", module, CheckSettings(), request)
    by_name = {k.name: k for k in result.files[0].kernels}
    assert by_name["slow"].status == codes.TIMEOUT and "of CPU" in by_name["slow"].reason
    assert by_name["quick"].status == codes.ANALYSED
