// Kernels that do not complete normally: an endless loop and a failing assert.
#include <assert.h>

__global__ void spin_forever(volatile int *flag, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n = 0;
  while (flag[0] == 0) {  // nobody ever sets the flag
    n++;
  }
  out[i] = n;
}

__global__ void checked(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = in[i];
    assert(v >= 0 && "inputs must be non-negative");  // ASSERT-LINE
    out[i] = 2 * v;
  }
}
