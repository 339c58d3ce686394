// expect: out-of-bounds global line 14
// launch: grid=4 block=256 n=1000 x=float32:1000 d=float32:1000
// Whole program: forward differences d[i] = x[i + 1] - x[i] of N = 1000 samples. The host allocates N
// floats for x (cudaMalloc below) and launches one thread per sample.
// BUG: the guard is i < n, so thread n - 1 reads x[n], one past the host's allocation. Because the host
// says how long x is, this is an error; with no host code, a buffer length the search chose would only
// make it a warning (the host might allocate n + 1). Fixed version: tail_read_fixed.cu.
#include <cuda_runtime.h>

#define N 1000

__global__ void forward_diff(const float *x, float *d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = x[i + 1] - x[i];
}

int main() {
    float *x, *d;
    cudaMalloc(&x, N * sizeof(float));
    cudaMalloc(&d, N * sizeof(float));
    forward_diff<<<(N + 255) / 256, 256>>>(x, d, N);
    cudaDeviceSynchronize();
    return 0;
}
