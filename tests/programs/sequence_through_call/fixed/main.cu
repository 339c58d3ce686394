// The fixed twin of bug/main.cu: `slots` gives each element its own slot (a permutation), so `pack` has no race.
#include <cstdio>

__global__ void slots(int *pos, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) pos[t] = t;
}

__global__ void pack(const float *in, const int *pos, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[pos[t]] = in[t];
}

static void make_slots(int *pos, int count) {
  slots<<<(count + 127) / 128, 128>>>(pos, count);
}

int main() {
  int n;
  if (scanf("%d", &n) != 1 || n < 1) return 1;
  float *d_in, *d_out;
  int *d_pos;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMalloc(&d_pos, n * sizeof(int));
  make_slots(d_pos, n);
  pack<<<(n + 127) / 128, 128>>>(d_in, d_pos, d_out, n);
  cudaDeviceSynchronize();
  return 0;
}
