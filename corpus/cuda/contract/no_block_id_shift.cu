// expect: clean
// launch: grid=1 block=16
// A whole program whose main() launches the kernel with one block of 16 threads. The kernel reads
// no block id: every block would do the same work, so its contract is one block (launching two
// would only make the blocks race with themselves, a launch this program never makes).

#include <cstdio>

__global__ void shift(char *a, const int *b) { a[threadIdx.x] += b[threadIdx.x]; }

int main() {
  char *a;
  int *b;
  cudaMalloc(&a, 16);
  cudaMalloc(&b, 16 * sizeof(int));
  shift<<<1, 16>>>(a, b);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
