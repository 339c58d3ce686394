// expect: clean
// launch: grid=8 block=128 k=8 in=float32:1024 acc=float32:8
// Whole program: the kernel of bucket_host_k_race.cu, launched with as many accumulators as blocks
// (k = 8 for 8 blocks): blockIdx.x % k is a different accumulator for every block, so the non-atomic +=
// never meets another block's. A search free to pick k would find the race of grids larger than k; the
// host's launch is the only one this program makes.
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
    const int blocks = 8;
    float *in, *acc;
    cudaMalloc(&in, blocks * 128 * sizeof(float));
    cudaMalloc(&acc, blocks * sizeof(float));
    bucket_sums<<<blocks, 128>>>(in, acc, blocks);
    cudaDeviceSynchronize();
    return 0;
}
