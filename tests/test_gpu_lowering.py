"""Where clang's IR leaves a choice, what the GPU's compiler and hardware do: ``v.x = e`` on an OpenCL vector in memory
stores one component (simu/interp/narrow.py): two threads setting two components of one ``__local int4`` do not race,
every thread setting one component to one value is benign, and whole-vector stores of different values still race;
a shift by the width or more is clamped as PTX does (simu/interp/arith.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from simu.api import run_opencl_source
from simu.cli import app
from simu.launch import Launch

KERNELS = """
__kernel void components(__global int4 *out) {
  __local int4 v;
  int t = get_local_id(0);
  if (t == 0) v.x = 1;
  if (t == 1) v.y = 2;
  if (t == 2) v.w = 4;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[t] = v;
}
__kernel void same_index(__global int *out, float h) {
  __local int4 bin;
  bin.x = (int) floor((8 * get_group_id(0) + 4) * h);
  out[get_global_id(0)] = bin.x;
}
__kernel void whole(__global int4 *out) {
  __local int4 v;
  int t = get_local_id(0);
  if (t < 2) v = (int4)(t, t, t, t);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[t] = v;
}
"""


def _findings(tmp_path: Path, kernel: str, *extra: str) -> list[dict]:
    (tmp_path / "k.cl").write_text(KERNELS)
    r = CliRunner().invoke(app, ["check", str(tmp_path / "k.cl"), "--kernel", kernel, "--grid", "1", "--block", "4",
                                 "--buffer", "out=int32:16", *extra, "--format", "json"])
    return [f for fe in json.loads(r.stdout)["files"] for k in fe["kernels"] for f in k["findings"]]


def test_two_threads_setting_two_components_do_not_race(tmp_path: Path):
    assert not [f for f in _findings(tmp_path, "components") if f["kind"] == "race"]
    out = np.zeros(16, np.int32)
    result = run_opencl_source(KERNELS, "components", Launch((1, 1, 1), (4, 1, 1), {"out": out}))
    assert result.buffers["out"].view(np.int32)[:4].tolist() == [1, 2, 0, 4]


def test_one_component_set_alike_by_every_thread_is_benign_and_whole_stores_still_race(tmp_path: Path):
    found = _findings(tmp_path, "same_index", "--arg", "h=0.5")
    assert found and all(f["kind"] == "benign-race" for f in found), found
    assert any(f["kind"] == "race" and f["severity"] == "error" for f in _findings(tmp_path, "whole"))


def test_a_shift_past_the_width_is_zero_as_on_the_gpu():
    """PTX clamps a shift amount to the register width (LLVM leaves it undefined): ``284 >> 288`` is 0, not
    ``284 >> 0``; an arithmetic shift fills the sign."""
    from simu.interp.arith import binary

    assert binary("lshr", 32)(np.array([284, 7], np.int32), np.array([288, 1], np.int32)).tolist() == [0, 3]
    assert binary("ashr", 32)(np.array([-5, 5], np.int32), np.array([40, 1], np.int32)).tolist() == [-1, 2]
    assert int(binary("shl", 32)(np.int32(3), np.int32(33))) == 0 and int(binary("shl", 32)(np.int32(3), 2)) == 12
