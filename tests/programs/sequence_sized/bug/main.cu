// Two kernels on one buffer, sized at run time: `slots` gives each element its output slot, `pack` moves the
// elements there. The bug is in what `slots` computes (two elements per slot), but the race it causes is in
// `pack`: only the contents `slots` leaves in `pos`, at the grid the count read at run time gives, show it.
#include <cstdio>

__global__ void slots(int *pos, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) pos[t] = t / 2;
}

__global__ void pack(const float *in, const int *pos, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[pos[t]] = in[t];
}

int main() {
  int n;
  if (scanf("%d", &n) != 1 || n < 1) return 1;
  float *d_in, *d_out;
  int *d_pos;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMalloc(&d_pos, n * sizeof(int));
  slots<<<(n + 127) / 128, 128>>>(d_pos, n);
  pack<<<(n + 127) / 128, 128>>>(d_in, d_pos, d_out, n);
  cudaDeviceSynchronize();
  return 0;
}
