"""A launch that stops at the trace limit is judged on the part that ran (issue 31, long-running threads): where
the trace fills does not depend on the machine, so its races and memory errors are judged as any launch's (an
error at the program's own launch), each saying which part ran; the kernel is analysed on that part, its reason
saying which part ran."""

from __future__ import annotations

from simu.scan import ScanOverrides, resolve_options, scan

PROGRAM = """#include <cuda_runtime.h>

__global__ void scaled_sum(float *a, const float *b, int n) {
  __shared__ float s[128];
  s[threadIdx.x] = b[threadIdx.x];
  SYNC
  float v = s[(threadIdx.x + 1) % 128];
  for (int i = 0; i < n; ++i) a[threadIdx.x] += v * b[i % 128];
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 128 * sizeof(float));
  cudaMalloc(&b, 128 * sizeof(float));
  scaled_sum<<<1, 128>>>(a, b, 1 << 22);
  cudaDeviceSynchronize();
  return 0;
}
"""


def _kernel(tmp_path, sync: str):
    (tmp_path / "long.cu").write_text(PROGRAM.replace("SYNC", sync))
    # the launch's time bound is the budget (at most a searched launch's 2 s): where the trace fills does not depend
    # on the machine, when it fills does, so the bound leaves a slow machine three times the time the trace needs
    options, config = resolve_options([tmp_path], ScanOverrides(budget=3, jobs=1, no_cache=True))
    return scan(options, config).files[0].kernels[0]


def test_a_race_in_the_part_that_ran_of_the_programs_launch_is_an_error_that_says_so(tmp_path):
    k = _kernel(tmp_path, "")
    assert k.status == "analysed" and k.reason.startswith("partly analysed") and "trace limit" in k.reason
    assert "grid 1x1x1, block 128x1x1" in k.reason
    races = [f for f in k.findings if f.kind == "race"]
    assert races and {f.severity for f in races} == {"error"}
    race = races[0]
    assert {race.first.line, race.second.line} == {5, 7}
    assert race.launch.origin.startswith("host launch at long.cu:15")
    assert "seen in the part of the launch that ran: its first" in race.message and "trace limit" in race.message
    assert "partial" in race.detail


def test_the_twin_with_its_barrier_is_silent(tmp_path):
    k = _kernel(tmp_path, "__syncthreads();")
    assert k.status == "analysed" and k.reason.startswith("partly analysed") and k.findings == []
