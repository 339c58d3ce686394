// expect: clean
// launch: grid=4 block=256 n=1000
// Sum reduction: each block loads its 256 elements into shared memory (0 past n) and halves
// the active range per level; the barrier after the loads and the one at the end of every
// level separate each write of sdata from the reads of the next level.  blockDim.x must be
// a power of two <= 256.
// Buffers: in holds n floats, partial holds one float per block.

#define MAX_BLOCK 256

__global__ void reduce_shared(const float *in, float *partial, int n) {
  __shared__ float sdata[MAX_BLOCK];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < (unsigned int)n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}
