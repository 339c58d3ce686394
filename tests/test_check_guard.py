"""`simu check` never prints a Python traceback: a crash inside one kernel's analysis is that kernel's
verdict (status *error*, one line naming the file, the kernel and what failed; exit 2 when nothing
else was analysed), as `simu scan` records it; ``--debug`` shows the traceback.  A translator that
meets a form it was not written for makes the kernel *unsupported* at that instruction's line
(issue 29, item 7)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import simu.check
from simu import codes
from simu.api import load_source
from simu.cli import app
from simu.interp import instructions
from simu.launch import Launch
from simu.pipeline import check_launches

runner = CliRunner()

TWO_KERNELS = r"""
__global__ void fine(float *a) { a[threadIdx.x] += 1.0f; }
__global__ void broken(float *a) { a[threadIdx.x] *= 2.0f; }
"""
LAUNCH = ["--grid", "1", "--block", "32"]


@pytest.fixture
def crashing(tmp_path, monkeypatch):
    """A file of two kernels whose analysis of ``broken`` raises what no stage expects."""
    (tmp_path / ".git").mkdir()
    path = tmp_path / "two.cu"
    path.write_text(TWO_KERNELS)
    judge = simu.check._judge

    def crash_on_broken(module, kernel, *args, **kwargs):
        if kernel.display_name == "broken":
            raise RuntimeError("no model for\n   this construct")
        return judge(module, kernel, *args, **kwargs)

    monkeypatch.setattr(simu.check, "_judge", crash_on_broken)
    return path


@pytest.mark.parametrize("extra", [LAUNCH, ["--budget", "2"]])
def test_a_crash_is_one_line_and_exit_2(crashing, extra):
    res = runner.invoke(app, ["check", str(crashing), "--kernel", "broken", *extra])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "Traceback" not in res.output
    line = next(x for x in res.output.splitlines() if "not fully analysed" in x)
    assert line.startswith("two.cu:") and "kernel broken" in line
    assert "RuntimeError: no model for this construct" in line


def test_the_other_kernels_are_still_analysed(crashing):
    res = runner.invoke(app, ["check", str(crashing), *LAUNCH, "--format", "json"])
    assert res.exit_code == 0, res.output  # something was analysed, nothing found
    kernels = {k["name"]: k for k in json.loads(res.stdout)["files"][0]["kernels"]}
    assert kernels["fine"]["status"] == codes.ANALYSED
    assert kernels["broken"]["status"] == codes.FAILED
    assert kernels["broken"]["reason"] == "RuntimeError: no model for this construct"


def test_debug_shows_the_traceback(crashing):
    res = runner.invoke(app, ["check", str(crashing), "--kernel", "broken", *LAUNCH, "--debug"])
    assert res.exit_code == 2, res.output
    assert "Traceback" in res.output and "crash_on_broken" in res.output


def test_a_translator_failure_is_unsupported_at_its_instruction(monkeypatch):
    def fails(c, ins, g, dst, proto):
        raise TypeError("no lane dtype for %struct.weird")

    monkeypatch.setitem(instructions.INSTRUCTIONS, "fmul", fails)
    m = load_source(TWO_KERNELS, "cuda", path="two.cu")
    k = m.kernel("broken")
    report = check_launches(m, k, [Launch((1, 1, 1), (32, 1, 1), {k.params[0].name: np.zeros(32, np.float32)})])
    assert report.status == codes.UNSUPPORTED
    assert "fmul" in report.reason and "TypeError: no lane dtype for %struct.weird" in report.reason
    assert report.where is not None and report.where.line == 3
