#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_TRY(x)                                                             \
    do {                                                                        \
        cudaError_t s_ = (x);                                                   \
        if (s_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s (%d): %s\n", __FILE__, __LINE__,                \
                    cudaGetErrorString(s_));                                    \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

constexpr int kMaxFeatures = 64;

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
predictKernel(const float *X, const float *w, float bias, int d, int n, float *prob)
{
    __shared__ float sw[kMaxFeatures];
    for (int k = threadIdx.x; k < d; k += BLOCK)
        sw[k] = w[k];
    __syncthreads();

    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i > n)
        return;
    const float *row = X + (size_t)i * d;
    float z = bias;
    for (int k = 0; k < d; ++k)
        z += row[k] * sw[k];
    prob[i] = 1.0f / (1.0f + __expf(-z));
}

template <int BLOCK>
static void launchPredict(const float *X, const float *w, float bias, int d, int n, float *prob)
{
    int grid = (n + BLOCK - 1) / BLOCK;
    predictKernel<BLOCK><<<grid, BLOCK>>>(X, w, bias, d, n, prob);
    CUDA_TRY(cudaGetLastError());
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int d = argc > 2 ? atoi(argv[2]) : 16;
    if (d > kMaxFeatures) {
        fprintf(stderr, "at most %d features\n", kMaxFeatures);
        return 1;
    }

    std::vector<float> w(d), X((size_t)n * d);
    for (int k = 0; k < d; ++k)
        w[k] = (k % 3 == 0 ? 1.0f : -0.5f) * (1.0f + 0.1f * k);
    const float bias = 0.25f;
    std::vector<int> label(n);
    std::vector<double> zref(n);
    unsigned s = 99u;
    for (int i = 0; i < n; ++i) {
        float z = bias;
        for (int k = 0; k < d; ++k) {
            s = s * 1664525u + 1013904223u;
            float v = ((s >> 8) & 0xffff) / 65536.0f * 2.0f - 1.0f;
            X[(size_t)i * d + k] = v;
            z += v * w[k];
        }
        label[i] = z > 0.0f;
        zref[i] = z;
    }

    float *d_X, *d_w, *d_prob;
    CUDA_TRY(cudaMalloc(&d_X, X.size() * sizeof(float)));
    CUDA_TRY(cudaMalloc(&d_w, d * sizeof(float)));
    CUDA_TRY(cudaMalloc(&d_prob, n * sizeof(float)));
    CUDA_TRY(cudaMemcpy(d_X, X.data(), X.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemcpy(d_w, w.data(), d * sizeof(float), cudaMemcpyHostToDevice));

    if (n >= 100000)
        launchPredict<512>(d_X, d_w, bias, d, n, d_prob);
    else if (n >= 10000)
        launchPredict<256>(d_X, d_w, bias, d, n, d_prob);
    else
        launchPredict<128>(d_X, d_w, bias, d, n, d_prob);
    CUDA_TRY(cudaDeviceSynchronize());

    std::vector<float> prob(n);
    CUDA_TRY(cudaMemcpy(prob.data(), d_prob, n * sizeof(float), cudaMemcpyDeviceToHost));
    int correct = 0;
    double logloss = 0.0, maxErr = 0.0;
    for (int i = 0; i < n; ++i) {
        correct += (prob[i] > 0.5f) == (label[i] != 0);
        maxErr = fmax(maxErr, fabs(prob[i] - 1.0 / (1.0 + exp(-zref[i]))));
        double p = fmin(fmax((double)prob[i], 1e-7), 1.0 - 1e-7);
        logloss -= label[i] ? log(p) : log(1.0 - p);
    }
    printf("n = %d, d = %d: accuracy %.4f, log-loss %.4f, max err %.2e -> %s\n", n, d,
           (double)correct / n, logloss / n, maxErr, maxErr < 1e-4 ? "OK" : "MISMATCH");
    cudaFree(d_X);
    cudaFree(d_w);
    cudaFree(d_prob);
    return maxErr < 1e-4 ? 0 : 1;
}
