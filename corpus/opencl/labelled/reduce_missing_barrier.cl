// expect: race shared read-write line 25
// (independent model: warp-race shared read-write line 25 is folded into the race on the same lines)
// launch: grid=4 block=128 n=500
// Work-group sum reduction in local memory (first pass of a two-pass reduction).
// BUG: the barrier inside the tree loop is missing.  At step s work-item lid reads
// scratch[lid + s], which work-item lid + s is still updating from step 2s; for s >= 32 the two
// work-items are in different sub-groups, so the partial sums depend on how the sub-groups are
// scheduled.  (Inside one sub-group the lockstep model orders the accesses.)
// Fixed version: reduce_tree_fixed.cl.

#define WG 128

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_sum(__global const int *in, __global int *partial, const int n)
{
    __local int scratch[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    scratch[lid] = gid < n ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        /* a barrier(CLK_LOCAL_MEM_FENCE) belongs here */
    }

    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
