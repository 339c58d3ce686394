// expect: clean
// launch: grid=2 block=128 n=256 in=float32:256
// 3-point box filter over each block's samples with cooperative groups: the block's samples
// are staged in shared memory by thread rank, then every thread averages itself with its two
// neighbours (clamped at the block edges).
// The correct version of cg_block_sync_missing.cu: block.sync() (a __syncthreads() of the
// thread_block group) between staging and reading.
// Buffers: in and out hold n floats.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define BLOCK 128

__global__ void box3(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  cg::thread_block block = cg::this_thread_block();
  const int r = block.thread_rank();
  const int i = blockIdx.x * BLOCK + r;

  s[r] = i < n ? in[i] : 0.0f;
  block.sync();
  const int l = r > 0 ? r - 1 : r;
  const int h = r + 1 < BLOCK ? r + 1 : r;
  if (i < n) out[i] = (s[l] + s[r] + s[h]) / 3.0f;
}
