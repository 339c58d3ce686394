"""A constant expression holding the distance between two module globals (``(char *)a - (char *)b``, clang folds
it into ``sub (ptrtoint @a, ptrtoint @b)``): the machine computes it per lane, so a pointer moved from one shared
array to the same place in another lands there in every block."""

from __future__ import annotations

import numpy as np

from simu.api import load_source
from simu.interp import run
from simu.ir.constants import RefDifference
from simu.launch import Launch

# a rasteriser's coarse stage keeps two shared tables side by side and moves a pointer from one to the other
REBASE = r"""
__global__ void rebase(const unsigned *in, unsigned *out) {
  __shared__ unsigned s_count[64];
  __shared__ unsigned s_mask[64];
  int t = threadIdx.x;
  s_count[t] = in[blockIdx.x * 64 + t];
  s_mask[t] = in[blockIdx.x * 64 + t] ^ 0xFFu;
  __syncthreads();
  unsigned char *p = (unsigned char *)&s_count[(t + 1) % 64];
  unsigned mask = *(unsigned *)(p + ((unsigned char *)s_mask - (unsigned char *)s_count));
  out[blockIdx.x * 64 + t] = mask;
}
"""


def test_a_pointer_moved_between_shared_arrays_reads_the_other_array_in_every_block():
    module = load_source(REBASE, "cuda")
    kernel = module.kernel()
    assert any(isinstance(op.value, RefDifference) for b in kernel.function.blocks for ins in b.instrs
               for op in ins.ops if op.kind == "const")
    data = np.arange(192, dtype=np.uint32) * 7
    result = run(module, kernel, Launch((3, 1, 1), (64, 1, 1), {"in": data, "out": np.zeros(192, np.uint32)}))
    assert result.outcome.completed, result.outcome
    expected = [int(data[b * 64 + (t + 1) % 64]) ^ 0xFF for b in range(3) for t in range(64)]
    assert result.buffers["out"].view(np.uint32).tolist() == expected
