// expect: clean
// launch: grid=2 block=128 n=256 in=float32:256 scratch=float32:256
// Circular shift by one inside each block through a global scratch buffer (the block is too
// large for the shared memory the kernel is allowed, say).
// FIX of scratch_two_blocks_race.cu: each block uses its own slice
// scratch[blockIdx.x * blockDim.x ...], so blocks never touch the same slot; inside the block
// the barrier (which also fences global memory) orders the store and the load.
// Buffers: in and out hold n floats, scratch gridDim.x * blockDim.x floats.

__global__ void rotate_block(const float *in, float *out, float *scratch, int n) {
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + tid;

  float *mine = scratch + blockIdx.x * blockDim.x;
  mine[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  const int src = tid + 1 < blockDim.x ? tid + 1 : 0;
  if (i < n) out[i] = mine[src];
}
