// expect(independent): warp-race shared read-write line 29
// expect(independent): warp-race shared read-write line 31
// expect(independent): warp-race shared read-write line 33
// expect(independent): warp-race shared read-write line 35
// expect(independent): warp-race shared read-write line 37
// launch: grid=4 block=128
// Work-group inclusive scan: every sub-group of 32 scans its slice warp-synchronously
// (Kogge-Stone over a volatile local array, no barriers), the sub-group totals are combined
// after one barrier.
// Correct under the lockstep model: in each step all active work-items of the sub-group read
// s[lid - d] before any of them stores.  Under independent scheduling a work-item can read its
// neighbour's slot after the neighbour already stored this step's value (or before it stored
// the previous step's): warp-synchronous races on every step.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_scan_warpsync(__global const int *in, __global int *out)
{
    __local volatile int s[WG];
    __local int warp_total[WG / 32];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    const int lane = lid & 31;
    const int warp = lid >> 5;

    s[lid] = in[gid];
    if (lane >= 1)
        s[lid] += s[lid - 1];
    if (lane >= 2)
        s[lid] += s[lid - 2];
    if (lane >= 4)
        s[lid] += s[lid - 4];
    if (lane >= 8)
        s[lid] += s[lid - 8];
    if (lane >= 16)
        s[lid] += s[lid - 16];
    if (lane == 31)
        warp_total[warp] = s[lid];
    barrier(CLK_LOCAL_MEM_FENCE);

    int offset = 0;
    for (int w = 0; w < warp; ++w)
        offset += warp_total[w];
    out[gid] = s[lid] + offset;
}
