"""Thrust, CUB and libcu++ (the CCCL headers of the pinned ``nvidia-cuda-cccl-cu12`` wheel) on top of
simu's runtime shim: block and warp collectives compile, run on the machine model with exact
results, and a classic misuse (TempStorage reused without a barrier) is a race."""

from __future__ import annotations

import numpy as np
import pytest

from simu.api import load_source
from simu.frontend.cuda_headers import cccl_include_dir
from simu.interp import run
from simu.launch import Launch
from simu.pipeline import check_launches

pytestmark = pytest.mark.skipif(cccl_include_dir() is None, reason="nvidia-cuda-cccl-cu12 is not installed")


def _run(src: str, grid: int, block: int, args: dict, kernel: str | None = None):
    m = load_source(src, "cuda", path="cccl.cu")
    k = next(k for k in m.kernels if kernel is None or kernel in k.name)
    r = run(m, k, Launch(grid=(grid, 1, 1), block=(block, 1, 1), args=args))
    assert r.outcome.completed, str(r.outcome)
    assert not r.memory_errors, r.memory_errors[:3]
    return r


def _kinds(src: str, grid: int, block: int, args: dict) -> set[str]:
    m = load_source(src, "cuda", path="cccl.cu")
    k = next(k for k in m.kernels if not k.name.startswith("_ZN"))
    report = check_launches(m, k, [Launch(grid=(grid, 1, 1), block=(block, 1, 1), args=args)])
    return {f.kind for f in report.findings}


RNG = np.random.default_rng(7)

BLOCK_REDUCE = r"""
#include <cub/block/block_reduce.cuh>
template <int B, cub::BlockReduceAlgorithm A>
__device__ void reduce(const int *in, int *sum, int *mx) {
  using BR = cub::BlockReduce<int, B, A>;
  __shared__ typename BR::TempStorage tmp;
  int v = in[blockIdx.x * B + threadIdx.x];
  int s = BR(tmp).Sum(v);
  __syncthreads();
  int m = BR(tmp).Reduce(v, cub::Max());
  if (threadIdx.x == 0) { sum[blockIdx.x] = s; mx[blockIdx.x] = m; }
}
__global__ void reduce_raking(const int *in, int *sum, int *mx) {
  reduce<128, cub::BLOCK_REDUCE_RAKING>(in, sum, mx);
}
__global__ void reduce_warp(const int *in, int *sum, int *mx) {
  reduce<128, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(in, sum, mx);
}
"""


@pytest.mark.parametrize("kernel", ["reduce_raking", "reduce_warp"])
def test_block_reduce_sum_and_max(kernel):
    x = RNG.integers(-1000, 1000, 3 * 128).astype(np.int32)
    r = _run(BLOCK_REDUCE, 3, 128, {"in": x, "sum": np.zeros(3, np.int32), "mx": np.zeros(3, np.int32)}, kernel)
    assert r.buffers["sum"].tolist() == x.reshape(3, 128).sum(1).tolist()
    assert r.buffers["mx"].tolist() == x.reshape(3, 128).max(1).tolist()


BLOCK_SCAN = r"""
#include <cub/block/block_scan.cuh>
__global__ void scan(const int *in, int *incl, int *excl, int *total) {
  using BS = cub::BlockScan<int, 64>;
  __shared__ typename BS::TempStorage tmp;
  int i = blockIdx.x * 64 + threadIdx.x, a, b, agg;
  BS(tmp).InclusiveSum(in[i], a);
  __syncthreads();
  BS(tmp).ExclusiveSum(in[i], b, agg);
  incl[i] = a; excl[i] = b;
  if (threadIdx.x == 0) total[blockIdx.x] = agg;
}
"""


def test_block_scan_inclusive_exclusive():
    x = RNG.integers(0, 100, 2 * 64).astype(np.int32)
    z = lambda n: np.zeros(n, np.int32)
    r = _run(BLOCK_SCAN, 2, 64, {"in": x, "incl": z(128), "excl": z(128), "total": z(2)})
    inc = np.cumsum(x.reshape(2, 64), 1)
    assert r.buffers["incl"].tolist() == inc.ravel().tolist()
    assert r.buffers["excl"].tolist() == (inc - x.reshape(2, 64)).ravel().tolist()
    assert r.buffers["total"].tolist() == inc[:, -1].tolist()


WARP_REDUCE = r"""
#include <cub/warp/warp_reduce.cuh>
__global__ void warp_sum(const float *in, float *out) {
  using WR = cub::WarpReduce<float>;
  __shared__ typename WR::TempStorage tmp[4];
  int w = threadIdx.x / 32;
  float s = WR(tmp[w]).Sum(in[threadIdx.x]);
  if (threadIdx.x % 32 == 0) out[w] = s;
}
"""


def test_warp_reduce_sum():
    x = RNG.integers(-50, 50, 128).astype(np.float32)  # integral values: any summation order is exact
    r = _run(WARP_REDUCE, 1, 128, {"in": x, "out": np.zeros(4, np.float32)})
    assert r.buffers["out"].tolist() == x.reshape(4, 32).sum(1).tolist()


LOAD_SORT_STORE = r"""
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_radix_sort.cuh>
__global__ void sort_tiles(const unsigned *in, unsigned *out) {
  using Load = cub::BlockLoad<unsigned, 32, 4, cub::BLOCK_LOAD_TRANSPOSE>;
  using Store = cub::BlockStore<unsigned, 32, 4, cub::BLOCK_STORE_TRANSPOSE>;
  using Sort = cub::BlockRadixSort<unsigned, 32, 4>;
  __shared__ union { typename Load::TempStorage l; typename Store::TempStorage s;
                     typename Sort::TempStorage r; } tmp;
  unsigned items[4];
  int base = blockIdx.x * 128;
  Load(tmp.l).Load(in + base, items);
  __syncthreads();
  Sort(tmp.r).Sort(items);
  __syncthreads();
  Store(tmp.s).Store(out + base, items);
}
"""


def test_block_load_radix_sort_store():
    x = RNG.integers(0, 1 << 20, 2 * 128).astype(np.uint32)
    r = _run(LOAD_SORT_STORE, 2, 32, {"in": x, "out": np.zeros(256, np.uint32)})
    assert r.buffers["out"].tolist() == np.sort(x.reshape(2, 128), 1).ravel().tolist()


LIBCUXX = r"""
#include <cuda/std/limits>
#include <cuda/atomic>
__global__ void count_and_min(const int *in, int *count, int *lo) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  cuda::atomic_ref<int, cuda::thread_scope_device> c(*count);
  if (v > 0) c.fetch_add(1, cuda::std::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_device> m(*lo);
  m.fetch_min(v);
  if (v == cuda::std::numeric_limits<int>::max()) *lo = 0;
}
"""


def test_libcudacxx_atomic_ref_and_numeric_limits():
    x = RNG.integers(-100, 100, 2 * 64).astype(np.int32)
    r = _run(LIBCUXX, 2, 64, {"in": x, "count": np.zeros(1, np.int32),
                              "lo": np.full(1, np.iinfo(np.int32).max, np.int32)})
    assert int(r.buffers["count"][0]) == int((x > 0).sum())
    assert int(r.buffers["lo"][0]) == int(x.min())


REUSED_TEMP_STORAGE = r"""
#include <cub/block/block_reduce.cuh>
__global__ void sum_and_max(const int *in, int *out) {
  using BR = cub::BlockReduce<int, 128>;
  __shared__ typename BR::TempStorage tmp;
  int v = in[threadIdx.x];
  int s = BR(tmp).Sum(v);
  int m = BR(tmp).Reduce(v, cub::Max());  // BUG: tmp reused without __syncthreads()
  if (threadIdx.x == 0) { out[0] = s; out[1] = m; }
}
"""


def test_temp_storage_reused_without_barrier_is_a_race():
    x = RNG.integers(0, 100, 128).astype(np.int32)
    args = {"in": x, "out": np.zeros(2, np.int32)}
    assert "race" in _kinds(REUSED_TEMP_STORAGE, 1, 128, args)
    fixed = REUSED_TEMP_STORAGE.replace("int m = BR", "__syncthreads();\n  int m = BR")
    assert "race" not in _kinds(fixed, 1, 128, args)


THRUST_HOST = r"""
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <cub/device/device_reduce.cuh>
__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
float host(int n) {
  thrust::device_vector<float> v(n, 1.0f);
  scale<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(v.data()), 2.0f, n);
  thrust::sort(v.begin(), v.end());
  float *out = nullptr; void *tmp = nullptr; size_t bytes = 0;
  cub::DeviceReduce::Sum(tmp, bytes, thrust::raw_pointer_cast(v.data()), out, n);
  return thrust::reduce(v.begin(), v.end());
}
"""


def test_thrust_and_device_reduce_host_code_compiles_and_own_kernel_runs():
    m = load_source(THRUST_HOST, "cuda", path="thrust_host.cu")
    names = [k.name for k in m.kernels]
    assert len(names) == 1 and "scale" in names[0], names  # the library's own kernels are not the file's
    x = np.arange(300, dtype=np.float32)
    k = next(k for k in m.kernels if "scale" in k.name)
    r = run(m, k, Launch(grid=(2, 1, 1), block=(256, 1, 1), args={"x": x.copy(), "a": 2.0, "n": 300}))
    assert r.outcome.completed
    assert r.buffers["x"].tolist() == (2 * x).tolist()


def test_files_without_cccl_do_not_see_it():
    m = load_source("__global__ void k(int *p) { p[threadIdx.x] = (int)sizeof(double_t); }", "cuda")
    r = run(m, m.kernels[0], Launch(grid=(1, 1, 1), block=(4, 1, 1), args={"p": np.zeros(4, np.int32)}))
    assert r.buffers["p"].tolist() == [8] * 4


PTX_BLOCKS = r"""
__global__ void ptx(const int *in, int *sum, unsigned *bits, long long *wide) {
  int v = in[threadIdx.x], r;
  asm volatile("{ .reg .s32 r0; .reg .pred p; shfl.sync.down.b32 r0|p, %1, %2, %3, %5;"
               " @p add.s32 r0, r0, %4; mov.s32 %0, r0; }"
               : "=r"(r) : "r"(v), "r"(16), "r"(0x1f), "r"(v), "r"(0xffffffff));
  sum[threadIdx.x] = r;
  unsigned b;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(b) : "r"((unsigned)v), "r"(4), "r"(8));
  bits[threadIdx.x] = b;
  long long w = (long long)v << 33, o;
  asm volatile("{ .reg .u32 lo; .reg .u32 hi; .reg .pred p; mov.b64 {lo, hi}, %1;"
               " shfl.sync.up.b32 lo|p, lo, %2, %3, %4; shfl.sync.up.b32 hi|p, hi, %2, %3, %4;"
               " mov.b64 %0, {lo, hi}; @p add.s64 %0, %0, %1; }"
               : "=l"(o) : "l"(w), "r"(1), "r"(0), "r"(0xffffffff));
  wide[threadIdx.x] = o;
}
"""


def test_ptx_blocks_of_cub_shape():
    """The multi-instruction PTX forms CUB's warp collectives use (simu/interp/ptx_sequences.py)."""
    x = RNG.integers(0, 1 << 20, 32).astype(np.int32)
    r = _run(PTX_BLOCKS, 1, 32, {"in": x, "sum": np.zeros(32, np.int32), "bits": np.zeros(32, np.uint32),
                                 "wide": np.zeros(32, np.int64)})
    lane = np.arange(32)
    assert r.buffers["sum"].tolist() == np.where(lane < 16, x + np.roll(x, -16), x).tolist()
    assert r.buffers["bits"].tolist() == ((x >> 4) & 0xFF).tolist()
    w = x.astype(np.int64) << 33
    assert r.buffers["wide"].tolist() == np.where(lane >= 1, np.roll(w, 1) + w, w).tolist()


def test_searched_launches_keep_cub_block_size(tmp_path):
    """CUB's BlockReduce<int, 128> needs blockDim (128, 1, 1): the frontend marks the kernel with it, so a
    searched launch never breaks the library's contract (no false races), and the real bug is still found."""
    import json

    from typer.testing import CliRunner

    from simu.cli import app

    m = load_source(BLOCK_REDUCE, "cuda", path="cccl.cu")
    assert {k.reqd_block for k in m.kernels} == {(128, 1, 1)}
    kinds = {}
    for name, src in (("ok.cu", BLOCK_REDUCE), ("racy.cu", REUSED_TEMP_STORAGE)):
        (tmp_path / name).write_text(src)
        res = CliRunner().invoke(app, ["check", str(tmp_path / name), "--format", "json", "--budget", "12"])
        report = json.loads(res.output)
        kinds[name] = {f["kind"] for f in report["files"][0]["kernels"][0]["findings"]}
    assert not kinds["ok.cu"] & {"race", "out-of-bounds", "uninitialized"}, kinds
    assert "race" in kinds["racy.cu"], kinds
