// expect: clean
// launch: grid=4 block=128 n=500 in=float32:500
// Block-wise maximum: each block reduces its 128 elements in shared memory (a barrier
// after the loads and after every level) and thread 0 stores the block's maximum.
// FIX of gklee_inter_block_race.cu: each block stores to its own out[blockIdx.x]; a second
// pass (or the host) takes the maximum of the gridDim.x partial results.
// Buffers: in holds n floats, out one float per block.
#include <cfloat>

#define BLOCK 128

__global__ void block_max(const float *in, float *out, int n) {
  __shared__ float smax[BLOCK];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * BLOCK + tid;
  smax[tid] = i < n ? in[i] : -FLT_MAX;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smax[tid] = fmaxf(smax[tid], smax[tid + s]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = smax[0];
}
