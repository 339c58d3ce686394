"""What the search infers of a kernel's launch contract when no launch is given: one block for kernels
that read no block id, the shared tile as a prior (not a limit), launches that overflow their shared
memory or leave a tile unloaded kept out, block ids reduced modulo an argument explored with larger
grids; and every finding names where its launch came from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simu.api import load_source
from simu.cli import app
from simu.evolve.dictionary import grid_relative_arguments
from simu.evolve.shape import kernel_shape
from simu.launch.record import ORIGIN_GIVEN, ORIGIN_SEARCHED

CONTRACT = Path(__file__).resolve().parent.parent / "corpus" / "cuda" / "contract"
runner = CliRunner()


def _shape(src: str, lang: str = "cuda"):
    module = load_source(src, lang)
    return kernel_shape(module, module.kernel())


def test_a_kernel_without_block_ids_is_one_block():
    assert _shape("__global__ void k(int *a) { a[threadIdx.x] += 1; }").grid_dims == 0
    assert _shape("__global__ void k(int *a) { a[threadIdx.x + blockDim.x * gridDim.x] = 1; }").grid_dims == 0
    assert _shape("__global__ void k(int *a) { a[blockIdx.y * 4 + threadIdx.x] = 1; }").grid_dims == 2
    assert _shape("__kernel void k(__global int *a) { a[get_local_id(0)] = 1; }", "opencl").grid_dims == 0
    assert _shape("__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }", "opencl").grid_dims == 1
    assert _shape("__kernel void k(__global int *a) { a[get_group_id(1)] = 1; }", "opencl").grid_dims == 2


def test_the_shared_tile_is_a_prior_not_a_limit():
    shape = _shape("__global__ void k(float *a) { __shared__ float t[16][17]; t[threadIdx.y][threadIdx.x] = 1;"
                   " __syncthreads(); a[threadIdx.x] = t[threadIdx.x][threadIdx.y]; }")
    assert shape.block_prior == (16, 16, 1) and shape.reqd_block is None
    declared = _shape("__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void k(__global float *a) {"
                      " __local float t[128]; t[get_local_id(0)] = 1; barrier(CLK_LOCAL_MEM_FENCE);"
                      " a[get_local_id(0)] = t[127 - get_local_id(0)]; }", "opencl")
    assert declared.reqd_block == (64, 1, 1) and declared.block_prior is None


def test_a_zero_length_local_array_is_no_tile():
    """A size macro assumed at a value that leaves an array empty (``__local int s[GROUPS - 16]``) gives no prior."""
    shape = _shape("__kernel void k(__global int *a) { __local int s[0]; __local int t[64];"
                   " t[get_local_id(0)] = a[get_local_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);"
                   " a[get_local_id(0)] = t[63 - get_local_id(0)] + (s == 0); }", "opencl")
    assert shape.block_prior == (64, 1, 1)


ROW_PER_GLOBAL_Y = """__kernel void row_max(__global const float *in, __global float *out, int n) {
  int row = get_global_id(1);
  int tid = get_local_id(0);
  __local float4 best4[8];  /* 32 floats */
  __local float *best = (__local float *)best4;
  float m = -1e30f;
  for (int s = tid; s < n; s += 32) m = fmax(m, in[row * n + s]);
  best[tid] = m;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid == 0) { for (int i = 1; i < 32; ++i) m = fmax(m, best[i]); out[row] = m; }
}"""


def test_a_row_per_global_y_with_a_tile_indexed_by_local_x_is_searched_in_work_groups_one_row_high(tmp_path):
    """The work-items of a group along y share ``best`` by ``get_local_id(0)`` alone: the kernel was written for
    groups one row high (each row its own group), so the search does not make taller ones and reports no race
    between rows (seen on Paddle-Lite's softmax_1x1 and instance_norm)."""
    shape = _shape(ROW_PER_GLOBAL_Y, "opencl")
    assert shape.block_dims == 2 and shape.local_dims == 1
    assert _shape(ROW_PER_GLOBAL_Y.replace("get_local_id(0)", "get_local_id(0) + 32 * get_local_id(1)"),
                  "opencl").local_dims == 2
    assert _shape("__kernel void k(__global int *a) { a[get_global_id(1) * 8 + get_global_id(0)] = 1; }",
                  "opencl").local_dims == 2  # nothing shared in the group: its rows may be any height
    src = tmp_path / "row_max.cl"
    src.write_text(ROW_PER_GLOBAL_Y)
    assert not [f for f in _findings(src, "--budget", "1") if f["kind"] == "race"]


def test_a_group_whose_threads_are_told_apart_along_y_and_z_only_is_one_wide_along_x(tmp_path):
    """``local_id = get_local_id(1) * ly + get_local_id(2)`` indexes the group's tile and x is never read: one
    channel per group, groups of 1 × w × h (Paddle-Lite's instance_norm); work-items along x would all be local 0."""
    src = tmp_path / "norm.cl"
    src.write_text("""__kernel void mean(__global const float *in, __global float *out, int ly, int n) {
      int c = get_global_id(0);
      int local_id = get_local_id(1) * ly + get_local_id(2);
      __local float part[256];
      float s = 0.0f;
      for (int i = local_id; i < n; i += 64) s += in[c * n + i];
      part[local_id] = s + c;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (local_id == 0) { for (int i = 1; i < 64; ++i) s += part[i]; out[c] = s; }
    }""")
    shape = _shape(src.read_text(), "opencl")
    assert shape.local_dims == 3 and shape.unread_axes == {0} and shape.block_prior is None
    assert not [f for f in _findings(src, "--budget", "1") if f["kind"] == "race" and f["severity"] == "error"]


def test_the_tile_prior_follows_the_axis_that_indexes_each_dimension():
    """``part[lid0][lid1 * 4]`` of a ``part[32][16]`` tile is a block of 32 by 4 (Paddle-Lite's transposed matmul),
    not the 16 by 32 its declaration reads as; the stores decide, not a transposed read after the barrier."""
    transposed = _shape("""__kernel void colsum(__global const float *in, __global float *out, int k) {
      int gx = get_global_id(0);
      int2 tid = (int2)(get_local_id(0), get_local_id(1));
      __local float part[32][16];
      float s = 0.0f;
      for (int c = tid.y; c < k; c += 4) s += in[c * 64 + gx];
      part[tid.x][tid.y * 4] = s;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (tid.y == 0) out[gx] = part[tid.x][0] + part[tid.x][4] + part[tid.x][8] + part[tid.x][12];
    }""", "opencl")
    assert transposed.block_prior == (32, 4, 1)
    plain = _shape("__global__ void k(float *a) { __shared__ float t[8][32]; t[threadIdx.y][threadIdx.x] = 1;"
                   " __syncthreads(); a[threadIdx.x] = t[threadIdx.x % 8][threadIdx.y]; }")
    assert plain.block_prior == (32, 8, 1)


def test_a_three_dimensional_tile_indexed_by_a_reversed_int3_of_local_ids_is_the_block_of_its_three_axes(tmp_path):
    """``temp[tid.z][tid.y][tid.x]`` with ``tid = (int3)(lid2, lid1, lid0)`` of a ``temp[4][4][16]`` tile is a block of
    4 by 4 by 16 (a matmul that splits the K loop over z), not the 16 by 4 of its last two dimensions: at 16 by 4
    every thread past x = 3 writes past the tile's end, an error no launch of the program makes.  The rows the
    reduction reads (``temp[tid.z][0][tid.x]``: row 0 folded away by clang) keep their dimension."""
    src = """__kernel void mm(__global const float4 *in, __global float4 *out, int k) {
      int3 tid = (int3)(get_local_id(2), get_local_id(1), get_local_id(0));
      float4 s = (float4)(0.0f);
      for (int c = tid.y; c < k; c += 4) s += in[c * 16 + get_global_id(2)];
      __local float4 temp[4][4][16];
      temp[tid.z][tid.y][tid.x] = s;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (tid.y == 0) {
        s += temp[tid.z][1][tid.x] + temp[tid.z][2][tid.x] + temp[tid.z][3][tid.x];
        temp[tid.z][0][tid.x] = s;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (tid.x == 0 && tid.y == 0) out[get_global_id(0)] = temp[tid.z][0][0];
    }"""
    assert _shape(src, "opencl").block_prior == (4, 4, 16)
    (tmp_path / "mm.cl").write_text(src)
    assert not [f for f in _findings(tmp_path / "mm.cl", "--budget", "12") if f["kind"] == "out-of-bounds"]


def test_block_ids_reduced_modulo_an_argument_are_found():
    module = load_source("__global__ void k(float *acc, int k, int m) { acc[blockIdx.x % k] += m; }", "cuda")
    assert grid_relative_arguments(module.kernel()) == {"k"}
    module = load_source("__kernel void k(__global float *acc, int per) { acc[get_group_id(0) / per] = 1; }",
                         "opencl")
    assert grid_relative_arguments(module.kernel()) == {"per"}


def _findings(path: Path, *options: str) -> list[dict]:
    res = runner.invoke(app, ["check", str(path), "--format", "json", *options])
    assert res.exit_code in (0, 1), res.output
    return [f for file in json.loads(res.stdout)["files"] for k in file["kernels"] for f in k["findings"]]


@pytest.mark.parametrize("name", ["no_block_id_shift.cu", "one_warp_tail_zero.cu", "tile_prior_slot_fixed.cu",
                                  "grid_modulo_atomic.cu", "private_table_per_thread.cu"])
def test_contract_cases_are_clean_with_no_launch_given(name):
    assert _findings(CONTRACT / name) == []


@pytest.mark.parametrize(("name", "line", "grid_over"), [("tile_prior_slot_race.cu", 15, None),
                                                         ("grid_modulo_race.cu", 18, "k")])
def test_contract_bugs_are_found_with_a_searched_launch_that_says_so(name, line, grid_over):
    races = [f for f in _findings(CONTRACT / name) if f["kind"] == "race"]
    assert races and all(f["first"]["line"] == line for f in races)
    for f in races:
        assert f["launch"]["origin"] == ORIGIN_SEARCHED
        if name.startswith("tile"):
            assert f["launch"]["block"][0] > 32  # beyond the 32-slot tile: the prior did not limit the search
        if grid_over:
            assert f["launch"]["grid"][0] > f["launch"]["scalars"][grid_over]


def test_a_thread_indexed_private_table_past_a_given_block_is_reported():
    found = _findings(CONTRACT / "private_table_per_thread.cu", "--grid", "1", "--block", "16")
    assert [(f["kind"], f["severity"], f["space"]) for f in found] == [("out-of-bounds", "error", "private")]


def test_a_given_launch_says_so():
    found = _findings(CONTRACT / "grid_modulo_race.cu", "--grid", "8", "--block", "128", "--arg", "k=4")
    assert found and all(f["launch"]["origin"] == ORIGIN_GIVEN for f in found)
    text = runner.invoke(app, ["check", str(CONTRACT / "grid_modulo_race.cu"), "--grid", "8", "--block", "128",
                               "--arg", "k=4"]).stdout
    assert "given on the command line" in text


STRUCTS = """
typedef struct { float4 lo; float4 hi; } Box;
__kernel void copy_boxes(__global const Box *in, __global Box *out, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = in[i];
}
"""


def test_buffers_of_structs_are_sized_by_the_structs_bytes():
    module = load_source(STRUCTS, "opencl")
    kernel = module.kernel()
    assert {p.name: p.pointee_size for p in kernel.params} == {"in": 32, "out": 32, "n": None}
    from simu.check import analyse_kernel

    report = analyse_kernel(module, kernel, budget=20)
    assert report.status == "analysed" and report.findings == (), report.findings


GATHER = """
__global__ void gather(const int *index, const float *src, float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[index[i]];
}
"""


def test_an_index_read_from_a_buffer_makes_an_out_of_bounds_a_warning_that_says_so():
    """src[index[i]] overflows only with the contents the search drew: the host's data decides.  ``index`` indexes
    ``src`` (simu/evolve/roles.py), so indices outside it are no launch of the program's: such an overflow is
    dropped, or at most a warning about the contents."""
    from simu.check import analyse_kernel

    module = load_source(GATHER, "cuda")
    report = analyse_kernel(module, module.kernel(), budget=40)
    oob = [f for f in report.findings if f.kind == "out-of-bounds"]
    assert all(f.severity == "warning" and "buffer contents" in f.message for f in oob), oob
    assert not any(f.severity == "error" for f in report.findings)


ASSERTED = "#include <assert.h>\n__global__ void k(int *p, int n) { assert(threadIdx.x < 16); p[threadIdx.x] = n; }\n"


def test_a_kernels_own_assert_refuses_a_searched_launch_not_the_kernel(tmp_path):
    (tmp_path / "asserted.cu").write_text(ASSERTED)
    res = runner.invoke(app, ["check", str(tmp_path / "asserted.cu"), "--format", "json", "--budget", "150"])
    (kernel,) = json.loads(res.stdout)["files"][0]["kernels"]
    assert kernel["status"] == "analysed" and kernel["findings"] == []
    given = runner.invoke(app, ["check", str(tmp_path / "asserted.cu"), "--format", "json", "--grid", "1",
                                "--block", "32", "--arg", "n=1", "--buffer", "p=int32:32"])
    (kernel,) = json.loads(given.stdout)["files"][0]["kernels"]
    assert kernel["status"] == "error" and "assertion failed" in kernel["reason"]  # the user's launch fails it
