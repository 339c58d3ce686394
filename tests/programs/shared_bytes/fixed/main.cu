// The fixed twin of bug/main.cu: the clearing loop stops at the end of the shared size the launch asks for.
#include <cstdio>
#include <cstdlib>

__global__ void histo(const unsigned *data, unsigned *out, int n, int bins, int binsp, int r) {
  extern __shared__ unsigned hs[];
  for (int pos = threadIdx.x; pos < binsp * r; pos += blockDim.x)
    hs[pos] = 0;
  __syncthreads();
  int offset = (threadIdx.x % r) * binsp;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&hs[offset + data[i] % bins], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    unsigned sum = 0;
    for (int k = 0; k < r; k++)
      sum += hs[k * binsp + b];
    atomicAdd(&out[b], sum);
  }
}

int main() {
  int n, bins;
  if (scanf("%d %d", &n, &bins) != 2 || n < 1 || bins < 1)
    return 1;
  int binsp = bins + 1;
  int r = 12288 / (binsp * (int)sizeof(unsigned));
  unsigned *d_data, *d_out;
  cudaMalloc(&d_data, n * sizeof(unsigned));
  cudaMalloc(&d_out, bins * sizeof(unsigned));
  cudaMemset(d_out, 0, bins * sizeof(unsigned));
  histo<<<4, 256, binsp * r * sizeof(unsigned)>>>(d_data, d_out, n, bins, binsp, r);
  cudaDeviceSynchronize();
  return 0;
}
