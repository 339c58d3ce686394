#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "mesh.h"

__device__ float3 sub3(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }

__device__ float3 cross3(float3 a, float3 b)
{
    return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

__global__ void accumulateNormals(TriMesh m)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= m.nt)
        return;
    int3 f = m.tri[t];
    float3 a = m.pos[f.x], b = m.pos[f.y], c = m.pos[f.z];
    float3 n = cross3(sub3(b, a), sub3(c, a));
    int corners[3] = {f.x, f.y, f.z};
    for (int k = 0; k < 3; ++k) {
        float3 *dst = &m.normal[corners[k]];
        atomicAdd(&dst->x, n.x);
        atomicAdd(&dst->y, n.y);
        atomicAdd(&dst->z, n.z);
    }
}

__global__ void normalizeNormals(TriMesh m)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= m.nv)
        return;
    float3 n = m.normal[v];
    float len = sqrtf(n.x * n.x + n.y * n.y + n.z * n.z);
    if (len > 0.0f)
        m.normal[v] = make_float3(n.x / len, n.y / len, n.z / len);
}

int main(int argc, char **argv)
{
    int nx = argc > 1 ? atoi(argv[1]) : 128;
    int ny = argc > 2 ? atoi(argv[2]) : 96;

    TriMesh mesh;
    HostMesh host;
    buildTerrainMesh(mesh, host, nx, ny, 0.5f);

    const int threads = 128;
    accumulateNormals<<<(mesh.nt + threads - 1) / threads, threads>>>(mesh);
    normalizeNormals<<<(mesh.nv + threads - 1) / threads, threads>>>(mesh);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "kernel failed: %s\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<float3> got(mesh.nv);
    cudaMemcpy(got.data(), mesh.normal, mesh.nv * sizeof(float3), cudaMemcpyDeviceToHost);

    std::vector<double> ref(3 * (size_t)mesh.nv, 0.0);
    for (const int3 &f : host.tri) {
        const float3 &a = host.pos[f.x], &b = host.pos[f.y], &c = host.pos[f.z];
        double ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z;
        double vx = c.x - a.x, vy = c.y - a.y, vz = c.z - a.z;
        double n[3] = {uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx};
        int idx[3] = {f.x, f.y, f.z};
        for (int k = 0; k < 3; ++k)
            for (int d = 0; d < 3; ++d)
                ref[3 * (size_t)idx[k] + d] += n[d];
    }
    double worst = 0.0;
    int bad = 0;
    for (int v = 0; v < mesh.nv; ++v) {
        double *r = &ref[3 * (size_t)v];
        double len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
        double dot = (got[v].x * r[0] + got[v].y * r[1] + got[v].z * r[2]) / len;
        double ang = acos(fmin(1.0, fmax(-1.0, dot))) * 57.29577951;
        worst = fmax(worst, ang);
        bad += ang > 0.5;
    }
    printf("terrain %dx%d: %d vertices, %d triangles, worst normal deviation %.4f deg, %d bad -> %s\n",
           nx, ny, mesh.nv, mesh.nt, worst, bad, bad ? "MISMATCH" : "OK");
    releaseMesh(mesh);
    return bad ? 1 : 0;
}
