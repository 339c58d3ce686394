// C = A * B with A (M x K), B (K x N), C (M x N), all row-major.
// Dimension 0 indexes columns of C, dimension 1 rows.  Every version accumulates the
// products in increasing k, so all float versions round identically.

__kernel void matmul_naive_f32(__global const float* A, __global const float* B,
                               __global float* C, const int M, const int N, const int K)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= M || col >= N)
        return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}

#define TILE8 8

// 8 x 8 tiles in local memory; launched with an 8 x 8 local size.
__kernel void matmul_tiled8_f32(__global const float* A, __global const float* B,
                                __global float* C, const int M, const int N, const int K)
{
    __local float As[TILE8][TILE8];
    __local float Bs[TILE8][TILE8];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int col = get_group_id(0) * TILE8 + tx;
    const int row = get_group_id(1) * TILE8 + ty;

    float acc = 0.0f;
    for (int t = 0; t < (K + TILE8 - 1) / TILE8; ++t) {
        const int ka = t * TILE8 + tx;
        const int kb = t * TILE8 + ty;
        As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE8; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

#define TILE16 16

// 16 x 16 tiles; launched with a 16 x 16 local size.
__kernel void matmul_tiled16_f32(__global const float* A, __global const float* B,
                                 __global float* C, const int M, const int N, const int K)
{
    __local float As[TILE16][TILE16];
    __local float Bs[TILE16][TILE16];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int col = get_global_id(0);
    const int row = get_global_id(1);

    float acc = 0.0f;
    const int tiles = (K + TILE16 - 1) / TILE16;
    for (int t = 0; t < tiles; ++t) {
        const int ka = t * TILE16 + tx;
        const int kb = t * TILE16 + ty;
        As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE16; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// Tile size taken from the (square) local size, tiles passed as __local pointers of
// T * T floats each; T need not be a power of two.
__kernel void matmul_tiled_dyn_f32(__global const float* A, __global const float* B,
                                   __global float* C, __local float* As, __local float* Bs,
                                   const int M, const int N, const int K)
{
    const int T = get_local_size(0);
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int col = get_global_id(0);
    const int row = get_global_id(1);

    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty * T + tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty * T + tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < T; ++k)
            acc += As[ty * T + k] * Bs[k * T + tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

#define RT 16       // output tile is RT x RT
#define RROWS 4     // local size is RT x (RT / RROWS): each item computes RROWS outputs

// Register blocking with a non-square local size (16 x 4): every item loads RROWS
// elements of each tile and accumulates RROWS outputs of one column.
__kernel void matmul_rect_f32(__global const float* A, __global const float* B,
                              __global float* C, const int M, const int N, const int K)
{
    __local float As[RT][RT];
    __local float Bs[RT][RT];
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int col = get_group_id(0) * RT + tx;
    const int row0 = get_group_id(1) * RT;
    const int step = RT / RROWS;

    float acc[RROWS];
    for (int r = 0; r < RROWS; ++r)
        acc[r] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += RT) {
        for (int r = 0; r < RROWS; ++r) {
            const int lr = ty + r * step;
            const int row = row0 + lr;
            As[lr][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
            Bs[lr][tx] = (k0 + lr < K && col < N) ? B[(k0 + lr) * N + col] : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < RT; ++k) {
            const float b = Bs[k][tx];
            for (int r = 0; r < RROWS; ++r)
                acc[r] += As[ty + r * step][k] * b;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int r = 0; r < RROWS; ++r) {
        const int row = row0 + ty + r * step;
        if (row < M && col < N)
            C[row * N + col] = acc[r];
    }
}

// Unsigned integer product (wraps modulo 2^32), 8 x 8 tiles.
__kernel void matmul_tiled_u32(__global const uint* A, __global const uint* B,
                               __global uint* C, const int M, const int N, const int K)
{
    __local uint As[TILE8][TILE8];
    __local uint Bs[TILE8][TILE8];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int col = get_global_id(0);
    const int row = get_global_id(1);

    uint acc = 0u;
    for (int k0 = 0; k0 < K; k0 += TILE8) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0u;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE8; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
