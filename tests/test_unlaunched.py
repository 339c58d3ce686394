"""A kernel no host code launches, beside kernels of its file that the host code does launch, is an unused
variant: its findings are at most warnings that say so (simu.report.unused.py).  A file none of whose kernels
the host code launches keeps the search's severities."""

from __future__ import annotations

from pathlib import Path

from simu import codes
from simu.pipeline import ASSUMPTION
from simu.scan import ScanOverrides, resolve_options, scan

KERNELS = """
__global__ void reduce0(const float *in, float *out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = t < n ? in[t] : 0;
  for (int d = blockDim.x / 2; d > 0; d /= 2) { if (t < d) s[t] += s[t + d]; }
  if (t == 0) out[blockIdx.x] = s[0];
}
__global__ void reduce1(const float *in, float *out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = t < n ? in[t] : 0;
  __syncthreads();
  for (int d = blockDim.x / 2; d > 0; d /= 2) { if (t < d) s[t] += s[t + d]; __syncthreads(); }
  if (t == 0) out[blockIdx.x] = s[0];
}
"""
MAIN = """
int main() {
  float *in, *out; int n = 256;
  cudaMalloc(&in, n * 4); cudaMalloc(&out, 4);
  reduce1<<<1, 256>>>(in, out, n);
  return 0;
}
"""


def _races(root: Path, name: str) -> list:
    result = scan(*resolve_options([root], ScanOverrides(budget=2.0, jobs=1, no_cache=True)))
    kernel = next(k for _, k in result.kernels() if k.name.startswith(name))
    return [f for f in kernel.findings if f.kind == "race"]


def test_an_unused_variant_beside_a_launched_kernel_gets_warnings_that_say_so(tmp_path: Path):
    (tmp_path / "k.cu").write_text(KERNELS + MAIN)
    races = _races(tmp_path, "reduce0")
    assert races and all(f.severity == codes.WARNING for f in races), races
    assert all("no host code launches reduce0, while it launches reduce1" in f.detail[ASSUMPTION] for f in races)


def test_a_file_whose_kernels_no_host_code_launches_keeps_its_errors(tmp_path: Path):
    (tmp_path / "k.cu").write_text(KERNELS)
    races = _races(tmp_path, "reduce0")
    assert races and all(f.severity == codes.ERROR for f in races), races
