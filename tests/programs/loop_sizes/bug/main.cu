// A benchmark runs the kernel at three block sizes from a table.
// Bug: the 64-slot staging array is shared by threads t and t + 64 once a block has 128 threads (the table's last size).
#include <cuda_runtime.h>

__global__ void stage(const float *in, float *out) {
    __shared__ float s[128];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    s[threadIdx.x % 64] = in[i];
    __syncthreads();
    out[i] = 2.0f * s[threadIdx.x % 64];
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
