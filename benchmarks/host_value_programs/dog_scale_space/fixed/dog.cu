#include <cmath>
#include "signal.h"

__constant__ float c_w[2 * kRadius + 1];

void setGaussianWeights(float sigma)
{
    float w[2 * kRadius + 1], sum = 0.0f;
    for (int k = -kRadius; k <= kRadius; ++k) {
        w[k + kRadius] = expf(-0.5f * k * k / (sigma * sigma));
        sum += w[k + kRadius];
    }
    for (int k = 0; k < 2 * kRadius + 1; ++k)
        w[k] /= sum;
    SS_CHECK(cudaMemcpyToSymbol(c_w, w, sizeof(w)));
}

__global__ void gaussDogKernel(const float *in, float *smooth, float *dog, int n, int *count)
{
    extern __shared__ float s[];
    int tid = threadIdx.x;
    int B = blockDim.x;
    int gid = blockIdx.x * B + tid;

    s[tid + kRadius] = gid < n ? in[gid] : in[n - 1];
    if (tid < kRadius) {
        int l = gid - kRadius;
        s[tid] = l >= 0 ? in[l] : in[0];
        int r = gid + B;
        s[tid + B + kRadius] = r < n ? in[r] : in[n - 1];
    }
    __syncthreads();

    if (gid < n) {
        float acc = 0.0f;
        for (int k = 0; k <= 2 * kRadius; ++k)
            acc += c_w[k] * s[tid + k];
        smooth[gid] = acc;
        float d = acc - s[tid + kRadius];
        dog[gid] = d;
        if (fabsf(d) > 0.05f)
            atomicAdd(count, 1);
    }
}

__global__ void downsampleKernel(const float *src, int ns, float *dst, int nd)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nd)
        dst[i] = 0.5f * (src[2 * i] + src[min(2 * i + 1, ns - 1)]);
}

void smoothAndDiff(const Signal &s, int blockSize, int *d_count)
{
    int grid = (s.n + blockSize - 1) / blockSize;
    size_t shmem = (blockSize + 2 * kRadius) * sizeof(float);
    gaussDogKernel<<<grid, blockSize, shmem>>>(s.base, s.smooth, s.dog, s.n, d_count);
    SS_CHECK(cudaGetLastError());
}

void downsample(const Signal &src, Signal &dst, int blockSize)
{
    int grid = (dst.n + blockSize - 1) / blockSize;
    downsampleKernel<<<grid, blockSize>>>(src.smooth, src.n, dst.base, dst.n);
    SS_CHECK(cudaGetLastError());
}
