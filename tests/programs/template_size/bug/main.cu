// The launching function is a template over its block size; the program instantiates it at 128.
// Bug: 64 slots for 128 threads: threads t and t + 64 share a slot.
#include <cuda_runtime.h>

__global__ void partial(const float *in, float *out) {
    __shared__ float s[64];
    s[threadIdx.x % 64] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0] + s[64 - 1];
}

template <int BS>
void run(const float *in, float *out, int n) {
    partial<<<n / BS, BS>>>(in, out);
}

int main() {
    const int n = 2048;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    run<128>(in, out, n);
    cudaDeviceSynchronize();
    return 0;
}
