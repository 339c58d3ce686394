#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_OK(x)                                                              \
    do {                                                                        \
        cudaError_t r = (x);                                                    \
        if (r != cudaSuccess) {                                                 \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                    cudaGetErrorString(r));                                     \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

struct MeshView {
    int nv;
    const float3 *src;
    float3 *dst;
    const int *adjStart;
    const int *adj;
    const int *pinned;
};

__global__ void smoothStep(MeshView m, float lambda)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= m.nv)
        return;
    float3 p = m.src[v];
    if (!m.pinned[v]) {
        int b = m.adjStart[v];
        int e = m.adjStart[v + 1];
        float3 avg = make_float3(0.0f, 0.0f, 0.0f);
        for (int k = b; k < e; ++k) {
            float3 q = m.src[m.adj[k]];
            avg.x += q.x;
            avg.y += q.y;
            avg.z += q.z;
        }
        float inv = 1.0f / (float)(e - b);
        p.x += lambda * (avg.x * inv - p.x);
        p.y += lambda * (avg.y * inv - p.y);
        p.z += lambda * (avg.z * inv - p.z);
    }
    m.dst[v] = p;
}

template <typename T>
static T *toDevice(const std::vector<T> &h)
{
    T *d = nullptr;
    CUDA_OK(cudaMalloc(&d, h.size() * sizeof(T)));
    CUDA_OK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

int main(int argc, char **argv)
{
    int gx = argc > 1 ? atoi(argv[1]) : 96;
    int gy = argc > 2 ? atoi(argv[2]) : 64;
    int iters = argc > 3 ? atoi(argv[3]) : 10;
    const float lambda = 0.5f;

    std::vector<float3> pos;
    std::vector<int> pinned, adjStart, adj;
    for (int j = 0; j < gy; ++j)
        for (int i = 0; i < gx; ++i) {
            float z = 0.2f * sinf(0.3f * i) * cosf(0.2f * j) + 0.05f * (float)((i * 7 + j * 13) % 5 - 2);
            pos.push_back(make_float3((float)i, (float)j, z));
            pinned.push_back(i == 0 || j == 0 || i == gx - 1 || j == gy - 1);
        }
    for (int j = 0; j < gy; ++j)
        for (int i = 0; i < gx; ++i) {
            adjStart.push_back((int)adj.size());
            for (int dj = -1; dj <= 1; ++dj)
                for (int di = -1; di <= 1; ++di) {
                    int ni = i + di, nj = j + dj;
                    if ((di || dj) && ni >= 0 && nj >= 0 && ni < gx && nj < gy)
                        adj.push_back(nj * gx + ni);
                }
        }
    adjStart.push_back((int)adj.size());

    float3 *d_pos = toDevice(pos);
    float3 *d_tmp = toDevice(pos);
    int *d_start = toDevice(adjStart);
    int *d_adj = toDevice(adj);
    int *d_pin = toDevice(pinned);

    MeshView view;
    view.nv = (int)pos.size();
    view.adjStart = d_start;
    view.adj = d_adj;
    view.pinned = d_pin;

    int threads = 128;
    int blocks = (view.nv + threads - 1) / threads;
    float3 *cur = d_pos;
    float3 *nxt = d_pos;
    for (int it = 0; it < iters; ++it) {
        view.src = cur;
        view.dst = nxt;
        smoothStep<<<blocks, threads>>>(view, lambda);
        CUDA_OK(cudaGetLastError());
        float3 *t = cur;
        cur = nxt;
        nxt = t;
    }
    CUDA_OK(cudaDeviceSynchronize());

    std::vector<float3> got(pos.size());
    CUDA_OK(cudaMemcpy(got.data(), cur, got.size() * sizeof(float3), cudaMemcpyDeviceToHost));

    std::vector<float3> ref = pos, tmp = pos;
    for (int it = 0; it < iters; ++it) {
        for (int v = 0; v < view.nv; ++v) {
            float3 p = ref[v];
            if (!pinned[v]) {
                float ax = 0, ay = 0, az = 0;
                for (int k = adjStart[v]; k < adjStart[v + 1]; ++k) {
                    ax += ref[adj[k]].x;
                    ay += ref[adj[k]].y;
                    az += ref[adj[k]].z;
                }
                float inv = 1.0f / (float)(adjStart[v + 1] - adjStart[v]);
                p.x += lambda * (ax * inv - p.x);
                p.y += lambda * (ay * inv - p.y);
                p.z += lambda * (az * inv - p.z);
            }
            tmp[v] = p;
        }
        ref.swap(tmp);
    }

    double maxErr = 0.0, rough0 = 0.0, rough1 = 0.0;
    for (int v = 0; v < view.nv; ++v) {
        maxErr = fmax(maxErr, fabs((double)got[v].z - ref[v].z));
        rough0 += fabs(pos[v].z);
        rough1 += fabs(got[v].z);
    }
    printf("mesh %dx%d (%zu edges), %d iterations: mean |z| %.5f -> %.5f, max err %.3e -> %s\n", gx, gy,
           adj.size(), iters, rough0 / view.nv, rough1 / view.nv, maxErr, maxErr < 1e-5 ? "OK" : "MISMATCH");
    cudaFree(d_pos);
    cudaFree(d_tmp);
    cudaFree(d_start);
    cudaFree(d_adj);
    cudaFree(d_pin);
    return maxErr < 1e-5 ? 0 : 1;
}
