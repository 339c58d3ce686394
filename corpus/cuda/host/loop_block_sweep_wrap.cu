// expect: race
// launch: grid=16 block=128 in=float32:2048 out=float32:2048
// Whole program: a benchmark sweeps the block size from 128 to 512 threads, but the kernel stages its values
// in a 64-slot shared tile at t % 64: threads t and t + 64 of a block write the same slot.
// simu reads the sweep's first pass (128 threads). Fixed version: loop_block_sweep_fixed.cu.
#include <cuda_runtime.h>

#define TILE 64

__global__ void stage(const float *in, float *out) {
    __shared__ float tile[TILE];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    tile[t % TILE] = in[i];
    __syncthreads();
    out[i] = 2.0f * tile[t % TILE];
}

int main() {
    const int n = 2048;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    for (int threads = 128; threads <= 512; threads *= 2) {
        const int blocks = n / threads;
        stage<<<blocks, threads>>>(in, out);
        cudaDeviceSynchronize();
    }
    return 0;
}
