// expect: clean
// launch: grid=4 block=256 n=1000 x=float32:1001 d=float32:1000
// Whole program: the fixed version of tail_read_oob.cu. The host allocates x with one sample more than
// the n differences it asks for (x holds N + 1 samples), so x[i + 1] stays inside x for every i < n.
#include <cuda_runtime.h>

#define N 1000

__global__ void forward_diff(const float *x, float *d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = x[i + 1] - x[i];
}

int main() {
    float *x, *d;
    cudaMalloc(&x, (N + 1) * sizeof(float));
    cudaMalloc(&d, N * sizeof(float));
    forward_diff<<<(N + 255) / 256, 256>>>(x, d, N);
    cudaDeviceSynchronize();
    return 0;
}
