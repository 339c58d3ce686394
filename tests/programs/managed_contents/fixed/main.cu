// The fixed twin of bug/main.cu: the managed index list holds 0, 1, ..., n - 1, a permutation: no two threads add into one element.
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
    int *idx;
    float *w, *y;
    cudaMallocManaged(&idx, n * sizeof(int));
    cudaMallocManaged(&w, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    for (int i = 0; i < n; ++i) {
        idx[i] = i;
        w[i] = (float)rand() / RAND_MAX;
        y[i] = 0.0f;
    }
    gather_add<<<(n + 255) / 256, 256>>>(idx, w, y, n);
    cudaDeviceSynchronize();
    printf("y[0] = %f\n", y[0]);
    return 0;
}
