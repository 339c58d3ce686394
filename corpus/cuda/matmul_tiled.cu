// expect: clean
// launch: grid=3,3 block=16,16 M=40 N=48 K=36
// C = A * B (A is M x K, B is K x N, row-major) with 16x16 tiles of A and B staged in shared
// memory and zero-padded at the edges.  The first barrier makes a tile visible before it is
// used, the second keeps the next tile from overwriting one that other threads still read.
// Buffers: A holds M*K floats, B holds K*N floats, C holds M*N floats.

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;

  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ak = t * TILE + tx;
    int bk = t * TILE + ty;
    As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}
