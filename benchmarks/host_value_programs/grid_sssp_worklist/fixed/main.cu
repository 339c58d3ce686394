#include <climits>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <queue>
#include <utility>
#include <vector>
#include <cuda_runtime.h>

#define CHK(x)                                                                  \
    do {                                                                        \
        cudaError_t e_ = (x);                                                   \
        if (e_ != cudaSuccess) {                                                \
            fprintf(stderr, "line %d: %s\n", __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

static int edgeWeight(int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    return 1 + (lo * 31 + hi * 17) % 9;
}

__global__ void collectFrontier(int *flags, int n, int *queue, int *qlen)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && flags[v]) {
        flags[v] = 0;
        queue[atomicAdd(qlen, 1)] = v;
    }
}

__global__ void relaxFrontier(const int *queue, int qlen, const int *rowPtr, const int *col,
                              const int *wt, const int *distPrev, int *dist, int *flags)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= qlen)
        return;
    int v = queue[k];
    int dv = distPrev[v];
    for (int e = rowPtr[v]; e < rowPtr[v + 1]; ++e) {
        int u = col[e];
        int nd = dv + wt[e];
        if (nd < atomicMin(&dist[u], nd))
            atomicExch(&flags[u], 1);
    }
}

static void buildGrid(int W, int H, std::vector<int> &rowPtr, std::vector<int> &col, std::vector<int> &wt)
{
    rowPtr.assign(1, 0);
    col.clear();
    wt.clear();
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            int v = y * W + x;
            int nb[4], cnt = 0;
            if (x > 0)
                nb[cnt++] = v - 1;
            if (x + 1 < W)
                nb[cnt++] = v + 1;
            if (y > 0)
                nb[cnt++] = v - W;
            if (y + 1 < H)
                nb[cnt++] = v + W;
            for (int i = 0; i < cnt; ++i) {
                col.push_back(nb[i]);
                wt.push_back(edgeWeight(v, nb[i]));
            }
            rowPtr.push_back((int)col.size());
        }
}

static std::vector<int> dijkstraLattice(int W, int H, int src)
{
    std::vector<int> d(W * H, INT_MAX);
    typedef std::pair<int, int> Item;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    d[src] = 0;
    pq.push(Item(0, src));
    while (!pq.empty()) {
        Item it = pq.top();
        pq.pop();
        int v = it.second;
        if (it.first > d[v])
            continue;
        int x = v % W, y = v / W;
        int nb[4] = {x > 0 ? v - 1 : -1, x + 1 < W ? v + 1 : -1, y > 0 ? v - W : -1, y + 1 < H ? v + W : -1};
        for (int u : nb)
            if (u >= 0 && d[v] + edgeWeight(v, u) < d[u]) {
                d[u] = d[v] + edgeWeight(v, u);
                pq.push(Item(d[u], u));
            }
    }
    return d;
}

int main(int argc, char **argv)
{
    int W = argc > 1 ? atoi(argv[1]) : 100;
    int H = argc > 2 ? atoi(argv[2]) : 75;
    int n = W * H;
    int src = 0;

    std::vector<int> rowPtr, col, wt;
    buildGrid(W, H, rowPtr, col, wt);

    std::vector<int> dist(n, INT_MAX / 2), flags(n, 0);
    dist[src] = 0;
    flags[src] = 1;

    int *d_rowPtr, *d_col, *d_wt, *d_dist, *d_prev, *d_flags, *d_queue, *d_qlen;
    CHK(cudaMalloc(&d_rowPtr, rowPtr.size() * sizeof(int)));
    CHK(cudaMalloc(&d_col, col.size() * sizeof(int)));
    CHK(cudaMalloc(&d_wt, wt.size() * sizeof(int)));
    CHK(cudaMalloc(&d_dist, n * sizeof(int)));
    CHK(cudaMalloc(&d_prev, n * sizeof(int)));
    CHK(cudaMalloc(&d_flags, n * sizeof(int)));
    CHK(cudaMalloc(&d_queue, n * sizeof(int)));
    CHK(cudaMalloc(&d_qlen, sizeof(int)));
    CHK(cudaMemcpy(d_rowPtr, rowPtr.data(), rowPtr.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHK(cudaMemcpy(d_col, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHK(cudaMemcpy(d_wt, wt.data(), wt.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHK(cudaMemcpy(d_dist, dist.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHK(cudaMemcpy(d_flags, flags.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    const int threads = 256;
    int rounds = 0, qlen = 0;
    long long processed = 0;
    for (; rounds < 4 * n; ++rounds) {
        CHK(cudaMemset(d_qlen, 0, sizeof(int)));
        collectFrontier<<<(n + threads - 1) / threads, threads>>>(d_flags, n, d_queue, d_qlen);
        CHK(cudaGetLastError());
        CHK(cudaMemcpy(&qlen, d_qlen, sizeof(int), cudaMemcpyDeviceToHost));
        if (qlen == 0)
            break;
        processed += qlen;
        CHK(cudaMemcpy(d_prev, d_dist, n * sizeof(int), cudaMemcpyDeviceToDevice));
        relaxFrontier<<<(qlen + threads - 1) / threads, threads>>>(d_queue, qlen, d_rowPtr, d_col, d_wt,
                                                                   d_prev, d_dist, d_flags);
        CHK(cudaGetLastError());
    }
    CHK(cudaMemcpy(dist.data(), d_dist, n * sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<int> ref = dijkstraLattice(W, H, src);
    int wrong = 0, far = 0;
    for (int v = 0; v < n; ++v) {
        wrong += dist[v] != ref[v];
        far = dist[v] > far ? dist[v] : far;
    }
    printf("grid %dx%d: %d rounds, %lld frontier entries, eccentricity %d, %d wrong -> %s\n", W, H, rounds,
           processed, far, wrong, wrong ? "MISMATCH" : "OK");
    cudaFree(d_rowPtr);
    cudaFree(d_col);
    cudaFree(d_wt);
    cudaFree(d_dist);
    cudaFree(d_prev);
    cudaFree(d_flags);
    cudaFree(d_queue);
    cudaFree(d_qlen);
    return wrong ? 1 : 0;
}
