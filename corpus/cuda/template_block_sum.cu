// expect: clean
// launch: grid=4 block=128 n=500
// A kernel template: block-wise sum of T with the block size as a template parameter,
// instantiated from host code as block_sum<float, 128>.  Tree reduction in shared memory with
// a barrier after the loads and after every level; threads past n contribute T().
// Buffers: in holds n floats, partial holds one float per block.
#include <cuda_runtime.h>

template <typename T, unsigned int BLOCK>
__global__ void block_sum(const T *in, T *partial, int n) {
  __shared__ T sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  sdata[tid] = i < n ? in[i] : T();
  __syncthreads();
#pragma unroll
  for (unsigned int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

int main() {
  const int n = 500;
  const unsigned int block = 128;
  const int grid = (n + block - 1) / block;
  float *in, *partial;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, grid * sizeof(float));
  block_sum<float, block><<<grid, block>>>(in, partial, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(partial);
  return 0;
}
