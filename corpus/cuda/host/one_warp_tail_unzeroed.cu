// expect: uninitialized shared line 17
// launch: grid=4 block=32 in=float32:128 out=float32:4
// Whole program: a warp-synchronous sum written for one warp per block (the host launches 32 threads).
// BUG: unlike contract/one_warp_tail_zero.cu, the upper half of the buffer is never zeroed, so the
// first step of the tree (d = 16) reads s[32..47], which no thread wrote. On the host's 32-thread
// launch that is the kernel's bug, not a launch outside its contract.
#include <cuda_runtime.h>

__global__ void warp_sum(const float *in, float *out) {
    volatile __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 32 + t];
    __syncwarp();
    for (int d = 16; d > 0; d >>= 1) {
        float v =
            s[t] +
            s[t + d];
        __syncwarp();
        s[t] = v;
        __syncwarp();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
    float *in, *out;
    cudaMalloc(&in, 4 * 32 * sizeof(float));
    cudaMalloc(&out, 4 * sizeof(float));
    warp_sum<<<4, 32>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
