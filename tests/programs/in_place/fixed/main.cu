// Jacobi relaxation of a 1-D rod: each sweep reads a cell's neighbours and writes the cell, from one buffer into
// the other, then the two swap.
#include <cuda_runtime.h>

__global__ void relax(const float *u, float *next, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) next[i] = 0.5f * (u[i - 1] + u[i + 1]);
}

int main() {
  const int n = 2048;
  float *rod, *scratch;
  cudaMalloc(&rod, n * sizeof(float));
  cudaMalloc(&scratch, n * sizeof(float));
  cudaMemset(rod, 0, n * sizeof(float));
  for (int sweep = 0; sweep < 8; ++sweep) {
    relax<<<n / 128, 128>>>(rod, scratch, n);
    float *t = rod;
    rod = scratch;
    scratch = t;
  }
  cudaDeviceSynchronize();
  return 0;
}
