// expect: clean
// launch: grid=4 block=128 n=3000 data=uint8:3000
// 256-bin byte histogram.  Each block counts into a private copy in shared memory with
// shared atomics, then adds its non-zero bins to the global histogram with global atomics.
// The barriers separate clearing, counting and merging the shared copy.
// Buffers: data holds n bytes, hist holds 256 unsigned ints (zeroed by the host).
#include <cuda_runtime.h>

#define NUM_BINS 256

__global__ void histogram_atomic(const unsigned char *data, unsigned int *hist, int n) {
  __shared__ unsigned int local[NUM_BINS];
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
    unsigned int count = local[b];
    if (count) atomicAdd(&hist[b], count);
  }
}

int main() {
  const int n = 3000;
  unsigned char *data;
  unsigned int *hist;
  cudaMalloc(&data, n);
  cudaMalloc(&hist, NUM_BINS * sizeof(unsigned int));
  cudaMemset(data, 7, n);
  cudaMemset(hist, 0, NUM_BINS * sizeof(unsigned int));
  histogram_atomic<<<4, 128>>>(data, hist, n);
  cudaDeviceSynchronize();
  cudaFree(data);
  cudaFree(hist);
  return 0;
}
