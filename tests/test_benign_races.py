"""Races that lose nothing (simu/detect/races.py): every thread stores one value into a shared variable and then
reads it, so whichever store a read sees it reads that value; a store of another value, or a read before the
thread's own store (``x += 1`` in lockstep), stays a race."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.cli.app import app

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
