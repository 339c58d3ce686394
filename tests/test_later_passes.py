"""A while loop's later passes (simu/host/ast/facts.py ``loop_stmt``): a launch inside ``while (in_len > 0)`` whose
``in_len`` the body copies back from the device is made with 1 on the first pass and with a value simu cannot read
on the next ones, which the search draws; a count the search draws larger than the buffer the host allocates for
it is no value the program passes (simu/evolve/refute_counts.py)."""

from __future__ import annotations

import math
from pathlib import Path

from simu import codes
from simu.api import load_source
from simu.evolve import Budget
from simu.evolve.refute_counts import refute_by_counts
from simu.evolve.search import Search
from simu.host.ast.expr import Const, Unknown
from simu.host.ast.program import read_host_file
from simu.host.contracts import kernel_contracts
from simu.launch.constraints import KernelConstraints
from simu.pipeline import ASSUMPTION, CheckSettings

LOOP = """#include <cuda_runtime.h>
__global__ void expand(const int *in_wl, int in_len, int *out_wl, int *out_len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < in_len) out_wl[atomicAdd(out_len, 1)] = in_wl[i] + 1;
}
int main() {
  int n = 1024, in_len = 1;
  int *d_in, *d_out, *d_len;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMalloc(&d_len, sizeof(int));
  while (in_len > 0) {
    cudaMemset(d_len, 0, sizeof(int));
    expand<<<(in_len + 255) / 256, 256>>>(d_in, in_len, d_out, d_len);
    cudaMemcpy(&in_len, d_len, sizeof(int), cudaMemcpyDeviceToHost);
    int *t = d_in; d_in = d_out; d_out = t;
  }
  return 0;
}
"""


def test_a_while_loop_launches_on_its_first_pass_and_on_later_ones(tmp_path: Path):
    src = tmp_path / "bfs.cu"
    src.write_text(LOOP)
    (main,) = [f for f in read_host_file(src, tmp_path) if f.name == "main"]
    lens = [x.args[1] for x in main.launches]
    assert lens[0] == Const(1) and isinstance(lens[1], Unknown) and "cudaMemcpy" in lens[1].why
    assert [x.later for x in main.launches] == [False, True]
    module = load_source(LOOP, "cuda", path=str(src))
    contracts = kernel_contracts(src, module.kernels[0], None).contracts
    assert [c.args.get("in_len") for c in contracts] == [1, None]
    assert "on a later pass of its while loop" in contracts[1].origin


COUNTS = """
__global__ void copy(const int *wl, int len, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < len) out[i] = wl[i];
}
"""


def test_a_count_larger_than_the_buffer_the_host_allocates_is_a_warning_that_says_which_values_show_it():
    module = load_source(COUNTS, "cuda")
    s = Search(module, module.kernels[0], CheckSettings(), KernelConstraints(
        grid=(1, 1, 1), block=(128, 1, 1), buffer_lengths={"wl": "64", "out": "64"}),
        budget=Budget(evaluations=40, seconds=600, probe_seconds=120), seed=0)
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.scalar(0)] = 100.0
    genes[s.layout.at.GRID] = [0.0, 0.0, 0.0]
    genes[s.layout.at.BLOCK] = [math.log2(128), 0.0, 0.0]
    assert s.evaluate(genes).valid
    assert any(f.kind == "out-of-bounds" and f.severity == codes.ERROR for f, _ in s.found.values())
    refute_by_counts(s)
    oob = [f for f, _ in s.found.values() if f.kind == "out-of-bounds"]
    assert oob and all(f.severity == codes.WARNING for f in oob), oob
    assert all("only when len > 64, the elements of 'wl'" in f.detail[ASSUMPTION] or
               "only when len > 64, the elements of 'out'" in f.detail[ASSUMPTION] for f in oob)


def test_a_count_the_host_keeps_above_a_size_is_judged_on_a_buffer_grown_to_it():
    """The host launches only when ``len >= 256`` (a multi-block pass) and allocates ``wl`` of ``n`` elements: the
    count cannot be lowered to the buffer, so the buffer's size argument is raised to the count instead."""
    module = load_source(COUNTS.replace("const int *wl, int len, int *out", "const int *wl, int len, int *out, int n"),
                         "cuda")
    s = Search(module, module.kernels[0], CheckSettings(), KernelConstraints(
        grid=(1, 1, 1), block=(512, 1, 1), buffer_lengths={"wl": "n", "out": "512"}, requires=["len >= 256"]),
        budget=Budget(evaluations=40, seconds=600, probe_seconds=120), seed=0)
    index = {p.name: j for j, p in enumerate(s.layout.scalars)}
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.scalar(index["len"])] = 300.0
    genes[s.layout.at.scalar(index["n"])] = 100.0
    genes[s.layout.at.GRID] = [0.0, 0.0, 0.0]
    genes[s.layout.at.BLOCK] = [math.log2(512), 0.0, 0.0]
    assert s.evaluate(genes).valid
    assert any(f.kind == "out-of-bounds" and f.variable == "wl" and f.severity == codes.ERROR
               for f, _ in s.found.values())
    refute_by_counts(s)
    oob = [f for f, _ in s.found.values() if f.kind == "out-of-bounds" and f.variable == "wl"]
    assert oob and all(f.severity == codes.WARNING for f in oob), oob
    assert all("only when len > n: 'wl' holds n elements the host allocates" in f.detail[ASSUMPTION] for f in oob)
