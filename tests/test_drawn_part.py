"""Host buffers of hundreds of megabytes (``N = 100000000``) are drawn in part (simu.evolve.sizes.drawn_part): the
launch runs its leading blocks over the drawn prefix, and a run that reaches past it stops as incomplete, saying
where, instead of drawing the whole buffer at every evaluation until the budget runs out."""

from __future__ import annotations

from pathlib import Path

from simu.evolve.sizes import DRAWN_MAX_BYTES, drawn_part
from simu.launch.blocks import sample_blocks
from simu.scan import ScanOverrides, resolve_options, scan

HOST = """#include <cuda_runtime.h>
int main() {{
    const int N = 100000000;
    float *x, *y;
    cudaMalloc(&x, N * sizeof(float));
    cudaMalloc(&y, N * sizeof(float));
    {kernel}<<<N / 256, 256>>>(x, y);
    cudaDeviceSynchronize();
    return 0;
}}
"""


def test_the_drawn_part_of_a_huge_buffer():
    assert drawn_part(1000, 8) == (1000, 0)
    assert drawn_part(100_000_000, 4) == (DRAWN_MAX_BYTES // 4, 100_000_000)
    assert sample_blocks((1000, 1, 1), (256, 1, 1), 2048, leading=True) == tuple(range(8))
    assert 999 in sample_blocks((1000, 1, 1), (256, 1, 1), 2048)  # the grid's end, where buffers are whole


def _scan(tmp_path: Path, kernel: str):
    (tmp_path / "main.cu").write_text(kernel + HOST.format(kernel=kernel.split("(")[0].split()[-1]))
    result = scan(*resolve_options([tmp_path], ScanOverrides(budget=0.5, jobs=1, no_cache=True)))
    ((_, k),) = list(result.kernels())
    return k


def test_a_launch_over_huge_buffers_runs_its_leading_blocks(tmp_path: Path):
    k = _scan(tmp_path, "__global__ void copy(const float *x, float *y) {\n"
                        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    y[i] = x[i];\n}\n")
    assert k.status == "analysed" and not k.findings, (k.status, k.reason)


def test_a_run_past_the_drawn_part_is_partly_analysed_and_says_where(tmp_path: Path):
    k = _scan(tmp_path, "__global__ void tail(const float *x, float *y) {\n"
                        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    y[i] = x[99999999 - i];\n}\n")
    # what ran before the drawn part ended is judged: the kernel is analysed on that part, and says so
    assert k.status == "analysed" and k.reason.startswith("partly analysed") and not k.findings
    assert "past the first 16777216 bytes simu draws of its 400000000" in k.reason and "'x'" in k.reason
