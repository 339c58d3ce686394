// expect: out-of-bounds global line 16
// launch: grid=8 block=128 in=float32:1000 sums=float32:8 n=1000
// Whole program: option_sizes_multiple.cu with a default size that is not a multiple of the tile.
// BUG: run without options, the program takes sizes[0] = 1000 floats and rounds the grid up to 8 blocks
// of 128 threads, but the kernel loads its tile without a bounds check: the last block reads in[1000..1023].
// Fixed version: option_sizes_multiple.cu.
#include <cuda_runtime.h>
#include <stdlib.h>

#define TILE 128

__global__ void tile_sums(const float *in, float *sums, int n) {
    __shared__ float tile[TILE];
    int t = threadIdx.x;
    tile[t] =
        in[blockIdx.x * TILE + t];
    __syncthreads();
    for (int s = TILE / 2; s > 0; s >>= 1) {
        if (t < s) tile[t] += tile[t + s];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = tile[0] / n;
}

int main(int argc, char **argv) {
    const int sizes[3] = {1000, 4096, 16384};
    int choice = 0;
    if (argc > 1) choice = atoi(argv[1]);
    int n = sizes[choice];
    float *in, *sums;
    const int blocks = (n + TILE - 1) / TILE;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&sums, blocks * sizeof(float));
    tile_sums<<<blocks, TILE>>>(in, sums, n);
    cudaDeviceSynchronize();
    return 0;
}
