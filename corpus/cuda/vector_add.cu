// expect: clean
// launch: grid=4 block=256 n=1000
// Element-wise c = a + b, one thread per element; the last block is only partly used (n is
// not a multiple of 256), so every access is guarded by i < n.
// Buffers: a, b and c hold n floats.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1000;
  const size_t bytes = n * sizeof(float);
  float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i) {
    ha[i] = (float)i;
    hb[i] = 2.0f * i;
  }
  float *a, *b, *c;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMalloc(&c, bytes);
  cudaMemcpy(a, ha, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, bytes, cudaMemcpyHostToDevice);
  const int block = 256;
  vector_add<<<(n + block - 1) / block, block>>>(a, b, c, n);
  cudaMemcpy(hc, c, bytes, cudaMemcpyDeviceToHost);
  printf("c[%d] = %f\n", n - 1, hc[n - 1]);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  free(ha);
  free(hb);
  free(hc);
  return 0;
}
