// Two kernels on one buffer: `slots` gives each element its output slot, `pack` moves the elements there.
// Fixed twin: one slot per element, so `pack` writes each slot once.  Random contents in `pos` would show a race
// (two threads reading one slot number), which the program never has.
#include <cuda_runtime.h>

__global__ void slots(int *pos, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) pos[t] = t;
}

__global__ void pack(const float *in, const int *pos, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[pos[t]] = in[t];
}

static void assign(int *d_pos, int n) {
  slots<<<(n + 127) / 128, 128>>>(d_pos, n);
}

int main() {
  const int n = 512;
  float *d_in, *d_out;
  int *d_pos;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMalloc(&d_pos, n * sizeof(int));
  assign(d_pos, n);
  pack<<<(n + 127) / 128, 128>>>(d_in, d_pos, d_out, n);
  cudaDeviceSynchronize();
  return 0;
}
