// A 16x16 tile transpose; the block comes from an array of local sizes.
// Bug: the transposed slot is read before its writer is known to have written it.
#include <cuda_runtime.h>

__global__ void transpose(const float *in, float *out, int width) {
    __shared__ float t[16][16];
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    t[threadIdx.y][threadIdx.x] = in[y * width + x];
    // (missing __syncthreads() before reading the transposed slot)
    int ox = blockIdx.y * 16 + threadIdx.x, oy = blockIdx.x * 16 + threadIdx.y;
    out[oy * width + ox] = t[threadIdx.x][threadIdx.y];
}

int main() {
    const int width = 64;
    float *in, *out;
    cudaMalloc(&in, width * width * sizeof(float));
    cudaMalloc(&out, width * width * sizeof(float));
    size_t local[2] = {16, 16};
    dim3 block(local[0], local[1]);
    dim3 grid(width / local[0], width / local[1]);
    transpose<<<grid, block>>>(in, out, width);
    cudaDeviceSynchronize();
    return 0;
}
