// expect: clean
// launch: grid=1 block=96 out=float32:96 in=float32:96
// Whole program: the fixed version of wrapper_racy_block.cu. The shared array has one slot per thread of
// the largest block the wrapper is called with (128), and the neighbour index wraps at the block size, so
// no two threads write the same slot on the host's 96-thread launch.
#include <cuda_runtime.h>

__global__ void slot(float *out, const float *in) {
    __shared__ float s[128];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[(t + 1) % blockDim.x];
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
