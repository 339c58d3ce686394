#include <cassert>
#include <cmath>
#include <cstdio>
#include "matrix.h"

template <int T>
__global__ void matmulTiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;

    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * Bs[k][tx];
    }
    C[row * N + col] = acc;
}

static int pickTile(int M, int N, int K)
{
    if (M % 32 == 0 && N % 32 == 0 && K % 32 == 0)
        return 32;
    if (M % 16 == 0 && N % 16 == 0 && K % 16 == 0)
        return 16;
    return 8;
}

static void gemm(const Matrix &a, const Matrix &b, Matrix &c, int tile)
{
    assert(a.cols == b.rows && c.rows == a.rows && c.cols == b.cols);
    assert(a.rows % tile == 0 && b.cols % tile == 0 && a.cols % tile == 0);

    dim3 block(tile, tile);
    dim3 grid(b.cols / tile, a.rows / tile);
    switch (tile) {
    case 8:
        matmulTiled<8><<<grid, block>>>(a.dev.data(), b.dev.data(), c.dev.data(),
                                        a.rows, b.cols, a.cols);
        break;
    case 16:
        matmulTiled<16><<<grid, block>>>(a.dev.data(), b.dev.data(), c.dev.data(),
                                         a.rows, b.cols, a.cols);
        break;
    case 32:
        matmulTiled<32><<<grid, block>>>(a.dev.data(), b.dev.data(), c.dev.data(),
                                         a.rows, b.cols, a.cols);
        break;
    default:
        fprintf(stderr, "unsupported tile %d\n", tile);
        std::exit(1);
    }
    GPU_CHECK(cudaGetLastError());
}

int main()
{
    static constexpr int M = 192;
    static constexpr int N = 160;
    static constexpr int K = 128;

    Matrix a, b, c;
    initMatrix(a, M, K, 12345u);
    initMatrix(b, K, N, 777u);
    initZero(c, M, N);

    int tile = pickTile(M, N, K);
    gemm(a, b, c, tile);
    GPU_CHECK(cudaDeviceSynchronize());

    std::vector<float> got, ref;
    c.dev.download(got);
    matmulHost(a, b, ref);

    double maxErr = 0.0, checksum = 0.0;
    for (size_t i = 0; i < ref.size(); ++i) {
        maxErr = fmax(maxErr, fabs((double)got[i] - ref[i]));
        checksum += got[i];
    }
    printf("C = A(%dx%d) * B(%dx%d), tile %d, %zu elements\n", M, K, K, N, tile, c.dev.size());
    printf("checksum %.6f, max abs err %.3e -> %s\n", checksum, maxErr,
           maxErr < 1e-3 ? "OK" : "MISMATCH");
    return maxErr < 1e-3 ? 0 : 1;
}
