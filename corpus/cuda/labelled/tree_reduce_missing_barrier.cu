// expect: race shared read-write line 21
// (intra-warp pairs of the same two lines: part of the race, no separate warp-race)
// launch: grid=4 block=256 n=1000 in=float32:1000
// Block sum by tree reduction in shared memory, the classic first CUDA reduction.
// BUG (missing barrier): the loop has no __syncthreads() between levels, so at level s a
// thread reads sdata[tid + s] that another thread may not have finished writing at the
// previous level.  Across warps (levels 128, 64, 32) nothing orders them: a race.  Inside
// warp 0 (the last levels) lockstep execution happens to order them, but not under
// independent thread scheduling.  (tree_reduce_fixed.cu has the barrier.)
// Buffers: in holds n floats, partial one float per block.

#define BLOCK 256

__global__ void reduce_sum(const float *in, float *partial, int n) {
  __shared__ float sdata[BLOCK];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * BLOCK + tid;
  sdata[tid] = i < (unsigned int)n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}
