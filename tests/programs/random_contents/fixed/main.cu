// The fixed twin of bug/main.cu: the same drawn indices, each addition an atomicAdd, so repeated indices do not race.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <random>

__global__ void gather_add(const int *idx, const float *w, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&y[idx[i]], w[i]);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    std::mt19937 gen(19937);
    std::uniform_int_distribution<int> pick(0, n - 1);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    int *idx = (int *)malloc(n * sizeof(int));
    float *w = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) {
        idx[i] = pick(gen);
        w[i] = unit(gen);
    }
    int *d_idx;
    float *d_w, *d_y;
    cudaMalloc(&d_idx, n * sizeof(int));
    cudaMalloc(&d_w, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMemcpy(d_idx, idx, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_w, w, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_y, 0, n * sizeof(float));
    gather_add<<<(n + 255) / 256, 256>>>(d_idx, d_w, d_y, n);
    cudaDeviceSynchronize();
    float y0;
    cudaMemcpy(&y0, d_y, sizeof(float), cudaMemcpyDeviceToHost);
    printf("y[0] = %f\n", y0);
    return 0;
}
