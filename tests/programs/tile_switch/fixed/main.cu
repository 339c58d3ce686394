// A template kernel picked by `switch (tile)` where a helper returns the tile (the first test that holds), each
// case launching its own instance with a dim3(tile, tile) block; the matrices' sizes are members of two objects.
// The instance the program runs (tile 16: 48 is not a multiple of 32) waits for every warp before it reloads its
// shared tile.
#include <cassert>
#include <cuda_runtime.h>

struct Shape {
  int rows;
  int cols;
};

template <int T>
__global__ void tiled_product(const float *a, const float *b, float *c, int n) {
  __shared__ float sa[T][T];
  __shared__ float sb[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += T) {
    sa[ty][tx] = a[row * n + k0 + tx];
    sb[ty][tx] = b[(k0 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += sa[ty][k] * sb[k][tx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

static int pick_tile(int n) {
  if (n % 32 == 0) return 32;
  if (n % 16 == 0) return 16;
  return 8;
}

static void product(const Shape &sa, const Shape &sb, const float *a, const float *b, float *c, int tile) {
  assert(sa.cols == sb.rows && sa.rows % tile == 0);
  dim3 block(tile, tile);
  dim3 grid(sb.cols / tile, sa.rows / tile);
  switch (tile) {
  case 8:
    tiled_product<8><<<grid, block>>>(a, b, c, sa.rows);
    break;
  case 16:
    tiled_product<16><<<grid, block>>>(a, b, c, sa.rows);
    break;
  case 32:
    tiled_product<32><<<grid, block>>>(a, b, c, sa.rows);
    break;
  }
}

int main() {
  const int n = 48;
  Shape sa = {n, n}, sb = {n, n};
  float *a, *b, *c;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  cudaMalloc(&c, n * n * sizeof(float));
  product(sa, sb, a, b, c, pick_tile(n));
  cudaDeviceSynchronize();
  return 0;
}
