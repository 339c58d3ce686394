// expect: race shared read-write lines 30,31
// expect(independent): warp-race shared read-write lines 29,31
// (the intra-warp pairs on Bs are covered by the race finding; only As gives a warp-race)
// launch: grid=2,2 block=16,16 M=32 N=32 K=48 A=float32:1536 B=float32:1536 C=float32:1024
// C = A * B with 16x16 shared tiles (A is M x K, B is K x N, row-major), zero-padded at the
// edges.
// BUG (missing barrier before reading the tile): the tiles are used right after they are
// stored, without __syncthreads().  Thread (ty, tx) reads Bs[k][tx] for every k, i.e. the
// elements stored by the threads of other rows, most of them in other warps: a read-write
// race.  As[ty][k] comes from the same tile row, whose 16 threads are in one warp: ordered by
// lockstep execution, a warp-synchronous race under independent scheduling.  The barrier at
// the end of the iteration is present, so reads do not race with the next tiles' stores.
// (matmul_tiled_fixed.cu has both barriers.)
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
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}
