// A blur over 16x8 tiles. The block is built member by member and the scale is a literal double.
// Fixed twin: the barrier is there; at the program's 16x8 blocks and scale 0.1 nothing races.
#include <cuda_runtime.h>
#define BLOCKSIZEX 16
#define BLOCKSIZEY 8

__global__ void blur(int n, float scale, float *out, int *info) {
    __shared__ float tile[BLOCKSIZEY][BLOCKSIZEX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int i = (blockIdx.y * blockDim.y + ty) * (gridDim.x * blockDim.x) + blockIdx.x * blockDim.x + tx;
    tile[ty][tx] = i < n ? out[i] : 0.0f;
    __syncthreads();
    float v = tile[(ty + 4) % BLOCKSIZEY][tx];
    if (scale < 0.0f)
        info[0] = ty;  // a negative scale is an error the program reports; it never passes one
    if (i < n)
        out[i] = v * scale;
}

int main() {
    dim3 Bsz;
    Bsz.x = BLOCKSIZEX;
    Bsz.y = BLOCKSIZEY;
    dim3 Gsz(4, 4);
    int n = 4 * 4 * BLOCKSIZEX * BLOCKSIZEY;
    float *out;
    int *info;
    cudaMalloc(&out, n * sizeof(float));
    cudaMalloc(&info, sizeof(int));
    blur<<<Gsz, Bsz, 0>>>(n, 0.1, out, info);
    cudaDeviceSynchronize();
    return 0;
}
