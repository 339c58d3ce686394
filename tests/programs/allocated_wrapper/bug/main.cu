// The buffer holds two ints per item, allocated in main (the item count read at run time into a global) and
// handed down to a wrapper that launches. Each thread writes the next item's first int: the last one past the end.
#include <cstdio>
#include <cstdlib>
#define CHECK(call) do { if ((call) != cudaSuccess) exit(1); } while (0)

int N;  // items

__global__ void pairs(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[2 * i + 2] = i;  // the last item writes one past the end
}

void run(int *d) {
  pairs<<<(N + 255) / 256, 256>>>(d, N);
}

int main() {
  if (scanf("%d", &N) != 1) return 1;
  int *d;
  int bytes = sizeof(int) * N * 2;
  CHECK(cudaMalloc(&d, bytes));
  run(d);
  cudaDeviceSynchronize();
  return 0;
}
