#include "levels.h"

constexpr int CHUNK = 128;

__global__ void restrictKernel(const float *fine, int nf, float *coarse, int nc)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= nc)
        return;
    int f = 2 * c;
    if (c == 0 || c == nc - 1)
        coarse[c] = fine[f];
    else
        coarse[c] = 0.25f * fine[f - 1] + 0.5f * fine[f] + 0.25f * fine[f + 1];
}

__global__ void prolongAddKernel(const float *coarse, int nc, float *fine, int nf, float sign)
{
    __shared__ float tile[CHUNK + 1];
    int base = blockIdx.x * CHUNK;

    for (int j = threadIdx.x; j <= CHUNK; j += blockDim.x) {
        int c = min(base + j, nc - 1);
        tile[j] = coarse[c];
    }
    __syncthreads();

    for (int j = threadIdx.x; j < 2 * CHUNK; j += blockDim.x) {
        int f = 2 * base + j;
        if (f < nf) {
            float v = (j & 1) ? 0.5f * (tile[j >> 1] + tile[(j >> 1) + 1]) : tile[j >> 1];
            fine[f] += sign * v;
        }
    }
}

void launchRestrict(const float *fine, int nf, float *coarse, int nc)
{
    int threads = 128;
    restrictKernel<<<(nc + threads - 1) / threads, threads>>>(fine, nf, coarse, nc);
    CU(cudaGetLastError());
}

void launchProlongAdd(const float *coarse, int nc, float *fine, int nf, float sign)
{
    int blocks = (nc + CHUNK - 1) / CHUNK;
    prolongAddKernel<<<blocks, CHUNK>>>(coarse, nc, fine, nf, sign);
    CU(cudaGetLastError());
}
