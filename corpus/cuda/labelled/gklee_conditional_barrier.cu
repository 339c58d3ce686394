// expect: barrier-divergence lines 22,24
// launch: grid=2 block=128 n=256 scale=2.0 in=float32:256
// Producer/consumer split of a block: warp 0 loads a 128-element tile into shared memory and
// warps 1..3 scale it into out (each consumer thread handles one or two elements).
// BUG (GKLEE: deadlock by conditional barrier): the producer and the consumers call two
// different __syncthreads() in the two branches of a warp-dependent if/else.  A barrier
// must be reached at the same program point by every thread of the block; here warp 0
// waits at one barrier and warps 1..3 at another, which is undefined behaviour (a hang on
// pre-Volta GPUs).  (gklee_conditional_barrier_fixed.cu uses one barrier after the if.)
// Buffers: in and out hold n floats, n a multiple of 128.

#define TILE 128

__global__ void produce_consume(const float *in, float *out, int n, float scale) {
  __shared__ float tile[TILE];
  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int base = blockIdx.x * TILE;

  if (warp == 0) {
    for (int k = tid; k < TILE; k += 32) tile[k] = base + k < n ? in[base + k] : 0.0f;
    __syncthreads();
  } else {
    __syncthreads();
    for (int k = tid - 32; k < TILE; k += blockDim.x - 32)
      if (base + k < n) out[base + k] = scale * tile[k];
  }
}
