// Contents the host writes: fixed twin, main() fills the index list with 0, 1, ..., n - 1, a permutation: every
// thread adds into its own element of y (searched random indices would collide where the program never does).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void gather_add(const int *idx, const float *w, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[idx[i]] += w[i];
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    int *idx = (int *)malloc(n * sizeof(int));
    float *w = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) {
        idx[i] = i;
        w[i] = (float)rand() / RAND_MAX;
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
