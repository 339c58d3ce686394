#pragma once
#include <vector>
#include <cuda_runtime.h>

struct TriMesh {
    int nv;
    int nt;
    float3 *pos;
    int3 *tri;
    float3 *normal;
};

struct HostMesh {
    std::vector<float3> pos;
    std::vector<int3> tri;
};

void buildTerrainMesh(TriMesh &dev, HostMesh &host, int nx, int ny, float cell);
void releaseMesh(TriMesh &dev);
