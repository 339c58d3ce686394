// The tile size is a class's constexpr; main asserts that it divides the problem size read at run time and a
// wrapper launches a rounded-up grid of tiles, so every thread of the program's launches has its own element.
// Without the assert (n = 38) threads i and i + n of the last tile would share one.
// Bug: thread i writes element (i / 2) % n: threads 2k and 2k + 1 write the same element, whatever n.
#include <cassert>
#include <cstdlib>
#include <cuda_runtime.h>

struct Tiling {
    static constexpr int tile = 256;
};

__global__ void scale(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[(i / 2) % n] = 2.0f * in[i % n];
}

static void run(const float *in, float *out, int n) {
    scale<<<(n + Tiling::tile - 1) / Tiling::tile, Tiling::tile>>>(in, out, n);
}

int main(int argc, char **argv) {
    if (argc < 2)
        return 1;
    int n = atoi(argv[1]);
    assert(n % Tiling::tile == 0);
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    run(in, out, n);
    cudaDeviceSynchronize();
    return 0;
}
