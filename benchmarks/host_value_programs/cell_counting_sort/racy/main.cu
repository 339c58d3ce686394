#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(e)                                                           \
    do {                                                                        \
        cudaError_t c_ = (e);                                                   \
        if (c_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s at %s:%d\n", cudaGetErrorString(c_), __FILE__,  \
                    __LINE__);                                                  \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

constexpr int kCellsPerSide = 16;
constexpr int kNumCells = kCellsPerSide * kCellsPerSide;
constexpr int kThreads = 256;

__global__ void cellOfParticle(const float2 *p, int n, int *cell)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int cx = min((int)(p[i].x * kCellsPerSide), kCellsPerSide - 1);
        int cy = min((int)(p[i].y * kCellsPerSide), kCellsPerSide - 1);
        cell[i] = cy * kCellsPerSide + cx;
    }
}

__global__ void countCells(const int *cell, int n, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&count[cell[i]], 1);
}

__global__ void exclusiveScanCells(const int *count, int *start)
{
    __shared__ int s[kNumCells];
    int t = threadIdx.x;
    s[t] = count[t];
    __syncthreads();
    for (int off = 1; off < kNumCells; off <<= 1) {
        int v = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    start[t] = s[t] - count[t];
}

__global__ void scatterByCell(const int *cell, const float2 *p, int n, int *cursor, int *sortedIdx,
                              float2 *sortedPos)
{
    __shared__ int localCount[kNumCells];
    __shared__ int blockBase[kNumCells];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    for (int c = t; c < kNumCells; c += blockDim.x)
        localCount[c] = 0;
    __syncthreads();

    int c = 0, rank = 0;
    if (i < n) {
        c = cell[i];
        rank = atomicAdd(&localCount[c], 1);
    }
    __syncthreads();
    for (int k = t; k < kNumCells; k += blockDim.x)
        blockBase[k] = cursor[k];
    __syncthreads();

    if (i < n) {
        int pos = blockBase[c] + rank;
        sortedIdx[pos] = i;
        sortedPos[pos] = p[i];
    }
}

int main(int argc, char **argv)
{
    int side = argc > 1 ? atoi(argv[1]) : 96;
    std::vector<float2> pts;
    for (int y = 0; y < side; ++y)
        for (int x = 0; x < side; ++x) {
            float jx = 0.3f * sinf(12.9898f * x + 78.233f * y);
            float jy = 0.3f * cosf(39.3468f * x + 11.135f * y);
            pts.push_back(make_float2((x + 0.5f + jx) / side, (y + 0.5f + jy) / side));
        }
    int n = (int)pts.size();

    float2 *d_pos, *d_sortedPos;
    int *d_cell, *d_count, *d_start, *d_cursor, *d_sortedIdx;
    CUDA_CHECK(cudaMalloc(&d_pos, pts.size() * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&d_sortedPos, pts.size() * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&d_cell, pts.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_sortedIdx, pts.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_count, kNumCells * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_start, kNumCells * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_cursor, kNumCells * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_pos, pts.data(), pts.size() * sizeof(float2), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_count, 0, kNumCells * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_sortedIdx, 0xff, pts.size() * sizeof(int)));

    int blocks = (n + kThreads - 1) / kThreads;
    cellOfParticle<<<blocks, kThreads>>>(d_pos, n, d_cell);
    countCells<<<blocks, kThreads>>>(d_cell, n, d_count);
    exclusiveScanCells<<<1, kNumCells>>>(d_count, d_start);
    CUDA_CHECK(cudaMemcpy(d_cursor, d_start, kNumCells * sizeof(int), cudaMemcpyDeviceToDevice));
    scatterByCell<<<blocks, kThreads>>>(d_cell, d_pos, n, d_cursor, d_sortedIdx, d_sortedPos);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    std::vector<int> cell(n), idx(n), start(kNumCells), count(kNumCells);
    CUDA_CHECK(cudaMemcpy(cell.data(), d_cell, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(idx.data(), d_sortedIdx, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(start.data(), d_start, kNumCells * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(count.data(), d_count, kNumCells * sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<int> seen(n, 0);
    int emptySlots = 0, misplaced = 0, maxOcc = 0;
    for (int c = 0; c < kNumCells; ++c) {
        maxOcc = count[c] > maxOcc ? count[c] : maxOcc;
        for (int k = start[c]; k < start[c] + count[c]; ++k) {
            int j = idx[k];
            if (j < 0 || j >= n) {
                ++emptySlots;
                continue;
            }
            seen[j]++;
            misplaced += cell[j] != c;
        }
    }
    int dup = 0;
    for (int j = 0; j < n; ++j)
        dup += seen[j] != 1;
    bool ok = !emptySlots && !misplaced && !dup;
    printf("%d particles in %d cells (max occupancy %d): %d empty slots, %d misplaced, %d not once -> %s\n", n,
           kNumCells, maxOcc, emptySlots, misplaced, dup, ok ? "OK" : "MISMATCH");
    cudaFree(d_pos);
    cudaFree(d_sortedPos);
    cudaFree(d_cell);
    cudaFree(d_sortedIdx);
    cudaFree(d_count);
    cudaFree(d_start);
    cudaFree(d_cursor);
    return ok ? 0 : 1;
}
