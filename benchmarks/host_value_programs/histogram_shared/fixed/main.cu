#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CC(call)                                                                \
    do {                                                                        \
        cudaError_t e = (call);                                                 \
        if (e != cudaSuccess) {                                                 \
            fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e));   \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

struct HistParams {
    int n;
    int nbins;
    float lo;
    float hi;
};

__constant__ HistParams c_hp;

__global__ void histogramKernel(const float *x, unsigned int *hist)
{
    extern __shared__ unsigned int bins[];
    for (int b = threadIdx.x; b < c_hp.nbins; b += blockDim.x)
        bins[b] = 0;
    __syncthreads();

    const float scale = c_hp.nbins / (c_hp.hi - c_hp.lo);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < c_hp.n; i += gridDim.x * blockDim.x) {
        int b = (int)((x[i] - c_hp.lo) * scale);
        b = min(max(b, 0), c_hp.nbins - 1);
        atomicAdd(&bins[b], 1u);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < c_hp.nbins; b += blockDim.x)
        if (bins[b])
            atomicAdd(&hist[b], bins[b]);
}

static void sampleGaussian(std::vector<float> &x, unsigned seed)
{
    unsigned s = seed;
    for (size_t i = 0; i < x.size(); ++i) {
        float acc = 0.0f;
        for (int k = 0; k < 4; ++k) {
            s = s * 747796405u + 2891336453u;
            acc += (float)((s >> 9) & 0x7fffff) / 8388608.0f;
        }
        x[i] = (acc - 2.0f) * 1.7320508f;
    }
}

int main(int argc, char **argv)
{
    HistParams hp;
    hp.n = argc > 1 ? atoi(argv[1]) : 1 << 16;
    hp.nbins = argc > 2 ? atoi(argv[2]) : 64;
    hp.lo = -4.0f;
    hp.hi = 4.0f;
    int blocks = 32, threads = 256;

    std::vector<float> h_x(hp.n);
    sampleGaussian(h_x, 2024u);

    float *d_x;
    unsigned int *d_hist;
    CC(cudaMalloc(&d_x, hp.n * sizeof(float)));
    CC(cudaMalloc(&d_hist, hp.nbins * sizeof(unsigned int)));
    CC(cudaMemcpy(d_x, h_x.data(), hp.n * sizeof(float), cudaMemcpyHostToDevice));
    CC(cudaMemset(d_hist, 0, hp.nbins * sizeof(unsigned int)));
    CC(cudaMemcpyToSymbol(c_hp, &hp, sizeof(HistParams)));

    size_t shmem = hp.nbins * sizeof(unsigned int);
    histogramKernel<<<blocks, threads, shmem>>>(d_x, d_hist);
    CC(cudaGetLastError());

    std::vector<unsigned int> h_hist(hp.nbins);
    CC(cudaMemcpy(h_hist.data(), d_hist, hp.nbins * sizeof(unsigned int), cudaMemcpyDeviceToHost));

    std::vector<unsigned int> ref(hp.nbins, 0);
    const float scale = hp.nbins / (hp.hi - hp.lo);
    for (int i = 0; i < hp.n; ++i) {
        int b = (int)((h_x[i] - hp.lo) * scale);
        b = b < 0 ? 0 : (b >= hp.nbins ? hp.nbins - 1 : b);
        ref[b]++;
    }
    unsigned long long total = 0;
    int wrong = 0, peak = 0;
    for (int b = 0; b < hp.nbins; ++b) {
        total += h_hist[b];
        wrong += h_hist[b] != ref[b];
        if (h_hist[b] > h_hist[peak])
            peak = b;
    }
    printf("%d samples into %d bins: counted %llu, peak bin %d (%u), %d bins differ -> %s\n", hp.n,
           hp.nbins, total, peak, h_hist[peak], wrong, wrong ? "MISMATCH" : "OK");
    cudaFree(d_x);
    cudaFree(d_hist);
    return wrong ? 1 : 0;
}
