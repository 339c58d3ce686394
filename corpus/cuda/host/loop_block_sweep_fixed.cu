// expect: clean
// launch: grid=64 block=32 in=float32:2048 out=float32:2048
// Whole program: a benchmark sweeps the block size over 32 and 64 threads; the kernel stages its values in a
// 64-slot shared tile at t % 64, which never wraps at these block sizes.
// simu reads the sweep's first pass (32 threads; the block is not constant in the loop). Buggy version:
// loop_block_sweep_wrap.cu (the sweep starts at 128 threads).
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
    for (int threads = 32; threads <= TILE; threads *= 2) {
        const int blocks = n / threads;
        stage<<<blocks, threads>>>(in, out);
        cudaDeviceSynchronize();
    }
    return 0;
}
