"""Which buffers' values pick a kernel's addresses, and which buffers it writes (simu/evolve/dependence.py): through
arithmetic, other loads, a shared tile the values were stored to or copied into, and calls."""

from __future__ import annotations

from simu.api import load_source
from simu.evolve.dependence import KernelFlow

KERNELS = """
struct pair { unsigned a, b; };
__global__ void reorder(const pair *keys, const unsigned *offsets, unsigned *out, int n) {
  __shared__ pair tile[128];
  __shared__ unsigned s_off[16];
  tile[threadIdx.x] = keys[blockIdx.x * 128 + threadIdx.x];
  if (threadIdx.x < 16) s_off[threadIdx.x] = offsets[threadIdx.x * gridDim.x + blockIdx.x];
  __syncthreads();
  unsigned radix = tile[threadIdx.x].a & 15;
  out[s_off[radix] + threadIdx.x] = tile[threadIdx.x].b;
  out[n + blockIdx.x] = 1;
}
__global__ void gather(const int *row, const int *col, const float *x, float *y, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) y[v] = x[col[row[v]]];
}
"""


def _flow(name: str) -> tuple[KernelFlow, dict[str, tuple]]:
    module = load_source(KERNELS, "cuda")
    kernel = next(k for k in module.kernels if k.display_name.startswith(name))
    flow = KernelFlow(kernel)
    lines = {}
    for ins in flow.instrs:
        if ins.opcode in ("load", "store") and ins.loc is not None:
            lines.setdefault(ins.loc.line, set()).add(("", ins.loc.line, ins.loc.col))
    return flow, lines


def test_an_address_read_through_a_shared_tile_depends_on_the_buffers_loaded_into_it():
    flow, lines = _flow("reorder")
    line = KERNELS.splitlines().index("  out[s_off[radix] + threadIdx.x] = tile[threadIdx.x].b;") + 1
    assert flow.address_sources(lines[line]) >= {"offsets", "keys"}
    fixed = KERNELS.splitlines().index("  out[n + blockIdx.x] = 1;") + 1
    assert flow.address_sources(lines[fixed]) == frozenset()  # thread indices and a scalar only
    assert flow.written_params() == {"out"}  # a copied-in record reads keys, it does not write it


def test_an_index_read_through_another_load_carries_both_buffers():
    flow, lines = _flow("gather")
    line = KERNELS.splitlines().index("  if (v < n) y[v] = x[col[row[v]]];") + 1
    assert flow.address_sources(lines[line]) == {"row", "col"}
    assert flow.written_params() == {"y"}
