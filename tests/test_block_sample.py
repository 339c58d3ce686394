"""A host launch larger than simu runs at once runs a sample of its blocks (``simu.launch.blocks``): the grid's
edges and middle with their neighbours, at the real block ids, with the whole launch's gridDim and buffers."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simu.api import load_source
from simu.detect import Context
from simu.interp import run
from simu.launch import Launch
from simu.launch.blocks import describe, sample_blocks
from simu.scan import ScanOverrides, resolve_options, scan

IDS = """
__global__ void ids(int *block_of, int *grid_of) {
    if (threadIdx.x == 0) {
        block_of[blockIdx.y * gridDim.x + blockIdx.x] = blockIdx.x + 1000 * blockIdx.y;
        grid_of[blockIdx.y * gridDim.x + blockIdx.x] = gridDim.x * gridDim.y;
    }
}
"""

PROGRAM = """#include <cuda_runtime.h>

__global__ void scale(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) a[i] = 2.0f * a[i];
}

__global__ void halo(float *out, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i];
        if (threadIdx.x == blockDim.x - 1 && i + 1 < n) out[i + 1] += in[i];
    }
}

__global__ void fine(float *out, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

int main() {
    int n = 1000000;
    float *a, *b;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    scale<<<(n + 255) / 256, 256>>>(a, n);
    halo<<<(n + 255) / 256, 256>>>(b, a, n);
    fine<<<(n + 255) / 256, 256>>>(b, a, n);
    cudaDeviceSynchronize();
    return 0;
}
"""


def test_a_launch_within_the_budget_runs_whole():
    assert sample_blocks((16, 1, 1), (256, 1, 1), 4096) is None
    assert sample_blocks((1, 1, 1), (1024, 1, 1), 512) is None


def test_the_sample_holds_the_edges_the_middle_and_their_neighbours():
    ids = sample_blocks((3907, 1, 1), (256, 1, 1), 4096)
    assert len(ids) == 16 and list(ids) == sorted(set(ids))
    assert {0, 1, 1952, 1953, 3905, 3906} <= set(ids)
    corners = sample_blocks((64, 64, 1), (16, 16, 1), 4096)  # 2-D: each axis's ends and neighbours
    coords = {(b % 64, b // 64) for b in corners}
    assert coords == {(x, y) for x in (0, 1, 62, 63) for y in (0, 1, 62, 63)}
    assert sample_blocks((10, 1, 1), (1024, 1, 1), 1024) == (0, 9)  # two blocks even when one fills the room


def test_a_sampled_launch_runs_its_blocks_at_their_real_ids_with_the_whole_grid():
    module = load_source(IDS, "cuda", path="ids.cu")
    (kernel,) = module.kernels
    grid = (50, 3, 1)
    blocks = sample_blocks(grid, (64, 1, 1), 64 * 8)
    n = 150
    launch = Launch(grid, (64, 1, 1), {"block_of": np.full(n, -1, np.int32), "grid_of": np.zeros(n, np.int32)},
                    blocks=blocks)
    r = run(module, kernel, launch)
    assert r.outcome.completed
    block_of, grid_of = r.buffers["block_of"], r.buffers["grid_of"]
    ran = set(blocks)
    for b in range(n):
        if b in ran:
            assert block_of[b] == b % 50 + 1000 * (b // 50) and grid_of[b] == 150
        else:
            assert block_of[b] == -1 and grid_of[b] == 0  # a block outside the sample never ran
    assert describe(launch).startswith(f"{len(blocks)} of 150 blocks run: (0,0), (1,0)")


def test_findings_of_a_sampled_host_launch_name_the_real_blocks(tmp_path: Path):
    """The host launches 3907 blocks of 256 threads: the search used to halve that grid to its thread budget
    (15 blocks: a launch the program never makes, where the last block's off-by-one write never happens); the
    sample runs the last block, at the host's grid, and the neighbours whose halo writes race."""
    (tmp_path / "main.cu").write_text(PROGRAM)
    result = scan(*resolve_options([tmp_path], ScanOverrides(budget=2.0, jobs=1, no_cache=True)))
    kernels = {k.name: k for _, k in result.kernels()}
    oob = [f for f in kernels["scale"].findings if f.kind == "out-of-bounds"]
    assert oob and oob[0].severity == "error"
    assert oob[0].launch.grid == (3907, 1, 1) and oob[0].launch.blocks is not None
    assert "of 3907 blocks run" in oob[0].launch.origin and oob[0].launch.origin.startswith("host launch at main.cu")
    assert "block (3906,0,0)" in oob[0].message  # the last block: i == n
    races = [f for f in kernels["halo"].findings if f.kind == "race"]
    assert races and all(f.launch.grid == (3907, 1, 1) for f in races)
    pairs = {tuple(sorted((t.block[0] for t in f.threads))) for f in races}
    assert all(b2 == b1 + 1 for b1, b2 in pairs)  # neighbours, both in the sample
    assert kernels["fine"].status == "analysed" and not kernels["fine"].findings


def test_a_context_maps_a_sampled_lane_to_its_block():
    module = load_source(IDS, "cuda", path="ids.cu")
    (kernel,) = module.kernels
    launch = Launch((100, 1, 1), (32, 1, 1), {}, blocks=(0, 1, 98, 99))
    ctx = Context(kernel, launch, None)  # type: ignore[arg-type]
    assert ctx.thread(3 * 32 + 5).block == (99, 0, 0) and ctx.thread(3 * 32 + 5).thread == (5, 0, 0)


HEAVY = """#include <cuda_runtime.h>

__global__ void sum_rows(float *out, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < 300; k++)
        s += in[(i + k) % n];
    if (i <= n) out[i] = s;
}

int main() {
    int n = 16000;
    float *a, *b;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    sum_rows<<<(n + 255) / 256, 256>>>(b, a, n);
    cudaDeviceSynchronize();
    return 0;
}
"""


def test_a_launch_too_heavy_for_the_trace_runs_fewer_blocks(tmp_path: Path):
    """63 blocks x 256 threads x 300 reads: the first sample (16 blocks) passes the search's trace limit, so the
    same launch runs again on as many blocks as a quarter of that limit holds (4, then 3 once a whole run is
    counted), the edges included: the last block's write past the end shows, where the whole launch or the first
    sample only ever stopped incomplete."""
    (tmp_path / "main.cu").write_text(HEAVY)
    result = scan(*resolve_options([tmp_path], ScanOverrides(budget=2.0, jobs=1, no_cache=True)))
    (k,) = [k for _, k in result.kernels()]
    assert k.status == "analysed" and k.reason == "sampled: 3 of 63 blocks run"
    oob = [f for f in k.findings if f.kind == "out-of-bounds"]
    assert oob and {0, 62} <= set(oob[0].launch.blocks) and "block (62,0,0)" in oob[0].message


def test_a_kernel_whose_grid_also_ran_whole_has_no_sample_note():
    from simu.launch.blocks import sample_note

    sampled = Launch((32, 1, 1), (128, 1, 1), {}, blocks=(0, 1, 30, 31))
    whole = Launch((32, 1, 1), (128, 1, 1), {})
    assert sample_note([sampled]) == "sampled: 4 of 32 blocks run"
    assert sample_note([sampled, whole]) == ""


def test_a_sample_of_a_3d_grid_names_all_three_coordinates():
    launch = Launch((4, 1, 3), (256, 1, 1), {}, blocks=(0, 11))
    assert describe(launch) == "2 of 12 blocks run: (0,0,0), (3,0,2)"
