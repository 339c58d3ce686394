"""Races that lose nothing (simu/detect/races.py): every thread stores one value into a shared variable and then
reads it, so whichever store a read sees it reads that value; a store of another value, or a read before the
thread's own store (``x += 1`` in lockstep), stays a race."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.cli import app

runner = CliRunner()

KERNELS = """
__global__ void same_pointer(float *base, float *out, int n) {
  __shared__ float *row;
  row = base + blockIdx.x * n;  // every thread of the block stores one address
  out[blockIdx.x * blockDim.x + threadIdx.x] = row[threadIdx.x];
}
__global__ void per_warp(float *out) {
  __shared__ int slot;
  slot = threadIdx.x / 32;  // two warps store two values
  out[slot] = 1.0f;
}
__global__ void read_first(int *out) {
  __shared__ int x;
  int y = x;  // read before its own store
  x = 5;
  out[threadIdx.x] = y;
}
"""


def _findings(tmp_path: Path, kernel: str) -> list[dict]:
    (tmp_path / "k.cu").write_text(KERNELS)
    args = ["check", str(tmp_path / "k.cu"), "--kernel", kernel, "--grid", "2", "--block", "64",
            "--buffer", "out=float32:128" if kernel != "read_first" else "out=int32:128", "--format", "json"]
    if kernel == "same_pointer":
        args += ["--arg", "n=64", "--buffer", "base=float32:256"]
    data = json.loads(runner.invoke(app, args).stdout)
    return [f for fe in data["files"] for k in fe["kernels"] for f in k["findings"]]


def test_one_address_stored_by_every_thread_then_read_is_benign(tmp_path: Path):
    found = _findings(tmp_path, "same_pointer")
    assert found and all(f["kind"] == "benign-race" and f["severity"] == "info" for f in found), found


def test_two_values_or_a_read_before_the_store_stay_races(tmp_path: Path):
    for kernel in ("per_warp", "read_first"):
        races = [f for f in _findings(tmp_path, kernel) if f["kind"] == "race" and f["severity"] == "error"]
        assert races, kernel


VECTOR_TAILS = """
__kernel void tail(__global const half* src, __global half* dst, const int count) {
  const int idx = get_global_id(0) << 3;
  if (idx > count) return;
  const int index = (idx + 8) > count ? (count - 8) : idx;  // the last vector is clamped onto its neighbour's
  vstore8(vload8(0, src + index), 0, dst + index);
}
__kernel void tail_scaled_by_thread(__global const float* src, __global float* dst, const int count) {
  const int idx = get_global_id(0) << 3;
  if (idx > count) return;
  const int index = (idx + 8) > count ? (count - 8) : idx;
  vstore8(vload8(0, src + index) * (float)idx, 0, dst + index);
}
"""


def _vector_findings(tmp_path: Path, kernel: str, dtype: str) -> list[dict]:
    (tmp_path / "tails.cl").write_text(VECTOR_TAILS)
    args = ["check", str(tmp_path / "tails.cl"), "--kernel", kernel, "--grid", "4", "--block", "4",
            "--buffer", f"src={dtype}:27:random", "--buffer", f"dst={dtype}:27", "--arg", "count=27",
            "--format", "json"]
    data = json.loads(runner.invoke(app, args).stdout)
    return [f for fe in data["files"] for k in fe["kernels"] for f in k["findings"]]


def test_wide_vector_stores_overlapping_in_part_compare_the_bytes_they_share(tmp_path: Path):
    """A `vstore8` of 16 or 32 bytes is recorded in pieces with their own bits: the clamped last vector stores the
    same halves where it overlaps its neighbour's (a benign race); one scaled by the thread's index does not."""
    found = _vector_findings(tmp_path, "tail", "float16")
    assert found and all(f["kind"] == "benign-race" and f["severity"] == "info" for f in found), found
    races = [f for f in _vector_findings(tmp_path, "tail_scaled_by_thread", "float32")
             if f["kind"] == "race" and f["severity"] == "error"]
    assert races


def test_a_wide_store_that_no_lane_makes_in_bounds_is_reported_not_a_crash(tmp_path: Path):
    (tmp_path / "before.cl").write_text("""
__kernel void before_start(__global const float* src, __global float* dst, const int count) {
  const int index = count - 8;  // before the arrays when count < 8: no lane's store lands
  vstore8(vload8(0, src + index), 0, dst + index);
}
""")
    out = runner.invoke(app, ["check", str(tmp_path / "before.cl"), "--grid", "1", "--block", "2", "--buffer",
                              "src=float32:4", "--buffer", "dst=float32:4", "--arg", "count=4", "--format", "json"])
    kernel = json.loads(out.stdout)["files"][0]["kernels"][0]
    assert kernel["status"] == "analysed", kernel["reason"]
    assert {f["kind"] for f in kernel["findings"]} == {"out-of-bounds"}
