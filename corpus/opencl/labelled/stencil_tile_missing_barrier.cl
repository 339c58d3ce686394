// expect: race shared read-write lines 22,33
// expect: race shared read-write lines 27,33
// (independent model: warp-race shared read-write lines 22,33 is folded into the race on the same lines)
// expect(independent): warp-race shared read-write lines 26,33
// launch: grid=4 block=128 n=500
// 7-point moving average through a local tile with a halo of 3 on each side.
// BUG: no barrier between filling the tile and reading it.  A work-item at the end of a
// sub-group reads tile slots that the next sub-group stores, and the last work-items read the
// right halo stored by work-items 0..2, so the averages mix old and new tile contents.
// Fixed version: stencil_tile_fixed.cl.

#define WG 128
#define R 3

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void moving_average7(__global const float *in, __global float *out, const int n)
{
    __local float tile[WG + 2 * R];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    tile[lid + R] = gid < n ? in[gid] : 0.0f;
    if (lid < R) {
        const int left = gid - R;
        const int right = gid + WG;
        tile[lid] = left >= 0 ? in[left] : 0.0f;
        tile[lid + WG + R] = right < n ? in[right] : 0.0f;
    }

    if (gid < n) {
        float sum = 0.0f;
        for (int k = -R; k <= R; ++k)
            sum += tile[lid + R + k];
        out[gid] = sum / (2 * R + 1);
    }
}
