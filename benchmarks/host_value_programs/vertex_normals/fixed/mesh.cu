#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "mesh.h"

static void ok(cudaError_t e)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "mesh: %s\n", cudaGetErrorString(e));
        exit(1);
    }
}

static float height(float x, float y)
{
    return 0.8f * sinf(0.15f * x) * cosf(0.11f * y) + 0.3f * sinf(0.04f * (x + 2.0f * y));
}

void buildTerrainMesh(TriMesh &dev, HostMesh &host, int nx, int ny, float cell)
{
    host.pos.clear();
    host.tri.clear();
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            float x = i * cell, y = j * cell;
            host.pos.push_back(make_float3(x, y, height(x, y)));
        }
    for (int j = 0; j + 1 < ny; ++j)
        for (int i = 0; i + 1 < nx; ++i) {
            int v00 = j * nx + i, v10 = v00 + 1, v01 = v00 + nx, v11 = v01 + 1;
            host.tri.push_back(make_int3(v00, v10, v11));
            host.tri.push_back(make_int3(v00, v11, v01));
        }

    dev.nv = (int)host.pos.size();
    dev.nt = (int)host.tri.size();
    ok(cudaMalloc(&dev.pos, dev.nv * sizeof(float3)));
    ok(cudaMalloc(&dev.normal, dev.nv * sizeof(float3)));
    ok(cudaMalloc(&dev.tri, dev.nt * sizeof(int3)));
    ok(cudaMemcpy(dev.pos, host.pos.data(), dev.nv * sizeof(float3), cudaMemcpyHostToDevice));
    ok(cudaMemcpy(dev.tri, host.tri.data(), dev.nt * sizeof(int3), cudaMemcpyHostToDevice));
    ok(cudaMemset(dev.normal, 0, dev.nv * sizeof(float3)));
}

void releaseMesh(TriMesh &dev)
{
    cudaFree(dev.pos);
    cudaFree(dev.normal);
    cudaFree(dev.tri);
    dev.nv = dev.nt = 0;
}
