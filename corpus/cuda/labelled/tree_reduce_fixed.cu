// expect: clean
// launch: grid=4 block=256 n=1000 in=float32:1000
// Block sum by tree reduction in shared memory, the classic first CUDA reduction.
// FIX of tree_reduce_missing_barrier.cu: a __syncthreads() at the end of every level, so a
// level only reads partial sums the previous level has finished writing.  (The barrier is
// needed across warps at levels 128, 64 and 32; at the last levels it also orders the
// lanes of warp 0 under independent thread scheduling.)
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
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}
