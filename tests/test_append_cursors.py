"""Append cursors (simu.ir.cursors): a counter whose atomic increment hands out slots of another buffer starts
cleared in the search, as programs clear it, so random counter contents no longer send slots before the buffer;
a collision the kernel's own indexing makes is still found."""

from __future__ import annotations

from pathlib import Path

from simu.api import load_file
from simu.check import analyse_kernel
from simu.ir.cursors import cursor_buffers

PAIRS_CUDA = """
__global__ void pairs(const float *x, int *count, int2 *out, int cap, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int j = 0; j < n; ++j) {
        if (x[i] < x[j]) {
            int slot = atomicAdd(count, 1);
            if (slot < cap) out[slot] = make_int2(i, j);
        }
    }
}
"""

PAIRS_OPENCL = """
__kernel void pairs(__global const float *x, __global int *count, __global int2 *out, int cap, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    for (int j = 0; j < n; ++j) {
        if (x[i] < x[j]) {
            int slot = atomic_inc(count);
            if (slot < cap) out[slot] = (int2)(i, j);
        }
    }
}
"""

# the slot taken modulo 4: threads share slots whatever the counter starts at, a race of the kernel's own
BUCKETS_CUDA = """
__global__ void buckets(const int *x, int *count, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[atomicAdd(count, 1) % 4] = x[i];
}
"""


def _module(tmp_path: Path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text)
    return load_file(path)


def test_counters_whose_old_value_indexes_another_buffer_are_cursors(tmp_path):
    for name, text in (("pairs.cu", PAIRS_CUDA), ("pairs.cl", PAIRS_OPENCL), ("buckets.cu", BUCKETS_CUDA)):
        kernel = _module(tmp_path, name, text).kernels[0]
        assert cursor_buffers(kernel) == {"count"}, name


def test_the_search_starts_a_cursor_cleared_unless_the_host_says(tmp_path):
    from simu.evolve.search import _layout
    from simu.launch.constraints import KernelConstraints

    for name, text in (("pairs.cu", PAIRS_CUDA), ("pairs.cl", PAIRS_OPENCL)):
        module = _module(tmp_path, name, text)
        kernel = module.kernels[0]
        assert _layout(module, kernel, None).fills == {"count": "zeros"}
        said = KernelConstraints(fills={"count": "ones"})
        assert _layout(module, kernel, said).fills == {"count": "ones"}
        report = analyse_kernel(module, kernel, budget=2)
        assert not [f for f in report.findings if f.severity == "error"], (name, report.findings)


def test_slots_the_kernel_itself_makes_collide_are_still_a_race(tmp_path):
    module = _module(tmp_path, "buckets.cu", BUCKETS_CUDA)
    report = analyse_kernel(module, module.kernels[0], budget=2)
    races = [f for f in report.findings if f.kind == "race" and f.variable == "out"]
    assert races and races[0].severity == "error"
