// expect: race shared read-write lines 25,26
// (independent model: warp-race shared read-write lines 25,26 is folded into the race on the same lines)
// launch: grid=4 block=256
// Work-group inclusive prefix sum (Hillis-Steele), first pass of a multi-block scan: writes
// the scanned block and the block total.
// BUG: each step needs two barriers, one after reading the neighbour and one after updating
// the own element.  The first is missing, so work-item lid can read buf[lid - offset] after
// work-item lid - offset already added this step's value to it (across sub-groups the order
// is up to the scheduler), and some prefix sums count elements twice.
// Fixed version: scan_fixed.cl.

#define WG 256

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_scan(__global const int *in, __global int *out, __global int *block_sums)
{
    __local int buf[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    buf[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int offset = 1; offset < WG; offset <<= 1) {
        const int add = lid >= offset ? buf[lid - offset] : 0;
        buf[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    out[gid] = buf[lid];
    if (lid == WG - 1)
        block_sums[get_group_id(0)] = buf[lid];
}
