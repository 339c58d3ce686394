#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x)                                                                   \
    do {                                                                        \
        cudaError_t st = (x);                                                   \
        if (st != cudaSuccess) {                                                \
            printf("cuda: %s (%s:%d)\n", cudaGetErrorString(st), __FILE__,      \
                   __LINE__);                                                   \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

struct SoftmaxParams {
    int rows;
    int cols;
    int ld;
    float scale;
};

__constant__ SoftmaxParams c_params;

constexpr int kThreadsX = 128;
constexpr int kRowsPerBlock = 4;

__device__ void warpMax(volatile float *r, int t)
{
    r[t] = fmaxf(r[t], r[t + 32]);
    r[t] = fmaxf(r[t], r[t + 16]);
    r[t] = fmaxf(r[t], r[t + 8]);
    r[t] = fmaxf(r[t], r[t + 4]);
    r[t] = fmaxf(r[t], r[t + 2]);
    r[t] = fmaxf(r[t], r[t + 1]);
}

__device__ void warpSum(volatile float *r, int t)
{
    r[t] += r[t + 32];
    r[t] += r[t + 16];
    r[t] += r[t + 8];
    r[t] += r[t + 4];
    r[t] += r[t + 2];
    r[t] += r[t + 1];
}

__global__ void softmaxRows(const float *in, float *out)
{
    __shared__ float red[kRowsPerBlock][kThreadsX];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.x * blockDim.y + ty;
    bool active = row < c_params.rows;
    const float *x = in + (size_t)row * c_params.ld;

    float m = -FLT_MAX;
    if (active)
        for (int j = tx; j < c_params.cols; j += blockDim.x)
            m = fmaxf(m, x[j] * c_params.scale);
    red[ty][tx] = m;
    __syncthreads();
    if (tx < 64)
        red[ty][tx] = fmaxf(red[ty][tx], red[ty][tx + 64]);
    __syncthreads();
    if (tx < 32)
        warpMax(red[ty], tx);
    __syncthreads();
    float rowMax = red[ty][0];
    __syncthreads();

    float s = 0.0f;
    if (active)
        for (int j = tx; j < c_params.cols; j += blockDim.x)
            s += __expf(x[j] * c_params.scale - rowMax);
    red[ty][tx] = s;
    __syncthreads();
    if (tx < 64)
        red[ty][tx] += red[ty][tx + 64];
    __syncthreads();
    if (tx < 32)
        warpSum(red[ty], tx);
    __syncthreads();
    float inv = 1.0f / red[ty][0];

    if (active)
        for (int j = tx; j < c_params.cols; j += blockDim.x)
            out[(size_t)row * c_params.ld + j] = __expf(x[j] * c_params.scale - rowMax) * inv;
}

int main()
{
    const int rows = 512;
    const int cols = 384;
    SoftmaxParams p;
    p.rows = rows;
    p.cols = cols;
    p.ld = cols;
    p.scale = 1.0f / sqrtf(64.0f);

    std::vector<float> h_in((size_t)rows * cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            h_in[(size_t)r * cols + c] = 4.0f * sinf(0.37f * c + 0.11f * r) + 0.01f * ((r * 31 + c * 17) % 97);

    float *d_in, *d_out;
    CK(cudaMalloc(&d_in, h_in.size() * sizeof(float)));
    CK(cudaMalloc(&d_out, h_in.size() * sizeof(float)));
    CK(cudaMemcpy(d_in, h_in.data(), h_in.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpyToSymbol(c_params, &p, sizeof(p)));

    int local[2] = {kThreadsX, kRowsPerBlock};
    dim3 block(local[0], local[1]);
    dim3 grid((rows + local[1] - 1) / local[1]);
    softmaxRows<<<grid, block>>>(d_in, d_out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<float> h_out(h_in.size());
    CK(cudaMemcpy(h_out.data(), d_out, h_out.size() * sizeof(float), cudaMemcpyDeviceToHost));

    double maxErr = 0.0, worstRowSum = 0.0;
    for (int r = 0; r < rows; ++r) {
        const float *x = &h_in[(size_t)r * cols];
        double mx = -1e30;
        for (int c = 0; c < cols; ++c)
            mx = fmax(mx, (double)x[c] * p.scale);
        double den = 0.0;
        for (int c = 0; c < cols; ++c)
            den += exp((double)x[c] * p.scale - mx);
        double rs = 0.0;
        for (int c = 0; c < cols; ++c) {
            double ref = exp((double)x[c] * p.scale - mx) / den;
            double got = h_out[(size_t)r * cols + c];
            maxErr = fmax(maxErr, fabs(got - ref));
            rs += got;
        }
        worstRowSum = fmax(worstRowSum, fabs(rs - 1.0));
    }
    printf("softmax %d x %d: max err %.3e, worst |row sum - 1| %.3e -> %s\n", rows, cols, maxErr,
           worstRowSum, maxErr < 1e-4 ? "OK" : "MISMATCH");

    cudaFree(d_in);
    cudaFree(d_out);
    return maxErr < 1e-4 ? 0 : 1;
}
