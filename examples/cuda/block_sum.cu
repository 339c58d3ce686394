// Block-wise sum with a shared-memory tree reduction.
// BUG (planted): the barrier inside the loop is missing, so threads read partial sums that
// other warps have not written yet (a read-write race on `partial`).
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 128

__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[THREADS];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    // missing: __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}

int main() {
  const int n = 1 << 12;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, (n / THREADS) * sizeof(float));
  block_sum<<<n / THREADS, THREADS>>>(in, out, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
