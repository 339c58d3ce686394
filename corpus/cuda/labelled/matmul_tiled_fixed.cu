// expect: clean
// launch: grid=2,2 block=16,16 M=32 N=32 K=48 A=float32:1536 B=float32:1536 C=float32:1024
// C = A * B with 16x16 shared tiles (A is M x K, B is K x N, row-major), zero-padded at the
// edges.
// FIX of matmul_missing_barrier.cu: a __syncthreads() between storing the tiles and reading
// them (the tiles are read across rows and warps), and one at the end of the iteration so
// that the next tiles are not stored while this one is still being read.
// Buffers: A holds M*K floats, B K*N floats, C M*N floats.

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;

  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int ak = t * TILE + tx;
    const int bk = t * TILE + ty;
    As[ty][tx] = row < M && ak < K ? A[row * K + ak] : 0.0f;
    Bs[ty][tx] = bk < K && col < N ? B[bk * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}
