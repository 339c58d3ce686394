// A benchmark runs the kernel at three block sizes from a table.
// Fixed twin: a slot per thread, and the table's largest block (128) fits the 128 slots.
#include <cuda_runtime.h>

__global__ void stage(const float *in, float *out) {
    __shared__ float s[128];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = 2.0f * s[threadIdx.x];
}

int main() {
    const int n = 4096;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    int sizes[] = {32, 64, 128};
    for (int j = 0; j < 3; j++) {
        stage<<<n / sizes[j], sizes[j]>>>(in, out);
        cudaDeviceSynchronize();
    }
    return 0;
}
