// Stencils with clamped (or periodic) boundaries.

// 3-point 1-D stencil, halo in local memory (tile holds local size + 2 floats).
__kernel void stencil1d_3pt(__global const float* in, __global float* out,
                            __local float* tile, const int n)
{
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int lsize = get_local_size(0);

    tile[lid + 1] = in[clamp(gid, 0, n - 1)];
    if (lid == 0)
        tile[0] = in[clamp(gid - 1, 0, n - 1)];
    if (lid == lsize - 1)
        tile[lsize + 1] = in[clamp(gid + 1, 0, n - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);

    if (gid < n)
        out[gid] = 0.25f * tile[lid] + 0.5f * tile[lid + 1] + 0.25f * tile[lid + 2];
}

#define R 3
#define MAX_1D 256

__constant float weights7[2 * R + 1] = {0.0625f, -0.125f, 0.25f, 0.5f, 0.25f, -0.125f, 0.0625f};

// Radius-3 stencil with __constant weights and a static local tile; the first R items
// also load the halos.
__kernel void stencil1d_r3(__global const float* in, __global float* out, const int n)
{
    __local float tile[MAX_1D + 2 * R];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int lsize = get_local_size(0);

    tile[lid + R] = in[min(gid, n - 1)];
    if (lid < R) {
        tile[lid] = in[max(gid - R, 0)];
        tile[lid + lsize + R] = in[min(gid + lsize, n - 1)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (gid >= n)
        return;
    float acc = 0.0f;
    for (int j = 0; j <= 2 * R; ++j)
        acc += weights7[j] * tile[lid + j];
    out[gid] = acc;
}

// 5-point 2-D stencil; the (bx + 2) x (by + 2) tile including halo and corners is loaded
// cooperatively by all items of the group (tile is a __local pointer of that size).
__kernel void stencil2d_5pt(__global const float* in, __global float* out,
                            __local float* tile, const int w, const int h)
{
    const int bx = get_local_size(0), by = get_local_size(1);
    const int tw = bx + 2, th = by + 2;
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int x0 = get_group_id(0) * bx - 1;
    const int y0 = get_group_id(1) * by - 1;

    for (int t = ly * bx + lx; t < tw * th; t += bx * by) {
        const int gx = clamp(x0 + t % tw, 0, w - 1);
        const int gy = clamp(y0 + t / tw, 0, h - 1);
        tile[t] = in[gy * w + gx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    const int c = (ly + 1) * tw + (lx + 1);
    const float sum4 = tile[c - 1] + tile[c + 1] + tile[c - tw] + tile[c + tw];
    out[y * w + x] = 0.5f * tile[c] + 0.125f * sum4;
}

// 9-point 2-D stencil straight from global memory with clamped indices.
__kernel void stencil2d_9pt(__global const float* in, __global float* out, const int w, const int h)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    float acc = 0.0f;
    for (int dy = -1; dy <= 1; ++dy) {
        const int yy = clamp(y + dy, 0, h - 1);
        for (int dx = -1; dx <= 1; ++dx) {
            const int xx = clamp(x + dx, 0, w - 1);
            const float wgt = (dx == 0 && dy == 0) ? 0.5f : ((dx == 0 || dy == 0) ? 0.09375f : 0.03125f);
            acc += wgt * in[yy * w + xx];
        }
    }
    out[y * w + x] = acc;
}

// One Game of Life step on a torus; cells are uchar 0 / 1.
__kernel void stencil2d_life(__global const uchar* in, __global uchar* out, const int w, const int h)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    int alive = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            if (dx == 0 && dy == 0)
                continue;
            alive += in[((y + dy + h) % h) * w + (x + dx + w) % w];
        }
    const uchar self = in[y * w + x];
    out[y * w + x] = (alive == 3 || (self && alive == 2)) ? 1 : 0;
}

// 7-point 3-D stencil with clamped indices, 3-D NDRange.
__kernel void stencil3d_7pt(__global const float* in, __global float* out,
                            const int nx, const int ny, const int nz)
{
    const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    if (x >= nx || y >= ny || z >= nz)
        return;
#define AT(i, j, k) in[((k) * ny + (j)) * nx + (i)]
    const float c = AT(x, y, z);
    const float s = AT(max(x - 1, 0), y, z) + AT(min(x + 1, nx - 1), y, z)
                  + AT(x, max(y - 1, 0), z) + AT(x, min(y + 1, ny - 1), z)
                  + AT(x, y, max(z - 1, 0)) + AT(x, y, min(z + 1, nz - 1));
#undef AT
    out[(z * ny + y) * nx + x] = 0.25f * c + 0.125f * s;
}
