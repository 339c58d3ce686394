"""HIP programs on simu's CUDA model (simu/include/cuda/hip/, simu/host/launchmacros.expand_hip_launches): a ``.cu`` (or
``.hip``) file that includes ``<hip/hip_runtime.h>`` compiles as CUDA (HIP's API names are CUDA's), and its
``hipLaunchKernelGGL(k, grid, block, shmem, stream, args…)`` is a host launch, so a race shows at the program's
own launch and the fixed twin is clean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simu.cli import app
from simu.host.launchmacros import expand_hip_launches

runner = CliRunner()

PROGRAM = """#include <stdio.h>
#include <hip/hip_runtime.h>
#define BLOCK 256
__global__ void tree_sum(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    SYNC
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
__global__ void scale(float *a, float f, int n) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) a[i] *= f;
}
int main() {
  const int n = 1 << 12;
  float *d_in, *d_out;
  hipMalloc((void**)&d_in, n * sizeof(float));
  hipMalloc((void**)&d_out, (n / BLOCK) * sizeof(float));
  hipMemset(d_in, 0, n * sizeof(float));
  hipLaunchKernelGGL(scale, dim3(n / BLOCK), dim3(BLOCK), 0, 0, d_in, 2.0f, n);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(tree_sum), dim3(n / BLOCK), dim3(BLOCK), 0, 0,
                     d_in, d_out, n);
  hipError_t err = hipDeviceSynchronize();
  if (err != hipSuccess) printf("%s\\n", hipGetErrorString(err));
  hipFree(d_in); hipFree(d_out);
  return 0;
}
"""


def test_a_hip_launch_is_written_as_the_chevron_launch_it_expands_to():
    text = "a;\nhipLaunchKernelGGL(HIP_KERNEL_NAME(k<float, 4>), dim3(g), dim3(b), 0, stream,\n  x, n);\nb;\n"
    out = expand_hip_launches(text)
    assert out.splitlines()[1] == "k<float, 4><<<dim3(g), dim3(b), 0, stream>>>(x, n)"  # the newlines it spanned after
    assert out.count("\n") == text.count("\n") and out.splitlines()[3] == "b;"


def _scan(root: Path, sync: str, name: str = "main.cu") -> dict:
    (root / name).write_text(PROGRAM.replace("SYNC", sync))
    out = runner.invoke(app, ["scan", str(root), "--no-cache", "--budget", "2", "-j", "1", "--format", "json"])
    return {k["name"]: k for f in json.loads(out.stdout)["files"] for k in f["kernels"]}


@pytest.mark.parametrize("name", ["main.cu", "main.hip"])
def test_a_hip_program_compiles_and_its_race_shows_at_its_launch(tmp_path: Path, name: str):
    kernels = _scan(tmp_path, "", name)
    assert {k: v["status"] for k, v in kernels.items()} == {"tree_sum": "analysed", "scale": "analysed"}
    races = [f for f in kernels["tree_sum"]["findings"] if f["kind"] == "race" and f["severity"] == "error"]
    assert races and races[0]["launch"]["origin"].startswith(f"host launch at {name}:26"), races
    assert not [f for f in kernels["scale"]["findings"] if f["severity"] == "error"]


def test_the_fixed_hip_program_is_clean(tmp_path: Path):
    kernels = _scan(tmp_path, "__syncthreads();")
    assert all(v["status"] == "analysed" for v in kernels.values())
    assert not [f for k in kernels.values() for f in k["findings"] if f["severity"] == "error"], kernels


def test_allocations_through_a_check_macro_keep_their_own_lengths(tmp_path: Path):
    """``CHECK(hipMalloc(&d_bins, …)); CHECK(hipMalloc(&d_data, …));``: ``hipMalloc`` is a macro of the shim, so its
    token is spelled in the shim; each call is placed at its own use, and each buffer takes its own bytes (the
    first call's bytes were every buffer's)."""
    from simu.host.contracts import contracts_for
    from simu.host.index import build_host_index

    (tmp_path / "main.cu").write_text("""#include <hip/hip_runtime.h>
#include <cstdlib>
#define CHECK(condition) { const hipError_t error = condition; if (error != hipSuccess) exit(1); }
__global__ void hist(const unsigned char *data, unsigned int *bins, int per) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per; i++) atomicAdd(&bins[data[t * per + i]], 1u);
}
int main() {
  const int size = 1024 * 1024, per = 1024, threads = 128, bin_size = 256;
  const int blocks = size / (per * threads);
  unsigned char *d_data; unsigned int *d_bins;
  CHECK(hipMalloc(&d_bins, sizeof(unsigned int) * bin_size * blocks));
  CHECK(hipMalloc(&d_data, sizeof(unsigned char) * size));
  hist<<<blocks, threads>>>(d_data, d_bins, per);
  return 0;
}
""")
    index = build_host_index(tmp_path, [tmp_path / "main.cu"])
    (c,) = contracts_for(index, "hist", [("data", 1), ("bins", 4), ("per", None)], None).contracts
    assert c.buffer_lengths == {"data": "1048576", "bins": "2048"}, c.buffer_lengths
