// expect: barrier-divergence line 20
// launch: grid=3 block=128 n=300 in=float32:300
// Forward difference d[i] = x[i + 1] - x[i] with the block's samples staged in shared memory
// (the last thread of a block reads the neighbour from global memory).
// BUG (early return before __syncthreads): threads past n return at the top of the kernel.
// In the last block (samples 256..383, only 44 valid) the remaining threads then wait at the
// barrier for 84 threads that have exited: undefined behaviour (a hang on some GPUs).
// (early_return_fixed.cu keeps every thread alive until after the barrier.)
// Buffers: in holds n floats, out n - 1 floats (sized n).

#define BLOCK 128

__global__ void forward_diff(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * BLOCK + tid;
  if (i >= n) return;

  s[tid] = in[i];
  __syncthreads();

  if (i + 1 < n) {
    const float next = tid + 1 < BLOCK ? s[tid + 1] : in[i + 1];
    out[i] = next - s[tid];
  }
}
