// The size comes back through a reference parameter (`read_size(path, n)` after `int n = 0;`), buffers are
// allocated inside a checking macro: the launch's n is the file's, not 0.  shift_left reads a[i + 1], which thread
// i + 1 writes: a race across warps and blocks for any n > 32.
#include <cstdio>
#include <fstream>

#define CHECK(call) do { if ((call) != cudaSuccess) return 1; } while (0)

static bool read_size(const char *path, int &n) {
  std::ifstream in(path);
  return bool(in >> n) && n > 0;
}

__global__ void shift_left(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) a[i] = a[i + 1];
}

int main(int argc, char **argv) {
  int n = 0;
  if (argc < 2 || !read_size(argv[1], n)) return 1;
  float *d_a;
  CHECK(cudaMalloc(&d_a, n * sizeof(float)));
  shift_left<<<(n + 255) / 256, 256>>>(d_a, n);
  CHECK(cudaDeviceSynchronize());
  return 0;
}
