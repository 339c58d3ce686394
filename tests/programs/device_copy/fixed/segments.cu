// The fixed twin of bug/segments.cu: each segment starts where the one before it ends.
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void offsets(const int *len, int *start, int m) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int s = 0;
    for (int b = 0; b < m; b++) {
      start[b] = s;
      s += len[b];
    }
  }
}

__global__ void place(const int *len, const int *cursor, int *out, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m)
    for (int j = 0; j < len[i]; j++) out[cursor[i] + j] = i;
}

int main() {
  const int m = 256;
  int *h_len = (int *)malloc(m * sizeof(int));
  for (int i = 0; i < m; i++) h_len[i] = rand() % 8;
  int *d_len, *d_start, *d_cursor, *d_out;
  cudaMalloc(&d_len, m * sizeof(int));
  cudaMalloc(&d_start, m * sizeof(int));
  cudaMalloc(&d_cursor, m * sizeof(int));
  cudaMalloc(&d_out, 8 * m * sizeof(int));
  cudaMemcpy(d_len, h_len, m * sizeof(int), cudaMemcpyHostToDevice);
  offsets<<<1, 1>>>(d_len, d_start, m);
  cudaMemcpy(d_cursor, d_start, m * sizeof(int), cudaMemcpyDeviceToDevice);
  place<<<m / 128, 128>>>(d_len, d_cursor, d_out, m);
  cudaDeviceSynchronize();
  free(h_len);
  return 0;
}
