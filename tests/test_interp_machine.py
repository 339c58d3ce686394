"""The machine itself: barriers and divergence, budgets, unsupported constructs, trace columns."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from simu.api import load_source
from simu.cli import app
from simu.errors import UnsupportedError
from simu.interp import Limits, run
from simu.interp.trace import ATOMIC, READ, WRITE
from simu.launch import Launch, LocalBuffer

BARRIERS = r"""
__global__ void conditional(int *a) {          // line 2
  if (threadIdx.x < 16) {
    __syncthreads();                            // line 4
  }
  a[threadIdx.x] = 1;
}
__global__ void early_return(int *a, int n) {
  if (threadIdx.x >= n) return;
  __syncthreads();                              // line 10
  a[threadIdx.x] = 2;
}
__global__ void loop_trip(int *a) {
  for (int i = 0; i < (int)threadIdx.x % 3; ++i) {
    __syncthreads();                            // line 15
    a[threadIdx.x] += i;
  }
}
__global__ void uniform(int *a, int n) {
  if (n > 3) { __syncthreads(); }
  for (int i = 0; i < n; ++i) { a[threadIdx.x] += i; __syncthreads(); }
}
__global__ void two_barriers(int *a) {
  if (threadIdx.x & 1) { __syncthreads(); } else { __syncthreads(); }
  a[threadIdx.x] = 3;
}
"""


@pytest.fixture(scope="module")
def barriers():
    return load_source(BARRIERS, "cuda", path="barriers.cu")


def _line(module, kernel, iid):
    return module.kernel(kernel).function and next(
        i.loc.line for b in module.kernel(kernel).function.blocks for i in b.instrs if i.id == iid)


def test_divergence_under_thread_dependent_condition(barriers):
    r = run(barriers, "conditional", Launch(2, 64, {"a": np.zeros(64, np.int32)}))
    assert r.outcome.completed
    assert [d.block for d in r.trace.divergences] == [0, 1]
    d = r.trace.divergences[0]
    (iid, waiting), = d.waiting.items()
    assert _line(barriers, "conditional", iid) == 4
    assert waiting == list(range(16))
    assert (r.buffers["a"] == 1).all()  # the block was released and the run completed


def test_divergence_after_early_return(barriers):
    r = run(barriers, "early_return", Launch(1, 64, {"a": np.zeros(64, np.int32), "n": 40}))
    assert len(r.trace.divergences) == 1
    d = r.trace.divergences[0]
    assert d.exited == list(range(40, 64))
    assert _line(barriers, "early_return", d.barriers[0]) == 10
    r = run(barriers, "early_return", Launch(1, 64, {"a": np.zeros(64, np.int32), "n": 64}))
    assert r.trace.divergences == []


def test_divergence_in_loop_with_thread_dependent_trip_count(barriers):
    r = run(barriers, "loop_trip", Launch(1, 32, {"a": np.zeros(32, np.int32)}))
    assert r.trace.divergences
    assert all(_line(barriers, "loop_trip", d.barriers[0]) == 15 for d in r.trace.divergences)


def test_uniform_conditions_record_nothing(barriers):
    r = run(barriers, "uniform", Launch(3, 96, {"a": np.zeros(96, np.int32), "n": 5}))
    assert r.outcome.completed and r.trace.divergences == []
    assert sorted(r.trace.barriers_reached.values()) == [1, 5]  # the if once, the loop barrier 5 times


def test_different_barriers_are_divergence(barriers):
    r = run(barriers, "two_barriers", Launch(1, 64, {"a": np.zeros(64, np.int32)}))
    (d,) = r.trace.divergences
    assert len(d.barriers) == 2 and sorted(len(v) for v in d.waiting.values()) == [32, 32]


def test_epochs_advance_at_barriers():
    src = """__kernel void k(__global int *a, __local int *s) {
      int l = get_local_id(0);
      s[l] = l;
      barrier(CLK_LOCAL_MEM_FENCE);
      a[get_global_id(0)] = s[get_local_size(0) - 1 - l];
      barrier(CLK_GLOBAL_MEM_FENCE);
      a[get_global_id(0)] += 1;
    }"""
    m = load_source(src, "opencl", path="k.cl")
    r = run(m, "k", Launch(2, 32, {"a": np.zeros(64, np.int32), "s": LocalBuffer(128)}))
    t = r.trace
    assert (r.buffers["a"] == np.tile(np.arange(31, -1, -1) + 1, 2)).all()
    shared = t.space == 1
    # local fence: the shared write is epoch 0, the shared read epoch 1
    assert set(t.epoch[shared & (t.action == WRITE)]) == {0}
    assert set(t.epoch[shared & (t.action == READ)]) == {1}
    # global epoch advances only at the global fence (second barrier)
    glob = t.space == 0
    assert sorted(set(t.epoch[glob])) == [0, 1]


def test_trace_columns_identify_threads_and_values():
    src = "__global__ void k(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x * 7; atomicAdd(a, 1); }"
    m = load_source(src, "cuda", path="k.cu")
    r = run(m, None, Launch(2, 40, {"a": np.zeros(80, np.int32)}))
    t = r.trace
    writes = t.action == WRITE
    assert sorted(t.lane[writes].tolist()) == list(range(80))
    assert (t.value[writes].astype(np.int64) == (t.lane[writes] % 40) * 7).all()
    assert (t.action == ATOMIC).sum() == 80
    assert r.buffers["a"][0] == 80


ATOMIC_ORDER = """
__kernel void counters(__global const uint *data, __global uint *inc_old, __global int *add_old,
                       __global uint *wide, __global uint *out_inc, __global int *out_add) {
  __local uint inc[64];
  __local int add[64];
  int l = get_local_id(0), g = get_global_id(0);
  if (l < 64) { inc[l] = l; add[l] = -l; }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint w = data[g] % 64;
  inc_old[g] = atomic_inc(&inc[w]);                       /* one operand for every lane, a block's words */
  add_old[g] = atomic_sub(&add[w], (int)(data[g] >> 8) % 1000 - 500);  /* an operand per lane */
  atomic_inc(&wide[(data[g] % 5) * 40000]);               /* words 160 KiB apart */
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 64) { out_inc[get_group_id(0) * 64 + l] = inc[l]; out_add[get_group_id(0) * 64 + l] = add[l]; }
}"""


def test_atomics_of_one_step_apply_one_lane_after_another_in_lane_order():
    blocks, size = 3, 256
    n = blocks * size
    data = np.random.default_rng(7).integers(0, 1 << 20, n).astype(np.uint32)
    m = load_source(ATOMIC_ORDER, "opencl", path="counters.cl")
    r = run(m, "counters", Launch(blocks, size, {
        "data": data, "inc_old": np.zeros(n, np.uint32), "add_old": np.zeros(n, np.int32),
        "wide": np.zeros(200_000, np.uint32), "out_inc": np.zeros(blocks * 64, np.uint32),
        "out_add": np.zeros(blocks * 64, np.int32)}))
    inc_old, add_old = np.zeros(n, np.int64), np.zeros(n, np.int64)
    inc_end, add_end = np.zeros(blocks * 64, np.int64), np.zeros(blocks * 64, np.int64)
    for b in range(blocks):  # the lanes of a block one after another, each on its block's words
        inc, add = np.arange(64), -np.arange(64)
        for g in range(b * size, (b + 1) * size):
            w = int(data[g]) % 64
            inc_old[g], add_old[g] = inc[w], add[w]
            inc[w] += 1
            add[w] -= int(data[g] >> 8) % 1000 - 500
        inc_end[b * 64:(b + 1) * 64], add_end[b * 64:(b + 1) * 64] = inc, add
    assert (r.buffers["inc_old"] == inc_old).all() and (r.buffers["add_old"] == add_old).all()
    assert (r.buffers["out_inc"] == inc_end).all() and (r.buffers["out_add"] == add_end).all()
    wide = r.buffers["wide"]
    assert (wide[np.arange(5) * 40000] == np.bincount(data % 5, minlength=5)).all() and wide.sum() == n


def test_infinite_loop_stops_with_reason():
    src = "__global__ void spin(int *a) { while (a[0] == 0) { } }"
    m = load_source(src, "cuda", path="spin.cu")
    r = run(m, None, Launch(1, 32, {"a": np.zeros(4, np.int32)}), Limits(max_seconds=1.0))
    assert r.outcome.status == "incomplete"
    assert "deadlock" in r.outcome.reason and "spin.cu:1" in r.outcome.reason  # a spin-wait nobody ends


def test_unsupported_builtin_names_function_and_line():
    src = "extern __device__ int mystery(int);\n__global__ void k(int *a) {\n  a[0] = mystery(a[1]);\n}\n"
    m = load_source(src, "cuda", path="u.cu")
    with pytest.raises(UnsupportedError) as exc:
        run(m, None, Launch(1, 32, {"a": np.zeros(4, np.int32)}))
    assert "mystery" in str(exc.value) and "u.cu:3" in str(exc.value)


def test_out_of_bounds_is_recorded_not_fatal():
    src = "__kernel void k(__global int *a) { a[get_global_id(0) + 1] = 5; }"
    m = load_source(src, "opencl", path="oob.cl")
    r = run(m, None, Launch(1, 8, {"a": np.zeros(8, np.int32)}))
    assert r.outcome.completed
    assert [e.kind for e in r.memory_errors] == ["out-of-bounds"]
    assert r.memory_errors[0].lane == 7 and r.memory_errors[0].offset == 32
    assert (r.buffers["a"][1:] == 5).all()


def test_ten_million_access_trace_fits_in_one_gib():
    from simu.interp.trace import TraceBuilder

    tb = TraceBuilder()
    lanes = np.arange(4096, dtype=np.int64)
    zeros32 = np.zeros(4096, np.int32)
    for step in range(2442):  # ~10 million accesses
        tb.add(lanes, lanes * 4, 4, 1, zeros32, zeros32, WRITE, 7, step, lanes.astype(np.uint64))
    t = tb.finish()
    assert len(t) >= 10_000_000
    assert t.nbytes < 1 << 30


def test_run_command_saves_and_loads(tmp_path):
    src = tmp_path / "k.cl"
    src.write_text("__kernel void twice(__global float *a, int n) "
                   "{ int i = get_global_id(0); if (i < n) a[i] *= 2; }\n")
    out = tmp_path / "run.npz"
    runner = CliRunner()
    res = runner.invoke(app, ["run", str(src), "--grid", "2", "--block", "16", "--arg", "n=20",
                              "--buffer", "a=float32:32:ramp", "--save", str(out)])
    assert res.exit_code == 0, res.output
    data = np.load(out)
    assert (data["a.out"][:20] == 2 * np.arange(20)).all() and (data["a.out"][20:] == np.arange(20, 32)).all()
    out2 = tmp_path / "run2.npz"
    res = runner.invoke(app, ["run", str(src), "--grid", "2", "--block", "16", "--arg", "n=20",
                              "--load", str(out), "--save", str(out2)])
    assert res.exit_code == 0, res.output
    assert (np.load(out2)["a.in"] == data["a.in"]).all()


def test_opencl_sub_group_collectives_act_per_warp():
    src = """__kernel void k(__global const int *in, __global int *red, __global int *scan, __global int *sid) {
      int g = get_global_id(0);
      red[g] = sub_group_reduce_add(in[g]);
      scan[g] = sub_group_scan_exclusive_add(in[g]);
      sid[g] = get_sub_group_id() * 100 + get_sub_group_local_id();
    }"""
    m = load_source(src, "opencl", path="sg.cl")
    x = np.arange(96, dtype=np.int32)
    r = run(m, None, Launch(1, 96, {"in": x, "red": np.zeros(96, np.int32), "scan": np.zeros(96, np.int32),
                                     "sid": np.zeros(96, np.int32)}))
    w = x.reshape(3, 32)
    assert (r.buffers["red"] == np.repeat(w.sum(1), 32)).all()
    assert (r.buffers["scan"] == (np.cumsum(w, 1) - w).ravel()).all()
    assert (r.buffers["sid"] == (np.arange(96) // 32) * 100 + np.arange(96) % 32).all()


def test_compiled_programs_are_cached_per_kernel_and_released_with_it():
    import gc

    from simu.interp import compiler

    m = load_source("__global__ void k(int *a) { a[threadIdx.x] = 1; }", "cuda", path="k.cu")
    k = m.kernel()
    prog = compiler.compile_kernel(m, k)
    assert compiler.compile_kernel(m, k) is prog
    assert not hasattr(k, "_program")
    gc.collect()  # earlier tests' garbage goes first: only this kernel's program is counted below
    n = len(compiler._PROGRAMS)
    del k, prog, m
    gc.collect()
    assert len(compiler._PROGRAMS) == n - 1


def test_vector_store_entirely_out_of_bounds_is_reported_not_a_crash(tmp_path):
    """Every lane's int2 store below the buffer: the in-bounds part is empty (seen on bullet3's FillInt2Kernel)."""
    src = tmp_path / "fill2.cl"
    src.write_text("__kernel void fill2(__global int2 *dst, int2 value, const int offset, const int n)\n"
                   "{\n    int i = get_global_id(0);\n    if (i < n)\n        dst[i + offset] = value;\n}\n")
    res = CliRunner().invoke(app, ["check", str(src), "--grid", "1", "--block", "64", "--arg", "offset=-100",
                                   "--arg", "n=64", "--buffer", "dst=int32:128", "--format", "json",
                                   "-o", str(tmp_path / "out.json")])
    assert "Traceback" not in res.output and "ValueError" not in res.output
    doc = json.loads((tmp_path / "out.json").read_text())
    (kernel,) = [k for f in doc["files"] for k in f["kernels"]]
    assert kernel["status"] == "analysed"
    assert {f["kind"] for f in kernel["findings"]} == {"out-of-bounds"}


def test_geometric_functions_of_a_constant_vector_and_a_register():
    """``dot((float4)(1.0f), tmp[i])``: the constant splat is the first operand (seen on Paddle-Lite's softmax)."""
    src = """__kernel void k(__global const float4 *in, __global float *out, __global float *far) {
      int g = get_global_id(0);
      out[g] = dot((float4)(1.0f), in[g]);
      far[g] = distance((float4)(0.0f), in[g]);
    }"""
    m = load_source(src, "opencl", path="dot.cl")
    x = np.arange(64, dtype=np.float32).reshape(16, 4)
    r = run(m, None, Launch(1, 16, {"in": x, "out": np.zeros(16, np.float32), "far": np.zeros(16, np.float32)}))
    assert np.allclose(r.buffers["out"], x.sum(1))
    assert np.allclose(r.buffers["far"], np.sqrt((x.astype(np.float64) ** 2).sum(1)))
