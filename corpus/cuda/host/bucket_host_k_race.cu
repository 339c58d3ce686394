// expect: race global read-write line 19
// expect: race global write-write line 19
// launch: grid=8 block=128 k=4 in=float32:1024 acc=float32:4
// Whole program: each block sums its 128 values into accumulator blockIdx.x % k; the host launches 8
// blocks with k = 4 accumulators.
// BUG: blocks b and b + 4 share an accumulator and the += is not atomic. The same kernel is clean when
// the host gives each block its own accumulator (bucket_host_k_clean.cu: k = 8).
#include <cuda_runtime.h>

__global__ void bucket_sums(const float *in, float *acc, int k) {
    __shared__ float part[128];
    int t = threadIdx.x;
    part[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) acc[blockIdx.x % k] += part[0];
}

int main() {
    const int blocks = 8, k = 4;
    float *in, *acc;
    cudaMalloc(&in, blocks * 128 * sizeof(float));
    cudaMalloc(&acc, k * sizeof(float));
    bucket_sums<<<blocks, 128>>>(in, acc, k);
    cudaDeviceSynchronize();
    return 0;
}
