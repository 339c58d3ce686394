// expect: clean
// launch: grid=8 block=128 in=float32:1024 sums=float32:8 n=1024
// Whole program: the problem size is picked from a table by a command-line option (0 when none is given),
// and every size in the table is a multiple of the tile, so the grid rounded up to whole tiles never
// reaches past `in` with its unchecked tile loads.
// simu reads the size the program runs with by default (sizes[0] = 1024). Buggy version:
// option_sizes_tail_oob.cu (a size that is not a multiple of the tile).
#include <cuda_runtime.h>
#include <stdlib.h>

#define TILE 128

__global__ void tile_sums(const float *in, float *sums, int n) {
    __shared__ float tile[TILE];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * TILE + t];
    __syncthreads();
    for (int s = TILE / 2; s > 0; s >>= 1) {
        if (t < s) tile[t] += tile[t + s];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = tile[0] / n;
}

int main(int argc, char **argv) {
    const int sizes[3] = {1024, 4096, 16384};
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
