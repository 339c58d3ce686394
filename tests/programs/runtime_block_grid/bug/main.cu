// The block size is read at run time and the grid rounds n up over it (`(n + threads - 1) / threads`); the offsets
// buffer comes from a helper that allocates max(count, 1) elements and returns the pointer.  degrees reads row[v + 1]
// for v up to n: one element past the n + 1 the helper allocated, whenever n is not a multiple of the block.
#include <cstdio>
#include <cstdlib>

static int *upload(const int *h, int count) {
  int *d = nullptr;
  cudaMalloc(&d, (count > 0 ? count : 1) * sizeof(int));
  if (count > 0) cudaMemcpy(d, h, count * sizeof(int), cudaMemcpyHostToDevice);
  return d;
}

__global__ void degrees(const int *row, int n, int *deg) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v <= n) deg[v] = row[v + 1] - row[v];
}

int main(int argc, char **argv) {
  int n = 0;
  if (scanf("%d", &n) != 1 || n < 1) return 1;
  int threads = argc > 1 ? atoi(argv[1]) : 256;
  if (threads < 1 || threads > 1024) threads = 256;
  int *row = (int *)calloc(n + 1, sizeof(int));
  int *d_row = upload(row, n + 1);
  int *d_deg;
  cudaMalloc(&d_deg, (n + 1) * sizeof(int));
  degrees<<<(n + threads - 1) / threads, threads>>>(d_row, n, d_deg);
  cudaDeviceSynchronize();
  return 0;
}
