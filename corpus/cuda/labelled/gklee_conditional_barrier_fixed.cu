// expect: clean
// launch: grid=2 block=128 n=256 scale=2.0 in=float32:256
// Producer/consumer split of a block: warp 0 loads a 128-element tile into shared memory and
// warps 1..3 scale it into out (each consumer thread handles one or two elements).
// FIX of gklee_conditional_barrier.cu: the role-dependent work stays in the branches, the
// one __syncthreads() between production and consumption is outside them, so every thread
// of the block reaches the same barrier.
// Buffers: in and out hold n floats, n a multiple of 128.

#define TILE 128

__global__ void produce_consume(const float *in, float *out, int n, float scale) {
  __shared__ float tile[TILE];
  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int base = blockIdx.x * TILE;

  if (warp == 0)
    for (int k = tid; k < TILE; k += 32) tile[k] = base + k < n ? in[base + k] : 0.0f;
  __syncthreads();
  if (warp != 0)
    for (int k = tid - 32; k < TILE; k += blockDim.x - 32)
      if (base + k < n) out[base + k] = scale * tile[k];
}
