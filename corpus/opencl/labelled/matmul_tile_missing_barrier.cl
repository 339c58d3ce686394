// expect: race shared read-write lines 29,32
// expect(independent): warp-race shared read-write lines 28,32
// (independent model: warp-race shared read-write lines 29,32 is folded into the race on the same lines)
// launch: grid=2,2 block=16,16 M=32 N=32 K=64 A=float32:2048 B=float32:2048 C=float32:1024
// Tiled matrix product C = A * B (row-major, M x K times K x N) with 16x16 local tiles.
// BUG: the barrier between loading the tiles and using them is missing.  Bs[k][tx] is stored by
// the work-item in row k of the group, which is in another sub-group for most k, so the
// product uses stale tile values depending on the schedule.  As[ty][k] comes from the same
// row (the same sub-group of 32 = two rows): ordered only under the lockstep model.
// The barrier at the end of the loop (before the tiles are overwritten) is present.
// Fixed version: matmul_tile_fixed.cl.

#define TS 16

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void matmul(__global const float *A, __global const float *B, __global float *C,
            const int M, const int N, const int K)
{
    __local float As[TS][TS];
    __local float Bs[TS][TS];
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int col = get_group_id(0) * TS + tx;
    const int row = get_group_id(1) * TS + ty;
    float acc = 0.0f;

    for (int t = 0; t < K; t += TS) {
        As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;

        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (row < M && col < N)
        C[row * N + col] = acc;
}
