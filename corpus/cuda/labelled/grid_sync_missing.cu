// expect: race global read-write lines 20,24
// launch: grid=4 block=64 n=256 in=float32:256
// Two-phase neighbour smoothing in one cooperative kernel: phase 1 squares every sample into
// the scratch buffer tmp, phase 2 averages each sample with its right neighbour in tmp (the
// last sample wraps around to the first).  A thread's neighbour can live in another block:
// the last thread of every block reads what the first thread of the next block wrote.
// BUG (missing grid-wide barrier): nothing orders phase 1 of one block before phase 2 of
// another, so out[i] may read tmp[i + 1] before it is written; blocks are never ordered
// by __syncthreads().  (grid_sync_fixed.cu calls cg::this_grid().sync() between the phases;
// launch it with cudaLaunchCooperativeKernel.)
// Buffers: in, tmp and out hold n floats; n is a multiple of the block size.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void smooth_pairs(const float *in, float *tmp, float *out, int n) {
  cg::grid_group grid = cg::this_grid();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tmp[i] = in[i] * in[i];
  }
  __syncthreads();
  if (i < n) {
    const float right = tmp[(i + 1) % n];
    (void)grid;
    out[i] = 0.5f * (tmp[i] + right);
  }
}
