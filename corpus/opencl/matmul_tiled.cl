// expect: clean
// launch: grid=3,3 block=16,16 M=40 N=48 K=36
// C = A * B with 16x16 tiles of A and B staged in local memory.  The first barrier makes the
// tiles visible before they are used, the second keeps the next tile from overwriting one that
// slower work-items are still reading.
// Buffers: A is M x K, B is K x N, C is M x N floats (row-major).

#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul_tiled(__global const float *A, __global const float *B, __global float *C,
                  const int M, const int N, const int K)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int tx = get_local_id(0);
    int ty = get_local_id(1);
    int col = get_group_id(0) * TILE + tx;
    int row = get_group_id(1) * TILE + ty;
    float acc = 0.0f;

    int ntiles = (K + TILE - 1) / TILE;
    for (int t = 0; t < ntiles; ++t) {
        int ak = t * TILE + tx;
        int bk = t * TILE + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (row < M && col < N)
        C[row * N + col] = acc;
}
