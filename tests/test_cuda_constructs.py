"""CUDA constructs that used to be unsupported: inline PTX (simu/interp/ptx.py) and grid-wide
barriers (simu/interp/grid_sync.py).  Every construct is modelled or reported as unsupported with
its source line, never silently skipped."""

from __future__ import annotations

import numpy as np
import pytest

from simu import codes
from simu.api import load_source
from simu.errors import UnsupportedError
from simu.interp import run
from simu.interp.builtins import NUM_SMS
from simu.interp.trace import READ
from simu.launch import Launch
from simu.launch.model import Schedule
from simu.pipeline import check_launches


def _module(src: str, name: str = "k.cu"):
    return load_source(src, "cuda", path=name)


def _run(module, grid, block, args, **kw):
    r = run(module, module.kernels[0], Launch(grid=grid, block=block, args=args), **kw)
    assert r.outcome.completed, str(r.outcome)
    assert not r.memory_errors, r.memory_errors[:3]
    return r


def _report(src: str, grid, block, args, name: str = "k.cu"):
    m = _module(src, name)
    return check_launches(m, m.kernels[0], [Launch(grid=grid, block=block, args=args)])


def _kinds(report):
    return sorted({(f.kind, f.detail.get("scope", "")) for f in report.findings})


# ==============================================================================================
# Inline PTX
# ==============================================================================================

SREGS = r"""
__global__ void sregs(unsigned *out) {
  unsigned lane, warp, sm, nsm, lt, tid;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm("mov.u32 %0, %%tid.x;" : "=r"(tid));
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[6 * i + 0] = lane;
  out[6 * i + 1] = warp;
  out[6 * i + 2] = sm;
  out[6 * i + 3] = nsm;
  out[6 * i + 4] = lt;
  out[6 * i + 5] = tid;
}
"""


@pytest.mark.parametrize("grid,block,escape", [(3, 40, "%%"), (10, 64, "%%"), (3, 40, "%")])
def test_ptx_special_registers(grid, block, escape):
    # nvcc takes a special register written with one %, which clang rejects ("invalid % escape"): read as %%
    m = _module(SREGS.replace("%%", escape))
    n = grid * block
    r = _run(m, (grid, 1, 1), (block, 1, 1), {"out": np.zeros(6 * n, np.uint32)})
    out = r.buffers["out"].reshape(n, 6)
    i = np.arange(n)
    local = i % block
    lane = local % 32
    assert np.array_equal(out[:, 0], lane)
    assert np.array_equal(out[:, 1], local // 32)
    assert np.array_equal(out[:, 2], (i // block) % NUM_SMS)
    assert (out[:, 3] == NUM_SMS).all()
    assert np.array_equal(out[:, 4], (1 << lane) - 1)
    assert np.array_equal(out[:, 5], local)


CLOCKS = r"""
__global__ void clocks(long long *out) {
  long long c0, c1, t0; unsigned c32;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  asm volatile("membar.cta;");
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c32));
  c1 = clock64();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[4 * i + 0] = c0;
  out[4 * i + 1] = c1;
  out[4 * i + 2] = t0;
  out[4 * i + 3] = (long long)c32;
}
"""


def test_ptx_clocks_increase_and_fences_are_noops():
    m = _module(CLOCKS)
    r = _run(m, (2, 1, 1), (32, 1, 1), {"out": np.zeros(4 * 64, np.int64)})
    out = r.buffers["out"].reshape(64, 4)
    assert (out[:, 1] > out[:, 0]).all()  # clock64() (NVVM) after %clock64 (PTX)
    assert (out[:, 2] > 0).all() and (out[:, 3] > out[:, 0]).all()


SHFL = r"""
__global__ void shfl(const int *in, int *a, int *b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i], s, t;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(s) : "r"(v), "r"(3), "r"(0x1f), "r"(0xffffffff));
  asm volatile("shfl.sync.idx.b32 %0, %1, 5, 0x1f, 0xffffffff;" : "=r"(t) : "r"(v));
  a[i] = s - __shfl_xor_sync(0xffffffffu, v, 3);
  b[i] = t;
}
"""


def test_ptx_shfl_sync_matches_the_intrinsic():
    m = _module(SHFL)
    inp = np.random.default_rng(1).integers(-1000, 1000, 64).astype(np.int32)
    r = _run(m, (1, 1, 1), (64, 1, 1), {"in": inp, "a": np.ones(64, np.int32), "b": np.zeros(64, np.int32)})
    assert (r.buffers["a"] == 0).all()
    assert np.array_equal(r.buffers["b"], inp[(np.arange(64) // 32) * 32 + 5])


LDNC = r"""
__global__ void ldnc(const float *in, const int *idx, float *out, int *flag) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v; int k;
  asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(in + i));
  asm("ld.global.nc.s32 %0, [%1+4];" : "=r"(k) : "l"(idx + i));
  asm volatile("st.global.f32 [%0], %1;" :: "l"(out + i), "f"(v * 2.0f));
  if (i == 0) flag[0] = 1;
  int f;
  asm volatile("ld.global.cg.s32 %0, [%1];" : "=r"(f) : "l"(flag));
  out[i] += (float)(k + f * 0);
}
"""


def test_ptx_global_loads_and_stores_are_recorded():
    m = _module(LDNC)
    inp = np.arange(64, dtype=np.float32)
    idx = np.arange(65, dtype=np.int32) * 10
    args = {"in": inp, "idx": idx, "out": np.zeros(64, np.float32), "flag": np.zeros(1, np.int32)}
    r = _run(m, (2, 1, 1), (32, 1, 1), args)
    assert np.array_equal(r.buffers["out"], inp * 2 + idx[1:])
    t = r.trace
    asm_reads = {int(i) for i in np.unique(t.instr[t.action == READ])}
    asm_ids = {i for i, ins in r.instructions.items() if "asm" in ins.attrs}
    assert len(asm_ids & asm_reads) == 3  # the three ld.global forms
    # the plain write of flag[0] and the ld.global.cg reads of other threads race (inter-block too)
    report = _report(LDNC, (2, 1, 1), (32, 1, 1), args)
    assert report.status == codes.ANALYSED
    assert ("race", "inter-block") in _kinds(report)


BARSYNC = r"""
__global__ void rev(int *out) {
  __shared__ int s[64];
  unsigned mask;
  s[threadIdx.x] = threadIdx.x * 3;
  asm volatile("" ::: "memory");
  asm volatile("nanosleep.u32 %0;" :: "r"(100));
  SYNC
  asm volatile("activemask.b32 %0;" : "=r"(mask));
  out[threadIdx.x] = s[63 - threadIdx.x] + (mask == 0xffffffffu ? 0 : 1000);
}
"""


@pytest.mark.parametrize("sync,race", [('asm volatile("bar.sync 0;" ::: "memory");', False),
                                       ('asm volatile("barrier.sync 0;" ::: "memory");', False),
                                       ("", True)])
def test_ptx_block_barrier(sync, race):
    src = BARSYNC.replace("SYNC", sync)
    args = {"out": np.zeros(64, np.int32)}
    r = _run(_module(src), (1, 1, 1), (64, 1, 1), args)
    assert np.array_equal(r.buffers["out"], 3 * (63 - np.arange(64)))
    report = _report(src, (1, 1, 1), (64, 1, 1), args)
    assert (("race", "inter-warp") in _kinds(report)) == race, _kinds(report)


@pytest.mark.parametrize("asm,shown", [
    ('asm volatile("vabsdiff.s32.s32.s32 %0, %1, %2, %0;" : "+r"(r) : "r"(a), "r"(b));',
     "vabsdiff.s32.s32.s32 %0, %1, %2, %0;"),
    ('asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));', "mov.u32 %0, %dynamic_smem_size;"),
    ('asm volatile("{ .reg .u32 t; vabsdiff.u32.u32.u32 t, %1, %2, %1; mov.u32 %0, t; }" : "=r"(r) : "r"(a), "r"(b));',
     ".reg .u32 t;"),
    ('asm volatile("ld.global.nc.v2.s32 {%0, %1}, [%2];" : "=r"(r), "=r"(b) : "l"(p));', "ld.global.nc.v2.s32"),
])
def test_other_ptx_is_unsupported_with_its_text_and_line(asm, shown):
    src = ("__global__ void k(int *p, int a, int b) {\n"
           "  int r = 0;\n"
           f"  {asm}\n"
           "  p[threadIdx.x] = r + a + b;\n"
           "}\n")
    m = _module(src, "bad.cu")
    with pytest.raises(UnsupportedError) as err:
        run(m, m.kernels[0], Launch(grid=(1, 1, 1), block=(32, 1, 1),
                                    args={"p": np.zeros(32, np.int32), "a": 1, "b": 2}))
    assert "inline assembly (PTX)" in err.value.what and shown in err.value.what
    assert "sideeffect" not in err.value.what  # the PTX text, not the IR
    assert err.value.where is not None and err.value.where.line == 3
    report = check_launches(m, m.kernels[0], [Launch(grid=(1, 1, 1), block=(32, 1, 1),
                                                     args={"p": np.zeros(32, np.int32), "a": 1, "b": 2})])
    assert report.status == codes.UNSUPPORTED and report.where is not None and report.where.line == 3


def test_unsupported_ptx_does_not_hide_other_kernels():
    src = r"""
__global__ void uses_asm(int *p) { int r; asm volatile("sad.s32 %0, %1, %1, %1;" : "=r"(r) : "r"(p[0])); p[1] = r; }
__global__ void plain(int *p) { p[threadIdx.x] = threadIdx.x; }
"""
    m = _module(src, "two.cu")
    by_name = {k.display_name: k for k in m.kernels}
    launch = Launch(grid=(1, 1, 1), block=(32, 1, 1), args={"p": np.zeros(32, np.int32)})
    assert check_launches(m, by_name["uses_asm"], [launch]).status == codes.UNSUPPORTED
    assert check_launches(m, by_name["plain"], [launch]).status == codes.ANALYSED


# ==============================================================================================
# Grid-wide barriers (cooperative_groups::this_grid().sync())
# ==============================================================================================

GRID = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void two_phase(const int *in, int *tmp, int *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tmp[i] = in[i] * 3;
  SYNC;
  out[i] = tmp[(i + blockDim.x) % n];
}
"""


def _grid_src(sync: str) -> str:
    return GRID.replace("SYNC", sync)


def _grid_args(n):
    return {"in": np.arange(n, dtype=np.int32), "tmp": np.zeros(n, np.int32), "out": np.zeros(n, np.int32), "n": n}


@pytest.mark.parametrize("grid,block", [(4, 64), (3, 48)])
def test_grid_sync_orders_blocks(grid, block):
    n = grid * block
    src = _grid_src("cg::this_grid().sync()")
    r = _run(_module(src), (grid, 1, 1), (block, 1, 1), _grid_args(n))
    assert np.array_equal(r.buffers["out"], 3 * np.roll(np.arange(n), -block))
    assert not r.trace.divergences
    assert len(r.trace.grid_releases) == grid
    report = _report(src, (grid, 1, 1), (block, 1, 1), _grid_args(n))
    assert report.status == codes.ANALYSED
    assert report.findings == (), [f.message for f in report.findings]


def test_without_grid_sync_blocks_race():
    n = 4 * 64
    report = _report(_grid_src("__syncthreads()"), (4, 1, 1), (64, 1, 1), _grid_args(n))
    assert ("race", "inter-block") in _kinds(report)


def test_grid_sync_as_free_function_and_twice():
    src = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *buf, int *out, int n) {
  cg::grid_group g = cg::this_grid();
  const int i = g.thread_rank();
  buf[i] = i;
  g.sync();
  const int v = buf[(i + 64) % n];
  cg::sync(g);
  buf[i] = v;          // write after everybody read: ordered by the second grid sync
  g.sync();
  out[i] = buf[(i + 1) % n];
}
"""
    n = 4 * 64
    args = {"buf": np.zeros(n, np.int32), "out": np.zeros(n, np.int32), "n": n}
    r = _run(_module(src), (4, 1, 1), (64, 1, 1), args)
    assert np.array_equal(r.buffers["out"], np.roll(np.roll(np.arange(n), -64), -1))
    report = _report(src, (4, 1, 1), (64, 1, 1), args)
    assert report.findings == (), [f.message for f in report.findings]


def test_grid_sync_waits_for_blocks_at_block_barriers():
    # block 0 does extra work behind __syncthreads while the others already wait at the grid barrier
    src = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *buf, int *out, int n) {
  __shared__ int s[64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0) {
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    buf[i] = s[63 - threadIdx.x];
  } else {
    buf[i] = i;
  }
  cg::this_grid().sync();
  out[i] = buf[(i + 64) % n];
}
"""
    n = 3 * 64
    args = {"buf": np.zeros(n, np.int32), "out": np.zeros(n, np.int32), "n": n}
    r = _run(_module(src), (3, 1, 1), (64, 1, 1), args)
    assert not r.trace.divergences
    expect = np.arange(n)
    expect[:64] = 63 - np.arange(64)
    assert np.array_equal(r.buffers["out"], np.roll(expect, -64))
    report = _report(src, (3, 1, 1), (64, 1, 1), args)
    assert report.findings == (), [f.message for f in report.findings]


def test_grid_sync_divergence_is_reported():
    # threads past n return before the grid barrier: the barrier never completes on a GPU
    src = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const int *in, int *tmp, int *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  tmp[i] = in[i];
  cg::this_grid().sync();
  out[i] = tmp[(i + 1) % n];
}
"""
    args = {"in": np.arange(256, dtype=np.int32), "tmp": np.zeros(256, np.int32), "out": np.zeros(256, np.int32)}
    report = _report(src, (4, 1, 1), (64, 1, 1), {**args, "n": 100})
    div = [f for f in report.findings if f.kind == "barrier-divergence"]
    assert div and div[0].first.line == 8
    # whole blocks past n: reported through the blocks that wait
    report = _report(src, (4, 1, 1), (64, 1, 1), {**args, "n": 128})
    div = [f for f in report.findings if f.kind == "barrier-divergence"]
    assert div and "other blocks" in div[0].message and div[0].first.line == 8


def test_grid_sync_under_a_sequential_schedule():
    n = 3 * 32
    src = _grid_src("cg::this_grid().sync()")
    m = _module(src)
    r = run(m, m.kernels[0], Launch(grid=(3, 1, 1), block=(32, 1, 1), args=_grid_args(n)),
            schedule=Schedule(block_order=(2, 0, 1), sequential=True))
    assert r.outcome.completed
    assert not r.trace.divergences
    assert sorted(r.trace.grid_releases[:, 0].tolist()) == [0, 1, 2]


# ==============================================================================================
# Texture objects (simu/interp/cuda_textures.py, shim __simu_texture.h)
# ==============================================================================================

TEX = r"""#include <cuda_runtime.h>
__global__ void fetch(cudaTextureObject_t tex, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(tex, i) * 2.0f + tex1Dfetch<float>(tex, (i + 1) % n);
}
__global__ void sample2d(cudaTextureObject_t tex, float *out, int w) {
  const int x = threadIdx.x, y = blockIdx.x;
  out[y * w + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}
__global__ void handle_only(cudaTextureObject_t tex, unsigned long long *out) { out[threadIdx.x] = tex; }
__global__ void plain(float *out) { out[threadIdx.x] = 1.0f; }
int main() {
  cudaTextureObject_t tex = 0;
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeLinear;
  rd.res.linear.desc = cudaCreateChannelDesc<float>();
  rd.res.linear.sizeInBytes = 40 * sizeof(float);
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  td.addressMode[0] = cudaAddressModeClamp;
  cudaCreateTextureObject(&tex, &rd, &td, nullptr);
  fetch<<<2, 32>>>(tex, nullptr, 40);
  cudaDestroyTextureObject(tex);
  return 0;
}
"""


def _tex_kernels():
    m = _module(TEX, "tex.cu")
    return m, {k.display_name: k for k in m.kernels}


def test_tex1Dfetch_reads_the_backing_buffer():
    m, ks = _tex_kernels()
    backing = np.arange(40, dtype=np.float32) * 0.5
    launch = Launch(grid=(2, 1, 1), block=(32, 1, 1), args={"tex": backing, "out": np.zeros(40, np.float32), "n": 40})
    r = run(m, ks["fetch"], launch)
    assert r.outcome.completed and not r.memory_errors
    assert np.allclose(r.buffers["out"], backing * 2 + np.roll(backing, -1))
    tex_alloc = next(a for a in r.allocations if a is not None and a.name == "tex")
    reads = r.trace.addr[r.trace.action == READ] >> 40
    assert np.count_nonzero(reads == tex_alloc.id) == 80  # two fetches per thread of the 40 in range
    report = check_launches(m, ks["fetch"], [launch])
    assert report.status == codes.ANALYSED and report.findings == ()


def test_texture_kernels_without_a_backing_array_are_unsupported_with_their_line():
    m, ks = _tex_kernels()
    args = {"tex": 12345, "out": np.zeros(64, np.float32), "n": 40, "w": 32}
    one = lambda k: [Launch(grid=(2, 1, 1), block=(32, 1, 1),  # noqa: E731
                            args={p.name: args[p.name] for p in ks[k].params})]
    fetch = check_launches(m, ks["fetch"], one("fetch"))
    assert fetch.status == codes.UNSUPPORTED and "tex1Dfetch" in fetch.reason and "backing buffer" in fetch.reason
    assert fetch.where.line == 4
    two_d = check_launches(m, ks["sample2d"], one("sample2d"))  # tex2D is modelled, but needs a backing array
    assert two_d.status == codes.UNSUPPORTED and "backing buffer" in two_d.reason and two_d.where.line == 8
    # the file's other kernels are analysed, a handle that is never fetched is an ordinary integer
    assert check_launches(m, ks["plain"], [Launch(grid=(1, 1, 1), block=(32, 1, 1),
                                                  args={"out": np.zeros(32, np.float32)})]).status == codes.ANALYSED
    h = run(m, ks["handle_only"], Launch(grid=(1, 1, 1), block=(32, 1, 1),
                                         args={"tex": 77, "out": np.zeros(32, np.uint64)}))
    assert h.outcome.completed and (h.buffers["out"] == 77).all()


@pytest.mark.parametrize("header", ["texture_types.h", "texture_fetch_functions.h", "channel_descriptor.h",
                                    "surface_types.h", "texture_indirect_functions.h"])
def test_texture_headers_compile(header):
    m = _module(f"#include <{header}>\n__global__ void k(cudaTextureObject_t t, int *o) "
                "{ o[threadIdx.x] = tex1Dfetch<int>(t, threadIdx.x); }\n", "h.cu")
    assert [k.display_name for k in m.kernels] == ["k"]


# texture objects from the launch side (simu/launch/images.py): defaults, --buffer specs, the search

def test_build_launch_backs_texture_objects():
    from simu.errors import LaunchError
    from simu.launch.buffers import buffer_from_spec, buffer_specs
    from simu.launch.spec import build_launch, is_complete

    m, ks = _tex_kernels()
    k = ks["fetch"]
    assert not is_complete(k, "2", "32", []) and is_complete(k, "2", "32", ["n=40"])  # n, not tex, must be given
    launch = build_launch(k, "2", "32", ["n=40"])
    tex = launch.args["tex"]
    assert tex.dtype == np.float32 and tex.shape == (64,)  # sized like a default buffer
    np.testing.assert_array_equal(buffer_from_spec(buffer_specs(launch)["tex"]), tex)
    r = run(m, k, launch)
    assert r.outcome.completed and np.allclose(r.buffers["out"][:40], tex[:40] * 2 + np.roll(tex[:40], -1))
    given = build_launch(k, "2", "32", ["n=40"], ["tex=float32:40:ramp"])
    assert given.args["tex"].tolist() == list(range(40)) and given.buffer_specs["tex"]["fill"] == "ramp"
    assert check_launches(m, k, [given]).status == codes.ANALYSED
    assert build_launch(k, "2", "32", ["n=40"], ["tex=float32:8x8"]).args["tex"].shape == (8, 8)  # tex1Dfetch: flat
    with pytest.raises(LaunchError):
        build_launch(ks["sample2d"], "2", "32", ["w=32"], ["tex=float32:4x4x4x4"])  # tex2D reads 2 axes
    with pytest.raises(LaunchError):
        build_launch(k, "2", "32", ["n=40"], ["tex=float32:40:ramp:bilinear"])
    # a texture handle given as a number stays a number (a kernel that never fetches)
    h = build_launch(ks["handle_only"], "1", "32", ["tex=77"])
    assert h.args["tex"] == 77


def test_texture_element_type_follows_tex1Dfetch():
    from simu.launch.spec import build_launch

    m = _module("__global__ void k(cudaTextureObject_t t, int *o) { o[threadIdx.x] = tex1Dfetch<int>(t, threadIdx.x); }"
                "\n"
                "__global__ void d(cudaTextureObject_t t, double *o) { o[threadIdx.x] = tex1Dfetch<double>(t, 0); }\n",
                "ty.cu")
    ks = {k.display_name: k for k in m.kernels}
    launch = build_launch(ks["k"], "1", "32", [])
    assert launch.args["t"].dtype == np.int32
    r = run(m, ks["k"], launch)
    assert r.outcome.completed and (r.buffers["o"] == launch.args["t"][:32]).all()
    assert build_launch(ks["d"], "1", "32", []).args["t"].dtype == np.float64


def test_search_backs_textures_and_partial_launches_size_them():
    from simu.check import CheckSettings
    from simu.evolve import Budget, run_search
    from simu.launch.spec import check_constraints, launch_constraints

    m, ks = _tex_kernels()
    res = run_search(m, ks["fetch"], CheckSettings(), None, Budget(evaluations=8, seconds=120), "full", seed=0)
    assert res.status == codes.ANALYSED and not [f for f in res.findings if f.kind in ("race", "warp-race")]
    c = launch_constraints(ks["fetch"], block="32", buffers=["tex=float32:1000:ramp"])
    check_constraints(ks["fetch"], c)
    assert c.buffer_lengths == {"tex": "1000"} and c.fills == {"tex": "ramp"}


MATCH = r"""
__global__ void match(unsigned *any, unsigned *all, int *pred, const int *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (v[i] < 0) return;  // these lanes hold no value
  any[i] = __match_any_sync(__activemask(), v[i]);
  int p;
  all[i] = __match_all_sync(__activemask(), i < 32 ? 7 : v[i], &p);
  pred[i] = p;
}
"""


def test_match_any_and_all_compare_the_active_lanes_of_each_warp():
    v = (np.arange(64) % 3).astype(np.int32)
    v[[5, 40]] = -1  # exited before the match: not among the lanes compared
    args = {"any": np.zeros(64, np.uint32), "all": np.zeros(64, np.uint32), "pred": np.zeros(64, np.int32), "v": v}
    r = _run(_module(MATCH), (1, 1, 1), (64, 1, 1), args)
    assert r.outcome.completed, r.outcome
    got = r.buffers["any"].view(np.uint32)
    for i in np.flatnonzero(v >= 0):
        w = (i // 32) * 32
        assert got[i] == sum(1 << j for j in range(32) if v[w + j] == v[i]), i
    active = [sum(1 << j for j in range(32) if v[w + j] >= 0) for w in (0, 32)]
    assert set(r.buffers["all"].view(np.uint32)[:32][v[:32] >= 0]) == {active[0]}  # one value in the first warp
    assert set(r.buffers["all"][32:][v[32:] >= 0]) == {0} and set(r.buffers["pred"][32:][v[32:] >= 0]) == {0}
    assert set(r.buffers["pred"][:32][v[:32] >= 0]) == {1}
