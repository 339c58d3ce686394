#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

__global__ void sumSquaresPartial(const float *x, int n, float *partial)
{
    extern __shared__ float buf[];
    int tid = threadIdx.x;

    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        acc += x[i] * x[i];
    buf[tid] = acc;
    __syncthreads();

    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            buf[tid] = buf[2 * tid] + buf[2 * tid + 1];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = buf[0];
}

static double normCpu(const std::vector<float> &x)
{
    double s = 0.0;
    for (float v : x)
        s += (double)v * v;
    return sqrt(s);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : (1 << 16) + 123;
    int blocks = argc > 2 ? atoi(argv[2]) : 48;

    std::vector<float> h_x(n);
    for (int i = 0; i < n; ++i)
        h_x[i] = 0.5f * sinf(0.001f * i) + 0.25f * cosf(0.013f * i + 1.0f);

    float *d_x = nullptr, *d_partial = nullptr;
    check(cudaMalloc(&d_x, n * sizeof(float)), "cudaMalloc x");
    check(cudaMalloc(&d_partial, blocks * sizeof(float)), "cudaMalloc partial");
    check(cudaMemcpy(d_x, h_x.data(), n * sizeof(float), cudaMemcpyHostToDevice), "copy x");

    const double ref = normCpu(h_x);
    int blockSizes[] = {64, 128, 256, 512};
    const int numConfigs = sizeof(blockSizes) / sizeof(blockSizes[0]);
    std::vector<float> h_partial(blocks);
    int failures = 0;

    for (int c = 0; c < numConfigs; ++c) {
        int threads = blockSizes[c];
        size_t shmem = threads * sizeof(float);
        sumSquaresPartial<<<blocks, threads, shmem>>>(d_x, n, d_partial);
        check(cudaGetLastError(), "launch");
        check(cudaMemcpy(h_partial.data(), d_partial, blocks * sizeof(float),
                         cudaMemcpyDeviceToHost), "copy partial");
        double s = 0.0;
        for (int b = 0; b < blocks; ++b)
            s += h_partial[b];
        double norm = sqrt(s);
        double rel = fabs(norm - ref) / ref;
        bool ok = rel < 1e-4;
        failures += ok ? 0 : 1;
        printf("threads %4d: ||x|| = %.6f (cpu %.6f) rel err %.2e %s\n", threads, norm, ref, rel,
               ok ? "OK" : "MISMATCH");
    }

    cudaFree(d_x);
    cudaFree(d_partial);
    return failures ? 1 : 0;
}
