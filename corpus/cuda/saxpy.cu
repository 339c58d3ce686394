// expect: clean
// launch: grid=2 block=128 n=1000 a=3 x=float32:1000 y=float32:1000
// y = a * x + y with a grid-stride loop: 256 threads cover n = 1000 elements, each thread
// handling every 256th element, so no element is touched by two threads.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1000;
  float *x, *y;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  saxpy<<<2, 128>>>(n, 3.0f, x, y);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
  return 0;
}
