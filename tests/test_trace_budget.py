"""Traces within a memory budget (issue 31): compact columns, a limit in bytes, and detection in batches that
gives what one judgment of the whole trace gives."""

from __future__ import annotations

import numpy as np
import pytest

from simu.api import load_source
from simu.detect import Context, DetectOptions, detect
from simu.interp import Limits, run
from simu.interp.trace import ACCESS_BYTES, VALUE_BYTES, WRITE
from simu.launch.model import Launch

TILED = """
#define TILE 8
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int n) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    SECOND
  }
  C[row * n + col] = acc;
}
"""

# one kernel per rule that looks across a block's accesses: a race in block 2's first epoch only, a barrier
# nothing needs, a read of a word no thread wrote, a bank conflict, an inter-block race on global memory
RULES = """
__kernel void early(__global int *out) {
  __local int s[64];
  int l = get_local_id(0);
  s[l] = l;
  if (get_group_id(0) == 2 && l == 40) s[7] = 1;  // another warp than s[7]'s own writer
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[63 - l];
}
__kernel void redundant(__global int *out) {
  __local int s[64];
  int l = get_local_id(0);
  s[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[l];
}
__kernel void unwritten(__global int *out) {
  __local int s[64];
  int l = get_local_id(0);
  if (l < 32) s[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[63 - l];
}
__kernel void banks(__global int *out) {
  __local int s[64 * 4];
  int l = get_local_id(0);
  s[l * 4] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[l * 4];
}
__kernel void across(__global int *out) {
  out[get_local_id(0)] = get_group_id(0);
}
"""


def _matmul(second_barrier: bool):
    src = TILED.replace("SECOND", "barrier(CLK_LOCAL_MEM_FENCE);" if second_barrier else "")
    return load_source(src, "opencl", path="tiled.cl")


def _launch(n: int) -> Launch:
    rng = np.random.default_rng(0)
    return Launch((n // 8, n // 8, 1), (8, 8, 1), {"A": rng.random(n * n, dtype=np.float32),
                                                   "B": rng.random(n * n, dtype=np.float32),
                                                   "C": np.zeros(n * n, np.float32), "n": np.int32(n)})


def _judged(module, kernel: str, launch: Launch, batch_rows: int, limits: Limits | None = None):
    result = run(module, kernel, launch, limits)
    ctx = Context(module.kernel(kernel), launch, result, DetectOptions(batch_rows=batch_rows))
    return result, [(f.kind, f.severity, f.message, f.count, f.first and f.first.line, f.second and f.second.line)
                    for f in detect(ctx)], ctx


def test_a_launch_past_the_byte_budget_ends_incomplete_naming_the_bytes():
    result, _, _ = _judged(_matmul(True), "matmul", _launch(32), 1 << 22, Limits(max_trace_bytes=100_000))
    assert result.outcome.status == "incomplete"
    assert "trace limit of 100000 bytes reached" in result.outcome.reason
    assert len(result.trace) * ACCESS_BYTES <= 100_000 + 16 * ACCESS_BYTES * 64


def test_the_compact_trace_keeps_values_of_stores_only_and_constant_columns_cost_nothing():
    result = run(_matmul(True), "matmul", _launch(16))
    t = result.trace
    writes = np.flatnonzero(t.action != 0)
    assert (t.value_rows == writes).all() and len(t.written) == len(writes)
    assert (t.values_at(writes) == t.value[writes]).all() and not t.value[t.action == 0].any()
    assert t.size.strides == (0,) and t.warp_epoch.strides == (0,)  # one value: a broadcast view
    assert t.epoch.dtype == np.uint8
    assert t.nbytes <= len(t) * ACCESS_BYTES + len(t.written) * VALUE_BYTES  # what the budget counts
    assert t.step.itemsize <= 2 and t.conv_step.itemsize <= 2  # counters narrowed to their range
    stored = t.action == WRITE
    assert np.array_equal(t.values_at(np.flatnonzero(stored)).view(np.uint32)[::2],
                          t.value[stored].view(np.uint32)[::2])


@pytest.mark.parametrize("second_barrier", [True, False])
def test_batches_of_blocks_judge_the_tiled_matmul_as_the_whole_trace_does(second_barrier: bool):
    module = _matmul(second_barrier)
    _, whole, ctx = _judged(module, "matmul", _launch(32), 1 << 22)
    _, batched, bctx = _judged(module, "matmul", _launch(32), 300)
    assert len(ctx.batches) == 1 and len(bctx.batches) > 4
    assert batched == whole
    races = [f for f in whole if f[0] == "race"]
    assert bool(races) != second_barrier
    if not second_barrier:
        assert {(f[4], f[5]) for f in races} == {(13, 11)}  # this tile's reads against the next tile's store


@pytest.mark.parametrize("kernel", ["early", "redundant", "unwritten", "banks", "across"])
def test_every_rule_gives_the_same_findings_batch_by_batch(kernel: str):
    module = load_source(RULES, "opencl", path="rules.cl")
    launch = Launch((6, 1, 1), (64, 1, 1), {"out": np.zeros(6 * 64, np.int32)})
    _, whole, _ = _judged(module, kernel, launch, 1 << 22)
    _, batched, bctx = _judged(module, kernel, launch, 64)
    assert len(bctx.batches) >= (1 if kernel == "across" else 2)  # global accesses stay one batch
    assert batched == whole and whole
    if kernel == "early":  # the race of block 2's first epoch, judged in a batch of its own
        assert any(f[0] == "race" and "block (2,0,0)" in f[2] for f in whole), whole


def test_bank_degrees_by_table_match_counting_words_bank_by_bank():
    from simu.detect.perf import BANKS, _degrees

    rng = np.random.default_rng(3)
    sizes = rng.integers(1, 33, 200)
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    word = rng.integers(0, 300, int(sizes.sum())) + 1000
    for width, sz, st in ((32, sizes, starts), (32, np.full(50, 32), np.arange(50) * 32)):
        w = word[:int(sz.sum())]
        got = _degrees(w, int(w.max() - w.min() + 1), st, sz, width)
        want = [max(np.bincount(np.unique(w[a:a + n]) % BANKS)) for a, n in zip(st, sz, strict=True)]
        assert got.tolist() == want


def test_pairs_with_a_modifying_row_are_all_pairs_less_the_read_read_ones_in_order():
    from simu.detect.pairs import modifying_pairs_within_segments, pairs_within_segments

    rng = np.random.default_rng(1)
    for _ in range(200):
        n = int(rng.integers(0, 60))
        seg = np.sort(rng.integers(0, n // 4 + 1, n))
        modifies = rng.random(n) < rng.random()
        i, j = pairs_within_segments(seg)
        kept = modifies[i] | modifies[j]
        a, b = modifying_pairs_within_segments(seg, modifies)
        assert np.array_equal(a, i[kept]) and np.array_equal(b, j[kept])
