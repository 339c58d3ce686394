// expect: out-of-bounds global line 16
// launch: grid=8 block=128 in=float32:1000 sums=float32:8
// Whole program: tiled_sum_multiple.cu with an n that is not a multiple of the tile.
// BUG: the host allocates N = 1000 floats and rounds the grid up to 8 blocks of 128 threads, but the
// kernel loads its tile without a bounds check: the last block reads in[1000..1023], past the host's
// allocation. Fixed version: tiled_sum_multiple.cu (n a multiple of the tile).
#include <cuda_runtime.h>

#define TILE 128
#define N 1000

__global__ void tile_sums(const float *in, float *sums) {
    __shared__ float tile[TILE];
    int t = threadIdx.x;
    tile[t] =
        in[blockIdx.x * TILE + t];
    __syncthreads();
    for (int s = TILE / 2; s > 0; s >>= 1) {
        if (t < s) tile[t] += tile[t + s];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = tile[0];
}

int main() {
    float *in, *sums;
    const int blocks = (N + TILE - 1) / TILE;
    cudaMalloc(&in, N * sizeof(float));
    cudaMalloc(&sums, blocks * sizeof(float));
    tile_sums<<<blocks, TILE>>>(in, sums);
    cudaDeviceSynchronize();
    return 0;
}
