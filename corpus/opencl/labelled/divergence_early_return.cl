// expect: barrier-divergence line 22
// launch: grid=4 block=64 n=200
// Delta encoding of each block: out[i] = in[i] - in[i - 1] within the block (the first element
// of a block is kept as is).
// BUG: work-items past the end of the data return before the barrier.  With n = 200 the last
// work-group has 8 live work-items and 56 that have exited, so the barrier is not reached by
// the whole group.
// Fixed version: divergence_early_return_fixed.cl.

#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void delta_encode(__global const int *in, __global int *out, const int n)
{
    __local int tile[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    if (gid >= n)
        return;
    tile[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = lid > 0 ? tile[lid] - tile[lid - 1] : tile[lid];
}
