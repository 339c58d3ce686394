"""Optimistic reads a compare-and-swap validates (simu/ir/optimistic.py): ``atomicMax`` on floats written as a CAS
loop behind an early exit, and OpenCL's float-max CAS loop, read the word other threads swap with a plain load,
but what they read only proposes a value; those reads do not race with the swaps.  A read whose value is stored,
or a plain store to the word, still races."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.api import load_source
from simu.cli import app
from simu.ir.optimistic import validated_reads

runner = CliRunner()

CUDA = """
__device__ void atomic_max_float(float *address, float value) {
  if (*address >= value) return;  // an early exit on a plain read
  int *bits = (int *)address;
  int old = *bits, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value) break;
    old = atomicCAS(bits, assumed, __float_as_int(value));
  } while (assumed != old);
}
__global__ void block_max(const float *x, float *result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomic_max_float(result, x[i]);
}
__global__ void leaked_read(const float *x, float *result, float *seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    seen[i] = *result;  // the plain read's value is kept: it races with the swaps
    atomic_max_float(result, x[i]);
  }
}
__global__ void plain_store(const float *x, float *result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomic_max_float(result, x[i]);
    if (i == 0) *result = 0.0f;  // a plain store to the swapped word: a race
  }
}
"""

OPENCL = """
inline void atomic_max_f(volatile __global float *addr, float v) {
  union { unsigned int u; float f; } old, nw;
  do { old.f = *addr; nw.f = fmax(old.f, v); }
  while (atomic_cmpxchg((volatile __global unsigned int *)addr, old.u, nw.u) != old.u);
}
__kernel void reduce_max(__global const float *x, __global float *m) { atomic_max_f(m, x[get_global_id(0)]); }
"""


def _races(tmp_path: Path, name: str, source: str, kernel: str, buffers: list[str], args: list[str]) -> list[dict]:
    (tmp_path / name).write_text(source)
    cmd = ["check", str(tmp_path / name), "--kernel", kernel, "--grid", "2", "--block", "64", "--format", "json"]
    for b in buffers:
        cmd += ["--buffer", b]
    for a in args:
        cmd += ["--arg", a]
    data = json.loads(runner.invoke(app, cmd).stdout)
    return [f for fe in data["files"] for k in fe["kernels"] for f in k["findings"] if f["kind"] == "race"]


def test_the_reads_of_a_compare_and_swap_loop_are_found_in_the_ir():
    module = load_source(CUDA, "cuda")
    blocks = module.kernel("block_max").function.blocks
    reads = [i for b in blocks for i in b.instrs if i.id in validated_reads(blocks)]
    assert len(reads) == 2 and all(i.opcode == "load" for i in reads), reads  # the early exit's and the loop's
    leaked = module.kernel("leaked_read").function.blocks
    loads = [i for b in leaked for i in b.instrs if i.id in validated_reads(leaked)]
    assert len(loads) == 2  # the kept read is not one of them


def test_a_float_max_written_with_compare_and_swap_has_no_race(tmp_path: Path):
    bufs = ["x=float32:128", "result=float32:1"]
    assert _races(tmp_path, "k.cu", CUDA, "block_max", bufs, ["n=128"]) == []
    assert _races(tmp_path, "k.cl", OPENCL, "reduce_max", ["x=float32:128", "m=float32:1"], []) == []


def test_a_read_whose_value_is_kept_or_a_plain_store_still_races(tmp_path: Path):
    bufs = ["x=float32:128", "result=float32:1"]
    leaked = _races(tmp_path, "k.cu", CUDA, "leaked_read", [*bufs, "seen=float32:128"], ["n=128"])
    assert leaked and all(f["severity"] == "error" for f in leaked), leaked
    assert {f["first"]["line"] for f in leaked} | {f["second"]["line"] for f in leaked} >= {19}
    stored = _races(tmp_path, "k.cu", CUDA, "plain_store", bufs, ["n=128"])
    assert stored and any(27 in (f["first"]["line"], f["second"]["line"]) for f in stored), stored
