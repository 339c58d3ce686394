// expect: out-of-bounds shared line 26
// expect: uninitialized shared line 32
// launch: grid=4 block=64 n=256
// 5-point box filter through a local tile with a halo of R = 2 on each side.
// BUG: off by one in the right halo index: work-items 0 and 1 store to tile[WG + R + 1 + lid]
// instead of tile[WG + R + lid].  Work-item 1 writes one element past the end of the tile
// (tile has WG + 2R = 68 slots), and slot WG + R = 66 is never written but read by the last
// work-items of the group.
// Fixed version: halo_tile_fixed.cl.

#define WG 64
#define R 2

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void box5(__global const float *in, __global float *out, const int n)
{
    __local float tile[WG + 2 * R];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    tile[lid + R] = gid < n ? in[gid] : 0.0f;
    if (lid < R) {
        const int left = gid - R;
        const int right = gid + WG;
        tile[lid] = left >= 0 ? in[left] : 0.0f;
        tile[lid + WG + R + 1] = right < n ? in[right] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    float sum = 0.0f;
    for (int k = 0; k <= 2 * R; ++k)
        sum += tile[lid + k];
    if (gid < n)
        out[gid] = sum / (2 * R + 1);
}
