// The launching function is a template over its block size; the program instantiates it at 128.
// Fixed twin: 128 slots for the program's 128 threads.
#include <cuda_runtime.h>

__global__ void partial(const float *in, float *out) {
    __shared__ float s[128];
    s[threadIdx.x % 128] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0] + s[128 - 1];
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
