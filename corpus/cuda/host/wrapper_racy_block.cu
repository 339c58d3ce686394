// expect: race
// launch: grid=1 block=96 out=float32:96 in=float32:96
// Whole program: a wrapper launches slot with the block size its caller passes (96 threads); the
// 32-slot shared tile is written at t % 32, so threads t, t+32 and t+64 write the same slot.
#include <cuda_runtime.h>

__global__ void slot(float *out, const float *in) {
    __shared__ float s[32];
    unsigned t = threadIdx.x;
    s[t % 32] = in[t];
    __syncthreads();
    out[t] = s[(t + 1) % 32];
}

void launch(float *o, const float *i, int threads) { slot<<<1, threads>>>(o, i); }

int main() {
    float *o, *i;
    cudaMalloc(&o, 96 * sizeof(float));
    cudaMalloc(&i, 96 * sizeof(float));
    launch(o, i, 96);
    cudaDeviceSynchronize();
    return 0;
}
