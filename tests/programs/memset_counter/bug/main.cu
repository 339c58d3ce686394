// Kernels append records after a counter that the host clears with cudaMemset before each launch: an atomicAdd
// hands every thread its own slot.  Random bytes in the counter (what the program never has) would give two
// threads one slot: (int) of a float counter at 0.3 and 0.7 is 0 both times.
// Bug: slot k / 2: threads handed counts 2j and 2j + 1 write one record.
#include <cuda_runtime.h>

struct Detection {
    float x, y, score;
};

__global__ void collect(const float *score, float *out, int n, int max_out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || score[i] < 0.5f)
        return;
    int k = (int)atomicAdd(out, 1.0f);
    if (k >= max_out)
        return;
    Detection *d = (Detection *)(out + 1) + k / 2;
    d->x = (float)i;
    d->y = 0.0f;
    d->score = score[i];
}

int main() {
    const int n = 1024, max_out = 64;
    const int out_len = 1 + max_out * sizeof(Detection) / sizeof(float);
    float *score, *out;
    cudaMalloc(&score, n * sizeof(float));
    cudaMalloc(&out, out_len * sizeof(float));
    cudaMemset(out, 0, sizeof(float));
    collect<<<n / 256, 256>>>(score, out, n, max_out);
    cudaDeviceSynchronize();
    return 0;
}
