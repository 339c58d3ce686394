// expect: clean
// launch: grid=4 block=256 n=1000
// Work-group sum with a sub-group tail that does not rely on lockstep execution: the first
// sub-group of 32 finishes the tree with sub_group_barrier between reading the partner's slot
// and updating its own, and between the steps.  Correct under both warp models (assumes
// sub-groups of 32 work-items, as the lockstep tail of warp_reduce_volatile.cl does).

#define WG 256

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_sum_sg_barrier(__global const int *in, __global int *partial, const int n)
{
    __local int scratch[WG];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);

    scratch[lid] = gid < n ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = WG / 2; s > 32; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (lid < 32) {
        for (int s = 32; s > 0; s >>= 1) {
            const int other = scratch[lid + s];
            sub_group_barrier(CLK_LOCAL_MEM_FENCE);
            scratch[lid] += other;
            sub_group_barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
