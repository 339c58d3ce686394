// expect: clean
// launch: grid=8 block=128 in=float32:1024 sums=float32:8
// Whole program: each block loads a 128-element tile without a bounds check and sums it. The host makes
// n a multiple of the tile (BLOCKS * TILE elements, cudaMalloc below) and launches exactly n / TILE
// blocks, so every load is inside `in`. Buggy version: tiled_sum_tail_oob.cu.
#include <cuda_runtime.h>

#define TILE 128
#define BLOCKS 8

__global__ void tile_sums(const float *in, float *sums) {
    __shared__ float tile[TILE];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * TILE + t];
    __syncthreads();
    for (int s = TILE / 2; s > 0; s >>= 1) {
        if (t < s) tile[t] += tile[t + s];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = tile[0];
}

int main() {
    const int n = BLOCKS * TILE;
    float *in, *sums;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&sums, BLOCKS * sizeof(float));
    tile_sums<<<n / TILE, TILE>>>(in, sums);
    cudaDeviceSynchronize();
    return 0;
}
