// A struct of sizes set member by member (one from the command line, with a default) and copied into __constant__
// memory: the kernel's loop bound is what the host copies, not zero. Each block counts its items into shared
// buckets with a plain increment, so two threads of a block that meet a bucket race.
#include <cstdlib>
#include <cuda_runtime.h>

struct Counts {
  int items;
  int buckets;
};
__constant__ Counts C;

__global__ void bucket_count(const int *keys, int *out) {
  extern __shared__ int bucket[];
  for (int b = threadIdx.x; b < C.buckets; b += blockDim.x) bucket[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < C.items; i += gridDim.x * blockDim.x)
    bucket[keys[i] % C.buckets] += 1;
  __syncthreads();
  for (int b = threadIdx.x; b < C.buckets; b += blockDim.x) atomicAdd(&out[b], bucket[b]);
}

int main(int argc, char **argv) {
  Counts c;
  c.items = argc > 1 ? atoi(argv[1]) : 8192;
  c.buckets = 16;
  int *keys, *out;
  cudaMalloc(&keys, c.items * sizeof(int));
  cudaMalloc(&out, c.buckets * sizeof(int));
  cudaMemset(out, 0, c.buckets * sizeof(int));
  cudaMemcpyToSymbol(C, &c, sizeof(Counts));
  bucket_count<<<8, 128, c.buckets * sizeof(int)>>>(keys, out);
  cudaDeviceSynchronize();
  return 0;
}
