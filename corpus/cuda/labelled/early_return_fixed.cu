// expect: clean
// launch: grid=3 block=128 n=300 in=float32:300
// Forward difference d[i] = x[i + 1] - x[i] with the block's samples staged in shared memory
// (the last thread of a block reads the neighbour from global memory).
// FIX of early_return_divergence.cu: threads past n load nothing but stay until after the
// barrier, so every thread of the block reaches it; the early exit comes after it.
// Buffers: in holds n floats, out n - 1 floats (sized n).

#define BLOCK 128

__global__ void forward_diff(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * BLOCK + tid;
  if (i < n) s[tid] = in[i];
  __syncthreads();
  if (i >= n) return;

  if (i + 1 < n) {
    const float next = tid + 1 < BLOCK ? s[tid + 1] : in[i + 1];
    out[i] = next - s[tid];
  }
}
